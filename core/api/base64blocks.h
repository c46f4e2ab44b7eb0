// Internal to core/api: the vector part of the base64 decoder (ResponseParser::decodeBase64's
// plain path). A turn's image arrives as ~1.4 MB of base64; the table decoder took ~0.3 ms.
#pragma once

#include <QtGlobal>

namespace nb2::apidetail {

/**
 * Decodes standard base64 (A-Z a-z 0-9 + /, no padding, no whitespace) 32 characters at a time
 * with AVX2, where the CPU has it. Decodes whole blocks from the start of in while at least
 * 64 characters are left, 24 bytes per block to out, and returns how many characters it
 * decoded (0 without AVX2: the caller decodes everything). Stops, returning -1, at a block
 * holding any other character (nothing is decided then: the caller's own decoder rules).
 * Each block stores 32 bytes at out (the last 8 are overwritten by the next block): the caller
 * leaves at least 8 bytes of room after the bytes the blocks give.
 */
qsizetype decodeBase64Blocks(const unsigned char *in, qsizetype size, unsigned char *out);

/** Whether decodeBase64Blocks uses AVX2 on this CPU (tests say which path they compared). */
bool base64BlocksAccelerated();

} // namespace nb2::apidetail
