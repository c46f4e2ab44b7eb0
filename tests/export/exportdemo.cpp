// nb2-export-demo: makes a small session the real way (SessionController over the fake
// server: generate, edits, a re-anchor, two forks, a failed turn, a <script> prompt) and
// exports it as html, sheet and frames into OUTDIR. Used for docs/screenshots/export-html.png:
//
//   build/tests/export/nb2-export-demo /tmp/demo
//   chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1600
//       --virtual-time-budget=5000 --screenshot=docs/screenshots/export-html.png /tmp/demo/html/index.html
//   (one command line)

#include "core/api/interactionsclient.h"
#include "core/export/exporter.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QDir>

#include <cstdio>

using namespace nb2;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: nb2-export-demo OUTDIR\n");
        return 2;
    }
    const QDir base(QString::fromLocal8Bit(argv[1]));
    const QString key = QStringLiteral("demo-key");
    FakeServerOptions options;
    options.apiKey = key;
    FakeServer server(options);
    if (!server.start(0)) {
        std::fprintf(stderr, "the fake server did not start\n");
        return 1;
    }
    ClientConfig config;
    config.baseUrl = server.baseUrl();
    config.apiKey = ApiKey(key, QStringLiteral("demo"));
    config.maxRetries = 0;
    SessionController session;
    session.setClient(std::make_shared<InteractionsClient>(config));
    if (const Result<void> opened = session.open(base.filePath(QStringLiteral("Harbour study"))); !opened) {
        std::fprintf(stderr, "%s\n", qPrintable(opened.error().message));
        return 1;
    }
    auto turn = [&](const Result<QString> &r) {
        if (!r) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error().message));
            std::exit(1);
        }
        session.waitForIdle(30000);
        return r.value();
    };
    const QString harbour = turn(
        session.generate({QStringLiteral("A quiet fishing harbour at dusk, watercolour"), QStringLiteral("3:2"), {}}));
    const QString lantern
        = turn(session.edit(harbour, {QStringLiteral("Add a lantern on the end of the pier"), {}, {}}));
    const QString boat = turn(session.edit(
        lantern, {QStringLiteral("Warmer light, a small red boat in the foreground"), {}, QStringLiteral("high")}));
    server.forget(session.graph().value(boat).interactionId); // the next edit re-anchors
    const QString night = turn(session.edit(
        boat, {QStringLiteral("Make it night with stars <and> a <script>alert(1)</script> moon"), {}, {}}));
    const QString winter
        = turn(session.branchFrom(harbour, {QStringLiteral("Make it winter: snow on the roofs"), {}, {}}));
    FakeFault fault;
    fault.kind = FakeFault::Kind::ServerErrorJson;
    server.injectFault(fault);
    turn(session.edit(winter, {QStringLiteral("Frozen sea with an icebreaker"), {}, {}}));
    turn(session.branchFrom(lantern, {QStringLiteral("Fog rolling in over the water"), {}, {}}));
    session.setStarred(night, true);

    const ExportSession exported = ExportSession::fromGraph(session.graph(), session.store()->dir());
    for (ExportFormat format : {ExportFormat::Html, ExportFormat::Sheet, ExportFormat::Frames}) {
        ExportRequest request;
        request.format = format;
        request.output
            = base.filePath(format == ExportFormat::Sheet ? QStringLiteral("sheet.png") : Exporter::formatName(format));
        auto report = Exporter::run(exported, request);
        if (!report) {
            std::fprintf(stderr, "%s\n", qPrintable(report.error().message));
            return 1;
        }
        std::printf("%s: %d frames -> %s\n", qPrintable(Exporter::formatName(format)), report.value().frames,
            qPrintable(request.output));
    }
    session.close();
    return 0;
}
