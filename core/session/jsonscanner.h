#pragma once

// The byte-level JSON scanner of the manifest's single-pass reader (manifestparse.cpp):
// strict JSON (RFC 8259) over UTF-8 bytes, no tree built. Internal to core/session.

#include <QString>

#include <charconv>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace nb2::manifestdetail {

/** Strict UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF). */
inline bool validUtf8(const unsigned char *s, qsizetype n)
{
    for (qsizetype i = 0; i < n;) {
        const unsigned char c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        int extra = 0;
        char32_t cp = 0, min = 0;
        if ((c & 0xE0) == 0xC0) {
            extra = 1, cp = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2, cp = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return false;
        }
        if (i + extra >= n)
            return false;
        for (int k = 1; k <= extra; ++k) {
            const unsigned char d = s[i + k];
            if ((d & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += extra + 1;
    }
    return true;
}

/**
 * The single-pass reader. Each read returns Ok, Other (valid JSON the fast path does not
 * handle: the caller lets QJsonDocument read it) or Bad (not valid JSON: the whole text goes
 * to parseManifestDom() for its exact error).
 */
class Reader
{
public:
    enum Status { Ok, Other, Bad };

    Reader(const char *begin, const char *end) : m_p(begin), m_end(end) {}

    const char *pos() const { return m_p; }
    void seek(const char *p) { m_p = p; }
    bool atEnd()
    {
        ws();
        return m_p == m_end;
    }

    void ws()
    {
        // The usual case (called before every token): no white space at all. Inline; the rest not.
        if (m_p < m_end && static_cast<unsigned char>(*m_p) <= ' ') {
            // The next most usual: the one space after a key's ':' (indented text).
            if (*m_p == ' ' && m_end - m_p >= 2 && static_cast<unsigned char>(m_p[1]) > ' ')
                ++m_p;
            else
                skipSpace();
        }
    }
    Q_NEVER_INLINE void skipSpace()
    {
#if defined(__SSE2__)
        // A checkpoint is indented: a line break and 12 to 20 spaces before most keys, a fifth
        // of the parse byte by byte. A run of two or more is skipped 16 bytes at a time.
        if (m_end - m_p >= 17 && isSpace(m_p[0]) && isSpace(m_p[1])) {
            const __m128i space = _mm_set1_epi8(' '), lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
                          tab = _mm_set1_epi8('\t');
            while (m_end - m_p >= 16) {
                const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(m_p));
                const __m128i white = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, lf)),
                    _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, tab)));
                const unsigned other = ~unsigned(_mm_movemask_epi8(white)) & 0xffffu;
                if (other) {
                    m_p += __builtin_ctz(other);
                    return;
                }
                m_p += 16;
            }
        }
#endif
        while (m_p < m_end && isSpace(*m_p))
            ++m_p;
    }
    static bool isSpace(char c)
    {
        return static_cast<unsigned char>(c) <= ' ' && (c == ' ' || c == '\n' || c == '\r' || c == '\t');
    }
    bool eat(char c)
    {
        ws();
        if (m_p < m_end && *m_p == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    char peek()
    {
        ws();
        return m_p < m_end ? *m_p : '\0';
    }

    /**
     * A string at the cursor. Without escapes its raw bytes are s and n (plain = true); with
     * escapes they are decoded into *decoded (plain = false). Other: an escape that makes a
     * UTF-16 surrogate (QJsonDocument's own business).
     */
    Status string(const char **s, qsizetype *n, bool *plain, QString *decoded)
    {
        if (!eat('"'))
            return Bad;
        const char *start = m_p;
        bool high = false;
#if defined(__SSE2__)
        // 16 bytes at a time up to the first quote, backslash or control character (a
        // checkpoint is mostly string bytes: hashes, ids, prompts); the loop below takes it
        // from there, as it takes every byte without SSE2.
        const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
        while (m_end - m_p >= 16) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(m_p));
            const int highBytes = _mm_movemask_epi8(v); // bytes >= 0x80
            // Signed: bytes >= 0x80 are negative and also "below 0x20"; they are masked out.
            const int control = _mm_movemask_epi8(_mm_cmplt_epi8(v, space)) & ~highBytes;
            const int stop
                = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash))) | control;
            if (stop == 0) {
                high |= highBytes != 0;
                m_p += 16;
                continue;
            }
            const int k = __builtin_ctz(unsigned(stop));
            high |= (highBytes & ((1 << k) - 1)) != 0;
            m_p += k;
            break;
        }
#endif
        while (m_p < m_end) {
            const unsigned char c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                if (high && !validUtf8(reinterpret_cast<const unsigned char *>(start), m_p - start))
                    return Bad;
                *s = start;
                *n = m_p - start;
                *plain = true;
                ++m_p;
                return Ok;
            }
            if (c == '\\') {
                m_p = start;
                *plain = false;
                return escapedString(decoded);
            }
            if (c < 0x20)
                return Bad;
            high |= c >= 0x80;
            ++m_p;
        }
        return Bad;
    }

    /** A string as a QString. */
    Status qstring(QString *out)
    {
        const char *s = nullptr;
        qsizetype n = 0;
        bool plain = true;
        const Status st = string(&s, &n, &plain, out);
        if (st == Ok && plain)
            *out = QString::fromUtf8(s, n);
        return st;
    }

    /** An integer literal (no fraction, no exponent, at most 15 digits); Other for any other number. */
    Status integer(qint64 *out)
    {
        ws();
        const char *start = m_p;
        if (const Status st = number(); st != Ok)
            return st;
        const char *q = start;
        const bool negative = *q == '-';
        if (negative)
            ++q;
        if (m_p - q > 15)
            return Other;
        qint64 v = 0;
        for (; q < m_p; ++q) {
            if (*q < '0' || *q > '9')
                return Other; // a fraction or an exponent
            v = v * 10 + (*q - '0');
        }
        *out = negative ? -v : v;
        return Ok;
    }

    /**
     * A number as a double, correctly rounded as QJsonDocument reads it (std::from_chars, which
     * no locale changes); Other for one out of double's range.
     */
    Status real(double *out)
    {
        ws();
        const char *start = m_p;
        if (const Status st = number(); st != Ok)
            return st;
        const std::from_chars_result r = std::from_chars(start, m_p, *out);
        if (r.ec != std::errc() || r.ptr != m_p)
            return Other;
        // QJsonValue keeps a whole number as an integer: "-0" and "-0.0" read as 0, not -0.0.
        if (*out == 0)
            *out = 0;
        return Ok;
    }

    Status boolean(bool *out)
    {
        ws();
        if (m_end - m_p >= 4 && std::memcmp(m_p, "true", 4) == 0) {
            m_p += 4;
            *out = true;
            return Ok;
        }
        if (m_end - m_p >= 5 && std::memcmp(m_p, "false", 5) == 0) {
            m_p += 5;
            *out = false;
            return Ok;
        }
        return skip(0) ? Other : Bad;
    }

    /** Any JSON value, checked and passed over. */
    bool skip(int depth)
    {
        if (depth > 500)
            return false; // QJsonDocument stops at 1024 levels; let it say so
        switch (peek()) {
        case '"': {
            const char *s = nullptr;
            qsizetype n = 0;
            bool plain = true;
            QString ignored;
            return string(&s, &n, &plain, &ignored) != Bad;
        }
        case '{':
            ++m_p;
            if (eat('}'))
                return true;
            do {
                if (peek() != '"' || !skip(depth + 1) || !eat(':') || !skip(depth + 1))
                    return false;
            } while (eat(','));
            return eat('}');
        case '[':
            ++m_p;
            if (eat(']'))
                return true;
            do {
                if (!skip(depth + 1))
                    return false;
            } while (eat(','));
            return eat(']');
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default:
            return number() == Ok;
        }
    }

private:
    bool literal(const char *word)
    {
        const qsizetype n = qsizetype(std::strlen(word));
        if (m_end - m_p < n || std::memcmp(m_p, word, size_t(n)) != 0)
            return false;
        m_p += n;
        return true;
    }

    static bool digit(char c)
    {
        return c >= '0' && c <= '9';
    }

    /** -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
    Status number()
    {
        ws();
        const char *p = m_p;
        if (p < m_end && *p == '-')
            ++p;
        if (p >= m_end || !digit(*p))
            return Bad;
        if (*p == '0')
            ++p;
        else
            while (p < m_end && digit(*p))
                ++p;
        if (p < m_end && *p == '.') {
            ++p;
            if (p >= m_end || !digit(*p))
                return Bad;
            while (p < m_end && digit(*p))
                ++p;
        }
        if (p < m_end && (*p == 'e' || *p == 'E')) {
            ++p;
            if (p < m_end && (*p == '+' || *p == '-'))
                ++p;
            if (p >= m_end || !digit(*p))
                return Bad;
            while (p < m_end && digit(*p))
                ++p;
        }
        m_p = p;
        return Ok;
    }

    static int hex(char c)
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    }

    /** The string at m_p (just after its quote) holds escapes: decode it. */
    Status escapedString(QString *out)
    {
        out->clear();
        bool other = false;
        const char *run = m_p;
        auto flush = [&](const char *until) {
            if (until == run)
                return true;
            if (!validUtf8(reinterpret_cast<const unsigned char *>(run), until - run))
                return false;
            out->append(QString::fromUtf8(run, until - run));
            return true;
        };
        while (m_p < m_end) {
            const unsigned char c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                if (!flush(m_p))
                    return Bad;
                ++m_p;
                return other ? Other : Ok;
            }
            if (c < 0x20)
                return Bad;
            if (c != '\\') {
                ++m_p;
                continue;
            }
            if (!flush(m_p) || m_end - m_p < 2)
                return Bad;
            const char e = m_p[1];
            m_p += 2;
            switch (e) {
            case '"':
            case '\\':
            case '/':
                out->append(QLatin1Char(e));
                break;
            case 'b':
                out->append(QLatin1Char('\b'));
                break;
            case 'f':
                out->append(QLatin1Char('\f'));
                break;
            case 'n':
                out->append(QLatin1Char('\n'));
                break;
            case 'r':
                out->append(QLatin1Char('\r'));
                break;
            case 't':
                out->append(QLatin1Char('\t'));
                break;
            case 'u': {
                if (m_end - m_p < 4)
                    return Bad;
                int v = 0;
                for (int k = 0; k < 4; ++k) {
                    const int h = hex(m_p[k]);
                    if (h < 0)
                        return Bad;
                    v = v * 16 + h;
                }
                m_p += 4;
                if (v >= 0xD800 && v <= 0xDFFF)
                    other = true; // pairs and lone halves: as QJsonDocument reads them
                else
                    out->append(QChar(char16_t(v)));
                break;
            }
            default:
                return Bad;
            }
            run = m_p;
        }
        return Bad;
    }

    const char *m_p;
    const char *m_end;
};

} // namespace nb2::manifestdetail
