// SessionStore::rebuild(): a session made again from its journal and images/ after the manifest
// was lost or damaged; nothing is deleted (the old manifest is kept aside).
#include "core/session/sessionstoreinternal.h"

#include "core/api/imageinput.h"
#include "core/common/regularfile.h"
#include "core/session/precisionedit.h"
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

namespace nb2 {

using namespace storedetail;

namespace {

/** In words, why images is not a folder of root's own that a rebuild may read (isOwnFolder() said no). */
QString whyNotOwnImagesFolder(const QString &root, const QString &images)
{
    const QFileInfo info(images);
    const QString name = QDir::toNativeSeparators(images);
    if (!info.isSymLink())
        return info.exists() ? QStringLiteral("%1 is not a folder").arg(name)
                             : QStringLiteral("%1 does not exist").arg(name);
    const QString target = QDir::toNativeSeparators(info.symLinkTarget());
    if (!info.exists())
        return QStringLiteral("%1 is a link to %2, which does not exist").arg(name, target);
    if (!info.isDir())
        return QStringLiteral("%1 is a link to %2, which is not a folder").arg(name, target);
    if (info.canonicalFilePath() == QFileInfo(root).canonicalFilePath())
        return QStringLiteral("%1 is a link to the session folder itself").arg(name);
    return QStringLiteral("%1 is a link that leads outside the session folder (to %2)")
        .arg(name, QDir::toNativeSeparators(info.canonicalFilePath()));
}

/**
 * The bytes of a picture a rebuild finds in images/: only a regular file of at most
 * kMaxImageFileBytes, opened without following a link (a link could lead anywhere, and a FIFO
 * would block the rebuild for ever). Anything else reads as empty, which a rebuild skips.
 */
QByteArray readFoundImage(const QString &path)
{
    QFile file;
    if (!openRegularFile(&file, path, QIODevice::ReadOnly, LinkPolicy::Refuse) || file.size() > kMaxImageFileBytes)
        return {};
    return file.readAll();
}
} // namespace

Result<void> SessionStore::rebuild(const QString &dirIn)
{
    close();
    const QString dir = QDir::cleanPath(QFileInfo(dirIn).absoluteFilePath());
    if (!QDir().mkpath(dir))
        return Error::make(writeFailureKind(dir), QStringLiteral("%1: cannot create the session folder").arg(dir));
    if (!QFileInfo(dir).isWritable())
        return notWritable(dir);
    m_dir = dir;
    QDir().mkpath(imagesDir());
    QDir().mkpath(thumbsDir());
    m_journal.setPath(journalPath());
    if (const Result<void> locked = lock(); !locked) {
        m_dir.clear();
        return locked;
    }

    // A rebuild reads every picture in images/: the folder must be the session's own, not a link
    // to another folder (whose pictures would become frames of a session that then never opens).
    if (!SessionPaths::isOwnFolder(m_dir, QStringLiteral("images"))) {
        unlock();
        const QString why = whyNotOwnImagesFolder(m_dir, imagesDir());
        m_dir.clear();
        return Error::make(ErrorKind::Unsafe,
            QStringLiteral("%1; nothing was rebuilt. Put the session's own images folder in its place.").arg(why));
    }

    const qint64 journalSizeBeforeReplay = QFileInfo(journalPath()).size();
    const Journal::Replay replay = Journal::replay(journalPath());
    // The journal is what a rebuild trusts most: one that is not a file (a FIFO, a device; read
    // without waiting, nothing taken from it) stops it before anything is moved.
    if (replay.notAFile) {
        unlock();
        m_dir.clear();
        return Error::make(replay.notAFile->kind,
            QStringLiteral("%1; nothing was rebuilt. Move it out of the session folder and rebuild again.")
                .arg(replay.notAFile->message));
    }
    // A journal that names a file outside the folder is refused before anything is moved.
    for (const QString &id : replay.order) {
        if (!replay.frames.contains(id))
            continue;
        if (const Result<void> inside
            = SessionPaths::checkFrame(replay.frames.value(id), m_dir, QStringLiteral("journal"));
            !inside) {
            unlock();
            m_dir.clear();
            return Error::make(ErrorKind::Unsafe,
                QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(journalPath()), inside.error().message));
        }
    }

    // What the broken manifest still says about the session itself (when it began, the frame
    // the user was on, fields of newer versions) is kept; only its frames are rebuilt.
    QJsonObject extra;
    QString current;
    {
        QFile old; // a FIFO or a folder in its place has nothing to salvage; it is moved aside below
        if (openRegularFile(&old, manifestPath()))
            salvageManifestHead(old.readAll(), &extra, &current);
    }

    // Keep the unreadable manifest for inspection; rebuilding must not destroy anything.
    if (QFileInfo::exists(manifestPath())) {
        QString aside = QStringLiteral("%1/manifest.broken-%2.json").arg(m_dir).arg(QDateTime::currentSecsSinceEpoch());
        for (int n = 1; QFileInfo::exists(aside); ++n)
            aside = QStringLiteral("%1/manifest.broken-%2-%3.json")
                        .arg(m_dir)
                        .arg(QDateTime::currentSecsSinceEpoch())
                        .arg(n);
        QFile::rename(manifestPath(), aside);
    }

    // A turn's result is written as images/<kind>_<unix>_<frame id>.<ext> (atomically) before
    // the journal's "end" record: a turn whose end record is lost (torn last line) but whose
    // picture is there finished. Newest file per frame (a retry writes a new one).
    static const QRegularExpression turnOutputRe(
        QStringLiteral("^(gen|edit|edit_local|style_edit)_(\\d+)_([0-9a-f]{8})\\.[a-z]+$"));
    QHash<QString, QPair<qint64, QString>> outputs; // frame id -> (unix, file name)
    for (const QString &name : QDir(imagesDir()).entryList(QDir::Files | QDir::NoSymLinks, QDir::Name)) {
        const auto m = turnOutputRe.match(name);
        if (!m.hasMatch())
            continue;
        const qint64 when = m.captured(2).toLongLong();
        if (!outputs.contains(m.captured(3)) || outputs.value(m.captured(3)).first <= when)
            outputs.insert(m.captured(3), {when, name});
    }

    FrameGraph graph;
    for (const QString &id : replay.order) {
        if (!replay.frames.contains(id))
            continue;
        Frame f = replay.frames.value(id);
        if ((f.isPending() || f.status == FrameStatus::Interrupted) && f.kind != FrameKind::Import
            && outputs.contains(f.id)) {
            const QString rel = QStringLiteral("images/") + outputs.value(f.id).second;
            const QByteArray bytes = readFoundImage(absolutePath(rel));
            if (!sniffImageMimeType(bytes).isEmpty() && imageDamage(bytes).isEmpty()) {
                f.status = FrameStatus::Done;
                f.error = {};
                f.ownerPid = 0;
                f.image = describeImage(rel, bytes);
                f.finishedAt = QDateTime::fromSecsSinceEpoch(outputs.value(f.id).first, Qt::UTC);
                if (f.interactionId.isEmpty())
                    f.interactionId = replay.interactionIds.value(f.id);
                if (f.kind == FrameKind::ReAnchor || f.reAnchored)
                    f.reAnchored = true;
            }
        }
        if (f.isDone() && (f.image.isNull() || !QFileInfo::exists(absolutePath(f.image.file)))) {
            f.status = FrameStatus::Interrupted;
            f.error.kind = errorKindName(ErrorKind::Io);
            f.error.message = QStringLiteral("the image file of this frame is missing; retry to make it again");
        }
        graph.upsert(f);
    }
    // Images nobody mentions become imported roots, so no picture is lost.
    const QStringList referenced = graph.referencedFiles();
    const QSet<QString> refSet(referenced.cbegin(), referenced.cend());
    static const QRegularExpression nameRe(QStringLiteral("^[a-z_]+_(\\d+)_([0-9a-f]{8})\\.[a-z]+$"));
    // No links: a picture nobody mentions is one the folder really holds (readFoundImage() checks again).
    const QFileInfoList files = QDir(imagesDir()).entryInfoList(QDir::Files | QDir::NoSymLinks, QDir::Name);
    for (const QFileInfo &fi : files) {
        if (fi.fileName().startsWith(QLatin1Char('.')))
            continue; // a temp file of an interrupted write: never referenced
        if (PrecisionEdit::isDerivedFileName(fi.fileName()))
            continue; // a mask, crop or heatmap of no frame: not a picture to recover
        const QString rel = QStringLiteral("images/") + fi.fileName();
        if (refSet.contains(rel))
            continue;
        const QByteArray bytes = readFoundImage(fi.absoluteFilePath());
        if (sniffImageMimeType(bytes).isEmpty())
            continue;
        Frame f;
        const auto m = nameRe.match(fi.fileName());
        f.id = m.hasMatch() && !graph.contains(m.captured(2)) ? m.captured(2) : Frame::newId();
        while (graph.contains(f.id))
            f.id = Frame::newId();
        f.kind = FrameKind::Import;
        f.status = FrameStatus::Done;
        f.title = fi.fileName();
        f.requestedAt = m.hasMatch() ? QDateTime::fromSecsSinceEpoch(m.captured(1).toLongLong(), Qt::UTC)
                                     : fi.lastModified().toUTC();
        f.finishedAt = f.requestedAt;
        f.image = describeImage(rel, bytes);
        f.note = QStringLiteral("recovered from images/ when the session was rebuilt");
        graph.upsert(f);
    }
    // created_at: the old manifest's, else when the journal began, else the first frame's request.
    if (!extra.contains(QLatin1String("created_at"))) {
        QDateTime created = replay.firstAt;
        for (const Frame &f : graph.frames()) {
            if (f.requestedAt.isValid() && (!created.isValid() || f.requestedAt < created))
                created = f.requestedAt;
        }
        if (created.isValid())
            extra.insert(QLatin1String("created_at"), toIsoUtc(created));
    }
    extra.insert(QLatin1String("rebuilt_at"), toIsoUtc(QDateTime::currentDateTimeUtc()));
    // current_frame: the journal's last commit, else the old manifest's, else the frame the journal saw last.
    if (graph.contains(replay.current))
        current = replay.current;
    if (current.isEmpty() || !graph.contains(current))
        current = replay.lastFrameId;
    if (!graph.contains(current) || graph.frame(current)->isTrashed())
        current.clear();
    m_graph = std::move(graph);
    m_extra = extra;
    m_currentFrameId = current;
    // The new manifest holds the journal up to where it was when the replay began; records
    // appended since are folded again at open (whole frames: applying one twice is harmless).
    m_journalEnd = journalSizeBeforeReplay;
    const Result<void> written = writeManifestLocked();
    unlock();
    if (!written) {
        m_dir.clear();
        return written;
    }
    const QString keep = m_dir;
    return open(keep, OpenMode::OpenExisting);
}

} // namespace nb2
