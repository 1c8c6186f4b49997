/* Internal to src/encode: the encoder's state and the helpers shared by encode.c (operands,
 * SALU, SMEM, VALU, dispatch), encode_mem.c (DS, FLAT/GLOBAL/SCRATCH, MUBUF) and
 * encode_vext.c (DPP, SDWA, VOPD).  Not part of the public API. */
#ifndef AMD_ENCODE_INT_H
#define AMD_ENCODE_INT_H

#include "amd_encode.h"

struct enc {
	const struct amd_target *t;
	enum amd_gen gen;
	const struct amd_isa_op *op;
	const struct amd_inst *in;
	char *err;
	size_t errlen;
	bool has_literal;
	uint32_t literal;
	unsigned nconst; /* constant-bus reads (distinct SGPRs and literals) */
	int const_regs[4];
};

bool amd_enc_fail(struct enc *e, const char *msg, const char *detail);
unsigned amd_enc_special_code(enum amd_gen gen, unsigned spec);
unsigned amd_enc_gfx12_cpol(unsigned cp);
bool amd_enc_scalar_reg(struct enc *e, const struct amd_val *v, unsigned width, unsigned *code);
bool amd_enc_vgpr_reg(struct enc *e, const struct amd_val *v, unsigned width, unsigned *code);
bool amd_enc_note_const(struct enc *e, int key);
bool amd_enc_kimm(struct enc *e, const struct amd_val *v);
bool amd_enc_src_code(struct enc *e, const struct amd_val *v, const struct amd_opnd_desc *d,
                      bool literal_ok, bool is_valu, unsigned *code);
int amd_enc_find_opnd(const struct amd_isa_op *op, enum amd_opnd_kind kind, int n);

/* encode_mem.c */
bool amd_enc_ds(struct enc *e, uint32_t *w);
bool amd_enc_flat(struct enc *e, uint32_t *w, unsigned *nw);
bool amd_enc_mubuf(struct enc *e, uint32_t *w, unsigned *nw);
/* encode_image.c */
bool amd_enc_mimg(struct enc *e, uint32_t *w, unsigned *nw);
/* encode_vext.c */
bool amd_enc_dpp(struct enc *e, unsigned *src, uint32_t *w, unsigned *nw);
bool amd_enc_sdwa(struct enc *e, unsigned *src, unsigned sdst, uint32_t *w, unsigned *nw);
bool amd_enc_vopd(struct enc *e, uint32_t *w);

#endif
