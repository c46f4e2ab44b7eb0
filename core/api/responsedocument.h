// Internal to core/api: the parsed-document forms of the response parser, so that the stream
// assembler hands its assembled interaction over as a tree instead of serialising it and
// having it parsed again, and both read a megabyte-sized answer without lexing its base64
// character by character. Included only by core/api's own sources (nlohmann stays private).
#pragma once

#include "core/api/interaction.h"
#include "core/common/error.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace nb2::apidetail {

/**
 * json::parse(begin, end, nullptr, false) (a discarded value when the text is not JSON), only
 * faster on answers that carry images: every string value of 4 KB or more made of printable
 * ASCII without escapes (base64 data) is cut out before parsing and put back into the tree
 * afterwards, so the JSON lexer never walks it byte by byte. The result is the same tree
 * json::parse gives for the same text: such a string's JSON value is its bytes, and the text
 * around it is parsed as it is. Text that contains an escaped NUL (\u0000, which the stand-ins
 * use) is parsed the ordinary way.
 *
 * With kept, a cut string that is the value of a "data" key (image data) is not copied back:
 * it stays as its stand-in and *kept gets the views of the cut strings, to be read through
 * keptString() while the text [begin, end) is alive. The tree then differs from json::parse's
 * only in those values.
 */
nlohmann::json parseJson(const char *begin, const char *end, std::vector<std::string_view> *kept = nullptr);

/** A string value of a tree parseJson made with kept: the text a stand-in stands for, or the value. */
std::string_view keptString(const std::string &value, const std::vector<std::string_view> *kept);

/** An image part's data already decoded (by the stream assembler), to be used again if the same. */
struct DecodedImage {
    std::string base64; // the part's "data" as it arrived
    ImageData image;
};

/** ResponseParser::parseInteraction of an already parsed document (an object). */
Result<Interaction> parseInteractionDocument(const nlohmann::json &doc, bool allowUnfinished,
    const DecodedImage *known = nullptr, const std::vector<std::string_view> *kept = nullptr);

/** ResponseParser::decodeBase64 of a byte range (no copy of the text first). */
QByteArray decodeBase64(const char *data, qsizetype size, bool *ok);

} // namespace nb2::apidetail
