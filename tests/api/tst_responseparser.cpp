#include "core/api/base64blocks.h"
#include "core/api/responsedocument.h"
#include "core/api/responseparser.h"
#include "tests/api/base64reference.h"

#include "testutil.h"

#include <QRandomGenerator>
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
    void fastBase64MatchesQt_data();
    void fastBase64MatchesQt();
    void fastJsonParseMatchesTheParser_data();
    void fastJsonParseMatchesTheParser();
    void bigAnswerParsesToTheSameImage();
    void keptImageDataGivesTheSameInteraction_data();
    void keptImageDataGivesTheSameInteraction();
};

namespace {

using nb2test::qtDecode;

QByteArray randomBytes(int n, quint32 seed)
{
    QRandomGenerator rng(seed);
    QByteArray b(n, Qt::Uninitialized);
    for (char &c : b)
        c = char(rng.bounded(256));
    return b;
}

} // namespace

void tst_ResponseParser::fastBase64MatchesQt_data()
{
    QTest::addColumn<QByteArray>("text");
    for (int n : {0, 1, 2, 3, 4, 5, 100, 4097, 300000}) {
        const QByteArray raw = randomBytes(n, quint32(n) + 7);
        QTest::addRow("padded %d", n) << raw.toBase64();
        QTest::addRow("unpadded %d", n) << raw.toBase64(QByteArray::OmitTrailingEquals);
        QTest::addRow("url-safe %d", n) << raw.toBase64(QByteArray::Base64UrlEncoding);
    }
    const QByteArray b = randomBytes(3000, 1).toBase64();
    QTest::newRow("line breaks") << QByteArray(b).insert(76, "\r\n").insert(1000, '\n');
    QTest::newRow("spaces") << QByteArray(b).insert(10, ' ').insert(2000, '\t');
    QTest::newRow("bad character") << QByteArray(b).replace(500, 1, "*");
    QTest::newRow("padding inside") << QByteArray(b).replace(400, 1, "=");
    QTest::newRow("one char too many") << b.left(b.size() - 3);
    QTest::newRow("only padding") << QByteArray("====");
    QTest::newRow("extra padding") << QByteArray("QQ=====");
    QTest::newRow("non-zero trailing bits") << QByteArray("QR==");
    QTest::newRow("high bytes") << QByteArray("QUJD\xc3\xa9");
    QTest::newRow("mixed alphabets") << QByteArray("ab+/cd-_");
    // The 32-character blocks (AVX2, base64blocks.h) and the table path after them: every
    // length around where the blocks stop, and every byte outside the alphabet inside a block,
    // at a block's edges and near where the blocks end.
    for (int n : {45, 46, 47, 48, 49, 50, 51, 52, 72, 73, 74, 75, 96, 97, 98, 99, 1000, 1001, 1002}) {
        const QByteArray raw = randomBytes(n, quint32(n) + 31);
        QTest::addRow("blocks, padded %d", n) << raw.toBase64();
        QTest::addRow("blocks, unpadded %d", n) << raw.toBase64(QByteArray::OmitTrailingEquals);
    }
    const QByteArray blocks = randomBytes(3000, 77).toBase64(); // 4000 characters
    const QByteArray alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int v = 0; v < 256; ++v) {
        if (alphabet.contains(char(v)))
            continue;
        for (int at : {0, 17, 31, 32, 63, 2000, 3930, 3937, 3990}) {
            QTest::addRow("byte %d at %d", v, at) << QByteArray(blocks).replace(at, 1, QByteArray(1, char(v)));
        }
    }
    for (int at : {0, 5, 31, 32, 1999})
        QTest::addRow("every value at %d", at) << (QByteArray(blocks).insert(at, alphabet) + alphabet);
}

void tst_ResponseParser::fastBase64MatchesQt()
{
    QFETCH(QByteArray, text);
    bool expectedOk = false, gotOk = false;
    const QByteArray expected = qtDecode(text, &expectedOk);
    const QByteArray got = ResponseParser::decodeBase64(text, &gotOk);
    QCOMPARE(gotOk, expectedOk);
    QCOMPARE(got, expected);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    // On a CPU with AVX2 the rows above went through the vector blocks: make sure they did.
    QCOMPARE(apidetail::base64BlocksAccelerated(), bool(__builtin_cpu_supports("avx2")));
#endif
}

void tst_ResponseParser::fastJsonParseMatchesTheParser_data()
{
    QTest::addColumn<QByteArray>("text");
    const QByteArray b64 = randomBytes(9000, 3).toBase64(); // 12 KB: cut out
    const QByteArray shortB64 = randomBytes(300, 4).toBase64();
    QTest::newRow("image part")
        << (R"({"id":"v1_x","steps":[{"type":"model_output","content":[{"type":"image","data":")" + b64
               + R"(","mime_type":"image/jpeg"}]}]})");
    QTest::newRow("two long values and a short one")
        << (R"({"a":")" + b64 + R"(","b":[")" + b64.left(5000) + R"(",")" + shortB64 + R"("],"c":1})");
    QTest::newRow("long value, spaces before the comma") << (R"({"a" : ")" + b64 + "\"  \n ,\"b\":true}");
    QTest::newRow("long key") << (R"({")" + b64 + R"(":1,"x":")" + b64 + R"("})");
    QTest::newRow("long key, space before the colon") << (R"({")" + b64 + R"("  :  "v"})");
    QTest::newRow("long value with escapes") << (R"({"a":")" + b64 + R"(\n\"\/)" + b64 + R"("})");
    QTest::newRow("long value with UTF-8") << (R"({"a":")" + b64 + "\xc3\xa9" + b64 + R"("})");
    QTest::newRow("long value with bad UTF-8") << (R"({"a":")" + b64 + "\xc3" + b64 + R"("})");
    QTest::newRow("long value with a raw control byte") << (R"({"a":")" + b64 + "\x01" + b64 + R"("})");
    QTest::newRow("escaped NUL elsewhere") << (R"({"n":"\u0000","a":")" + b64 + R"("})");
    QTest::newRow("stand-in lookalike") << (R"({"n":"\\u00000","a":")" + b64 + R"("})");
    QTest::newRow("top-level string") << ("\"" + b64 + "\"");
    QTest::newRow("array of long strings") << ("[\"" + b64 + "\",\"" + b64 + "\"]");
    QTest::newRow("cut inside the long value") << (R"({"a":")" + b64.left(8000));
    QTest::newRow("missing comma after it") << (R"({"a":")" + b64 + R"(" "b":1})");
    QTest::newRow("trailing garbage") << (R"({"a":")" + b64 + R"("} x)");
    QTest::newRow("garbage before it") << (R"({"a": nope ")" + b64 + R"("})");
    QTest::newRow("two documents") << (R"({"a":")" + b64 + R"("}{})");
    QTest::newRow("nested deep") << (QByteArray(200, '[') + "\"" + b64 + "\"" + QByteArray(200, ']'));
    QTest::newRow("small document") << QByteArray(R"({"a":"b"})");
    QTest::newRow("not JSON") << ("<html>" + b64 + "</html>");
    // The scan skips plain runs 16 and 8 bytes at a time: every byte that ends a run (quote,
    // escape, control byte, DEL, non-ASCII) at every offset within and across those words.
    const QList<QByteArray> specials {"\"", "\\\"", "\\\\", "\\n", "\\u0041", QByteArray(1, '\x01'),
        QByteArray(1, '\x1f'), QByteArray(1, '\x7f'), QByteArray(1, '\x80'), QByteArray(1, '\xff'), "\xc3\xa9", " ~"};
    for (int k = 0; k < specials.size(); ++k) {
        for (int at : {0, 1, 7, 8, 9, 15, 16, 17, 31, 4095, 4096, 8191}) {
            QTest::addRow("special %d at %d", k, at) << (R"({"a":")" + QByteArray(b64).insert(at, specials.at(k))
                + R"(","b":")" + b64.left(at + 1) + R"("})");
        }
        QTest::addRow("special %d as the last byte", k) << (R"({"a":")" + b64 + specials.at(k) + R"("})");
    }
    for (int len : {4095, 4096, 4097, 4103, 4111, 4112, 4113})
        QTest::addRow("plain string of %d bytes", len) << (R"({"a":")" + b64.left(len) + R"("})");
}

void tst_ResponseParser::fastJsonParseMatchesTheParser()
{
    QFETCH(QByteArray, text);
    const nlohmann::json expected = nlohmann::json::parse(text.constBegin(), text.constEnd(), nullptr, false);
    const nlohmann::json got = apidetail::parseJson(text.constBegin(), text.constEnd());
    QCOMPARE(got.is_discarded(), expected.is_discarded());
    if (!expected.is_discarded())
        QVERIFY(got == expected);
}

void tst_ResponseParser::bigAnswerParsesToTheSameImage()
{
    // A realistic 1 MB answer (base64 cut out before parsing, decoded by table) gives exactly
    // the bytes that were encoded, and the same interaction as a body with the data spread
    // over lines (the general decoder).
    const QByteArray jpeg = QByteArray("\xFF\xD8\xFF\xE0", 4) + randomBytes(1024 * 1024, 9);
    const QByteArray b64 = jpeg.toBase64();
    const QByteArray body = R"({"id":"v1_big","status":"completed","steps":[{"type":"model_output","content":[)"
                            R"({"type":"text","text":"Here."},{"type":"image","mime_type":"image/jpeg","data":")"
        + b64 + R"("}]}]})";
    const auto parsed = ResponseParser::parseInteraction(body);
    QVERIFY2(parsed.ok(), qPrintable(parsed.error().message));
    QCOMPARE(parsed.value().image.bytes, jpeg);
    QCOMPARE(parsed.value().text, QStringLiteral("Here."));
    QByteArray wrapped = b64;
    for (qsizetype at = 76; at < wrapped.size(); at += 78)
        wrapped.insert(at, "\\n");
    const auto general = ResponseParser::parseInteraction(QByteArray(body).replace(b64, wrapped));
    QVERIFY2(general.ok(), qPrintable(general.error().message));
    QCOMPARE(general.value().image.bytes, jpeg);
}

void tst_ResponseParser::keptImageDataGivesTheSameInteraction_data()
{
    QTest::addColumn<QByteArray>("body");
    const QByteArray jpeg = QByteArray("\xFF\xD8\xFF\xE0", 4) + randomBytes(20000, 11);
    const QByteArray draft = QByteArray("\xFF\xD8\xFF\xE0", 4) + randomBytes(9000, 12);
    const QByteArray b64 = jpeg.toBase64(), d64 = draft.toBase64();
    auto answer = [](const QByteArray &thought, const QByteArray &content) {
        return R"({"id":"v1_k","status":"completed","steps":[{"type":"thought","summary":[)" + thought
            + R"(]},{"type":"model_output","content":[)" + content + "]}]}";
    };
    const QByteArray image = R"({"type":"image","mime_type":"image/jpeg","data":")" + b64 + R"("})";
    const QByteArray draftPart = R"({"type":"image","mime_type":"image/jpeg","data":")" + d64 + R"("})";
    QTest::newRow("image and draft") << answer(draftPart, R"({"type":"text","text":"Here."},)" + image);
    QTest::newRow("two images, the last counts") << answer("", R"({"type":"image","data":")" + d64 + R"("},)" + image);
    QTest::newRow("long text beside the image") << answer("", R"({"type":"text","text":")" + b64 + R"("},)" + image);
    QTest::newRow("long data under another key")
        << answer(R"({"type":"text","text":"t","data":")" + b64 + R"("})", image);
    QTest::newRow("image data not base64")
        << answer("", R"({"type":"image","data":")" + QByteArray(b64).replace(5000, 1, "*") + R"("})");
    QTest::newRow("image data not an image")
        << answer("", R"({"type":"image","data":")" + randomBytes(9000, 13).toBase64() + R"("})");
    QTest::newRow("image data a number") << answer("", R"({"type":"image","data":12})");
    QTest::newRow("escaped NUL elsewhere (no cuts)") << answer(R"({"type":"text","text":"\u0000"})", image);
    QTest::newRow("failed, long message")
        << QByteArray(R"({"id":"v1_f","status":"failed","errors":[{"code":"x","message":")" + b64 + R"("}]})");
    QTest::newRow("data as the top-level key") << QByteArray(R"({"data":")" + b64 + R"(","status":"completed"})");
}

void tst_ResponseParser::keptImageDataGivesTheSameInteraction()
{
    // parseInteraction decodes image data straight from the answer's text (parseJson with
    // kept); the result must be what the plain tree (json::parse) gives, success or error.
    QFETCH(QByteArray, body);
    const Result<Interaction> got = ResponseParser::parseInteraction(body);
    const Result<Interaction> expected
        = apidetail::parseInteractionDocument(nlohmann::json::parse(body.constBegin(), body.constEnd()), false);
    QCOMPARE(got.ok(), expected.ok());
    if (!expected.ok()) {
        QCOMPARE(int(got.error().kind), int(expected.error().kind));
        QCOMPARE(got.error().message, expected.error().message);
        return;
    }
    QCOMPARE(got.value().image.bytes, expected.value().image.bytes);
    QCOMPARE(got.value().image.mimeType, expected.value().image.mimeType);
    QCOMPARE(got.value().text, expected.value().text);
    QCOMPARE(got.value().drafts.size(), expected.value().drafts.size());
    for (qsizetype i = 0; i < got.value().drafts.size(); ++i)
        QCOMPARE(got.value().drafts.at(i).bytes, expected.value().drafts.at(i).bytes);
}

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
