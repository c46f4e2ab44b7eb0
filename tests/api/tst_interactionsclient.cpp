#include "core/api/interactionsclient.h"
#include "core/api/responseparser.h"
#include "core/api/thinkinglevels.h"

#include "scriptedserver.h"
#include "testutil.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <thread>

using namespace nb2;

namespace {

const QByteArray kOnePixelPng
    = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

ClientConfig configFor(const QString &baseUrl)
{
    ClientConfig c;
    c.baseUrl = baseUrl;
    c.apiKey = ApiKey(QStringLiteral("TEST_KEY"), QStringLiteral("test"));
    c.connectTimeoutMs = 2000;
    c.readTimeoutMs = 4000;
    c.backoffBaseMs = 10;
    c.backoffCapMs = 40;
    c.maxRateLimitWaitMs = 3000;
    return c;
}

ImageInput image(const QString &name)
{
    auto r = loadImageInput(apiFixturePath(name));
    return r.ok() ? r.value() : ImageInput();
}

ImageInput onePixel()
{
    ImageInput i;
    i.bytes = QByteArray::fromBase64(kOnePixelPng);
    i.mimeType = QStringLiteral("image/png");
    return i;
}

ScriptedServer::Reply sse(const QByteArray &body, int chunkSize = 0)
{
    ScriptedServer::Reply r;
    r.contentType = "text/event-stream";
    r.body = body;
    r.chunkSize = chunkSize;
    return r;
}

/** A listener whose accept queue is full: connects to it hang in SYN_SENT. */
class FullBacklog
{
public:
    FullBacklog()
    {
        m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_listener, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
        ::listen(m_listener, 0);
        socklen_t len = sizeof addr;
        ::getsockname(m_listener, reinterpret_cast<sockaddr *>(&addr), &len);
        m_port = ntohs(addr.sin_port);
        // Fill the queue (backlog 0 still admits one or two) with non-blocking connects.
        for (int i = 0; i < 4; ++i) {
            int s = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
            ::connect(s, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
            m_fillers.append(s);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ~FullBacklog()
    {
        for (int s : m_fillers)
            ::close(s);
        ::close(m_listener);
    }
    int port() const { return m_port; }

private:
    int m_listener = -1;
    int m_port = 0;
    QList<int> m_fillers;
};

int unusedPort()
{
    int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(s, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(s, reinterpret_cast<sockaddr *>(&addr), &len);
    ::close(s);
    return ntohs(addr.sin_port);
}

/** Runs a create on another thread; cancel() from the test thread returns how long the call took to give up. */
struct CancelProbe {
    std::future<Result<Interaction>> future;
    CancelTokenPtr token = std::make_shared<CancelToken>();

    void start(InteractionsClient &client, const TurnRequest &request)
    {
        CallOptions options;
        options.cancel = token;
        future
            = std::async(std::launch::async, [&client, request, options] { return client.create(request, options); });
    }
    /** Milliseconds from cancel() until the blocked call has returned its value. */
    double cancelAndMeasure(Result<Interaction> *out)
    {
        QElapsedTimer timer;
        timer.start();
        token->cancel();
        if (future.wait_for(std::chrono::seconds(5)) != std::future_status::ready)
            return 99999;
        const double ms = timer.nsecsElapsed() / 1e6;
        *out = future.get();
        return ms;
    }
};

bool waitForRequests(const ScriptedServer &server, int n, int timeoutMs = 3000)
{
    QElapsedTimer t;
    t.start();
    while (server.requestCount() < n && t.elapsed() < timeoutMs)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return server.requestCount() >= n;
}

} // namespace

class tst_InteractionsClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void requestBodies_data();
    void requestBodies();
    void getAndDeletePaths();
    void pathPrefixAndVersion();
    void deleteExpects200();
    void parsesFullInteraction();
    void textOnlyIsNoImage();
    void errorShapes_data();
    void errorShapes();
    void thinkingLevelLearnedAndPersisted_data();
    void thinkingLevelLearnedAndPersisted();
    void otherAllowedValuesNotLearned();
    void thinkingLevelNotSupportedWording();
    void retriesTransientStatuses();
    void doesNotRetryClientErrors();
    void retryAfterHonoured_data();
    void retryAfterHonoured();
    void longRateLimitReturnedToCaller();
    void retryAfterNeverFasterThanBackoff_data();
    void retryAfterNeverFasterThanBackoff();
    void hugeRetryAfterReadsAsADuration();
    void deadlineBoundsTheWholeCall();
    void retriesAreAnnounced();
    void truncatedBodyIsFetchedById();
    void connectionFailureRetried();
    void connectionResetMidBodyRetried();
    void cancelWhileWaitingForResponse();
    void cancelDuringBackoff();
    void cancelDuringTrickledBody();
    void cancelWhileConnecting();
    void cancelBeforeStart();
    void cancelDuringStream();
    void readTimeout();
    void connectTimeout();
    void streamingWithDraftsMatchesUnary();
    void streamingEventsInOrder();
    void streamErrors_data();
    void streamErrors();
    void streamAnsweredWithJson();
    void streamRetriedBeforeItStarts();
    void keyNeverInMessages_data();
    void keyNeverInMessages();
    void refusesInsecureHttp();
    void tlsSelfSignedRejected();
    void tlsTrustedWithCaBundle();
    void tlsHostNameMismatch();
    void validation_data();
    void validation();
    void concurrentCalls();
    void missingKeyForRemoteHost();
};

void tst_InteractionsClient::requestBodies_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("stream");
    QTest::addColumn<QByteArray>("expected");

    // Spec §7 captures (a), (b), (c), (f); our client always sends store:true and re-sends
    // response_format/generation_config on edits (spec §2, U5), appending stream:true last.
    QTest::newRow("a generate")
        << 0 << false
        << QByteArray(
               R"({"model":"gemini-3.1-flash-lite-image","input":"a red fox in snow","response_format":{"type":"image","aspect_ratio":"16:9"},"generation_config":{"thinking_level":"low"},"store":true})");
    QTest::newRow("b edit")
        << 1 << false
        << QByteArray(
               R"({"model":"gemini-3.1-flash-lite-image","previous_interaction_id":"v1_abc123","input":"make it night time","response_format":{"type":"image","aspect_ratio":"16:9"},"generation_config":{"thinking_level":"low"},"store":true})");
    QTest::newRow("c edit local")
        << 2 << false
        << QByteArray(R"({"model":"gemini-3.1-flash-lite-image","input":[{"type":"image","data":")" + kOnePixelPng
               + R"(","mime_type":"image/png"},{"type":"text","text":"add a hat"}],"response_format":{"type":"image"},"store":true})");
    QTest::newRow("style edit")
        << 3 << false
        << QByteArray(R"({"model":"gemini-3.1-flash-lite-image","input":[{"type":"image","data":")"
               + apiFixture(QStringLiteral("red.jpg")).toBase64()
               + R"(","mime_type":"image/jpeg"},{"type":"image","data":")" + kOnePixelPng
               + R"(","mime_type":"image/png"},{"type":"text","text":"in this style"}],"response_format":{"type":"image","aspect_ratio":"1:1"},"generation_config":{"thinking_level":"high"},"store":true})");
    QTest::newRow("f stream")
        << 0 << true
        << QByteArray(
               R"({"model":"gemini-3.1-flash-lite-image","input":"a red fox in snow","response_format":{"type":"image","aspect_ratio":"16:9"},"generation_config":{"thinking_level":"low"},"store":true,"stream":true})");
    QTest::newRow("generate, no thinking level")
        << 4 << false
        << QByteArray(
               R"({"model":"gemini-3.1-flash-lite-image","input":"ünïcode \"quoted\"","response_format":{"type":"image","aspect_ratio":"1:1"},"store":true})");
}

void tst_InteractionsClient::requestBodies()
{
    QFETCH(int, kind);
    QFETCH(bool, stream);
    QFETCH(QByteArray, expected);

    ScriptedServer server;
    QVERIFY(server.isValid());
    if (stream)
        server.enqueue(sse(apiFixture(QStringLiteral("stream_basic.sse"))));
    else
        server.enqueue(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));

    TurnRequest request;
    switch (kind) {
    case 0:
        request
            = TurnRequest::generate(QStringLiteral("a red fox in snow"), QStringLiteral("16:9"), QStringLiteral("low"));
        break;
    case 1:
        request = TurnRequest::edit(QStringLiteral("v1_abc123"), QStringLiteral("make it night time"),
            QStringLiteral("16:9"), QStringLiteral("low"));
        break;
    case 2:
        request = TurnRequest::editLocal(onePixel(), QStringLiteral("add a hat"), QString(), QString());
        break;
    case 3:
        request = TurnRequest::styleEdit(onePixel(), image(QStringLiteral("red.jpg")), QStringLiteral("in this style"),
            QStringLiteral("1:1"), QStringLiteral("high"));
        break;
    default:
        request = TurnRequest::generate(QStringLiteral("ünïcode \"quoted\""), QStringLiteral("1:1"), QString());
        break;
    }

    InteractionsClient client(configFor(server.baseUrl()));
    QCOMPARE(client.requestBody(request, stream), expected);
    CallOptions options;
    options.stream = stream;
    const auto result = client.create(request, options);
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().message));
    QCOMPARE(result.value().attempts, 1);

    const auto recorded = server.requests();
    QCOMPARE(recorded.size(), 1);
    const auto &r = recorded.first();
    QCOMPARE(r.method, QByteArray("POST"));
    QCOMPARE(r.target, QByteArray("/v1/interactions"));
    QCOMPARE(r.body, expected);
    QCOMPARE(r.headers.value("content-type"), QByteArray("application/json"));
    QCOMPARE(r.headers.value("accept"), stream ? QByteArray("text/event-stream") : QByteArray("application/json"));
    QCOMPARE(r.headers.value("x-goog-api-key"), QByteArray("TEST_KEY"));
    QCOMPARE(r.headers.value("user-agent"), QByteArray("nb2lite-studio/" NB2_VERSION));
}

void tst_InteractionsClient::getAndDeletePaths()
{
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(200, apiFixture(QStringLiteral("multi_image.json"))));
    server.enqueue(ScriptedServer::json(200, "{}"));
    server.enqueue(ScriptedServer::json(200, "{}"));
    InteractionsClient client(configFor(server.baseUrl()));

    const auto got = client.get(QStringLiteral("v1_abc123"));
    QVERIFY(got.ok());
    QCOMPARE(got.value().id, QStringLiteral("v1_multi"));
    QCOMPARE(got.value().image.bytes, apiFixture(QStringLiteral("red.jpg")));
    QVERIFY(client.remove(QStringLiteral("v1_abc123")).ok());
    const auto removed = client.remove(QStringLiteral("a/b c?d"));
    QVERIFY(removed.ok());
    QCOMPARE(removed.value().attempts, 1);

    const auto r = server.requests();
    QCOMPARE(r.size(), 3);
    QCOMPARE(r[0].method, QByteArray("GET"));
    QCOMPARE(r[0].target, QByteArray("/v1/interactions/v1_abc123?stream=false"));
    QCOMPARE(r[0].headers.value("content-type"), QByteArray("application/json"));
    QCOMPARE(r[0].headers.value("accept"), QByteArray("application/json"));
    QCOMPARE(r[0].body, QByteArray());
    QCOMPARE(r[1].method, QByteArray("DELETE"));
    QCOMPARE(r[1].target, QByteArray("/v1/interactions/v1_abc123"));
    QCOMPARE(r[1].headers.value("x-goog-api-key"), QByteArray("TEST_KEY"));
    QCOMPARE(r[1].headers.value("content-type"), QByteArray("application/json"));
    QCOMPARE(r[1].body, QByteArray());
    // The id is one percent-encoded path segment.
    QCOMPARE(r[2].target, QByteArray("/v1/interactions/a%2Fb%20c%3Fd"));
}

void tst_InteractionsClient::pathPrefixAndVersion()
{
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));
    ClientConfig config = configFor(server.baseUrl() + QStringLiteral("/some/prefix/"));
    config.apiVersion = QStringLiteral("v1beta");
    InteractionsClient client(config);
    QVERIFY(client.create(TurnRequest::generate(QStringLiteral("x"), QStringLiteral("1:1"), QString())).ok());
    QCOMPARE(server.requests().first().target, QByteArray("/some/prefix/v1beta/interactions"));
}

void tst_InteractionsClient::deleteExpects200()
{
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(204, ""));
    InteractionsClient client(configFor(server.baseUrl()));
    const auto r = client.remove(QStringLiteral("v1_x"));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::Server);
    QVERIFY(r.error().message.contains(QLatin1String("204")));
}

void tst_InteractionsClient::parsesFullInteraction()
{
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));
    InteractionsClient client(configFor(server.baseUrl()));
    const auto r
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("16:9"), QStringLiteral("low")));
    QVERIFY(r.ok());
    const Interaction &i = r.value();
    QCOMPARE(i.id, QStringLiteral("v1_abc123"));
    QCOMPARE(i.status, QStringLiteral("completed"));
    QCOMPARE(i.model, QStringLiteral("gemini-3.1-flash-lite-image"));
    QCOMPARE(i.previousInteractionId, QStringLiteral("v1_prev"));
    QCOMPARE(i.created, QDateTime(QDate(2026, 6, 10), QTime(12, 0, 0), QTimeZone::utc()));
    QCOMPARE(i.updated, QDateTime(QDate(2026, 6, 10), QTime(12, 0, 5), QTimeZone::utc()));
    QCOMPARE(i.image.bytes, apiFixture(QStringLiteral("red.jpg")));
    QCOMPARE(i.image.mimeType, QStringLiteral("image/jpeg"));
    QCOMPARE(i.text, QStringLiteral("Here is your image."));
    QCOMPARE(i.usage.inputTokens, 7);
    QCOMPARE(i.usage.outputTokens, 1290);
    QCOMPARE(i.usage.thoughtTokens, 40);
    QCOMPARE(i.usage.totalTokens, 1337);
    QCOMPARE(i.attempts, 1);
}

void tst_InteractionsClient::textOnlyIsNoImage()
{
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(200, apiFixture(QStringLiteral("text_only.json"))));
    InteractionsClient client(configFor(server.baseUrl()));
    const auto r
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("16:9"), QStringLiteral("low")));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::NoImage);
    QCOMPARE(r.error().api.modelText, QStringLiteral("I can't draw that, but here is a description."));
    QCOMPARE(r.error().api.interactionId, QStringLiteral("v1_text"));
    QVERIFY(r.error().message.contains(QLatin1String("no image")));
    QVERIFY(r.error().message.contains(QLatin1String("I can't draw that")));
    QCOMPARE(r.error().api.attempts, 1);
    QCOMPARE(server.requestCount(), 1); // never retried
}

void tst_InteractionsClient::errorShapes_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("serverCode");
    QTest::addColumn<QString>("serverMessage");
    QTest::addColumn<int>("retryAfterMs");

    QTest::newRow("string code")
        << 400 << QByteArray(R"({"error":{"message":"Legacy schema is not supported.","code":"invalid_request"}})")
        << int(ErrorKind::InvalidRequest) << "invalid_request"
        << "Legacy schema is not supported." << -1;
    QTest::newRow("numeric google")
        << 400 << QByteArray(R"({"error":{"code":400,"message":"Bad aspect.","status":"INVALID_ARGUMENT"}})")
        << int(ErrorKind::InvalidRequest) << "INVALID_ARGUMENT"
        << "Bad aspect." << -1;
    QTest::newRow("array wrapped invalid key")
        << 400
        << QByteArray(
               R"([{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}])")
        << int(ErrorKind::Auth) << "API_KEY_INVALID"
        << "API key not valid. Please pass a valid API key." << -1;
    QTest::newRow("401") << 401
                         << QByteArray(
                                R"({"error":{"code":401,"message":"Unauthenticated.","status":"UNAUTHENTICATED"}})")
                         << int(ErrorKind::Auth) << "UNAUTHENTICATED"
                         << "Unauthenticated." << -1;
    QTest::newRow("403") << 403
                         << QByteArray(
                                R"({"error":{"code":403,"message":"Permission denied.","status":"PERMISSION_DENIED"}})")
                         << int(ErrorKind::Auth) << "PERMISSION_DENIED"
                         << "Permission denied." << -1;
    QTest::newRow("404") << 404 << QByteArray(R"({"error":{"message":"Interaction not found.","code":"not_found"}})")
                         << int(ErrorKind::NotFound) << "not_found"
                         << "Interaction not found." << -1;
    QTest::newRow("413") << 413 << QByteArray(R"({"error":{"message":"Request too large.","code":"invalid_request"}})")
                         << int(ErrorKind::TooLarge) << "invalid_request"
                         << "Request too large." << -1;
    QTest::newRow("429 retryDelay")
        << 429
        << QByteArray(
               R"({"error":{"message":"Quota exceeded.","code":"resource_exhausted","details":[{"retryDelay":"7s"}]}})")
        << int(ErrorKind::RateLimited) << "resource_exhausted"
        << "Quota exceeded." << 7000;
    // The server's text is quoted, never read as placeholders (it was: "%1" got the delay).
    QTest::newRow("429 placeholders in the message")
        << 429
        << QByteArray(
               R"({"error":{"message":"Quota %1 of %2 exceeded.","code":"resource_exhausted","details":[{"retryDelay":"7s"}]}})")
        << int(ErrorKind::RateLimited) << "resource_exhausted"
        << "Quota %1 of %2 exceeded." << 7000;
    QTest::newRow("500 html") << 500
                              << QByteArray("<html><head><title>Error</title><style>p{}</style></head><body><h1>502 "
                                            "Bad Gateway</h1><p>nginx</p></body></html>")
                              << int(ErrorKind::Server) << ""
                              << "Error 502 Bad Gateway nginx" << -1;
    QTest::newRow("503 json") << 503
                              << QByteArray(R"({"error":{"code":503,"message":"Overloaded.","status":"UNAVAILABLE"}})")
                              << int(ErrorKind::Server) << "UNAVAILABLE"
                              << "Overloaded." << -1;
    // (Without an id: a cut body that names one is fetched with get, see cutAnswerIsFetchedNotResent.)
    QTest::newRow("200 garbage") << 200 << QByteArray("{\"object\": \"interaction\", \"steps\": [")
                                 << int(ErrorKind::MalformedResponse) << ""
                                 << "" << -1;
    QTest::newRow("200 failed") << 200 << apiFixture(QStringLiteral("failed.json")) << int(ErrorKind::Server)
                                << "internal"
                                << "Image generation failed." << -1;
    QTest::newRow("200 not an image") << 200 << apiFixture(QStringLiteral("not_an_image.json"))
                                      << int(ErrorKind::MalformedResponse) << ""
                                      << "" << -1;
}

void tst_InteractionsClient::errorShapes()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(int, kind);
    QFETCH(QString, serverCode);
    QFETCH(QString, serverMessage);
    QFETCH(int, retryAfterMs);

    ScriptedServer server;
    auto reply = ScriptedServer::json(status, body);
    if (body.startsWith('<'))
        reply.contentType = "text/html";
    server.enqueue(reply);
    ClientConfig config = configFor(server.baseUrl());
    config.maxRetries = 0;
    InteractionsClient client(config);
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(!r.ok());
    QCOMPARE(int(r.error().kind), kind);
    QCOMPARE(r.error().api.httpStatus, status == 200 ? 0 : status);
    QCOMPARE(r.error().api.serverCode, serverCode);
    QCOMPARE(r.error().api.serverMessage, serverMessage);
    QCOMPARE(r.error().api.retryAfterMs, retryAfterMs);
    QCOMPARE(r.error().api.attempts, 1);
    QVERIFY(!r.error().message.isEmpty());
    qInfo("%s", qPrintable(r.error().message));
    if (!serverMessage.isEmpty())
        QVERIFY2(
            r.error().message.contains(ResponseParser::withoutFinalDot(serverMessage)), qPrintable(r.error().message));
    QVERIFY(!r.error().message.contains(QLatin1String("..")));
}

void tst_InteractionsClient::thinkingLevelLearnedAndPersisted_data()
{
    QTest::addColumn<QString>("verbatim");
    QTest::newRow("google wording") << QStringLiteral(
        "* GenerateContentRequest.generation_config.thinking_config.thinking_level: Unsupported thinking level. "
        "Allowed values are: minimal, high.");
    QTest::newRow("terse wording") << QStringLiteral("Invalid value 'low'. Allowed values are: minimal, high.");
}

void tst_InteractionsClient::thinkingLevelLearnedAndPersisted()
{
    QFETCH(QString, verbatim);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("levels.json"));
    ThinkingLevels levels(path);
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(400,
        QStringLiteral(R"({"error":{"code":400,"message":"%1","status":"INVALID_ARGUMENT"}})").arg(verbatim).toUtf8()));
    ClientConfig config = configFor(server.baseUrl());
    config.thinkingLevels = &levels;
    InteractionsClient client(config);

    const auto r
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QStringLiteral("low")));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::InvalidRequest);
    QCOMPARE(r.error().api.allowedValues, QStringList({QStringLiteral("minimal"), QStringLiteral("high")}));
    QCOMPARE(r.error().api.serverMessage, verbatim);
    QString quoted = verbatim;
    quoted.chop(1); // no doubled full stop before our own sentence
    QCOMPARE(r.error().message,
        QStringLiteral("The server rejected thinking level 'low': %1. Allowed levels for this model: minimal, high.")
            .arg(quoted));
    QCOMPARE(server.requestCount(), 1);

    // Learned, persisted, and used for validation from now on: no request for 'low'.
    QCOMPARE(levels.allowed(config.model), QStringList({QStringLiteral("minimal"), QStringLiteral("high")}));
    ThinkingLevels reloaded(path);
    QVERIFY(reloaded.isLearned(config.model));
    QCOMPARE(reloaded.allowed(config.model), QStringList({QStringLiteral("minimal"), QStringLiteral("high")}));
    const auto again
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QStringLiteral("low")));
    QVERIFY(!again.ok());
    QCOMPARE(again.error().kind, ErrorKind::InvalidInput);
    QVERIFY(again.error().message.contains(QLatin1String("minimal, high")));
    QCOMPARE(again.error().api.attempts, 0);
    QCOMPARE(server.requestCount(), 1);
}

void tst_InteractionsClient::otherAllowedValuesNotLearned()
{
    ThinkingLevels levels;
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(400,
        R"({"error":{"code":400,"message":"Bad aspect_ratio. Allowed values are: 1:1, 16:9.","status":"INVALID_ARGUMENT"}})"));
    ClientConfig config = configFor(server.baseUrl());
    config.thinkingLevels = &levels;
    InteractionsClient client(config);
    const auto r
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QStringLiteral("low")));
    QCOMPARE(r.error().kind, ErrorKind::InvalidRequest);
    QCOMPARE(r.error().api.allowedValues, QStringList({QStringLiteral("1:1"), QStringLiteral("16:9")}));
    QVERIFY(!levels.isLearned(config.model));
    QVERIFY(r.error().message.contains(QLatin1String("Allowed values: 1:1, 16:9")));
}

void tst_InteractionsClient::thinkingLevelNotSupportedWording()
{
    ThinkingLevels levels;
    ScriptedServer server;
    const QString verbatim = QStringLiteral(
        "Thinking level THINKING_LEVEL_LOW is not supported for this model. Please retry with other thinking level.");
    server.enqueue(ScriptedServer::json(
        400, QStringLiteral(R"({"error":{"message":"%1","code":"invalid_request"}})").arg(verbatim).toUtf8()));
    ClientConfig config = configFor(server.baseUrl());
    config.thinkingLevels = &levels;
    InteractionsClient client(config);
    const auto r
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QStringLiteral("low")));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::InvalidRequest);
    QVERIFY(r.error().api.allowedValues.isEmpty());
    QVERIFY(!levels.isLearned(config.model));
    QVERIFY(r.error().message.startsWith(QStringLiteral("The server rejected thinking level 'low': ")
        + verbatim.chopped(1) + QStringLiteral(". Choose")));
}

void tst_InteractionsClient::retriesTransientStatuses()
{
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(503, R"({"error":{"code":503,"message":"busy","status":"UNAVAILABLE"}})"));
    server.enqueue(ScriptedServer::json(408, ""));
    server.enqueue(ScriptedServer::json(409, R"({"error":{"message":"conflict"}})"));
    server.enqueue(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));
    InteractionsClient client(configFor(server.baseUrl()));
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(r.ok());
    QCOMPARE(r.value().attempts, 4);
    QCOMPARE(server.requestCount(), 4);

    // Exhausted: maxRetries 4 => 5 attempts, the last error comes back with the count.
    ScriptedServer failing;
    failing.setDefaultReply(ScriptedServer::json(500, R"({"error":{"message":"boom","code":"internal"}})"));
    InteractionsClient client2(configFor(failing.baseUrl()));
    const auto f = client2.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(!f.ok());
    QCOMPARE(f.error().kind, ErrorKind::Server);
    QCOMPARE(f.error().api.attempts, 5);
    QCOMPARE(failing.requestCount(), 5);
}

void tst_InteractionsClient::doesNotRetryClientErrors()
{
    ScriptedServer server;
    server.setDefaultReply(ScriptedServer::json(404, R"({"error":{"message":"gone","code":"not_found"}})"));
    InteractionsClient client(configFor(server.baseUrl()));
    const auto r = client.get(QStringLiteral("v1_gone"));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::NotFound);
    QCOMPARE(r.error().api.attempts, 1);
    QVERIFY(r.error().message.contains(QLatin1String("v1_gone")));
    QCOMPARE(server.requestCount(), 1);

    const auto e = client.create(
        TurnRequest::edit(QStringLiteral("v1_expired"), QStringLiteral("more"), QStringLiteral("1:1"), QString()));
    QCOMPARE(e.error().kind, ErrorKind::NotFound);
    QVERIFY(e.error().message.contains(QLatin1String("v1_expired")));
    QVERIFY(e.error().message.contains(QLatin1String("edit-local")));
}

void tst_InteractionsClient::retryAfterHonoured_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("minMs");

    QTest::newRow("Retry-After seconds") << QByteArray("Retry-After") << QByteArray("1") << QByteArray("{}") << 950;
    QTest::newRow("retry-after-ms") << QByteArray("retry-after-ms") << QByteArray("300") << QByteArray("{}") << 280;
    QTest::newRow("body retryDelay")
        << QByteArray() << QByteArray()
        << QByteArray(
               R"({"error":{"message":"slow down","code":"resource_exhausted","details":[{"retryDelay":"0.4s"}]}})")
        << 380;
}

void tst_InteractionsClient::retryAfterHonoured()
{
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, value);
    QFETCH(QByteArray, body);
    QFETCH(int, minMs);

    ScriptedServer server;
    auto limited = ScriptedServer::json(429, body);
    if (!header.isEmpty())
        limited.headers.insert(header, value);
    server.enqueue(limited);
    server.enqueue(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));
    InteractionsClient client(configFor(server.baseUrl()));
    QElapsedTimer timer;
    timer.start();
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    const qint64 elapsed = timer.elapsed();
    QVERIFY(r.ok());
    QCOMPARE(r.value().attempts, 2);
    QVERIFY2(elapsed >= minMs, qPrintable(QString::number(elapsed)));
    QVERIFY2(elapsed < minMs + 1500, qPrintable(QString::number(elapsed)));
}

void tst_InteractionsClient::retryAfterNeverFasterThanBackoff_data()
{
    QTest::addColumn<QByteArray>("retryAfter");
    // An HTTP-date in the past (and "0") once meant 5 attempts in 0.12 s.
    QTest::newRow("date in the past") << QByteArray("Wed, 21 Oct 2015 07:28:00 GMT");
    QTest::newRow("zero") << QByteArray("0");
}

void tst_InteractionsClient::retryAfterNeverFasterThanBackoff()
{
    QFETCH(QByteArray, retryAfter);
    ScriptedServer server;
    auto limited = ScriptedServer::json(429, R"({"error":{"message":"Quota exceeded.","code":"resource_exhausted"}})");
    limited.headers.insert("Retry-After", retryAfter);
    server.setDefaultReply(limited);
    ClientConfig config = configFor(server.baseUrl());
    config.backoffBaseMs = 200; // 200, 400, 800, 1600 ms less up to 25 % jitter: at least 2250 ms in all
    config.backoffCapMs = 8000;
    InteractionsClient client(config);
    QElapsedTimer timer;
    timer.start();
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    const qint64 elapsed = timer.elapsed();
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::RateLimited);
    QCOMPARE(server.requestCount(), 5);
    QVERIFY2(elapsed >= 2250, qPrintable(QString::number(elapsed)));
}

void tst_InteractionsClient::hugeRetryAfterReadsAsADuration()
{
    ScriptedServer server;
    auto limited = ScriptedServer::json(503, R"({"error":{"message":"maintenance"}})");
    limited.headers.insert("Retry-After", "1000000");
    server.setDefaultReply(limited);
    InteractionsClient client(configFor(server.baseUrl()));
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::RateLimited);
    QVERIFY2(!r.error().message.contains(QLatin1String("e+")), qPrintable(r.error().message));
    QVERIFY2(r.error().message.contains(QLatin1String("11 days 14 h")), qPrintable(r.error().message));
}

void tst_InteractionsClient::deadlineBoundsTheWholeCall()
{
    // A server that never answers: without a limit, 5 attempts of the read timeout each.
    ScriptedServer server;
    ScriptedServer::Reply hang;
    hang.hang = true;
    server.setDefaultReply(hang);
    ClientConfig config = configFor(server.baseUrl());
    config.readTimeoutMs = 60000;
    InteractionsClient client(config);
    CallOptions options;
    options.deadline = QDeadlineTimer(1500);
    QElapsedTimer timer;
    timer.start();
    const auto r
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()), options);
    const qint64 elapsed = timer.elapsed();
    server.releaseHangs();
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::Timeout);
    QVERIFY2(r.error().message.contains(QLatin1String("time limit")), qPrintable(r.error().message));
    QVERIFY2(elapsed >= 1400 && elapsed < 4000, qPrintable(QString::number(elapsed)));
    QCOMPARE(server.requestCount(), 1);
}

void tst_InteractionsClient::retriesAreAnnounced()
{
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(500, R"({"error":{"message":"boom","code":"internal"}})"));
    server.enqueue(ScriptedServer::json(503, R"({"error":{"message":"busy"}})"));
    server.enqueue(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));
    InteractionsClient client(configFor(server.baseUrl()));
    QList<RetryNotice> notices;
    CallOptions options;
    options.onRetry = [&notices](const RetryNotice &n) { notices.append(n); };
    const auto r
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()), options);
    QVERIFY(r.ok());
    QCOMPARE(notices.size(), 2);
    QCOMPARE(notices.at(0).attempt, 1);
    QCOMPARE(notices.at(1).attempt, 2);
    QCOMPARE(notices.at(0).maxAttempts, 5);
    QCOMPARE(notices.at(0).error.api.httpStatus, 500);
    QCOMPARE(notices.at(1).error.api.httpStatus, 503);
    QVERIFY(notices.at(0).delayMs > 0);
}

void tst_InteractionsClient::truncatedBodyIsFetchedById()
{
    // A complete HTTP answer whose JSON is cut in half: its id is read from what came and the
    // interaction is fetched with get; the create is not sent twice.
    const QByteArray full = apiFixture(QStringLiteral("full.json"));
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(200, full.left(full.size() / 2)));
    server.enqueue(ScriptedServer::json(200, full));
    InteractionsClient client(configFor(server.baseUrl()));
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r.value().attempts, 2);
    QCOMPARE(server.requests().at(1).method, QByteArray("GET"));
    QVERIFY(server.requests().at(1).target.contains(ResponseParser::salvageInteractionId(full).toUtf8()));
}

void tst_InteractionsClient::longRateLimitReturnedToCaller()
{
    ScriptedServer server;
    auto limited = ScriptedServer::json(429, R"({"error":{"message":"Quota exceeded.","code":"resource_exhausted"}})");
    limited.headers.insert("Retry-After", "60");
    server.setDefaultReply(limited);
    InteractionsClient client(configFor(server.baseUrl()));
    QElapsedTimer timer;
    timer.start();
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(timer.elapsed() < 1000);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::RateLimited);
    QCOMPARE(r.error().api.retryAfterMs, 60000);
    QCOMPARE(r.error().api.attempts, 1);
    QCOMPARE(server.requestCount(), 1);
    QVERIFY2(r.error().message.contains(QLatin1String("in 1 min")), qPrintable(r.error().message));

    // A 503 that names a long wait is returned the same way, as "come back later".
    ScriptedServer busy;
    auto unavailable = ScriptedServer::json(503, R"({"error":{"message":"maintenance"}})");
    unavailable.headers.insert("retry-after-ms", "45000");
    busy.setDefaultReply(unavailable);
    InteractionsClient client2(configFor(busy.baseUrl()));
    const auto b = client2.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QCOMPARE(b.error().kind, ErrorKind::RateLimited);
    QCOMPARE(b.error().api.httpStatus, 503);
    QCOMPARE(b.error().api.retryAfterMs, 45000);
    QCOMPARE(busy.requestCount(), 1);
}

void tst_InteractionsClient::connectionFailureRetried()
{
    InteractionsClient client(configFor(QStringLiteral("http://127.0.0.1:%1").arg(unusedPort())));
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::Network);
    QCOMPARE(r.error().api.attempts, 5);
    QCOMPARE(r.error().api.httpStatus, 0);
}

void tst_InteractionsClient::connectionResetMidBodyRetried()
{
    // The answer began (headers and 100 bytes, with the id) and then the connection broke:
    // the interaction exists, so it is fetched with get, never created a second time.
    ScriptedServer server;
    auto cut = ScriptedServer::json(200, apiFixture(QStringLiteral("full.json")));
    cut.chunkSize = 100;
    cut.cutAfterFirstChunk = true;
    server.enqueue(cut);
    server.enqueue(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));
    InteractionsClient client(configFor(server.baseUrl()));
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r.value().attempts, 2);
    QCOMPARE(server.requestCount(), 2);
    QCOMPARE(server.requests().at(0).method, QByteArray("POST"));
    QCOMPARE(server.requests().at(1).method, QByteArray("GET"));
    QVERIFY(server.requests().at(1).target.contains("/interactions/"));

    // Always cut: the get is retried (it is free), the create never; the error keeps the id.
    ScriptedServer broken;
    broken.setDefaultReply(cut);
    ClientConfig config = configFor(broken.baseUrl());
    config.maxRetries = 1;
    InteractionsClient client2(config);
    const auto f = client2.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(!f.ok());
    QCOMPARE(f.error().kind, ErrorKind::Network);
    QVERIFY(!f.error().api.interactionId.isEmpty());
    int posts = 0;
    for (const auto &req : broken.requests())
        posts += req.method == "POST" ? 1 : 0;
    QCOMPARE(posts, 1);
    QCOMPARE(f.error().api.attempts, 3); // one create, two gets
    QVERIFY2(f.error().message.contains(QLatin1String("billed twice")), qPrintable(f.error().message));
}

void tst_InteractionsClient::cancelWhileWaitingForResponse()
{
    ScriptedServer server;
    ScriptedServer::Reply hang;
    hang.hang = true;
    server.setDefaultReply(hang);
    InteractionsClient client(configFor(server.baseUrl()));
    CancelProbe probe;
    probe.start(client, TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(waitForRequests(server, 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // let it settle into the wait
    Result<Interaction> r = Error();
    const double ms = probe.cancelAndMeasure(&r);
    qInfo("cancel latency while waiting for the response: %.2f ms", ms);
    QVERIFY2(ms < 200.0, qPrintable(QString::number(ms)));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::Cancelled);
    QCOMPARE(r.error().api.attempts, 1);
}

void tst_InteractionsClient::cancelDuringBackoff()
{
    ScriptedServer server;
    auto busy = ScriptedServer::json(503, R"({"error":{"message":"busy"}})");
    busy.headers.insert("retry-after-ms", "2500");
    server.setDefaultReply(busy);
    InteractionsClient client(configFor(server.baseUrl()));
    CancelProbe probe;
    probe.start(client, TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(waitForRequests(server, 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(300)); // the response is in; now it sleeps
    Result<Interaction> r = Error();
    const double ms = probe.cancelAndMeasure(&r);
    qInfo("cancel latency during backoff: %.2f ms", ms);
    QVERIFY2(ms < 200.0, qPrintable(QString::number(ms)));
    QCOMPARE(r.error().kind, ErrorKind::Cancelled);
    QCOMPARE(server.requestCount(), 1);
}

void tst_InteractionsClient::cancelDuringTrickledBody()
{
    ScriptedServer server;
    auto slow = ScriptedServer::json(200, apiFixture(QStringLiteral("full.json")));
    slow.chunkSize = 8;
    slow.chunkDelayMs = 100;
    server.setDefaultReply(slow);
    InteractionsClient client(configFor(server.baseUrl()));
    CancelProbe probe;
    probe.start(client, TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(waitForRequests(server, 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(350));
    Result<Interaction> r = Error();
    const double ms = probe.cancelAndMeasure(&r);
    qInfo("cancel latency while a body trickles in: %.2f ms", ms);
    QVERIFY2(ms < 200.0, qPrintable(QString::number(ms)));
    QCOMPARE(r.error().kind, ErrorKind::Cancelled);
}

void tst_InteractionsClient::cancelWhileConnecting()
{
    FullBacklog backlog;
    ClientConfig config = configFor(QStringLiteral("http://127.0.0.1:%1").arg(backlog.port()));
    config.connectTimeoutMs = 1500; // the abandoned connect gives up on its own soon after
    InteractionsClient client(config);
    CancelProbe probe;
    probe.start(client, TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    QVERIFY(probe.future.wait_for(std::chrono::seconds(0)) != std::future_status::ready); // still connecting
    Result<Interaction> r = Error();
    const double ms = probe.cancelAndMeasure(&r);
    qInfo("cancel latency while connecting: %.2f ms", ms);
    QVERIFY2(ms < 200.0, qPrintable(QString::number(ms)));
    QCOMPARE(r.error().kind, ErrorKind::Cancelled);
    std::this_thread::sleep_for(
        std::chrono::milliseconds(1700)); // let the abandoned connect end before the listener closes
}

void tst_InteractionsClient::cancelDuringStream()
{
    ScriptedServer server;
    auto slow = sse(apiFixture(QStringLiteral("stream_basic.sse")), 300);
    slow.chunkDelayMs = 400;
    server.setDefaultReply(slow);
    InteractionsClient client(configFor(server.baseUrl()));
    auto token = std::make_shared<CancelToken>();
    std::promise<void> createdSeen;
    std::atomic<bool> once {false};
    CallOptions options;
    options.stream = true;
    options.cancel = token;
    options.onEvent = [&](const StreamEvent &e) {
        if (e.type == StreamEvent::Type::Created && !once.exchange(true))
            createdSeen.set_value();
    };
    auto future = std::async(std::launch::async, [&] {
        return client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()), options);
    });
    QVERIFY(createdSeen.get_future().wait_for(std::chrono::seconds(3)) == std::future_status::ready);
    QElapsedTimer timer;
    timer.start();
    token->cancel();
    QVERIFY(future.wait_for(std::chrono::seconds(3)) == std::future_status::ready);
    const double ms = timer.nsecsElapsed() / 1e6;
    qInfo("cancel latency during a stream: %.2f ms", ms);
    QVERIFY(ms < 200.0);
    const auto r = future.get();
    QCOMPARE(r.error().kind, ErrorKind::Cancelled);
}

void tst_InteractionsClient::cancelBeforeStart()
{
    ScriptedServer server;
    InteractionsClient client(configFor(server.baseUrl()));
    CallOptions options;
    options.cancel = std::make_shared<CancelToken>();
    options.cancel->cancel();
    const auto r
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()), options);
    QCOMPARE(r.error().kind, ErrorKind::Cancelled);
    QCOMPARE(server.requestCount(), 0);
}

void tst_InteractionsClient::readTimeout()
{
    ScriptedServer server;
    auto late = ScriptedServer::json(200, apiFixture(QStringLiteral("full.json")));
    late.delayMs = 3000;
    server.setDefaultReply(late);
    ClientConfig config = configFor(server.baseUrl());
    config.readTimeoutMs = 300;
    config.maxRetries = 1;
    InteractionsClient client(config);
    QElapsedTimer timer;
    timer.start();
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::Timeout);
    QCOMPARE(r.error().api.attempts, 2); // a timeout is retried like the SDK does
    server.releaseHangs();
}

void tst_InteractionsClient::connectTimeout()
{
    FullBacklog backlog;
    ClientConfig config = configFor(QStringLiteral("http://127.0.0.1:%1").arg(backlog.port()));
    config.connectTimeoutMs = 300;
    config.maxRetries = 0;
    InteractionsClient client(config);
    QElapsedTimer timer;
    timer.start();
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY2(timer.elapsed() < 1500, qPrintable(QString::number(timer.elapsed())));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::Timeout);
    QVERIFY(r.error().message.contains(QLatin1String("timed out")));
}

void tst_InteractionsClient::streamingWithDraftsMatchesUnary()
{
    ScriptedServer server;
    server.enqueue(sse(apiFixture(QStringLiteral("stream_drafts.sse")), 37)); // split anywhere
    // The same interaction as one unary body.
    const QByteArray jpg = apiFixture(QStringLiteral("red.jpg")).toBase64();
    const QByteArray png = apiFixture(QStringLiteral("blue.png")).toBase64();
    server.enqueue(ScriptedServer::json(200,
        R"({"id":"v1_sse123","status":"completed","model":"gemini-3.1-flash-lite-image","object":"interaction","created":"2026-06-10T12:00:00Z","steps":[{"type":"thought","signature":"c2ln","summary":[{"type":"image","mime_type":"image/png","data":")"
            + png
            + R"("}]},{"type":"model_output","content":[{"type":"text","text":"Here is your image."},{"type":"image","mime_type":"image/jpeg","data":")"
            + jpg + R"("}]}],"usage":{"total_tokens":1337}})"));
    InteractionsClient client(configFor(server.baseUrl()));
    const auto request = TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("16:9"), QStringLiteral("low"));

    QList<StreamEvent> events;
    CallOptions options;
    options.stream = true;
    options.onEvent = [&](const StreamEvent &e) { events.append(e); };
    const auto streamed = client.create(request, options);
    QVERIFY2(streamed.ok(), qPrintable(streamed.ok() ? QString() : streamed.error().message));
    const auto unary = client.create(request);
    QVERIFY(unary.ok());

    const Interaction &s = streamed.value();
    const Interaction &u = unary.value();
    QCOMPARE(s.id, u.id);
    QCOMPARE(s.status, u.status);
    QCOMPARE(s.model, u.model);
    QCOMPARE(s.created, u.created);
    QCOMPARE(s.image.bytes, u.image.bytes);
    QCOMPARE(s.image.bytes, apiFixture(QStringLiteral("red.jpg")));
    QCOMPARE(s.image.mimeType, u.image.mimeType);
    QCOMPARE(s.text, u.text);
    QCOMPARE(s.text, QStringLiteral("Here is your image."));
    QCOMPARE(s.drafts.size(), 1);
    QCOMPARE(u.drafts.size(), 1);
    QCOMPARE(s.drafts.first().bytes, apiFixture(QStringLiteral("blue.png")));
    QCOMPARE(s.usage.totalTokens, u.usage.totalTokens);

    QVERIFY(!events.isEmpty());
    QCOMPARE(events.first().type, StreamEvent::Type::Created);
    QCOMPARE(events.first().interactionId, QStringLiteral("v1_sse123"));
    int drafts = 0, images = 0;
    for (const StreamEvent &e : events) {
        drafts += e.type == StreamEvent::Type::Draft;
        images += e.type == StreamEvent::Type::ImageReceived;
        if (e.type == StreamEvent::Type::Draft)
            QCOMPARE(e.image.bytes, apiFixture(QStringLiteral("blue.png")));
        if (e.type == StreamEvent::Type::ImageReceived)
            QCOMPARE(e.image.bytes, apiFixture(QStringLiteral("red.jpg")));
    }
    QCOMPARE(drafts, 1);
    QCOMPARE(images, 1);
    QCOMPARE(events.last().type, StreamEvent::Type::StatusChanged);
    QCOMPARE(events.last().status, QStringLiteral("completed"));
}

void tst_InteractionsClient::streamingEventsInOrder()
{
    // Created must arrive while the stream is still running (so the caller can persist the id).
    auto slow = sse(apiFixture(QStringLiteral("stream_basic.sse")), 250);
    slow.chunkDelayMs = 150;
    ScriptedServer slowServer;
    slowServer.enqueue(slow);
    InteractionsClient client(configFor(slowServer.baseUrl()));
    QElapsedTimer timer;
    timer.start();
    qint64 createdAt = -1;
    QList<StreamEvent::Type> types;
    CallOptions options;
    options.stream = true;
    options.onEvent = [&](const StreamEvent &e) {
        if (e.type == StreamEvent::Type::Created)
            createdAt = timer.elapsed();
        types.append(e.type);
    };
    const auto r
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()), options);
    const qint64 total = timer.elapsed();
    QVERIFY(r.ok());
    QVERIFY(createdAt >= 0);
    QVERIFY2(createdAt + 300 < total, qPrintable(QStringLiteral("%1 / %2").arg(createdAt).arg(total)));
    QCOMPARE(types.first(), StreamEvent::Type::Created);
    QVERIFY(types.contains(StreamEvent::Type::Text));
    QVERIFY(types.contains(StreamEvent::Type::ImageReceived));
}

void tst_InteractionsClient::streamErrors_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("contains");

    QTest::newRow("error event") << "stream_error.sse" << int(ErrorKind::RateLimited) << "Quota exceeded mid-stream.";
    QTest::newRow("completed failed") << "stream_failed.sse" << int(ErrorKind::Server) << "Generation failed.";
    QTest::newRow("truncated") << "stream_truncated.sse" << int(ErrorKind::MalformedResponse) << "ended early";
}

void tst_InteractionsClient::streamErrors()
{
    QFETCH(QString, fixture);
    QFETCH(int, kind);
    QFETCH(QString, contains);
    ScriptedServer server;
    server.enqueue(sse(apiFixture(fixture)));
    InteractionsClient client(configFor(server.baseUrl()));
    CallOptions options;
    options.stream = true;
    bool created = false;
    options.onEvent = [&](const StreamEvent &e) { created |= e.type == StreamEvent::Type::Created; };
    const auto r
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()), options);
    QVERIFY(!r.ok());
    QCOMPARE(int(r.error().kind), kind);
    QVERIFY2(r.error().message.contains(ResponseParser::withoutFinalDot(contains)), qPrintable(r.error().message));
    QCOMPARE(r.error().api.interactionId, QStringLiteral("v1_sse123"));
    QVERIFY(created);
    // A started stream is never re-sent; a cut one is fetched with get (which fails here).
    QCOMPARE(server.requests().first().method, QByteArray("POST"));
    for (int i = 1; i < server.requests().size(); ++i)
        QCOMPARE(server.requests().at(i).method, QByteArray("GET"));
}

void tst_InteractionsClient::streamAnsweredWithJson()
{
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));
    InteractionsClient client(configFor(server.baseUrl()));
    CallOptions options;
    options.stream = true;
    const auto r
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()), options);
    QVERIFY(r.ok());
    QCOMPARE(r.value().id, QStringLiteral("v1_abc123"));
}

void tst_InteractionsClient::streamRetriedBeforeItStarts()
{
    ScriptedServer server;
    auto busy = ScriptedServer::json(503, R"({"error":{"message":"busy"}})");
    server.enqueue(busy);
    server.enqueue(sse(apiFixture(QStringLiteral("stream_basic.sse"))));
    InteractionsClient client(configFor(server.baseUrl()));
    CallOptions options;
    options.stream = true;
    const auto r
        = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()), options);
    QVERIFY(r.ok());
    QCOMPARE(r.value().attempts, 2);
    QCOMPARE(r.value().image.bytes, apiFixture(QStringLiteral("red.jpg")));
    QCOMPARE(server.requests().at(1).body, server.requests().at(0).body);
}

void tst_InteractionsClient::keyNeverInMessages_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    const QByteArray key = "AIzaSyDistinctiveSecretKey-0123456789xyz";
    QTest::newRow("400 echo") << 400
                              << QByteArray(R"([{"error":{"code":400,"message":"API key not valid: )" + key
                                     + R"(","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}])");
    QTest::newRow("html echo") << 502
                               << QByteArray("<html><body>upstream saw x-goog-api-key: " + key + "</body></html>");
    QTest::newRow("no image echo")
        << 200
        << QByteArray(
               R"({"id":"v1","status":"completed","steps":[{"type":"model_output","content":[{"type":"text","text":"your key is )"
               + key + R"("}]}]})");
}

void tst_InteractionsClient::keyNeverInMessages()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    const QString key = QStringLiteral("AIzaSyDistinctiveSecretKey-0123456789xyz");
    ScriptedServer server;
    server.setDefaultReply(ScriptedServer::json(status, body));
    ClientConfig config = configFor(server.baseUrl());
    config.apiKey = ApiKey(key, QStringLiteral("GEMINI_API_KEY"));
    config.maxRetries = 0;
    InteractionsClient client(config);
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(!r.ok());
    QCOMPARE(server.requests().first().headers.value("x-goog-api-key"), key.toUtf8()); // it was sent ...
    for (const QString &s :
        {r.error().message, r.error().api.serverMessage, r.error().api.serverCode, r.error().api.modelText}) {
        QVERIFY2(!s.contains(key), qPrintable(s)); // ... but never comes back in a message
        QVERIFY(!s.contains(QLatin1String("DistinctiveSecret")));
    }
    QVERIFY(!QString::fromUtf8(
        client.requestBody(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString())))
                 .contains(key));
    if (r.error().kind == ErrorKind::Auth)
        QVERIFY(r.error().message.contains(QLatin1String("GEMINI_API_KEY")));
}

void tst_InteractionsClient::refusesInsecureHttp()
{
    for (const QString &base : {QStringLiteral("http://10.0.0.1:9"), QStringLiteral("http://example.com"),
             QStringLiteral("ftp://127.0.0.1/")}) {
        InteractionsClient client(configFor(base));
        const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ErrorKind::Tls);
        QCOMPARE(r.error().api.attempts, 0);
        const auto g = client.get(QStringLiteral("v1_x"));
        QCOMPARE(g.error().kind, ErrorKind::Tls);
    }
    // localhost is loopback: allowed.
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));
    InteractionsClient local(configFor(QStringLiteral("http://localhost:%1").arg(server.port())));
    QVERIFY(local.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString())).ok());
}

void tst_InteractionsClient::tlsSelfSignedRejected()
{
    ScriptedServer server(
        apiFixturePath(QStringLiteral("loopback.crt")), apiFixturePath(QStringLiteral("loopback.key")));
    QVERIFY(server.isValid());
    server.setDefaultReply(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));
    InteractionsClient client(configFor(server.baseUrl())); // system CA store
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::Tls);
    QCOMPARE(r.error().api.attempts, 1); // not retried
    QCOMPARE(server.requestCount(), 0);  // the request (and key) never went out
    QVERIFY2(r.error().message.contains(QLatin1String("certificate")), qPrintable(r.error().message));
    qInfo("%s", qPrintable(r.error().message));
}

void tst_InteractionsClient::tlsTrustedWithCaBundle()
{
    ScriptedServer server(
        apiFixturePath(QStringLiteral("loopback.crt")), apiFixturePath(QStringLiteral("loopback.key")));
    server.setDefaultReply(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));
    ClientConfig config = configFor(server.baseUrl());
    config.caBundlePath = apiFixturePath(QStringLiteral("loopback.crt"));
    InteractionsClient client(config);
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
    QCOMPARE(server.requestCount(), 1);

    // The same certificate names DNS:localhost too.
    config.baseUrl = QStringLiteral("https://localhost:%1").arg(server.port());
    const auto byName = InteractionsClient(config).create(
        TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY2(byName.ok(), qPrintable(byName.ok() ? QString() : byName.error().message));
    QCOMPARE(server.requestCount(), 2);
}

void tst_InteractionsClient::tlsHostNameMismatch()
{
    // Trusted certificate, but issued for other.invalid, not 127.0.0.1.
    ScriptedServer server(
        apiFixturePath(QStringLiteral("othername.crt")), apiFixturePath(QStringLiteral("othername.key")));
    server.setDefaultReply(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));
    ClientConfig config = configFor(server.baseUrl());
    config.caBundlePath = apiFixturePath(QStringLiteral("othername.crt"));
    InteractionsClient client(config);
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::Tls);
    QCOMPARE(server.requestCount(), 0);
}

void tst_InteractionsClient::validation_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("prompt");
    QTest::addColumn<QString>("ratio");
    QTest::addColumn<QString>("level");
    QTest::addColumn<int>("imageBytes"); // 0: a real image; -1: not an image; >0: a PNG this big
    QTest::addColumn<int>("expected");
    QTest::addColumn<QString>("contains");

    const int ok = int(ErrorKind::None);
    const int bad = int(ErrorKind::InvalidInput);
    QTest::newRow("ok generate") << 0 << "fox"
                                 << "16:9"
                                 << "low" << 0 << ok << "";
    QTest::newRow("empty prompt") << 0 << "  "
                                  << "16:9"
                                  << "low" << 0 << bad << "prompt is empty";
    QTest::newRow("bad ratio") << 0 << "fox"
                               << "2:1"
                               << "low" << 0 << bad << "21:9";
    QTest::newRow("extreme ratio") << 0 << "fox"
                                   << "1:8"
                                   << "" << 0 << bad << "not supported";
    QTest::newRow("generate needs ratio") << 0 << "fox"
                                          << ""
                                          << "" << 0 << bad << "Aspect ratio";
    QTest::newRow("edit needs ratio") << 1 << "fox"
                                      << ""
                                      << "" << 0 << bad << "Aspect ratio";
    QTest::newRow("edit local without ratio") << 2 << "fox"
                                              << ""
                                              << "" << 0 << ok << "";
    QTest::newRow("style without ratio") << 3 << "fox"
                                         << ""
                                         << "high" << 0 << ok << "";
    QTest::newRow("unknown level") << 0 << "fox"
                                   << "1:1"
                                   << "medium" << 0 << bad << "low, high";
    QTest::newRow("minimal not in defaults") << 0 << "fox"
                                             << "1:1"
                                             << "minimal" << 0 << bad << "minimal";
    QTest::newRow("level case-insensitive") << 0 << "fox"
                                            << "1:1"
                                            << "HIGH" << 0 << ok << "";
    QTest::newRow("not an image") << 2 << "fox"
                                  << ""
                                  << "" << -1 << bad << "not an image";
    QTest::newRow("too large") << 2 << "fox"
                               << ""
                               << "" << 15'100'000 << int(ErrorKind::TooLarge) << "20.0 MB";
    QTest::newRow("just fits") << 2 << "fox"
                               << ""
                               << "" << 14'900'000 << ok << "";
}

void tst_InteractionsClient::validation()
{
    QFETCH(int, kind);
    QFETCH(QString, prompt);
    QFETCH(QString, ratio);
    QFETCH(QString, level);
    QFETCH(int, imageBytes);
    QFETCH(int, expected);
    QFETCH(QString, contains);

    ImageInput img = image(QStringLiteral("red.jpg"));
    if (imageBytes < 0) {
        img.bytes = "GIF-ish but not really an image";
    } else if (imageBytes > 0) {
        img.bytes = QByteArray::fromBase64(kOnePixelPng);
        img.bytes.resize(imageBytes, 'x');
    }
    TurnRequest request;
    switch (kind) {
    case 0:
        request = TurnRequest::generate(prompt, ratio, level);
        break;
    case 1:
        request = TurnRequest::edit(QStringLiteral("v1_a"), prompt, ratio, level);
        break;
    case 2:
        request = TurnRequest::editLocal(img, prompt, ratio, level);
        break;
    default:
        request = TurnRequest::styleEdit(img, img, prompt, ratio, level);
        break;
    }
    ScriptedServer server;
    InteractionsClient client(configFor(server.baseUrl()));
    const auto error = client.validate(request);
    if (expected == int(ErrorKind::None)) {
        QVERIFY2(!error, qPrintable(error ? error->message : QString()));
        return;
    }
    QVERIFY(error.has_value());
    QCOMPARE(int(error->kind), expected);
    QVERIFY2(error->message.contains(contains), qPrintable(error->message));
    if (expected == int(ErrorKind::TooLarge)) {
        QVERIFY(error->message.contains(QLatin1String("20.1 MB")));
        QVERIFY(error->message.contains(QLatin1String("re-encode")));
    }
    // create() refuses the same request without sending anything.
    const auto r = client.create(request);
    QVERIFY(!r.ok());
    QCOMPARE(int(r.error().kind), expected);
    QCOMPARE(r.error().api.attempts, 0);
    QCOMPARE(server.requestCount(), 0);
}

void tst_InteractionsClient::concurrentCalls()
{
    ScriptedServer server;
    auto reply = ScriptedServer::json(200, apiFixture(QStringLiteral("full.json")));
    reply.delayMs = 500;
    server.setDefaultReply(reply);
    InteractionsClient client(configFor(server.baseUrl()));
    std::vector<std::future<Result<Interaction>>> calls;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < 4; ++i) {
        calls.push_back(std::async(std::launch::async, [&client] {
            return client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
        }));
    }
    for (auto &f : calls)
        QVERIFY(f.get().ok());
    QCOMPARE(server.requestCount(), 4);
    QVERIFY2(timer.elapsed() < 1500, qPrintable(QString::number(timer.elapsed()))); // serialised would take >= 2 s
}

void tst_InteractionsClient::missingKeyForRemoteHost()
{
    ClientConfig config = configFor(QStringLiteral("https://generativelanguage.googleapis.com"));
    config.apiKey = ApiKey();
    InteractionsClient client(config);
    const auto r = client.create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().kind, ErrorKind::Auth);
    QCOMPARE(r.error().api.attempts, 0);
    QVERIFY(r.error().message.contains(QLatin1String("GEMINI_API_KEY")));

    // A local server may be used without a key: the header is simply not sent.
    ScriptedServer server;
    server.enqueue(ScriptedServer::json(200, apiFixture(QStringLiteral("full.json"))));
    ClientConfig local = configFor(server.baseUrl());
    local.apiKey = ApiKey();
    QVERIFY(InteractionsClient(local)
                .create(TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()))
                .ok());
    QVERIFY(!server.requests().first().headers.contains("x-goog-api-key"));

    // ...and when that local server insists on a key, the message says none was sent.
    server.enqueue(ScriptedServer::json(400,
        R"([{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}])"));
    local.maxRetries = 0;
    const auto rejected = InteractionsClient(local).create(
        TurnRequest::generate(QStringLiteral("fox"), QStringLiteral("1:1"), QString()));
    QCOMPARE(rejected.error().kind, ErrorKind::Auth);
    QVERIFY2(rejected.error().message.contains(QLatin1String("none was sent")), qPrintable(rejected.error().message));
    QVERIFY2(rejected.error().message.contains(QLatin1String("GEMINI_API_KEY")), qPrintable(rejected.error().message));

    ClientConfig badVersion = configFor(server.baseUrl());
    badVersion.apiVersion = QStringLiteral("v2alpha");
    const auto v = InteractionsClient(badVersion).get(QStringLiteral("v1_x"));
    QCOMPARE(v.error().kind, ErrorKind::InvalidInput);
    QCOMPARE(server.requestCount(), 2);
}

QTEST_GUILESS_MAIN(tst_InteractionsClient)
#include "tst_interactionsclient.moc"
