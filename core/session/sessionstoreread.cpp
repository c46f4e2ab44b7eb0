// SessionStore's readers: the read-only open, the manifest with the journal's tail folded in,
// the manifest parser, and the journal's fixes after a crash.
#include "core/session/sessionstoreinternal.h"

#include "core/api/imageinput.h"
#include "core/common/regularfile.h"
#include "core/common/threadpriority.h"
#include "core/session/manifestparse.h"
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

#ifdef Q_OS_UNIX
#include <limits>
#include <sys/mman.h>
#include <sys/stat.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>
#include <optional>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <unistd.h>
#endif

namespace nb2 {

using namespace storedetail;

Result<void> SessionStore::openReadOnly(const QString &dir)
{
    // Nothing here may create, lock or write: a reading command leaves every byte as it was
    // (a schema-1 manifest is read as it is, not upgraded; the journal's tail is folded in memory).
    if (!QFileInfo(dir).isDir())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("%1: no such session folder").arg(dir));
    if (!QFileInfo::exists(dir + QStringLiteral("/manifest.json"))) {
        if (QFileInfo(dir + QStringLiteral("/journal.jsonl")).size() > 0)
            return Error::make(ErrorKind::Corrupt,
                QStringLiteral("%1: the session has a journal but no manifest.json; "
                               "rebuild it from the journal")
                    .arg(dir));
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("%1: not a session (no manifest.json)").arg(dir));
    }
    FrameGraph graph;
    QString current;
    QJsonObject extra;
    qint64 offset = -1;
    if (const Result<void> read
        = readManifest(dir + QStringLiteral("/manifest.json"), &graph, &current, &extra, &offset, nullptr);
        !read)
        return read;
    if (offset >= 0) {
        const Journal::Tail tail = Journal::readCommits(dir + QStringLiteral("/journal.jsonl"), offset);
        if (tail.unsafe)
            return *tail.unsafe;
        for (const JournalCommit &c : tail.commits)
            applyCommit(c, &graph, &current);
    }
    m_dir = dir;
    m_readOnly = true;
    m_journal.setPath(journalPath());
    QStringList a, c, r;
    adopt(std::move(graph), current, extra, &a, &c, &r);
    const Result<QList<Frame>> fixes = journalFixes();
    if (!fixes) {
        close();
        return fixes.error();
    }
    for (const Frame &f : fixes.value())
        m_graph.upsert(f); // shown, not written
    return {};
}

Result<QByteArray> SessionStore::foldedManifest(const QString &dir)
{
    const QString path = dir + QStringLiteral("/manifest.json");
    FrameGraph graph;
    QString current;
    QJsonObject extra;
    qint64 offset = -1;
    if (const Result<void> read = readManifest(path, &graph, &current, &extra, &offset, nullptr); !read)
        return read.error();
    const Journal::Tail tail
        = offset < 0 ? Journal::Tail {} : Journal::readCommits(dir + QStringLiteral("/journal.jsonl"), offset);
    if (tail.unsafe)
        return *tail.unsafe;
    if (tail.commits.isEmpty()) {
        QFile file;
        if (const Result<void> opened = openRegularFile(&file, path); !opened)
            return opened.error();
        return file.readAll();
    }
    for (const JournalCommit &c : tail.commits)
        applyCommit(c, &graph, &current);
    return manifestBytes(graph, current, extra, tail.end);
}

namespace {
/**
 * A file's bytes for one parse: on Unix mapped with its pages populated in the one mmap call
 * (a 14 MB checkpoint read into a fresh buffer cost the copy and a page fault per 4 KB of the
 * buffer, ~8 ms of a CLI turn); otherwise, or if mapping fails, read. bytes() is valid while
 * this lives. The checkpoint is only ever replaced by rename, never rewritten in place, so
 * the mapping keeps the file that was opened.
 */
class FileBytes
{
public:
    explicit FileBytes(QFile &file)
    {
#ifdef Q_OS_UNIX
        struct stat st {
        };
        if (::fstat(file.handle(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0
            && quint64(st.st_size) < quint64(std::numeric_limits<qsizetype>::max())) {
            void *p = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, file.handle(), 0);
            if (p != MAP_FAILED) {
                m_map = p;
                m_size = size_t(st.st_size);
                m_bytes = QByteArray::fromRawData(static_cast<const char *>(p), qsizetype(st.st_size));
                return;
            }
        }
#endif
        m_bytes = file.readAll();
    }
    ~FileBytes()
    {
#ifdef Q_OS_UNIX
        if (m_map)
            ::munmap(m_map, m_size);
#endif
    }
    FileBytes(const FileBytes &) = delete;
    FileBytes &operator=(const FileBytes &) = delete;
    const QByteArray &bytes() const
    {
        return m_bytes;
    }

private:
    QByteArray m_bytes;
    void *m_map = nullptr;
    size_t m_size = 0;
};
} // namespace

Result<void> SessionStore::readManifest(
    const QString &path, FrameGraph *graph, QString *current, QJsonObject *extra, qint64 *journalOffset, qint64 *bytes)
{
    // Damage is Corrupt (rebuild() can recover from the journal); a file that is whole but not
    // ours to read is InvalidInput.
    auto fail = [&](ErrorKind kind, const QString &m) {
        return Error::make(kind, QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), m));
    };
    QFile file;
    if (const Result<void> opened = openRegularFile(&file, path); !opened)
        return opened.error(); // a FIFO would block here, a device feed the parse without end
    const FileBytes mapped(file);
    const QByteArray &raw = mapped.bytes();      // nothing parsed from it keeps a pointer into it
    if (QByteArrayView(raw).trimmed().isEmpty()) // a view: no copy of a 14 MB checkpoint
        return fail(ErrorKind::Corrupt, QStringLiteral("the file is empty"));
    const SessionPaths paths(QFileInfo(path).absolutePath()); // the folder made canonical once for every frame
    // Read once: preload() and open() of the same read must check alike.
    const bool filesWhenRead = fileChecksDeferred();
    // A big checkpoint names thousands of images: their folder is listed on another thread
    // while the text is parsed (the check below then looks the names up in the listing).
    QFuture<void> listing;
    if (!filesWhenRead && raw.size() >= (1 << 20) && helperThreadsWelcome())
        listing = QtConcurrent::run([&paths] { paths.readListing(QStringLiteral("images")); });
    struct WaitFor {
        QFuture<void> &future;
        ~WaitFor() { future.waitForFinished(); } // before paths goes, on every return
    } waitForListing {listing};
    // One pass over the bytes for what toJson() writes (QJsonDocument for anything else).
    Result<ParsedManifest> parsed = parseManifest(raw);
    if (!parsed)
        return fail(parsed.error().kind, parsed.error().message);
    QJsonObject root = parsed.value().root;
    if (root.value(kFormat).toString() != QLatin1String(kFormatName))
        return fail(ErrorKind::InvalidInput,
            QStringLiteral("not an NB2Lite session manifest (\"format\" is \"%1\", expected \"%2\")")
                .arg(root.value(kFormat).toString(), QLatin1String(kFormatName)));
    const int schema = root.value(kSchema).toInt(-1);
    if (schema < 1)
        return fail(ErrorKind::Corrupt, QStringLiteral("missing or invalid \"schema_version\""));
    if (schema > kSchemaVersion)
        return fail(ErrorKind::InvalidInput,
            QStringLiteral("written by a newer NB2Lite (schema %1; this version reads up to %2)")
                .arg(schema)
                .arg(kSchemaVersion));
    if (!parsed.value().framesIsArray)
        return fail(ErrorKind::Corrupt, QStringLiteral("\"frames\" is missing or not an array"));
    QList<Frame> &frames = parsed.value().frames;
    listing.waitForFinished();
    if (frames.capacity() < frames.size() + frames.size() / 16 + 64)
        frames.reserve(frames.size() + frames.size() / 16 + 64); // room for the journal's tail and new turns
    // The parsed list becomes the table as it is (no frame copied); on an error the caller's
    // graph is left to be discarded, as before.
    const int duplicate = graph->assign(std::move(frames));
    const QList<Frame> &table = graph->frames();
    for (int i = 0; i < (duplicate < 0 ? table.size() : duplicate); ++i) {
        // A path that leads out of the folder refuses the whole session: nothing may read it.
        // Deferred, a file's own last step is taken by whatever reads it (setFileChecksDeferred()).
        const Result<void> inside = filesWhenRead ? paths.checkFolders(table.at(i), QStringLiteral("manifest"))
                                                  : paths.check(table.at(i), QStringLiteral("manifest"));
        if (!inside)
            return fail(ErrorKind::Unsafe, inside.error().message);
    }
    if (duplicate >= 0)
        return fail(ErrorKind::Corrupt,
            QStringLiteral("frames[%1]: duplicate frame id %2").arg(duplicate).arg(table.at(duplicate).id));
    if (parsed.value().badFrame >= 0)
        return fail(ErrorKind::Corrupt, parsed.value().badFrameMessage);
    *current = root.value(kCurrent).toString();
    // Schema 2: the manifest is a checkpoint of the journal up to this byte offset.
    const double offset = root.value(kJournalOffset).toDouble(-1);
    *journalOffset = schema >= 2 && offset >= 0 ? qint64(offset) : -1;
    for (const QLatin1String &k : {kFormat, kSchema, kFrames, kCurrent, kUpdated, kJournalOffset})
        root.remove(k);
    *extra = root;
    if (bytes)
        *bytes = raw.size();
    return {};
}

} // namespace nb2
