/* dispatch: runs one kernel dispatch (sim_run) the way the hardware starts waves.
 *
 * Builds the device address space (code object image with its dynamic relocations applied,
 * argument buffers, kernarg segment with
 * the code object v5 hidden arguments, AQL dispatch packet, queue, scratch), then runs the
 * workgroups one after another.  Each wave starts with the user SGPRs in HSA order as the
 * kernel descriptor enables them (private segment buffer, dispatch ptr, queue ptr, kernarg
 * ptr, dispatch id, flat scratch init, private segment size, preloaded kernargs), then the
 * workgroup ids / info / scratch wave offset at USER_SGPR_COUNT, the workitem ids in VGPRs
 * (packed in v0 on gfx90a, gfx942 and gfx11), EXEC for a partial last wave, MODE from rsrc1.
 * The waves of a workgroup run in turn until each ends or waits at s_barrier; the barrier
 * releases when every live wave reached it.
 * complexity: O(work-items x instructions). */
#include <stdlib.h>
#include <string.h>

#include "cu_model.h"
#include "sim_int.h"

enum { SHARED_HI = 0x10000, PRIVATE_HI = 0x20000 };

static bool err_out(struct sim_ctx *c, const char *msg)
{
	snprintf(c->err, c->errlen, "%s", msg);
	c->error = true;
	return false;
}

static void put(struct sim_ctx *c, uint64_t addr, const void *v, size_t n)
{
	uint8_t *p = sim_mem_map(c, addr, (uint32_t)n, true);
	if (p)
		memcpy(p, v, n);
}

static uint64_t hidden_value(const struct sim_ctx *c, const struct sim_dispatch *d,
                             const char *kind, bool *known)
{
	*known = true;
	static const char *const dims[3] = {"x", "y", "z"};
	for (int i = 0; i < 3; i++) {
		char b[48];
		snprintf(b, sizeof b, "hidden_block_count_%s", dims[i]);
		if (!strcmp(kind, b))
			return d->grid[i];
		snprintf(b, sizeof b, "hidden_group_size_%s", dims[i]);
		if (!strcmp(kind, b))
			return d->block[i];
		snprintf(b, sizeof b, "hidden_remainder_%s", dims[i]);
		if (!strcmp(kind, b))
			return 0;
		snprintf(b, sizeof b, "hidden_global_offset_%s", dims[i]);
		if (!strcmp(kind, b))
			return 0;
	}
	if (!strcmp(kind, "hidden_grid_dims"))
		return d->grid[2] * d->block[2] > 1 ? 3 : d->grid[1] * d->block[1] > 1 ? 2 : 1;
	if (!strcmp(kind, "hidden_dynamic_lds_size"))
		return d->dynamic_lds;
	if (!strcmp(kind, "hidden_private_base"))
		return PRIVATE_HI;
	if (!strcmp(kind, "hidden_shared_base"))
		return SHARED_HI;
	if (!strcmp(kind, "hidden_queue_ptr"))
		return c->queue_addr;
	/* printf/hostcall/heap/default queue/completion action/multigrid: no device services */
	*known = !strncmp(kind, "hidden_", 7);
	return 0;
}

/* Places explicit arguments (in order) and hidden arguments into the kernarg segment. */
static bool setup_kernargs(struct sim_ctx *c, const struct sim_dispatch *d, uint64_t *bufaddr)
{
	const struct sim_kernel *k = c->k;
	uint32_t size = k->kernarg_size ? k->kernarg_size : 256;
	c->kernarg_addr = sim_mem_alloc(c, (size + 255) & ~255u, "kernarg segment");
	size_t next = 0;
	for (unsigned i = 0; i < k->nargs; i++) {
		const struct sim_karg *ka = &k->args[i];
		if ((uint64_t)ka->offset + ka->size > size)
			return err_out(c, "metadata argument outside the kernarg segment");
		if (ka->hidden) {
			bool known;
			uint64_t v = hidden_value(c, d, ka->value_kind, &known);
			if (!strcmp(ka->value_kind, "hidden_printf_buffer"))
				v = sim_printf_buffer(c);
			put(c, c->kernarg_addr + ka->offset, &v, ka->size > 8 ? 8 : ka->size);
			continue;
		}
		if (next >= d->nargs) {
			snprintf(c->err, c->errlen,
			         "kernel %s takes more arguments than the %zu given", k->name,
			         d->nargs);
			c->error = true;
			return false;
		}
		const struct sim_arg *a = &d->args[next];
		uint64_t v = 0;
		size_t n = ka->size;
		if (a->kind <= SIM_ARG_INOUT || a->kind == SIM_ARG_IMAGE) {
			if (ka->size != 8) {
				snprintf(c->err, c->errlen, "argument %zu (%s) is not a pointer",
				         next + 1, ka->name ? ka->name : "?");
				c->error = true;
				return false;
			}
			v = bufaddr[next];
		} else if (a->kind == SIM_ARG_F32) {
			float f = (float)a->value.f;
			memcpy(&v, &f, 4);
		} else if (a->kind == SIM_ARG_F64) {
			memcpy(&v, &a->value.f, 8);
		} else {
			v = a->value.u;
		}
		if (n > 8) {
			snprintf(c->err, c->errlen,
			         "argument %zu is a %zu-byte aggregate (not supported)", next + 1,
			         n);
			c->error = true;
			return false;
		}
		put(c, c->kernarg_addr + ka->offset, &v, n);
		next++;
	}
	if (next != d->nargs) {
		snprintf(c->err, c->errlen, "kernel %s takes %zu arguments, %zu given", k->name,
		         next, d->nargs);
		c->error = true;
		return false;
	}
	return true;
}

static void setup_packet(struct sim_ctx *c, const struct sim_dispatch *d, uint32_t lds)
{
	uint8_t p[64] = {0};
	uint16_t setup = (uint16_t)hidden_value(c, d, "hidden_grid_dims", &(bool){0});
	uint16_t header = 2; /* HSA_PACKET_TYPE_KERNEL_DISPATCH */
	memcpy(p, &header, 2);
	memcpy(p + 2, &setup, 2);
	for (int i = 0; i < 3; i++) {
		uint16_t b = (uint16_t)d->block[i];
		uint32_t g = d->grid[i] * d->block[i];
		memcpy(p + 4 + 2 * i, &b, 2);
		memcpy(p + 12 + 4 * i, &g, 4);
	}
	memcpy(p + 24, &c->scratch_per_lane, 4);
	memcpy(p + 28, &lds, 4);
	uint64_t kobj = c->code_addr - c->co->text_addr + c->k->kd_addr;
	memcpy(p + 32, &kobj, 8);
	memcpy(p + 40, &c->kernarg_addr, 8);
	c->dispatch_addr = sim_mem_alloc(c, 64, "AQL dispatch packet");
	put(c, c->dispatch_addr, p, 64);
	c->queue_addr = sim_mem_alloc(c, 256, "queue");
}

struct wave_layout {
	uint32_t rsrc1, rsrc2, props;
	unsigned user_sgprs, nlanes, nvgprs;
};

static void init_wave(struct sim_ctx *c, struct sim_wave *w, const struct wave_layout *L,
                      const struct sim_dispatch *d, unsigned wave, const uint32_t wg[3])
{
	const uint8_t *kd = c->k->kd;
	uint32_t *s = w->s;
	memset(s, 0, sizeof w->s);
	memset(&w->chk, 0, sizeof w->chk);
	memset(w->v, 0, (size_t)L->nvgprs * SIM_WAVE_STRIDE * 4);
	unsigned n = 0;
	uint64_t wave_off = (uint64_t)wave * c->scratch_per_lane * L->nlanes;
	w->scratch_base = c->scratch_addr + wave_off;
	w->flat_scratch = 0;
	w->strict = c->opt->strict;
	if (L->props & 1) { /* private segment buffer V# */
		s[n++] = (uint32_t)c->scratch_addr;
		s[n++] = (uint32_t)(c->scratch_addr >> 32) & 0xffff;
		s[n++] = 0xffffffffu;
		s[n++] = 0x00800000u; /* ADD_TID_ENABLE */
	}
	uint64_t ptrs[3] = {c->dispatch_addr, c->queue_addr, c->kernarg_addr};
	for (int i = 0; i < 3; i++)
		if ((L->props >> (1 + i)) & 1) {
			s[n++] = (uint32_t)ptrs[i];
			s[n++] = (uint32_t)(ptrs[i] >> 32);
		}
	if ((L->props >> 4) & 1) { /* dispatch id */
		s[n++] = 0;
		s[n++] = 0;
	}
	if ((L->props >> 5) & 1) { /* flat scratch init: the kernel adds the wave offset */
		s[n++] = (uint32_t)c->scratch_addr;
		s[n++] = (uint32_t)(c->scratch_addr >> 32);
	}
	if ((L->props >> 6) & 1)
		s[n++] = c->scratch_per_lane;
	uint16_t preload;
	memcpy(&preload, kd + 58, 2);
	for (unsigned i = 0; i < (preload & 127u) && n < 16; i++) {
		uint8_t *p = sim_mem_map(c, c->kernarg_addr + 4 * ((preload >> 7) + i), 4, false);
		s[n++] = p ? (uint32_t)(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24) : 0;
	}
	n = L->user_sgprs > n ? L->user_sgprs : n;
	for (int i = 0; i < 3; i++)
		if ((L->rsrc2 >> (7 + i)) & 1)
			s[n++] = wg[i];
	if ((L->rsrc2 >> 10) & 1)
		s[n++] = 0; /* workgroup info */
	if ((L->rsrc2 & 1) && !c->co->target.info->architected_flat_scratch)
		s[n++] = (uint32_t)wave_off;
	if (c->gen >= AMD_GFX12) { /* architected SGPRs: ttmp9 = id X, ttmp7 = Y | Z << 16 */
		s[SIM_TTMP0 + 9] = wg[0];
		s[SIM_TTMP0 + 7] = (wg[1] & 0xffff) | wg[2] << 16;
	}
	/* workitem ids */
	unsigned bx = d->block[0], by = d->block[1], total = bx * by * d->block[2];
	unsigned vid = (L->rsrc2 >> 11) & 3;
	uint64_t exec = 0;
	for (unsigned l = 0; l < L->nlanes; l++) {
		unsigned flat = wave * L->nlanes + l;
		if (flat >= total)
			break;
		exec |= 1ull << l;
		unsigned x = flat % bx, y = (flat / bx) % by, z = flat / (bx * by);
		if (c->packed_tid) {
			w->v[l] = x | (vid >= 1 ? y << 10 : 0) | (vid >= 2 ? z << 20 : 0);
		} else {
			w->v[l] = x;
			if (vid >= 1)
				w->v[SIM_WAVE_STRIDE + l] = y;
			if (vid >= 2)
				w->v[2 * SIM_WAVE_STRIDE + l] = z;
		}
	}
	w->exec_mask_all = L->nlanes == 64 ? ~0ull : 0xffffffffull;
	sim_set_exec(w, exec);
	w->mode = ((L->rsrc1 >> 12) & 0xff) | (((L->rsrc1 >> 21) & 1) << 8) |
	          (((L->rsrc1 >> 23) & 1) << 9);
	w->pc = (uint32_t)(c->k->entry - c->co->text_addr);
	w->done = w->at_barrier = w->barrier_signalled = false;
	w->ninsns = 0;
	w->clock = 0;
	w->scc = false;
	w->rng = (c->opt->seed + 1) * 0x9E3779B97F4A7C15ull ^ ((uint64_t)w->wg_flat << 20) ^ wave;
	if (!w->rng)
		w->rng = 1;
}

/* One round: every wave that is not done and not waiting at s_barrier runs until it ends,
 * reaches a barrier, sleeps (s_sleep) or has run SIM_QUANTUM instructions (exec.c).  When
 * every live wave waits at the barrier, it is released.  A round in which every live wave waited or
 * slept where it slept the round before (it came back to the same s_sleep: a spin loop) and no
 * wave wrote memory cannot change what the sleeping waves read; QUIET_ROUNDS such rounds in a row
 * are waves spinning forever, a deadlock.  A wave that passed an s_sleep outside a loop has moved
 * on (no deadlock), and a few quiet rounds are straight-line code with nanosleep's. */
static bool run_workgroup(struct sim_ctx *c)
{
	enum { QUIET_ROUNDS = 16, MAX_WAVES_PER_GROUP = 1024 / 32 }; /* check_dims: <= 1024 items */
	uint32_t start_pc[MAX_WAVES_PER_GROUP];
	unsigned quiet = 0;
	for (;;) {
		bool any_running = false;
		uint64_t writes = c->mem_writes;
		for (unsigned i = 0; i < c->nwaves; i++) {
			struct sim_wave *w = &c->waves[i];
			start_pc[i % MAX_WAVES_PER_GROUP] = w->pc;
			if (w->done || w->at_barrier)
				continue;
			if (!sim_run_wave(w))
				return false;
			any_running = true;
		}
		unsigned live = 0, waiting = 0, sleeping = 0;
		uint64_t t = 0;
		for (unsigned i = 0; i < c->nwaves; i++) {
			struct sim_wave *w = &c->waves[i];
			if (w->done)
				continue;
			live++;
			sleeping += w->yielded && w->pc == start_pc[i % MAX_WAVES_PER_GROUP];
			if (w->at_barrier) {
				waiting++;
				t = w->clock > t ? w->clock : t;
			}
		}
		if (!live)
			return true;
		if (waiting == live) { /* release the barrier */
			for (unsigned i = 0; i < c->nwaves; i++) {
				struct sim_wave *w = &c->waves[i];
				if (w->done)
					continue;
				c->stats->barrier_stall_cycles += t - w->clock;
				w->clock = t;
				w->at_barrier = false;
				w->pc = w->next_pc;
			}
		} else if (!any_running) {
			return err_out(c,
			               "deadlock: waves wait at a barrier that others never reach");
		} else if (waiting + sleeping == live && c->mem_writes == writes &&
		           ++quiet == QUIET_ROUNDS) {
			char msg[160];
			snprintf(
			        msg, sizeof msg,
			        "deadlock: waves spin at s_sleep on memory no wave writes any more "
			        "(workgroup %u: %u waves sleeping, %u at s_barrier)",
			        c->waves[0].wg_flat, sleeping, waiting);
			return err_out(c, msg);
		} else if (c->mem_writes != writes || waiting + sleeping != live) {
			quiet = 0;
		}
	}
}

static bool check_dims(struct sim_ctx *c, const struct sim_dispatch *d)
{
	uint64_t items = 1, groups = 1;
	for (int i = 0; i < 3; i++) {
		if (!d->grid[i] || !d->block[i])
			return err_out(c, "grid and block sizes must be positive");
		items *= d->block[i];
		groups *= d->grid[i];
	}
	if (items > 1024)
		return err_out(c, "more than 1024 work-items per workgroup");
	if (groups > (1u << 24))
		return err_out(c, "more than 2^24 workgroups");
	return true;
}

/* An image argument: its texels in one allocation, HIP's descriptor block (image_desc.c) in
 * another, whose address the kernel gets; bufaddr[nargs + i] keeps the texels' address. */
static bool setup_image(struct sim_ctx *c, const struct sim_dispatch *d, size_t i,
                        uint64_t *bufaddr)
{
	const struct sim_arg *a = &d->args[i];
	uint32_t words[SIM_IMAGE_BLOCK_DWORDS];
	char why[160];
	if (!a->image || a->size != sim_image_bytes(a->image) || !a->size)
		return err_out(c,
		               "image argument: the data size does not match its format and size");
	uint64_t data = sim_mem_alloc(c, a->size, "image texels");
	if (a->data)
		put(c, data, a->data, a->size);
	if (!sim_image_descriptor(c->gen, a->image, data, words, why, sizeof why))
		return err_out(c, why);
	bufaddr[i] = sim_mem_alloc(c, sizeof words, "image descriptor");
	bufaddr[d->nargs + i] = data;
	put(c, bufaddr[i], words, sizeof words);
	return true;
}

static bool setup_buffers(struct sim_ctx *c, const struct sim_dispatch *d, uint64_t *bufaddr)
{
	for (size_t i = 0; i < d->nargs; i++) {
		const struct sim_arg *a = &d->args[i];
		if (a->kind == SIM_ARG_IMAGE && !setup_image(c, d, i, bufaddr))
			return false;
		if (a->kind > SIM_ARG_INOUT)
			continue;
		if (a->size > (1ull << 32))
			return err_out(c, "buffer larger than 4 GiB");
		bufaddr[i] = sim_mem_alloc(c, a->size ? a->size : 4, "argument buffer");
		if (a->kind != SIM_ARG_OUT && a->data && a->size)
			put(c, bufaddr[i], a->data, a->size);
	}
	return true;
}

static void copy_back(struct sim_ctx *c, const struct sim_dispatch *d, const uint64_t *bufaddr)
{
	for (size_t i = 0; i < d->nargs; i++) {
		const struct sim_arg *a = &d->args[i];
		bool image = a->kind == SIM_ARG_IMAGE;
		if ((a->kind == SIM_ARG_OUT || a->kind == SIM_ARG_INOUT || image) && a->out &&
		    a->size) {
			uint64_t at = image ? bufaddr[d->nargs + i] : bufaddr[i];
			uint8_t *p = sim_mem_map(c, at, (uint32_t)a->size, false);
			if (p)
				memcpy(a->out, p, a->size);
		}
	}
}

static const struct sim_kernel *find_kernel(const struct sim_code_object *co, const char *name)
{
	for (unsigned i = 0; i < co->nkernels; i++) {
		const struct sim_kernel *k = &co->kernels[i];
		size_t n = strlen(k->symbol);
		if (!strcmp(k->name, name) ||
		    (n > 3 && !strncmp(k->symbol, name, n - 3) && name[n - 3] == 0))
			return k;
	}
	return NULL;
}

static bool setup(struct sim_ctx *c, const struct sim_dispatch *d, uint64_t *bufaddr,
                  struct wave_layout *L)
{
	struct sim_code_object *co = c->co;
	const uint8_t *kd = c->k->kd;
	memcpy(&L->rsrc1, kd + 48, 4);
	memcpy(&L->rsrc2, kd + 52, 4);
	uint16_t props;
	memcpy(&props, kd + 56, 2);
	L->props = props;
	L->user_sgprs = (L->rsrc2 >> 1) & 31;
	L->nlanes = (c->gen >= AMD_GFX10 && ((props >> 10) & 1)) ? 32 : 64;
	unsigned gran = c->gen == AMD_GFX940 || c->gen == AMD_GFX9 ? 8 : (L->nlanes == 32 ? 8 : 4);
	L->nvgprs = ((L->rsrc1 & 63) + 1) * gran;
	if (c->gen == AMD_GFX9 && !co->target.info->has_agprs)
		L->nvgprs = ((L->rsrc1 & 63) + 1) * 4;
	if (L->nvgprs > SIM_MAX_VREGS)
		L->nvgprs = SIM_MAX_VREGS;
	uint32_t group_fixed, priv;
	memcpy(&group_fixed, kd, 4);
	memcpy(&priv, kd + 4, 4);
	if ((uint64_t)group_fixed + d->dynamic_lds > 65536)
		return err_out(c, "LDS (static + dynamic) exceeds 64 KiB");
	c->lds_size = group_fixed + d->dynamic_lds;
	c->lds = pa_arena_alloc(&c->arena, c->lds_size ? c->lds_size : 4, 16);
	c->scratch_per_lane = (priv + 3) & ~3u;
	if (c->scratch_per_lane > (1u << 20))
		return err_out(c, "private segment larger than 1 MiB per lane");
	uint64_t img = sim_mem_alloc(c, co->vsize, "code object");
	put(c, img, co->vimage, co->vsize);
	for (unsigned i = 0; i < co->ndyn_relocs; i++) { /* as the loader relocates the image */
		uint64_t v = img + co->dyn_relocs[i].value;
		put(c, img + co->dyn_relocs[i].offset, &v, 8);
	}
	c->code_addr = img + co->text_addr;
	c->code = co->vimage + co->text_addr;
	c->code_size = (uint32_t)co->text_size;
	c->icache = PA_NEW_ARRAY(&c->arena, struct sim_insn, c->code_size / 4 + 2);
	unsigned total = d->block[0] * d->block[1] * d->block[2];
	c->nwaves = (total + L->nlanes - 1) / L->nlanes;
	if (c->scratch_per_lane)
		c->scratch_addr = sim_mem_alloc(
		        c, (uint64_t)c->scratch_per_lane * L->nlanes * c->nwaves, "scratch");
	if (!setup_buffers(c, d, bufaddr))
		return false;
	setup_packet(c, d, c->lds_size);
	if (!setup_kernargs(c, d, bufaddr))
		return false;
	/* the packet was written before the kernarg address was known: patch it */
	put(c, c->dispatch_addr + 40, &c->kernarg_addr, 8);
	c->waves = PA_NEW_ARRAY(&c->arena, struct sim_wave, c->nwaves);
	for (unsigned i = 0; i < c->nwaves; i++) {
		c->waves[i].ctx = c;
		c->waves[i].id = i;
		c->waves[i].nlanes = L->nlanes;
		c->waves[i].v =
		        PA_NEW_ARRAY(&c->arena, uint32_t, (size_t)SIM_MAX_VREGS * SIM_WAVE_STRIDE);
	}
	return true;
}

enum sim_status sim_run(struct sim_code_object *co, const struct sim_dispatch *d,
                        const struct sim_options *opt, struct sim_stats *stats, char *err,
                        size_t errlen)
{
	struct sim_ctx *c = pa_xcalloc(1, sizeof *c);
	memset(stats, 0, sizeof *stats);
	pa_arena_init(&c->arena);
	c->co = co;
	c->opt = opt;
	c->stats = stats;
	c->err = err;
	c->errlen = errlen;
	c->gen = co->target.info->gen;
	c->gfx9_hazards = c->gen == AMD_GFX9 || c->gen == AMD_GFX940;
	c->gfx940_hazards = c->gen == AMD_GFX940;
	c->gfx11_trans_hazard = c->gen == AMD_GFX11;
	c->split_cnts = c->gen >= AMD_GFX12;
	c->gfx10_hazards = c->gen == AMD_GFX10;
	c->packed_tid = (c->gen != AMD_GFX9 && c->gen != AMD_GFX10) || co->target.info->has_agprs;
	c->separate_vs = c->gen >= AMD_GFX10;
	err[0] = 0;
	uint64_t *bufaddr = pa_xcalloc(2 * d->nargs + 1, sizeof *bufaddr);
	struct wave_layout L;
	c->k = find_kernel(co, d->kernel);
	if (!c->k) {
		snprintf(err, errlen, "no kernel named '%s' in the code object", d->kernel);
		c->error = true;
	} else if (check_dims(c, d) && setup(c, d, bufaddr, &L)) {
		sim_decode_init(c);
		if (opt->cu_model)
			c->tr = pa_xcalloc(1, sizeof *c->tr);
		uint32_t wgid = 0;
		for (uint32_t z = 0; z < d->grid[2] && !c->error; z++)
			for (uint32_t y = 0; y < d->grid[1] && !c->error; y++)
				for (uint32_t x = 0; x < d->grid[0] && !c->error; x++, wgid++) {
					uint32_t wg[3] = {x, y, z};
					memset(c->lds, 0, c->lds_size);
					for (unsigned i = 0; i < c->nwaves; i++) {
						c->waves[i].wg_flat = wgid;
						init_wave(c, &c->waves[i], &L, d, i, wg);
					}
					if (c->tr)
						cu_trace_begin_wg(c);
					run_workgroup(c);
					uint64_t t = 0;
					for (unsigned i = 0; i < c->nwaves; i++)
						t = c->waves[i].clock > t ? c->waves[i].clock : t;
					stats->cycles += t;
					stats->workgroups++;
					stats->waves += c->nwaves;
				}
		if (c->tr && !c->error)
			cu_model_run(c, d->block[0] * d->block[1] * d->block[2]);
		copy_back(c, d, bufaddr);
		if (!c->error || stats->trapped)
			sim_printf_flush(c, opt->printf_out ? opt->printf_out : stdout);
	}
	stats->waits = stats->by_class[SIM_CLASS_WAITCNT];
	bool failed = c->error;
	cu_trace_free(c->tr);
	free(bufaddr);
	pa_arena_free(&c->arena);
	free(c);
	if (failed)
		return SIM_ERROR;
	return stats->violations ? SIM_VIOLATIONS : SIM_OK;
}

void sim_options_init(struct sim_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->strict = true;
}

/* The CU model's figures, after the per-wave ones (whose names stay as they were). */
static void print_cu_stats(FILE *out, const struct sim_cu_stats *u)
{
	static const char *const units[SIM_CU_NUM_UNITS] = {"valu", "trans", "matrix", "salu",
	                                                    "vmem", "lds",   "branch"};
	static const char *const stalls[SIM_CU_NUM_STALLS] = {
	        "none", "idle", "wait_vmem", "wait_lgkm", "dependency", "unit", "barrier", "other"};
	unsigned long long cyc = u->cycles ? u->cycles : 1;
	fprintf(out, "cu_cycles %llu\ncu_simds %u\ncu_launch_copies %u\ncu_workgroups %llu\n",
	        (unsigned long long)u->cycles, u->simds, u->copies,
	        (unsigned long long)u->workgroups);
	fprintf(out, "cu_waves %llu\ncu_vgprs_per_wave %u\ncu_waves_per_simd_limit %u\n",
	        (unsigned long long)u->waves, u->vgprs_per_wave, u->waves_per_simd_limit);
	fprintf(out, "cu_peak_waves_per_simd %u\ncu_occupancy %.2f\ncu_dram_lines %llu\n",
	        u->peak_waves_per_simd, (double)u->wave_cycles / ((double)cyc * u->simds),
	        (unsigned long long)u->dram_lines);
	for (int i = 0; i < SIM_CU_NUM_UNITS; i++) {
		/* per-SIMD units: share of all SIMDs' cycles; VMEM and LDS are one per CU */
		double n = i == SIM_CU_VMEM || i == SIM_CU_LDS ? 1.0 : u->simds;
		fprintf(out, "cu_issued_%s %llu\ncu_busy_%s %llu\ncu_busy_%s_pct %.1f\n", units[i],
		        (unsigned long long)u->issued[i], units[i], (unsigned long long)u->busy[i],
		        units[i], 100.0 * (double)u->busy[i] / ((double)cyc * n));
	}
	for (int i = 1; i < SIM_CU_NUM_STALLS; i++)
		fprintf(out, "cu_stall_%s %llu\n", stalls[i], (unsigned long long)u->stall[i]);
}

void sim_print_stats(FILE *out, const struct sim_stats *s)
{
	static const char *const names[SIM_NUM_CLASSES] = {
	        "salu",      "smem",       "valu",        "valu_trans", "valu_f64",
	        "vmem_load", "vmem_store", "vmem_atomic", "lds",        "branch",
	        "waitcnt",   "nop",        "barrier",     "misc",       "matrix"};
	fprintf(out, "workgroups %llu\nwaves %llu\ninstructions %llu\n",
	        (unsigned long long)s->workgroups, (unsigned long long)s->waves,
	        (unsigned long long)s->insns);
	for (int i = 0; i < SIM_NUM_CLASSES; i++)
		fprintf(out, "  %-12s %llu\n", names[i], (unsigned long long)s->by_class[i]);
	fprintf(out, "waits %llu\nwait_stall_cycles %llu\nbarrier_stall_cycles %llu\n",
	        (unsigned long long)s->waits, (unsigned long long)s->wait_stall_cycles,
	        (unsigned long long)s->barrier_stall_cycles);
	fprintf(out, "nop_cycles %llu\ncycles %llu\nviolations %llu\n",
	        (unsigned long long)s->nop_cycles, (unsigned long long)s->cycles,
	        (unsigned long long)s->violations);
	if (s->matrix_cycles)
		fprintf(out, "matrix_cycles %llu\n", (unsigned long long)s->matrix_cycles);
	if (s->cu.valid)
		print_cu_stats(out, &s->cu);
	else if (s->cu.missing)
		fprintf(out, "cu_model none (%s)\n", s->cu.missing);
}
