/* amd_codebuf unit test.  The expected branch fields follow the ISA manuals' SOPP rule
 * (PC_new = PC_of_next_instruction + 4 * sext(simm16)), not our earlier output:
 * backward and forward branches, the +-32768-dword range limits on both paths, undefined
 * labels, padding and relocation records. */
#include <stdio.h>
#include <string.h>

#include "codebuf.h"

static int failures;

static void expect(int cond, const char *what)
{
	if (!cond) {
		printf("FAIL %s\n", what);
		failures++;
	}
}

struct reports {
	unsigned n;
	char last[64];
};

static void on_report(void *ctx, const struct amd_cb_fixup *f, const char *msg)
{
	struct reports *r = ctx;
	r->n++;
	snprintf(r->last, sizeof r->last, "%.*s: %s", (int)f->len, f->name, msg);
}

static uint16_t field_at(const struct amd_codebuf *cb, size_t at)
{
	return (uint16_t)(cb->bytes[at] | cb->bytes[at + 1] << 8);
}

int main(void)
{
	struct amd_codebuf cb;
	uint32_t nop = 0xbf800000u, branch = 0xbf820000u, field;
	amd_codebuf_init(&cb);
	expect(amd_codebuf_define(&cb, "top", 3), "define top");
	expect(!amd_codebuf_define(&cb, "top", 3), "second definition refused");
	amd_codebuf_emit(&cb, &nop, 1);
	/* backward: branch at 4 to 0: next pc 8, (0 - 8) / 4 = -2 */
	expect(amd_codebuf_branch(&cb, cb.size, "top", 3, NULL, &field) == AMD_CB_RESOLVED &&
	               field == 0xfffe,
	       "backward branch field -2");
	amd_codebuf_emit(&cb, &branch, 1);
	/* forward: branch at 8 to the label defined at 16: (16 - 12) / 4 = 1 */
	size_t at = cb.size;
	expect(amd_codebuf_branch(&cb, at, "fwd", 3, NULL, &field) == AMD_CB_PENDING && !field,
	       "forward branch pending");
	amd_codebuf_emit(&cb, &branch, 1);
	amd_codebuf_emit(&cb, &nop, 1);
	amd_codebuf_define(&cb, "fwd", 3);
	/* a forward branch to a label 32768 dwords past the next instruction: out of range */
	size_t far_at = cb.size;
	amd_codebuf_branch(&cb, far_at, "far", 3, NULL, &field);
	amd_codebuf_emit(&cb, &branch, 1);
	amd_codebuf_branch(&cb, cb.size, "nowhere", 7, NULL, &field);
	amd_codebuf_emit(&cb, &branch, 1);
	for (unsigned i = 0; i < 32767; i++)
		amd_codebuf_emit(&cb, &nop, 1);
	size_t edge = cb.size; /* 32767 dwords after far's next instruction minus the second
	                        * branch: (edge - far_at - 4) / 4 = 32768 */
	amd_codebuf_define(&cb, "far", 3);
	struct reports rep = {0};
	unsigned failed = amd_codebuf_resolve(&cb, on_report, &rep);
	expect(field_at(&cb, at) == 1, "forward branch patched to +1");
	expect((edge - far_at - 4) / 4 == 32768, "test layout: far is 32768 dwords away");
	expect(failed == 2 && rep.n == 2, "two unresolvable branches reported");
	expect(!strcmp(rep.last, "far: branch target out of range") ||
	               !strcmp(rep.last, "nowhere: undefined label"),
	       "report names the label and the reason");
	/* backward limit: -32768 dwords is in range, -32769 is not */
	expect(amd_codebuf_branch(&cb, 4 * 32767, "top", 3, NULL, &field) == AMD_CB_RESOLVED &&
	               field == 0x8000,
	       "backward branch of -32768 dwords");
	expect(amd_codebuf_branch(&cb, 4 * 32768, "top", 3, NULL, &field) == AMD_CB_OUT_OF_RANGE,
	       "backward branch of -32769 dwords refused");
	amd_codebuf_pad(&cb, 8, nop);
	expect(cb.size % 256 == 0, "padding to 256 bytes");
	amd_codebuf_reloc(&cb, 12, AMD_RELOC_REL32_LO, "callee", 6, 4);
	amd_codebuf_reloc(&cb, 20, AMD_RELOC_REL32_HI, "callee", 6, 12);
	expect(cb.nrelocs == 2 && cb.relocs[1].type == 11 && cb.relocs[1].addend == 12 &&
	               cb.relocs[0].type == 10 && cb.relocs[0].offset == 12,
	       "relocation records (R_AMDGPU_REL32_LO = 10, _HI = 11)");
	amd_codebuf_free(&cb);
	printf("%s\n", failures ? "codebuf: FAILED" : "codebuf: ok");
	return failures != 0;
}
