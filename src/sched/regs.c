/* Register and counter facts shared by the control-code passes, emission and the listing:
 * which slots an instruction reads and writes (explicit operands and the implicit scc,
 * exec and vcc), which wait counters it increments, and the wait instructions of each
 * target.  Pure functions of the instruction table row and the target; no state. */
#include <string.h>

#include "sched/sched_int.h"

int sched_rtn_opnd(const struct mir_insn *in)
{
	const struct amd_isa_op *row = sched_row(in);
	if (!row || !in->rtn || !(row->flags & AMD_F_ATOMIC) || row->format == AMD_FMT_DS ||
	    in->nopnds != row->nopnds + 1)
		return -1;
	return 0;
}

bool sched_vdata_returns(const struct mir_insn *in)
{
	const struct amd_isa_op *row = sched_row(in);
	return row && in->rtn && (row->flags & AMD_F_ATOMIC) && row->format == AMD_FMT_MUBUF;
}

unsigned sched_row_base(const struct mir_insn *in)
{
	return sched_rtn_opnd(in) == 0 ? 1 : 0;
}

static struct sched_range special_slots(const struct mir_function *fn, unsigned spec,
                                        unsigned width)
{
	unsigned mask_width = fn->wave_size == 64 ? 2 : 1;
	switch (spec) {
	case AMD_SPEC_VCC:
		return (struct sched_range){SCHED_SLOT_VCC_LO,
		                            (uint16_t)(width ? width : mask_width)};
	case AMD_SPEC_VCC_LO:
		return (struct sched_range){SCHED_SLOT_VCC_LO, 1};
	case AMD_SPEC_VCC_HI:
		return (struct sched_range){SCHED_SLOT_VCC_LO + 1, 1};
	case AMD_SPEC_EXEC:
		return (struct sched_range){SCHED_SLOT_EXEC_LO,
		                            (uint16_t)(width ? width : mask_width)};
	case AMD_SPEC_EXEC_LO:
		return (struct sched_range){SCHED_SLOT_EXEC_LO, 1};
	case AMD_SPEC_EXEC_HI:
		return (struct sched_range){SCHED_SLOT_EXEC_LO + 1, 1};
	case AMD_SPEC_M0:
		return (struct sched_range){SCHED_SLOT_M0, 1};
	case AMD_SPEC_SCC:
		return (struct sched_range){SCHED_SLOT_SCC, 1};
	default:
		return (struct sched_range){0, 0};
	}
}

struct sched_range sched_opnd_slots(const struct mir_function *fn, const struct mir_opnd *o)
{
	unsigned width = o->width ? o->width : 1;
	switch (o->kind) {
	case MIR_SGPR:
		if (o->v + width > SCHED_SLOT_VCC_LO)
			return (struct sched_range){0, 0};
		return (struct sched_range){(uint16_t)o->v, (uint16_t)width};
	case MIR_VGPR:
		if (o->v + width > SCHED_NUM_SLOTS - SCHED_SLOT_VGPR0)
			return (struct sched_range){0, 0};
		return (struct sched_range){(uint16_t)(SCHED_SLOT_VGPR0 + o->v), (uint16_t)width};
	case MIR_SPECIAL:
		return special_slots(fn, o->v, o->width);
	default:
		return (struct sched_range){0, 0};
	}
}

static void add_range(struct sched_range out[SCHED_MAX_RANGES], unsigned *n, struct sched_range r)
{
	if (r.count && *n < SCHED_MAX_RANGES)
		out[(*n)++] = r;
}

static struct sched_range mask_slots(const struct mir_function *fn, unsigned first)
{
	return (struct sched_range){(uint16_t)first, (uint16_t)(fn->wave_size == 64 ? 2 : 1)};
}

/* Explicit operands with role `role` (COPY: opnds[0] is the def).  Only physical registers
 * and special ones have slots: the others (virtual registers before allocation, immediates)
 * are passed over before their role is looked up. */
static void explicit_slots(const struct mir_function *fn, const struct mir_insn *in, bool defs,
                           struct sched_range out[SCHED_MAX_RANGES], unsigned *n)
{
	for (unsigned i = 0; i < in->nopnds && i < AMD_MAX_OPNDS; i++) {
		unsigned kind = in->opnds[i].kind;
		if (kind != MIR_SGPR && kind != MIR_VGPR && kind != MIR_SPECIAL)
			continue;
		bool is_def = mir_opnd_is_def(in, i);
		if (is_def == defs || (defs && i == 0 && sched_vdata_returns(in)))
			add_range(out, n, sched_opnd_slots(fn, &in->opnds[i]));
	}
}

unsigned sched_insn_defs(const struct mir_function *fn, const struct mir_insn *in,
                         struct sched_range out[SCHED_MAX_RANGES])
{
	unsigned n = 0;
	explicit_slots(fn, in, true, out, &n);
	const struct amd_isa_op *row = sched_row(in);
	if (!row)
		return n;
	if (row->flags & AMD_F_SCC_DST)
		add_range(out, &n, (struct sched_range){SCHED_SLOT_SCC, 1});
	if (row->flags & (AMD_F_EXEC_DST | AMD_F_WAVE_MASK))
		add_range(out, &n, mask_slots(fn, SCHED_SLOT_EXEC_LO));
	if ((row->flags & AMD_F_WAVE_MASK) && row->format == AMD_FMT_SOP1)
		add_range(out, &n, (struct sched_range){SCHED_SLOT_SCC, 1});
	return n;
}

unsigned sched_insn_uses(const struct mir_function *fn, const struct mir_insn *in,
                         struct sched_range out[SCHED_MAX_RANGES])
{
	unsigned n = 0;
	explicit_slots(fn, in, false, out, &n);
	const struct amd_isa_op *row = sched_row(in);
	if (!row)
		return n;
	if (row->flags & AMD_F_SCC_SRC)
		add_range(out, &n, (struct sched_range){SCHED_SLOT_SCC, 1});
	if (row->flags & AMD_F_READS_VCC)
		add_range(out, &n, mask_slots(fn, SCHED_SLOT_VCC_LO));
	if (row->flags & AMD_F_WAVE_MASK)
		add_range(out, &n, mask_slots(fn, SCHED_SLOT_EXEC_LO));
	if (in->op == AMD_OP_S_CBRANCH_VCCZ || in->op == AMD_OP_S_CBRANCH_VCCNZ)
		add_range(out, &n, mask_slots(fn, SCHED_SLOT_VCC_LO));
	if (in->op == AMD_OP_S_CBRANCH_EXECZ || in->op == AMD_OP_S_CBRANCH_EXECNZ)
		add_range(out, &n, mask_slots(fn, SCHED_SLOT_EXEC_LO));
	return n;
}

bool sched_ranges_overlap(const struct sched_range *a, unsigned na, const struct sched_range *b,
                          unsigned nb)
{
	for (unsigned i = 0; i < na; i++)
		for (unsigned j = 0; j < nb; j++)
			if (a[i].first < b[j].first + b[j].count &&
			    b[j].first < a[i].first + a[i].count)
				return true;
	return false;
}

/* ---- counters ---- */

static enum sched_counter store_counter(const struct amd_target *t)
{
	return t->info->has_vscnt || t->info->has_split_waits ? SCHED_CNT_STORE : SCHED_CNT_LOAD;
}

static enum sched_counter scalar_counter(const struct amd_target *t)
{
	return t->info->has_split_waits ? SCHED_CNT_KM : SCHED_CNT_DS;
}

unsigned sched_insn_events(const struct amd_target *t, const struct mir_insn *in,
                           struct sched_event ev[2])
{
	const struct amd_isa_op *row = sched_row(in);
	if (!row)
		return 0;
	unsigned n = 0;
	bool is_flat = row->format == AMD_FMT_FLAT;
	uint8_t vkind = is_flat ? SCHED_EV_FLAT : SCHED_EV_VMEM;
	switch (row->counter) {
	case AMD_CNT_VM:
		ev[n++] = (struct sched_event){SCHED_CNT_LOAD, vkind};
		break;
	case AMD_CNT_VS: {
		bool returns = (row->flags & AMD_F_ATOMIC_RTN) || sched_rtn_opnd(in) >= 0 ||
		               sched_vdata_returns(in);
		ev[n++] = (struct sched_event){returns ? SCHED_CNT_LOAD : store_counter(t), vkind};
		break;
	}
	case AMD_CNT_LGKM:
		if (row->unit == AMD_UNIT_LDS)
			ev[n++] = (struct sched_event){SCHED_CNT_DS, SCHED_EV_LDS};
		else if (row->unit == AMD_UNIT_SMEM)
			ev[n++] = (struct sched_event){scalar_counter(t), SCHED_EV_SMEM};
		else
			ev[n++] = (struct sched_event){scalar_counter(t), SCHED_EV_MSG};
		break;
	case AMD_CNT_EXP:
		ev[n++] = (struct sched_event){SCHED_CNT_EXP, SCHED_EV_EXP};
		break;
	default:
		break;
	}
	if (n && (row->flags & AMD_F_ALSO_LGKM))
		ev[n++] = (struct sched_event){SCHED_CNT_DS, SCHED_EV_FLAT_LGKM};
	return n;
}

unsigned sched_counter_max(const struct amd_target *t, enum sched_counter c)
{
	const struct amd_target_info *ti = t->info;
	switch (c) {
	case SCHED_CNT_LOAD:
		return ti->max_loadcnt;
	case SCHED_CNT_STORE:
		return ti->max_storecnt;
	case SCHED_CNT_DS:
		return ti->max_dscnt;
	case SCHED_CNT_KM:
		return ti->max_kmcnt;
	default:
		return ti->max_expcnt;
	}
}

const char *sched_counter_name(const struct amd_target *t, enum sched_counter c)
{
	static const char *const legacy[SCHED_NUM_COUNTERS] = {"vmcnt", "vscnt", "lgkmcnt",
	                                                       "lgkmcnt", "expcnt"};
	static const char *const split[SCHED_NUM_COUNTERS] = {"loadcnt", "storecnt", "dscnt",
	                                                      "kmcnt", "expcnt"};
	if (t->info->has_split_waits)
		return split[c];
	if (c == SCHED_CNT_STORE && !t->info->has_vscnt)
		return "vmcnt";
	return legacy[c];
}

/* ---- wait instructions ---- */

void sched_wait_none(struct sched_wait *w)
{
	memset(w->n, SCHED_NO_WAIT, sizeof w->n);
}

bool sched_wait_is_none(const struct sched_wait *w)
{
	for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++)
		if (w->n[c] != SCHED_NO_WAIT)
			return false;
	return true;
}

static unsigned lo_bits(unsigned width)
{
	return (1u << width) - 1;
}

static unsigned min_count(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

uint32_t sched_waitcnt_simm(const struct amd_target *t, const struct sched_wait *w)
{
	const struct amd_target_info *ti = t->info;
	unsigned vm_bits = ti->waitcnt.vm_lo_width + ti->waitcnt.vm_hi_width;
	unsigned vm = lo_bits(vm_bits), exp = lo_bits(ti->waitcnt.exp_width),
	         lgkm = lo_bits(ti->waitcnt.lgkm_width);
	vm = min_count(vm, w->n[SCHED_CNT_LOAD]);
	if (!ti->has_vscnt)
		vm = min_count(vm, w->n[SCHED_CNT_STORE]);
	exp = min_count(exp, w->n[SCHED_CNT_EXP]);
	lgkm = min_count(lgkm, min_count(w->n[SCHED_CNT_DS], w->n[SCHED_CNT_KM]));
	uint32_t s = (vm & lo_bits(ti->waitcnt.vm_lo_width)) << ti->waitcnt.vm_lo_shift;
	s |= (vm >> ti->waitcnt.vm_lo_width & lo_bits(ti->waitcnt.vm_hi_width))
	     << ti->waitcnt.vm_hi_shift;
	s |= exp << ti->waitcnt.exp_shift;
	s |= lgkm << ti->waitcnt.lgkm_shift;
	return s;
}

static struct mir_insn simm_insn(unsigned op, uint32_t simm)
{
	struct mir_opnd o = mir_imm(simm);
	return mir_make(op, 1, &o);
}

unsigned sched_wait_insns(const struct amd_target *t, const struct sched_wait *w,
                          struct mir_insn out[SCHED_NUM_COUNTERS])
{
	unsigned n = 0;
	if (t->info->has_split_waits) {
		static const uint16_t ops[SCHED_NUM_COUNTERS] = {
		        AMD_OP_S_WAIT_LOADCNT, AMD_OP_S_WAIT_STORECNT, AMD_OP_S_WAIT_DSCNT,
		        AMD_OP_S_WAIT_KMCNT, AMD_OP_S_WAIT_EXPCNT};
		for (unsigned c = 0; c < SCHED_NUM_COUNTERS; c++)
			if (w->n[c] != SCHED_NO_WAIT)
				out[n++] = simm_insn(ops[c], w->n[c]);
		return n;
	}
	struct sched_wait legacy = *w;
	if (t->info->has_vscnt)
		legacy.n[SCHED_CNT_STORE] = SCHED_NO_WAIT;
	if (!sched_wait_is_none(&legacy))
		out[n++] = simm_insn(AMD_OP_S_WAITCNT, sched_waitcnt_simm(t, &legacy));
	if (t->info->has_vscnt && w->n[SCHED_CNT_STORE] != SCHED_NO_WAIT) {
		struct mir_opnd ops[2] = {mir_special(AMD_SPEC_NULL, 1),
		                          mir_imm(w->n[SCHED_CNT_STORE])};
		out[n++] = mir_make(AMD_OP_S_WAITCNT_VSCNT, 2, ops);
	}
	return n;
}

/* The count in field (shift, width) of simm16, or SCHED_NO_WAIT when all ones. */
static uint8_t field(uint32_t s, unsigned shift, unsigned width, unsigned hi_shift,
                     unsigned hi_width)
{
	unsigned v = (s >> shift) & lo_bits(width);
	v |= ((s >> hi_shift) & lo_bits(hi_width)) << width;
	return v == lo_bits(width + hi_width) ? SCHED_NO_WAIT : (uint8_t)v;
}

bool sched_wait_of_insn(const struct amd_target *t, const struct mir_insn *in, struct sched_wait *w)
{
	sched_wait_none(w);
	const struct amd_target_info *ti = t->info;
	uint32_t v = in->opnds[in->nopnds ? in->nopnds - 1 : 0].v;
	switch (in->op) {
	case AMD_OP_S_WAITCNT:
		w->n[SCHED_CNT_LOAD] = field(v, ti->waitcnt.vm_lo_shift, ti->waitcnt.vm_lo_width,
		                             ti->waitcnt.vm_hi_shift, ti->waitcnt.vm_hi_width);
		if (!ti->has_vscnt)
			w->n[SCHED_CNT_STORE] = w->n[SCHED_CNT_LOAD];
		w->n[SCHED_CNT_EXP] = field(v, ti->waitcnt.exp_shift, ti->waitcnt.exp_width, 0, 0);
		w->n[SCHED_CNT_DS] = field(v, ti->waitcnt.lgkm_shift, ti->waitcnt.lgkm_width, 0, 0);
		w->n[SCHED_CNT_KM] = w->n[SCHED_CNT_DS];
		return true;
	case AMD_OP_S_WAITCNT_VSCNT:
		w->n[SCHED_CNT_STORE] = (uint8_t)(v > 63 ? 63 : v);
		return true;
	case AMD_OP_S_WAIT_LOADCNT:
		w->n[SCHED_CNT_LOAD] = (uint8_t)(v > 63 ? 63 : v);
		return true;
	case AMD_OP_S_WAIT_STORECNT:
		w->n[SCHED_CNT_STORE] = (uint8_t)(v > 63 ? 63 : v);
		return true;
	case AMD_OP_S_WAIT_DSCNT:
		w->n[SCHED_CNT_DS] = (uint8_t)(v > 63 ? 63 : v);
		return true;
	case AMD_OP_S_WAIT_KMCNT:
		w->n[SCHED_CNT_KM] = (uint8_t)(v > 63 ? 63 : v);
		return true;
	case AMD_OP_S_WAIT_EXPCNT:
		w->n[SCHED_CNT_EXP] = (uint8_t)(v > 7 ? 7 : v);
		return true;
	default:
		return false;
	}
}

void sched_preds(const struct mir_function *fn, struct pa_arena *arena, uint32_t ***preds,
                 uint32_t **npreds)
{
	uint32_t *count = pa_arena_array(arena, fn->nblocks + 1, sizeof *count, 4);
	memset(count, 0, (fn->nblocks + 1) * sizeof *count);
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (unsigned s = 0; s < fn->blocks[b].nsucc; s++)
			count[fn->blocks[b].succ[s]]++;
	uint32_t **lists = pa_arena_array(arena, fn->nblocks + 1, sizeof *lists, 8);
	for (uint32_t b = 0; b < fn->nblocks; b++) {
		lists[b] = pa_arena_array(arena, count[b] + 1, sizeof **lists, 4);
		count[b] = 0;
	}
	for (uint32_t b = 0; b < fn->nblocks; b++)
		for (unsigned s = 0; s < fn->blocks[b].nsucc; s++) {
			uint32_t to = fn->blocks[b].succ[s];
			lists[to][count[to]++] = b;
		}
	*preds = lists;
	*npreds = count;
}
