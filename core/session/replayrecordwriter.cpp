#include "core/session/replayrecordwriter.h"

#include <QThreadPool>

namespace nb2 {

ReplayRecordWriter::ReplayRecordWriter(QObject *parent)
    : QObject(parent), m_thread(new QThreadPool(this)), m_save(saveReplayState)
{
    m_thread->setMaxThreadCount(1);
}

ReplayRecordWriter::~ReplayRecordWriter()
{
    flush();
}

void ReplayRecordWriter::setSaveFunction(SaveFunction save)
{
    std::lock_guard lock(m_mutex);
    m_save = save ? std::move(save) : SaveFunction(saveReplayState);
}

quint64 ReplayRecordWriter::save(const QString &sessionDir, const ReplayState &state)
{
    const quint64 number = ++m_lastNumber;
    bool startDrain = false;
    {
        std::lock_guard lock(m_mutex);
        // The state waiting behind the write in progress is replaced, not queued after: what it
        // held is in the newer one. (A state of another folder stays: each folder gets its latest.)
        if (!m_queue.empty() && m_queue.back().sessionDir == sessionDir)
            m_queue.back() = Queued {sessionDir, state, number};
        else
            m_queue.push_back(Queued {sessionDir, state, number});
        startDrain = !std::exchange(m_draining, true);
    }
    if (startDrain)
        m_thread->start([this] { drain(); });
    return number;
}

void ReplayRecordWriter::drain()
{
    for (;;) {
        Queued next;
        SaveFunction save;
        {
            std::lock_guard lock(m_mutex);
            if (m_queue.empty()) {
                m_draining = false;
                return;
            }
            next = std::move(m_queue.front());
            m_queue.pop_front();
            save = m_save;
        }
        // The JSON is made here too: serialising a long run's record is no work for the GUI thread.
        Result<void> result = save(next.sessionDir, next.state);
        {
            std::lock_guard lock(m_mutex);
            m_outcomes.append(Outcome {next.number, std::move(result)});
        }
        // The destructor waits for this thread before the object goes: `this` is alive here,
        // and a queued call still pending then is dropped with the object (flush() delivered it).
        QMetaObject::invokeMethod(this, &ReplayRecordWriter::deliver, Qt::QueuedConnection);
    }
}

void ReplayRecordWriter::flush()
{
    m_thread->waitForDone();
    deliver();
}

void ReplayRecordWriter::deliver()
{
    QList<Outcome> outcomes;
    {
        std::lock_guard lock(m_mutex);
        outcomes.swap(m_outcomes);
    }
    if (outcomes.isEmpty())
        return;
    for (const Outcome &o : std::as_const(outcomes)) {
        if (!o.result)
            Q_EMIT failed(o.result.error());
    }
    m_settled = qMax(m_settled, outcomes.last().number);
    Q_EMIT settledUpTo(m_settled);
}

} // namespace nb2
