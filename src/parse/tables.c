/* PTX tables: types, dotted words, instructions and special registers, plus the
 * keyword hash tables the lexer and parser look words up in.
 *
 * The rows come from ptx_dotwords.def and ptx_ops.def (one table per fact).  The
 * hash tables are built per parse in the caller's context (no global state):
 * open addressing, power-of-two size at most half full, FNV-1a hashes, so a
 * lookup is one hash plus usually one compare.  Opcode rows with dots in their
 * name ("cp.async.wait_group") also enter every proper prefix ("cp", "cp.async")
 * so the parser can match the longest row.  Complexity: O(rows) to build. */
#include "ptx_int.h"

#include <stdlib.h>
#include <string.h>

#define C(x) PTX_MC_##x
#define F(x) PTX_OF_##x

const struct ptx_type_info ptx_types[PTX_NTYPES] = {
#define X(id, s, bits, cls) {s, bits, PTX_TC_##cls},
        PTX_TYPE_LIST(X)
#undef X
};

const struct ptx_dotword_info ptx_dotwords[PTX_NDOTWORDS] = {
#define DW(id, text, classes, type, ver, sm) {text, classes, PTX_TYPE_##type, ver, sm},
#include "ptx_dotwords.def"
#undef DW
};

const struct ptx_op_info ptx_ops[PTX_NOPS] = {
#define OP(id, name, sig, mintypes, maxtypes, classes, flags, ver, sm)                             \
	{name, sig, mintypes, maxtypes, classes, flags, ver, sm},
#include "ptx_ops.def"
#undef OP
};

const struct ptx_sreg_info ptx_sregs[] = {
        {"%tid", PTX_TYPE_U32, 4, 0, 0},
        {"%ntid", PTX_TYPE_U32, 4, 0, 0},
        {"%ctaid", PTX_TYPE_U32, 4, 0, 0},
        {"%nctaid", PTX_TYPE_U32, 4, 0, 0},
        {"%laneid", PTX_TYPE_U32, 1, 0, 0},
        {"%warpid", PTX_TYPE_U32, 1, 0, 0},
        {"%nwarpid", PTX_TYPE_U32, 1, 20, 0},
        {"%smid", PTX_TYPE_U32, 1, 0, 0},
        {"%nsmid", PTX_TYPE_U32, 1, 20, 0},
        {"%gridid", PTX_TYPE_U64, 1, 0, 0},
        {"%lanemask_eq", PTX_TYPE_U32, 1, 20, 20},
        {"%lanemask_le", PTX_TYPE_U32, 1, 20, 20},
        {"%lanemask_lt", PTX_TYPE_U32, 1, 20, 20},
        {"%lanemask_ge", PTX_TYPE_U32, 1, 20, 20},
        {"%lanemask_gt", PTX_TYPE_U32, 1, 20, 20},
        {"%clock", PTX_TYPE_U32, 1, 0, 0},
        {"%clock_hi", PTX_TYPE_U32, 1, 50, 0},
        {"%clock64", PTX_TYPE_U64, 1, 20, 0},
        {"%globaltimer", PTX_TYPE_U64, 1, 31, 0},
        {"%globaltimer_lo", PTX_TYPE_U32, 1, 31, 0},
        {"%globaltimer_hi", PTX_TYPE_U32, 1, 31, 0},
        {"%dynamic_smem_size", PTX_TYPE_U32, 1, 41, 0},
        {"%total_smem_size", PTX_TYPE_U32, 1, 41, 0},
        {"%aggr_smem_size", PTX_TYPE_U32, 1, 81, 90},
        {"%reserved_smem_offset_begin", PTX_TYPE_B32, 1, 76, 80},
        {"%reserved_smem_offset_end", PTX_TYPE_B32, 1, 76, 80},
        {"%reserved_smem_offset_cap", PTX_TYPE_B32, 1, 76, 80},
        {"%reserved_smem_offset_0", PTX_TYPE_B32, 1, 76, 80},
        {"%reserved_smem_offset_1", PTX_TYPE_B32, 1, 76, 80},
        {"%cluster_ctaid", PTX_TYPE_U32, 4, 78, 90},
        {"%cluster_nctaid", PTX_TYPE_U32, 4, 78, 90},
        {"%cluster_ctarank", PTX_TYPE_U32, 1, 78, 90},
        {"%cluster_nctarank", PTX_TYPE_U32, 1, 78, 90},
        {"%clusterid", PTX_TYPE_U32, 4, 78, 90},
        {"%nclusterid", PTX_TYPE_U32, 4, 78, 90},
        {"%is_explicit_cluster", PTX_TYPE_PRED, 1, 78, 90},
        {"%current_graph_exec", PTX_TYPE_U64, 1, 80, 50},
        {"%envreg", PTX_TYPE_B32, 1, 21, 0}, /* %envreg<32> */
        {"%pm", PTX_TYPE_U32, 1, 0, 0},      /* %pm<8> */
        {"%pm0_64", PTX_TYPE_U64, 1, 40, 50},
        {"%pm1_64", PTX_TYPE_U64, 1, 40, 50},
        {"%pm2_64", PTX_TYPE_U64, 1, 40, 50},
        {"%pm3_64", PTX_TYPE_U64, 1, 40, 50},
        {"%pm4_64", PTX_TYPE_U64, 1, 40, 50},
        {"%pm5_64", PTX_TYPE_U64, 1, 40, 50},
        {"%pm6_64", PTX_TYPE_U64, 1, 40, 50},
        {"%pm7_64", PTX_TYPE_U64, 1, 40, 50},
};
const unsigned ptx_nsregs = sizeof ptx_sregs / sizeof ptx_sregs[0];

uint32_t ptx_hash(const char *s, size_t n)
{
	uint32_t h = PTX_HASH_BASIS;
	for (size_t i = 0; i < n; i++)
		h = PTX_HASH_STEP(h, s[i]);
	return h;
}

static struct ptx_kw_entry *kw_slot(struct ptx_kwtab *t, const char *s, uint32_t len, uint32_t hash)
{
	for (uint32_t i = hash & t->mask;; i = (i + 1) & t->mask) {
		struct ptx_kw_entry *e = &t->slots[i];
		if (!e->text || (e->hash == hash && e->len == len && !memcmp(e->text, s, len)))
			return e;
	}
}

const struct ptx_kw_entry *ptx_kw_find(const struct ptx_kwtab *t, const char *s, uint32_t len)
{
	return ptx_kw_find_hashed(t, s, len, ptx_hash(s, len));
}

const struct ptx_kw_entry *ptx_kw_find_hashed(const struct ptx_kwtab *t, const char *s,
                                              uint32_t len, uint32_t hash)
{
	for (uint32_t i = hash & t->mask;; i = (i + 1) & t->mask) {
		const struct ptx_kw_entry *e = &t->slots[i];
		if (!e->text)
			return NULL;
		if (e->hash == hash && e->len == len && ptx_same_text(e->text, s, len))
			return e;
	}
}

static void kw_alloc(struct ptx_kwtab *t, unsigned n)
{
	uint32_t size = 16;
	while (size < 4 * n)
		size *= 2;
	t->slots = pa_xcalloc(size, sizeof *t->slots);
	t->mask = size - 1;
}

void ptx_tables_init(struct ptx_kwtab *dotwords, struct ptx_kwtab *ops)
{
	kw_alloc(dotwords, PTX_NDOTWORDS);
	for (unsigned i = 0; i < PTX_NDOTWORDS; i++) {
		const char *s = ptx_dotwords[i].text;
		uint32_t len = (uint32_t)strlen(s), hash = ptx_hash(s, len);
		*kw_slot(dotwords, s, len, hash) = (struct ptx_kw_entry){
		        .hash = hash, .id = (uint16_t)i, .text = s, .len = len};
	}
	kw_alloc(ops, 2 * PTX_NOPS);
	for (unsigned i = 0; i < PTX_NOPS; i++) {
		const char *s = ptx_ops[i].name;
		uint32_t len = (uint32_t)strlen(s);
		struct ptx_kw_entry *e = kw_slot(ops, s, len, ptx_hash(s, len));
		bool had_longer = e->text && e->has_longer;
		*e = (struct ptx_kw_entry){.hash = ptx_hash(s, len),
		                           .id = (uint16_t)i,
		                           .text = s,
		                           .len = len,
		                           .has_longer = had_longer};
		for (uint32_t k = 0; k < len; k++) {
			if (s[k] != '.')
				continue;
			struct ptx_kw_entry *p = kw_slot(ops, s, k, ptx_hash(s, k));
			if (!p->text)
				*p = (struct ptx_kw_entry){.hash = ptx_hash(s, k),
				                           .id = UINT16_MAX,
				                           .text = s,
				                           .len = k};
			p->has_longer = true;
		}
	}
}

void ptx_tables_free(struct ptx_kwtab *dotwords, struct ptx_kwtab *ops)
{
	free(dotwords->slots);
	free(ops->slots);
}

bool ptx_insn_has_mod(const struct ptx_insn *insn, enum ptx_dotword dw)
{
	for (unsigned i = 0; i < insn->nmods; i++)
		if (insn->mods[i] == dw)
			return true;
	return false;
}
