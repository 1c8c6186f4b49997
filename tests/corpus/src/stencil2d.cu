// 2D stencils and image filters: shared-memory halos, clamped borders, separable
// convolution with a __constant__ kernel, bilinear resampling, 3D 7-point Jacobi.
#include "pa_cuda.h"

#define BX 16
#define BY 16
#define KR 4

__constant__ float c_kernel[2 * KR + 1];

__global__ void conv_rows(const float *in, float *out, int w, int h)
{
	__shared__ float tile[BY][BX + 2 * KR];
	int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
	int yc = y < h ? y : h - 1;
	int xl = x - KR < 0 ? 0 : x - KR;
	tile[threadIdx.y][threadIdx.x] = in[yc * w + (xl < w ? xl : w - 1)];
	if (threadIdx.x < 2 * KR) {
		int xr = x + BX - KR;
		xr = xr >= w ? w - 1 : (xr < 0 ? 0 : xr);
		tile[threadIdx.y][threadIdx.x + BX] = in[yc * w + xr];
	}
	__syncthreads();
	if (x < w && y < h) {
		float s = 0.0f;
#pragma unroll
		for (int k = 0; k <= 2 * KR; ++k)
			s += c_kernel[k] * tile[threadIdx.y][threadIdx.x + k];
		out[y * w + x] = s;
	}
}

__global__ void conv_cols(const float *in, float *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	float s = 0.0f;
#pragma unroll
	for (int k = -KR; k <= KR; ++k) {
		int yy = min(max(y + k, 0), h - 1);
		s += c_kernel[k + KR] * in[yy * w + x];
	}
	out[y * w + x] = s;
}

__global__ void sobel(const unsigned char *img, unsigned char *edges, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1)
		return;
	int p[3][3];
	for (int dy = -1; dy <= 1; ++dy)
		for (int dx = -1; dx <= 1; ++dx)
			p[dy + 1][dx + 1] = img[(y + dy) * w + x + dx];
	int gx = p[0][2] + 2 * p[1][2] + p[2][2] - p[0][0] - 2 * p[1][0] - p[2][0];
	int gy = p[2][0] + 2 * p[2][1] + p[2][2] - p[0][0] - 2 * p[0][1] - p[0][2];
	float mag = sqrtf((float)(gx * gx + gy * gy));
	edges[y * w + x] = (unsigned char)(mag > 255.0f ? 255.0f : mag);
}

__global__ void bilinear_resize(const float *src, int sw, int sh, float *dst, int dw, int dh)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= dw || y >= dh)
		return;
	float fx = (x + 0.5f) * sw / dw - 0.5f, fy = (y + 0.5f) * sh / dh - 0.5f;
	int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
	float ax = fx - x0, ay = fy - y0;
	int x1 = min(x0 + 1, sw - 1), y1 = min(y0 + 1, sh - 1);
	x0 = max(x0, 0);
	y0 = max(y0, 0);
	float top = src[y0 * sw + x0] * (1.0f - ax) + src[y0 * sw + x1] * ax;
	float bot = src[y1 * sw + x0] * (1.0f - ax) + src[y1 * sw + x1] * ax;
	dst[y * dw + x] = top * (1.0f - ay) + bot * ay;
}

__global__ void jacobi3d(const double *u, double *un, const double *f, int nx, int ny, int nz,
                         double h2)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
	int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
	if (i >= nx - 1 || j >= ny - 1)
		return;
	long sxy = (long)nx * ny;
	for (int k = 1; k < nz - 1; ++k) {
		long c = k * sxy + (long)j * nx + i;
		un[c] = (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] + u[c - sxy] + u[c + sxy] -
		         h2 * f[c]) *
		        (1.0 / 6.0);
	}
}

__global__ void game_of_life(const unsigned char *cur, unsigned char *next, int w, int h)
{
	__shared__ unsigned char t[BY + 2][BX + 2];
	int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
	for (int ly = threadIdx.y; ly < BY + 2; ly += BY)
		for (int lx = threadIdx.x; lx < BX + 2; lx += BX) {
			int gx = (blockIdx.x * BX + lx - 1 + w) % w;
			int gy = (blockIdx.y * BY + ly - 1 + h) % h;
			t[ly][lx] = cur[gy * w + gx];
		}
	__syncthreads();
	if (x >= w || y >= h)
		return;
	int n = 0;
	for (int dy = 0; dy < 3; ++dy)
		for (int dx = 0; dx < 3; ++dx)
			n += (dy != 1 || dx != 1) ? t[threadIdx.y + dy][threadIdx.x + dx] : 0;
	unsigned char alive = t[threadIdx.y + 1][threadIdx.x + 1];
	next[y * w + x] = (n == 3 || (alive && n == 2)) ? 1 : 0;
}
