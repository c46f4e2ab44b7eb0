// SessionStore's file helpers: the manifest's format (atomic write, salvage), the session lock,
// directory sync, and the image files of a session (names, atomic writes, input copies).
#include "core/session/sessionstoreinternal.h"

#include "core/api/imageinput.h"
#include "core/common/sha256.h"
#include "core/session/sessionpaths.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFuture>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QMutex>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStorageInfo>
#include <QThreadPool>
#include <QTimer>
#include <QUuid>
#include <QWaitCondition>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>
#include <optional>
#include <system_error>
#include <thread>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <unistd.h>
#endif

namespace nb2 {

namespace storedetail {

QString extensionOrBin(const QString &mime)
{
    const QString extension = fileExtensionForImageMimeType(mime);
    return extension.isEmpty() ? QStringLiteral("bin") : extension;
}

void syncDirectory(const QString &dir)
{
#ifdef Q_OS_UNIX
    // The rename is only durable once the directory entry is on disk.
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
#else
    Q_UNUSED(dir);
#endif
}

/** The one message for a session folder that cannot be written (read-only file system, no permission). */
Error notWritable(const QString &dir)
{
    return Error::make(ErrorKind::NotWritable,
        QStringLiteral("%1: folder not writable (read-only, or no permission to write in it); nothing was "
                       "changed. Make it writable or copy the session somewhere writable; reading it "
                       "(log, export) works as it is.")
            .arg(QDir::toNativeSeparators(dir)));
}

/** Takes the session's lock file (GUI thread at open/rebuild, the writer thread otherwise); Locked on timeout. */
Result<std::unique_ptr<QLockFile>> acquireLock(const QString &lockPath, int timeoutMs)
{
    auto lock = std::make_unique<QLockFile>(lockPath);
    // Age alone never makes a lock stale (a slow write is not a dead writer); a dead pid does.
    lock->setStaleLockTime(0);
    QDeadlineTimer deadline(timeoutMs);
    qint64 pid = 0;
    QString host, app;
    for (;;) {
        if (lock->tryLock(int(std::clamp<qint64>(deadline.remainingTime(), 0, 100))))
            return lock;
        if (lock->error() == QLockFile::PermissionError) {
            // Nobody holds it: the folder is read-only (or not ours). Waiting cannot help, and
            // "locked by another process" would send the user looking for one.
            const QString folder = QFileInfo(lockPath).absolutePath();
            return Error::make(ErrorKind::NotWritable,
                QStringLiteral("%1: the session folder is read-only (its lock file cannot be created), "
                               "so nothing can be added to it. Make the folder writable, or copy the "
                               "session to a writable folder and open that.")
                    .arg(QDir::toNativeSeparators(folder)));
        }
        // A writer killed between creating the lock file and writing its pid leaves a file
        // QLockFile cannot judge; once it is clearly not being written any more, it is stale.
        if (!lock->getLockInfo(&pid, &host, &app)
            && QFileInfo(lockPath).lastModified().msecsTo(QDateTime::currentDateTime()) > 2000)
            lock->removeStaleLockFile();
        if (deadline.hasExpired())
            break;
    }
    lock->getLockInfo(&pid, &host, &app);
    return Error::make(ErrorKind::Locked,
        QStringLiteral("%1: the session is locked by another process (pid %2%3) and did not "
                       "become free within %4 ms; try again")
            .arg(QDir::toNativeSeparators(lockPath))
            .arg(pid)
            .arg(app.isEmpty() ? QString() : QStringLiteral(", %1").arg(app))
            .arg(timeoutMs));
}

/**
 * What a manifest that no longer reads as a session still says about the session itself: its
 * top-level fields other than the frames (created_at, newer versions' fields) and
 * current_frame. A file that is not JSON any more gives what a plain search finds.
 */
void salvageManifestHead(const QByteArray &raw, QJsonObject *extra, QString *current)
{
    const QJsonDocument doc = QJsonDocument::fromJson(raw);
    if (doc.isObject()) {
        QJsonObject root = doc.object();
        *current = root.value(kCurrent).toString();
        for (const QLatin1String &k : {kFormat, kSchema, kFrames, kCurrent, kUpdated, kJournalOffset})
            root.remove(k);
        root.remove(QLatin1String("rebuilt_at"));
        *extra = root;
        return;
    }
    static const QRegularExpression created(QStringLiteral("\"created_at\"\\s*:\\s*\"([^\"]{10,40})\""));
    static const QRegularExpression currentRe(QStringLiteral("\"current_frame\"\\s*:\\s*\"([0-9a-f]{8})\""));
    const QString text = QString::fromUtf8(raw);
    if (const auto m = created.match(text); m.hasMatch() && fromIsoUtc(m.captured(1)).isValid())
        extra->insert(QLatin1String("created_at"), m.captured(1));
    if (const auto m = currentRe.match(text); m.hasMatch())
        *current = m.captured(1);
}

/** The image record of bytes stored at rel: checksum, type and size from the header (no decode). */
FrameImage describeImage(const QString &rel, const QByteArray &bytes)
{
    FrameImage image;
    image.file = rel;
    image.sha256 = SessionStore::sha256Hex(bytes);
    image.mimeType = sniffImageMimeType(bytes);
    QBuffer buf;
    buf.setData(bytes);
    buf.open(QIODevice::ReadOnly);
    const QSize size = QImageReader(&buf).size();
    image.width = size.width();
    image.height = size.height();
    return image;
}

QByteArray manifestBytes(
    const FrameGraph &graph, const QString &current, const QJsonObject &extra, qint64 journalOffset)
{
    QJsonObject root = extra;
    root.insert(kFormat, QLatin1String(SessionStore::kFormatName));
    root.insert(kSchema, SessionStore::kSchemaVersion);
    root.insert(kUpdated, toIsoUtc(QDateTime::currentDateTimeUtc()));
    root.insert(kJournalOffset, journalOffset);
    if (!current.isEmpty())
        root.insert(kCurrent, current);
    else
        root.remove(kCurrent);
    root.remove(kFrames);
    // One frame per line, without indentation: a third smaller than indented text at the same
    // content (every command that opens the session maps and parses all of it), still a file
    // grep and diff read a frame at a time. The other fields come first, on the first line.
    QByteArray out = QJsonDocument(root).toJson(QJsonDocument::Compact);
    out.chop(1); // the closing '}': the frames array goes last
    out.reserve(out.size() + graph.frames().size() * 1200 + 16);
    out += root.isEmpty() ? "\"frames\":[" : ",\"frames\":[";
    bool first = true;
    for (const Frame &f : graph.frames()) {
        out += first ? "\n" : ",\n";
        out += QJsonDocument(f.toJson()).toJson(QJsonDocument::Compact);
        first = false;
    }
    out += "\n]}\n";
    return out;
}

Result<qint64> writeManifestFile(
    const QString &dir, const FrameGraph &graph, const QString &current, const QJsonObject &extra, qint64 journalOffset)
{
    const QByteArray raw = manifestBytes(graph, current, extra, journalOffset);
    const QString path = dir + QStringLiteral("/manifest.json");
    QSaveFile file(path); // temp + fsync + rename
    if (!file.open(QIODevice::WriteOnly) || file.write(raw) != raw.size() || !file.commit())
        return Error::make(writeFailureKind(path, &file),
            QStringLiteral("%1: cannot write the manifest: %2")
                .arg(QDir::toNativeSeparators(path), file.errorString()));
    syncDirectory(dir);
    return qint64(raw.size());
}

/** Applies one journal commit record to a frame table. */
void applyCommit(const JournalCommit &c, FrameGraph *graph, QString *current)
{
    for (const Frame &f : c.upserts)
        graph->upsert(f);
    graph->remove(c.removals);
    if (!c.current.isEmpty())
        *current = c.current;
}

/**
 * When the journal's tail has grown large enough that folding it into a new manifest pays:
 * the checkpoint costs the manifest's size, so it is written once the tail is an eighth of it
 * (open then parses at most ~1/8 more than the manifest, and each turn's share of checkpoint
 * writing stays a small constant), and at close once it is a sixteenth (a small session gets
 * a current manifest whenever it is closed).
 */
bool checkpointDue(qint64 tailBytes, qint64 manifestBytes, bool closing)
{
    if (tailBytes <= 0)
        return false;
    if (closing)
        return tailBytes * 16 >= manifestBytes;
    return tailBytes * 8 >= manifestBytes + 64 * 1024;
}

} // namespace storedetail

using namespace storedetail;

QString SessionStore::sha256Hex(const QByteArray &bytes)
{
    // libcrypto's, opened on first use (sha256.h): ~1 ms for 1 MB where Qt 6.4's takes ~8 ms.
    const QByteArray digest = sha256(bytes);
    return QString::fromLatin1(digest.toHex());
}

QString SessionStore::thumbnailPrefix(const QString &key)
{
    return QString::fromLatin1(QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha1).toHex().left(16))
        + QLatin1Char('-');
}

QString SessionStore::imageFileName(
    const QString &prefix, const QDateTime &when, const QString &uuid8, const QByteArray &bytes)
{
    return QStringLiteral("images/%1_%2_%3.%4")
        .arg(prefix)
        .arg(when.toSecsSinceEpoch())
        .arg(uuid8, extensionOrBin(sniffImageMimeType(bytes)));
}

Result<FrameImage> SessionStore::writeImageFile(
    const QString &sessionDir, const QString &relativePath, const QByteArray &bytes)
{
    const QString target = QDir(sessionDir).filePath(relativePath);
    const QFileInfo ti(target);
    QDir().mkpath(ti.absolutePath());
    const QString temp = ti.absolutePath() + QStringLiteral("/.") + ti.fileName()
        + QStringLiteral(".tmp-%1").arg(QUuid::createUuid().toString(QUuid::Id128).left(8));
    // The hash and the header are read from the same bytes on another core while this thread
    // waits for the disk (write, fsync, rename, directory fsync): ~0.6 ms of CPU per 1 MB image
    // that no longer adds to the turn. The jthread joins on every return below; if no thread
    // can be started, the same is done here.
    FrameImage image;
    const auto describeBytes = [&bytes, &image] {
        image.sha256 = sha256Hex(bytes);
        image.mimeType = sniffImageMimeType(bytes);
        QBuffer buf;
        buf.setData(bytes);
        buf.open(QIODevice::ReadOnly);
        const QSize size = QImageReader(&buf).size(); // header only, no decode
        image.width = size.width();
        image.height = size.height();
    };
    std::jthread describe;
    try {
        describe = std::jthread(describeBytes);
    } catch (const std::system_error &) {
        describeBytes();
    }
    {
        QFile f(temp);
        bool written = f.open(QIODevice::WriteOnly);
        // A full disk first shows as a short write without an error; the next write reports it.
        for (qint64 done = 0; written && done < bytes.size();) {
            const qint64 n = f.write(bytes.constData() + done, bytes.size() - done);
            written = n > 0;
            done += qMax<qint64>(n, 0);
        }
        if (!written || !f.flush()) {
            ErrorKind kind = writeFailureKind(target, &f);
            if (kind == ErrorKind::Io && QStorageInfo(ti.absolutePath()).bytesAvailable() < bytes.size())
                kind = ErrorKind::DiskFull;
            const QString why = kind == ErrorKind::DiskFull
                ? QStringLiteral("no space left on the device (%1 bytes needed); free some space and retry")
                      .arg(bytes.size())
                : f.errorString();
            f.close();
            QFile::remove(temp);
            return Error::make(
                kind, QStringLiteral("%1: cannot write the image: %2").arg(QDir::toNativeSeparators(target), why));
        }
#ifdef Q_OS_UNIX
        ::fsync(f.handle());
#endif
        f.close();
    }
    if (std::rename(QFile::encodeName(temp).constData(), QFile::encodeName(target).constData()) != 0) {
        QFile::remove(temp);
        return Error::make(ErrorKind::Io,
            QStringLiteral("%1: cannot move the image into place").arg(QDir::toNativeSeparators(target)));
    }
    syncDirectory(ti.absolutePath());
    if (describe.joinable())
        describe.join();
    image.file = relativePath;
    return image;
}

Result<QString> SessionStore::copyInputImage(const QString &sessionDir, const QString &sourcePath)
{
    const Result<ImageInput> input = loadImageInput(sourcePath);
    if (!input)
        return input.error();
    const QString uuid = QUuid::createUuid().toString(QUuid::Id128).left(8);
    const QString rel
        = imageFileName(QStringLiteral("input"), QDateTime::currentDateTimeUtc(), uuid, input.value().bytes);
    const Result<FrameImage> written = writeImageFile(sessionDir, rel, input.value().bytes);
    if (!written)
        return written.error();
    return rel;
}

void SessionStore::removeUnrecordedCopy(const QString &sessionDir, const QString &relativePath)
{
    static const QString images = QStringLiteral("images/");
    if (sessionDir.isEmpty() || !relativePath.startsWith(images))
        return;
    // One name directly in images/ ("." and ".." never start with these prefixes).
    const QStringView name = QStringView(relativePath).mid(images.size());
    const bool madeByACopy = name.startsWith(u"import_") || name.startsWith(u"input_");
    if (!madeByACopy || name.contains(u'/'))
        return;
    QFile::remove(QDir(sessionDir).filePath(relativePath));
}

} // namespace nb2
