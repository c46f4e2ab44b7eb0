#pragma once

// Helpers shared by the session tests: small real images and the session invariants.

#include "core/session/sessionstore.h"

#include <QBuffer>
#include <QColor>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QString>
#include <QStringList>

namespace nb2::test {

inline QByteArray jpegBytes(const QColor &color = Qt::red, int w = 48, int h = 32)
{
    QImage img(w, h, QImage::Format_RGB32);
    img.fill(color);
    QByteArray bytes;
    QBuffer buf(&bytes);
    buf.open(QIODevice::WriteOnly);
    img.save(&buf, "JPEG");
    return bytes;
}

inline QByteArray pngBytes(const QColor &color = Qt::blue, int w = 40, int h = 40)
{
    QImage img(w, h, QImage::Format_ARGB32);
    img.fill(color);
    QByteArray bytes;
    QBuffer buf(&bytes);
    buf.open(QIODevice::WriteOnly);
    img.save(&buf, "PNG");
    return bytes;
}

inline QString writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(bytes);
    return path;
}

inline QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/**
 * Makes dir a closed session of one done frame (id 0badc0de, of kind) whose picture is a real
 * JPEG at images/real.jpg. Returns false if the store refused any step.
 */
inline bool makeOneFrameSession(const QString &dir, FrameKind kind = FrameKind::Generate)
{
    SessionStore store;
    if (!store.open(dir))
        return false;
    Frame f;
    f.id = QStringLiteral("0badc0de");
    f.kind = kind;
    f.prompt = QStringLiteral("a lighthouse");
    f.status = FrameStatus::Done;
    f.requestedAt = f.finishedAt = QDateTime::currentDateTimeUtc();
    const Result<FrameImage> image = SessionStore::writeImageFile(dir, QStringLiteral("images/real.jpg"), jpegBytes());
    if (!image)
        return false;
    f.image = image.value();
    if (!store.commit({f}, {}, f.id))
        return false;
    store.close();
    return true;
}

/**
 * The crash-safety invariants of a session folder. Returns the list of violations (empty when
 * all hold): the manifest parses, every done frame's image exists with the recorded SHA-256,
 * no referenced file is a temp/partial file, paths are relative and inside the folder.
 */
inline QStringList checkInvariants(const QString &dir, QString *openError = nullptr)
{
    QStringList problems;
    SessionStore store;
    if (const Result<void> opened = store.open(dir, SessionStore::OpenMode::OpenExisting); !opened) {
        if (openError)
            *openError = opened.error().message;
        return {QStringLiteral("manifest does not open: ") + opened.error().message};
    }
    for (const Frame &f : store.graph().frames()) {
        QStringList files = f.inputImages;
        if (!f.image.isNull())
            files.append(f.image.file);
        for (const QString &rel : std::as_const(files)) {
            if (QDir::isAbsolutePath(rel) || rel.contains(QStringLiteral("..")))
                problems.append(QStringLiteral("%1: path not relative: %2").arg(f.id, rel));
            if (QFileInfo(rel).fileName().startsWith(QLatin1Char('.')) || rel.contains(QStringLiteral(".tmp")))
                problems.append(QStringLiteral("%1: references a temp file %2").arg(f.id, rel));
            if (!QFileInfo::exists(store.absolutePath(rel)))
                problems.append(QStringLiteral("%1: missing file %2").arg(f.id, rel));
        }
        if (f.isDone()) {
            if (f.image.isNull()) {
                problems.append(QStringLiteral("%1: done without an image").arg(f.id));
                continue;
            }
            const QByteArray bytes = readFile(store.absolutePath(f.image.file));
            if (SessionStore::sha256Hex(bytes) != f.image.sha256)
                problems.append(
                    QStringLiteral("%1: image %2 does not match its SHA-256 (partial?)").arg(f.id, f.image.file));
        }
    }
    return problems;
}

} // namespace nb2::test
