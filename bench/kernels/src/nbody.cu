// One N-body step: each thread owns a body, accumulates the softened gravitational pull of
// all n bodies (read through 128-body shared-memory tiles), then updates its velocity and
// position.  pos = (x, y, z, mass) as four floats, vel = (vx, vy, vz, unused).
#include "bench_cuda.h"

BK_KERNEL void __launch_bounds__(128) nbody(const float *pos, const float *vel, float *pos_out,
                                              float *vel_out, int n, float dt)
{
	__shared__ float tile[128 * 4];
	int i = blockIdx.x * 128 + threadIdx.x;
	float px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
	float ax = 0.0f, ay = 0.0f, az = 0.0f;
	for (int base = 0; base < n; base += 128) {
		for (int c = 0; c < 4; c++)
			tile[threadIdx.x * 4 + c] = pos[4 * (base + threadIdx.x) + c];
		__syncthreads();
		for (int j = 0; j < 128; j++) {
			float dx = tile[4 * j] - px, dy = tile[4 * j + 1] - py, dz = tile[4 * j + 2] - pz;
			float d2 = dx * dx + dy * dy + dz * dz + 0.01f;
			float inv = rsqrtf(d2);
			float s = tile[4 * j + 3] * inv * inv * inv;
			ax += dx * s;
			ay += dy * s;
			az += dz * s;
		}
		__syncthreads();
	}
	float vx = vel[4 * i] + dt * ax, vy = vel[4 * i + 1] + dt * ay, vz = vel[4 * i + 2] + dt * az;
	vel_out[4 * i] = vx;
	vel_out[4 * i + 1] = vy;
	vel_out[4 * i + 2] = vz;
	vel_out[4 * i + 3] = 0.0f;
	pos_out[4 * i] = px + dt * vx;
	pos_out[4 * i + 1] = py + dt * vy;
	pos_out[4 * i + 2] = pz + dt * vz;
	pos_out[4 * i + 3] = pos[4 * i + 3];
}
