#pragma once

// Internal to the session layer's readers (manifestparse.cpp): one frame object read in a single
// pass over its bytes, exactly as Frame::fromJson reads what Frame::toJson writes.

#include "core/session/frame.h"
#include "core/session/framesource.h"
#include "core/session/jsonscanner.h"

#include <QByteArray>
#include <QString>

#include <cstring>

namespace nb2::manifestdetail {

/** Strings that repeat from frame to frame (model, MIME type, ratio) shared instead of copied. */
class Interned
{
public:
    const QString &get(const char *s, qsizetype n)
    {
        if (n != m_bytes.size() || std::memcmp(s, m_bytes.constData(), size_t(n)) != 0) {
            m_bytes = QByteArray(s, n);
            m_value = QString::fromUtf8(s, n);
        }
        return m_value;
    }

private:
    QByteArray m_bytes;
    QString m_value;
};

struct Interns {
    Interned model, aspect, thinking, mime, origin, driftMeasure;
};

/** The n bytes at s are exactly the NUL-terminated literal. */
bool sameBytes(const char *s, qsizetype n, const char *literal);

/**
 * One frame object at the cursor, as Frame::fromJson would read it; Other when it holds
 * anything toJson() does not write (then nothing is kept and the caller rereads it).
 */
Reader::Status readFrame(Reader &r, Interns &interns, Frame *f);
/**
 * The same object read and checked exactly as readFrame() reads it, keeping only its node
 * (FrameNode's fields but its byte range, which the caller knows). Ok here means readFrame()
 * gives Ok for the same bytes: that is what lets a graph build the frame later.
 */
Reader::Status readFrameNode(Reader &r, Interns &interns, FrameNode *node);

} // namespace nb2::manifestdetail
