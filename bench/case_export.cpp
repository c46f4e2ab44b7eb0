// Case "export" (formerly export_html_bench): a 1,000-frame session (small JPEGs, a long main line
// with a fork every 50 frames) exported to HTML several times per variant, a check that every
// exported image is the session's file byte for byte (hard-linked or copied, never re-encoded),
// and the other formats once each for scale.

#include "bench/benchcases.h"
#include "bench/benchcontext.h"

#include "core/export/exporter.h"
#include "core/export/sessionbundle.h"

#include "tests/export/exportfixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>

#include <sys/stat.h>

namespace nb2::bench {

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

void runExportHtml(Context &ctx)
{
    const QString kCase = QStringLiteral("export");
    const int frameCount = ctx.quick ? 200 : 1000;
    const int runs = ctx.runs(5);
    const QString root = ctx.scratchDir + QStringLiteral("/export");
    const QString sessionDir = root + QStringLiteral("/session");

    SessionStore store;
    if (!store.open(sessionDir))
        return ctx.report->addError(kCase, QStringLiteral("cannot create the session"));
    QList<Frame> frames;
    QString mainLine;
    for (int i = 0; i < frameCount; ++i) {
        Frame f;
        f.id = Frame::newId();
        // Every 50th frame forks from the frame 10 back, so the page has real branches.
        f.parentId = (i % 50 == 49 && frames.size() > 10) ? frames.at(frames.size() - 10).id : mainLine;
        f.kind = i ? FrameKind::Edit : FrameKind::Generate;
        f.status = FrameStatus::Done;
        f.prompt = QStringLiteral("Step %1: make the lantern a little brighter").arg(i + 1);
        f.model = QStringLiteral("gemini-3.1-flash-lite-image");
        f.interactionId = QStringLiteral("v1_bench%1").arg(i);
        f.requestedAt = QDateTime::fromSecsSinceEpoch(1767000000 + i * 30, Qt::UTC);
        f.finishedAt = f.requestedAt.addSecs(5);
        f.modelText = QStringLiteral("Done.");
        const QByteArray jpeg = testing::encodedImage(i, "JPEG", QSize(64, 48));
        const QString rel = QStringLiteral("images/edit_%1_%2.jpg").arg(1767000000 + i * 30).arg(f.id);
        auto img = SessionStore::writeImageFile(sessionDir, rel, jpeg);
        if (!img)
            return ctx.report->addError(kCase, img.error().message);
        f.image = img.value();
        if (f.parentId == mainLine)
            mainLine = f.id;
        frames.append(f);
    }
    if (const Result<void> committed = store.commit(frames, {}, mainLine); !committed)
        return ctx.report->addError(kCase, committed.error().message);

    QElapsedTimer t;
    t.start();
    const ExportSession session = ExportSession::fromGraph(store.graph(), store.dir());
    ctx.report->addValue(
        kCase, QStringLiteral("adapter (graph -> export model)"), QStringLiteral("ms"), t.nsecsElapsed() / 1e6);

    struct Variant {
        const char *name;
        bool singleFile;
        bool link;
    };
    const Variant variants[] = {{"html folder, hard links", false, true}, {"html folder, copies", false, false},
        {"html single file (base64)", true, false}};
    int outputs = 0;
    for (const Variant &v : variants) {
        Figure fig;
        fig.caseName = kCase;
        fig.name = QStringLiteral("%1, %2 frames").arg(QLatin1String(v.name)).arg(frameCount);
        fig.unit = QStringLiteral("ms");
        QString lastOut;
        for (int r = 0; r < runs; ++r) {
            ExportRequest req;
            req.singleFile = v.singleFile;
            req.linkImages = v.link;
            req.output = QStringLiteral("%1/out%2%3")
                             .arg(root)
                             .arg(++outputs)
                             .arg(v.singleFile ? QStringLiteral(".html") : QString());
            QElapsedTimer et;
            et.start();
            auto rep = Exporter::run(session, req);
            fig.samples.push_back(et.nsecsElapsed() / 1e6);
            if (!rep)
                return ctx.report->addError(kCase, QStringLiteral("export failed: %1").arg(rep.error().message));
            lastOut = req.output;
        }
        ctx.report->add(fig);
        if (v.singleFile)
            continue;
        // Same bytes as the session's files, for every frame.
        int same = 0;
        for (const ExportFrame &f : session.frames) {
            const QString exported = QDir(lastOut).filePath(QStringLiteral("images/%1.jpg").arg(f.id));
            same += readAll(exported) == readAll(f.imagePath) ? 1 : 0;
        }
        ctx.report->addValue(kCase, QStringLiteral("%1: images byte-identical").arg(QLatin1String(v.name)),
            QStringLiteral("%"), 100.0 * same / qMax(1, int(session.frames.size())), Goal::AtLeast, 100);
    }
    // The other formats on the same session, once each, for scale.
    const QList<ExportFormat> others = ctx.quick
        ? QList<ExportFormat> {ExportFormat::Bundle}
        : QList<ExportFormat> {ExportFormat::Bundle, ExportFormat::Sheet, ExportFormat::Frames};
    for (ExportFormat format : others) {
        ExportRequest req;
        req.format = format;
        req.output = QStringLiteral("%1/other%2").arg(root).arg(++outputs);
        QElapsedTimer et;
        et.start();
        auto rep = Exporter::run(session, req);
        if (!rep) {
            ctx.report->addError(kCase, rep.error().message);
            continue;
        }
        ctx.report->addValue(kCase, Exporter::formatName(format), QStringLiteral("ms"), et.nsecsElapsed() / 1e6);
        if (format == ExportFormat::Bundle) {
            et.restart();
            auto opened = SessionBundle::extract(req.output, root + QStringLiteral("/reopened"));
            if (!opened)
                ctx.report->addError(kCase, opened.error().message);
            else
                ctx.report->addValue(kCase, QStringLiteral("open bundle (extract + verify)"), QStringLiteral("ms"),
                    et.nsecsElapsed() / 1e6);
        }
    }
    store.close();
    QDir(root).removeRecursively();
}

} // namespace nb2::bench
