#include "core/api/responseparser.h"

#include "testutil.h"

#include <QtTest>

using namespace nb2;

class tst_ResponseParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void interactions_data();
    void interactions();
    void unfinishedAllowedForGet();
    void imageShareOfOutputTokens();
    void errorBodies_data();
    void errorBodies();
    void hugeErrorMessageIsBounded();
    void retryAfter_data();
    void retryAfter();
    void durations_data();
    void durations();
    void salvageId_data();
    void salvageId();
    void base64_data();
    void base64();
};

void tst_ResponseParser::interactions_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<int>("kind"); // ErrorKind::None = success
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("image"); // fixture file the image must equal
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("drafts");

    const int ok = int(ErrorKind::None);
    QTest::newRow("full") << "full.json" << ok << "v1_abc123"
                          << "red.jpg"
                          << "Here is your image." << 0;
    QTest::newRow("draft in thought never chosen") << "draft_in_thought.json" << ok << "v1_draft"
                                                   << "red.jpg"
                                                   << "" << 2;
    QTest::newRow("multi image: last of current turn") << "multi_image.json" << ok << "v1_multi"
                                                       << "red.jpg"
                                                       << "two versions\nfinal" << 0;
    QTest::newRow("text only") << "text_only.json" << int(ErrorKind::NoImage) << "v1_text"
                               << ""
                               << "I can't draw that, but here is a description." << 0;
    QTest::newRow("earlier turn image not reused") << "earlier_turn_only.json" << int(ErrorKind::NoImage) << "v1_old"
                                                   << ""
                                                   << "No." << 0;
    QTest::newRow("missing id") << "missing_id.json" << ok << ""
                                << "red.jpg"
                                << "" << 0;
    QTest::newRow("minimal") << "minimal.json" << ok << ""
                             << "blue.png"
                             << "" << 0;
    QTest::newRow("unknown fields") << "unknown_fields.json" << ok << "v1_unk"
                                    << "red.jpg"
                                    << "" << 0;
    QTest::newRow("mislabelled mime") << "mislabelled_mime.json" << ok << "v1_mime"
                                      << "red.jpg"
                                      << "" << 0;
    QTest::newRow("failed") << "failed.json" << int(ErrorKind::Server) << "v1_fail"
                            << ""
                            << "" << 0;
    QTest::newRow("not an image") << "not_an_image.json" << int(ErrorKind::MalformedResponse) << "v1_bad"
                                  << ""
                                  << "" << 0;
}

void tst_ResponseParser::interactions()
{
    QFETCH(QString, fixture);
    QFETCH(int, kind);
    QFETCH(QString, id);
    QFETCH(QString, image);
    QFETCH(QString, text);
    QFETCH(int, drafts);

    const auto r = ResponseParser::parseInteraction(apiFixture(fixture));
    if (kind != int(ErrorKind::None)) {
        QVERIFY(!r.ok());
        QCOMPARE(int(r.error().kind), kind);
        QCOMPARE(r.error().api.interactionId, id);
        QCOMPARE(r.error().api.modelText, text);
        QVERIFY(!r.error().message.isEmpty());
        return;
    }
    QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
    QCOMPARE(r.value().id, id);
    QCOMPARE(r.value().image.bytes, apiFixture(image));
    QCOMPARE(r.value().image.mimeType,
        image.endsWith(QLatin1String(".jpg")) ? QStringLiteral("image/jpeg") : QStringLiteral("image/png"));
    QCOMPARE(r.value().text, text);
    QCOMPARE(r.value().drafts.size(), drafts);
    for (const ImageData &d : r.value().drafts)
        QCOMPARE(d.bytes, apiFixture(QStringLiteral("blue.png")));
}

void tst_ResponseParser::imageShareOfOutputTokens()
{
    // Image output is priced at its own rate: the parser keeps the image share of the output.
    const QByteArray split = R"({"id":"v1_u","status":"in_progress","usage":{"total_input_tokens":7,
        "total_output_tokens":1150,"total_thought_tokens":40,"output_tokens_by_modality":[
        {"modality":"text","tokens":30},{"modality":"image","tokens":1120}]}})";
    const auto a = ResponseParser::parseInteraction(split, true);
    QVERIFY(a.ok());
    QCOMPARE(a.value().usage.outputTokens, 1150);
    QCOMPARE(a.value().usage.imageOutputTokens, 1120);
    QCOMPARE(a.value().usage.thoughtTokens, 40);
    // No split (or a malformed one): unknown, -1.
    for (const QByteArray &body :
        {QByteArray(R"({"id":"v1_u","status":"in_progress","usage":{"total_output_tokens":9}})"),
            QByteArray(R"({"id":"v1_u","status":"in_progress","usage":{"output_tokens_by_modality":"x"}})")}) {
        const auto b = ResponseParser::parseInteraction(body, true);
        QVERIFY(b.ok());
        QCOMPARE(b.value().usage.imageOutputTokens, -1);
    }
}

void tst_ResponseParser::unfinishedAllowedForGet()
{
    const QByteArray body = R"({"id":"v1_bg","status":"in_progress","object":"interaction","model":"m"})";
    const auto get = ResponseParser::parseInteraction(body, true);
    QVERIFY(get.ok());
    QCOMPARE(get.value().status, QStringLiteral("in_progress"));
    QVERIFY(get.value().image.isNull());
    const auto create = ResponseParser::parseInteraction(body, false);
    QVERIFY(!create.ok());
    QVERIFY(create.error().message.contains(QLatin1String("in_progress")));
    // whitespace-padded base64 decodes exactly
    const auto ws = ResponseParser::parseInteraction(apiFixture(QStringLiteral("base64_whitespace.json")));
    QVERIFY(ws.ok());
    QCOMPARE(ws.value().image.bytes, apiFixture(QStringLiteral("red.jpg")) + QByteArray(1, '\0'));
    // not JSON at all
    const auto html = ResponseParser::parseInteraction("<html>proxy</html>");
    QCOMPARE(html.error().kind, ErrorKind::MalformedResponse);
    QVERIFY(html.error().message.contains(QLatin1String("proxy")));
}

void tst_ResponseParser::errorBodies_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QStringList>("allowed");

    QTest::newRow("native") << 400 << QByteArray(R"({"error":{"message":"Bad thing.","code":"invalid_request"}})")
                            << int(ErrorKind::InvalidRequest) << "invalid_request"
                            << "Bad thing." << QStringList();
    QTest::newRow("google numeric")
        << 400
        << QByteArray(
               R"({"error":{"code":400,"message":"thinking_level: Unsupported thinking level. Allowed values are: low, high","status":"INVALID_ARGUMENT"}})")
        << int(ErrorKind::InvalidRequest) << "INVALID_ARGUMENT"
        << "thinking_level: Unsupported thinking level. Allowed values are: low, high"
        << QStringList {QStringLiteral("low"), QStringLiteral("high")};
    QTest::newRow("array wrapped")
        << 400
        << QByteArray(
               R"([{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}])")
        << int(ErrorKind::Auth) << "API_KEY_INVALID"
        << "API key not valid." << QStringList();
    QTest::newRow("410 gone") << 410 << QByteArray(R"({"error":{"message":"expired","code":"not_found"}})")
                              << int(ErrorKind::NotFound) << "not_found"
                              << "expired" << QStringList();
    QTest::newRow("422") << 422 << QByteArray(R"({"error":{"message":"nope"}})") << int(ErrorKind::InvalidRequest) << ""
                         << "nope" << QStringList();
    QTest::newRow("empty body 502") << 502 << QByteArray() << int(ErrorKind::Server) << ""
                                    << "" << QStringList();
    QTest::newRow("plain text 503") << 503 << QByteArray("upstream connect error\n") << int(ErrorKind::Server) << ""
                                    << "upstream connect error" << QStringList();
    QTest::newRow("error as string") << 500 << QByteArray(R"({"error":"kaputt"})") << int(ErrorKind::Server) << ""
                                     << "kaputt" << QStringList();
}

void tst_ResponseParser::errorBodies()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(int, kind);
    QFETCH(QString, code);
    QFETCH(QString, message);
    QFETCH(QStringList, allowed);
    const Error e = ResponseParser::parseError(status, body);
    QCOMPARE(int(e.kind), kind);
    QCOMPARE(e.api.httpStatus, status);
    QCOMPARE(e.api.serverCode, code);
    QCOMPARE(e.api.serverMessage, message);
    QCOMPARE(e.api.allowedValues, allowed);
    QVERIFY(e.message.contains(QString::number(status)));
}

void tst_ResponseParser::hugeErrorMessageIsBounded()
{
    // A broken or hostile server's 900 KB error message (and code): kept and printed only in part.
    const QByteArray huge(900 * 1024, 'x');
    const QByteArray body
        = QByteArray(R"({"error":{"code":")") + QByteArray(5000, 'c') + R"(","message":")" + huge + R"("}})";
    const Error e = ResponseParser::parseError(500, body);
    QCOMPARE(int(e.kind), int(ErrorKind::Server));
    QCOMPARE(e.api.serverMessage.size(), ResponseParser::kMaxServerMessageChars);
    QVERIFY(e.api.serverMessage.endsWith(QChar(0x2026)));
    QVERIFY(e.api.serverMessage.startsWith(QStringLiteral("xxxx")));
    QCOMPARE(e.api.serverCode.size(), ResponseParser::kMaxServerCodeChars);
    QVERIFY2(
        e.message.size() < ResponseParser::kMaxServerMessageChars + 300, qPrintable(QString::number(e.message.size())));
    QVERIFY(e.message.contains(QStringLiteral("HTTP 500")));

    // The string shape, and an interaction's errors[] entry, are bounded the same way.
    const Error s = ResponseParser::parseError(503, QByteArray(R"({"error":")") + huge + R"("})");
    QCOMPARE(s.api.serverMessage.size(), ResponseParser::kMaxServerMessageChars);
    const QByteArray failed
        = QByteArray(R"({"id":"v1_f","status":"failed","errors":[{"code":"internal","message":")") + huge + R"("}]})";
    const Result<Interaction> r = ResponseParser::parseInteraction(failed);
    QVERIFY(!r);
    QCOMPARE(r.error().api.serverMessage.size(), ResponseParser::kMaxServerMessageChars);
    QVERIFY(r.error().message.size() < ResponseParser::kMaxServerMessageChars + 300);

    // A 50 MB body is not parsed as JSON at all: classified by its status, a bounded excerpt kept.
    const QByteArray enormous = QByteArray(R"({"error":{"message":")") + QByteArray(50 * 1000 * 1000, 'y') + R"("}})";
    const Error big = ResponseParser::parseError(502, enormous);
    QCOMPARE(int(big.kind), int(ErrorKind::Server));
    QVERIFY(big.api.serverMessage.size() <= ResponseParser::kMaxServerMessageChars);
    QVERIFY(big.message.size() < ResponseParser::kMaxServerMessageChars + 300);
    QVERIFY(big.message.contains(QStringLiteral("HTTP 502")));

    // Short messages stay verbatim; a cut never splits a surrogate pair.
    QCOMPARE(ResponseParser::boundedServerText(QStringLiteral("short")), QStringLiteral("short"));
    const QString emoji = QString(5, QLatin1Char('a')) + QString::fromUtf8("\xF0\x9F\x98\x80") + QStringLiteral("tail");
    const QString cut = ResponseParser::boundedServerText(emoji, 7); // 'aaaaa' + a pair would be split at 6
    QCOMPARE(cut, QString(5, QLatin1Char('a')) + QChar(0x2026));
}

void tst_ResponseParser::retryAfter_data()
{
    QTest::addColumn<QString>("header");
    QTest::addColumn<QString>("ms");
    QTest::addColumn<int>("expected");
    QTest::newRow("seconds") << "7"
                             << "" << 7000;
    QTest::newRow("fraction") << "1.5"
                              << "" << 1500;
    QTest::newRow("ms wins") << "7"
                             << "250" << 250;
    QTest::newRow("http date") << "Wed, 10 Jun 2026 12:00:30 GMT"
                               << "" << 30000;
    QTest::newRow("past date") << "Wed, 10 Jun 2026 11:00:00 GMT"
                               << "" << 0;
    QTest::newRow("garbage") << "soon"
                             << "" << -1;
    QTest::newRow("none") << ""
                          << "" << -1;
}

void tst_ResponseParser::retryAfter()
{
    QFETCH(QString, header);
    QFETCH(QString, ms);
    QFETCH(int, expected);
    const QDateTime now(QDate(2026, 6, 10), QTime(12, 0, 0), QTimeZone::utc());
    QCOMPARE(ResponseParser::parseRetryAfter(header, ms, now), expected);
}

void tst_ResponseParser::durations_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("ms");
    QTest::newRow("7s") << "7s" << 7000;
    QTest::newRow("0.4s") << "0.4s" << 400;
    QTest::newRow("250ms") << "250ms" << 250;
    QTest::newRow("bare") << "3" << 3000;
    QTest::newRow("bad") << "x" << -1;
}

void tst_ResponseParser::durations()
{
    QFETCH(QString, text);
    QFETCH(int, ms);
    QCOMPARE(ResponseParser::parseDurationMs(text), ms);
}

void tst_ResponseParser::base64_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("decoded");
    QTest::addColumn<bool>("ok");
    QTest::newRow("padded") << QByteArray("aGVsbG8=") << QByteArray("hello") << true;
    QTest::newRow("no padding") << QByteArray("aGVsbG8") << QByteArray("hello") << true;
    QTest::newRow("two pad missing") << QByteArray("aGk") << QByteArray("hi") << true;
    QTest::newRow("whitespace") << QByteArray(" aGVs\nbG8=\r\n") << QByteArray("hello") << true;
    QTest::newRow("url safe") << QByteArray("-_8") << QByteArray("\xfb\xff") << true;
    QTest::newRow("invalid char") << QByteArray("aGV$bG8=") << QByteArray() << false;
    QTest::newRow("impossible length") << QByteArray("aGVsb") << QByteArray() << false;
}

void tst_ResponseParser::base64()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, decoded);
    QFETCH(bool, ok);
    bool good = false;
    QCOMPARE(ResponseParser::decodeBase64(text, &good), decoded);
    QCOMPARE(good, ok);
}

void tst_ResponseParser::salvageId_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("id");
    QTest::newRow("cut after the id") << QByteArray(R"({"id": "v1_abc-_9", "object": "interaction", "steps": [{"type")")
                                      << QStringLiteral("v1_abc-_9");
    QTest::newRow("id later") << QByteArray(R"({"object":"interaction","model":"m","id":"v1_x","steps":[)")
                              << QStringLiteral("v1_x");
    QTest::newRow("cut inside the id") << QByteArray(R"({"id": "v1_ab)") << QString();
    QTest::newRow("cut before the value") << QByteArray(R"({"id": )") << QString();
    QTest::newRow("only nested ids") << QByteArray(
        R"({"steps": [{"id": "step_1"}], "usage": {"id": "u"}, "model": "m")")
                                     << QString();
    QTest::newRow("escaped key text") << QByteArray(R"({"note": "\"id\": \"fake\"", "id": "v1_real")")
                                      << QStringLiteral("v1_real");
    QTest::newRow("not an id token") << QByteArray(R"({"id": "v1 with spaces"})") << QString();
    QTest::newRow("empty") << QByteArray() << QString();
    QTest::newRow("html") << QByteArray("<html><body>502</body></html>") << QString();
}

void tst_ResponseParser::salvageId()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, id);
    QCOMPARE(ResponseParser::salvageInteractionId(body), id);
}

QTEST_GUILESS_MAIN(tst_ResponseParser)
#include "tst_responseparser.moc"
