/* PTX tables: types, dotted words, instructions and special registers, plus the
 * keyword hash tables the lexer and parser look words up in.
 *
 * The rows come from ptx_dotwords.def and ptx_ops.def (one table per fact).  The
 * hash tables are generated from the same files at build time (gen_kwtab.py writes
 * ptx_kwtab.c): open addressing, power-of-two size at most a quarter full, FNV-1a
 * hashes, so a lookup is one hash plus usually one compare.  Opcode rows with dots in
 * their name ("cp.async.wait_group") also enter every proper prefix ("cp", "cp.async")
 * so the parser can match the longest row. */
#include "ptx_int.h"

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
_Static_assert(sizeof ptx_sregs / sizeof ptx_sregs[0] <= 256, "ptx_symbol.sreg is 8 bits");

uint32_t ptx_hash(const char *s, size_t n)
{
	uint32_t h = PTX_HASH_BASIS;
	for (size_t i = 0; i < n; i++)
		h = PTX_HASH_STEP(h, s[i]);
	return h;
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
		if (!e->len)
			return NULL;
		if (e->hash == hash && e->len == len &&
		    ptx_same_text(ptx_kw_text + e->text, s, len))
			return e;
	}
}

bool ptx_insn_has_mod(const struct ptx_insn *insn, enum ptx_dotword dw)
{
	for (unsigned i = 0; i < insn->nmods; i++)
		if (insn->mods[i] == dw)
			return true;
	return false;
}
