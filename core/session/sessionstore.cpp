#include "core/session/sessionstore.h"

#include "core/api/imageinput.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QImage>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTimer>
#include <QUuid>

#include <algorithm>
#include <cstdio>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <unistd.h>
#endif

namespace nb2 {

namespace {

const QLatin1String kFormat("format"), kSchema("schema_version"), kFrames("frames"),
    kCurrent("current_frame"), kUpdated("updated_at");

QString extensionForMime(const QString &mime)
{
    if (mime == QLatin1String("image/jpeg"))
        return QStringLiteral("jpg");
    if (mime == QLatin1String("image/png"))
        return QStringLiteral("png");
    if (mime == QLatin1String("image/webp"))
        return QStringLiteral("webp");
    if (mime == QLatin1String("image/gif"))
        return QStringLiteral("gif");
    if (mime == QLatin1String("image/bmp"))
        return QStringLiteral("bmp");
    if (mime == QLatin1String("image/tiff"))
        return QStringLiteral("tif");
    if (mime == QLatin1String("image/heic"))
        return QStringLiteral("heic");
    return QStringLiteral("bin");
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

ApiError ioError(const QString &message)
{
    ApiError e;
    e.kind = ErrorKind::Io;
    e.message = message;
    return e;
}

} // namespace

SessionStore::SessionStore(QObject *parent) : QObject(parent)
{
    m_reloadTimer = new QTimer(this);
    m_reloadTimer->setSingleShot(true);
    m_reloadTimer->setInterval(30);
    connect(m_reloadTimer, &QTimer::timeout, this, [this] { reload(); });
}

SessionStore::~SessionStore() = default;

QString SessionStore::manifestPath() const { return m_dir + QStringLiteral("/manifest.json"); }
QString SessionStore::journalPath() const { return m_dir + QStringLiteral("/journal.jsonl"); }
QString SessionStore::imagesDir() const { return m_dir + QStringLiteral("/images"); }
QString SessionStore::thumbsDir() const { return m_dir + QStringLiteral("/thumbs"); }
QString SessionStore::lockPath() const { return m_dir + QStringLiteral("/session.lock"); }

QString SessionStore::absolutePath(const QString &relativePath) const
{
    if (relativePath.isEmpty())
        return {};
    return QDir(m_dir).filePath(relativePath);
}

bool SessionStore::open(const QString &dirIn, OpenMode mode, QString *errorMessage)
{
    close();
    auto fail = [&](const QString &m) {
        if (errorMessage)
            *errorMessage = m;
        m_dir.clear();
        return false;
    };
    const QString dir = QDir::cleanPath(QFileInfo(dirIn).absoluteFilePath());
    QDir d(dir);
    if (!d.exists()) {
        if (mode == OpenMode::OpenExisting)
            return fail(QStringLiteral("%1: no such session folder").arg(dir));
        if (!QDir().mkpath(dir))
            return fail(QStringLiteral("%1: cannot create the session folder").arg(dir));
    }
    m_dir = dir;
    QDir().mkpath(imagesDir());
    QDir().mkpath(thumbsDir());
    m_journal.setPath(journalPath());

    if (!QFileInfo::exists(manifestPath())) {
        if (mode == OpenMode::OpenExisting)
            return fail(QStringLiteral("%1: not a session (no manifest.json)").arg(dir));
        // A crash before the first manifest write leaves only a journal: rebuild from it.
        if (QFileInfo(journalPath()).size() > 0) {
            const QString keep = m_dir;
            m_dir.clear();
            return rebuild(keep, errorMessage);
        }
        QString err;
        if (!lock(&err))
            return fail(err);
        m_graph.clear();
        m_currentFrameId.clear();
        m_extra = QJsonObject{{QLatin1String("created_at"), toIsoUtc(QDateTime::currentDateTimeUtc())}};
        const bool ok = QFileInfo::exists(manifestPath()) || writeManifestLocked(&err);
        unlock();
        if (!ok)
            return fail(err);
    }

    FrameGraph graph;
    QString current;
    QJsonObject extra;
    QByteArray raw;
    QString err;
    if (!readManifest(manifestPath(), &graph, &current, &extra, &raw, &err))
        return fail(err);
    QStringList a, c, r;
    adopt(std::move(graph), current, extra, raw, &a, &c, &r);
    if (!mergeJournal(&err))
        return fail(err);
    watch();
    return true;
}

void SessionStore::close()
{
    delete m_watcher;
    m_watcher = nullptr;
    m_reloadTimer->stop();
    m_lock.reset();
    m_dir.clear();
    m_graph.clear();
    m_currentFrameId.clear();
    m_extra = {};
    m_lastManifestHash.clear();
}

bool SessionStore::readManifest(const QString &path, FrameGraph *graph, QString *current, QJsonObject *extra,
                                QByteArray *rawOut, QString *errorMessage) const
{
    auto fail = [&](const QString &m) {
        if (errorMessage)
            *errorMessage = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), m);
        return false;
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read: %1").arg(file.errorString()));
    const QByteArray raw = file.readAll();
    if (raw.trimmed().isEmpty())
        return fail(QStringLiteral("the file is empty"));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &pe);
    if (pe.error != QJsonParseError::NoError)
        return fail(QStringLiteral("not valid JSON: %1 at byte %2").arg(pe.errorString()).arg(pe.offset));
    if (!doc.isObject())
        return fail(QStringLiteral("expected a JSON object at the top level"));
    QJsonObject root = doc.object();
    if (root.value(kFormat).toString() != QLatin1String(kFormatName))
        return fail(QStringLiteral("not an NB2Lite session manifest (\"format\" is \"%1\", expected \"%2\")")
                        .arg(root.value(kFormat).toString(), QLatin1String(kFormatName)));
    const int schema = root.value(kSchema).toInt(-1);
    if (schema < 1)
        return fail(QStringLiteral("missing or invalid \"schema_version\""));
    if (schema > kSchemaVersion)
        return fail(QStringLiteral("written by a newer NB2Lite (schema %1; this version reads up to %2)")
                        .arg(schema)
                        .arg(kSchemaVersion));
    if (!root.value(kFrames).isArray())
        return fail(QStringLiteral("\"frames\" is missing or not an array"));
    const QJsonArray frames = root.value(kFrames).toArray();
    graph->clear();
    for (int i = 0; i < frames.size(); ++i) {
        Frame f;
        QString ferr;
        if (!frames.at(i).isObject())
            return fail(QStringLiteral("frames[%1] is not an object").arg(i));
        if (!Frame::fromJson(frames.at(i).toObject(), &f, &ferr))
            return fail(QStringLiteral("frames[%1]: %2").arg(i).arg(ferr));
        if (graph->contains(f.id))
            return fail(QStringLiteral("frames[%1]: duplicate frame id %2").arg(i).arg(f.id));
        graph->upsert(f);
    }
    *current = root.value(kCurrent).toString();
    for (const QLatin1String &k : {kFormat, kSchema, kFrames, kCurrent, kUpdated})
        root.remove(k);
    *extra = root;
    if (rawOut)
        *rawOut = raw;
    return true;
}

void SessionStore::adopt(FrameGraph graph, const QString &current, const QJsonObject &extra, const QByteArray &raw,
                         QStringList *added, QStringList *changed, QStringList *removed)
{
    for (const Frame &f : graph.frames()) {
        const Frame *old = m_graph.frame(f.id);
        if (!old)
            added->append(f.id);
        else if (old->toJson() != f.toJson())
            changed->append(f.id);
    }
    for (const Frame &f : m_graph.frames())
        if (!graph.contains(f.id))
            removed->append(f.id);
    m_graph = std::move(graph);
    m_currentFrameId = current;
    m_extra = extra;
    m_lastManifestHash = QCryptographicHash::hash(raw, QCryptographicHash::Sha256);
}

bool SessionStore::mergeJournal(QString *errorMessage)
{
    // The journal may be ahead of the manifest after a crash: an id learned by streaming that
    // never reached the manifest (or, after a lost manifest, a begun turn it does not list).
    // A pending frame always reaches the manifest before its journal record, so a manifest
    // without pending frames has nothing to learn from the journal: skip reading it.
    if (m_graph.withStatus(FrameStatus::Pending).isEmpty() && !m_graph.isEmpty())
        return true;
    const Journal::Replay replay = Journal::replay(journalPath());
    QList<Frame> fixes;
    for (const QString &id : replay.openTurns) {
        if (replay.removed.contains(id))
            continue;
        const Frame *known = m_graph.frame(id);
        if (!known) {
            fixes.append(replay.frames.value(id));
            continue;
        }
        const QString iid = replay.interactionIds.value(id);
        if (known->isPending() && known->interactionId.isEmpty() && !iid.isEmpty()) {
            Frame f = *known;
            f.interactionId = iid;
            fixes.append(f);
        }
    }
    if (fixes.isEmpty())
        return true;
    return commit(fixes, {}, {}, errorMessage);
}

bool SessionStore::lock(QString *errorMessage)
{
    m_lock = std::make_unique<QLockFile>(lockPath());
    // Age alone never makes a lock stale (a slow write is not a dead writer); a dead pid does.
    m_lock->setStaleLockTime(0);
    QDeadlineTimer deadline(m_lockTimeoutMs);
    qint64 pid = 0;
    QString host, app;
    for (;;) {
        if (m_lock->tryLock(int(std::clamp<qint64>(deadline.remainingTime(), 0, 100))))
            return true;
        // A writer killed between creating the lock file and writing its pid leaves a file
        // QLockFile cannot judge; once it is clearly not being written any more, it is stale.
        if (!m_lock->getLockInfo(&pid, &host, &app)
            && QFileInfo(lockPath()).lastModified().msecsTo(QDateTime::currentDateTime()) > 2000)
            m_lock->removeStaleLockFile();
        if (deadline.hasExpired())
            break;
    }
    m_lock->getLockInfo(&pid, &host, &app);
    if (errorMessage)
        *errorMessage = QStringLiteral("%1: the session is locked by another process (pid %2%3) and did not "
                                       "become free within %4 ms; try again")
                            .arg(QDir::toNativeSeparators(lockPath()))
                            .arg(pid)
                            .arg(app.isEmpty() ? QString() : QStringLiteral(", %1").arg(app))
                            .arg(m_lockTimeoutMs);
    m_lock.reset();
    return false;
}

void SessionStore::unlock()
{
    if (m_lock)
        m_lock->unlock();
    m_lock.reset();
}

bool SessionStore::writeManifestLocked(QString *errorMessage)
{
    QJsonObject root = m_extra;
    root.insert(kFormat, QLatin1String(kFormatName));
    root.insert(kSchema, kSchemaVersion);
    root.insert(kUpdated, toIsoUtc(QDateTime::currentDateTimeUtc()));
    if (!m_currentFrameId.isEmpty())
        root.insert(kCurrent, m_currentFrameId);
    QJsonArray frames;
    for (const Frame &f : m_graph.frames())
        frames.append(f.toJson());
    root.insert(kFrames, frames);
    const QByteArray raw = QJsonDocument(root).toJson(QJsonDocument::Indented);

    QSaveFile file(manifestPath()); // temp + fsync + rename
    if (!file.open(QIODevice::WriteOnly) || file.write(raw) != raw.size() || !file.commit()) {
        if (errorMessage)
            *errorMessage = QStringLiteral("%1: cannot write the manifest: %2")
                                .arg(QDir::toNativeSeparators(manifestPath()), file.errorString());
        return false;
    }
    syncDirectory(m_dir);
    m_lastManifestHash = QCryptographicHash::hash(raw, QCryptographicHash::Sha256);
    return true;
}

bool SessionStore::commit(const QList<Frame> &upserts, const QStringList &removals, const QString &newCurrentFrameId,
                          QString *errorMessage)
{
    if (!isOpen()) {
        if (errorMessage)
            *errorMessage = QStringLiteral("no session is open");
        return false;
    }
    if (!lock(errorMessage))
        return false;
    // Another process may have written since we last looked: apply our change to its version.
    QStringList added, changed, removed;
    QFile file(manifestPath());
    if (file.open(QIODevice::ReadOnly)) {
        const QByteArray raw = file.readAll();
        file.close();
        if (QCryptographicHash::hash(raw, QCryptographicHash::Sha256) != m_lastManifestHash) {
            FrameGraph graph;
            QString current;
            QJsonObject extra;
            QString err;
            if (!readManifest(manifestPath(), &graph, &current, &extra, nullptr, &err)) {
                unlock();
                if (errorMessage)
                    *errorMessage = err;
                return false; // never overwrite what we cannot read
            }
            adopt(std::move(graph), current, extra, raw, &added, &changed, &removed);
        }
    }
    for (const Frame &f : upserts)
        m_graph.upsert(f);
    for (const QString &id : removals)
        m_graph.remove(id);
    if (!newCurrentFrameId.isEmpty())
        m_currentFrameId = newCurrentFrameId;
    const bool ok = writeManifestLocked(errorMessage);
    unlock();
    if (!added.isEmpty() || !changed.isEmpty() || !removed.isEmpty())
        emit changedExternally(added, changed, removed);
    return ok;
}

bool SessionStore::reload(QString *errorMessage)
{
    if (!isOpen())
        return false;
    if (m_watcher && !m_watcher->files().contains(manifestPath()) && QFileInfo::exists(manifestPath()))
        m_watcher->addPath(manifestPath()); // a rename replaced the watched inode
    QFile file(manifestPath());
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray raw = file.readAll();
    if (QCryptographicHash::hash(raw, QCryptographicHash::Sha256) == m_lastManifestHash)
        return false;
    FrameGraph graph;
    QString current;
    QJsonObject extra;
    if (!readManifest(manifestPath(), &graph, &current, &extra, nullptr, errorMessage))
        return false;
    QStringList added, changed, removed;
    adopt(std::move(graph), current, extra, raw, &added, &changed, &removed);
    emit changedExternally(added, changed, removed);
    return true;
}

void SessionStore::watch()
{
    delete m_watcher;
    m_watcher = new QFileSystemWatcher(this);
    m_watcher->addPath(m_dir);
    m_watcher->addPath(manifestPath());
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, [this] { onWatcherEvent(); });
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] { onWatcherEvent(); });
}

void SessionStore::onWatcherEvent()
{
    m_reloadTimer->start(); // coalesce the burst of events one atomic replace makes
}

bool SessionStore::rebuild(const QString &dirIn, QString *errorMessage)
{
    close();
    const QString dir = QDir::cleanPath(QFileInfo(dirIn).absoluteFilePath());
    if (!QDir().mkpath(dir)) {
        if (errorMessage)
            *errorMessage = QStringLiteral("%1: cannot create the session folder").arg(dir);
        return false;
    }
    m_dir = dir;
    QDir().mkpath(imagesDir());
    QDir().mkpath(thumbsDir());
    m_journal.setPath(journalPath());
    QString err;
    if (!lock(&err)) {
        if (errorMessage)
            *errorMessage = err;
        m_dir.clear();
        return false;
    }

    // Keep the unreadable manifest for inspection; rebuilding must not destroy anything.
    if (QFileInfo::exists(manifestPath())) {
        QString aside = QStringLiteral("%1/manifest.broken-%2.json").arg(m_dir).arg(QDateTime::currentSecsSinceEpoch());
        for (int n = 1; QFileInfo::exists(aside); ++n)
            aside = QStringLiteral("%1/manifest.broken-%2-%3.json").arg(m_dir).arg(QDateTime::currentSecsSinceEpoch()).arg(n);
        QFile::rename(manifestPath(), aside);
    }

    const Journal::Replay replay = Journal::replay(journalPath());
    FrameGraph graph;
    for (const QString &id : replay.order) {
        if (!replay.frames.contains(id))
            continue;
        Frame f = replay.frames.value(id);
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
    const QFileInfoList files = QDir(imagesDir()).entryInfoList(QDir::Files, QDir::Name);
    for (const QFileInfo &fi : files) {
        if (fi.fileName().startsWith(QLatin1Char('.')))
            continue; // a temp file of an interrupted write: never referenced
        const QString rel = QStringLiteral("images/") + fi.fileName();
        if (refSet.contains(rel))
            continue;
        QFile in(fi.absoluteFilePath());
        if (!in.open(QIODevice::ReadOnly))
            continue;
        const QByteArray bytes = in.readAll();
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
        f.image.file = rel;
        f.image.sha256 = sha256Hex(bytes);
        f.image.mimeType = sniffImageMimeType(bytes);
        QBuffer buf(const_cast<QByteArray *>(&bytes));
        buf.open(QIODevice::ReadOnly);
        const QSize size = QImageReader(&buf).size();
        f.image.width = size.width();
        f.image.height = size.height();
        f.note = QStringLiteral("recovered from images/ when the session was rebuilt");
        graph.upsert(f);
    }
    m_graph = std::move(graph);
    m_extra = QJsonObject{{QLatin1String("rebuilt_at"), toIsoUtc(QDateTime::currentDateTimeUtc())}};
    m_currentFrameId.clear();
    const bool ok = writeManifestLocked(&err);
    unlock();
    if (!ok) {
        if (errorMessage)
            *errorMessage = err;
        m_dir.clear();
        return false;
    }
    const QString keep = m_dir;
    return open(keep, OpenMode::OpenExisting, errorMessage);
}

QString SessionStore::thumbnailFor(const Frame &frame, int size) const
{
    if (frame.image.isNull() || !isOpen())
        return {};
    const QString source = absolutePath(frame.image.file);
    const QString thumb = QStringLiteral("%1/%2_%3_%4.png")
                              .arg(thumbsDir(), frame.id, frame.image.sha256.left(8))
                              .arg(size);
    if (QFileInfo::exists(thumb))
        return thumb;
    QImageReader reader(source);
    const QSize full = reader.size();
    if (full.isValid())
        reader.setScaledSize(full.scaled(size, size, Qt::KeepAspectRatio));
    const QImage image = reader.read();
    if (image.isNull())
        return {};
    QDir().mkpath(thumbsDir());
    QSaveFile out(thumb);
    if (!out.open(QIODevice::WriteOnly) || !image.save(&out, "PNG") || !out.commit())
        return {};
    return thumb;
}

QString SessionStore::sha256Hex(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

QString SessionStore::imageFileName(const QString &prefix, const QDateTime &when, const QString &uuid8,
                                    const QByteArray &bytes)
{
    return QStringLiteral("images/%1_%2_%3.%4")
        .arg(prefix)
        .arg(when.toSecsSinceEpoch())
        .arg(uuid8, extensionForMime(sniffImageMimeType(bytes)));
}

Result<FrameImage> SessionStore::writeImageFile(const QString &sessionDir, const QString &relativePath,
                                                const QByteArray &bytes)
{
    const QString target = QDir(sessionDir).filePath(relativePath);
    const QFileInfo ti(target);
    QDir().mkpath(ti.absolutePath());
    const QString temp = ti.absolutePath() + QStringLiteral("/.") + ti.fileName()
        + QStringLiteral(".tmp-%1").arg(QUuid::createUuid().toString(QUuid::Id128).left(8));
    {
        QFile f(temp);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.flush()) {
            const QString why = f.errorString();
            f.close();
            QFile::remove(temp);
            return ioError(QStringLiteral("%1: cannot write the image: %2").arg(QDir::toNativeSeparators(target), why));
        }
#ifdef Q_OS_UNIX
        ::fsync(f.handle());
#endif
        f.close();
    }
    if (std::rename(QFile::encodeName(temp).constData(), QFile::encodeName(target).constData()) != 0) {
        QFile::remove(temp);
        return ioError(QStringLiteral("%1: cannot move the image into place").arg(QDir::toNativeSeparators(target)));
    }
    syncDirectory(ti.absolutePath());
    FrameImage image;
    image.file = relativePath;
    image.sha256 = sha256Hex(bytes);
    image.mimeType = sniffImageMimeType(bytes);
    QBuffer buf;
    buf.setData(bytes);
    buf.open(QIODevice::ReadOnly);
    const QSize size = QImageReader(&buf).size(); // header only, no decode
    image.width = size.width();
    image.height = size.height();
    return image;
}

Result<QString> SessionStore::copyInputImage(const QString &sessionDir, const QString &sourcePath)
{
    const Result<ImageInput> input = loadImageInput(sourcePath);
    if (!input)
        return input.error();
    const QString uuid = QUuid::createUuid().toString(QUuid::Id128).left(8);
    const QString rel = imageFileName(QStringLiteral("input"), QDateTime::currentDateTimeUtc(), uuid, input.value().bytes);
    const Result<FrameImage> written = writeImageFile(sessionDir, rel, input.value().bytes);
    if (!written)
        return written.error();
    return rel;
}

} // namespace nb2
