#include "core/api/responseparser.h"
#include "core/api/sseparser.h"
#include "core/api/streamassembler.h"

#include "testutil.h"

#include <QtTest>

using namespace nb2;

class tst_SseParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void framing_data();
    void framing();
    void splitAnywhere();
    void assemblesDrafts();
    void parsedInteractionMatchesTheJsonRoundTrip();
    void assemblerErrors_data();
    void assemblerErrors();
    void completedWithSteps();
    void consecutiveCompleteImagesStaySeparate();
    void hostileShapes_data();
    void hostileShapes();
};

void tst_SseParser::framing_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QByteArrayList>("data");
    QTest::addColumn<QByteArrayList>("events");

    QTest::newRow("lf") << QByteArray("event: a\ndata: {\"x\":1}\n\nevent: b\ndata: 2\n\n")
                        << QByteArrayList {"{\"x\":1}", "2"} << QByteArrayList {"a", "b"};
    QTest::newRow("crlf") << QByteArray("event: a\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n") << QByteArrayList {"1", "2"}
                          << QByteArrayList {"a", ""};
    QTest::newRow("cr") << QByteArray("data: 1\r\rdata: 2\r\r") << QByteArrayList {"1", "2"} << QByteArrayList {"", ""};
    QTest::newRow("multi-line data") << QByteArray("data: {\"a\":\ndata: 1}\n\n") << QByteArrayList {"{\"a\":\n1}"}
                                     << QByteArrayList {""};
    QTest::newRow("comments and no space")
        << QByteArray(": ping\n\ndata:x\n: mid\nid: 7\n\n") << QByteArrayList {"x"} << QByteArrayList {""};
    QTest::newRow("done sentinel") << QByteArray("data: [DONE]\n\n") << QByteArrayList {"[DONE]"}
                                   << QByteArrayList {""};
    QTest::newRow("event without data dropped")
        << QByteArray("event: lonely\n\ndata: y\n\n") << QByteArrayList {"y"} << QByteArrayList {""};
    QTest::newRow("no final blank line") << QByteArray("data: tail") << QByteArrayList {"tail"} << QByteArrayList {""};
}

void tst_SseParser::framing()
{
    QFETCH(QByteArray, stream);
    QFETCH(QByteArrayList, data);
    QFETCH(QByteArrayList, events);
    SseParser parser;
    QList<SseEvent> out = parser.feed(stream);
    out += parser.finish();
    QCOMPARE(out.size(), data.size());
    for (int i = 0; i < out.size(); ++i) {
        QCOMPARE(out[i].data, data[i]);
        QCOMPARE(out[i].event, events[i]);
    }
}

void tst_SseParser::splitAnywhere()
{
    const QByteArray stream = apiFixture(QStringLiteral("stream_drafts.sse"));
    SseParser whole;
    QList<SseEvent> expected = whole.feed(stream);
    expected += whole.finish();
    QVERIFY(expected.size() > 10);
    for (int step : {1, 2, 3, 7, 64}) {
        SseParser parser;
        QList<SseEvent> got;
        for (int i = 0; i < stream.size(); i += step)
            got += parser.feed(stream.mid(i, step));
        got += parser.finish();
        QCOMPARE(got.size(), expected.size());
        for (int i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].data, expected[i].data);
            QCOMPARE(got[i].event, expected[i].event);
            QCOMPARE(got[i].id, expected[i].id);
        }
    }
}

static QList<StreamEvent> assemble(StreamAssembler &a, const QByteArray &stream)
{
    SseParser parser;
    QList<SseEvent> events = parser.feed(stream);
    events += parser.finish();
    QList<StreamEvent> out;
    for (const SseEvent &e : events)
        out += a.feed(e);
    return out;
}

void tst_SseParser::assemblesDrafts()
{
    StreamAssembler a;
    const QList<StreamEvent> events = assemble(a, apiFixture(QStringLiteral("stream_drafts.sse")));
    QVERIFY(a.isCompleted());
    QVERIFY(a.isDone());
    QVERIFY(!a.error());
    QCOMPARE(a.interactionId(), QStringLiteral("v1_sse123"));

    QList<StreamEvent::Type> types;
    for (const StreamEvent &e : events)
        types.append(e.type);
    using T = StreamEvent::Type;
    // Created first; a StatusChanged only for real changes; draft before text; final image at step.stop.
    QCOMPARE(types, (QList<T> {T::Created, T::Draft, T::Text, T::Text, T::ImageReceived, T::StatusChanged}));
    QCOMPARE(events[2].text, QStringLiteral("Here is "));
    QCOMPARE(events[3].text, QStringLiteral("Here is your image."));
    QCOMPARE(events[1].image.bytes, apiFixture(QStringLiteral("blue.png")));
    QCOMPARE(events[4].image.bytes, apiFixture(QStringLiteral("red.jpg")));
    QCOMPARE(events[5].status, QStringLiteral("completed"));

    const auto parsed = ResponseParser::parseInteraction(a.interactionJson());
    QVERIFY(parsed.ok());
    QCOMPARE(parsed.value().image.bytes, apiFixture(QStringLiteral("red.jpg")));
    QCOMPARE(parsed.value().drafts.size(), 1);
    QCOMPARE(parsed.value().usage.totalTokens, 1337);
}

void tst_SseParser::parsedInteractionMatchesTheJsonRoundTrip()
{
    // parsedInteraction() reads the assembled tree (and reuses the image step.stop decoded):
    // it must give what parsing interactionJson() gives, for every stream fixture.
    for (const char *fixture : {"stream_drafts.sse"}) {
        StreamAssembler a;
        assemble(a, apiFixture(QString::fromLatin1(fixture)));
        const auto viaJson = ResponseParser::parseInteraction(a.interactionJson());
        const auto direct = a.parsedInteraction();
        QCOMPARE(direct.ok(), viaJson.ok());
        QVERIFY(direct.ok());
        QCOMPARE(direct.value().id, viaJson.value().id);
        QCOMPARE(direct.value().status, viaJson.value().status);
        QCOMPARE(direct.value().text, viaJson.value().text);
        QCOMPARE(direct.value().image.bytes, viaJson.value().image.bytes);
        QCOMPARE(direct.value().image.mimeType, viaJson.value().image.mimeType);
        QCOMPARE(direct.value().drafts.size(), viaJson.value().drafts.size());
        QCOMPARE(direct.value().usage.totalTokens, viaJson.value().usage.totalTokens);
    }
    // An image split over two deltas is joined before it is decoded (nothing stale is reused).
    const QByteArray jpeg = apiFixture(QStringLiteral("red.jpg"));
    const QByteArray b64 = jpeg.toBase64();
    const QByteArray half1 = b64.left(b64.size() / 2 / 4 * 4), half2 = b64.mid(half1.size());
    QByteArray stream;
    auto event = [&](const QByteArray &type, const QByteArray &data) {
        stream += "event: " + type + "\ndata: " + data + "\n\n";
    };
    event("interaction.created",
        R"({"event_type":"interaction.created","interaction":{"id":"v1_two","status":"in_progress"}})");
    event("step.start", R"({"event_type":"step.start","index":0,"step":{"type":"model_output","content":[]}})");
    event("step.delta",
        R"({"event_type":"step.delta","index":0,"delta":{"type":"image","mime_type":"image/jpeg","data":")" + half1
            + R"("}})");
    event("step.delta", R"({"event_type":"step.delta","index":0,"delta":{"type":"image","data":")" + half2 + R"("}})");
    event("step.stop", R"({"event_type":"step.stop","index":0})");
    event("interaction.completed",
        R"({"event_type":"interaction.completed","interaction":{"id":"v1_two","status":"completed"}})");
    StreamAssembler two;
    assemble(two, stream);
    const auto joined = two.parsedInteraction();
    QVERIFY2(joined.ok(), qPrintable(joined.error().message));
    QCOMPARE(joined.value().image.bytes, jpeg);
}

void tst_SseParser::assemblerErrors_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<bool>("completed");
    QTest::addColumn<bool>("hasError");
    QTest::newRow("error event") << "stream_error.sse" << false << true;
    QTest::newRow("completed failed") << "stream_failed.sse" << true << false;
    QTest::newRow("truncated") << "stream_truncated.sse" << false << false;
}

void tst_SseParser::assemblerErrors()
{
    QFETCH(QString, fixture);
    QFETCH(bool, completed);
    QFETCH(bool, hasError);
    StreamAssembler a;
    assemble(a, apiFixture(fixture));
    QCOMPARE(a.isCompleted(), completed);
    QCOMPARE(a.error().has_value(), hasError);
    if (hasError) {
        QCOMPARE(a.error()->kind, ErrorKind::RateLimited);
        QCOMPARE(a.error()->api.serverCode, QStringLiteral("resource_exhausted"));
        QCOMPARE(a.error()->api.interactionId, QStringLiteral("v1_sse123"));
    }
    if (completed) {
        const auto parsed = ResponseParser::parseInteraction(a.interactionJson());
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error().api.serverMessage, QStringLiteral("Generation failed."));
    }
}

void tst_SseParser::completedWithSteps()
{
    // When interaction.completed carries steps they win over the accumulated ones.
    const QByteArray jpg = apiFixture(QStringLiteral("red.jpg")).toBase64();
    const QByteArray stream
        = "data: {\"event_type\":\"step.delta\",\"index\":0,\"delta\":{\"type\":\"text\",\"text\":\"partial\"}}\n\n"
          "data: "
          "{\"event_type\":\"interaction.completed\",\"interaction\":{\"id\":\"v1_c\",\"status\":\"completed\","
          "\"steps\":[{\"type\":\"model_output\",\"content\":[{\"type\":\"image\",\"mime_type\":\"image/"
          "jpeg\",\"data\":\""
        + jpg + "\"}]}]}}\n\n";
    StreamAssembler a;
    assemble(a, stream);
    const auto parsed = ResponseParser::parseInteraction(a.interactionJson());
    QVERIFY(parsed.ok());
    QCOMPARE(parsed.value().id, QStringLiteral("v1_c"));
    QCOMPARE(parsed.value().text, QString());
    QCOMPARE(parsed.value().image.bytes, apiFixture(QStringLiteral("red.jpg")));
}

void tst_SseParser::consecutiveCompleteImagesStaySeparate()
{
    const QByteArray png = apiFixture(QStringLiteral("blue.png")).toBase64();
    const QByteArray jpg = apiFixture(QStringLiteral("red.jpg")).toBase64();
    const QByteArray stream
        = "data: {\"event_type\":\"step.start\",\"index\":0,\"step\":{\"type\":\"model_output\",\"content\":[]}}\n\n"
          "data: "
          "{\"event_type\":\"step.delta\",\"index\":0,\"delta\":{\"type\":\"image\",\"mime_type\":\"image/"
          "png\",\"data\":\""
        + png
        + "\"}}\n\n"
          "data: "
          "{\"event_type\":\"step.delta\",\"index\":0,\"delta\":{\"type\":\"image\",\"mime_type\":\"image/"
          "jpeg\",\"data\":\""
        + jpg
        + "\"}}\n\n"
          "data: "
          "{\"event_type\":\"interaction.completed\",\"interaction\":{\"id\":\"v1_two\",\"status\":\"completed\"}}\n\n";
    StreamAssembler a;
    assemble(a, stream);
    const auto parsed = ResponseParser::parseInteraction(a.interactionJson());
    QVERIFY(parsed.ok());
    QCOMPARE(parsed.value().image.bytes, apiFixture(QStringLiteral("red.jpg")));
}

void tst_SseParser::hostileShapes_data()
{
    // Found by fuzz_sseparser (tests/fuzz): fields of an unexpected type or size used to throw
    // out of StreamAssembler (std::terminate) or convert 1e300 to an integer (undefined
    // behaviour, seen by UBSan). Now a malformed stream is an error and odd numbers are ignored.
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<bool>("malformed");
    QTest::newRow("text is a number") << QByteArray(
        "data: {\"event_type\":\"step.delta\",\"index\":0,\"delta\":{\"type\":\"text\",\"text\":5}}\n\n")
                                      << true;
    QTest::newRow("step is not an object") << QByteArray(
        "data: {\"event_type\":\"interaction.created\",\"interaction\":{\"id\":\"v1_s\",\"steps\":[5]}}\n\n"
        "data: {\"event_type\":\"step.delta\",\"index\":0,\"delta\":{\"type\":\"text\",\"text\":\"a\"}}\n\n")
                                           << true;
    QTest::newRow("image data is a number") << QByteArray(
        "data: {\"event_type\":\"step.delta\",\"index\":0,\"delta\":{\"type\":\"image\",\"data\":[1]}}\n\n")
                                            << true;
    QTest::newRow("index 1e300") << QByteArray(
        "data: {\"event_type\":\"step.delta\",\"index\":1e300,\"delta\":{\"type\":\"text\",\"text\":\"x\"}}\n\n"
        "data: {\"event_type\":\"step.stop\",\"index\":-1e300}\n\n"
        "data: "
        "{\"event_type\":\"interaction.completed\",\"interaction\":{\"status\":\"completed\",\"usage\":{\"total_input_"
        "tokens\":1e300}}}\n\n") << false;
    QTest::newRow("error code 1e300") << QByteArray(
        "data: {\"event_type\":\"error\",\"error\":{\"code\":1e300,\"message\":\"m\"}}\n\n")
                                      << false;
}

void tst_SseParser::hostileShapes()
{
    QFETCH(QByteArray, stream);
    QFETCH(bool, malformed);
    StreamAssembler a;
    assemble(a, stream);
    QCOMPARE(a.error().has_value() && a.error()->kind == ErrorKind::MalformedResponse, malformed);
    if (a.isCompleted()) {
        // The text arrived (at index 0, the fallback), no image did: the usual NoImage answer.
        const auto parsed = ResponseParser::parseInteraction(a.interactionJson());
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error().kind, ErrorKind::NoImage);
        QVERIFY(parsed.error().message.contains(QStringLiteral("x")));
    }
}

QTEST_GUILESS_MAIN(tst_SseParser)
#include "tst_sseparser.moc"
