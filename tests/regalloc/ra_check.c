/* Independent symbolic checker of register allocation results (see ra_check.h).
 * Physical register index: SGPR r -> r, VGPR r -> NSGPR + r.  Labels: vreg v dword d ->
 * 8v + d (VD: a WMMA tuple has 8 dwords); entry value of physical register p -> 8*nvregs + p;
 * immediate k -> after those. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_check.h"

enum { VD = 8, NSGPR = 128, NVGPR = 512, NREGS = NSGPR + NVGPR, MAX_IMMS = 256, MAX_SLOTS = 512 };
/* A state holds NREGS register label sets, then MAX_SLOTS sets for the lanes of VGPRs
 * that v_writelane_b32 / v_readlane_b32 address (spill slots) and for the scratch dwords
 * that scratch_store/load_dword(x2) address (VGPR spill slots: key SCRATCH_KEY, byte
 * offset), numbered on first sight.  Scratch accesses count as moves: the fixtures have no
 * .local memory, so every scratch access is spill code. */
enum { NSETS = NREGS + MAX_SLOTS, SCRATCH_KEY = NREGS };

struct checker {
	const struct mir_function *virt, *alloc;
	uint32_t words; /* 64-bit words per label set */
	uint32_t imms[MAX_IMMS], nimms;
	uint32_t slot_vgpr[MAX_SLOTS], slot_lane[MAX_SLOTS], nslots;
	uint64_t *outs; /* per block: NSETS label sets */
	bool *has_out;
	bool checking, failed;
	char *err;
	size_t errlen;
};

static void fail(struct checker *ck, const char *fmt, ...)
{
	if (!ck->checking || ck->failed)
		return;
	ck->failed = true;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ck->err, ck->errlen, fmt, ap);
	va_end(ap);
}

struct mir_function ra_check_snapshot(const struct mir_function *fn)
{
	struct mir_function copy = *fn;
	copy.blocks = PA_NEW_ARRAY(fn->arena, struct mir_block, fn->nblocks + 1);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		copy.blocks[b] = fn->blocks[b];
		copy.blocks[b].insns =
		        PA_NEW_ARRAY(fn->arena, struct mir_insn, fn->blocks[b].ninsns + 1);
		memcpy(copy.blocks[b].insns, fn->blocks[b].insns,
		       fn->blocks[b].ninsns * sizeof(struct mir_insn));
	}
	copy.vregs = PA_NEW_ARRAY(fn->arena, struct mir_vreg, fn->nvregs + 1);
	memcpy(copy.vregs, fn->vregs, fn->nvregs * sizeof(struct mir_vreg));
	return copy;
}

static uint64_t *reg_set(const struct checker *ck, uint64_t *state, unsigned p)
{
	return &state[(size_t)p * ck->words];
}

static bool has(const uint64_t *set, uint32_t l)
{
	return (set[l / 64] >> (l % 64)) & 1;
}
static void add(uint64_t *set, uint32_t l)
{
	set[l / 64] |= (uint64_t)1 << (l % 64);
}

static uint32_t phys_label(const struct checker *ck, unsigned p)
{
	return VD * ck->virt->nvregs + p;
}

static uint32_t imm_label(struct checker *ck, uint32_t bits)
{
	for (uint32_t k = 0; k < ck->nimms; k++)
		if (ck->imms[k] == bits)
			return VD * ck->virt->nvregs + NREGS + k;
	if (ck->nimms == MAX_IMMS) {
		fprintf(stderr, "ra_check: too many immediates\n");
		abort();
	}
	ck->imms[ck->nimms++] = bits;
	return VD * ck->virt->nvregs + NREGS + ck->nimms - 1;
}

/* State set index of lane `lane` of physical VGPR index p. */
static unsigned slot_index(struct checker *ck, unsigned p, uint32_t lane)
{
	for (uint32_t k = 0; k < ck->nslots; k++)
		if (ck->slot_vgpr[k] == p && ck->slot_lane[k] == lane)
			return NREGS + k;
	if (ck->nslots == MAX_SLOTS) {
		fprintf(stderr, "ra_check: too many lane slots\n");
		abort();
	}
	ck->slot_vgpr[ck->nslots] = p;
	ck->slot_lane[ck->nslots++] = lane;
	return NREGS + ck->nslots - 1;
}

/* A whole-register write of physical index p also overwrites every lane slot in it. */
static void clobber_slots(struct checker *ck, uint64_t *state, unsigned p)
{
	for (uint32_t k = 0; k < ck->nslots; k++)
		if (ck->slot_vgpr[k] == p)
			memset(&state[(size_t)(NREGS + k) * ck->words], 0,
			       ck->words * sizeof(uint64_t));
}

static unsigned phys_index(unsigned kind, unsigned r)
{
	return kind == MIR_SGPR ? r : NSGPR + r;
}

static bool is_scratch_store(unsigned op)
{
	return op == AMD_OP_SCRATCH_STORE_DWORD || op == AMD_OP_SCRATCH_STORE_DWORDX2;
}

static bool is_scratch(unsigned op)
{
	return is_scratch_store(op) || op == AMD_OP_SCRATCH_LOAD_DWORD ||
	       op == AMD_OP_SCRATCH_LOAD_DWORDX2;
}

static bool is_ra_move(unsigned op)
{
	return op == AMD_OP_S_MOV_B32 || op == AMD_OP_S_MOV_B64 || op == AMD_OP_V_MOV_B32 ||
	       op == AMD_OP_V_MOV_B64 || op == AMD_OP_S_XOR_B32 || op == AMD_OP_V_XOR_B32 ||
	       op == AMD_OP_V_WRITELANE_B32 || op == AMD_OP_V_READLANE_B32 || is_scratch(op);
}

/* An instruction the allocator may have inserted: a move row whose destination is a
 * register (a write of EXEC, a WMMA's EXEC bracket, is the program's own). */
static bool is_ra_move_insn(const struct mir_insn *in)
{
	return is_ra_move(in->op) && in->opnds[0].kind != MIR_SPECIAL;
}

/* The constant an SGPR holds (an immediate label in its set), or false. */
static bool sgpr_constant(struct checker *ck, uint64_t *state, unsigned r, uint32_t *value)
{
	const uint64_t *set = reg_set(ck, state, phys_index(MIR_SGPR, r));
	for (uint32_t k = 0; k < ck->nimms; k++)
		if (has(set, VD * ck->virt->nvregs + NREGS + k)) {
			*value = ck->imms[k];
			return true;
		}
	return false;
}

/* scratch_store/load_dword(x2) with no VGPR address: copies between VGPRs and the scratch
 * dwords at the offset (plus a constant scalar address). */
static void apply_scratch(struct checker *ck, uint64_t *state, const struct mir_insn *in)
{
	size_t bytes = ck->words * sizeof(uint64_t);
	bool store = is_scratch_store(in->op);
	const struct mir_opnd *data = store ? &in->opnds[1] : &in->opnds[0];
	const struct mir_opnd *vaddr = store ? &in->opnds[0] : &in->opnds[1];
	const struct mir_opnd *saddr = &in->opnds[2];
	uint32_t base = 0;
	bool known = vaddr->kind == MIR_OFF && data->kind == MIR_VGPR &&
	             (saddr->kind == MIR_OFF ||
	              (saddr->kind == MIR_SGPR && sgpr_constant(ck, state, saddr->v, &base)));
	for (unsigned k = 0; k < data->width; k++) {
		unsigned p = phys_index(MIR_VGPR, data->v + k);
		if (!known && store) { /* not followed: any scratch dword may have changed */
			for (uint32_t j = 0; j < ck->nslots; j++)
				if (ck->slot_vgpr[j] == SCRATCH_KEY)
					memset(reg_set(ck, state, NREGS + j), 0, bytes);
			continue;
		}
		if (!known) { /* not followed: the register's value is lost */
			memset(reg_set(ck, state, p), 0, bytes);
			clobber_slots(ck, state, p);
			continue;
		}
		unsigned slot = slot_index(ck, SCRATCH_KEY, base + (uint32_t)in->offset + 4 * k);
		if (store) {
			memcpy(reg_set(ck, state, slot), reg_set(ck, state, p), bytes);
		} else {
			memcpy(reg_set(ck, state, p), reg_set(ck, state, slot), bytes);
			clobber_slots(ck, state, p);
		}
	}
}

static bool is_xor(const struct mir_insn *in)
{
	return in->op == AMD_OP_S_XOR_B32 || in->op == AMD_OP_V_XOR_B32;
}

/* Whether insns a, a+1, a+2 are the swap x^=y; y^=x; x^=y. */
static bool is_xor_swap(const struct mir_insn *in)
{
	const struct mir_opnd *x = &in[0].opnds[0], *y = &in[0].opnds[2];
	for (int k = 0; k < 3; k++) {
		const struct mir_opnd *d = k == 1 ? y : x, *s = k == 1 ? x : y;
		if (!is_xor(&in[k]) || in[k].op != in[0].op || in[k].opnds[0].v != d->v ||
		    in[k].opnds[1].v != d->v || in[k].opnds[2].v != s->v ||
		    in[k].opnds[0].kind != d->kind || in[k].opnds[2].kind != s->kind)
			return false;
	}
	return x->kind == y->kind;
}

/* v_writelane_b32 / v_readlane_b32 with a constant lane: copies between an SGPR and the
 * lane's slot set. */
static void apply_lane_move(struct checker *ck, uint64_t *state, const struct mir_insn *in)
{
	size_t bytes = ck->words * sizeof(uint64_t);
	bool write = in->op == AMD_OP_V_WRITELANE_B32;
	const struct mir_opnd *vgpr = write ? &in->opnds[0] : &in->opnds[1];
	const struct mir_opnd *sgpr = write ? &in->opnds[1] : &in->opnds[0];
	unsigned pv = phys_index(MIR_VGPR, vgpr->v), ps = phys_index(MIR_SGPR, sgpr->v);
	if (in->opnds[2].kind != MIR_IMM || vgpr->kind != MIR_VGPR || sgpr->kind != MIR_SGPR) {
		memset(reg_set(ck, state, write ? pv : ps), 0, bytes); /* not followed */
		return;
	}
	unsigned slot = slot_index(ck, pv, in->opnds[2].v);
	if (write) {
		memcpy(reg_set(ck, state, slot), reg_set(ck, state, ps), bytes);
		memset(reg_set(ck, state, pv), 0, bytes); /* the register as a whole changed */
	} else {
		memcpy(reg_set(ck, state, ps), reg_set(ck, state, slot), bytes);
	}
}

/* Applies allocated moves [a, aend) of block ab to state. */
static void apply_moves(struct checker *ck, uint64_t *state, const struct mir_block *ab, uint32_t a,
                        uint32_t aend)
{
	size_t bytes = ck->words * sizeof(uint64_t);
	uint64_t *tmp = calloc(4, bytes);
	while (a < aend) {
		const struct mir_insn *in = &ab->insns[a];
		const struct mir_opnd *d = &in->opnds[0], *s = &in->opnds[1];
		if (in->op == AMD_OP_V_WRITELANE_B32 || in->op == AMD_OP_V_READLANE_B32) {
			apply_lane_move(ck, state, in);
			a++;
			continue;
		}
		if (is_scratch(in->op)) {
			apply_scratch(ck, state, in);
			a++;
			continue;
		}
		if (is_xor(in) && a + 3 <= aend && is_xor_swap(in)) {
			unsigned px = phys_index(d->kind, d->v),
			         py = phys_index(in->opnds[2].kind, in->opnds[2].v);
			memcpy(tmp, reg_set(ck, state, px), bytes);
			memcpy(reg_set(ck, state, px), reg_set(ck, state, py), bytes);
			memcpy(reg_set(ck, state, py), tmp, bytes);
			clobber_slots(ck, state, px);
			clobber_slots(ck, state, py);
			a += 3;
			continue;
		}
		unsigned w = d->width ? d->width : 1;
		memset(tmp, 0, 4 * bytes);
		for (unsigned k = 0; k < w && !is_xor(in); k++) {
			if (s->kind == MIR_SGPR || s->kind == MIR_VGPR)
				memcpy(&tmp[k * ck->words],
				       reg_set(ck, state, phys_index(s->kind, s->v + k)), bytes);
			else if (s->kind == MIR_IMM)
				add(&tmp[k * ck->words], imm_label(ck, s->v));
		}
		for (unsigned k = 0; k < w; k++) {
			unsigned p = phys_index(d->kind, d->v + k);
			memcpy(reg_set(ck, state, p), &tmp[k * ck->words], bytes);
			clobber_slots(ck, state, p);
		}
		a++;
	}
	free(tmp);
}

/* Label of dword k of a COPY operand in the virtual program (UINT32_MAX: unknown). */
static uint32_t opnd_label(struct checker *ck, const struct mir_opnd *o, unsigned k)
{
	switch (o->kind) {
	case MIR_VREG:
		return VD * o->v + o->sub + k;
	case MIR_SGPR:
	case MIR_VGPR:
		return phys_label(ck, phys_index(o->kind, o->v + k));
	case MIR_IMM:
		return imm_label(ck, o->v);
	default:
		return UINT32_MAX;
	}
}

struct copy_map {
	uint32_t loc[256], val[256], n;
};

static uint32_t map_get(const struct copy_map *m, uint32_t l)
{
	for (uint32_t k = 0; k < m->n; k++)
		if (m->loc[k] == l)
			return m->val[k];
	return l;
}

static void map_set(struct copy_map *m, uint32_t l, uint32_t v)
{
	for (uint32_t k = 0; k < m->n; k++)
		if (m->loc[k] == l) {
			m->val[k] = v;
			return;
		}
	m->loc[m->n] = l;
	m->val[m->n++] = v;
}

/* The composed effect of virtual COPYs [v, vend): written location -> pre-run label. */
static void compose_copies(struct checker *ck, const struct mir_block *vb, uint32_t v,
                           uint32_t vend, struct copy_map *map)
{
	map->n = 0;
	while (v < vend) {
		uint32_t gend = v + 1;
		if (vb->insns[v].flags & MIR_IF_PARALLEL)
			while (gend < vend && (vb->insns[gend].flags & MIR_IF_PARALLEL))
				gend++;
		uint32_t dl[256], sl[256], n = 0;
		for (uint32_t j = v; j < gend; j++) {
			const struct mir_insn *in = &vb->insns[j];
			for (unsigned k = 0; k < in->opnds[0].width && n < 256; k++) {
				dl[n] = opnd_label(ck, &in->opnds[0], k);
				uint32_t s = opnd_label(ck, &in->opnds[1],
				                        in->opnds[1].kind == MIR_IMM ? 0 : k);
				sl[n++] = s == UINT32_MAX ? s : map_get(map, s);
			}
		}
		for (uint32_t k = 0; k < n; k++)
			map_set(map, dl[k], sl[k]);
		v = gend;
	}
}

static void relabel(struct checker *ck, uint64_t *state, const struct copy_map *map)
{
	for (unsigned p = 0; p < NSETS; p++) {
		uint64_t *set = reg_set(ck, state, p);
		bool gets[256];
		for (uint32_t k = 0; k < map->n; k++)
			gets[k] = map->val[k] != UINT32_MAX && has(set, map->val[k]);
		for (uint32_t k = 0; k < map->n; k++)
			set[map->loc[k] / 64] &= ~((uint64_t)1 << (map->loc[k] % 64));
		for (uint32_t k = 0; k < map->n; k++)
			if (gets[k])
				add(set, map->loc[k]);
	}
}

static bool reads_opnd(const struct mir_insn *in, unsigned k)
{
	return !mir_opnd_is_def(in, k) || in->op == AMD_OP_V_WRITELANE_B32;
}

static bool same_modifiers(const struct mir_insn *x, const struct mir_insn *y)
{
	return x->op == y->op && x->nopnds == y->nopnds && x->offset == y->offset &&
	       x->offset1 == y->offset1 && x->cpol == y->cpol && x->neg == y->neg &&
	       x->abs == y->abs && x->omod == y->omod && x->clamp == y->clamp && x->rtn == y->rtn;
}

/* Checks that allocated operand `ao` stands for virtual operand `vo`; returns the physical
 * index of its first register, or -1. */
static int check_opnd(struct checker *ck, const struct mir_opnd *vo, const struct mir_opnd *ao,
                      uint32_t b, uint32_t i)
{
	const struct mir_function *fn = ck->alloc;
	if (vo->kind == MIR_VREG) {
		const struct mir_vreg *vr = &ck->virt->vregs[vo->v];
		unsigned budget = ao->kind == MIR_SGPR ? fn->max_sgprs : fn->max_vgprs;
		if (ao->kind != vr->file || ao->width != vo->width || ao->v + ao->width > budget) {
			fail(ck, "bb%u insn %u: %%%u got a register of the wrong file/width/budget",
			     b, i, vo->v);
			return -1;
		}
		for (unsigned r = ao->v; r < ao->v + ao->width && ao->kind == MIR_SGPR; r++)
			if (r >= fn->reserved_sgprs_begin && r < fn->reserved_sgprs_end)
				fail(ck, "bb%u insn %u: %%%u in reserved s%u", b, i, vo->v, r);
		return (int)phys_index(ao->kind, ao->v);
	}
	if (vo->kind != ao->kind || vo->v != ao->v || vo->width != ao->width) {
		fail(ck, "bb%u insn %u: a non-virtual operand changed", b, i);
		return -1;
	}
	return vo->kind == MIR_SGPR || vo->kind == MIR_VGPR ? (int)phys_index(ao->kind, ao->v) : -1;
}

/* One ordinary instruction: checks its reads, then applies its writes. */
static void step_insn(struct checker *ck, uint64_t *state, const struct mir_insn *vi,
                      const struct mir_insn *ai, uint32_t b, uint32_t i)
{
	if (!same_modifiers(vi, ai) || is_ra_move_insn(vi)) {
		fail(ck, "bb%u insn %u: instruction differs from the virtual one", b, i);
		return;
	}
	uint32_t def_label[16], def_reg[16], ndefs = 0;
	for (unsigned k = 0; k < vi->nopnds; k++) {
		const struct mir_opnd *vo = &vi->opnds[k];
		int p = check_opnd(ck, vo, &ai->opnds[k], b, i);
		if (p < 0)
			continue;
		for (unsigned d = 0; d < vo->width; d++) {
			uint32_t l = opnd_label(ck, vo, d);
			if (reads_opnd(vi, k) && !has(reg_set(ck, state, (unsigned)p + d), l))
				fail(ck,
				     "bb%u insn %u operand %u: register %s%u does not hold the "
				     "value read",
				     b, i, k, p >= NSGPR ? "v" : "s",
				     (p >= NSGPR ? (unsigned)p - NSGPR : (unsigned)p) + d);
			if (mir_opnd_is_def(vi, k) && ndefs < 16) {
				def_label[ndefs] = l;
				def_reg[ndefs++] = (unsigned)p + d;
			}
		}
	}
	for (uint32_t k = 0; k < ndefs; k++)
		for (unsigned p = 0; p < NSETS; p++)
			reg_set(ck, state, p)[def_label[k] / 64] &=
			        ~((uint64_t)1 << (def_label[k] % 64));
	for (uint32_t k = 0; k < ndefs; k++) {
		memset(reg_set(ck, state, def_reg[k]), 0, ck->words * sizeof(uint64_t));
		clobber_slots(ck, state, def_reg[k]);
		add(reg_set(ck, state, def_reg[k]), def_label[k]);
	}
}

/* Runs block b over state (its entry state), checking when ck->checking.  Instructions of
 * the allocated block that are moves (copies lowered, spill code) are applied as moves;
 * a run of them that stands where the virtual block has COPYs also performs those
 * COPYs' relabelling. */
static void run_block(struct checker *ck, uint32_t b, uint64_t *state)
{
	const struct mir_block *vb = &ck->virt->blocks[b], *ab = &ck->alloc->blocks[b];
	uint32_t v = 0, a = 0;
	while (v < vb->ninsns || a < ab->ninsns) {
		bool at_copy = v < vb->ninsns && vb->insns[v].op == MIR_COPY;
		if (at_copy || (a < ab->ninsns && is_ra_move_insn(&ab->insns[a]))) {
			uint32_t vend = v, aend = a;
			while (at_copy && vend < vb->ninsns && vb->insns[vend].op == MIR_COPY)
				vend++;
			while (aend < ab->ninsns && is_ra_move_insn(&ab->insns[aend]))
				aend++;
			apply_moves(ck, state, ab, a, aend);
			if (at_copy) {
				struct copy_map map;
				compose_copies(ck, vb, v, vend, &map);
				relabel(ck, state, &map);
			}
			v = vend;
			a = aend;
			continue;
		}
		if (a >= ab->ninsns) {
			fail(ck, "bb%u: allocated block ends early", b);
			return;
		}
		if (v >= vb->ninsns) {
			fail(ck, "bb%u: allocated block has extra instructions", b);
			return;
		}
		step_insn(ck, state, &vb->insns[v], &ab->insns[a], b, a);
		v++;
		a++;
	}
}

/* Entry state of block b: intersection over computed predecessors (and the function
 * entry for block 0); false when no predecessor has been computed yet. */
static bool entry_state(struct checker *ck, uint32_t b, uint64_t *state)
{
	size_t n = (size_t)NSETS * ck->words;
	bool any = false;
	if (b == 0) {
		memset(state, 0, n * sizeof *state);
		for (unsigned p = 0; p < NREGS; p++)
			add(reg_set(ck, state, p), phys_label(ck, p));
		any = true;
	}
	for (uint32_t pb = 0; pb < ck->virt->nblocks; pb++) {
		const struct mir_block *bl = &ck->virt->blocks[pb];
		for (unsigned s = 0; s < bl->nsucc; s++) {
			if (bl->succ[s] != b || !ck->has_out[pb])
				continue;
			const uint64_t *out = &ck->outs[(size_t)pb * n];
			if (!any)
				memcpy(state, out, n * sizeof *state);
			else
				for (size_t k = 0; k < n; k++)
					state[k] &= out[k];
			any = true;
		}
	}
	return any;
}

static bool check_counts(struct checker *ck)
{
	unsigned top[2] = {0, 0};
	for (uint32_t b = 0; b < ck->alloc->nblocks; b++)
		for (uint32_t i = 0; i < ck->alloc->blocks[b].ninsns; i++) {
			const struct mir_insn *in = &ck->alloc->blocks[b].insns[i];
			for (unsigned k = 0; k < in->nopnds; k++) {
				const struct mir_opnd *o = &in->opnds[k];
				if (o->kind == MIR_VREG) {
					snprintf(ck->err, ck->errlen, "bb%u insn %u: vreg left", b,
					         i);
					return false;
				}
				unsigned f = o->kind == MIR_SGPR ? 0 : 1;
				if ((o->kind == MIR_SGPR || o->kind == MIR_VGPR) &&
				    o->v + o->width > top[f])
					top[f] = o->v + o->width;
			}
		}
	if (top[0] != ck->alloc->num_sgprs || top[1] != ck->alloc->num_vgprs) {
		snprintf(ck->err, ck->errlen, "register counts %u/%u, expected %u/%u",
		         ck->alloc->num_sgprs, ck->alloc->num_vgprs, top[0], top[1]);
		return false;
	}
	return true;
}

bool ra_check(const struct mir_function *virt, const struct mir_function *alloc, char *err,
              size_t errlen)
{
	struct checker ck = {.virt = virt, .alloc = alloc, .err = err, .errlen = errlen};
	ck.words = (VD * virt->nvregs + NREGS + MAX_IMMS + 63) / 64;
	size_t n = (size_t)NSETS * ck.words;
	ck.outs = calloc((size_t)virt->nblocks * n + 1, sizeof(uint64_t));
	ck.has_out = calloc(virt->nblocks + 1, sizeof(bool));
	uint64_t *state = calloc(n, sizeof(uint64_t));
	err[0] = 0;
	if (alloc->nblocks != virt->nblocks) {
		snprintf(err, errlen, "block count changed");
		ck.failed = true;
	}
	for (bool changed = !ck.failed; changed;) {
		changed = false;
		for (uint32_t b = 0; b < virt->nblocks; b++) {
			if (!entry_state(&ck, b, state))
				continue;
			run_block(&ck, b, state);
			uint64_t *out = &ck.outs[(size_t)b * n];
			if (!ck.has_out[b] || memcmp(out, state, n * sizeof *state)) {
				memcpy(out, state, n * sizeof *state);
				ck.has_out[b] = true;
				changed = true;
			}
		}
	}
	ck.checking = true;
	for (uint32_t b = 0; b < virt->nblocks && !ck.failed; b++)
		if (entry_state(&ck, b, state))
			run_block(&ck, b, state);
	bool ok = !ck.failed && check_counts(&ck);
	free(ck.outs);
	free(ck.has_out);
	free(state);
	return ok;
}
