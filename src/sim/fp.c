/* fp: IEEE half-precision conversions (round to nearest even), used by the f16 VALU rows.
 * A NaN keeps its sign and the leading bits of its payload and comes out quiet (the ISA's
 * cvtToQuietNAN), so that an f16 operation on a signaling NaN gives that NaN quieted.
 * complexity: O(1). */
#include <math.h>

#include "sim_int.h"

float sim_f16_to_f32(uint16_t h)
{
	unsigned sign = h >> 15, exp = (h >> 10) & 31, mant = h & 1023;
	float v;
	if (exp == 0)
		v = ldexpf((float)mant, -24);
	else if (exp == 31 && mant)
		v = sim_as_f32((uint32_t)sign << 31 | 0x7fc00000u | (uint32_t)mant << 13);
	else if (exp == 31)
		v = INFINITY;
	else
		v = ldexpf((float)(mant | 1024), (int)exp - 25);
	return sign && !isnan(v) ? -v : v;
}

uint16_t sim_f32_to_f16(float f)
{
	uint32_t b = sim_f32_bits(f);
	uint16_t sign = (uint16_t)((b >> 16) & 0x8000);
	if (isnan(f))
		return sign | 0x7e00 | (uint16_t)((b >> 13) & 0x3ff);
	float a = fabsf(f);
	if (a >= 65520.0f)
		return sign | 0x7c00;
	if (a < 0x1p-14f) { /* subnormal: multiples of 2^-24, rounded to nearest even */
		float q = nearbyintf(a * 0x1p24f);
		return sign | (uint16_t)q;
	}
	int e;
	float m = frexpf(a, &e);           /* a = m * 2^e, m in [0.5, 1) */
	float q = nearbyintf(m * 2048.0f); /* 11 significant bits */
	if (q >= 2048.0f) {
		q /= 2;
		e++;
	}
	unsigned exp = (unsigned)(e - 1 + 15);
	if (exp >= 31)
		return sign | 0x7c00;
	return sign | (uint16_t)(exp << 10) | (uint16_t)((unsigned)q & 1023);
}
