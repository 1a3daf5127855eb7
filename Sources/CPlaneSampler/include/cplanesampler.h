#ifndef CPLANESAMPLER_H
#define CPLANESAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Whether this CPU has AVX2, so that `cplanesampler_interior_avx2` may be called (false on other
/// architectures).
bool cplanesampler_has_avx2(void);

/// Bilinear sampling of output pixels whose source positions advance linearly, in 16.16 fixed
/// point, sixteen at a time with AVX2: pixel i samples (fx + i·dx, fy + i·dy) (32-bit wrapping
/// sums). Writes the first `count` rounded down to a multiple of 16 and returns how many; the
/// caller samples the rest. Bit-exact with the stabilizer's scalar loop (PlaneSampler.sampleInterior).
///
/// Preconditions (the caller checks them): the CPU has AVX2; every tap lies inside the plane; the
/// lower tap's row is never the plane's last one (each row's two taps are read as four bytes, so
/// the two bytes after the right tap must be in the plane); 0 < stride and stride × height < 2³¹.
int cplanesampler_interior_avx2(const uint8_t *base, ptrdiff_t stride, uint8_t *output, int count, int32_t fx, int32_t fy,
                                int32_t dx, int32_t dy);

#endif
