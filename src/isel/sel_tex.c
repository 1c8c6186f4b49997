/* Instruction selection for the IR operations of build_tex.c (docs/TEXTURES.md): IMG_LOAD and
 * IMG_STORE become image_load/image_store on the surface's image resource (T#), read from the
 * handle's descriptor block with s_load_dwordx8 into s[88:95] right before each of them (a
 * fixed range: the allocator keeps virtual registers off it while it is live); IMG_HEIGHT
 * reads the resource's HEIGHT-1 field, IMG_DESC a dword of the block (s_load_dword).  The T#
 * must be in SGPRs, so a handle that differs between lanes is an error by name (a waterfall
 * loop over the distinct handles is not written yet).  Only gfx1030 and gfx1100 are selected:
 * their T# layout is the one read here and the one amdsim runs; gfx90a and gfx1200 are errors
 * by name until their layouts are tested, and gfx942 has no image instructions.
 * requires: nothing beyond the selector's state.  Complexity: O(1) per instruction. */
#include "isel/isel_int.h"

enum { TSHARP_SGPR = 88, SSHARP_SGPR = 84 }; /* s[84:87], s[88:95]: below the calls' 96 */

/* Whether this IR instruction reports the errors of its PTX instruction: one per PTX
 * instruction -- IMG_HEIGHT (which a 2D suld/sust computes before its accesses), a 1D
 * IMG_STORE, the first channel of a 1D IMG_LOAD or of an IMG_SAMPLE. */
static bool reports(const struct ir_insn *in)
{
	bool first = ((in->aux >> 4) & 1) != 0;
	switch (in->op) {
	case IR_IMG_HEIGHT:
		return true;
	case IR_IMG_STORE:
		return !(in->aux & 15);
	case IR_IMG_LOAD:
		return !(in->aux & 15) && first;
	default:
		return first;
	}
}

static const char *target_refusal(struct isel *s, const struct ir_insn *in)
{
	if (s->gen == AMD_GFX940)
		return "gfx942 has no image instructions: surfaces and textures cannot be accessed "
		       "(docs/TEXTURES.md)";
	if (s->gen != AMD_GFX10 && s->gen != AMD_GFX11)
		return "surface and texture instructions are generated for gfx1030 and gfx1100 "
		       "only so far: this target's image resource layout is not read yet "
		       "(docs/TEXTURES.md)";
	if (s->ir->vals[in->args[0]].divergent)
		return "a surface or texture handle that differs between the threads of a warp is "
		       "not supported yet (the image resource must be in scalar registers; "
		       "docs/TEXTURES.md)";
	return NULL;
}

static bool check_target(struct isel *s, const struct ir_insn *in)
{
	const char *why = target_refusal(s, in);
	if (!why)
		return true;
	if (reports(in))
		sel_error(s, "%s", why);
	s->failed = true; /* the others of its PTX instruction: reported once */
	return false;
}

/* s_load_dwordx8 of the T# (dwords 0-7 of the descriptor block). */
static struct mir_opnd load_tsharp(struct isel *s, ir_ref handle)
{
	struct mir_opnd rsrc = mir_sgpr(TSHARP_SGPR, 8);
	struct mir_opnd ops[3] = {rsrc, sel_sreg_opnd(s, handle, 2), mir_imm(0)};
	sel_emit(s, AMD_OP_S_LOAD_DWORDX8, 3, ops);
	return rsrc;
}

static struct mir_opnd coords(struct isel *s, const struct ir_insn *in)
{
	return sel_vgpr_opnd(s, in->args[1], (in->aux & 15) ? 2 : 0);
}

static void img_load(struct isel *s, const struct ir_insn *in)
{
	struct mir_opnd at = coords(s, in);
	struct mir_opnd rsrc = load_tsharp(s, in->args[0]);
	unsigned dmask = (in->aux >> 4) & 15, n = (unsigned)__builtin_popcount(dmask);
	struct mir_opnd ops[3] = {mir_vreg(sel_def(s, in->res), n), at, rsrc};
	struct mir_insn *mi = sel_emit(s, AMD_OP_IMAGE_LOAD, 3, ops);
	mi->dmask = (uint8_t)dmask;
	mi->dim = (uint8_t)(in->aux & 15);
}

/* The texel's dwords in one VGPR tuple: args[2] (i32 or i64) and, for 4, args[3] (i64). */
static struct mir_opnd store_data(struct isel *s, const struct ir_insn *in, unsigned dwords)
{
	if (dwords == 1)
		return sel_vgpr_opnd(s, in->args[2], 0);
	if (dwords == 2)
		return sel_vgpr_opnd(s, in->args[2], 2);
	uint32_t t = sel_new_vgpr(s, 4);
	for (unsigned k = 0; k < 4; k++)
		sel_copy(s, sel_sub(t, k, 1), sel_vsrc_opnd(s, in->args[2 + k / 2], k % 2));
	return mir_vreg(t, 4);
}

static void img_store(struct isel *s, const struct ir_insn *in)
{
	unsigned dwords = (in->aux >> 4) & 7;
	struct mir_opnd data = store_data(s, in, dwords), at = coords(s, in);
	struct mir_opnd rsrc = load_tsharp(s, in->args[0]);
	struct mir_opnd ops[3] = {data, at, rsrc};
	struct mir_insn *mi = sel_emit(s, AMD_OP_IMAGE_STORE, 3, ops);
	mi->dmask = (uint8_t)((1u << dwords) - 1);
	mi->dim = (uint8_t)(in->aux & 15);
}

/* HEIGHT-1 is bits 27:14 of T# dword 2 on gfx10 and gfx11 (ROCR-Runtime resource_nv.h,
 * resource_gfx11.h). */
static void img_height(struct isel *s, const struct ir_insn *in)
{
	uint32_t w = sel_new_sgpr(s, 1), f = sel_new_sgpr(s, 1);
	sel_emit(s, AMD_OP_S_LOAD_DWORD, 3,
	         (struct mir_opnd[]){mir_vreg(w, 1), sel_sreg_opnd(s, in->args[0], 2), mir_imm(8)});
	sel_emit(s, AMD_OP_S_BFE_U32, 3,
	         (struct mir_opnd[]){mir_vreg(f, 1), mir_vreg(w, 1), mir_imm(14 | 14 << 16)});
	struct mir_opnd ops[3] = {mir_vreg(sel_def(s, in->res), 1), mir_vreg(f, 1), mir_imm(1)};
	sel_emit(s, AMD_OP_S_ADD_U32, 3, ops);
}

/* A dword of the descriptor block: s_load_dword from a uniform handle, else the global load
 * an IR LOAD of it is (read-only memory for the kernel's lifetime). */
static bool img_desc(struct isel *s, const struct ir_insn *in)
{
	if (s->ir->vals[in->args[0]].divergent) {
		struct ir_insn load = *in;
		load.op = IR_LOAD;
		load.aux = IR_SPACE_GLOBAL | IR_MEM_NC | 2u << IR_MEM_SIZE_SHIFT;
		return sel_mem(s, &load);
	}
	struct mir_opnd ops[3] = {mir_vreg(sel_def(s, in->res), 1),
	                          sel_sreg_opnd(s, in->args[0], 2), mir_imm((uint32_t)in->imm)};
	sel_emit(s, AMD_OP_S_LOAD_DWORD, 3, ops);
	return true;
}

/* image_sample_lz with the T# and the S# (descriptor dwords 12-15, s_load_dwordx4 into
 * s[84:87]). */
static void img_sample(struct isel *s, const struct ir_insn *in)
{
	struct mir_opnd at = coords(s, in);
	struct mir_opnd rsrc = load_tsharp(s, in->args[0]), samp = mir_sgpr(SSHARP_SGPR, 4);
	struct mir_opnd lo[3] = {samp, sel_sreg_opnd(s, in->args[0], 2), mir_imm(4 * 12)};
	sel_emit(s, AMD_OP_S_LOAD_DWORDX4, 3, lo);
	struct mir_opnd ops[4] = {mir_vreg(sel_def(s, in->res), 1), at, rsrc, samp};
	struct mir_insn *mi = sel_emit(s, AMD_OP_IMAGE_SAMPLE_LZ, 4, ops);
	mi->dmask = (uint8_t)((in->aux >> 4) & 15);
	mi->dim = (uint8_t)(in->aux & 15);
}

bool sel_tex(struct isel *s, const struct ir_insn *in)
{
	if (in->op == IR_IMG_DESC)
		return img_desc(s, in);
	if (in->op != IR_IMG_LOAD && in->op != IR_IMG_STORE && in->op != IR_IMG_HEIGHT &&
	    in->op != IR_IMG_SAMPLE)
		return false;
	if (!check_target(s, in))
		return true;
	if (in->op == IR_IMG_LOAD)
		img_load(s, in);
	else if (in->op == IR_IMG_STORE)
		img_store(s, in);
	else if (in->op == IR_IMG_SAMPLE)
		img_sample(s, in);
	else
		img_height(s, in);
	return true;
}
