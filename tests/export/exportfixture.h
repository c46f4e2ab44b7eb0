#pragma once

// Builds small sessions on disk through the real SessionStore, for the export tests and the
// benchmark: frames with real image files, a fork, a failed turn, a style edit with inputs
// and prompts that try to break out of HTML.

#include "core/session/sessionstore.h"

#include <QBuffer>
#include <QColor>
#include <QDateTime>
#include <QImage>
#include <QPainter>
#include <QString>

namespace nb2::testing {

inline QByteArray encodedImage(int seed, const char *format, QSize size = QSize(96, 64))
{
    QImage img(size, QImage::Format_RGB32);
    img.fill(QColor::fromHsv((seed * 47) % 360, 160, 220));
    // A per-seed pattern so that every image's pixels differ, not just its colour.
    for (int y = 0; y < size.height(); ++y) {
        for (int x = 0; x < size.width(); ++x) {
            if (((x / 8) + (y / 8) + seed) % 3 == 0)
                img.setPixel(x, y, qRgb((x * 5 + seed) % 256, (y * 7) % 256, (seed * 31) % 256));
        }
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    img.save(&buffer, format, 90);
    return bytes;
}

/** Appends a done (or failed, when format is null) frame under parent; returns its id. */
inline QString addFrame(SessionStore &store, const QString &parent, FrameKind kind, const QString &prompt, int seed,
    const char *format = "JPEG", const QString &interactionId = {}, const QStringList &inputs = {})
{
    Frame f;
    f.id = Frame::newId();
    f.parentId = parent;
    f.kind = kind;
    f.prompt = prompt;
    f.model = QStringLiteral("gemini-3.1-flash-lite-image");
    f.aspectRatio = QStringLiteral("3:2");
    f.thinkingLevel = QStringLiteral("low");
    f.interactionId = interactionId.isEmpty() && format ? QStringLiteral("v1_ia%1").arg(seed, 6, 10, QLatin1Char('0'))
                                                        : interactionId;
    f.requestedAt = QDateTime::fromSecsSinceEpoch(1767000000 + seed * 60, Qt::UTC);
    f.finishedAt = f.requestedAt.addMSecs(4200 + seed * 10);
    f.inputImages = inputs;
    if (format) {
        const QByteArray bytes = encodedImage(seed, format);
        const QString rel = SessionStore::imageFileName(frameKindFilePrefix(kind), f.requestedAt, f.id, bytes);
        auto img = SessionStore::writeImageFile(store.dir(), rel, bytes);
        if (!img)
            qFatal("fixture: cannot write image: %s", qPrintable(img.error().message));
        f.image = img.value();
        f.status = FrameStatus::Done;
        f.modelText = QStringLiteral("Here is the picture for \"%1\".").arg(prompt);
        f.usage.totalTokens = 1290 + seed;
    } else {
        f.status = FrameStatus::Failed;
        f.error.kind = QStringLiteral("invalid_request");
        f.error.httpStatus = 400;
        f.error.message = QStringLiteral("The server rejected the request <b>bad</b> & said so.");
    }
    if (const Result<void> committed = store.commit({f}, {}, f.id); !committed)
        qFatal("fixture: commit failed: %s", qPrintable(committed.error().message));
    return f.id;
}

/** Ids of the frames of the standard test session, by role. */
struct StandardSession {
    QString root, second, third, fork, failed, style, scripted;
    int liveFrames = 0;
};

/**
 *   root (generate, PNG) ── second (edit) ── third (edit "<script>" prompt) ── scripted
 *                        └─ fork (edit, branch 2) ── failed (failed turn)
 *                        └─ style (style_edit with two input files)
 */
inline StandardSession buildStandardSession(SessionStore &store, const QString &scriptPrompt)
{
    StandardSession s;
    s.root = addFrame(store, {}, FrameKind::Generate, QStringLiteral("A quiet harbour at dusk"), 1, "PNG");
    s.second = addFrame(store, s.root, FrameKind::Edit, QStringLiteral("Add a lantern!"), 2);
    s.third = addFrame(store, s.second, FrameKind::Edit, scriptPrompt, 3);
    s.scripted = addFrame(store, s.third, FrameKind::Edit, QStringLiteral("Café au lait — warmer light"), 4);
    s.fork = addFrame(store, s.root, FrameKind::Edit, QStringLiteral("Make it winter"), 5);
    s.failed = addFrame(store, s.fork, FrameKind::Edit, QStringLiteral("Add snow"), 6, nullptr);
    const QByteArray target = encodedImage(90, "JPEG");
    const QByteArray style = encodedImage(91, "PNG");
    const QString targetRel = QStringLiteral("images/input_1767000000_aaaaaaaa.jpg");
    const QString styleRel = QStringLiteral("images/input_1767000000_bbbbbbbb.png");
    if (!SessionStore::writeImageFile(store.dir(), targetRel, target)
        || !SessionStore::writeImageFile(store.dir(), styleRel, style))
        qFatal("fixture: cannot write inputs");
    s.style = addFrame(store, s.root, FrameKind::StyleEdit, QStringLiteral("In the style of the reference"), 7, "JPEG",
        {}, {styleRel, targetRel});
    s.liveFrames = 7;
    return s;
}

} // namespace nb2::testing
