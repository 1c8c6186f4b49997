/* Prints each target description as "name key=value ..." lines for test_target.py. */
#include <stdio.h>

#include "target.h"

int main(void)
{
	size_t n;
	const struct amd_target_info *t = amd_target_infos(&n);
	for (size_t i = 0; i < n; i++, t++)
		printf("%s wave64=%d wave32=%d const_bus=%u dpp8=%d vopd=%d delay_alu=%d "
		       "split_waits=%d vscnt=%d vm_lo=%u,%u vm_hi=%u,%u exp=%u,%u lgkm=%u,%u "
		       "code_end=%u,%u,%u arch_flat_scratch=%d sgprs=%u agprs=%d\n",
		       t->name, t->supports_wave64, t->supports_wave32, t->const_bus_limit,
		       t->has_dpp8, t->has_vopd, t->has_delay_alu, t->has_split_waits, t->has_vscnt,
		       t->waitcnt.vm_lo_shift, t->waitcnt.vm_lo_width, t->waitcnt.vm_hi_shift,
		       t->waitcnt.vm_hi_width, t->waitcnt.exp_shift, t->waitcnt.exp_width,
		       t->waitcnt.lgkm_shift, t->waitcnt.lgkm_width, t->code_end_word,
		       t->code_end_align_log2, t->code_end_words, t->architected_flat_scratch,
		       t->addressable_sgprs, t->has_agprs);
	return 0;
}
