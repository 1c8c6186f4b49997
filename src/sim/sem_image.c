/* sem_image: semantics of the image instructions (docs/TEXTURES.md), so far image_load and
 * image_store (1D, 2D, 3D, 1D and 2D arrays), image_sample_lz/_l/_d (point sampling: wrap, mirror,
 * clamp and border, normalized or not; image_sample, equal to it over one level; also 3D and 1D/2D
 * arrays), image_gather4_lz and buffer_load_format_xyzw on gfx90a, gfx10, gfx11 and gfx12 over
 * linear (SW_MODE 0) images (of one mip level, or sampled 2D images of several: mip_level).
 *
 * The resource (T#, 8 SGPRs) is read as image_desc.c writes it for each generation (they differ
 * in the format field, the width and pitch fields and the level fields): base address, FORMAT,
 * WIDTH-1, HEIGHT-1, DST_SEL, BASE/LAST_LEVEL, SW_MODE, TYPE, PITCH-1.  A load reads the texel at
 * integer coordinates (x, y), widens its channels (float and integer bits as they are, unorm8 v /
 * 255, channels the format lacks 0 and the last 1), routes them through DST_SEL (0, 1 or a channel)
 * and writes the components dmask names to consecutive VGPRs.  A store converts the dmask
 * components to the texel's channels (32-bit channels unchanged, unorm8, uint8: store_channel),
 * for formats whose DST_SEL is the identity.  Whatever else an instance asks for -- another
 * generation, tiling, mip levels, a coordinate outside the image, NSA address forms, a
 * conversion whose rounding or range is not known here -- stops the run
 * with an error naming it, never a guessed value.  complexity: O(lanes) per instruction. */
#include <math.h>
#include <string.h>

#include "valu.h"

struct tdesc {
	uint64_t base;
	uint32_t width, height, depth, pitch, dst_sel, type;
	uint32_t base_level, last_level; /* a 2D image's mip levels (sampling only) */
	const struct sim_image_format_info *fmt;
};

/* BASE_LEVEL and LAST_LEVEL (gfx9-gfx11: word 3 bits 15:12 and 19:16; gfx12: BASE_LEVEL word 1
 * bits 29:25, LAST_LEVEL word 3 bits 19:15). */
static void read_levels(enum amd_gen gen, const uint32_t d[8], struct tdesc *t)
{
	t->base_level = gen == AMD_GFX12 ? (d[1] >> 25) & 31 : (d[3] >> 12) & 15;
	t->last_level = gen == AMD_GFX12 ? (d[3] >> 15) & 31 : (d[3] >> 16) & 15;
}

/* The T# in SGPRs in->saddr..+7, checked against what is simulated (image_desc.c's layouts);
 * mip_ok: the instruction samples, so a 2D image may have mip levels. */
static bool read_tdesc(struct sim_wave *w, const struct sim_insn *in, struct tdesc *t, bool mip_ok)
{
	uint32_t d[8];
	enum amd_gen gen = w->ctx->gen;
	if (gen == AMD_GFX940) {
		sim_fault(w, "gfx942 has no image instructions");
		return false;
	}
	if (in->imm & (1 << 10)) {
		sim_fault(w, "image instruction with separate (NSA) address VGPRs: not simulated");
		return false;
	}
	sim_chk_sgpr_vmem(w, in, in->saddr, 8);
	for (unsigned i = 0; i < 8; i++)
		d[i] = sim_rd_s32(w, in, (uint16_t)(in->saddr + i));
	struct sim_field ff = sim_image_format_field(gen);
	t->base = ((uint64_t)d[0] << 8) | (uint64_t)(d[1] & 0xff) << 40;
	t->fmt = sim_image_format_of_code(gen, (d[1] >> ff.shift) & ((1u << ff.bits) - 1));
	t->type = d[3] >> 28;
	/* 3D, 1D and 2D arrays: DEPTH-1 (the last slice) at word 4 12:0 */
	bool layered = t->type == 10 || t->type == 12 || t->type == 13;
	t->depth = layered ? (d[4] & 0x1fff) + 1 : 1;
	if (gen == AMD_GFX9) {
		t->width = (d[2] & 0x3fff) + 1;
		t->pitch = ((d[4] >> 13) & 0xffff) + 1;
	} else {
		t->width = ((d[1] >> 30) | (d[2] & 0xfff) << 2) + 1;
		t->pitch = layered ? t->width : (d[4] & 0x3fff) + 1;
	}
	t->height = ((d[2] >> 14) & 0x3fff) + 1;
	t->dst_sel = d[3] & 0xfff;
	/* gfx9's MIMG has no dim field: the resource's TYPE decides */
	unsigned sw_mode = (d[3] >> 20) & 31;
	unsigned dim = gen == AMD_GFX9 ? t->type - 8 : ((uint32_t)in->imm >> 4) & 7;
	read_levels(gen, d, t);
	bool levels = t->base_level || t->last_level;
	const char *why =
	        !t->fmt   ? "a texel format not simulated"
	        : sw_mode ? "a tiled (SW_MODE != 0) image"
	        : levels && (!mip_ok || t->pitch != t->width || t->last_level < t->base_level)
	                ? "mip levels (other than sampled ones)"
	        : t->type != 8 && t->type != 9 && !layered
	                ? "an image type other than 1D/2D/3D/1D or 2D array"
	        : dim != t->type - 8                  ? "a dim that differs from the image's"
	        : t->type >= 9 && t->pitch < t->width ? "a pitch below the width"
	                                              : NULL;
	if (why)
		sim_fault(w, "image resource with %s: not simulated", why);
	return !why;
}

/* The VGPR of address dword i: consecutive from src[0] before gfx12; gfx12's VIMAGE/VSAMPLE
 * name each of the first three in its own field (vaddr0-2) and the rest consecutive from
 * vaddr3 (decode.c keeps the fields in imm2). */
static unsigned address_vgpr(const struct sim_wave *w, const struct sim_insn *in, unsigned i)
{
	if (w->ctx->gen != AMD_GFX12)
		return (unsigned)(in->src[0] - SIM_VGPR0) + i;
	return i < 3 ? (in->imm2 >> (8 * i)) & 0xff : (in->imm2 >> 24) + (i - 3);
}

/* The strict checker's view of the address VGPRs: the first n. */
static void read_address_n(struct sim_wave *w, const struct sim_insn *in, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sim_chk_read_v(w, in, address_vgpr(w, in, i), 1);
}

/* ... of the coordinates of a 1D (x), 2D (x, y) or 3D (x, y, z) image, a 1D (x, slice) or 2D
 * (x, y, slice) array. */
static void read_address(struct sim_wave *w, const struct sim_insn *in, const struct tdesc *t)
{
	read_address_n(w, in, t->type == 8 ? 1 : t->type == 9 || t->type == 12 ? 2 : 3);
}

/* Byte address of the texel at the integer coordinates in lane l's address VGPRs (x; y of a 2D
 * or 3D image or a 2D array; z of a 3D one or an array's slice: the slices one after the other,
 * as texel_or_border reads them), or 0 (after a fault) outside the image. */
static uint64_t texel_addr(struct sim_wave *w, const struct sim_insn *in, const struct tdesc *t,
                           unsigned l)
{
	/* the address dwords: 1D x; 2D x y; 3D x y z; 1D array x slice; 2D array x y slice */
	unsigned n = t->type == 8 ? 1 : t->type == 9 || t->type == 12 ? 2 : 3;
	uint32_t a[3] = {0, 0, 0};
	for (unsigned i = 0; i < n; i++)
		a[i] = VROW(w, address_vgpr(w, in, i))[l];
	bool has_y = t->type == 9 || t->type == 10 || t->type == 13;
	const uint32_t c[3] = {a[0], t->type == 12 ? 0 : a[1], t->type == 12 ? a[1] : a[2]};
	const uint32_t size[3] = {t->width, has_y ? t->height : 1, t->depth};
	if (c[0] >= size[0] || c[1] >= size[1] || c[2] >= size[2]) {
		sim_fault(w,
		          "image access at (%u, %u, %u) outside the %ux%ux%u image: not "
		          "simulated",
		          c[0], c[1], c[2], size[0], size[1], size[2]);
		return 0;
	}
	uint64_t row = (uint64_t)c[2] * t->height + c[1];
	return t->base + (row * t->pitch + c[0]) * t->fmt->channels * t->fmt->bytes;
}

/* The four components a load sees after DST_SEL, from the texel's bytes. */
static void texel_components(const struct tdesc *t, const uint8_t *p, uint32_t comp[4])
{
	const struct sim_image_format_info *f = t->fmt;
	bool is_float = f->kind == SIM_TEXEL_FLOAT || f->kind == SIM_TEXEL_UNORM;
	uint32_t one = is_float ? 0x3f800000u : 1u, ch[4] = {0, 0, 0, one};
	for (unsigned i = 0; i < f->channels; i++) {
		uint32_t v = 0;
		memcpy(&v, p + i * f->bytes, f->bytes);
		if (f->kind == SIM_TEXEL_UNORM) {
			float x = (float)v / 255.0f;
			memcpy(&v, &x, 4);
		}
		ch[i] = v;
	}
	for (unsigned i = 0; i < 4; i++) {
		unsigned sel = (t->dst_sel >> (3 * i)) & 7;
		comp[i] = sel == 0 ? 0 : sel == 1 ? one : sel >= 4 ? ch[sel - 4] : 0;
	}
}

static void image_load(struct sim_wave *w, const struct sim_insn *in)
{
	struct tdesc t;
	if (!read_tdesc(w, in, &t, false))
		return;
	unsigned dmask = (uint32_t)in->imm & 15, n = (unsigned)__builtin_popcount(dmask);
	unsigned dreg = in->dst - SIM_VGPR0;
	read_address(w, in, &t);
	sim_chk_write_v(w, in, dreg, n ? n : 1);
	uint32_t op = sim_chk_issue(w, in);
	for (uint64_t m = sim_exec(w); m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m), r = 0;
		uint64_t a = texel_addr(w, in, &t, l);
		unsigned size = t.fmt->channels * t.fmt->bytes;
		const uint8_t *p = a ? sim_mem_map(w->ctx, a, size, false) : NULL;
		if (!p) {
			if (a)
				sim_fault(w, "image texel at 0x%llx outside device memory",
				          (unsigned long long)a);
			return;
		}
		uint32_t comp[4];
		texel_components(&t, p, comp);
		for (unsigned i = 0; i < 4; i++)
			if (dmask >> i & 1)
				VROW(w, dreg + r++)[l] = comp[i];
	}
	sim_chk_pending_v(w, op, dreg, n ? n : 1);
}

/* The bits of channel value v (a component's dword) converted to a store's channel of format f
 * into *out: 32-bit channels take the dword unchanged; unorm8 takes the f32 clamped to [0, 1]
 * (NaN 0) times 255, rounded to the nearest (D3D's FLOAT -> UNORM rule, which AMD's formatted
 * stores follow; a product within 1/64 of a tie stops the run, the rounding of ties not being
 * checked here); uint8 an integer up to 255 (above it, saturation or truncation is not known
 * here: the run stops).  false after a fault. */
static bool store_channel(struct sim_wave *w, const struct sim_image_format_info *f, uint32_t v,
                          uint32_t *out)
{
	if (f->bytes == 4) {
		*out = v;
		return true;
	}
	if (f->kind == SIM_TEXEL_UINT) {
		if (v > 255) {
			sim_fault(w, "image_store of %u to an 8-bit integer channel: not simulated",
			          v);
			return false;
		}
		*out = v;
		return true;
	}
	float x;
	memcpy(&x, &v, 4);
	double s = x != x ? 0 : x < 0 ? 0 : x > 1 ? 255 : (double)x * 255.0;
	if (fabs(s - floor(s) - 0.5) < 1.0 / 64) {
		sim_fault(w,
		          "image_store of %.9g to a unorm8 channel: within 1/64 of a rounding tie, "
		          "not simulated",
		          (double)x);
		return false;
	}
	*out = (uint32_t)floor(s + 0.5);
	return true;
}

/* image_store of the components dmask names (consecutive VGPRs from vdata) to the texel at the
 * coordinates, each channel of the format converted from its component (store_channel: the
 * formatted store sust.p relies on; 32-bit channels keep the bits, which sust.b relies on);
 * components past the format's channels are dropped, as the format has no place for them.  A
 * dmask that lacks one of the format's channels, a DST_SEL other than the identity on them,
 * and formats other than those amdsim knows stop the run. */
static void image_store(struct sim_wave *w, const struct sim_insn *in)
{
	struct tdesc t;
	if (!read_tdesc(w, in, &t, false))
		return;
	const struct sim_image_format_info *f = t.fmt;
	unsigned dmask = (uint32_t)in->imm & 15, n = f->channels;
	unsigned nv = (unsigned)__builtin_popcount(dmask);
	bool identity = true;
	for (unsigned i = 0; i < n; i++)
		identity &= ((t.dst_sel >> (3 * i)) & 7) == 4 + i;
	bool low = dmask == (1u << nv) - 1; /* VGPR i holds component i */
	if (!identity || !low || nv < n) {
		sim_fault(w, "image_store other than all channels (and maybe more) with the "
		             "identity DST_SEL: not simulated");
		return;
	}
	unsigned sreg = in->src[1] - SIM_VGPR0, size = n * f->bytes;
	read_address(w, in, &t);
	sim_chk_read_v(w, in, sreg, nv);
	sim_chk_issue(w, in);
	for (uint64_t m = sim_exec(w); m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint32_t ch[4];
		for (unsigned i = 0; i < n; i++)
			if (!store_channel(w, f, VROW(w, sreg + i)[l], &ch[i]))
				return;
		uint64_t a = texel_addr(w, in, &t, l);
		uint8_t *p = a ? sim_mem_map(w->ctx, a, size, true) : NULL;
		if (!p) {
			if (a)
				sim_fault(w, "image texel at 0x%llx outside device memory",
				          (unsigned long long)a);
			return;
		}
		for (unsigned i = 0; i < n; i++)
			memcpy(p + f->bytes * i, &ch[i], f->bytes);
	}
}

/* The sampler (S#, 4 SGPRs at in->soffset) as far as sampling one level reads it. */
struct sdesc {
	unsigned clamp[3]; /* CLAMP_X/Y/Z: 0 wrap, 1 mirror, 2 clamp to the last texel, 6 border */
	bool unnormalized; /* FORCE_UNNORMALIZED or the instruction's unorm bit */
	bool bilinear;     /* XY_MAG_FILTER = XY_MIN_FILTER = 1 (else both 0: point) */
	bool z_linear;     /* Z_FILTER = 1: a 3D image filtered along z too (else 0: point) */
	unsigned border;   /* BORDER_COLOR_TYPE: 0 transparent black, 1 opaque black, 2 white */
	unsigned mip_filter;       /* MIP_FILTER: 0 none (the base level), 1 point */
	unsigned min_lod, max_lod; /* MIN_LOD, MAX_LOD: 4.8 fixed point */
	unsigned lod_bias;         /* LOD_BIAS (word 2 bits 13:0): read to refuse it */
};

static bool read_sdesc(struct sim_wave *w, const struct sim_insn *in, struct sdesc *sd)
{
	uint32_t d[4];
	sim_chk_sgpr_vmem(w, in, in->soffset, 4);
	for (unsigned i = 0; i < 4; i++)
		d[i] = sim_rd_s32(w, in, (uint16_t)(in->soffset + i));
	sd->clamp[0] = d[0] & 7;
	sd->clamp[1] = (d[0] >> 3) & 7;
	sd->clamp[2] = (d[0] >> 6) & 7;
	sd->unnormalized = (d[0] >> 15 & 1) || ((uint32_t)in->imm >> 8 & 1);
	sd->border = d[3] >> 30;
	sd->min_lod = d[1] & 0xfff;
	sd->max_lod = (d[1] >> 12) & 0xfff;
	sd->lod_bias = d[2] & 0x3fff;
	sd->mip_filter = (d[2] >> 26) & 3;
	const char *why = sd->mip_filter > 1 ? "MIP_FILTER linear (mip blending)" : NULL;
	for (unsigned i = 0; i < 3; i++)
		if (sd->clamp[i] != 0 && sd->clamp[i] != 1 && sd->clamp[i] != 2 &&
		    sd->clamp[i] != 6)
			why = "an address mode other than wrap, mirror, clamp and border";
		else if (sd->unnormalized && sd->clamp[i] < 2)
			why = "wrap or mirror with unnormalized coordinates";
	unsigned mag = (d[2] >> 20) & 3, min = (d[2] >> 22) & 3;
	unsigned zf = (d[2] >> 24) & 3;
	sd->bilinear = mag == 1;
	sd->z_linear = zf == 1;
	if (mag > 1 || min != mag)
		why = "XY_MAG/MIN_FILTER other than both point or both bilinear";
	else if (zf > 1 || (zf == 1 && mag != 1))
		why = "a Z_FILTER other than point, or linear with point XY filters";
	if (sd->border > 2)
		why = "a border color from the border color table";
	if (why)
		sim_fault(w, "image sampler with %s: not simulated", why);
	return !why;
}

/* Texel i along an axis of m through an address mode, or -1 outside (border). */
static long address_index(long i, long m, unsigned mode)
{
	switch (mode) {
	case 0: /* wrap */
		return ((i % m) + m) % m;
	case 1: { /* mirror */
		long r = ((i % (2 * m)) + 2 * m) % (2 * m);
		return r < m ? r : 2 * m - 1 - r;
	}
	case 2: /* clamp to the last texel */
		return i < 0 ? 0 : i >= m ? m - 1 : i;
	default: /* border */
		return i < 0 || i >= m ? -1 : i;
	}
}

/* The texel index of a coordinate along an axis of n texels, or -1 outside (border).  Point
 * sampling takes floor(u * n) (u as given when unnormalized); the hardware computes it in fixed
 * point, so a coordinate within 1/256 of a texel edge stops the run rather than guess. */
static long sample_index(struct sim_wave *w, float u, unsigned n, const struct sdesc *sd,
                         unsigned mode)
{
	double t = sd->unnormalized ? (double)u : (double)u * n, f = floor(t);
	if (!isfinite(t) || fabs(t) > 1e6 || t - f < 1.0 / 256 || t - f > 1 - 1.0 / 256) {
		sim_fault(w,
		          "image_sample coordinate %.9g within 1/256 of a texel edge (or not "
		          "finite): the hardware's fixed-point rounding is not simulated",
		          (double)u);
		return -2;
	}
	return address_index((long)f, (long)n, mode);
}

/* gather4's footprint along an axis: the texel left of the sample point, i0 = floor(u * n -
 * 0.5) (u - 0.5 unnormalized), and i0 + 1, each through the address mode (-1: border); a point
 * within 1/256 of a texel centre (where the footprint changes) stops the run, as sample_index
 * does near edges.  false after a fault. */
static bool footprint(struct sim_wave *w, float u, unsigned n, const struct sdesc *sd,
                      unsigned mode, long idx[2])
{
	double t = (sd->unnormalized ? (double)u : (double)u * n) - 0.5, f = floor(t);
	if (!isfinite(t) || fabs(t) > 1e6 || t - f < 1.0 / 256 || t - f > 1 - 1.0 / 256) {
		sim_fault(w,
		          "image_gather4 coordinate %.9g within 1/256 of a texel centre (or not "
		          "finite): the hardware's fixed-point rounding is not simulated",
		          (double)u);
		return false;
	}
	idx[0] = address_index((long)f, (long)n, mode);
	idx[1] = address_index((long)f + 1, (long)n, mode);
	return true;
}

/* Point sampling of level 0 (docs/TEXTURES.md): image_sample_lz; image_sample_l (the LOD after
 * the coordinates) and image_sample_d (d/dx and d/dy of each coordinate before them) over a
 * resource of one level (read_tdesc refuses others) with point filters (read_sdesc), where
 * every LOD samples that level with the same filter -- so the LOD and the derivatives are read
 * (the strict checker sees them) but choose nothing. */
enum sample_kind { SAMPLE_LZ, SAMPLE_L, SAMPLE_D, SAMPLE_IMPLICIT /* gfx9 image_sample */ };

/* The four components of texel at = (x, y, z: slice or depth) after DST_SEL, or the border
 * colour's for a coordinate < 0.  false after a fault. */
static bool texel_or_border(struct sim_wave *w, const struct tdesc *t, const struct sdesc *sd,
                            const long at[3], uint32_t comp[4])
{
	bool is_float = t->fmt->kind == SIM_TEXEL_FLOAT || t->fmt->kind == SIM_TEXEL_UNORM;
	uint32_t one = is_float ? 0x3f800000u : 1u;
	long x = at[0], y = at[1], z = at[2];
	if (x < 0 || y < 0 || z < 0) {
		uint32_t c = sd->border == 2 ? one : 0;
		comp[0] = comp[1] = comp[2] = c;
		comp[3] = sd->border ? one : 0;
		return true;
	}
	unsigned size = t->fmt->channels * t->fmt->bytes;
	uint64_t row = ((uint64_t)z * t->height + (uint64_t)y) * t->pitch;
	uint64_t a = t->base + (row + (uint64_t)x) * size;
	const uint8_t *p = sim_mem_map(w->ctx, a, size, false);
	if (!p) {
		sim_fault(w, "image texel at 0x%llx outside device memory", (unsigned long long)a);
		return false;
	}
	texel_components(t, p, comp);
	return true;
}

/* The slice of a 2D array's f32 coordinate: rounded to the nearest (ties to even) and clamped
 * to [0, layers - 1]; a tie stops the run (the rounding of ties is not checked here). */
static long array_slice(struct sim_wave *w, float s, unsigned layers)
{
	double r = nearbyint((double)s);
	if (!isfinite(s) || fabs(fabs((double)s - floor((double)s)) - 0.5) < 1.0 / 256) {
		sim_fault(w, "image array slice %.9g (a tie or not finite): not simulated",
		          (double)s);
		return -2;
	}
	return r < 0 ? 0 : r > layers - 1 ? (long)layers - 1 : (long)r;
}

/* Bilinear filtering along an axis of n texels: the texels left and right of the sample point
 * t = u * n - 0.5 (u - 0.5 unnormalized), i0 = floor(t) and i0 + 1 through the address mode
 * (-1: border), and the weight of the right one, frac(t) in 8-bit fixed point rounded to the
 * nearest (*a256 / 256): the 8 fractional bits of CUDA's definition of linear filtering (CUDA C++
 * Programming Guide, "Texture Fetching": alpha "stored in 9-bit fixed point format with 8 bits
 * of fractional value") and of D3D's minimum subtexel precision.  How AMD's texture unit rounds
 * to those 8 bits is not documented: a point within 1/64 of a rounding tie stops the run, and
 * round-to-nearest elsewhere is this simulator's assumption (docs/TEXTURES.md).  false after a
 * fault. */
static bool bilinear_axis(struct sim_wave *w, float u, unsigned n, const struct sdesc *sd,
                          unsigned mode, long idx[2], unsigned *a256)
{
	double t = (sd->unnormalized ? (double)u : (double)u * n) - 0.5, q = t * 256.0;
	if (!isfinite(t) || fabs(t) > 1e6 || fabs(q - floor(q) - 0.5) < 1.0 / 64) {
		sim_fault(w,
		          "bilinear image_sample coordinate %.9g within 1/64 of a rounding tie of "
		          "the 8-bit weight (or not finite): not simulated",
		          (double)u);
		return false;
	}
	double k = floor(q + 0.5), i0 = floor(k / 256.0);
	*a256 = (unsigned)(k - 256.0 * i0);
	idx[0] = address_index((long)i0, (long)n, mode);
	idx[1] = address_index((long)i0 + 1, (long)n, mode);
	return true;
}

/* One lane's point sample: the texel of each coordinate c (the slice of an array rounded) after
 * DST_SEL, or the border colour.  false after a fault. */
static bool point_lane(struct sim_wave *w, const struct tdesc *t, const struct sdesc *sd,
                       const float c[3], unsigned dims, uint32_t comp[4])
{
	const unsigned size[3] = {t->width, t->height, t->depth};
	unsigned slice_axis = t->type == 13   ? 2
	                      : t->type == 12 ? 1
	                                      : 3; /* the array's coordinate */
	long at[3] = {0, 0, 0};
	for (unsigned i = 0; i < dims; i++) {
		at[i] = i == slice_axis ? array_slice(w, c[i], t->depth)
		                        : sample_index(w, c[i], size[i], sd, sd->clamp[i]);
		if (at[i] == -2)
			return false;
	}
	if (t->type == 12) /* a 1D array: its slices are rows */
		at[2] = at[1], at[1] = 0;
	return texel_or_border(w, t, sd, at, comp);
}

/* One lane's linear sample of a 1D, 2D or 3D image or a 1D/2D array: along each filtered axis
 * (x; y of 2D and 3D; z of 3D with Z_FILTER linear) the two texels of bilinear_axis with weights
 * 256 - a and a, along the others the one texel point sampling picks (an array's slice rounded),
 * and the weighted sum of the footprint's 2, 4 or 8 texels (border colour outside), computed
 * exactly in double and rounded once to f32, per component after DST_SEL -- CUDA's definition
 * of linear filtering in 1D, 2D and 3D; float and unorm formats only (CUDA filters only textures
 * that return floats).  false after a fault. */
static bool bilinear_lane(struct sim_wave *w, const struct tdesc *t, const struct sdesc *sd,
                          const float c[3], uint32_t comp[4])
{
	if (t->fmt->kind != SIM_TEXEL_FLOAT && t->fmt->kind != SIM_TEXEL_UNORM) {
		sim_fault(w, "linear filtering of an integer format: not simulated");
		return false;
	}
	bool two = t->type == 9 || t->type == 13 || t->type == 10;
	const unsigned size[3] = {t->width, t->height, t->depth};
	bool filtered[3] = {true, two, t->type == 10 && sd->z_linear};
	long idx[3][2] = {{0, 0}, {0, 0}, {0, 0}};
	unsigned a[3] = {0, 0, 0};
	for (unsigned i = 0; i < 2; i++)
		if (filtered[i] &&
		    !bilinear_axis(w, c[i], size[i], sd, sd->clamp[i], idx[i], &a[i]))
			return false;
	if (filtered[2]) {
		if (!bilinear_axis(w, c[2], t->depth, sd, sd->clamp[2], idx[2], &a[2]))
			return false;
	} else if (t->type == 10) { /* Z_FILTER point */
		if ((idx[2][0] = sample_index(w, c[2], t->depth, sd, sd->clamp[2])) == -2)
			return false;
	} else if (t->type == 12 || t->type == 13) {
		if ((idx[2][0] = array_slice(w, c[t->type == 12 ? 1 : 2], t->depth)) == -2)
			return false;
	}
	double sum[4] = {0, 0, 0, 0};
	for (unsigned k = 0; k < 8; k++) {
		double weight = 1;
		long at[3];
		bool skip = false;
		for (unsigned i = 0; i < 3; i++) {
			unsigned bit = k >> i & 1;
			skip |= bit && !filtered[i];
			at[i] = idx[i][bit];
			weight *= filtered[i] ? (bit ? a[i] : 256 - a[i]) / 256.0 : 1.0;
		}
		uint32_t tc[4];
		if (skip)
			continue;
		if (!texel_or_border(w, t, sd, at, tc))
			return false;
		for (unsigned i = 0; i < 4; i++) {
			float v;
			memcpy(&v, &tc[i], 4);
			sum[i] += weight * v;
		}
	}
	for (unsigned i = 0; i < 4; i++) {
		float v = (float)sum[i];
		memcpy(&comp[i], &v, 4);
	}
	return true;
}

/* Mip level m of an image of several levels, in amdsim's layout (sim_image_level_offset): its
 * base, size and pitch (a 3D image's depth halves too, an array keeps its layers). */
static struct tdesc level_of(const struct tdesc *t, unsigned m)
{
	struct tdesc l = *t;
	unsigned texel = t->fmt->channels * t->fmt->bytes;
	bool has_y = t->type == 9 || t->type == 10 || t->type == 13, shrink = t->type == 10;
	l.width = t->width >> m ? t->width >> m : 1;
	l.height = has_y && t->height >> m ? t->height >> m : 1;
	l.depth = !shrink ? t->depth : t->depth >> m ? t->depth >> m : 1;
	l.pitch = l.width;
	l.base = t->base + sim_image_level_offset(t->width, has_y ? t->height : 1, t->depth, shrink,
	                                          texel, m);
	return l;
}

/* The level a sample reads (docs/TEXTURES.md "Mip levels"): BASE_LEVEL for MIP_FILTER none or
 * without an LOD (image_sample_lz), else the LOD clamped to the sampler's [MIN_LOD, MAX_LOD],
 * rounded to the nearest level (MIP_FILTER point) counted from BASE_LEVEL and clamped to
 * LAST_LEVEL; an LOD within 1/64 of a rounding tie (or not finite) stops the run, the hardware
 * computing it in 4.8 fixed point.  -1 after a fault. */
static long mip_level(struct sim_wave *w, const struct tdesc *t, const struct sdesc *sd,
                      bool has_lod, float lod)
{
	if (!has_lod || sd->mip_filter == 0)
		return t->base_level;
	double v = lod, lo = sd->min_lod / 256.0, hi = sd->max_lod / 256.0;
	v = v < lo ? lo : v > hi ? hi : v;
	if (!isfinite(lod) || fabs(v - floor(v) - 0.5) < 1.0 / 64) {
		sim_fault(w,
		          "image_sample_l LOD %.9g within 1/64 of a level's rounding tie (or not "
		          "finite): not simulated",
		          (double)lod);
		return -1;
	}
	long m = (long)t->base_level + (long)floor(v + 0.5);
	return m > (long)t->last_level ? (long)t->last_level : m;
}

static void sample_at(struct sim_wave *w, const struct sim_insn *in, enum sample_kind kind)
{
	struct tdesc t;
	struct sdesc sd;
	if (!read_tdesc(w, in, &t, true) || !read_sdesc(w, in, &sd))
		return;
	unsigned dmask = (uint32_t)in->imm & 15, n = (unsigned)__builtin_popcount(dmask);
	unsigned dreg = in->dst - SIM_VGPR0;
	unsigned dims = t.type == 8 ? 1 : t.type == 9 || t.type == 12 ? 2 : 3;
	/* image_sample_d: d/dx and d/dy of each coordinate but an array's slice come first */
	unsigned first = kind == SAMPLE_D ? 2 * (dims - (t.type == 12 || t.type == 13)) : 0;
	read_address_n(w, in, first + dims + (kind == SAMPLE_L));
	unsigned reg[3];
	for (unsigned i = 0; i < dims; i++)
		reg[i] = address_vgpr(w, in, first + i);
	bool levels = t.last_level > t.base_level || t.base_level;
	if (t.last_level > t.base_level &&
	    (kind == SAMPLE_D || kind == SAMPLE_IMPLICIT || sd.lod_bias)) {
		sim_fault(w,
		          "a level of detail from derivatives or with an LOD_BIAS on a mipmapped "
		          "image: not simulated");
		return;
	}
	sim_chk_write_v(w, in, dreg, n ? n : 1);
	uint32_t op = sim_chk_issue(w, in);
	for (uint64_t m = sim_exec(w); m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m), r = 0;
		float c[3] = {0, 0, 0}, lod = 0;
		for (unsigned i = 0; i < dims; i++)
			memcpy(&c[i], &VROW(w, reg[i])[l], 4);
		if (kind == SAMPLE_L)
			memcpy(&lod, &VROW(w, address_vgpr(w, in, first + dims))[l], 4);
		long lv = levels ? mip_level(w, &t, &sd, kind == SAMPLE_L, lod) : 0;
		if (lv < 0)
			return;
		struct tdesc at = levels ? level_of(&t, (unsigned)lv) : t;
		uint32_t comp[4];
		if (!(sd.bilinear ? bilinear_lane(w, &at, &sd, c, comp)
		                  : point_lane(w, &at, &sd, c, dims, comp)))
			return;
		for (unsigned i = 0; i < 4; i++)
			if (dmask >> i & 1)
				VROW(w, dreg + r++)[l] = comp[i];
	}
	sim_chk_pending_v(w, op, dreg, n ? n : 1);
}

/* buffer_load_format_xyzw (idxen, no other offset) through the V# in saddr..+3: the element at
 * the index, converted by the V#'s format and DST_SEL as image_load converts a texel -- what
 * tex1Dfetch reads from a HIP linear-memory texture (image_desc.c's linear_descriptor).  An
 * index at or past NUM_RECORDS, other offsets, a stride other than the element size stop the
 * run (not simulated). */
static void buffer_load_format(struct sim_wave *w, const struct sim_insn *in)
{
	uint32_t d[4];
	enum amd_gen gen = w->ctx->gen;
	sim_chk_sgpr_vmem(w, in, in->saddr, 4);
	for (unsigned i = 0; i < 4; i++)
		d[i] = sim_rd_s32(w, in, (uint16_t)(in->saddr + i));
	struct sim_field ff = sim_buffer_format_field(gen);
	uint32_t code = (d[3] >> ff.shift) & ((1u << ff.bits) - 1);
	if (gen == AMD_GFX9) /* NUM_FORMAT 14:12, DATA_FORMAT 18:15 -> DATA | NUM << 6 */
		code = (code >> 3) | (code & 7) << 6;
	struct tdesc t = {.dst_sel = d[3] & 0xfff, .fmt = sim_image_format_of_code(gen, code)};
	uint64_t base = d[0] | (uint64_t)(d[1] & 0xffff) << 32;
	uint32_t stride = (d[1] >> 16) & 0x3fff, nrec = d[2];
	const char *why = !t.fmt                               ? "a format not simulated"
	                  : !in->idxen || in->offen || in->imm ? "offsets other than an index"
	                  : sim_rd_s32(w, in, in->soffset)     ? "an soffset"
	                  : stride != t.fmt->channels * t.fmt->bytes
	                          ? "a stride other than the element"
	                          : NULL;
	if (why) {
		sim_fault(w, "buffer_load_format with %s: not simulated", why);
		return;
	}
	unsigned vidx = in->src[0] - SIM_VGPR0, dreg = in->dst - SIM_VGPR0;
	sim_chk_read_v(w, in, vidx, 1);
	sim_chk_write_v(w, in, dreg, 4);
	uint32_t op = sim_chk_issue(w, in);
	for (uint64_t m = sim_exec(w); m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint32_t idx = VROW(w, vidx)[l], comp[4];
		if (idx >= nrec) {
			sim_fault(
			        w,
			        "buffer_load_format at index %u past NUM_RECORDS %u: not simulated",
			        idx, nrec);
			return;
		}
		const uint8_t *p =
		        sim_mem_map(w->ctx, base + (uint64_t)idx * stride, stride, false);
		if (!p) {
			sim_fault(w, "buffer_load_format element %u outside device memory", idx);
			return;
		}
		texel_components(&t, p, comp);
		for (unsigned i = 0; i < 4; i++)
			VROW(w, dreg + i)[l] = comp[i];
	}
	sim_chk_pending_v(w, op, dreg, 4);
}

/* image_gather4_lz (2D, level 0): channel dmask (one bit) of the four texels of the bilinear
 * footprint, counter-clockwise from the lower left -- (i0, j1), (i1, j1), (i1, j0), (i0, j0) --
 * the order of D3D's gather4, which the PTX ISA's tld4 states too. */
static void image_gather4_lz(struct sim_wave *w, const struct sim_insn *in)
{
	struct tdesc t;
	struct sdesc sd;
	if (!read_tdesc(w, in, &t, false) || !read_sdesc(w, in, &sd))
		return;
	unsigned dmask = (uint32_t)in->imm & 15, dreg = in->dst - SIM_VGPR0;
	if ((t.type != 9 && t.type != 13) || __builtin_popcount(dmask) != 1) {
		sim_fault(w, "image_gather4_lz other than one channel of a 2D image or array: not "
		             "simulated");
		return;
	}
	unsigned ch = (unsigned)__builtin_ctz(dmask);
	read_address_n(w, in, t.type == 13 ? 3 : 2); /* x, y[, the slice] */
	sim_chk_write_v(w, in, dreg, 4);
	uint32_t op = sim_chk_issue(w, in);
	unsigned xreg = address_vgpr(w, in, 0), yreg = address_vgpr(w, in, 1);
	static const unsigned corner[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
	for (uint64_t m = sim_exec(w); m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		float u, v;
		memcpy(&u, &VROW(w, xreg)[l], 4);
		memcpy(&v, &VROW(w, yreg)[l], 4);
		long xi[2], yi[2], slice = 0;
		if (!footprint(w, u, t.width, &sd, sd.clamp[0], xi) ||
		    !footprint(w, v, t.height, &sd, sd.clamp[1], yi))
			return;
		if (t.type ==
		    13) { /* a 2D array: the slice rounded and clamped, as sampling does */
			float sl;
			memcpy(&sl, &VROW(w, address_vgpr(w, in, 2))[l], 4);
			if ((slice = array_slice(w, sl, t.depth)) == -2)
				return;
		}
		uint32_t out[4];
		for (unsigned k = 0; k < 4; k++) {
			uint32_t comp[4];
			long at[3] = {xi[corner[k][0]], yi[corner[k][1]], slice};
			if (!texel_or_border(w, &t, &sd, at, comp))
				return;
			out[k] = comp[ch];
		}
		for (unsigned k = 0; k < 4; k++)
			VROW(w, dreg + k)[l] = out[k];
	}
	sim_chk_pending_v(w, op, dreg, 4);
}

static void image_sample_lz(struct sim_wave *w, const struct sim_insn *in)
{
	sample_at(w, in, SAMPLE_LZ);
}

static void image_sample(struct sim_wave *w, const struct sim_insn *in)
{
	sample_at(w, in, SAMPLE_IMPLICIT);
}

static void image_sample_l(struct sim_wave *w, const struct sim_insn *in)
{
	sample_at(w, in, SAMPLE_L);
}

static void image_sample_d(struct sim_wave *w, const struct sim_insn *in)
{
	sample_at(w, in, SAMPLE_D);
}

/* image_atomic_add/smin/umin/smax/umax/and/or (sem arg: the operation) on a texel of one 32-bit
 * integer channel (dmask 1, identity DST_SEL): read, combine with the data VGPR, write, lane by
 * lane; with glc (gfx12: th TH_ATOMIC_RETURN) the old value returns in the data VGPR.  Other
 * formats and dmasks stop the run (not simulated). */
enum { IA_ADD, IA_SMIN, IA_UMIN, IA_SMAX, IA_UMAX, IA_AND, IA_OR };

static uint32_t image_atomic_apply(unsigned op, uint32_t old, uint32_t v)
{
	int32_t so = (int32_t)old, sv = (int32_t)v;
	switch (op) {
	case IA_ADD:
		return old + v;
	case IA_SMIN:
		return (uint32_t)(sv < so ? sv : so);
	case IA_UMIN:
		return v < old ? v : old;
	case IA_SMAX:
		return (uint32_t)(sv > so ? sv : so);
	case IA_UMAX:
		return v > old ? v : old;
	case IA_AND:
		return old & v;
	default:
		return old | v;
	}
}

static void image_atomic(struct sim_wave *w, const struct sim_insn *in)
{
	struct tdesc t;
	if (!read_tdesc(w, in, &t, false))
		return;
	const struct sim_image_format_info *f = t.fmt;
	if (f->channels != 1 || f->bytes != 4 || f->kind == SIM_TEXEL_FLOAT ||
	    ((uint32_t)in->imm & 15) != 1 || (t.dst_sel & 7) != 4) {
		sim_fault(w,
		          "image atomics other than on one 32-bit integer channel (dmask 1): not "
		          "simulated");
		return;
	}
	unsigned reg = in->src[1] - SIM_VGPR0;
	bool ret = in->glc;
	read_address(w, in, &t);
	sim_chk_read_v(w, in, reg, 1);
	if (ret)
		sim_chk_write_v(w, in, reg, 1);
	uint32_t id = sim_chk_issue(w, in);
	for (uint64_t m = sim_exec(w); m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint64_t a = texel_addr(w, in, &t, l);
		uint8_t *p = a ? sim_mem_map(w->ctx, a, 4, true) : NULL;
		if (!p) {
			if (a)
				sim_fault(w, "image texel at 0x%llx outside device memory",
				          (unsigned long long)a);
			return;
		}
		uint32_t old, nv;
		memcpy(&old, p, 4);
		nv = image_atomic_apply(in->sem->arg, old, VROW(w, reg)[l]);
		memcpy(p, &nv, 4);
		if (ret)
			VROW(w, reg)[l] = old;
	}
	if (ret)
		sim_chk_pending_v(w, id, reg, 1);
}

#define IA(name, op)                                                                               \
	{                                                                                          \
		name, image_atomic, SIM_CLASS_VMEM_ATOMIC, SIM_MEM_VATOMIC_RET, 0, 4, op           \
	}

static const struct sim_sem image_sems[] = {
        {"image_sample_l", image_sample_l, SIM_CLASS_VMEM_LOAD, SIM_MEM_VLOAD, 0, 16, 0},
        {"image_gather4_lz", image_gather4_lz, SIM_CLASS_VMEM_LOAD, SIM_MEM_VLOAD, 0, 16, 0},
        {"image_sample_d", image_sample_d, SIM_CLASS_VMEM_LOAD, SIM_MEM_VLOAD, 0, 16, 0},
        {"buffer_load_format_xyzw", buffer_load_format, SIM_CLASS_VMEM_LOAD, SIM_MEM_VLOAD, 0, 16,
         0},
        {"image_sample_lz", image_sample_lz, SIM_CLASS_VMEM_LOAD, SIM_MEM_VLOAD, 0, 16, 0},
        /* image_sample: its level of detail comes from the quad's derivatives, but over a
         * resource of one level (sample_at refuses others) with the same filter for
         * magnification and minification (read_sdesc) every LOD samples that level as
         * image_sample_lz does (gfx90a has no image_sample_lz) */
        {"image_sample", image_sample, SIM_CLASS_VMEM_LOAD, SIM_MEM_VLOAD, 0, 16, 0},
        {"image_load", image_load, SIM_CLASS_VMEM_LOAD, SIM_MEM_VLOAD, 0, 16, 0},
        {"image_store", image_store, SIM_CLASS_VMEM_STORE, SIM_MEM_VSTORE, 0, 16, 0},
        IA("image_atomic_add", IA_ADD),
        IA("image_atomic_smin", IA_SMIN),
        IA("image_atomic_umin", IA_UMIN),
        IA("image_atomic_smax", IA_SMAX),
        IA("image_atomic_umax", IA_UMAX),
        IA("image_atomic_and", IA_AND),
        IA("image_atomic_or", IA_OR),
        /* gfx12's names of the same */
        IA("image_atomic_add_uint", IA_ADD),
        IA("image_atomic_min_int", IA_SMIN),
        IA("image_atomic_min_uint", IA_UMIN),
        IA("image_atomic_max_int", IA_SMAX),
        IA("image_atomic_max_uint", IA_UMAX),
};

const struct sim_sem *sim_sems_image(unsigned *n)
{
	*n = sizeof image_sems / sizeof image_sems[0];
	return image_sems;
}
