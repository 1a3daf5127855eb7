// The interior bilinear sampler of the stabilizer's warp, vectorized with AVX2 (the Swift caller
// checks the CPU first). Same integer arithmetic as the Swift scalar loop
// (PlaneSampler.sampleInterior): 8-bit weights from the 16.16 positions, each row's taps
// interpolated as a·(256 − wx) + b·wx (= (a << 8) + (b − a)·wx), then the rows as
// (top << 8) + (bottom − top)·wy, + 32768, >> 16; so the output is the same, byte for byte.
#include "cplanesampler.h"

#if defined(__x86_64__)
#include <immintrin.h>

bool cplanesampler_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

// Eight pixels at positions (x, y): one four-byte gather per row (the left tap in the low byte),
// the two taps spread to 16-bit lanes and interpolated by one multiply-add against (256 − wx, wx),
// then the rows blended in 32 bits.
__attribute__((target("avx2"))) static inline __m256i eight(const uint8_t *base, __m256i stride, __m256i x, __m256i y) {
    const __m256i byte = _mm256_set1_epi32(0xFF);
    const __m256i pairs = _mm256_setr_epi8(0, -1, 1, -1, 4, -1, 5, -1, 8, -1, 9, -1, 12, -1, 13, -1, 0, -1, 1, -1, 4, -1, 5,
                                           -1, 8, -1, 9, -1, 12, -1, 13, -1);
    __m256i offset = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(y, 16), stride), _mm256_srai_epi32(x, 16));
    __m256i upper = _mm256_i32gather_epi32((const int *)base, offset, 1);
    __m256i lower = _mm256_i32gather_epi32((const int *)base, _mm256_add_epi32(offset, stride), 1);
    __m256i wx = _mm256_and_si256(_mm256_srli_epi32(x, 8), byte);
    __m256i wy = _mm256_and_si256(_mm256_srli_epi32(y, 8), byte);
    __m256i weights = _mm256_or_si256(_mm256_sub_epi32(_mm256_set1_epi32(256), wx), _mm256_slli_epi32(wx, 16));
    __m256i top = _mm256_madd_epi16(_mm256_shuffle_epi8(upper, pairs), weights);
    __m256i bottom = _mm256_madd_epi16(_mm256_shuffle_epi8(lower, pairs), weights);
    __m256i blended = _mm256_add_epi32(_mm256_slli_epi32(top, 8), _mm256_mullo_epi32(_mm256_sub_epi32(bottom, top), wy));
    return _mm256_srai_epi32(_mm256_add_epi32(blended, _mm256_set1_epi32(32768)), 16);
}

__attribute__((target("avx2"))) int cplanesampler_interior_avx2(const uint8_t *base, ptrdiff_t stride, uint8_t *output,
                                                                 int count, int32_t fx, int32_t fy, int32_t dx, int32_t dy) {
    const __m256i ramp = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i strides = _mm256_set1_epi32((int32_t)stride);
    // Lane i starts at f + i·d and every step adds 8·d: the same wrapping sums as the scalar loop's.
    __m256i x = _mm256_add_epi32(_mm256_set1_epi32(fx), _mm256_mullo_epi32(ramp, _mm256_set1_epi32(dx)));
    __m256i y = _mm256_add_epi32(_mm256_set1_epi32(fy), _mm256_mullo_epi32(ramp, _mm256_set1_epi32(dy)));
    const __m256i stepX = _mm256_slli_epi32(_mm256_set1_epi32(dx), 3), stepY = _mm256_slli_epi32(_mm256_set1_epi32(dy), 3);
    int done = 0;
    for (; done + 16 <= count; done += 16) {
        __m256i first = eight(base, strides, x, y);
        x = _mm256_add_epi32(x, stepX);
        y = _mm256_add_epi32(y, stepY);
        __m256i second = eight(base, strides, x, y);
        x = _mm256_add_epi32(x, stepX);
        y = _mm256_add_epi32(y, stepY);
        // 32 → 16 bits packs within 128-bit halves (first 0–3, second 0–3 | first 4–7, second 4–7):
        // reorder the 64-bit quarters, then pack the two halves to bytes in order.
        __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(first, second), _MM_SHUFFLE(3, 1, 2, 0));
        __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
        _mm_storeu_si128((__m128i *)(output + done), bytes);
    }
    return done;
}
#else
bool cplanesampler_has_avx2(void) { return false; }

int cplanesampler_interior_avx2(const uint8_t *base, ptrdiff_t stride, uint8_t *output, int count, int32_t fx, int32_t fy,
                                int32_t dx, int32_t dy) {
    (void)base, (void)stride, (void)output, (void)count, (void)fx, (void)fy, (void)dx, (void)dy;
    return 0;
}
#endif
