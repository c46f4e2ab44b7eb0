// Case "overhead" (issue 10, case 1): what a turn costs on top of the model's own time. The
// fake answers at once with a realistic response (a ~1 MB 1024x1024 JPEG, a thought step with a
// draft, usage). From the request to the image on disk, alternated run by run (the SDK in one
// Node process per round, between rounds of ours; see runTurnOverhead):
//   a  our client: InteractionsClient::create + SessionStore::writeImageFile (temp, fsync,
//      rename) in process; the same as the `nb2lite --json generate` process; and, for scale, a
//      whole SessionController turn (journal records, durable session) in process;
//   b  the official @google/genai 3.1.0 SDK in Node: create + base64 decode + write, in one
//      process (in process) and as a `node sdk_turn.mjs` process per turn;
//   c  the floor: the same response bytes over a bare loopback HTTP transfer (cpp-httplib, both
//      ends), base64 decode, file write + fsync, in C++ (in process, and as a process: this
//      program run with --floor).
// Targets: a/c <= 1.2 and a/b <= 0.5, in both forms.

#include "bench/benchcases.h"
#include "bench/benchcontext.h"

#include "core/api/clientconfig.h"
#include "core/api/interactionsclient.h"
#include "core/api/turnrequest.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <httplib.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <thread>

#include <fcntl.h>
#include <unistd.h>

namespace nb2::bench {

namespace {

const char kBody[]
    = R"({"model":"gemini-3.1-flash-lite-image","input":"bench: a harbour at dusk",)"
      R"("response_format":{"type":"image","aspect_ratio":"1:1"},"generation_config":{"thinking_level":"low"},"store":true})";

/** The floor's client side: POST, find the last inline image, decode it, write and fsync it. */
bool floorTurn(const std::string &host, int port, const QString &out)
{
    httplib::Client client(host, port);
    const httplib::Result res = client.Post("/v1/interactions", kBody, "application/json");
    if (!res || res->status != 200)
        return false;
    const std::string &body = res->body;
    const size_t at = body.rfind("\"data\":\"");
    if (at == std::string::npos)
        return false;
    const size_t start = at + 8, end = body.find('"', start);
    const QByteArray bytes
        = QByteArray::fromBase64(QByteArray::fromRawData(body.data() + start, qsizetype(end - start)));
    const int fd = ::open(QFile::encodeName(out).constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, bytes.constData(), size_t(bytes.size())) == bytes.size() && ::fsync(fd) == 0;
    ::close(fd);
    return ok;
}

/** A bare loopback server answering every POST with the same bytes (the fake's real answer). */
struct FloorServer {
    httplib::Server server;
    std::thread thread;
    int port = 0;

    explicit FloorServer(const std::string &response)
    {
        server.Post(".*", [response](const httplib::Request &, httplib::Response &res) {
            res.set_content(response, "application/json");
        });
        port = server.bind_to_any_port("127.0.0.1");
        thread = std::thread([this] { server.listen_after_bind(); });
        while (!server.is_running())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~FloorServer()
    {
        server.stop();
        thread.join();
    }
};

std::vector<double> sdkInProcess(
    Context &ctx, const FakeServer &fake, int runs, const QString &out, bool durable, QString *error)
{
    QProcessEnvironment env = cliEnvironment(fake);
    QByteArray stdoutBytes;
    QStringList args {ctx.nodeDir + QStringLiteral("/sdk_turn.mjs"), QStringLiteral("--base-url"), fake.baseUrl(),
        QStringLiteral("--out"), out, QStringLiteral("--runs"), QString::number(runs)};
    if (durable)
        args << QStringLiteral("--fsync");
    if (runProcess(QStringLiteral("node"), args, env, 300000, error, &stdoutBytes) < 0)
        return {};
    std::vector<double> ms;
    const QJsonArray arr = QJsonDocument::fromJson(stdoutBytes).object().value(QStringLiteral("ms")).toArray();
    for (const QJsonValue &v : arr)
        ms.push_back(v.toDouble());
    return ms;
}

} // namespace

/** `nb2lite-bench --floor HOST:PORT OUT`: one floor turn as its own process. */
int runFloorProcess(const QString &hostPort, const QString &out)
{
    const QStringList parts = hostPort.split(QLatin1Char(':'));
    return parts.size() == 2 && floorTurn(parts.at(0).toStdString(), parts.at(1).toInt(), out) ? 0 : 1;
}

void runTurnOverhead(Context &ctx)
{
    const QString kCase = QStringLiteral("overhead");
    std::unique_ptr<FakeServer> fake = startFake(0);
    if (!fake)
        return ctx.report->addError(kCase, QStringLiteral("the fake server did not start"));
    // The fake's real answer, captured once: the floor serves exactly these bytes.
    std::string response;
    {
        httplib::Client capture("127.0.0.1", fake->port());
        httplib::Headers headers {{"x-goog-api-key", "test-key"}};
        const httplib::Result res = capture.Post("/v1/interactions", headers, kBody, "application/json");
        if (!res || res->status != 200)
            return ctx.report->addError(kCase, QStringLiteral("the fake did not answer the capture request"));
        response = res->body;
    }
    FloorServer floor(response);
    const QString dir = ctx.scratchDir + QStringLiteral("/overhead");
    QDir().mkpath(dir);
    const QString floorOut = dir + QStringLiteral("/floor.jpg");
    const int runs = ctx.runs(15);
    // The SDK makes all its turns in one Node process, so its runs cannot alternate with ours
    // run by run. Instead the in-process part is measured in rounds: our runs, then the SDK's,
    // close together in time; each round gives one ratio of medians. The figure is the median of
    // the rounds, and its min/max show how much the machine moved them.
    const int rounds = ctx.runs(5);
    const QString note = QStringLiteral("response %1 KB").arg(response.size() / 1024);

    // ---- in process ----
    auto client = clientFor(*fake);
    SessionController controller;
    controller.setClient(clientFor(*fake));
    SessionSettings settings;
    settings.recoverOnOpen = false;
    controller.setSettings(settings);
    if (!controller.open(dir + QStringLiteral("/session")))
        return ctx.report->addError(kCase, QStringLiteral("cannot open the session"));
    Figure ours {kCase, QStringLiteral("in process: our client (create + image file)"), QStringLiteral("ms"), {},
        Goal::None, 0, note};
    Figure turn {kCase, QStringLiteral("in process: SessionController turn (durable session)"), QStringLiteral("ms"),
        {}, Goal::None, 0, {}};
    Figure floorMs {kCase, QStringLiteral("in process: floor (loopback + decode + write)"), QStringLiteral("ms"), {},
        Goal::None, 0, {}};
    Figure oursOverFloor {
        kCase, QStringLiteral("in process: our client / floor"), QStringLiteral("x"), {}, Goal::AtMost, 1.2, {}};
    Figure turnOverFloor {
        kCase, QStringLiteral("in process: controller turn / floor"), QStringLiteral("x"), {}, Goal::None, 0, {}};
    const QString roundsNote = QStringLiteral("%1 rounds of %2 turns each").arg(rounds).arg(runs);
    Figure sdkMs {kCase, QStringLiteral("in process: @google/genai 3.1.0 (create + decode + write)"),
        QStringLiteral("ms"), {}, Goal::None, 0, {}};
    Figure sdkDurableMs {kCase, QStringLiteral("in process: @google/genai 3.1.0 with the file fsynced"),
        QStringLiteral("ms"), {}, Goal::None, 0, {}};
    Figure oursOverSdk {
        kCase, QStringLiteral("in process: our client / SDK"), QStringLiteral("x"), {}, Goal::AtMost, 0.5, roundsNote};
    Figure oursOverSdkDurable {kCase, QStringLiteral("in process: our client / SDK with fsync (like for like)"),
        QStringLiteral("x"), {}, Goal::None, 0, roundsNote};
    QString sdkError;
    for (int roundIndex = 0; roundIndex < rounds; ++roundIndex) {
        Figure oursThisRound;             // this round's samples of `ours`, for its median
        for (int r = -1; r < runs; ++r) { // r = -1 warms every path
            QElapsedTimer t;
            t.start();
            const Result<Interaction> got = client->create(
                TurnRequest::generate(QStringLiteral("bench %1.%2: a harbour at dusk").arg(roundIndex).arg(r),
                    QStringLiteral("1:1"), QStringLiteral("low")));
            if (!got)
                return ctx.report->addError(kCase, got.error().message);
            const Result<FrameImage> written
                = SessionStore::writeImageFile(dir, QStringLiteral("ours.jpg"), got.value().image.bytes);
            if (!written)
                return ctx.report->addError(kCase, written.error().message);
            const double a = t.nsecsElapsed() / 1e6;

            t.restart();
            const Result<QString> id = controller.generate(
                TurnParams {QStringLiteral("bench %1.%2").arg(roundIndex).arg(r), QStringLiteral("1:1"), {}, false});
            if (!id || !controller.waitForIdle(60000) || !controller.graph().frame(id.value())->isDone()
                || !controller.store()->flush())
                return ctx.report->addError(kCase, QStringLiteral("the controller turn failed"));
            const double ct = t.nsecsElapsed() / 1e6;

            t.restart();
            if (!floorTurn("127.0.0.1", floor.port, floorOut))
                return ctx.report->addError(kCase, QStringLiteral("the floor turn failed"));
            const double c = t.nsecsElapsed() / 1e6;
            if (r < 0)
                continue;
            oursThisRound.samples.push_back(a);
            ours.samples.push_back(a);
            turn.samples.push_back(ct);
            floorMs.samples.push_back(c);
            oursOverFloor.samples.push_back(a / c);
            turnOverFloor.samples.push_back(ct / c);
        }
        // The first SDK turn warms the Node process and is dropped, like our r = -1.
        const std::vector<double> sdk
            = sdkInProcess(ctx, *fake, runs + 1, dir + QStringLiteral("/sdk.jpg"), false, &sdkError);
        // The same with the file fsynced, as the floor and our client do (like for like; no target).
        const std::vector<double> sdkDurable
            = sdkInProcess(ctx, *fake, runs + 1, dir + QStringLiteral("/sdk-fsync.jpg"), true, &sdkError);
        if (sdk.size() >= 2) {
            const Figure sdkRound {{}, {}, {}, std::vector<double>(sdk.begin() + 1, sdk.end()), Goal::None, 0, {}};
            sdkMs.samples.insert(sdkMs.samples.end(), sdkRound.samples.begin(), sdkRound.samples.end());
            oursOverSdk.samples.push_back(oursThisRound.median() / sdkRound.median());
        }
        if (sdkDurable.size() >= 2) {
            const Figure sdkRound {
                {}, {}, {}, std::vector<double>(sdkDurable.begin() + 1, sdkDurable.end()), Goal::None, 0, {}};
            sdkDurableMs.samples.insert(sdkDurableMs.samples.end(), sdkRound.samples.begin(), sdkRound.samples.end());
            oursOverSdkDurable.samples.push_back(oursThisRound.median() / sdkRound.median());
        }
    }
    for (const Figure &f : {ours, turn, floorMs})
        ctx.report->add(f);
    ctx.report->add(oursOverFloor);
    ctx.report->add(turnOverFloor);
    if (oursOverSdk.samples.empty()) {
        ctx.report->addError(
            kCase, QStringLiteral("the SDK side did not run (run `npm ci` in bench/node): %1").arg(sdkError));
    } else {
        ctx.report->add(sdkMs);
        ctx.report->add(oursOverSdk);
    }
    if (!oursOverSdkDurable.samples.empty()) {
        ctx.report->add(sdkDurableMs);
        ctx.report->add(oursOverSdkDurable);
    }

    // ---- as processes ----
    QString error;
    const QProcessEnvironment env = cliEnvironment(*fake);
    QProcessEnvironment outEnv = env;
    outEnv.insert(QStringLiteral("IMAGE_OUTPUT_DIR"), dir + QStringLiteral("/cli-out"));
    QDir().mkpath(dir + QStringLiteral("/cli-out"));
    Figure cli {kCase, QStringLiteral("process: nb2lite --json generate"), QStringLiteral("ms"), {}, Goal::None, 0, {}};
    Figure node {kCase, QStringLiteral("process: node sdk_turn.mjs"), QStringLiteral("ms"), {}, Goal::None, 0, {}};
    Figure floorProc {
        kCase, QStringLiteral("process: floor (C++ process)"), QStringLiteral("ms"), {}, Goal::None, 0, {}};
    Figure cliOverFloor {
        kCase, QStringLiteral("process: nb2lite / floor"), QStringLiteral("x"), {}, Goal::AtMost, 1.2, {}};
    Figure cliOverSdk {
        kCase, QStringLiteral("process: nb2lite / node SDK"), QStringLiteral("x"), {}, Goal::AtMost, 0.5, {}};
    const QString self = QCoreApplication::applicationFilePath();
    const bool haveNode = !oursOverSdk.samples.empty();
    for (int r = -1; r < runs; ++r) {
        const double a = runProcess(ctx.cliPath,
            {QStringLiteral("--json"), QStringLiteral("generate"), QStringLiteral("cli bench %1").arg(r)}, outEnv,
            60000, &error);
        const double b = haveNode ? runProcess(QStringLiteral("node"),
                             {ctx.nodeDir + QStringLiteral("/sdk_turn.mjs"), QStringLiteral("--base-url"),
                                 fake->baseUrl(), QStringLiteral("--out"), dir + QStringLiteral("/sdk.jpg")},
                             env, 60000, &error)
                                  : 1;
        const double c = runProcess(self,
            {QStringLiteral("--floor"), QStringLiteral("127.0.0.1:%1").arg(floor.port), floorOut}, env, 60000, &error);
        if (a < 0 || b < 0 || c < 0)
            return ctx.report->addError(kCase, error);
        if (r < 0)
            continue;
        cli.samples.push_back(a);
        floorProc.samples.push_back(c);
        cliOverFloor.samples.push_back(a / c);
        if (haveNode) {
            node.samples.push_back(b);
            cliOverSdk.samples.push_back(a / b);
        }
    }
    ctx.report->add(cli);
    if (haveNode)
        ctx.report->add(node);
    ctx.report->add(floorProc);
    ctx.report->add(cliOverFloor);
    if (haveNode)
        ctx.report->add(cliOverSdk);
    controller.close();
}

} // namespace nb2::bench
