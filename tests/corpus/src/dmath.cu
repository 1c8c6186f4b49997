// Double precision math: library calls, division, sqrt, Newton iterations, series.
#include "pa_cuda.h"

__global__ void dmath_unary(const double *x, double *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double v = x[i];
	out[8 * i + 0] = sqrt(fabs(v));
	out[8 * i + 1] = exp(v);
	out[8 * i + 2] = log(fabs(v) + 1.0);
	out[8 * i + 3] = 1.0 / (v + 3.0);
	out[8 * i + 4] = pow(fabs(v), 1.5);
	out[8 * i + 5] = sin(v) * cos(v);
	out[8 * i + 6] = tanh(v);
	out[8 * i + 7] = floor(v * 0.5) + rsqrt(v * v + 1.0);
}

__global__ void newton_rsqrt(const double *x, double *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double a = x[i];
	double y = (double)rsqrtf((float)a);
	for (int it = 0; it < 3; ++it)
		y = y * (1.5 - 0.5 * a * y * y);
	out[i] = y;
}

__global__ void black_scholes(const double *spot, const double *strike, const double *t,
                              double r, double vol, double *call, double *put, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double s = spot[i], k = strike[i], tt = t[i];
	double sq = sqrt(tt);
	double d1 = (log(s / k) + (r + 0.5 * vol * vol) * tt) / (vol * sq);
	double d2 = d1 - vol * sq;
	/* Abramowitz-Stegun approximation of the normal CDF. */
	double cnd[2];
	double ds[2] = {d1, d2};
	for (int j = 0; j < 2; ++j) {
		double d = ds[j];
		double kk = 1.0 / (1.0 + 0.2316419 * fabs(d));
		double poly = kk * (0.319381530 +
		                    kk * (-0.356563782 +
		                          kk * (1.781477937 + kk * (-1.821255978 + kk * 1.330274429))));
		double c = 1.0 - 0.3989422804014327 * exp(-0.5 * d * d) * poly;
		cnd[j] = d < 0.0 ? 1.0 - c : c;
	}
	double disc = exp(-r * tt);
	call[i] = s * cnd[0] - k * disc * cnd[1];
	put[i] = k * disc * (1.0 - cnd[1]) - s * (1.0 - cnd[0]);
}

__global__ void nbody_forces(const double *pos, const double *mass, double *acc, int n,
                             double soft2)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
	double ax = 0.0, ay = 0.0, az = 0.0;
	for (int j = 0; j < n; ++j) {
		double dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
		double r2 = fma(dx, dx, fma(dy, dy, fma(dz, dz, soft2)));
		double inv = 1.0 / sqrt(r2);
		double f = mass[j] * inv * inv * inv;
		ax = fma(f, dx, ax);
		ay = fma(f, dy, ay);
		az = fma(f, dz, az);
	}
	acc[3 * i] = ax;
	acc[3 * i + 1] = ay;
	acc[3 * i + 2] = az;
}

__global__ void horner_poly(const double *x, const double *coef, int degree, double *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double v = x[i], acc = coef[degree];
	for (int d = degree - 1; d >= 0; --d)
		acc = fma(acc, v, coef[d]);
	out[i] = acc;
}

__global__ void mixed_precision(const float *a, const double *b, double *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		double x = (double)a[i] * b[i];
		float y = (float)(x / (b[i] + 1e-300));
		out[i] = x - (double)y + fmin(x, 2.0) + fmax((double)y, -2.0);
	}
}

__global__ void kahan_sum(const double *x, int n, double *out)
{
	if (threadIdx.x != 0 || blockIdx.x != 0)
		return;
	double s = 0.0, c = 0.0;
	for (int i = 0; i < n; ++i) {
		double y = x[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	*out = s;
}
