/* Wait-counter facts: which counters exist on a target, their maxima, and the s_waitcnt /
 * s_delay_alu immediates, packed from the target's layout (target.h waitcnt fields).  The
 * assembly reader, the printer and the compiler's wait insertion all use these, so the
 * layout is written once.  Pure; O(1). */
#include "isa.h"

static unsigned field_max(unsigned width)
{
	return (1u << width) - 1;
}

unsigned amd_waitcnt_max(const struct amd_target *t, enum amd_hw_counter c)
{
	const struct amd_target_info *ti = t->info;
	switch (c) {
	case AMD_HWC_VM:
		return ti->max_loadcnt;
	case AMD_HWC_VS:
		return ti->has_vscnt || ti->has_split_waits ? ti->max_storecnt : 0;
	case AMD_HWC_LGKM:
		return ti->has_split_waits ? ti->max_dscnt : field_max(ti->waitcnt.lgkm_width);
	case AMD_HWC_KM:
		return ti->has_split_waits ? ti->max_kmcnt : 0;
	case AMD_HWC_EXP:
		return ti->max_expcnt;
	default:
		return 0;
	}
}

static unsigned saturate(unsigned v, unsigned max)
{
	return v > max ? max : v;
}

uint16_t amd_waitcnt_pack(const struct amd_target *t, unsigned vm, unsigned exp, unsigned lgkm)
{
	const struct amd_target_info *ti = t->info;
	unsigned vm_lo_max = field_max(ti->waitcnt.vm_lo_width);
	vm = saturate(vm, field_max(ti->waitcnt.vm_lo_width + ti->waitcnt.vm_hi_width));
	exp = saturate(exp, field_max(ti->waitcnt.exp_width));
	lgkm = saturate(lgkm, field_max(ti->waitcnt.lgkm_width));
	unsigned simm = (vm & vm_lo_max) << ti->waitcnt.vm_lo_shift;
	simm |= (vm >> ti->waitcnt.vm_lo_width) << ti->waitcnt.vm_hi_shift;
	simm |= exp << ti->waitcnt.exp_shift | lgkm << ti->waitcnt.lgkm_shift;
	return (uint16_t)simm;
}

static unsigned field(unsigned simm, unsigned shift, unsigned width)
{
	return (simm >> shift) & field_max(width);
}

void amd_waitcnt_unpack(const struct amd_target *t, uint16_t simm, unsigned *vm, unsigned *exp,
                        unsigned *lgkm)
{
	const struct amd_target_info *ti = t->info;
	*vm = field(simm, ti->waitcnt.vm_lo_shift, ti->waitcnt.vm_lo_width) |
	      field(simm, ti->waitcnt.vm_hi_shift, ti->waitcnt.vm_hi_width)
	              << ti->waitcnt.vm_lo_width;
	*exp = field(simm, ti->waitcnt.exp_shift, ti->waitcnt.exp_width);
	*lgkm = field(simm, ti->waitcnt.lgkm_shift, ti->waitcnt.lgkm_width);
}

uint16_t amd_delay_alu_pack(unsigned instid0, unsigned skip, unsigned instid1)
{
	return (uint16_t)((instid0 & 15u) | (skip & 7u) << 4 | (instid1 & 15u) << 7);
}

void amd_delay_alu_unpack(uint16_t simm, unsigned *instid0, unsigned *skip, unsigned *instid1)
{
	*instid0 = simm & 15u;
	*skip = (simm >> 4) & 7u;
	*instid1 = (simm >> 7) & 15u;
}
