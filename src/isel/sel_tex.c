/* Instruction selection for the IR operations of build_tex.c (docs/TEXTURES.md): IMG_LOAD,
 * IMG_STORE, IMG_SAMPLE (_L, _D, 3, 3_L: image_sample_l/_d, three address dwords) and IMG_GATHER
 * become image_load/image_store/image_sample_lz/image_gather4_lz on the image resource
 * (T#), read from the handle's descriptor block with s_load_dwordx8 into s[88:95] right before
 * each of them (a fixed range: the allocator keeps virtual registers off it while it is live;
 * the sampler S# likewise into s[84:87]); IMG_HEIGHT reads the resource's HEIGHT-1 field,
 * IMG_DESC a dword of the block (s_load_dword, or a global load from a per-lane handle), CUBE
 * v_cubeid/sc/tc/ma_f32.  The
 * descriptors must be in SGPRs, so an access whose handle differs between lanes runs in a
 * waterfall loop over the distinct handles.  The T# fields read here (HEIGHT-1 at word 2 bits
 * 27:14, TYPE at word 3 bits 31:28, the levels on gfx90a) sit at the same places on gfx90a,
 * gfx1030, gfx1100 and gfx1200; gfx90a samples with image_sample over one level (one_level),
 * the others with image_sample_lz; gfx942 has no image instructions (an error by name).
 * requires: nothing beyond the selector's state.  Complexity: O(1) per instruction (the loop
 * runs once per distinct handle). */
#include "isel/isel_int.h"

enum { TSHARP_SGPR = 88, SSHARP_SGPR = 84 }; /* s[84:87], s[88:95]: below the calls' 96 */

/* Whether a surface access of this dim computes IMG_HEIGHT first (2D, 3D, 2D array; not 1D and
 * 1D array). */
static bool has_height(unsigned dim)
{
	return dim == 1 || dim == 2 || dim == 5;
}

/* Whether this IR instruction reports the target error of its PTX instruction: one per PTX
 * instruction -- IMG_HEIGHT (which a 2D/3D/2D-array suld/sust computes before its accesses), a
 * 1D or 1D-array IMG_STORE, the first channel of such an IMG_LOAD or of an IMG_SAMPLE, the x/y
 * IMG_FETCH. */
static bool reports(const struct ir_insn *in)
{
	bool first = ((in->aux >> 4) & 1) != 0;
	switch (in->op) {
	case IR_IMG_HEIGHT:
		return true;
	case IR_IMG_FETCH: /* the x, y half */
	case IR_IMG_GATHER:
	case IR_IMG_GATHER3:
		return !(in->aux & 1);
	case IR_IMG_STORE:
	case IR_IMG_ATOMIC:
		return !has_height(in->aux & 15);
	case IR_IMG_LOAD:
		return !has_height(in->aux & 15) && first;
	default:
		return first;
	}
}

static const char *target_refusal(struct isel *s, const struct ir_insn *in)
{
	if (s->gen == AMD_GFX940)
		return "gfx942 has no image instructions: surfaces and textures cannot be accessed "
		       "(docs/TEXTURES.md)";
	if (s->gen == AMD_GFX9 &&
	    (in->op == IR_IMG_SAMPLE_L || in->op == IR_IMG_SAMPLE_D || in->op == IR_IMG_SAMPLE3_L))
		return "gfx90a has no image_sample_l/image_sample_d: tex.level and tex.grad cannot "
		       "be generated there (docs/TEXTURES.md)";
	if (s->gen == AMD_GFX9 && (in->op == IR_IMG_GATHER || in->op == IR_IMG_GATHER3))
		return "gfx90a has no image_gather4: tld4 cannot be generated there "
		       "(docs/TEXTURES.md)";
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

/* What an access needs from before a waterfall loop: its coordinates and store data, computed
 * once under the original EXEC. */
struct access {
	struct mir_opnd at, data;
};

/* The address VGPRs of image_sample_l (the coordinates, then the LOD), image_sample_d (d/dx of
 * each coordinate, d/dy of each, then the coordinates: AMD's order) or the three-dword samples
 * (x, y, then z or the layer; IMG_SAMPLE3_L: then the LOD) in one new tuple; n: the
 * coordinates of args[1] (1 or 2, also the dwords of each derivative). */
static struct mir_opnd lod_grad_address(struct isel *s, const struct ir_insn *in, unsigned n)
{
	bool grad = in->op == IR_IMG_SAMPLE_D, lod3 = in->op == IR_IMG_SAMPLE3_L;
	const unsigned arg[3] = {grad ? 2u : 1u, grad ? 3u : 2u, grad ? 1u : 3u};
	const unsigned dwords[3] = {n, grad ? n : 1u, grad ? n : lod3 ? 1u : 0u};
	uint32_t t = sel_new_vgpr(s, dwords[0] + dwords[1] + dwords[2]), at = 0;
	for (unsigned p = 0; p < 3; p++)
		for (unsigned k = 0; k < dwords[p]; k++)
			sel_copy(s, sel_sub(t, at++, 1), sel_vsrc_opnd(s, in->args[arg[p]], k));
	return mir_vreg(t, at);
}

/* The x, y, z (or layer) VGPRs of a 3D or 2D-array image_load/image_store/image_atomic from
 * their packed i64 (x | z << 16) | y << 32 (build_surf.c clamps each below 2^14 first). */
static struct mir_opnd address3(struct isel *s, ir_ref at)
{
	uint32_t t = sel_new_vgpr(s, 3);
	struct mir_opnd lo = sel_vsrc_opnd(s, at, 0);
	struct mir_opnd x[3] = {sel_sub(t, 0, 1), mir_imm(0xffff), lo};
	sel_fix_valu(s, AMD_OP_V_AND_B32, 3, x);
	sel_emit(s, AMD_OP_V_AND_B32, 3, x);
	sel_copy(s, sel_sub(t, 1, 1), sel_vsrc_opnd(s, at, 1));
	struct mir_opnd z[3] = {sel_sub(t, 2, 1), mir_imm(16), lo};
	sel_fix_valu(s, AMD_OP_V_LSHRREV_B32, 3, z);
	sel_emit(s, AMD_OP_V_LSHRREV_B32, 3, z);
	return mir_vreg(t, 3);
}

static struct mir_opnd coords(struct isel *s, const struct ir_insn *in)
{
	bool two = in->op == IR_IMG_GATHER || in->op == IR_IMG_GATHER3 ||
	           (in->op != IR_IMG_FETCH && (in->aux & 15));
	if (in->op == IR_IMG_SAMPLE_L || in->op == IR_IMG_SAMPLE_D || in->op == IR_IMG_SAMPLE3 ||
	    in->op == IR_IMG_SAMPLE3_L || in->op == IR_IMG_GATHER3)
		return lod_grad_address(s, in, two ? 2 : 1);
	if ((in->op == IR_IMG_LOAD || in->op == IR_IMG_STORE || in->op == IR_IMG_ATOMIC) &&
	    ((in->aux & 15) == 2 || (in->aux & 15) == 5)) /* 3D, 2D array: x, y, z or layer */
		return address3(s, in->args[1]);
	return sel_vgpr_opnd(s, in->args[1], two ? 2 : 0);
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

static struct access prepare(struct isel *s, const struct ir_insn *in)
{
	struct access a = {{0}, {0}};
	if (in->op == IR_IMG_STORE)
		a.data = store_data(s, in, (in->aux >> 4) & 7);
	if (in->op == IR_IMG_ATOMIC)
		a.data = sel_vgpr_opnd(s, in->args[2], 0);
	if (in->op != IR_IMG_HEIGHT)
		a.at = coords(s, in);
	return a;
}

/* s_load_dwordx8 of the T# (dwords 0-7 of the descriptor block at the SGPR pair hs). */
static struct mir_opnd load_tsharp(struct isel *s, struct mir_opnd hs)
{
	struct mir_opnd rsrc = mir_sgpr(TSHARP_SGPR, 8);
	struct mir_opnd ops[3] = {rsrc, hs, mir_imm(0)};
	sel_emit(s, AMD_OP_S_LOAD_DWORDX8, 3, ops);
	return rsrc;
}

/* HEIGHT-1 is bits 27:14 of T# dword 2 on gfx9, gfx10, gfx11 and gfx12 (ROCR-Runtime
 * image_manager_ai.cpp, resource_nv.h, resource_gfx11.h; Mesa's ac_descriptors.c writes the
 * gfx12 field with gfx10's macro): the height into SGPR dst. */
static void height(struct isel *s, struct mir_opnd hs, struct mir_opnd dst)
{
	uint32_t w = sel_new_sgpr(s, 1), f = sel_new_sgpr(s, 1);
	sel_emit(s, AMD_OP_S_LOAD_DWORD, 3, (struct mir_opnd[]){mir_vreg(w, 1), hs, mir_imm(8)});
	sel_emit(s, AMD_OP_S_BFE_U32, 3,
	         (struct mir_opnd[]){mir_vreg(f, 1), mir_vreg(w, 1), mir_imm(14 | 14 << 16)});
	struct mir_opnd ops[3] = {dst, mir_vreg(f, 1), mir_imm(1)};
	sel_emit(s, AMD_OP_S_ADD_U32, 3, ops);
}

/* gfx90a has no image_sample_lz: image_sample computes a level of detail from the quad's
 * coordinate differences.  PTX's tex without .level samples level 0 (the resource's
 * BASE_LEVEL), so the T# in s[88:95] gets LAST_LEVEL = BASE_LEVEL (word 3 bits 19:16 and
 * 15:12): with one level every LOD samples it.  The S#'s MAX_ANISO_RATIO (word 0 bits 11:9)
 * is cleared too, since anisotropic filtering would take several samples of that level along
 * the derivatives; what remains of the LOD -- magnification or minification filter -- is the
 * same filter for a CUDA/HIP texture object (one filterMode).  Exact without a branch. */
static void one_level(struct isel *s)
{
	struct mir_opnd w3 = mir_sgpr(TSHARP_SGPR + 3, 1), w0 = mir_sgpr(SSHARP_SGPR, 1);
	uint32_t base = sel_new_sgpr(s, 1), last = sel_new_sgpr(s, 1), rest = sel_new_sgpr(s, 1);
	sel_emit(s, AMD_OP_S_BFE_U32, 3,
	         (struct mir_opnd[]){mir_vreg(base, 1), w3, mir_imm(12 | 4 << 16)});
	sel_emit(s, AMD_OP_S_LSHL_B32, 3,
	         (struct mir_opnd[]){mir_vreg(last, 1), mir_vreg(base, 1), mir_imm(16)});
	sel_emit(s, AMD_OP_S_AND_B32, 3,
	         (struct mir_opnd[]){mir_vreg(rest, 1), w3, mir_imm(~(15u << 16))});
	sel_emit(s, AMD_OP_S_OR_B32, 3,
	         (struct mir_opnd[]){w3, mir_vreg(rest, 1), mir_vreg(last, 1)});
	sel_emit(s, AMD_OP_S_AND_B32, 3, (struct mir_opnd[]){w0, w0, mir_imm(~(7u << 9))});
}

static bool is_sample(enum ir_op op)
{
	return op == IR_IMG_SAMPLE || op == IR_IMG_SAMPLE_L || op == IR_IMG_SAMPLE_D ||
	       op == IR_IMG_SAMPLE3 || op == IR_IMG_SAMPLE3_L;
}

/* A cube face's coordinates (tex.cube, build_tex.c) are normalized and lie in [0, 1], 1.0 the
 * far edge of the last texel: the S# in s[84:87] gets FORCE_UNNORMALIZED (word 0 bit 15)
 * cleared and CLAMP_X/CLAMP_Y (bits 2:0, 5:3) set to 2, clamp to the last texel, whatever the
 * texture object's own sampler says (same fields on gfx9 to gfx12). */
static void cube_face_sampler(struct isel *s)
{
	struct mir_opnd w0 = mir_sgpr(SSHARP_SGPR, 1);
	sel_emit(s, AMD_OP_S_AND_B32, 3, (struct mir_opnd[]){w0, w0, mir_imm(~(0x3fu | 1u << 15))});
	sel_emit(s, AMD_OP_S_OR_B32, 3, (struct mir_opnd[]){w0, w0, mir_imm(2u | 2u << 3)});
}

/* The four-dword loads, two dwords of which (aux bit 0 clear: x, y; set: z, w) go to dst:
 * tex1Dfetch's buffer_load_format_xyzw (idxen) at the index a->at through the V# (the block's
 * dwords 0-3, s_load_dwordx4 into s[88:91]; gfx12's soffset is null, llvm-mc-19 refuses an
 * inline constant there), or tld4's image_gather4_lz of channel aux >> 1 (dmask 1 << it) with
 * the T# and S# as image_sample_lz (IMG_GATHER3: dim 2D array, three address dwords). */
static void fetch(struct isel *s, const struct ir_insn *in, const struct access *a,
                  struct mir_opnd hs, struct mir_opnd dst)
{
	uint32_t t = sel_new_vgpr(s, 4);
	if (in->op == IR_IMG_GATHER || in->op == IR_IMG_GATHER3) {
		struct mir_opnd rsrc = load_tsharp(s, hs), samp = mir_sgpr(SSHARP_SGPR, 4);
		sel_emit(s, AMD_OP_S_LOAD_DWORDX4, 3,
		         (struct mir_opnd[]){samp, hs, mir_imm(4 * 12)});
		if (in->aux & IR_IMG_CUBE_FACE)
			cube_face_sampler(s);
		struct mir_opnd ops[4] = {mir_vreg(t, 4), a->at, rsrc, samp};
		struct mir_insn *mi = sel_emit(s, AMD_OP_IMAGE_GATHER4_LZ, 4, ops);
		mi->dmask = (uint8_t)(1u << ((in->aux >> 1) & 3));
		mi->dim = in->op == IR_IMG_GATHER3 ? 5 : 1; /* 2D array, 2D */
	} else {
		struct mir_opnd vs = mir_sgpr(TSHARP_SGPR, 4);
		sel_emit(s, AMD_OP_S_LOAD_DWORDX4, 3, (struct mir_opnd[]){vs, hs, mir_imm(0)});
		struct mir_opnd soff =
		        s->gen == AMD_GFX12 ? mir_special(AMD_SPEC_NULL, 1) : mir_imm(0);
		struct mir_opnd ops[4] = {mir_vreg(t, 4), a->at, vs, soff};
		struct mir_insn *mi = sel_emit(s, AMD_OP_BUFFER_LOAD_FORMAT_XYZW, 4, ops);
		mi->idxen = true;
	}
	unsigned half = in->aux & 1;
	for (unsigned k = 0; k < 2; k++) {
		struct mir_opnd d = dst;
		d.width = 1;
		d.sub = (uint8_t)(dst.sub + k);
		sel_copy(s, d, sel_sub(t, 2 * half + k, 1));
	}
}

/* The access itself with the descriptor block at hs (SGPRs): image_load/image_sample_lz into
 * dst (VGPRs), image_store, or the height into dst (an SGPR). */
static void access(struct isel *s, const struct ir_insn *in, const struct access *a,
                   struct mir_opnd hs, struct mir_opnd dst)
{
	if (in->op == IR_IMG_HEIGHT) {
		height(s, hs, dst);
		return;
	}
	if (in->op == IR_IMG_FETCH || in->op == IR_IMG_GATHER || in->op == IR_IMG_GATHER3) {
		fetch(s, in, a, hs, dst);
		return;
	}
	struct mir_opnd rsrc = load_tsharp(s, hs);
	struct mir_insn *mi;
	if (in->op == IR_IMG_ATOMIC) { /* no glc: nothing returned */
		static const unsigned ops[] = {[IR_IMG_ATOMIC_ADD] = AMD_OP_IMAGE_ATOMIC_ADD,
		                               [IR_IMG_ATOMIC_SMIN] = AMD_OP_IMAGE_ATOMIC_SMIN,
		                               [IR_IMG_ATOMIC_UMIN] = AMD_OP_IMAGE_ATOMIC_UMIN,
		                               [IR_IMG_ATOMIC_SMAX] = AMD_OP_IMAGE_ATOMIC_SMAX,
		                               [IR_IMG_ATOMIC_UMAX] = AMD_OP_IMAGE_ATOMIC_UMAX,
		                               [IR_IMG_ATOMIC_AND] = AMD_OP_IMAGE_ATOMIC_AND,
		                               [IR_IMG_ATOMIC_OR] = AMD_OP_IMAGE_ATOMIC_OR};
		mi = sel_emit(s, ops[(in->aux >> 4) % 7], 3,
		              (struct mir_opnd[]){a->data, a->at, rsrc});
		mi->dmask = 1;
	} else if (in->op == IR_IMG_STORE) {
		unsigned dwords = (in->aux >> 4) & 7;
		mi = sel_emit(s, AMD_OP_IMAGE_STORE, 3, (struct mir_opnd[]){a->data, a->at, rsrc});
		mi->dmask = (uint8_t)((1u << dwords) - 1);
	} else if (is_sample(in->op)) { /* the S#: dwords 12-15, into s[84:87] */
		struct mir_opnd samp = mir_sgpr(SSHARP_SGPR, 4);
		struct mir_opnd lo[3] = {samp, hs, mir_imm(4 * 12)};
		sel_emit(s, AMD_OP_S_LOAD_DWORDX4, 3, lo);
		if (in->aux & IR_IMG_CUBE_FACE)
			cube_face_sampler(s);
		unsigned op = in->op == IR_IMG_SAMPLE_L || in->op == IR_IMG_SAMPLE3_L
		                      ? AMD_OP_IMAGE_SAMPLE_L
		              : in->op == IR_IMG_SAMPLE_D ? AMD_OP_IMAGE_SAMPLE_D
		                                          : AMD_OP_IMAGE_SAMPLE_LZ;
		if (s->gen == AMD_GFX9) {
			one_level(s);
			op = AMD_OP_IMAGE_SAMPLE;
		}
		struct mir_opnd ops[4] = {dst, a->at, rsrc, samp};
		mi = sel_emit(s, op, 4, ops);
		mi->dmask = (uint8_t)((in->aux >> 4) & 15);
	} else {
		mi = sel_emit(s, AMD_OP_IMAGE_LOAD, 3, (struct mir_opnd[]){dst, a->at, rsrc});
		mi->dmask = (uint8_t)((in->aux >> 4) & 15);
	}
	mi->dim = (uint8_t)(in->aux & 15);
}

static unsigned result_dwords(const struct ir_insn *in)
{
	if (in->op == IR_IMG_FETCH || in->op == IR_IMG_GATHER || in->op == IR_IMG_GATHER3)
		return 2;
	return in->op == IR_IMG_LOAD ? (unsigned)__builtin_popcount((in->aux >> 4) & 15) : 1;
}

/* The operations that access an image through the handle args[0] (IMG_HEIGHT: its T#). */
static bool is_image_access(enum ir_op op)
{
	return op == IR_IMG_LOAD || op == IR_IMG_STORE || op == IR_IMG_ATOMIC ||
	       op == IR_IMG_HEIGHT || is_sample(op) || op == IR_IMG_FETCH || op == IR_IMG_GATHER ||
	       op == IR_IMG_GATHER3;
}

bool sel_tex_needs_loop(const struct isel *s, const struct ir_insn *in)
{
	return is_image_access((enum ir_op)in->op) && s->ir->vals[in->args[0]].divergent;
}

/* A handle that differs between lanes: a waterfall loop (its two MIR blocks laid out by
 * cflow.c after the block's body, as match.any's) over the distinct handles.  EXEC holds the
 * lanes not yet served; the first of them (s_ff1) gives its handle (v_readlane of both
 * halves), v_cmp_eq_u64 finds the lanes holding it, EXEC narrowed to them runs the access
 * with the handle in SGPRs, the result merges into the accumulator (v_cndmask, which reads it,
 * so that it stays live around the loop), and the lanes leave EXEC. */
static void waterfall(struct isel *s, const struct ir_insn *in)
{
	unsigned w = s->mask_dw, n = result_dwords(in);
	unsigned mov = sel_wave_op(s, AMD_OP_S_MOV_B32, AMD_OP_S_MOV_B64);
	struct access a = prepare(s, in);
	struct mir_opnd h = sel_vgpr_opnd(s, in->args[0], 2);
	bool has_res = in->res != IR_NO_REF;
	uint32_t acc = has_res ? sel_new_vgpr(s, n) : 0, saved = sel_new_sgpr(s, w);
	for (unsigned k = 0; has_res && k < n; k++)
		sel_copy(s, sel_sub(acc, k, 1), mir_imm(0));
	sel_emit(s, mov, 2, (struct mir_opnd[]){mir_vreg(saved, w), sel_exec(s)});
	uint32_t loop = s->cur + 1, cont = s->cur + 2;
	sel_set_succ(s, s->cur, loop, ~0u);
	s->cur = loop;
	s->mf->blocks[loop].comment = "image access waterfall: lanes not yet served";
	uint32_t k = sel_new_sgpr(s, 1), hs = sel_new_sgpr(s, 2), m = sel_new_sgpr(s, w);
	uint32_t rest = sel_new_sgpr(s, w);
	sel_emit(s, sel_wave_op(s, AMD_OP_S_FF1_I32_B32, AMD_OP_S_FF1_I32_B64), 2,
	         (struct mir_opnd[]){mir_vreg(k, 1), sel_exec(s)});
	for (unsigned i = 0; i < 2; i++) {
		struct mir_opnd part = h;
		part.width = 1;
		part.sub = (uint8_t)(h.sub + i);
		struct mir_opnd rl[3] = {sel_sub(hs, i, 1), part, mir_vreg(k, 1)};
		sel_emit(s, AMD_OP_V_READLANE_B32, 3, rl);
	}
	struct mir_opnd c[3] = {mir_vreg(m, w), mir_vreg(hs, 2), h};
	sel_fix_valu(s, AMD_OP_V_CMP_EQ_U64, 3, c);
	sel_emit(s, AMD_OP_V_CMP_EQ_U64, 3, c);
	sel_emit(s, mov, 2, (struct mir_opnd[]){mir_vreg(rest, w), sel_exec(s)});
	sel_emit(s, mov, 2, (struct mir_opnd[]){sel_exec(s), mir_vreg(m, w)});
	uint32_t t = in->op == IR_IMG_HEIGHT ? sel_new_sgpr(s, 1)
	             : has_res               ? sel_new_vgpr(s, n)
	                                     : 0;
	access(s, in, &a, mir_vreg(hs, 2), mir_vreg(t, n));
	for (unsigned i = 0; has_res && i < n; i++) {
		struct mir_opnd cm[4] = {sel_sub(acc, i, 1), sel_sub(acc, i, 1), sel_sub(t, i, 1),
		                         mir_vreg(m, w)};
		sel_fix_valu(s, AMD_OP_V_CNDMASK_B32, 4, cm);
		sel_emit(s, AMD_OP_V_CNDMASK_B32, 4, cm);
	}
	sel_emit(s, sel_wave_op(s, AMD_OP_S_ANDN2_B32, AMD_OP_S_ANDN2_B64), 3,
	         (struct mir_opnd[]){sel_exec(s), mir_vreg(rest, w), mir_vreg(m, w)});
	struct mir_opnd back = mir_block_ref(loop);
	sel_emit(s, AMD_OP_S_CBRANCH_EXECNZ, 1, &back);
	sel_set_succ(s, loop, cont, loop);
	s->cur = cont;
	sel_emit(s, mov, 2, (struct mir_opnd[]){sel_exec(s), mir_vreg(saved, w)});
	if (has_res)
		sel_copy(s, mir_vreg(sel_def(s, in->res), n), mir_vreg(acc, n));
}

static void uniform_access(struct isel *s, const struct ir_insn *in)
{
	struct access a = prepare(s, in);
	struct mir_opnd dst = {0};
	if (in->res != IR_NO_REF)
		dst = mir_vreg(sel_def(s, in->res), result_dwords(in));
	access(s, in, &a, sel_sreg_opnd(s, in->args[0], 2), dst);
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

/* v_cubeid/v_cubesc/v_cubetc/v_cubema_f32 (aux 0-3) of the direction args[0..2] */
static bool cube(struct isel *s, const struct ir_insn *in)
{
	static const unsigned ops[4] = {AMD_OP_V_CUBEID_F32, AMD_OP_V_CUBESC_F32,
	                                AMD_OP_V_CUBETC_F32, AMD_OP_V_CUBEMA_F32};
	unsigned op = ops[in->aux & 3];
	struct mir_opnd o[4] = {mir_vreg(sel_def(s, in->res), 1), sel_vsrc_opnd(s, in->args[0], 0),
	                        sel_vsrc_opnd(s, in->args[1], 0), sel_vsrc_opnd(s, in->args[2], 0)};
	sel_fix_valu(s, op, 4, o);
	sel_emit(s, op, 4, o);
	return true;
}

bool sel_tex(struct isel *s, const struct ir_insn *in)
{
	if (in->op == IR_IMG_DESC)
		return img_desc(s, in);
	if (in->op == IR_CUBE)
		return cube(s, in);
	if (!is_image_access((enum ir_op)in->op))
		return false;
	if (!check_target(s, in))
		return true;
	if (sel_tex_needs_loop(s, in))
		waterfall(s, in);
	else
		uniform_access(s, in);
	return true;
}
