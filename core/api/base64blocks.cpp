#include "core/api/base64blocks.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NB2_BASE64_AVX2 1
#include <immintrin.h>
#endif

namespace nb2::apidetail {

#ifdef NB2_BASE64_AVX2

namespace {

// W. Muła and D. Lemire, "Faster Base64 Encoding and Decoding Using AVX2 Instructions" (2018):
// the character class comes from two nibble lookups (valid only if their AND is zero), the
// 6-bit value from a third lookup keyed on the high nibble, and the bits are packed with two
// multiply-adds and two shuffles.
__attribute__((target("avx2"))) qsizetype decodeAvx2(const unsigned char *in, qsizetype size, unsigned char *out)
{
    const __m256i lutLo
        = _mm256_setr_epi8(0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B,
            0x1A, 0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A);
    const __m256i lutHi
        = _mm256_setr_epi8(0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
            0x10, 0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
    const __m256i lutRoll = _mm256_setr_epi8(0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 19, 4,
        -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i mask2F = _mm256_set1_epi8(0x2f);
    const __m256i packShuffle = _mm256_setr_epi8(
        2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    const __m256i packLanes = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, -1, -1);
    qsizetype done = 0;
    for (; size - done >= 64; done += 32, out += 24) {
        __m256i text = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in + done));
        const __m256i hiNibbles = _mm256_and_si256(_mm256_srli_epi32(text, 4), mask2F);
        const __m256i loNibbles = _mm256_and_si256(text, mask2F);
        const __m256i hi = _mm256_shuffle_epi8(lutHi, hiNibbles);
        const __m256i lo = _mm256_shuffle_epi8(lutLo, loNibbles);
        if (!_mm256_testz_si256(lo, hi))
            return -1; // a character outside the alphabet
        const __m256i isSlash = _mm256_cmpeq_epi8(text, mask2F);
        text = _mm256_add_epi8(text, _mm256_shuffle_epi8(lutRoll, _mm256_add_epi8(isSlash, hiNibbles)));
        const __m256i pairs = _mm256_maddubs_epi16(text, _mm256_set1_epi32(0x01400140));
        __m256i bytes = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
        bytes = _mm256_shuffle_epi8(bytes, packShuffle);
        bytes = _mm256_permutevar8x32_epi32(bytes, packLanes);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(out), bytes);
    }
    return done;
}

bool hasAvx2()
{
    static const bool yes = __builtin_cpu_supports("avx2");
    return yes;
}

} // namespace

qsizetype decodeBase64Blocks(const unsigned char *in, qsizetype size, unsigned char *out)
{
    return hasAvx2() ? decodeAvx2(in, size, out) : 0;
}

bool base64BlocksAccelerated()
{
    return hasAvx2();
}

#else

qsizetype decodeBase64Blocks(const unsigned char *, qsizetype, unsigned char *)
{
    return 0;
}

bool base64BlocksAccelerated()
{
    return false;
}

#endif

} // namespace nb2::apidetail
