#include "core/api/responsedocument.h"

#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace nb2::apidetail {

namespace {

using json = nlohmann::json;

// Shorter strings are left to the parser: cutting them saves nothing worth the bookkeeping.
constexpr size_t kCutMinBytes = 4096;

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/** Puts the cut strings back where their stand-ins ("\0" + index) are. Iterative: the tree may be deep. */
void restoreCuts(json &doc, const std::vector<std::string_view> &cuts)
{
    size_t left = cuts.size();
    std::vector<json *> stack {&doc};
    while (!stack.empty() && left > 0) {
        json *node = stack.back();
        stack.pop_back();
        if (node->is_string()) {
            const std::string &text = node->get_ref<const std::string &>();
            if (text.empty() || text.front() != '\0')
                continue;
            const size_t index = std::stoul(text.substr(1));
            *node = std::string(cuts.at(index));
            --left;
        } else if (node->is_structured()) {
            for (json &child : *node)
                stack.push_back(&child);
        }
    }
}

} // namespace

json parseJson(const char *begin, const char *end)
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
        for (; close < end; ++close) {
            const unsigned char c = static_cast<unsigned char>(*close);
            if (c == '"')
                break;
            if (c == '\\') {
                plain = false;
                ++close;
            } else if (c < 0x20 || c > 0x7e) {
                plain = false;
            }
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
        restoreCuts(doc, cuts);
    return doc;
}

} // namespace nb2::apidetail
