#pragma once

#include "core/common/error.h"
#include "core/session/frame.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMutex>
#include <QSet>
#include <QString>
#include <optional>

namespace nb2 {

/**
 * One change of the session's frame table as the journal records it ("commit" record): the
 * frames as they now are, the frames removed for good, the new current frame. The write path of
 * the session (see SessionStore): manifest.json is only a checkpoint of these.
 */
struct JournalCommit {
    QString writer; // the SessionStore instance that wrote it (tells ours from another process's)
    QList<Frame> upserts;
    QStringList removals;
    QString current; // empty: unchanged
};

/**
 * The session's append-only journal (journal.jsonl, one JSON object per line). "commit"
 * records carry every change of the frame table (SessionStore's write path). A
 * "begin" record (with the full pending frame) is appended and fsync'ed before a request is
 * sent, an "id" record as soon as streaming reveals the interaction id, an "end" record
 * (with the final frame) after the manifest has the result, and "frame" records for other
 * frame changes. It is what recovery and rebuild read when the manifest is behind or broken.
 * Appends are serialised in-process by a mutex and are single O_APPEND writes across
 * processes, each starting with a newline, so a torn last line (crash mid-write) is ended by the
 * next write and skipped when reading, never glued to a good record. Thread-safe.
 */
class Journal
{
public:
    explicit Journal(QString path = {});

    QString path() const { return m_path; }
    void setPath(const QString &path);

    Result<void> beginTurn(const Frame &frame);
    Result<void> recordInteractionId(const QString &frameId, const QString &interactionId);
    Result<void> endTurn(const Frame &frame);
    /** "frame" records of these frames, in one write (fdatasync'ed once). */
    Result<void> recordFrames(const QList<Frame> &frames);
    Result<void> recordRemoval(const QStringList &frameIds);

    /** Appends one record ("op" and "at" are added when missing), flushed and fsync'ed. */
    Result<void> append(QJsonObject record);
    /** Appends the commit records for these changes in one write, fdatasync'ed; the bytes written. */
    Result<qint64> appendCommits(const QList<JournalCommit> &commits);

    /** The commit records from byte offset `from` to the last complete line. */
    struct Tail {
        QList<JournalCommit> commits;
        qint64 end = 0;  // offset just after the last complete line read
        int records = 0; // complete records of any kind
        int badLines = 0;
        bool shrunk = false; // the file is shorter than `from`: it was replaced
        // A commit names a path outside the session (reading stopped there), or the journal is
        // not a regular file (nothing was read).
        std::optional<Error> unsafe;
    };
    static Tail readCommits(const QString &path, qint64 from);

    /** What the journal says, folded: the last known state of each frame and each frame's latest interaction id. */
    struct Replay {
        QList<QString> order;                   // frame ids in first-seen order
        QHash<QString, Frame> frames;           // latest snapshot per frame (begin/end/frame records)
        QHash<QString, QString> interactionIds; // latest id per frame ("id" records and snapshots)
        QSet<QString> openTurns;                // begun, not ended
        QSet<QString> removed;                  // removed for good (empty trash)
        QString current;                        // the last current frame a commit record named
        int records = 0;
        int badLines = 0;              // unparsable lines (torn writes), skipped
        QDateTime firstAt;             // when the first record was written (the session's start, at the latest)
        QString lastFrameId;           // the frame of the last frame record (what the user worked on last)
        std::optional<Error> notAFile; // the journal is there but is no regular file: nothing was read
    };
    static Replay replay(const QString &path);
    /** Every record; a missing journal has none. notAFile: set when it is a FIFO, folder, device. */
    static QList<QJsonObject> readAll(
        const QString &path, int *badLines = nullptr, std::optional<Error> *notAFile = nullptr);

private:
    QString m_path;
    QMutex m_mutex;
};

} // namespace nb2
