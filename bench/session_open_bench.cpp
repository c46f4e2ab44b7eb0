// session_open_bench: opening a 1,000-frame session must read only the manifest (no image
// decoding). Prints the median open time of several runs in milliseconds.

#include "core/session/sessioncontroller.h"
#include "core/session/journal.h"
#include "core/session/sessionstore.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace nb2;

namespace {

QByteArray smallJpeg(int i)
{
    QImage img(64, 64, QImage::Format_RGB32);
    img.fill(QColor::fromHsv(i % 360, 200, 200));
    QByteArray bytes;
    QBuffer buf(&bytes);
    buf.open(QIODevice::WriteOnly);
    img.save(&buf, "JPEG", 80);
    return bytes;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int frames = argc > 1 ? std::max(1, atoi(argv[1])) : 1000;
    const int runs = 9;
    QTemporaryDir tmp;
    if (!tmp.isValid())
        return 1;

    // Build: a realistic tree (mostly chains, a fork every 10 frames), one small image per frame.
    QList<Frame> list;
    QString previous;
    const QDateTime start = QDateTime::currentDateTimeUtc().addDays(-3);
    QDir().mkpath(tmp.filePath(QStringLiteral("images")));
    for (int i = 0; i < frames; ++i) {
        Frame f;
        f.id = QStringLiteral("%1").arg(i, 8, 16, QLatin1Char('0'));
        f.parentId = (i % 10 == 0 || previous.isEmpty()) ? (i >= 20 ? list.at(i - 15).id : QString()) : previous;
        f.kind = f.parentId.isEmpty() ? FrameKind::Generate : FrameKind::Edit;
        f.prompt = QStringLiteral("frame %1: make the sky a little more orange and add a small boat").arg(i);
        f.aspectRatio = QStringLiteral("1:1");
        f.model = QStringLiteral("gemini-3.1-flash-lite-image");
        f.interactionId = QStringLiteral("v1_%1").arg(f.id);
        f.status = FrameStatus::Done;
        f.requestedAt = start.addSecs(i * 30);
        f.finishedAt = f.requestedAt.addSecs(2);
        f.idExpiresAt = f.finishedAt.addDays(55);
        const QByteArray bytes = smallJpeg(i);
        f.image.file = SessionStore::imageFileName(frameKindFilePrefix(f.kind), f.requestedAt, f.id, bytes);
        QFile out(tmp.filePath(f.image.file));
        out.open(QIODevice::WriteOnly);
        out.write(bytes);
        f.image.sha256 = SessionStore::sha256Hex(bytes);
        f.image.mimeType = QStringLiteral("image/jpeg");
        f.image.width = 64;
        f.image.height = 64;
        f.modelText = QStringLiteral("Here is your image.");
        f.usage.inputTokens = 300;
        f.usage.outputTokens = 1290;
        f.usage.totalTokens = 1590;
        f.attempts = 1;
        list.append(f);
        previous = f.id;
    }
    {
        SessionStore store;
        Result<void> setUp = store.open(tmp.path(), SessionStore::OpenMode::CreateIfMissing);
        if (setUp)
            setUp = store.commit(list);
        if (!setUp) {
            std::fprintf(stderr, "setup failed: %s\n", qPrintable(setUp.error().message));
            return 1;
        }
    }
    // A journal as real use leaves it: begin, id and end records for every turn.
    {
        Journal journal(tmp.filePath(QStringLiteral("journal.jsonl")));
        QFile out(journal.path());
        out.open(QIODevice::WriteOnly);
        for (const Frame &f : std::as_const(list)) {
            Frame pending = f;
            pending.status = FrameStatus::Pending;
            pending.image = {};
            pending.interactionId.clear();
            out.write(QJsonDocument(QJsonObject{{QStringLiteral("op"), QStringLiteral("begin")}, {QStringLiteral("frame"), pending.toJson()}}).toJson(QJsonDocument::Compact) + '\n');
            out.write(QJsonDocument(QJsonObject{{QStringLiteral("op"), QStringLiteral("id")}, {QStringLiteral("frame_id"), f.id}, {QStringLiteral("interaction_id"), f.interactionId}}).toJson(QJsonDocument::Compact) + '\n');
            out.write(QJsonDocument(QJsonObject{{QStringLiteral("op"), QStringLiteral("end")}, {QStringLiteral("frame"), f.toJson()}}).toJson(QJsonDocument::Compact) + '\n');
        }
    }
    const qint64 journalBytes = QFileInfo(tmp.filePath(QStringLiteral("journal.jsonl"))).size();
    const qint64 manifestBytes = QFileInfo(tmp.filePath(QStringLiteral("manifest.json"))).size();

    auto timeOpen = [&](bool controller) {
        std::vector<double> ms;
        for (int r = 0; r < runs; ++r) {
            QElapsedTimer t;
            t.start();
            if (controller) {
                SessionController c;
                if (!c.open(tmp.path()) || c.graph().size() != frames)
                    return -1.0;
                ms.push_back(t.nsecsElapsed() / 1e6);
            } else {
                SessionStore s;
                if (!s.open(tmp.path(), SessionStore::OpenMode::OpenExisting) || s.graph().size() != frames)
                    return -1.0;
                ms.push_back(t.nsecsElapsed() / 1e6);
            }
        }
        return median(ms);
    };
    const double storeMs = timeOpen(false);
    const double controllerMs = timeOpen(true);

    // Proof that open reads no image: it still works with the images folder moved away.
    QDir(tmp.path()).rename(QStringLiteral("images"), QStringLiteral("images.away"));
    bool opensWithoutImages = false;
    {
        SessionStore s;
        opensWithoutImages = s.open(tmp.path(), SessionStore::OpenMode::OpenExisting) && s.graph().size() == frames;
    }
    QDir(tmp.path()).rename(QStringLiteral("images.away"), QStringLiteral("images"));

    std::printf("session_open_bench: %d frames, manifest %lld bytes, journal %lld bytes, %d runs\n", frames,
                manifestBytes, journalBytes, runs);
    std::printf("  SessionStore::open       median %.1f ms\n", storeMs);
    std::printf("  SessionController::open  median %.1f ms\n", controllerMs);
    std::printf("  opens with images/ moved away (reads no image): %s\n", opensWithoutImages ? "yes" : "NO");
    return (storeMs >= 0 && controllerMs >= 0 && opensWithoutImages) ? 0 : 1;
}
