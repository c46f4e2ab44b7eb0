// SessionStore's readers: the read-only open, the manifest with the journal's tail folded in,
// the manifest parser, and the journal's fixes after a crash.
#include "core/session/sessionstoreinternal.h"

#include "core/api/imageinput.h"
#include "core/common/regularfile.h"
#include "core/common/threadpriority.h"
#include "core/session/framesource.h"
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

Result<void> SessionStore::readManifest(const QString &path, FrameGraph *graph, QString *current, QJsonObject *extra,
    qint64 *journalOffset, qint64 *bytes, bool onDemand)
{
    // Damage is Corrupt (rebuild() can recover from the journal); a file that is whole but not
    // ours to read is InvalidInput.
    auto fail = [&](ErrorKind kind, const QString &m) {
        return Error::make(kind, QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), m));
    };
    QFile file;
    if (const Result<void> opened = openRegularFile(&file, path); !opened)
        return opened.error(); // a FIFO would block here, a device feed the parse without end
    // The bytes outlive this read only when the graph builds its frames from them on demand.
    auto source = std::make_shared<const FrameSource>(file);
    const QByteArray &raw = source->bytes();
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
    Result<ParsedManifest> parsed = parseManifest(raw, onDemand ? FrameDepth::Nodes : FrameDepth::Frames);
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
    // A path that leads out of the folder refuses the whole session: nothing may read it.
    // Deferred, a file's own last step is taken by whatever reads it (setFileChecksDeferred()).
    auto checkPaths = [&](const Frame &f) {
        return filesWhenRead ? paths.checkFolders(f, QStringLiteral("manifest"))
                             : paths.check(f, QStringLiteral("manifest"));
    };
    int duplicate = -1;
    if (parsed.value().nodesOnly) {
        QList<FrameNode> &parsedNodes = parsed.value().nodes;
        if (parsedNodes.capacity() < parsedNodes.size() + parsedNodes.size() / 16 + 64)
            parsedNodes.reserve(parsedNodes.size() + parsedNodes.size() / 16 + 64); // room for the tail and new turns
        const QList<FrameNode> nodes = parsedNodes; // shared with the graph's until this read ends
        duplicate = graph->assignOnDemand(std::move(parsedNodes), std::move(frames), source);
        // The same checks as for built frames: a node's frame names one file, its picture (a
        // frame that names more, such as inputs sent inline, is held built and checked whole).
        Frame picture;
        for (int i = 0; i < (duplicate < 0 ? nodes.size() : duplicate); ++i) {
            const FrameNode &node = nodes.at(i);
            if (node.offset < 0) {
                if (const Result<void> inside = checkPaths(*graph->frame(node.id)); !inside)
                    return fail(ErrorKind::Unsafe, inside.error().message);
                continue;
            }
            picture.id = node.id;
            picture.image.file = node.imageFile;
            if (const Result<void> inside = checkPaths(picture); !inside)
                return fail(ErrorKind::Unsafe, inside.error().message);
        }
    } else {
        if (frames.capacity() < frames.size() + frames.size() / 16 + 64)
            frames.reserve(frames.size() + frames.size() / 16 + 64); // room for the journal's tail and new turns
        // The parsed list becomes the table as it is (no frame copied); on an error the caller's
        // graph is left to be discarded, as before.
        duplicate = graph->assign(std::move(frames));
        const QList<Frame> &table = graph->frames();
        for (int i = 0; i < (duplicate < 0 ? table.size() : duplicate); ++i) {
            if (const Result<void> inside = checkPaths(table.at(i)); !inside)
                return fail(ErrorKind::Unsafe, inside.error().message);
        }
    }
    if (duplicate >= 0)
        return fail(ErrorKind::Corrupt,
            QStringLiteral("frames[%1]: duplicate frame id %2")
                .arg(duplicate)
                .arg(graph->frameIds(FrameGraph::IncludeTrashed).at(duplicate)));
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
