#include "core/session/journal.h"

#include "core/common/regularfile.h"
#include "core/session/manifestparse.h"
#include "core/session/sessionpaths.h"
#include <QDir>
#include <QFileInfo>

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutexLocker>

#include <optional>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace nb2 {

namespace {
const QLatin1String kOp("op"), kAt("at"), kFrame("frame"), kFrameId("frame_id"), kInteractionId("interaction_id"),
    kIds("frame_ids"), kCommit("commit"), kFrames("frames"), kRemoved("removed"), kCurrent("current"), kWriter("w");

/** One write of whole lines, fdatasync'ed. Starts with a newline: ends a torn line a crash left. */
Result<void> writeLines(const QString &path, const QByteArray &lines)
{
    QFile file;
    // Append mode is O_APPEND: one write() per call keeps lines whole across processes.
    if (const Result<void> opened = openRegularFile(&file, path, QIODevice::WriteOnly | QIODevice::Append); !opened)
        return opened.error(); // "…/journal.jsonl: cannot open: …", or "… is a FIFO, not a file"
    if (file.write(lines) != lines.size() || !file.flush())
        return Error::make(writeFailureKind(path, &file),
            QStringLiteral("%1: cannot append to the journal: %2").arg(path, file.errorString()));
#ifdef Q_OS_UNIX
    ::fdatasync(file.handle());
#endif
    return {};
}

std::optional<JournalCommit> parseCommit(const QJsonObject &rec)
{
    JournalCommit c;
    c.writer = rec.value(kWriter).toString();
    const QJsonArray frames = rec.value(kFrames).toArray();
    for (const QJsonValue &v : frames) {
        Result<Frame> f = Frame::fromJson(v.toObject());
        if (!f)
            return std::nullopt; // a record we cannot fully read is not applied by halves
        c.upserts.append(std::move(f.value()));
    }
    const QJsonArray removed = rec.value(kRemoved).toArray();
    for (const QJsonValue &v : removed)
        c.removals.append(v.toString());
    c.current = rec.value(kCurrent).toString();
    return c;
}
} // namespace

Journal::Journal(QString path) : m_path(std::move(path)) {}

void Journal::setPath(const QString &path)
{
    QMutexLocker locker(&m_mutex);
    m_path = path;
}

Result<void> Journal::append(QJsonObject record)
{
    if (!record.contains(kAt))
        record.insert(kAt, toIsoUtc(QDateTime::currentDateTimeUtc()));
    const QByteArray line = '\n' + QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n';
    QMutexLocker locker(&m_mutex);
    return writeLines(m_path, line);
}

Result<qint64> Journal::appendCommits(const QList<JournalCommit> &commits)
{
    QByteArray lines("\n");
    const QString at = toIsoUtc(QDateTime::currentDateTimeUtc());
    for (const JournalCommit &c : commits) {
        QJsonArray frames;
        for (const Frame &f : c.upserts)
            frames.append(f.toJson());
        QJsonObject rec {{kOp, kCommit}, {kAt, at}, {kWriter, c.writer}, {kFrames, frames}};
        if (!c.removals.isEmpty())
            rec.insert(kRemoved, QJsonArray::fromStringList(c.removals));
        if (!c.current.isEmpty())
            rec.insert(kCurrent, c.current);
        lines += QJsonDocument(rec).toJson(QJsonDocument::Compact) + '\n';
    }
    QMutexLocker locker(&m_mutex);
    if (Result<void> written = writeLines(m_path, lines); !written)
        return written.error();
    return qint64(lines.size());
}

Journal::Tail Journal::readCommits(const QString &path, qint64 from)
{
    Tail t;
    t.end = from;
    QFile file;
    if (const Result<void> opened = openRegularFile(&file, path); !opened) {
        if (opened.error().kind != ErrorKind::Io)
            t.unsafe = opened.error(); // not a file (a FIFO would block): nothing is read from it
        return t;                      // missing or unreadable: nothing to fold, as before
    }
    if (file.size() < from) {
        t.shrunk = true;
        return t;
    }
    if (!file.seek(from))
        return t;
    const QByteArray data = file.readAll();
    const qsizetype lastNewline = data.lastIndexOf('\n');
    if (lastNewline < 0)
        return t; // nothing complete yet (a write in progress, or a torn line the next write ends)
    t.end = from + lastNewline + 1;
    std::optional<SessionPaths> paths; // made canonical once, at the first commit
    qsizetype pos = 0;
    while (pos <= lastNewline) {
        const qsizetype nl = data.indexOf('\n', pos);
        const QByteArray line = QByteArray::fromRawData(data.constData() + pos, nl - pos);
        pos = nl + 1;
        if (line.trimmed().isEmpty())
            continue;
        // The records appendCommits() writes are read in one pass (QJsonDocument and
        // Frame::fromJson cost ~50 us a record: a tail of a few hundred turns was many ms of
        // every open); anything else is read by the reference path below, with the same result.
        std::optional<JournalCommit> c;
        {
            JournalCommit fast;
            const JournalLine kind = parseCommitLine(line, &fast.writer, &fast.upserts, &fast.removals, &fast.current);
            if (kind == JournalLine::NotCommit) {
                ++t.records;
                continue;
            }
            if (kind == JournalLine::Commit) {
                ++t.records;
                c = std::move(fast);
            }
        }
        if (!c) {
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(line, &pe);
            if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
                ++t.badLines; // a torn write from a crash; the records around it are still good
                continue;
            }
            ++t.records;
            const QJsonObject rec = doc.object();
            if (rec.value(kOp).toString() != kCommit)
                continue;
            c = parseCommit(rec);
            if (!c) {
                ++t.badLines;
                continue;
            }
        }
        // Every path a commit names must stay inside the session, as for the manifest: a
        // crafted journal is refused, never followed out of the folder.
        if (!paths)
            paths.emplace(QFileInfo(path).absolutePath());
        for (const Frame &f : c->upserts) {
            if (const Result<void> inside = paths->check(f, QStringLiteral("journal")); !inside) {
                t.unsafe = Error::make(ErrorKind::Unsafe,
                    QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), inside.error().message));
                return t;
            }
        }
        t.commits.append(std::move(*c));
    }
    return t;
}

Result<void> Journal::beginTurn(const Frame &frame)
{
    return append({{kOp, QStringLiteral("begin")}, {kFrame, frame.toJson()}});
}

Result<void> Journal::recordInteractionId(const QString &frameId, const QString &interactionId)
{
    return append({{kOp, QStringLiteral("id")}, {kFrameId, frameId}, {kInteractionId, interactionId}});
}

Result<void> Journal::endTurn(const Frame &frame)
{
    return append({{kOp, QStringLiteral("end")}, {kFrame, frame.toJson()}});
}

Result<void> Journal::recordFrames(const QList<Frame> &frames)
{
    if (frames.isEmpty())
        return {};
    // The records append() would write, one line each, written together.
    const QString at = toIsoUtc(QDateTime::currentDateTimeUtc());
    QByteArray lines("\n");
    for (const Frame &f : frames) {
        const QJsonObject record {{kOp, QStringLiteral("frame")}, {kFrame, f.toJson()}, {kAt, at}};
        lines += QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n';
    }
    QMutexLocker locker(&m_mutex);
    return writeLines(m_path, lines);
}

Result<void> Journal::recordRemoval(const QStringList &frameIds)
{
    return append({{kOp, QStringLiteral("remove")}, {kIds, QJsonArray::fromStringList(frameIds)}});
}

QList<QJsonObject> Journal::readAll(const QString &path, int *badLines, std::optional<Error> *notAFile)
{
    QList<QJsonObject> records;
    int bad = 0;
    QFile file;
    const Result<void> opened = openRegularFile(&file, path); // a FIFO would block, a device never end
    if (!opened && opened.error().kind != ErrorKind::Io && notAFile)
        *notAFile = opened.error(); // Io: missing or unreadable, which reads as no records
    if (opened) {
        const QByteArray all = file.readAll();
        const QList<QByteArray> lines = all.split('\n');
        for (const QByteArray &raw : lines) {
            const QByteArray line = raw.trimmed();
            if (line.isEmpty())
                continue;
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(line, &pe);
            if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
                ++bad; // a torn write from a crash; the records around it are still good
                continue;
            }
            records.append(doc.object());
        }
    }
    if (badLines)
        *badLines = bad;
    return records;
}

Journal::Replay Journal::replay(const QString &path)
{
    Replay r;
    const QList<QJsonObject> records = readAll(path, &r.badLines, &r.notAFile);
    r.records = records.size();
    auto see = [&r](const QString &id) {
        if (!r.frames.contains(id) && !r.order.contains(id))
            r.order.append(id);
    };
    for (const QJsonObject &rec : records) {
        const QString op = rec.value(kOp).toString();
        if (!r.firstAt.isValid())
            r.firstAt = fromIsoUtc(rec.value(kAt).toString());
        if (op == QLatin1String("begin") || op == QLatin1String("end") || op == QLatin1String("frame")) {
            const Result<Frame> parsed = Frame::fromJson(rec.value(kFrame).toObject());
            if (!parsed)
                continue;
            Frame f = parsed.value();
            see(f.id);
            if (op == QLatin1String("begin")) {
                // A new attempt: only an id learned after this record belongs to it.
                r.openTurns.insert(f.id);
                r.interactionIds.remove(f.id);
            } else if (f.interactionId.isEmpty() && f.isPending() && r.interactionIds.contains(f.id)) {
                // A snapshot written before the id record must not erase the id learned meanwhile.
                f.interactionId = r.interactionIds.value(f.id);
            }
            if (op == QLatin1String("end"))
                r.openTurns.remove(f.id);
            if (!f.interactionId.isEmpty())
                r.interactionIds.insert(f.id, f.interactionId);
            r.frames.insert(f.id, f);
            r.removed.remove(f.id);
            r.lastFrameId = f.id;
        } else if (op == QLatin1String("id")) {
            const QString fid = rec.value(kFrameId).toString();
            const QString iid = rec.value(kInteractionId).toString();
            if (fid.isEmpty() || iid.isEmpty())
                continue;
            r.interactionIds.insert(fid, iid);
            if (r.frames.contains(fid) && r.frames[fid].isPending())
                r.frames[fid].interactionId = iid;
        } else if (op == kCommit) {
            const std::optional<JournalCommit> c = parseCommit(rec);
            if (!c)
                continue;
            for (const Frame &f : c->upserts) {
                see(f.id);
                if (!f.interactionId.isEmpty())
                    r.interactionIds.insert(f.id, f.interactionId);
                r.frames.insert(f.id, f);
                r.removed.remove(f.id);
                r.lastFrameId = f.id;
            }
            for (const QString &id : c->removals) {
                r.removed.insert(id);
                r.frames.remove(id);
                r.openTurns.remove(id);
                r.order.removeAll(id);
            }
            if (!c->current.isEmpty())
                r.current = c->current;
        } else if (op == QLatin1String("remove")) {
            const QJsonArray ids = rec.value(kIds).toArray();
            for (const QJsonValue &v : ids) {
                r.removed.insert(v.toString());
                r.frames.remove(v.toString());
                r.openTurns.remove(v.toString());
                r.order.removeAll(v.toString());
            }
        }
    }
    return r;
}

} // namespace nb2
