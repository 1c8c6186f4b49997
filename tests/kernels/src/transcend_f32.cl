// Hardware transcendental and helper instructions: exp2, log2, sin/cos (in revolutions), rcp,
// rsq, sqrt, fract, ldexp, frexp; 11 results per element.
#include "common.h"

__kernel void transcend_f32(__global const float *a, __global float *out, uint n)
{
	uint i = gid_x();
	if (i >= n)
		return;
	float x = a[i];
	__global float *o = out + 11 * i;
	o[0] = __builtin_amdgcn_exp2f(x * 0.125f);
	o[1] = __builtin_amdgcn_logf(__builtin_fabsf(x) + 0.5f);
	o[2] = __builtin_amdgcn_sinf(x * 0.01f);
	o[3] = __builtin_amdgcn_cosf(x * 0.01f);
	o[4] = __builtin_amdgcn_rcpf(x);
	o[5] = __builtin_amdgcn_rsqf(__builtin_fabsf(x));
	o[6] = __builtin_amdgcn_sqrtf(__builtin_fabsf(x));
	o[7] = __builtin_amdgcn_fractf(x);
	o[8] = __builtin_amdgcn_ldexpf(x, (int)(i % 11) - 5);
	o[9] = __builtin_amdgcn_frexp_mantf(x);
	o[10] = (float)__builtin_amdgcn_frexp_expf(x);
}
