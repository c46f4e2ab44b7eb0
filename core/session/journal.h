#pragma once

#include "core/session/frame.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMutex>
#include <QSet>
#include <QString>

namespace nb2 {

/**
 * The session's append-only request journal (journal.jsonl, one JSON object per line). A
 * "begin" record (with the full pending frame) is appended and fsync'ed before a request is
 * sent, an "id" record as soon as streaming reveals the interaction id, an "end" record
 * (with the final frame) after the manifest has the result, and "frame" records for other
 * frame changes. It is what recovery and rebuild read when the manifest is behind or broken.
 * Appends are serialised in-process by a mutex and are single O_APPEND writes across
 * processes; a torn last line (crash mid-write) is skipped when reading. Thread-safe.
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
    Result<void> recordFrame(const Frame &frame);
    Result<void> recordRemoval(const QStringList &frameIds);

    /** Appends one record ("op" and "at" are added when missing), flushed and fsync'ed. */
    Result<void> append(QJsonObject record);

    /** What the journal says, folded: the last known state of each frame and each frame's latest interaction id. */
    struct Replay {
        QList<QString> order;                   // frame ids in first-seen order
        QHash<QString, Frame> frames;           // latest snapshot per frame (begin/end/frame records)
        QHash<QString, QString> interactionIds; // latest id per frame ("id" records and snapshots)
        QSet<QString> openTurns;                // begun, not ended
        QSet<QString> removed;                  // removed for good (empty trash)
        int records = 0;
        int badLines = 0;                       // unparsable lines (torn writes), skipped
        QDateTime firstAt;                      // when the first record was written (the session's start, at the latest)
        QString lastFrameId;                    // the frame of the last frame record (what the user worked on last)
    };
    static Replay replay(const QString &path);
    static QList<QJsonObject> readAll(const QString &path, int *badLines = nullptr);

private:
    QString m_path;
    QMutex m_mutex;
};

} // namespace nb2
