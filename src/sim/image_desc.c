/* image_desc: the descriptor block of an image argument, as HIP's runtime lays it out for a
 * texture/surface object (docs/TEXTURES.md): dwords 0-7 the image resource (T#), 8 the HSA
 * channel type, 9 the HSA channel order, 10 the width, 12-15 the sampler (S#: point filtering,
 * the spec's address mode on x and y, unnormalized or not, border colour type), 80 bytes in
 * all.  The T# follows the gfx11 and
 * gfx10 layouts of AMD's ROCR-Runtime (src/image/resource_gfx11.h, resource_nv.h): base
 * address >> 8, unified FORMAT (8 bits at 20 on gfx11, 9 bits on gfx10, numbered differently),
 * WIDTH-1/HEIGHT-1, DST_SEL, SW_MODE 0 (linear), TYPE, PITCH-1.  gfx9 and gfx12 are refused
 * until their layouts are written.  sem_image.c reads the same fields back.
 * Pure; O(1). */
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

static const struct sim_image_format_info formats[SIM_NUM_IMAGE_FORMATS] = {
        [SIM_IMG_R32F] = {1, 4, SIM_TEXEL_FLOAT, 22, 22, HSA_FLOAT, HSA_ORDER_R, SEL(4, 0, 0, 1)},
        [SIM_IMG_R32UI] = {1, 4, SIM_TEXEL_UINT, 20, 20, HSA_UNSIGNED_INT32, HSA_ORDER_R,
                           SEL(4, 0, 0, 1)},
        [SIM_IMG_R32I] = {1, 4, SIM_TEXEL_SINT, 21, 21, HSA_SIGNED_INT32, HSA_ORDER_R,
                          SEL(4, 0, 0, 1)},
        [SIM_IMG_RG32F] = {2, 4, SIM_TEXEL_FLOAT, 50, 64, HSA_FLOAT, HSA_ORDER_RG, SEL(4, 5, 0, 1)},
        [SIM_IMG_RGBA32F] = {4, 4, SIM_TEXEL_FLOAT, 63, 77, HSA_FLOAT, HSA_ORDER_RGBA,
                             SEL(4, 5, 6, 7)},
        [SIM_IMG_RGBA32UI] = {4, 4, SIM_TEXEL_UINT, 61, 75, HSA_UNSIGNED_INT32, HSA_ORDER_RGBA,
                              SEL(4, 5, 6, 7)},
        [SIM_IMG_R8] = {1, 1, SIM_TEXEL_UNORM, 1, 1, HSA_UNORM_INT8, HSA_ORDER_R, SEL(4, 0, 0, 1)},
        [SIM_IMG_R8UI] = {1, 1, SIM_TEXEL_UINT, 5, 5, HSA_UNSIGNED_INT8, HSA_ORDER_R,
                          SEL(4, 0, 0, 1)},
        [SIM_IMG_RGBA8] = {4, 1, SIM_TEXEL_UNORM, 42, 56, HSA_UNORM_INT8, HSA_ORDER_RGBA,
                           SEL(4, 5, 6, 7)},
        [SIM_IMG_RGBA8UI] = {4, 1, SIM_TEXEL_UINT, 46, 60, HSA_UNSIGNED_INT8, HSA_ORDER_RGBA,
                             SEL(4, 5, 6, 7)},
};

const struct sim_image_format_info *sim_image_format(enum sim_image_format f)
{
	return (unsigned)f < SIM_NUM_IMAGE_FORMATS ? &formats[f] : NULL;
}

const struct sim_image_format_info *sim_image_format_of_code(enum amd_gen gen, unsigned code)
{
	for (unsigned i = 0; i < SIM_NUM_IMAGE_FORMATS; i++)
		if ((gen == AMD_GFX10 ? formats[i].gfx10_format : formats[i].gfx11_format) == code)
			return &formats[i];
	return NULL;
}

uint64_t sim_image_bytes(const struct sim_image_spec *s)
{
	const struct sim_image_format_info *f = sim_image_format(s->format);
	return f ? (uint64_t)s->width * (s->height ? s->height : 1) * f->channels * f->bytes : 0;
}

bool sim_image_descriptor(enum amd_gen gen, const struct sim_image_spec *s, uint64_t data,
                          uint32_t words[SIM_IMAGE_BLOCK_DWORDS], char *err, size_t errlen)
{
	const struct sim_image_format_info *f = sim_image_format(s->format);
	memset(words, 0, SIM_IMAGE_BLOCK_DWORDS * 4);
	if (gen != AMD_GFX10 && gen != AMD_GFX11) {
		snprintf(err, errlen, "image arguments are built for gfx10 and gfx11 only so far");
		return false;
	}
	if (!f || !s->width || s->width > 16384 || s->height > 16384 || (data & 0xff)) {
		snprintf(err, errlen, "bad image: format, width/height 1-16384, aligned data");
		return false;
	}
	uint32_t w1 = s->width - 1, h1 = s->height ? s->height - 1 : 0;
	words[0] = (uint32_t)(data >> 8);
	words[1] = (uint32_t)(data >> 40) & 0xffu;
	words[1] |= (uint32_t)(gen == AMD_GFX10 ? f->gfx10_format : f->gfx11_format) << 20;
	words[1] |= (w1 & 3u) << 30;
	words[2] = (w1 >> 2) | h1 << 14;
	words[3] = f->dst_sel | (s->height ? 9u : 8u) << 28; /* levels 0, SW_MODE 0, TYPE */
	words[4] = w1;                                       /* row pitch - 1: no padding */
	words[8] = f->hsa_type;
	words[9] = f->hsa_order;
	words[10] = s->width;
	words[12] = s->addr_mode | (uint32_t)s->addr_mode << 3 | (uint32_t)s->unnormalized << 15;
	words[15] = (uint32_t)s->border << 30;
	return true;
}
