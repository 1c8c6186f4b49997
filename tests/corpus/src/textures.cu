// corpus: nvcc-only (the texture and surface object API comes from CUDA's headers)
// Textures and surfaces through texture/surface objects (cudaTextureObject_t,
// cudaSurfaceObject_t: .u64 handles in PTX): filtered and point fetches in 1D/2D/3D/layered/
// cube geometries, explicit LOD and gradients, gather, integer fetches from linear memory,
// and surface reads/writes with the boundary modes.  docs/TEXTURES.md maps them onto HIP's
// objects.

// a 3x3 box blur over a float4 texture (the sampler's address mode handles the border)
__global__ void blur(cudaTextureObject_t src, float4 *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	float4 s = make_float4(0, 0, 0, 0);
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			float4 v = tex2D<float4>(src, x + dx + 0.5f, y + dy + 0.5f);
			s.x += v.x, s.y += v.y, s.z += v.z, s.w += v.w;
		}
	out[y * w + x] = make_float4(s.x / 9, s.y / 9, s.z / 9, s.w / 9);
}

// normalized coordinates with linear filtering: a resize
__global__ void resize(cudaTextureObject_t src, float *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h)
		out[y * w + x] = tex2D<float>(src, (x + 0.5f) / w, (y + 0.5f) / h);
}

// integer fetch from a texture over linear memory, and an unsigned-char texture
__global__ void fetch(cudaTextureObject_t lin, cudaTextureObject_t bytes, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = tex1Dfetch<float>(lin, i) + tex1D<unsigned char>(bytes, i + 0.5f);
}

// 3D, layered, cube, explicit level, gradients and gather
__global__ void geometries(cudaTextureObject_t vol, cudaTextureObject_t layers,
                           cudaTextureObject_t cube, cudaTextureObject_t mip, float4 *out)
{
	int i = threadIdx.x;
	float f = i * 0.125f;
	float4 a = tex3D<float4>(vol, f, f * 0.5f, 1.0f - f);
	float4 b = tex2DLayered<float4>(layers, f, f, i & 3);
	float4 c = texCubemap<float4>(cube, 1.0f, f - 0.5f, 0.25f);
	float4 d = tex2DLod<float4>(mip, f, f, 1.5f);
	float4 e = tex2DGrad<float4>(mip, f, f, make_float2(0.01f, 0), make_float2(0, 0.01f));
	float4 g = tex2Dgather<float4>(mip, f, f, 1);
	out[6 * i + 0] = a, out[6 * i + 1] = b, out[6 * i + 2] = c;
	out[6 * i + 3] = d, out[6 * i + 4] = e, out[6 * i + 5] = g;
}

// surfaces: read, scale and write back, in the three boundary modes (x in bytes)
__global__ void surfaces(cudaSurfaceObject_t s, cudaSurfaceObject_t vol, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	float v = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeZero);
	surf2Dwrite(v * 2.0f, s, x * 4, y, cudaBoundaryModeTrap);
	uchar4 c = surf2Dread<uchar4>(s, (x + w) * 4, y, cudaBoundaryModeClamp);
	surf3Dwrite(c, vol, x * 4, y, x & 1);
	if (x == 0 && y == 0)
		surf1Dwrite(h, s, 0);
}
