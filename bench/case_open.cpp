// Case "open" (formerly session_open_bench): opening a session reads only the manifest (no image
// decoding). A synthetic 1,000-frame session with small images and a journal as real use leaves
// it; SessionStore::open and SessionController::open times, and proof that no image is read.

#include "bench/benchcases.h"
#include "bench/benchcontext.h"

#include "core/session/journal.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QBuffer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>

namespace nb2::bench {

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

} // namespace

void runSessionOpen(Context &ctx)
{
    const QString kCase = QStringLiteral("open");
    const int frames = !ctx.sizes.isEmpty() ? ctx.sizes.first() : ctx.quick ? 200 : 1000;
    const int runs = ctx.runs(9);
    const QString dir = ctx.scratchDir + QStringLiteral("/open-session");
    QDir().mkpath(dir + QStringLiteral("/images"));

    // A realistic tree (mostly chains, a fork every 10 frames), one small image per frame.
    QList<Frame> list;
    QString previous;
    const QDateTime start = QDateTime::currentDateTimeUtc().addDays(-3);
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
        QFile out(dir + QLatin1Char('/') + f.image.file);
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
        Result<void> setUp = store.open(dir, SessionStore::OpenMode::CreateIfMissing);
        if (setUp)
            setUp = store.commit(list);
        if (!setUp)
            return ctx.report->addError(kCase, QStringLiteral("setup failed: %1").arg(setUp.error().message));
    }

    auto timeOpen = [&](bool controller) {
        Figure fig;
        fig.caseName = kCase;
        fig.unit = QStringLiteral("ms");
        fig.name = QStringLiteral("%1::open, %2 frames")
                       .arg(controller ? QStringLiteral("SessionController") : QStringLiteral("SessionStore"))
                       .arg(frames);
        for (int r = 0; r < runs; ++r) {
            QElapsedTimer t;
            t.start();
            if (controller) {
                SessionController c;
                if (!c.open(dir) || c.graph().size() != frames)
                    return ctx.report->addError(kCase, QStringLiteral("the controller did not open the session"));
                fig.samples.push_back(t.nsecsElapsed() / 1e6);
            } else {
                SessionStore s;
                if (!s.open(dir, SessionStore::OpenMode::OpenExisting) || s.graph().size() != frames)
                    return ctx.report->addError(kCase, QStringLiteral("the store did not open the session"));
                fig.samples.push_back(t.nsecsElapsed() / 1e6);
            }
        }
        ctx.report->add(fig);
    };
    timeOpen(false);
    timeOpen(true);

    // Proof that open reads no image: it still works with the images folder moved away.
    QDir(dir).rename(QStringLiteral("images"), QStringLiteral("images.away"));
    bool opensWithoutImages = false;
    {
        SessionStore s;
        opensWithoutImages = s.open(dir, SessionStore::OpenMode::OpenExisting) && s.graph().size() == frames;
    }
    QDir(dir).rename(QStringLiteral("images.away"), QStringLiteral("images"));
    ctx.report->addValue(kCase, QStringLiteral("opens with images/ moved away (1 = yes)"), QString(),
        opensWithoutImages ? 1 : 0, Goal::AtLeast, 1);
    QDir(dir).removeRecursively();
}

} // namespace nb2::bench
