#include "core/api/responsedocument.h"

#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace nb2::apidetail {

namespace {

using json = nlohmann::json;

// Shorter strings are left to the parser: cutting them saves nothing worth the bookkeeping.
constexpr size_t kCutMinBytes = 4096;

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/** Whether any of the 8 bytes in w is a quote, a backslash, a control byte or not printable
 *  ASCII: the bytes that end a plain run inside a JSON string (SWAR, exact for "any"). */
bool hasSpecialByte(std::uint64_t w)
{
    constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    const auto hasZero = [](std::uint64_t v) { return (v - ones) & ~v & highs; };
    const std::uint64_t quote = hasZero(w ^ (ones * '"'));
    const std::uint64_t backslash = hasZero(w ^ (ones * '\\'));
    const std::uint64_t control = (w - ones * 0x20) & ~w & highs;           // a byte < 0x20
    const std::uint64_t nonAscii = ((w + ones * (127 - 0x7e)) | w) & highs; // a byte > 0x7e
    return (quote | backslash | control | nonAscii) != 0;
}

/** Puts the cut strings back where their stand-ins ("\0" + index) are. Iterative: the tree may be
 *  deep. With keepData, a stand-in that is the value of a "data" key stays (see parseJson). */
void restoreCuts(json &doc, const std::vector<std::string_view> &cuts, bool keepData)
{
    size_t left = cuts.size();
    std::vector<std::pair<json *, bool>> stack {{&doc, false}};
    while (!stack.empty() && left > 0) {
        const auto [node, isData] = stack.back();
        stack.pop_back();
        if (node->is_string()) {
            const std::string &text = node->get_ref<const std::string &>();
            if (text.empty() || text.front() != '\0')
                continue;
            --left;
            if (!(keepData && isData))
                *node = std::string(cuts.at(std::stoul(text.substr(1))));
        } else if (node->is_object()) {
            for (auto &[key, child] : node->items())
                stack.emplace_back(&child, key == "data");
        } else if (node->is_array()) {
            for (json &child : *node)
                stack.emplace_back(&child, false);
        }
    }
}

} // namespace

std::string_view keptString(const std::string &value, const std::vector<std::string_view> *kept)
{
    // Only parseJson's stand-ins start with NUL when anything was kept: text holding an escaped
    // NUL is never cut (see parseJson), so no real string value can look like one then.
    if (kept && !kept->empty() && !value.empty() && value.front() == '\0')
        return kept->at(std::stoul(value.substr(1)));
    return value;
}

json parseJson(const char *begin, const char *end, std::vector<std::string_view> *kept)
{
    const std::string_view text(begin, size_t(end - begin));
    if (text.size() < kCutMinBytes || text.find("\\u0000") != std::string_view::npos)
        return json::parse(begin, end, nullptr, false);
    // Walk the strings the way the JSON lexer pairs quotes: outside a string a quote opens
    // one; inside, a backslash escapes the next byte and a quote closes it.
    std::string skeleton;
    std::vector<std::string_view> cuts;
    const char *copied = begin;
    const char *p = begin;
    while (p < end) {
        const char *open = static_cast<const char *>(std::memchr(p, '"', size_t(end - p)));
        if (!open)
            break;
        bool plain = true;
        const char *close = open + 1;
        while (close < end) {
            // Eight bytes at a time through plain runs (base64): the byte loop below took ~0.5 ms
            // per 1.4 MB answer. A word holding any special byte goes through the byte loop.
#ifdef __SSE2__
            // Sixteen at a time where SSE2 is there (every x86-64): signed, every byte >= 0x80 is
            // below 0x20 too, so "< 0x20 or == 0x7f" is "a control byte or not printable ASCII".
            if (end - close >= 16) {
                const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(close));
                const __m128i special = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                    _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f))));
                if (_mm_movemask_epi8(special) == 0) {
                    close += 16;
                    continue;
                }
            }
#endif
            if (end - close >= 8) {
                std::uint64_t word;
                std::memcpy(&word, close, 8);
                if (!hasSpecialByte(word)) {
                    close += 8;
                    continue;
                }
            }
            const unsigned char c = static_cast<unsigned char>(*close);
            if (c == '"')
                break;
            if (c == '\\') {
                plain = false;
                ++close;
            } else if (c < 0x20 || c > 0x7e) {
                plain = false;
            }
            ++close;
        }
        if (close >= end)
            break; // unterminated: the parser reports it
        const size_t length = size_t(close - open - 1);
        if (plain && length >= kCutMinBytes) {
            const char *after = close + 1;
            while (after < end && isJsonSpace(*after))
                ++after;
            if (after == end || *after != ':') { // a value, never a key
                if (skeleton.empty())
                    skeleton.reserve(size_t(end - begin) / 8 + 256);
                skeleton.append(copied, open + 1);
                skeleton += "\\u0000";
                skeleton += std::to_string(cuts.size());
                cuts.emplace_back(open + 1, length);
                copied = close; // the closing quote is copied with what follows
            }
        }
        p = close + 1;
    }
    if (cuts.empty())
        return json::parse(begin, end, nullptr, false);
    skeleton.append(copied, end);
    json doc = json::parse(skeleton, nullptr, false);
    if (!doc.is_discarded())
        restoreCuts(doc, cuts, kept != nullptr);
    if (kept)
        *kept = std::move(cuts);
    return doc;
}

} // namespace nb2::apidetail
