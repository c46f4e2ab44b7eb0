// export_html_bench: builds a 1,000-frame session on disk (small JPEGs, a long main line with
// a fork every 50 frames), exports it to HTML several times and prints the median time per
// variant. It then checks that every exported image is the session's file byte for byte
// (hard-linked or copied, never re-encoded), and times the other formats once for scale.
// Prints numbers; asserts nothing about time.
//
//   export_html_bench [frames=1000] [runs=5]

#include "core/export/exporter.h"
#include "core/export/sessionbundle.h"

#include "tests/export/exportfixture.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

using namespace nb2;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

struct Variant {
    const char *name;
    bool singleFile;
    bool link;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int frameCount = argc > 1 ? qMax(2, atoi(argv[1])) : 1000;
    const int runs = argc > 2 ? qMax(1, atoi(argv[2])) : 5;
    QTemporaryDir tmp;
    const QString sessionDir = tmp.filePath(QStringLiteral("session"));

    QElapsedTimer t;
    t.start();
    SessionStore store;
    if (!store.open(sessionDir)) {
        std::fprintf(stderr, "cannot create the session\n");
        return 1;
    }
    QList<Frame> frames;
    QString mainLine;
    qint64 imageBytes = 0;
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
        imageBytes += jpeg.size();
        const QString rel = QStringLiteral("images/edit_%1_%2.jpg").arg(1767000000 + i * 30).arg(f.id);
        auto img = SessionStore::writeImageFile(sessionDir, rel, jpeg);
        if (!img) {
            std::fprintf(stderr, "%s\n", qPrintable(img.error().message));
            return 1;
        }
        f.image = img.value();
        if (f.parentId == mainLine)
            mainLine = f.id;
        frames.append(f);
    }
    if (const Result<void> committed = store.commit(frames, {}, mainLine); !committed) {
        std::fprintf(stderr, "%s\n", qPrintable(committed.error().message));
        return 1;
    }
    std::printf("session: %d frames, %lld image bytes, built in %lld ms\n", frameCount,
                static_cast<long long>(imageBytes), static_cast<long long>(t.elapsed()));

    t.restart();
    const ExportSession session = ExportSession::fromGraph(store.graph(), store.dir());
    std::printf("adapter (graph -> export model): %lld ms\n", static_cast<long long>(t.elapsed()));

    const Variant variants[] = {{"html folder, hard links", false, true},
                                {"html folder, copies", false, false},
                                {"html single file (base64)", true, false}};
    int outputs = 0;
    bool identical = true;
    for (const Variant &v : variants) {
        QList<qint64> times;
        ExportReport last;
        QString lastOut;
        for (int r = 0; r < runs; ++r) {
            ExportRequest req;
            req.singleFile = v.singleFile;
            req.linkImages = v.link;
            req.output = tmp.filePath(QStringLiteral("out%1%2").arg(++outputs).arg(v.singleFile ? QStringLiteral(".html") : QString()));
            QElapsedTimer et;
            et.start();
            auto rep = Exporter::run(session, req);
            times.append(et.elapsed());
            if (!rep) {
                std::fprintf(stderr, "export failed: %s\n", qPrintable(rep.error().message));
                return 1;
            }
            last = rep.value();
            lastOut = req.output;
        }
        std::sort(times.begin(), times.end());
        std::printf("%-28s median %5lld ms (min %lld, max %lld, %d runs): %d frames, %d linked, %d copied, %lld bytes written\n",
                    v.name, static_cast<long long>(times.at(times.size() / 2)), static_cast<long long>(times.first()),
                    static_cast<long long>(times.last()), runs, last.frames, last.imagesLinked, last.imagesCopied,
                    static_cast<long long>(last.bytesWritten));
        if (v.singleFile)
            continue;
        // Same bytes as the session's files, for every frame; links share the inode.
        int same = 0, sameInode = 0;
        for (const ExportFrame &f : session.frames) {
            const QString exported = QDir(lastOut).filePath(QStringLiteral("images/%1.jpg").arg(f.id));
            same += readAll(exported) == readAll(f.imagePath) ? 1 : 0;
            struct stat a {}, b {};
            if (::stat(QFile::encodeName(exported).constData(), &a) == 0 && ::stat(QFile::encodeName(f.imagePath).constData(), &b) == 0)
                sameInode += a.st_ino == b.st_ino ? 1 : 0;
        }
        std::printf("  check: %d/%d images byte-identical to the session's files, %d share the inode (hard links)\n",
                    same, int(session.frames.size()), sameInode);
        identical = identical && same == int(session.frames.size());
    }
    // The other formats on the same session, once each, for scale.
    for (ExportFormat format : {ExportFormat::Bundle, ExportFormat::Sheet, ExportFormat::Frames}) {
        ExportRequest req;
        req.format = format;
        req.output = tmp.filePath(QStringLiteral("other%1").arg(++outputs));
        QElapsedTimer et;
        et.start();
        auto rep = Exporter::run(session, req);
        std::printf("%-28s %5lld ms: %s\n", qPrintable(Exporter::formatName(format)), static_cast<long long>(et.elapsed()),
                    rep ? qPrintable(QStringLiteral("%1 bytes written").arg(rep.value().bytesWritten)) : qPrintable(rep.error().message));
        if (format == ExportFormat::Bundle && rep) {
            et.restart();
            auto opened = SessionBundle::extract(req.output, tmp.filePath(QStringLiteral("reopened")));
            std::printf("%-28s %5lld ms: %s\n", "open bundle (extract+verify)", static_cast<long long>(et.elapsed()),
                        opened ? qPrintable(QStringLiteral("%1 files").arg(opened.value().files.size())) : qPrintable(opened.error().message));
        }
    }
    std::printf("result: %s\n", identical ? "all exported images are the original bytes (not re-encoded)" : "MISMATCH");
    return identical ? 0 : 1;
}
