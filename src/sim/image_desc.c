/* image_desc: the descriptor block of an image argument, as HIP's runtime lays it out for a
 * texture/surface object (docs/TEXTURES.md): dwords 0-7 the image resource (T#), 8 the HSA
 * channel type, 9 the HSA channel order, 10 the width, 12-15 the sampler (S#: point or (tri)linear
 * filtering, the spec's address mode on x and y, unnormalized or not, border colour type), 80 bytes
 * in all.  The T# follows the layouts of AMD's ROCR-Runtime (src/image/resource_gfx11.h,
 * resource_nv.h, image_manager_ai.cpp for gfx9) and, for gfx12, the field names of Mesa's
 * ac_descriptors.c: base address >> 8; the format (gfx9: DATA_FORMAT 25:20 and NUM_FORMAT
 * 29:26 of word 1; gfx10: a 9-bit unified FORMAT at 20; gfx11: 8 bits at 20; gfx12: 8 bits at
 * 17 -- see sim_image_tdesc_layout); WIDTH-1 (gfx9: word 2 bits 13:0; gfx10+: word 1 bits 31:30
 * and word 2 bits 11:0), HEIGHT-1 (word 2 bits 27:14 everywhere), DST_SEL, SW_MODE 0 (linear),
 * TYPE (word 3 bits 31:28), the row PITCH-1 (gfx9: word 4 bits 28:13; later: bits 13:0).  The
 * sampler words are the same on every generation as far as they are written here.
 * sem_image.c reads the same fields back.  Pure; O(1). */
#include <stdio.h>
#include <string.h>

#include "sim_int.h"

/* HSA channel types and orders (hsa_ext_image_channel_type_t / _order_t) */
enum {
	HSA_UNORM_INT8 = 2,
	HSA_SIGNED_INT32 = 10,
	HSA_UNSIGNED_INT8 = 11,
	HSA_UNSIGNED_INT32 = 13,
	HSA_FLOAT = 15
};
enum { HSA_ORDER_R = 1, HSA_ORDER_RG = 3, HSA_ORDER_RGBA = 8 };
/* DST_SEL values: 0 zero, 1 one, 4-7 the texel's X/Y/Z/W */
#define SEL(x, y, z, w) ((x) | (y) << 3 | (z) << 6 | (w) << 9)

/* gfx9: DATA_FORMAT 8 1, 32 4, 8_8_8_8 10, 32_32 11, 32_32_32_32 14; NUM_FORMAT UNORM 0,
 * UINT 4, SINT 5, FLOAT 7 (AMD's Vega ISA manual, "Image Resource") */
static const struct sim_image_format_info formats[SIM_NUM_IMAGE_FORMATS] = {
        [SIM_IMG_R32F] = {1, 4, SIM_TEXEL_FLOAT, 22, 22, HSA_FLOAT, HSA_ORDER_R, SEL(4, 0, 0, 1),
                          4 | 7 << 6},
        [SIM_IMG_R32UI] = {1, 4, SIM_TEXEL_UINT, 20, 20, HSA_UNSIGNED_INT32, HSA_ORDER_R,
                           SEL(4, 0, 0, 1), 4 | 4 << 6},
        [SIM_IMG_R32I] = {1, 4, SIM_TEXEL_SINT, 21, 21, HSA_SIGNED_INT32, HSA_ORDER_R,
                          SEL(4, 0, 0, 1), 4 | 5 << 6},
        [SIM_IMG_RG32F] = {2, 4, SIM_TEXEL_FLOAT, 50, 64, HSA_FLOAT, HSA_ORDER_RG, SEL(4, 5, 0, 1),
                           11 | 7 << 6},
        [SIM_IMG_RGBA32F] = {4, 4, SIM_TEXEL_FLOAT, 63, 77, HSA_FLOAT, HSA_ORDER_RGBA,
                             SEL(4, 5, 6, 7), 14 | 7 << 6},
        [SIM_IMG_RGBA32UI] = {4, 4, SIM_TEXEL_UINT, 61, 75, HSA_UNSIGNED_INT32, HSA_ORDER_RGBA,
                              SEL(4, 5, 6, 7), 14 | 4 << 6},
        [SIM_IMG_R8] = {1, 1, SIM_TEXEL_UNORM, 1, 1, HSA_UNORM_INT8, HSA_ORDER_R, SEL(4, 0, 0, 1),
                        1 | 0 << 6},
        [SIM_IMG_R8UI] = {1, 1, SIM_TEXEL_UINT, 5, 5, HSA_UNSIGNED_INT8, HSA_ORDER_R,
                          SEL(4, 0, 0, 1), 1 | 4 << 6},
        [SIM_IMG_RGBA8] = {4, 1, SIM_TEXEL_UNORM, 42, 56, HSA_UNORM_INT8, HSA_ORDER_RGBA,
                           SEL(4, 5, 6, 7), 10 | 0 << 6},
        [SIM_IMG_RGBA8UI] = {4, 1, SIM_TEXEL_UINT, 46, 60, HSA_UNSIGNED_INT8, HSA_ORDER_RGBA,
                             SEL(4, 5, 6, 7), 10 | 4 << 6},
};

const struct sim_image_format_info *sim_image_format(enum sim_image_format f)
{
	return (unsigned)f < SIM_NUM_IMAGE_FORMATS ? &formats[f] : NULL;
}

/* The format code a generation's T# holds for f (sim_image_format_field places it). */
static unsigned format_code(enum amd_gen gen, const struct sim_image_format_info *f)
{
	return gen == AMD_GFX9    ? f->gfx9_format
	       : gen == AMD_GFX10 ? f->gfx10_format
	                          : f->gfx11_format;
}

struct sim_field sim_image_format_field(enum amd_gen gen)
{
	struct sim_field f = {20, gen == AMD_GFX9 ? 10u : gen == AMD_GFX10 ? 9u : 8u};
	if (gen == AMD_GFX12)
		f.shift = 17;
	return f;
}

const struct sim_image_format_info *sim_image_format_of_code(enum amd_gen gen, unsigned code)
{
	for (unsigned i = 0; i < SIM_NUM_IMAGE_FORMATS; i++)
		if (format_code(gen, &formats[i]) == code)
			return &formats[i];
	return NULL;
}

static uint32_t level_size(uint32_t n, unsigned m)
{
	return n >> m ? n >> m : 1;
}

uint64_t sim_image_level_offset(uint32_t w, uint32_t h, uint32_t d, bool shrink_d, unsigned texel,
                                unsigned m)
{
	uint64_t off = 0;
	for (unsigned j = 0; j < m; j++) {
		off += (uint64_t)level_size(w, j) * level_size(h, j) *
		       (shrink_d ? level_size(d, j) : d) * texel;
		off = (off + 255) & ~(uint64_t)255;
	}
	return off;
}

uint64_t sim_image_bytes(const struct sim_image_spec *s)
{
	const struct sim_image_format_info *f = sim_image_format(s->format);
	if (f && s->levels > 1) { /* a 3D image's depth shrinks with the level, layers do not */
		unsigned texel = f->channels * f->bytes, last = s->levels - 1u;
		uint32_t h = s->height ? s->height : 1, d = s->depth ? s->depth : 1;
		bool shrink = s->depth && !s->array;
		return sim_image_level_offset(s->width, h, d, shrink, texel, last) +
		       (uint64_t)level_size(s->width, last) * level_size(h, last) *
		               (shrink ? level_size(d, last) : d) * texel;
	}
	uint64_t n = (uint64_t)s->width * (s->height ? s->height : 1) * (s->depth ? s->depth : 1);
	/* a 1D array: width x layers */
	return f ? n * f->channels * f->bytes : 0;
}

struct sim_field sim_buffer_format_field(enum amd_gen gen)
{
	struct sim_field f = {12, 7};
	if (gen == AMD_GFX12)
		f.bits = 6;
	return f;
}

/* The buffer descriptor (V#) of a 1D texture over linear memory, as ROCR-Runtime's
 * PopulateImageSrd writes it for HSA's 1DB geometry: base address (words 0, 1 bits 15:0), STRIDE
 * = the element size (word 1 bits 29:16), NUM_RECORDS = width * element size (word 2), DST_SEL
 * and the format in word 3 (gfx9: NUM_FORMAT 14:12, DATA_FORMAT 18:15; gfx10/gfx11: FORMAT
 * 18:12; gfx12: 17:12, sim_buffer_format_field), TYPE 0 (a buffer; an image T#'s TYPE is 8 or
 * more, so word 3 bit 31 tells them apart). */
static bool linear_descriptor(enum amd_gen gen, const struct sim_image_spec *s,
                              const struct sim_image_format_info *f, uint64_t data,
                              uint32_t words[SIM_IMAGE_BLOCK_DWORDS], char *err, size_t errlen)
{
	if (s->height) {
		snprintf(err, errlen, "a linear (buffer) texture is 1D");
		return false;
	}
	uint32_t esize = (uint32_t)f->channels * f->bytes, code = format_code(gen, f);
	if (gen == AMD_GFX9) /* DATA_FORMAT | NUM_FORMAT << 6 -> NUM_FORMAT 14:12, DATA 18:15 */
		code = (code >> 6) | (code & 15) << 3;
	words[0] = (uint32_t)data;
	words[1] = ((uint32_t)(data >> 32) & 0xffffu) | esize << 16;
	words[2] = s->width * esize;
	words[3] = f->dst_sel | code << sim_buffer_format_field(gen).shift;
	return true;
}

bool sim_image_descriptor(enum amd_gen gen, const struct sim_image_spec *s, uint64_t data,
                          uint32_t words[SIM_IMAGE_BLOCK_DWORDS], char *err, size_t errlen)
{
	const struct sim_image_format_info *f = sim_image_format(s->format);
	memset(words, 0, SIM_IMAGE_BLOCK_DWORDS * 4);
	if (gen == AMD_GFX940) {
		snprintf(err, errlen, "gfx942 has no image instructions: no image arguments");
		return false;
	}
	if (!f || !s->width || s->width > 16384 || s->height > 16384 || (data & 0xff) ||
	    (s->depth && ((!s->height && !s->array) || s->linear)) || (s->array && !s->depth)) {
		snprintf(err, errlen, "bad image: format, width/height 1-16384, aligned data");
		return false;
	}
	uint32_t largest = s->width > s->height ? s->width : s->height;
	if (s->depth && !s->array && s->depth > largest)
		largest = s->depth;
	if (s->levels > 1 && (s->linear || s->levels > 15 || !(largest >> (s->levels - 1u)))) {
		snprintf(err, errlen,
		         "bad image: mip levels down to one texel at most, not linear");
		return false;
	}
	words[8] = f->hsa_type;
	words[9] = f->hsa_order;
	words[10] = s->width;
	if (s->linear)
		return linear_descriptor(gen, s, f, data, words, err, errlen);
	uint32_t w1 = s->width - 1, h1 = s->height ? s->height - 1 : 0;
	struct sim_field ff = sim_image_format_field(gen);
	words[0] = (uint32_t)(data >> 8);
	words[1] = (uint32_t)(data >> 40) & 0xffu;
	words[1] |= (uint32_t)format_code(gen, f) << ff.shift;
	/* 3D and 2D arrays: DEPTH-1 (the last slice) at word 4 bits 12:0, the slices one after the
	 * other (rows of the width; gfx10+ take no custom pitch for them) */
	uint32_t d1 = s->depth ? s->depth - 1 : 0;
	if (gen == AMD_GFX9) { /* WIDTH 13:0 of word 2; PITCH-1 28:13 of word 4 */
		words[2] = w1 | h1 << 14;
		words[4] = w1 << 13 | d1;
	} else { /* WIDTH-1 split: bits 1:0 at word 1 31:30, the rest at word 2 11:0 */
		words[1] |= (w1 & 3u) << 30;
		words[2] = (w1 >> 2) | h1 << 14;
		words[4] = s->depth ? d1 : w1; /* DEPTH-1, or the row pitch - 1 of 1D/2D */
	}
	uint32_t type = !s->depth ? (s->height ? 9u : 8u) : !s->array ? 10u : s->height ? 13u : 12u;
	words[3] = f->dst_sel | type << 28; /* BASE_LEVEL 0, SW_MODE 0, TYPE */
	words[12] = s->addr_mode | (uint32_t)s->addr_mode << 3 | (uint32_t)s->addr_mode << 6 |
	            (uint32_t)s->unnormalized << 15;
	/* XY_MAG_FILTER, XY_MIN_FILTER and Z_FILTER (a 3D image's third axis) all linear */
	words[14] = s->bilinear ? 1u << 20 | 1u << 22 | 1u << 24 : 0;
	words[15] = (uint32_t)s->border << 30;
	if (s->levels > 1) { /* LAST_LEVEL (gfx12: word 3 bits 19:15), the sampler's MAX_LOD (4.8
		              * fixed point) and MIP_FILTER point */
		uint32_t last = s->levels - 1u;
		words[3] |= last << (gen == AMD_GFX12 ? 15 : 16);
		words[13] = (last << 8) << 12;
		words[14] |= 1u << 26;
	}
	return true;
}
