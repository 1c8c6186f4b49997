// One very large kernel: 256 x BIG_SCALE ChaCha-style double rounds on 16 words per thread,
// fully unrolled by macros (about 100 PTX instructions per round), each round adding its own
// constant.  Built at BIG_SCALE 1, 2, 4 and 8 to show how compile cost grows with size.
#include "bench_cuda.h"

#ifndef BIG_SCALE
#define BIG_SCALE 1
#endif

#define ROTL(v, c) (((v) << (c)) | ((v) >> (32 - (c))))
#define QR(a, b, c, d)                                                                         \
	a += b;                                                                                    \
	d = ROTL(d ^ a, 16);                                                                       \
	c += d;                                                                                    \
	b = ROTL(b ^ c, 12);                                                                       \
	a += b;                                                                                    \
	d = ROTL(d ^ a, 8);                                                                        \
	c += d;                                                                                    \
	b = ROTL(b ^ c, 7);
#define ROUND                                                                                  \
	QR(s0, s4, s8, s12) QR(s1, s5, s9, s13) QR(s2, s6, s10, s14) QR(s3, s7, s11, s15)          \
	QR(s0, s5, s10, s15) QR(s1, s6, s11, s12) QR(s2, s7, s8, s13) QR(s3, s4, s9, s14)          \
	k = k * 1664525u + 1013904223u;                                                            \
	s0 += k;
#define R4 ROUND ROUND ROUND ROUND
#define R16 R4 R4 R4 R4
#define R64 R16 R16 R16 R16
#define R256 R64 R64 R64 R64
#if BIG_SCALE == 1
#define BIG_BODY R256
#elif BIG_SCALE == 2
#define BIG_BODY R256 R256
#elif BIG_SCALE == 4
#define BIG_BODY R256 R256 R256 R256
#elif BIG_SCALE == 8
#define BIG_BODY R256 R256 R256 R256 R256 R256 R256 R256
#else
#error "BIG_SCALE must be 1, 2, 4 or 8"
#endif

BK_KERNEL void __launch_bounds__(64) big_unrolled(const unsigned *in, unsigned *out)
{
	const unsigned *p = in + (blockIdx.x * 64 + threadIdx.x) * 16;
	unsigned s0 = p[0], s1 = p[1], s2 = p[2], s3 = p[3], s4 = p[4], s5 = p[5], s6 = p[6];
	unsigned s7 = p[7], s8 = p[8], s9 = p[9], s10 = p[10], s11 = p[11], s12 = p[12];
	unsigned s13 = p[13], s14 = p[14], s15 = p[15];
	unsigned k = 0x243f6a88u;
	BIG_BODY
	unsigned *q = out + (blockIdx.x * 64 + threadIdx.x) * 16;
	q[0] = s0, q[1] = s1, q[2] = s2, q[3] = s3, q[4] = s4, q[5] = s5, q[6] = s6, q[7] = s7;
	q[8] = s8, q[9] = s9, q[10] = s10, q[11] = s11, q[12] = s12, q[13] = s13, q[14] = s14;
	q[15] = s15;
}
