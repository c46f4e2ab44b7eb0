#pragma once

#include "core/common/error.h"
#include "core/session/replayqueue.h"

#include <QList>
#include <QObject>
#include <QString>

#include <deque>
#include <functional>
#include <mutex>

class QThreadPool;

namespace nb2 {

/**
 * Writes a replay's record (<session>/replay/<id>.json, saveReplayState: temp file, fsync,
 * rename) on its own thread, so a step change never makes the GUI thread wait for a disk
 * (under four photo imports' fsyncs one record write took up to 40 ms). One writer thread
 * writes the states in the order they were saved; a state queued while an older one is being
 * written replaces any other state still waiting for the same folder (the newest wins: it
 * holds everything the older one did), so a burst of step changes costs one or two writes and
 * an older state is never written after a newer one. Every save() gets a number; settledUpTo(n)
 * tells the GUI thread that the write of state n (or of a newer one that replaced it) has
 * ended, failed() why one could not be written. flush() (and the destructor) wait for every
 * queued write, so a closed runner, a finished run and another session's open find the latest
 * record on disk. Lives on the GUI thread; its signals come on it.
 */
class ReplayRecordWriter : public QObject
{
    Q_OBJECT

public:
    /** Writes one state into sessionDir (saveReplayState unless a test put another in). */
    using SaveFunction = std::function<Result<void>(const QString &sessionDir, const ReplayState &state)>;

    explicit ReplayRecordWriter(QObject *parent = nullptr);
    ~ReplayRecordWriter() override; // flush()es: nothing saved is lost

    /** Queues the state for sessionDir and returns at once; its number (1, 2, ...: later saves, higher numbers). */
    quint64 save(const QString &sessionDir, const ReplayState &state);
    /** Waits until every queued state is written (or failed) and emits their signals before it returns. */
    void flush();
    /** The newest number settled (written, failed or replaced by a newer state that was written); 0: none yet. */
    quint64 settled() const { return m_settled; }
    /** A test seam (a slow or failing disk): the function every later write goes through. */
    void setSaveFunction(SaveFunction save);

Q_SIGNALS:
    /** Every state numbered up to `number` is settled. */
    void settledUpTo(quint64 number);
    /** A state could not be written (a full disk, a folder that is a symbolic link...): why, readable. */
    void failed(const nb2::Error &error);

private:
    struct Queued {
        QString sessionDir;
        ReplayState state;
        quint64 number = 0;
    };
    struct Outcome {
        quint64 number = 0;
        Result<void> result;
    };

    void drain();   // the writer thread: writes what is queued, oldest first, until nothing is
    void deliver(); // the GUI thread: reports what the writer thread finished

    QThreadPool *m_thread = nullptr; // one thread: the writes' order is the saves' order
    quint64 m_lastNumber = 0;        // GUI thread only
    quint64 m_settled = 0;           // GUI thread only

    std::mutex m_mutex; // guards what follows: shared with the writer thread
    std::deque<Queued> m_queue;
    QList<Outcome> m_outcomes;
    bool m_draining = false;
    SaveFunction m_save;
};

} // namespace nb2
