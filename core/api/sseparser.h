#pragma once

#include <QByteArray>
#include <QList>

namespace nb2 {

/** One server-sent event: the `event:` name, the joined `data:` lines and the last `id:`. */
struct SseEvent {
    QByteArray event;
    QByteArray data;
    QByteArray id;
};

/**
 * Incremental text/event-stream parser (WHATWG framing as the SDK reads it): CRLF, LF or CR
 * line ends, multi-line data joined with '\n', ':' comments skipped, split anywhere across
 * feed() calls. It only frames; the meaning of the events belongs to StreamAssembler.
 */
class SseParser
{
public:
    /** Returns the events completed by this chunk, in order. */
    QList<SseEvent> feed(const QByteArray &chunk);
    /** Flushes an event that the stream ended without a blank line after. */
    QList<SseEvent> finish();

private:
    void processLine(const QByteArray &line, QList<SseEvent> &out);
    void dispatch(QList<SseEvent> &out);

    QByteArray m_buffer;
    bool m_lastWasCR = false;
    SseEvent m_current;
    bool m_hasData = false;
    QByteArray m_lastId;
};

} // namespace nb2
