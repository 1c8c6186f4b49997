/* exec: the wave interpreter loop and the scalar-operand helpers every semantics file uses.
 *
 * sim_run_wave runs one wave until it ends, reaches s_barrier or s_sleep, has run
 * SIM_QUANTUM instructions in a row (so a wave spinning on memory without s_sleep lets the
 * waves that will release it run: hardware interleaves waves all the time), faults or exceeds
 * its instruction budget: fetch the decoded instruction at PC, check hazards (strict mode), call
 * the semantics function of its table row, advance PC and the wave's clock by the issue cost
 * of the instruction's class (the timing model of docs/SIMULATOR.md).  An instruction
 * without semantics stops the run with its mnemonic and PC: nothing is silently skipped.
 * requires: decoded code (decode.c), semantics tables (sem_*.c), checker (check.c).
 * complexity: O(instructions executed x lanes). */
#include <fenv.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cu_model.h"
#include "sim_int.h"

void sim_fault(struct sim_wave *w, const char *fmt, ...)
{
	struct sim_ctx *c = w->ctx;
	if (c->error)
		return;
	c->error = true;
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	char insn[160] = "";
	if (w->cur)
		sim_format_insn(c, w->cur, insn, sizeof insn);
	snprintf(c->err, c->errlen, "%s (workgroup %u wave %u, pc 0x%llx%s%s)", msg, w->wg_flat,
	         w->id, (unsigned long long)(c->co->text_addr + w->pc), insn[0] ? ": " : "", insn);
}

uint32_t sim_rng(struct sim_wave *w)
{
	/* xorshift64*: deterministic from the seed, the workgroup and the wave */
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return (uint32_t)((w->rng * 0x2545F4914F6CDD1DULL) >> 32);
}

uint64_t sim_exec(const struct sim_wave *w)
{
	return ((uint64_t)w->s[SIM_EXEC + 1] << 32 | w->s[SIM_EXEC]) & w->exec_mask_all;
}

void sim_set_exec(struct sim_wave *w, uint64_t e)
{
	w->s[SIM_EXEC] = (uint32_t)e;
	w->s[SIM_EXEC + 1] = w->nlanes == 64 ? (uint32_t)(e >> 32) : 0;
}

uint64_t sim_vcc(const struct sim_wave *w)
{
	return ((uint64_t)w->s[SIM_VCC + 1] << 32 | w->s[SIM_VCC]) & w->exec_mask_all;
}

static const uint32_t inline_f32[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                       0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
static const uint64_t inline_f64[9] = {0x3fe0000000000000, 0xbfe0000000000000, 0x3ff0000000000000,
                                       0xbff0000000000000, 0x4000000000000000, 0xc000000000000000,
                                       0x4010000000000000, 0xc010000000000000, 0x3fc45f306dc9c882};

/* Aperture bases (flat addresses of LDS and scratch), as src_shared_base etc. return them. */
enum { SHARED_APERTURE_HI = 0x10000, PRIVATE_APERTURE_HI = 0x20000 };

static bool special_const(struct sim_wave *w, uint16_t code, uint64_t *v)
{
	switch (code) {
	case 235:
		*v = (uint64_t)SHARED_APERTURE_HI << 32;
		return true;
	case 236:
		*v = ((uint64_t)SHARED_APERTURE_HI << 32) | 0xffffffff;
		return true;
	case 237:
		*v = (uint64_t)PRIVATE_APERTURE_HI << 32;
		return true;
	case 238:
		*v = ((uint64_t)PRIVATE_APERTURE_HI << 32) | 0xffffffff;
		return true;
	case SIM_VCCZ:
		*v = sim_vcc(w) == 0;
		return true;
	case SIM_EXECZ:
		*v = sim_exec(w) == 0;
		return true;
	case SIM_SCC:
		*v = w->scc;
		return true;
	default:
		return false;
	}
}

uint32_t sim_rd_s32(struct sim_wave *w, const struct sim_insn *in, uint16_t code)
{
	if (code < SIM_NUM_SREGS) {
		if (code == SIM_NULL)
			return 0;
		sim_chk_read_s(w, in, code, 1);
		return w->s[code];
	}
	if (code >= 128 && code <= 192)
		return code - 128u;
	if (code >= 193 && code <= 208)
		return (uint32_t)(192 - (int)code);
	if (code >= 240 && code <= 248)
		return inline_f32[code - 240];
	if (code == SIM_LIT)
		return in->literal;
	uint64_t v;
	if (special_const(w, code, &v))
		return code >= 235 && code <= 238 ? (uint32_t)(v >> 32) : (uint32_t)v;
	if (code >= SIM_VGPR0) { /* v_readfirstlane-style scalar use of a VGPR is not legal here */
		sim_fault(w, "VGPR operand where a scalar operand is required");
		return 0;
	}
	sim_fault(w, "unsupported scalar operand code %u", code);
	return 0;
}

uint64_t sim_rd_s64(struct sim_wave *w, const struct sim_insn *in, uint16_t code, bool f64)
{
	if (code < SIM_NUM_SREGS) {
		if (code == SIM_NULL)
			return 0;
		if (code & 1) {
			sim_fault(w, "64-bit scalar operand in odd register s%u", code);
			return 0;
		}
		sim_chk_read_s(w, in, code, 2);
		if (code == SIM_EXEC)
			return sim_exec(w);
		return (uint64_t)w->s[code + 1] << 32 | w->s[code];
	}
	if (code >= 128 && code <= 192)
		return code - 128u;
	if (code >= 193 && code <= 208)
		return (uint64_t)(int64_t)(192 - (int)code);
	if (code >= 240 && code <= 248)
		return inline_f64[code - 240];
	if (code == SIM_LIT)
		return f64 ? (uint64_t)in->literal << 32 : in->literal;
	uint64_t v;
	if (special_const(w, code, &v))
		return v;
	sim_fault(w, "unsupported 64-bit scalar operand code %u", code);
	return 0;
}

void sim_wr_s32(struct sim_wave *w, uint16_t code, uint32_t v)
{
	if (code >= SIM_NUM_SREGS || code == SIM_NULL) {
		if (code != SIM_NULL)
			sim_fault(w, "write to non-register scalar operand %u", code);
		return;
	}
	sim_chk_write_s(w, w->cur, code, 1);
	w->s[code] = v;
}

void sim_wr_s64(struct sim_wave *w, uint16_t code, uint64_t v)
{
	if (code == SIM_NULL)
		return;
	if (code >= SIM_NUM_SREGS - 1 || (code & 1)) {
		sim_fault(w, "64-bit write to invalid scalar operand %u", code);
		return;
	}
	sim_chk_write_s(w, w->cur, code, 2);
	if (code == SIM_EXEC) {
		sim_set_exec(w, v & w->exec_mask_all);
		return;
	}
	w->s[code] = (uint32_t)v;
	w->s[code + 1] = (uint32_t)(v >> 32);
}

/* Issue cost in cycles of one instruction (the simple timing model). */
static unsigned issue_cycles(const struct sim_wave *w, const struct sim_sem *s)
{
	unsigned passes = w->nlanes == 64 && w->ctx->gen >= AMD_GFX10 ? 2 : 1;
	switch (s->cls) {
	case SIM_CLASS_VALU:
	case SIM_CLASS_MATRIX: /* issue; the matrix unit's own time is in sim_run_wave */
		return w->ctx->gen >= AMD_GFX10 ? passes : 4;
	case SIM_CLASS_VALU_TRANS:
		return w->ctx->gen >= AMD_GFX10 ? 4 * passes : 16;
	case SIM_CLASS_VALU_F64:
		return w->ctx->gen >= AMD_GFX10 ? 16 * passes : 8;
	case SIM_CLASS_VMEM_LOAD:
	case SIM_CLASS_VMEM_STORE:
	case SIM_CLASS_VMEM_ATOMIC:
	case SIM_CLASS_LDS:
		return 4;
	case SIM_CLASS_BRANCH:
		return 2;
	default:
		return 1;
	}
}

static void trace(struct sim_wave *w, const struct sim_insn *in)
{
	char buf[200];
	FILE *out = w->ctx->opt->trace_out ? w->ctx->opt->trace_out : stdout;
	sim_format_insn(w->ctx, in, buf, sizeof buf);
	if (w->nlanes == 64)
		fprintf(out, "wg %u wave %u pc 0x%llx exec %016llx  %s\n", w->wg_flat, w->id,
		        (unsigned long long)(w->ctx->co->text_addr + in->pc),
		        (unsigned long long)sim_exec(w), buf);
	else
		fprintf(out, "wg %u wave %u pc 0x%llx exec %08llx  %s\n", w->wg_flat, w->id,
		        (unsigned long long)(w->ctx->co->text_addr + in->pc),
		        (unsigned long long)sim_exec(w), buf);
}

/* Both halves of a VOPD read their operands before either writes: X already ran, so put
 * X's old destination back while Y runs, then X's result. */
static void run_vopd_y(struct sim_wave *w, const struct sim_insn *in)
{
	uint32_t *xd = &w->v[(size_t)(in->dst - SIM_VGPR0) * SIM_WAVE_STRIDE];
	uint32_t xnew[SIM_WAVE_STRIDE];
	memcpy(xnew, xd, sizeof xnew);
	memcpy(xd, w->vopd_old, sizeof xnew);
	in[1].sem->fn(w, &in[1]);
	memcpy(xd, xnew, sizeof xnew);
}

/* Runs the wave until it ends, waits at a barrier, or faults.  Returns false on a fault. */
bool sim_run_wave(struct sim_wave *w)
{
	struct sim_ctx *c = w->ctx;
	bool strict = c->opt->strict;
	uint64_t budget = c->opt->max_insns ? c->opt->max_insns : 1000000000ull;
	w->at_barrier = w->yielded = false;
	uint64_t quantum_end = w->ninsns + SIM_QUANTUM;
	while (!w->done && !w->at_barrier && !w->yielded && !c->error) {
		if (w->ninsns == quantum_end)
			break; /* the next round resumes it at w->pc (dispatch.c) */
		const struct sim_insn *in = sim_decode(c, w->pc);
		if (!in) {
			w->cur = NULL;
			sim_fault(w, "program counter outside the kernel's code");
			return false;
		}
		w->cur = in;
		if (!in->sem || !in->sem->fn) {
			sim_fault(w, "unimplemented instruction");
			return false;
		}
		if (in->fmt == SIM_FMT_VOPDX && (!in[1].sem || !in[1].sem->fn)) {
			sim_fault(w, "unimplemented VOPD half");
			return false;
		}
		if (++w->ninsns > budget) {
			sim_fault(w, "instruction budget exceeded (endless loop?)");
			return false;
		}
		if (c->opt->trace)
			trace(w, in);
		if (w->tr)
			cu_trace_insn_begin(w, in);
		struct sim_stats *st = c->stats;
		st->insns++;
		st->by_class[in->sem->cls]++;
		w->chk.ws++;
		if (strict)
			sim_chk_hazards(w, in);
		w->next_pc = in->pc + in->size;
		if (in->dpp == 3) { /* SDWA: keep the old destination for the field merge */
			uint32_t old[64];
			if (in->dst >= SIM_VGPR0)
				memcpy(old, &w->v[(size_t)(in->dst - SIM_VGPR0) * SIM_WAVE_STRIDE],
				       sizeof old);
			in->sem->fn(w, in);
			if (in->fmt != SIM_FMT_VOPC)
				sim_sdwa_dst(w, in, old);
		} else {
			if (in->fmt == SIM_FMT_VOPDX)
				memcpy(w->vopd_old,
				       &w->v[(size_t)(in->dst - SIM_VGPR0) * SIM_WAVE_STRIDE],
				       sizeof w->vopd_old);
			in->sem->fn(w, in);
		}
		if (in->fmt == SIM_FMT_VOPDX) /* dual issue: Y must see X's old destination */
			run_vopd_y(w, in);
		if (w->host_round) { /* set by sim_vbegin from the MODE register */
			fesetround(FE_TONEAREST);
			w->host_round = 0;
		}
		if (strict)
			sim_chk_after(w, in);
		unsigned matrix_busy = 0;
		if (in->sem->cls == SIM_CLASS_MATRIX) {
			/* the matrix unit takes one MFMA/WMMA at a time: a second one waits until
			 * the first has run its passes; the wave itself goes on after the issue */
			matrix_busy = sim_matrix_cycles(w, in);
			if (w->matrix_free > w->clock)
				w->clock = w->matrix_free;
			w->matrix_free = w->clock + matrix_busy;
			st->matrix_cycles += matrix_busy;
		}
		if (w->tr)
			cu_trace_insn_end(w, in, matrix_busy);
		w->clock += issue_cycles(w, in->sem);
		w->pc = w->next_pc;
	}
	return !c->error;
}
