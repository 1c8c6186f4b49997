// Double-precision math per element: Newton-refined square root, division, a degree-12
// Horner polynomial for exp on [-1, 1] with fma, and a data-dependent loop (a continued
// fraction of depth 4 + (i & 7)).
#include "bench_cuda.h"

BK_DEV double exp_poly(double x)
{
	double p = 1.0 / 479001600.0;
	const double inv_fact[12] = {1.0 / 39916800.0, 1.0 / 3628800.0, 1.0 / 362880.0,
	                             1.0 / 40320.0,    1.0 / 5040.0,    1.0 / 720.0,
	                             1.0 / 120.0,      1.0 / 24.0,      1.0 / 6.0,
	                             0.5,              1.0,             1.0};
#pragma unroll
	for (int i = 0; i < 12; i++)
		p = fma(p, x, inv_fact[i]);
	return p;
}

BK_KERNEL void __launch_bounds__(128) dmath(const double *x, double *out, int n)
{
	int i = blockIdx.x * 128 + threadIdx.x;
	if (i >= n)
		return;
	double v = x[i]; /* in [-1, 1] */
	double r = sqrt(v * v + 2.0);
	r = 0.5 * (r + (v * v + 2.0) / r);
	double e = exp_poly(v);
	double cf = 1.0;
	for (int d = 4 + (i & 7); d > 0; d--)
		cf = 1.0 + v / (d + cf);
	out[3 * i] = r;
	out[3 * i + 1] = e / r;
	out[3 * i + 2] = cf;
}
