// McpHandler without a session: JSON-RPC framing, lifecycle, errors, batches, cancel, progress,
// logging and argument checks, against a stub tool host that answers when the test says so.

#include "core/mcp/jsonrpc.h"
#include "core/mcp/mcpcall.h"
#include "core/mcp/mcphandler.h"
#include "core/mcp/mcpprotocol.h"
#include "core/mcp/mcpschema.h"
#include "core/mcp/mcpsessiontools.h"
#include "core/mcp/mcptoolhost.h"
#include "core/session/sessioncontroller.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QtTest>

using namespace nb2;

namespace {

/** One tool "echo" (arguments: text required, mode enum default "plain", count integer) and one resource. */
class StubHost : public McpToolHost
{
public:
    QJsonArray toolDefinitions() const override
    {
        const QJsonObject schema {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
                QJsonObject {{QStringLiteral("text"),
                                 QJsonObject {{QStringLiteral("type"), QStringLiteral("string")},
                                     {QStringLiteral("minLength"), 1},
                                     {QStringLiteral("description"), QStringLiteral("What to echo.")}}},
                    {QStringLiteral("mode"),
                        QJsonObject {{QStringLiteral("type"), QStringLiteral("string")},
                            {QStringLiteral("enum"), QJsonArray {QStringLiteral("plain"), QStringLiteral("loud")}},
                            {QStringLiteral("default"), QStringLiteral("plain")}}},
                    {QStringLiteral("count"), QJsonObject {{QStringLiteral("type"), QStringLiteral("integer")}}}}},
            {QStringLiteral("required"), QJsonArray {QStringLiteral("text")}},
            {QStringLiteral("additionalProperties"), false}};
        return {QJsonObject {{QStringLiteral("name"), QStringLiteral("echo")}, {QStringLiteral("inputSchema"), schema}},
            QJsonObject {{QStringLiteral("name"), QStringLiteral("later")},
                {QStringLiteral("inputSchema"), QJsonObject {{QStringLiteral("type"), QStringLiteral("object")}}}}};
    }
    void callTool(const std::shared_ptr<McpCall> &call) override
    {
        if (call->toolName() == QLatin1String("echo")) {
            call->finish(
                {{QStringLiteral("content"), QJsonArray {}}, {QStringLiteral("structuredContent"), call->arguments()}});
            return;
        }
        held.append(call); // "later": the test answers, cancels or reports progress
        call->setCancelHandler([this] { ++cancelled; });
    }
    QJsonArray resourceList() const override
    {
        return {QJsonObject {
            {QStringLiteral("uri"), QStringLiteral("stub://one")}, {QStringLiteral("name"), QStringLiteral("one")}}};
    }
    void readResource(const std::shared_ptr<McpCall> &call) override
    {
        if (call->params().value(QLatin1String("uri")).toString() == QLatin1String("stub://one"))
            call->finish({{QStringLiteral("contents"),
                QJsonArray {QJsonObject {{QStringLiteral("uri"), QStringLiteral("stub://one")},
                    {QStringLiteral("text"), QStringLiteral("hi")}}}}});
        else
            call->fail(jsonrpc::ResourceNotFound, QStringLiteral("Resource not found"));
    }
    QString instructions() const override { return QStringLiteral("be nice"); }

    void changeTools() { Q_EMIT toolListChanged(); }
    void say(mcp::LogLevel level, const QString &text) { Q_EMIT logMessage(level, text); }

    QList<std::shared_ptr<McpCall>> held;
    int cancelled = 0;
};

QByteArray request(const QJsonValue &id, const QString &method, const QJsonObject &params = {})
{
    QJsonObject o {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id},
        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        o.insert(QStringLiteral("params"), params);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray notification(const QString &method, const QJsonObject &params = {})
{
    return QJsonDocument(QJsonObject {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                             {QStringLiteral("method"), method}, {QStringLiteral("params"), params}})
        .toJson(QJsonDocument::Compact);
}

QByteArray callTool(int id, const QString &name, const QJsonValue &arguments, const QJsonObject &meta = {})
{
    QJsonObject params {{QStringLiteral("name"), name}, {QStringLiteral("arguments"), arguments}};
    if (!meta.isEmpty())
        params.insert(QStringLiteral("_meta"), meta);
    return request(id, QStringLiteral("tools/call"), params);
}

} // namespace

class tst_McpProtocol : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<StubHost> m_host;
    std::unique_ptr<McpHandler> m_handler;
    QList<QByteArray> m_out;
    QStringList m_diagnostics;

    /** Feeds one line; returns the lines it produced (each checked to be one JSON value). */
    QList<QJsonValue> feed(const QByteArray &line)
    {
        m_out.clear();
        m_handler->handleLine(line);
        return taken();
    }
    QList<QJsonValue> taken()
    {
        QList<QJsonValue> values;
        for (const QByteArray &l : std::as_const(m_out)) {
            if (l.contains('\n'))
                qWarning() << "an output line contains a newline";
            QJsonParseError e;
            const QJsonDocument d = QJsonDocument::fromJson(l, &e);
            if (e.error != QJsonParseError::NoError)
                qWarning() << "unparsable output" << l;
            values.append(d.isArray() ? QJsonValue(d.array()) : QJsonValue(d.object()));
        }
        m_out.clear();
        return values;
    }
    QJsonObject only(const QByteArray &line)
    {
        const QList<QJsonValue> out = feed(line);
        if (out.size() != 1)
            qWarning() << "expected one answer, got" << out.size();
        return out.value(0).toObject();
    }
    QJsonObject initialize(const QString &version = QStringLiteral("2025-11-25"))
    {
        const QJsonObject r = only(request(0, QStringLiteral("initialize"),
            {{QStringLiteral("protocolVersion"), version}, {QStringLiteral("capabilities"), QJsonObject {}},
                {QStringLiteral("clientInfo"),
                    QJsonObject {{QStringLiteral("name"), QStringLiteral("test")},
                        {QStringLiteral("version"), QStringLiteral("1")}}}}));
        feed(notification(QStringLiteral("notifications/initialized")));
        return r;
    }
    static int errorCode(const QJsonObject &answer)
    {
        return answer.value(QLatin1String("error")).toObject().value(QLatin1String("code")).toInt();
    }
    static QString errorText(const QJsonObject &answer)
    {
        return answer.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
    }
    static QJsonObject result(const QJsonObject &answer) { return answer.value(QLatin1String("result")).toObject(); }
    static QString toolText(const QJsonObject &answer)
    {
        return result(answer)
            .value(QLatin1String("content"))
            .toArray()
            .at(0)
            .toObject()
            .value(QLatin1String("text"))
            .toString();
    }
    void pingServed(int id = 99)
    {
        const QJsonObject r = only(request(id, QStringLiteral("ping")));
        QCOMPARE(r.value(QLatin1String("id")).toInt(), id);
        QVERIFY(r.contains(QLatin1String("result")));
    }

private Q_SLOTS:
    void init()
    {
        m_host = std::make_unique<StubHost>();
        m_handler = std::make_unique<McpHandler>(
            McpHandler::ServerInfo {QStringLiteral("nb2lite"), QStringLiteral("NB2Lite"), QStringLiteral("9.9")},
            m_host.get());
        m_out.clear();
        m_diagnostics.clear();
        connect(m_handler.get(), &McpHandler::lineReady, this, [this](const QByteArray &l) { m_out.append(l); });
        connect(m_handler.get(), &McpHandler::diagnostic, this, [this](const QString &t) { m_diagnostics.append(t); });
    }
    void cleanup()
    {
        m_handler.reset();
        m_host.reset();
    }

    void negotiatesTheVersion_data()
    {
        QTest::addColumn<QString>("requested");
        QTest::addColumn<QString>("agreed");
        for (const QString &v : mcp::supportedProtocolVersions())
            QTest::newRow(qPrintable(v)) << v << v;
        QTest::newRow("future") << QStringLiteral("2099-01-01") << mcp::latestProtocolVersion();
        QTest::newRow("garbage") << QStringLiteral("yesterday") << mcp::latestProtocolVersion();
    }
    void negotiatesTheVersion()
    {
        QFETCH(QString, requested);
        QFETCH(QString, agreed);
        const QJsonObject r = result(initialize(requested));
        QCOMPARE(r.value(QLatin1String("protocolVersion")).toString(), agreed);
        QCOMPARE(m_handler->protocolVersion(), agreed);
        const QJsonObject caps = r.value(QLatin1String("capabilities")).toObject();
        QVERIFY(caps.value(QLatin1String("tools")).isObject());
        QVERIFY(caps.value(QLatin1String("resources")).isObject());
        QVERIFY(caps.value(QLatin1String("logging")).isObject());
        QCOMPARE(r.value(QLatin1String("serverInfo")).toObject().value(QLatin1String("name")).toString(),
            QStringLiteral("nb2lite"));
        QCOMPARE(r.value(QLatin1String("serverInfo")).toObject().value(QLatin1String("version")).toString(),
            QStringLiteral("9.9"));
        QCOMPARE(r.value(QLatin1String("instructions")).toString(), QStringLiteral("be nice"));
    }

    void lifecycleRules()
    {
        // Before initialize only ping works.
        pingServed(1);
        QCOMPARE(errorCode(only(request(2, QStringLiteral("tools/list")))), int(jsonrpc::InvalidRequest));
        QCOMPARE(errorCode(only(
                     request(3, QStringLiteral("initialize"), {{QStringLiteral("capabilities"), QJsonObject {}}}))),
            int(jsonrpc::InvalidParams));
        initialize();
        QCOMPARE(errorCode(only(request(4, QStringLiteral("initialize"),
                     {{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")}}))),
            int(jsonrpc::InvalidRequest));
        QCOMPARE(m_handler->protocolVersion(), QStringLiteral("2025-11-25"));
        const QJsonObject tools = result(only(request(5, QStringLiteral("tools/list"))));
        QCOMPARE(tools.value(QLatin1String("tools")).toArray().size(), 2);
        QCOMPARE(errorCode(
                     only(request(6, QStringLiteral("tools/list"), {{QStringLiteral("cursor"), QStringLiteral("x")}}))),
            int(jsonrpc::InvalidParams));
    }

    void garbageGetsParseErrors_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("words") << QByteArray("hello there");
        QTest::newRow("open brace") << QByteArray("{");
        QTest::newRow("half array") << QByteArray("[1, 2");
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe{\"a\"", 6);
        QTest::newRow("trailing garbage") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"ping"} x)");
        QTest::newRow("deep nesting") << QByteArray(5000, '[');
    }
    void garbageGetsParseErrors()
    {
        QFETCH(QByteArray, line);
        initialize();
        const QJsonObject r = only(line);
        QCOMPARE(errorCode(r), int(jsonrpc::ParseError));
        QVERIFY(r.value(QLatin1String("id")).isNull());
        pingServed();
    }

    void invalidRequests_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QJsonValue>("id");
        QTest::newRow("empty object") << QByteArray("{}") << QJsonValue(QJsonValue::Null);
        QTest::newRow("jsonrpc 1.0") << QByteArray(R"({"jsonrpc":"1.0","id":7,"method":"ping"})") << QJsonValue(7);
        QTest::newRow("object id") << QByteArray(R"({"jsonrpc":"2.0","id":{},"method":"ping"})")
                                   << QJsonValue(QJsonValue::Null);
        QTest::newRow("null id") << QByteArray(R"({"jsonrpc":"2.0","id":null,"method":"ping"})")
                                 << QJsonValue(QJsonValue::Null);
        QTest::newRow("method number") << QByteArray(R"({"jsonrpc":"2.0","id":"a","method":5})")
                                       << QJsonValue(QStringLiteral("a"));
        QTest::newRow("params scalar") << QByteArray(R"({"jsonrpc":"2.0","id":8,"method":"ping","params":3})")
                                       << QJsonValue(8);
    }
    void invalidRequests()
    {
        QFETCH(QByteArray, line);
        QFETCH(QJsonValue, id);
        initialize();
        const QJsonObject r = only(line);
        QCOMPARE(errorCode(r), int(jsonrpc::InvalidRequest));
        QCOMPARE(r.value(QLatin1String("id")), id);
        pingServed();
    }

    void unknownMethodsAndNotifications()
    {
        initialize();
        const QJsonObject r = only(request(QStringLiteral("x1"), QStringLiteral("prompts/list")));
        QCOMPARE(errorCode(r), int(jsonrpc::MethodNotFound));
        QCOMPARE(r.value(QLatin1String("id")).toString(), QStringLiteral("x1"));
        QVERIFY(feed(notification(QStringLiteral("notifications/whatever"))).isEmpty());
        QVERIFY(feed(R"({"jsonrpc":"2.0","id":5,"result":{}})").isEmpty()); // a stray response
        pingServed();
    }

    void idsComeBackExactly()
    {
        initialize();
        QCOMPARE(
            only(R"({"jsonrpc":"2.0","id":9007199254740993,"method":"ping"})").value(QLatin1String("id")).toInteger(),
            Q_INT64_C(9007199254740993));
        QCOMPARE(only(R"({"jsonrpc":"2.0","id":"Ω-1","method":"ping"})").value(QLatin1String("id")).toString(),
            QStringLiteral("Ω-1"));
        QCOMPARE(only(R"({"jsonrpc":"2.0","id":-3,"method":"ping"})").value(QLatin1String("id")).toInt(), -3);
    }

    void batches()
    {
        // Before initialize and in revisions without batches: one error, then service goes on.
        QCOMPARE(errorCode(only(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])")), int(jsonrpc::InvalidRequest));
        initialize(QStringLiteral("2025-06-18"));
        const QJsonObject refused
            = only(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}])");
        QCOMPARE(errorCode(refused), int(jsonrpc::InvalidRequest));
        QVERIFY2(errorText(refused).contains(QLatin1String("2025-06-18")), qPrintable(errorText(refused)));
        pingServed();
    }

    void batchesIn20250326()
    {
        initialize(QStringLiteral("2025-03-26"));
        QCOMPARE(errorCode(only("[]")), int(jsonrpc::InvalidRequest));
        const QList<QJsonValue> out = feed(
            R"([{"jsonrpc":"2.0","id":1,"method":"ping"},)"
            R"({"jsonrpc":"2.0","method":"notifications/initialized"},)"
            R"({"jsonrpc":"2.0","id":2,"method":"nope"},)"
            R"(17,)"
            R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}])");
        QCOMPARE(out.size(), 1);
        const QJsonArray replies = out.at(0).toArray();
        QCOMPARE(replies.size(), 4); // the notification has no answer
        QHash<int, QJsonObject> byId;
        int nullIds = 0;
        for (const QJsonValue &v : replies) {
            if (v.toObject().value(QLatin1String("id")).isNull())
                ++nullIds;
            else
                byId.insert(v.toObject().value(QLatin1String("id")).toInt(), v.toObject());
        }
        QCOMPARE(nullIds, 1); // 17 is not a request
        QVERIFY(byId.value(1).contains(QLatin1String("result")));
        QCOMPARE(errorCode(byId.value(2)), int(jsonrpc::MethodNotFound));
        QCOMPARE(result(byId.value(3))
                     .value(QLatin1String("structuredContent"))
                     .toObject()
                     .value(QLatin1String("text"))
                     .toString(),
            QStringLiteral("hi"));

        // A batch with a call that answers later is sent when its last answer is in.
        QVERIFY(feed(
            R"([{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"later"}}])")
                    .isEmpty());
        QCOMPARE(m_host->held.size(), 1);
        m_host->held.takeFirst()->finish({{QStringLiteral("content"), QJsonArray {}}});
        const QList<QJsonValue> late = taken();
        QCOMPARE(late.size(), 1);
        QCOMPARE(late.at(0).toArray().size(), 2);
    }

    void oversizedMessages_data()
    {
        QTest::addColumn<QByteArray>("prefix");
        QTest::addColumn<QByteArray>("suffix");
        QTest::addColumn<QJsonValue>("id");
        // The TypeScript SDK writes the id last, Python clients first.
        QTest::newRow("id last") << QByteArray(
            R"({"method":"tools/call","params":{"name":"echo","arguments":{"text":")")
                                 << QByteArray(R"("}},"jsonrpc":"2.0","id":41})") << QJsonValue(41);
        QTest::newRow("id first") << QByteArray(R"({"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"x":")")
                                  << QByteArray(R"("}})") << QJsonValue(QStringLiteral("big"));
        QTest::newRow("nested id last") << QByteArray(R"({"jsonrpc":"2.0","method":"x","params":{"a":")")
                                        << QByteArray(R"(","id":5}})") << QJsonValue(QJsonValue::Null);
        QTest::newRow("no json") << QByteArray("zzz") << QByteArray("zzz") << QJsonValue(QJsonValue::Null);
    }
    void oversizedMessages()
    {
        QFETCH(QByteArray, prefix);
        QFETCH(QByteArray, suffix);
        QFETCH(QJsonValue, id);
        initialize();
        const QByteArray line = prefix + QByteArray(McpHandler::kMaxMessageBytes + 10, 'a') + suffix;
        const QJsonObject r = only(line);
        QCOMPARE(errorCode(r), int(jsonrpc::InvalidRequest));
        QVERIFY(errorText(r).contains(QLatin1String("too large")));
        QCOMPARE(r.value(QLatin1String("id")), id);
        pingServed();
    }

    void toolCallErrors_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<int>("protocolError"); // 0: a tool result with isError
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown tool") << callTool(1, QStringLiteral("nope"), QJsonObject {})
                                      << int(jsonrpc::InvalidParams) << QStringLiteral("echo");
        QTest::newRow("no name") << request(
            1, QStringLiteral("tools/call"), {{QStringLiteral("arguments"), QJsonObject {}}})
                                 << int(jsonrpc::InvalidParams) << QStringLiteral("name");
        QTest::newRow("arguments array") << callTool(1, QStringLiteral("echo"), QJsonArray {1})
                                         << int(jsonrpc::InvalidParams) << QStringLiteral("arguments");
        QTest::newRow("params array") << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]})")
                                      << int(jsonrpc::InvalidParams) << QStringLiteral("object");
        QTest::newRow("missing required") << callTool(1, QStringLiteral("echo"),
            QJsonObject {}) << 0 << QStringLiteral("missing required argument \"text\" (string): What to echo.");
        QTest::newRow("null required") << callTool(
            1, QStringLiteral("echo"), QJsonObject {{QStringLiteral("text"), QJsonValue::Null}})
                                       << 0 << QStringLiteral("missing required argument \"text\"");
        QTest::newRow("empty required") << callTool(
            1, QStringLiteral("echo"), QJsonObject {{QStringLiteral("text"), QStringLiteral("  ")}})
                                        << 0 << QStringLiteral("\"text\" must not be empty");
        QTest::newRow("wrong type") << callTool(1, QStringLiteral("echo"), QJsonObject {{QStringLiteral("text"), 5}})
                                    << 0 << QStringLiteral("\"text\" must be a string, not a number");
        QTest::newRow("not an integer") << callTool(1, QStringLiteral("echo"),
            QJsonObject {{QStringLiteral("text"), QStringLiteral("a")}, {QStringLiteral("count"), 1.5}})
                                        << 0 << QStringLiteral("must be an integer");
        QTest::newRow("enum") << callTool(1, QStringLiteral("echo"),
            QJsonObject {
                {QStringLiteral("text"), QStringLiteral("a")}, {QStringLiteral("mode"), QStringLiteral("LOUD")}})
                              << 0 << QStringLiteral("must be one of plain, loud (got \"LOUD\")");
        QTest::newRow("unknown argument") << callTool(1, QStringLiteral("echo"),
            QJsonObject {{QStringLiteral("text"), QStringLiteral("a")}, {QStringLiteral("txet"), 1}})
                                          << 0 << QStringLiteral("unknown argument \"txet\"");
    }
    void toolCallErrors()
    {
        QFETCH(QByteArray, line);
        QFETCH(int, protocolError);
        QFETCH(QString, mentions);
        initialize();
        const QJsonObject r = only(line);
        if (protocolError) {
            QCOMPARE(errorCode(r), protocolError);
            QVERIFY2(errorText(r).contains(mentions), qPrintable(errorText(r)));
        } else {
            QVERIFY2(result(r).value(QLatin1String("isError")).toBool(), QJsonDocument(r).toJson().constData());
            QVERIFY2(toolText(r).contains(mentions), qPrintable(toolText(r)));
        }
        QVERIFY(m_host->held.isEmpty());
        pingServed();
    }

    void defaultsAreFilledIn()
    {
        initialize();
        const QJsonObject r = result(only(callTool(1, QStringLiteral("echo"),
            QJsonObject {{QStringLiteral("text"), QStringLiteral("a")}, {QStringLiteral("mode"), QJsonValue::Null}})));
        const QJsonObject args = r.value(QLatin1String("structuredContent")).toObject();
        QCOMPARE(args.value(QLatin1String("mode")).toString(), QStringLiteral("plain"));
        QVERIFY(!args.contains(QLatin1String("count")));
    }

    void cancelStopsTheAnswer()
    {
        initialize();
        QVERIFY(feed(callTool(7, QStringLiteral("later"), QJsonObject {})).isEmpty());
        QCOMPARE(m_handler->callsInFlight(), 1);
        // The same id while in flight is refused.
        QCOMPARE(errorCode(only(callTool(7, QStringLiteral("later"), QJsonObject {}))), int(jsonrpc::InvalidRequest));
        QVERIFY(feed(notification(QStringLiteral("notifications/cancelled"),
                         {{QStringLiteral("requestId"), 7}, {QStringLiteral("reason"), QStringLiteral("user")}}))
                    .isEmpty());
        QCOMPARE(m_host->cancelled, 1);
        QCOMPARE(m_handler->callsInFlight(), 0);
        m_host->held.first()->finish({{QStringLiteral("content"), QJsonArray {}}});
        QVERIFY(taken().isEmpty()); // a cancelled request is never answered
        // Unknown ids and the string "7" cancel nothing.
        QVERIFY(feed(notification(QStringLiteral("notifications/cancelled"), {{QStringLiteral("requestId"), 8}}))
                    .isEmpty());
        QVERIFY(feed(callTool(7, QStringLiteral("later"), QJsonObject {})).isEmpty()); // the id is free again
        QVERIFY(feed(notification(QStringLiteral("notifications/cancelled"),
                         {{QStringLiteral("requestId"), QStringLiteral("7")}}))
                    .isEmpty());
        QCOMPARE(m_host->cancelled, 1);
        m_host->held.last()->finish({{QStringLiteral("content"), QJsonArray {}}});
        QCOMPARE(taken().size(), 1);
    }

    void progressNeedsAToken()
    {
        initialize();
        feed(callTool(
            1, QStringLiteral("later"), QJsonObject {}, {{QStringLiteral("progressToken"), QStringLiteral("tok")}}));
        feed(callTool(2, QStringLiteral("later"), QJsonObject {}));
        const auto withToken = m_host->held.at(0);
        const auto without = m_host->held.at(1);
        QVERIFY(withToken->wantsProgress());
        QVERIFY(!without->wantsProgress());
        withToken->reportProgress(1, 0, QStringLiteral("one"));
        withToken->reportProgress(1, 0, QStringLiteral("same value: dropped"));
        withToken->reportProgress(0.5);
        withToken->reportProgress(2, 4);
        without->reportProgress(1);
        const QList<QJsonValue> out = taken();
        QCOMPARE(out.size(), 2);
        const QJsonObject first = out.at(0).toObject().value(QLatin1String("params")).toObject();
        QCOMPARE(
            out.at(0).toObject().value(QLatin1String("method")).toString(), QStringLiteral("notifications/progress"));
        QCOMPARE(first.value(QLatin1String("progressToken")).toString(), QStringLiteral("tok"));
        QCOMPARE(first.value(QLatin1String("message")).toString(), QStringLiteral("one"));
        QVERIFY(!first.contains(QLatin1String("total")));
        QCOMPARE(
            out.at(1).toObject().value(QLatin1String("params")).toObject().value(QLatin1String("total")).toDouble(),
            4.0);
        withToken->finish({});
        withToken->reportProgress(3); // after the answer: nothing
        QCOMPARE(taken().size(), 1);
    }

    void loggingOnlyWhenAsked()
    {
        initialize();
        m_diagnostics.clear();
        m_host->say(mcp::LogLevel::Warning, QStringLiteral("first"));
        QVERIFY(taken().isEmpty());
        QCOMPARE(m_diagnostics.size(), 1); // stderr always
        QCOMPARE(errorCode(only(request(
                     1, QStringLiteral("logging/setLevel"), {{QStringLiteral("level"), QStringLiteral("loud")}}))),
            int(jsonrpc::InvalidParams));
        QVERIFY(
            only(request(2, QStringLiteral("logging/setLevel"), {{QStringLiteral("level"), QStringLiteral("warning")}}))
                .contains(QLatin1String("result")));
        m_host->say(mcp::LogLevel::Info, QStringLiteral("too quiet"));
        m_host->say(mcp::LogLevel::Error, QStringLiteral("loud enough"));
        const QList<QJsonValue> out = taken();
        QCOMPARE(out.size(), 1);
        const QJsonObject params = out.at(0).toObject().value(QLatin1String("params")).toObject();
        QCOMPARE(
            out.at(0).toObject().value(QLatin1String("method")).toString(), QStringLiteral("notifications/message"));
        QCOMPARE(params.value(QLatin1String("level")).toString(), QStringLiteral("error"));
        QCOMPARE(params.value(QLatin1String("data")).toString(), QStringLiteral("loud enough"));
    }

    void listChangedNotifications()
    {
        m_host->changeTools();
        QVERIFY(taken().isEmpty()); // not before initialize
        initialize();
        m_host->changeTools();
        const QList<QJsonValue> out = taken();
        QCOMPARE(out.size(), 1);
        QCOMPARE(out.at(0).toObject().value(QLatin1String("method")).toString(),
            QStringLiteral("notifications/tools/list_changed"));
    }

    void resources()
    {
        initialize();
        QCOMPARE(result(only(request(1, QStringLiteral("resources/list"))))
                     .value(QLatin1String("resources"))
                     .toArray()
                     .size(),
            1);
        QCOMPARE(result(only(request(2, QStringLiteral("resources/read"),
                            {{QStringLiteral("uri"), QStringLiteral("stub://one")}})))
                     .value(QLatin1String("contents"))
                     .toArray()
                     .size(),
            1);
        QCOMPARE(errorCode(only(request(
                     3, QStringLiteral("resources/read"), {{QStringLiteral("uri"), QStringLiteral("stub://two")}}))),
            int(jsonrpc::ResourceNotFound));
        QCOMPARE(errorCode(only(request(4, QStringLiteral("resources/read")))), int(jsonrpc::InvalidParams));
    }

    void endOfInputWaitsForCalls()
    {
        initialize();
        QSignalSpy finished(m_handler.get(), &McpHandler::finished);
        feed(callTool(1, QStringLiteral("later"), QJsonObject {}));
        m_handler->handleEndOfInput();
        QCOMPARE(finished.count(), 0);
        m_host->held.first()->finish({{QStringLiteral("content"), QJsonArray {}}});
        QCOMPARE(taken().size(), 1); // the answer still goes out
        QCOMPARE(finished.count(), 1);
    }

    void salvagedIds_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QByteArray>("tail");
        QTest::addColumn<QJsonValue>("id");
        QTest::newRow("first") << QByteArray(R"({"id":12,"method")") << QByteArray("...") << QJsonValue(12);
        QTest::newRow("after jsonrpc") << QByteArray(R"( { "jsonrpc" : "2.0" , "id" : "q" , )") << QByteArray("")
                                       << QJsonValue(QStringLiteral("q"));
        QTest::newRow("last") << QByteArray("{...") << QByteArray(R"(...,"id":3})") << QJsonValue(3);
        QTest::newRow("nested last") << QByteArray("{...") << QByteArray(R"(...,"id":3}})")
                                     << QJsonValue(QJsonValue::Null);
        // (not a raw string: moc misreads backslashes in raw strings and then skips the class)
        QTest::newRow("inside a string") << QByteArray("{...") << QByteArray("\"x\\\",\\\"id\\\":3}\"})")
                                         << QJsonValue(QJsonValue::Null);
        QTest::newRow("object id") << QByteArray(R"({"id":{"a":1},)") << QByteArray("") << QJsonValue(QJsonValue::Null);
        QTest::newRow("second member") << QByteArray(R"({"method":"x","id":1,)") << QByteArray("")
                                       << QJsonValue(QJsonValue::Null);
    }
    void salvagedIds()
    {
        QFETCH(QByteArray, head);
        QFETCH(QByteArray, tail);
        QFETCH(QJsonValue, id);
        QCOMPARE(jsonrpc::salvageId(head, tail), id);
    }

    void survivesMutatedMessages()
    {
        // A deterministic stand-in for the fuzzer: valid messages with random damage, fed to the
        // real tool host over an unopened session (everything answers at once). Every answer must
        // be one well-formed line; nothing may crash or hang.
        SessionController closed;
        McpSessionTools tools(&closed, McpBridgeOptions {});
        McpHandler handler({QStringLiteral("nb2lite"), {}, QStringLiteral("0")}, &tools);
        QList<QByteArray> out;
        connect(&handler, &McpHandler::lineReady, this, [&out](const QByteArray &l) { out.append(l); });
        const QList<QByteArray> corpus {
            request(
                1, QStringLiteral("initialize"), {{QStringLiteral("protocolVersion"), QStringLiteral("2025-03-26")}}),
            request(2, QStringLiteral("tools/list")),
            callTool(
                3, QStringLiteral("generate_image"), QJsonObject {{QStringLiteral("prompt"), QStringLiteral("a fox")}}),
            callTool(4, QStringLiteral("edit_image"),
                QJsonObject {{QStringLiteral("previous_interaction_id"), QStringLiteral("v1_x")},
                    {QStringLiteral("edit_prompt"), QStringLiteral("y")}}),
            callTool(5, QStringLiteral("edit_local_image"),
                QJsonObject {{QStringLiteral("image_path"), QStringLiteral("/etc/passwd")},
                    {QStringLiteral("edit_prompt"), QStringLiteral("y")}}),
            callTool(
                6, QStringLiteral("list_frames"), QJsonObject {{QStringLiteral("branch"), QStringLiteral("abcd")}}),
            callTool(7, QStringLiteral("get_help"), QJsonObject {}),
            request(
                8, QStringLiteral("resources/read"), {{QStringLiteral("uri"), QStringLiteral("nb2lite://frame/abc")}}),
            request(9, QStringLiteral("logging/setLevel"), {{QStringLiteral("level"), QStringLiteral("debug")}}),
            QByteArray(
                R"([{"jsonrpc":"2.0","id":10,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}])"),
        };
        handler.handleLine(corpus.first());
        QRandomGenerator random(20260913);
        int lines = 0;
        for (int round = 0; round < 4000; ++round) {
            QByteArray message = corpus.at(random.bounded(int(corpus.size())));
            const int edits = 1 + random.bounded(4);
            for (int e = 0; e < edits && !message.isEmpty(); ++e) {
                const int at = random.bounded(int(message.size()));
                switch (random.bounded(4)) {
                case 0:
                    message[at] = char(random.bounded(256));
                    break;
                case 1:
                    message.remove(at, 1 + random.bounded(8));
                    break;
                case 2: {
                    static const char kSpecials[] = "{[\"\\\x01,:}]";
                    message.insert(at, kSpecials[random.bounded(int(sizeof(kSpecials)) - 1)]);
                    break;
                }
                default:
                    message.truncate(at);
                    break;
                }
            }
            message.replace('\n', ' ');
            out.clear();
            handler.handleLine(message);
            for (const QByteArray &l : std::as_const(out)) {
                ++lines;
                QJsonParseError error;
                QJsonDocument::fromJson(l, &error);
                QVERIFY2(error.error == QJsonParseError::NoError && !l.contains('\n'), l.constData());
            }
        }
        QVERIFY(lines > 3000);
        QCOMPARE(handler.callsInFlight(), 0);
    }

    void destroyingWithCallsInFlight()
    {
        initialize();
        feed(callTool(1, QStringLiteral("later"), QJsonObject {}));
        auto call = m_host->held.first();
        m_handler.reset(); // cancels; the host's reference must stay harmless
        QVERIFY(call->isCancelled());
        call->finish({});
        call->reportProgress(5);
        QVERIFY(m_out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_McpProtocol)
#include "tst_mcpprotocol.moc"
