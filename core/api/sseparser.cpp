#include "core/api/sseparser.h"

namespace nb2 {

QList<SseEvent> SseParser::feed(const QByteArray &chunk)
{
    QList<SseEvent> out;
    // Whole runs between line ends are appended at once: an image event is one ~1.3 MB line,
    // and appending it byte by byte was a visible share of a turn's CPU.
    const char *p = chunk.constData();
    const char *const end = p + chunk.size();
    while (p < end) {
        if (m_lastWasCR) {
            m_lastWasCR = false;
            if (*p == '\n') {
                ++p; // the LF of a CRLF pair
                continue;
            }
        }
        const char *lineEnd = p;
        while (lineEnd < end && *lineEnd != '\r' && *lineEnd != '\n')
            ++lineEnd;
        m_buffer.append(p, lineEnd - p);
        if (lineEnd == end)
            break;
        m_lastWasCR = (*lineEnd == '\r');
        processLine(m_buffer, out);
        m_buffer.clear();
        p = lineEnd + 1;
    }
    return out;
}

QList<SseEvent> SseParser::finish()
{
    QList<SseEvent> out;
    if (!m_buffer.isEmpty()) {
        processLine(m_buffer, out);
        m_buffer.clear();
    }
    dispatch(out);
    return out;
}

void SseParser::processLine(const QByteArray &line, QList<SseEvent> &out)
{
    if (line.isEmpty()) {
        dispatch(out);
        return;
    }
    if (line.startsWith(':'))
        return; // comment / keep-alive
    const qsizetype colon = line.indexOf(':');
    QByteArray field = colon < 0 ? line : line.left(colon);
    // One copy of the value (an image event's is ~1.3 MB), without the optional leading space.
    const qsizetype valueAt
        = colon < 0 ? line.size() : colon + 1 + (line.size() > colon + 1 && line.at(colon + 1) == ' ');
    QByteArray value = line.mid(valueAt);
    if (field == "event") {
        m_current.event = value;
    } else if (field == "data") {
        if (m_hasData)
            m_current.data.append('\n');
        m_current.data.append(value);
        m_hasData = true;
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_lastId = value;
    }
    // "retry" and unknown fields are ignored.
}

void SseParser::dispatch(QList<SseEvent> &out)
{
    if (m_hasData) {
        m_current.id = m_lastId;
        out.append(m_current);
    }
    m_current = SseEvent();
    m_hasData = false;
}

} // namespace nb2
