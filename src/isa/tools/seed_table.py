#!/usr/bin/env python3
"""Bootstrap helper (not part of the build): joins scan_llvm.py's JSON (llvm-mc-19's view of
every opcode) across generations by instruction identity and prints isa_table.py rows for the
instructions selected by KEEP.  Rows were then curated by hand in isa_table.py; rerun only to
seed a new generation's column (see docs/ENCODING.md).
usage: scan_llvm.py > scan.json; seed_table.py scan.json > rows.txt"""
import json
import re
import sys

GENS = ["GFX9", "GFX940", "GFX10", "GFX11", "GFX12"]

RENAME = {  # older spelling -> gfx11+ spelling (identity key)
    "s_andn2_b32": "s_and_not1_b32", "s_andn2_b64": "s_and_not1_b64",
    "s_orn2_b32": "s_or_not1_b32", "s_orn2_b64": "s_or_not1_b64",
    "s_andn2_saveexec_b64": "s_and_not1_saveexec_b64", "s_andn2_saveexec_b32": "s_and_not1_saveexec_b32",
    "s_orn2_saveexec_b64": "s_or_not1_saveexec_b64", "s_orn2_saveexec_b32": "s_or_not1_saveexec_b32",
    "s_ff1_i32_b32": "s_ctz_i32_b32", "s_ff1_i32_b64": "s_ctz_i32_b64",
    "s_flbit_i32_b32": "s_clz_i32_u32", "s_flbit_i32_b64": "s_clz_i32_u64",
    "s_flbit_i32": "s_cls_i32", "s_flbit_i32_i64": "s_cls_i32_i64",
    "s_add_co_u32": "s_add_u32", "s_sub_co_u32": "s_sub_u32", "s_add_co_i32": "s_add_i32",
    "s_sub_co_i32": "s_sub_i32", "s_add_co_ci_u32": "s_addc_u32", "s_sub_co_ci_u32": "s_subb_u32",
    "s_addk_co_i32": "s_addk_i32",
    "v_add_u32": "v_add_nc_u32", "v_sub_u32": "v_sub_nc_u32", "v_subrev_u32": "v_subrev_nc_u32",
    "v_addc_co_u32": "v_add_co_ci_u32", "v_subb_co_u32": "v_sub_co_ci_u32",
    "v_subbrev_co_u32": "v_subrev_co_ci_u32",
    "v_cvt_flr_i32_f32": "v_cvt_floor_i32_f32", "v_cvt_rpi_i32_f32": "v_cvt_nearest_i32_f32",
    "v_ffbh_u32": "v_clz_i32_u32", "v_ffbl_b32": "v_ctz_i32_b32", "v_ffbh_i32": "v_cls_i32",
    "v_max_num_f32": "v_max_f32", "v_min_num_f32": "v_min_f32", "v_max_num_f64": "v_max_f64",
    "v_min_num_f64": "v_min_f64", "v_max_num_f16": "v_max_f16", "v_min_num_f16": "v_min_f16",
    "v_max3_num_f32": "v_max3_f32", "v_min3_num_f32": "v_min3_f32", "v_med3_num_f32": "v_med3_f32",
    "v_cvt_pkrtz_f16_f32": "v_cvt_pk_rtz_f16_f32",
    "v_pk_max_num_f16": "v_pk_max_f16", "v_pk_min_num_f16": "v_pk_min_f16",
    "ds_wrxchg_rtn_b32": "ds_storexchg_rtn_b32", "ds_wrxchg_rtn_b64": "ds_storexchg_rtn_b64",
    "ds_max_num_f32": "ds_max_f32", "ds_min_num_f32": "ds_min_f32",
    "ds_max_num_rtn_f32": "ds_max_rtn_f32", "ds_min_num_rtn_f32": "ds_min_rtn_f32",
    "v_add_u16": "v_add_nc_u16", "v_sub_u16": "v_sub_nc_u16", "v_add_i32": "v_add_nc_i32",
    "v_sub_i32": "v_sub_nc_i32", "v_add_i16": "v_add_nc_i16", "v_sub_i16": "v_sub_nc_i16",
    "v_mad_co_u64_u32": "v_mad_u64_u32", "v_mad_co_i64_i32": "v_mad_i64_i32",
    "v_mad_legacy_u16": "v_mad_u16_legacy_gfx9", "s_flbit_i32_b32": "s_clz_i32_u32",
    "global_atomic_fmin": "global_atomic_min_f32", "global_atomic_fmax": "global_atomic_max_f32",
    "global_atomic_fmin_x2": "global_atomic_min_f64", "global_atomic_fmax_x2": "global_atomic_max_f64",
    "global_atomic_min_num_f32": "global_atomic_min_f32",
    "global_atomic_max_num_f32": "global_atomic_max_f32",
    "flat_atomic_fmin": "flat_atomic_min_f32", "flat_atomic_fmax": "flat_atomic_max_f32",
    "flat_atomic_fmin_x2": "flat_atomic_min_f64", "flat_atomic_fmax_x2": "flat_atomic_max_f64",
    "flat_atomic_min_num_f32": "flat_atomic_min_f32", "flat_atomic_max_num_f32": "flat_atomic_max_f32",
    "ds_max_num_f64": "ds_max_f64", "ds_min_num_f64": "ds_min_f64",
    "ds_max_num_rtn_f64": "ds_max_rtn_f64", "ds_min_num_rtn_f64": "ds_min_rtn_f64",
    "s_andn1_saveexec_b64": "s_and_not0_saveexec_b64", "s_andn1_saveexec_b32": "s_and_not0_saveexec_b32",
    "s_andn1_wrexec_b64": "s_and_not0_wrexec_b64", "s_andn1_wrexec_b32": "s_and_not0_wrexec_b32",
    "s_andn2_wrexec_b64": "s_and_not1_wrexec_b64", "s_andn2_wrexec_b32": "s_and_not1_wrexec_b32",
    "buffer_atomic_fmin": "buffer_atomic_min_f32", "buffer_atomic_fmax": "buffer_atomic_max_f32",
    "buffer_atomic_fmin_x2": "buffer_atomic_min_f64", "buffer_atomic_fmax_x2": "buffer_atomic_max_f64",
    "buffer_atomic_min_num_f32": "buffer_atomic_min_f32",
    "buffer_atomic_max_num_f32": "buffer_atomic_max_f32",
}
# gfx9/gfx10 d16 memory spellings -> gfx11+ spellings
D16 = {"ubyte_d16": "d16_u8", "ubyte_d16_hi": "d16_hi_u8", "sbyte_d16": "d16_i8",
       "sbyte_d16_hi": "d16_hi_i8", "short_d16": "d16_b16", "short_d16_hi": "d16_hi_b16"}
for _seg in ("global", "flat", "scratch", "buffer"):
    for _old, _new in D16.items():
        RENAME["%s_load_%s" % (_seg, _old)] = "%s_load_%s" % (_seg, _new)
    RENAME["%s_store_byte_d16_hi" % _seg] = "%s_store_d16_hi_b8" % _seg
    RENAME["%s_store_short_d16_hi" % _seg] = "%s_store_d16_hi_b16" % _seg
for _cmp in ("v_cmp", "v_cmpx"):
    for _w in ("16", "32", "64"):
        RENAME["%s_tru_f%s" % (_cmp, _w)] = "%s_t_f%s" % (_cmp, _w)
MEMW = [("dwordx16", "b512"), ("dwordx8", "b256"), ("dwordx4", "b128"), ("dwordx3", "b96"),
        ("dwordx2", "b64"), ("dword", "b32"), ("ubyte", "u8"), ("sbyte", "i8"), ("ushort", "u16"),
        ("sshort", "i16")]
ATOM = {"add": "add_u32", "sub": "sub_u32", "smin": "min_i32", "umin": "min_u32", "smax": "max_i32",
        "umax": "max_u32", "and": "and_b32", "or": "or_b32", "xor": "xor_b32", "swap": "swap_b32",
        "cmpswap": "cmpswap_b32", "inc": "inc_u32", "dec": "dec_u32"}


def modern(name):
    if name in RENAME:
        return RENAME[name]
    m = re.match(r"(global|flat|scratch|buffer)_atomic_(\w+?)(_x2)?$", name)
    if m and m.group(2) in ATOM:
        a = ATOM[m.group(2)]
        if m.group(3):
            a = a.replace("32", "64")
        return "%s_atomic_%s" % (m.group(1), a)
    m = re.match(r"(global|flat|scratch|buffer|s|s_buffer)_(load|store)_(\w+)$", name)
    if m:
        w = m.group(3)
        for a, b in MEMW:
            if w == a:
                w = b
        if m.group(2) == "store":
            w = {"byte": "b8", "short": "b16"}.get(w, w)
        return "%s_%s_%s" % (m.group(1), m.group(2), w)
    m = re.match(r"ds_(read|write)(2st64|2)?_(\w+)$", name)
    if m:
        mid = {"2": "_2addr", "2st64": "_2addr_stride64", None: ""}[m.group(2)]
        return "ds_%s%s_%s" % ("load" if m.group(1) == "read" else "store", mid, m.group(3))
    return name


KEEP_RE = [
    r"s_(add|sub)_[iu]32$", r"s_(addc|subb)_u32$", r"s_(min|max)_[iu]32$",
    r"s_(and|or|xor|nand|nor|xnor|and_not1|or_not1)_b(32|64)$", r"s_(lshl|lshr)_b(32|64)$",
    r"s_ashr_i(32|64)$", r"s_bfe_[iu](32|64)$", r"s_bfm_b(32|64)$", r"s_mul_i32$",
    r"s_mul_hi_[iu]32$", r"s_cselect_b(32|64)$", r"s_lshl[1-4]_add_u32$", r"s_absdiff_i32$",
    r"s_pack_(ll|lh|hh)_b32_b16$",
    r"s_mov_b(32|64)$", r"s_not_b(32|64)$", r"s_cmov_b(32|64)$", r"s_brev_b(32|64)$",
    r"s_bcnt[01]_i32_b(32|64)$", r"s_ctz_i32_b(32|64)$", r"s_clz_i32_u(32|64)$",
    r"s_cls_i32(_i64)?$", r"s_sext_i32_i(8|16)$", r"s_bitset[01]_b(32|64)$", r"s_abs_i32$",
    r"s_(and|or|xor|and_not1|or_not1)_saveexec_b(32|64)$", r"s_wqm_b(32|64)$",
    r"s_quadmask_b(32|64)$",
    r"s_cmp_(eq|lg|gt|ge|lt|le)_[iu]32$", r"s_cmp_(eq|lg)_u64$", r"s_bitcmp[01]_b(32|64)$",
    r"s_movk_i32$", r"s_cmovk_i32$", r"s_addk_i32$", r"s_mulk_i32$",
    r"s_cmpk_(eq|lg|gt|ge|lt|le)_[iu]32$",
    r"s_load_b(32|64|128|256|512)$", r"s_buffer_load_b(32|64|128|256|512)$",
    r"v_mov_b32$", r"v_not_b32$", r"v_bfrev_b32$", r"v_(ceil|floor|fract|rndne|trunc)_f(16|32|64)$",
    r"v_(exp|log|rcp|rsq|sqrt|sin|cos)_f(16|32)$", r"v_(rcp|rsq|sqrt)_f64$", r"v_rcp_iflag_f32$",
    r"v_cvt_(f32_i32|f32_u32|i32_f32|u32_f32|f16_f32|f32_f16|f32_f64|f64_f32|f64_i32|f64_u32|i32_f64|u32_f64)$",
    r"v_cvt_f32_ubyte[0-3]$", r"v_cvt_(floor|nearest)_i32_f32$", r"v_cvt_(f16_[iu]16|[iu]16_f16)$",
    r"v_(clz_i32_u32|ctz_i32_b32|cls_i32)$", r"v_frexp_(exp_i32|mant)_f(32|64)$",
    r"v_readfirstlane_b32$",
    r"v_(add|sub|subrev|mul|min|max)_f(16|32)$", r"v_(add_nc|sub_nc|subrev_nc)_u32$",
    r"v_(and|or|xor|xnor)_b32$", r"v_(lshlrev|lshrrev)_b32$", r"v_ashrrev_i32$",
    r"v_(min|max)_[iu]32$", r"v_mul_(i32_i24|u32_u24|hi_i32_i24|hi_u32_u24)$",
    r"v_cndmask_b32$", r"v_(add|sub|subrev)_co_ci_u32$", r"v_(add|sub|subrev)_co_u32$",
    r"v_fmac_f32$", r"v_ldexp_f(16|32)$", r"v_cvt_pk_rtz_f16_f32$",
    r"v_cmp_(eq|ne|gt|ge|lt|le)_[iu](32|64)$", r"v_cmp_(eq|lg|gt|ge|lt|le|o|u|neq|nlg|ngt|nge|nlt|nle)_f(16|32|64)$",
    r"v_cmp_class_f(32|64)$",
    r"v_cmpx_(eq|ne|gt|ge|lt|le)_[iu]32$", r"v_cmpx_(eq|lg|gt|ge|lt|le|neq)_f32$",
    r"v_(fma|div_fixup|div_fmas)_f(32|64)$", r"v_fma_f16$", r"v_bfe_[iu]32$", r"v_bfi_b32$",
    r"v_alignbit_b32$", r"v_alignbyte_b32$", r"v_(min3|max3|med3)_([iu]32|f32)$",
    r"v_(add|mul|min|max)_f64$", r"v_ldexp_f64$", r"v_mul_lo_u32$", r"v_mul_hi_[iu]32$",
    r"v_(lshlrev|lshrrev)_b64$", r"v_ashrrev_i64$", r"v_bcnt_u32_b32$", r"v_mbcnt_(lo|hi)_u32_b32$",
    r"v_bfm_b32$", r"v_lshl_add_u32$", r"v_add_lshl_u32$", r"v_add3_u32$", r"v_lshl_or_b32$",
    r"v_and_or_b32$", r"v_or3_b32$", r"v_xor3_b32$", r"v_xad_u32$", r"v_perm_b32$",
    r"v_div_scale_f(32|64)$", r"v_mad_[iu]64_[iu]32$", r"v_trig_preop_f64$",
    r"v_mad_u32_u24$", r"v_mad_i32_i24$", r"v_sad_u32$", r"v_msad_u8$",
    r"v_pk_(add|mul|min|max|fma)_f16$", r"v_pk_(add|sub)_[iu]16$", r"v_pk_mul_lo_u16$",
    r"v_pk_(lshlrev|lshrrev)_b16$", r"v_pk_ashrrev_i16$", r"v_pk_(min|max)_[iu]16$",
    r"v_pk_mad_[iu]16$",
    r"ds_(load|store)_b(32|64|96|128)$", r"ds_load_[iu](8|16)$", r"ds_store_b(8|16)$",
    r"ds_(load|store)_2addr(_stride64)?_b(32|64)$",
    r"ds_(add|sub|rsub|inc|dec|min|max)(_rtn)?_[iu](32|64)$", r"ds_(and|or|xor)(_rtn)?_b(32|64)$",
    r"ds_storexchg_rtn_b(32|64)$", r"ds_(add|min|max)(_rtn)?_f32$",
    r"ds_(bpermute|permute|swizzle)_b32$",
    r"(global|flat|scratch)_(load|store)_b(32|64|96|128)$", r"(global|flat|scratch)_load_[iu](8|16)$",
    r"(global|flat|scratch)_store_b(8|16)$",
    r"(global|flat)_atomic_(add|sub|inc|dec|min|max)_[iu](32|64)$",
    r"(global|flat)_atomic_(and|or|xor|swap|cmpswap)_b(32|64)$", r"(global|flat)_atomic_add_f32$",
    r"buffer_(load|store)_b(32|64|96|128)$", r"buffer_load_[iu](8|16)$", r"buffer_store_b(8|16)$",
    r"buffer_atomic_(add|sub|min|max)_[iu](32|64)$", r"buffer_atomic_(and|or|xor|swap|cmpswap)_b(32|64)$",
    r"v_(add_nc|sub_nc)_[iu](16|32)$", r"v_subrev_u16$", r"v_(lshlrev|lshrrev)_b16$", r"v_ashrrev_i16$",
    r"v_(min|max)_[iu]16$", r"v_mul_lo_u16$", r"v_mad_[iu]16$", r"v_mad_u16_legacy_gfx9$",
    r"v_cmp_(eq|ne|gt|ge|lt|le)_[iu]16$", r"v_cmpx_(eq|ne|gt|ge|lt|le)_[iu]64$",
    r"v_cmpx_(eq|lg|gt|ge|lt|le|o|u|neq|nlg|ngt|nge|nlt|nle)_f(16|32|64)$", r"v_cmpx_class_f(32|64)$",
    r"v_mad_f32$", r"v_mac_f32$", r"v_(madmk|madak|fmamk|fmaak)_f(16|32)$", r"v_fmac_f(16|64)$",
    r"v_pk_mov_b32$", r"v_pack_b32_f16$", r"v_mov_b64$", r"v_lshl_add_u64$", r"v_cvt_pk_[iu]16_[iu]32$",
    r"v_(min3|max3|med3)_(f16|[iu]16)$", r"v_(maximum|minimum)_f(16|32|64)$",
    r"ds_cmpst(_rtn)?_b(32|64)$", r"ds_cmpstore(_rtn)?_b(32|64)$",
    r"s_(add|mul|sub)_f(16|32)$", r"s_(fmamk|fmaak|fmac)_f32$", r"s_(add|sub)_nc_u64$", r"s_mul_u64$",
    r"s_cvt_(f32_i32|f32_u32|i32_f32|u32_f32|f16_f32|f32_f16)$", r"s_(floor|ceil|trunc|rndne)_f32$",
    r"s_(min|max)_num_f32$", r"s_cmp_(eq|lg|gt|ge|lt|le|neq|nlt)_f32$",
    r"s_load_(b96|[iu]8|[iu]16)$",
    r"(global|flat)_atomic_(add|min|max)_f(32|64)$", r"ds_(add|min|max)(_rtn)?_f64$",
    # rows amdsim needed (its former private opcode table): d16 memory, more atomics, ...
    r"(global|flat|scratch|buffer)_load_d16(_hi)?_(u8|i8|b16)$",
    r"(global|flat|scratch|buffer)_store_d16_hi_b(8|16)$", r"ds_load_(u8|i8|u16)_d16(_hi)?$",
    r"ds_store_b(8|16)_d16_hi$", r"buffer_atomic_(inc|dec)_u(32|64)$",
    r"buffer_atomic_(add|min|max)_f(32|64)$", r"s_and_not[01]_wrexec_b(32|64)$",
    r"s_and_not0_saveexec_b(32|64)$", r"s_waitcnt_(vm|exp|lgkm)cnt$", r"s_ff0_i32_b(32|64)$",
    r"s_pack_hl_b32_b16$", r"v_cmpx?_[ft]_[fiu](16|32|64)$", r"v_cmpx_(eq|ne|gt|ge|lt|le)_[iu]16$",
    r"v_cmpx?_class_f16$", r"v_cvt_(i32_i16|u32_u16)$", r"v_(fma|mad)_legacy_f16$", r"v_mad_f16$",
    r"v_mad_legacy_i16$", r"v_mad_u32_u16$", r"v_mul_(dx9_zero|legacy)_f32$", r"v_not_b16$",
    r"v_pk_(add|mul|fma)_f32$",
]
KEEP = [re.compile(r) for r in KEEP_RE]
E32 = ("VOP1", "VOP2", "VOPC")


def main():
    scan = json.load(open(sys.argv[1]))
    rows = {}
    for g in GENS:
        for fmt, ops in scan[g].items():
            for op, text in ops.items():
                if fmt == "SOPK" and int(op) >= 28 or fmt == "VOP2" and int(op) >= 62:
                    continue  # these encodings belong to other formats
                name = text.split()[0]
                base = re.sub(r"_e(32|64)$", "", name)
                key = modern(base)
                if not any(k.match(key) for k in KEEP):
                    continue
                r = rows.setdefault(key, {"names": {}, "op": {}, "op3": {}, "fmt": {}, "text": {}})
                if fmt == "VOP3" and name.endswith("_e64") or fmt == "VOP3" and key in rows and \
                        any(f in E32 for f in r["fmt"].values()):
                    r["op3"][g] = int(op)
                    r["text"].setdefault(("VOP3", g), text)
                    r["names"][g] = base
                    continue
                if fmt == "VOP3":
                    r["op3"][g] = int(op)
                if fmt in r["fmt"].values() or not r["fmt"] or fmt in E32 or fmt != "VOP3":
                    pass
                if g in r["fmt"] and r["fmt"][g] in E32 + ("SOPC", "SOP1", "SOP2"):
                    continue  # keep the first (preferred) format's opcode
                r["fmt"][g] = fmt
                r["op"][g] = int(op)
                r["names"][g] = base
                r["text"][(fmt, g)] = text
    for key in sorted(rows):
        r = rows[key]
        fmts = set(r["fmt"].values())
        fmt = sorted(fmts, key=lambda f: (f not in E32, f))[0]
        canon = next(r["names"][g] for g in GENS if g in r["names"])
        ops = []
        ops3 = []
        for g in GENS:
            ops.append(r["op"].get(g, -1) if r["fmt"].get(g) == fmt else -1)
            ops3.append(r["op3"].get(g, -1))
        if fmt == "VOP3":
            ops = ops3
        names = {g: r["names"][g] for g in GENS if g in r["names"] and r["names"][g] != canon}
        text = next((r["text"][(fmt, g)] for g in GENS if (fmt, g) in r["text"]), "")
        text3 = next((r["text"][("VOP3", g)] for g in GENS if ("VOP3", g) in r["text"]), "")
        if fmt in E32:
            for i, g in enumerate(GENS):
                if ops[i] >= 0 and ops3[i] < 0:
                    ops3[i] = ops[i] + {"VOPC": 0, "VOP2": 0x100,
                                        "VOP1": 0x140 if i < 2 else 0x180}[fmt]
        sig = signature(fmt, canon, text if fmt != "VOP3" else (text or text3))
        if sig is None:
            print("# SKIP %s: %s" % (canon, text))
            continue
        args = ['"%s"' % canon, fmt, "(%s)" % ", ".join("%d" % o for o in ops)]
        if "lit" in sig.split():
            ops3 = None  # a literal-K instruction has no e64 form
        if fmt in E32 and ops3:
            args.append("e64=(%s)" % ", ".join("%d" % o for o in ops3))
        args.append('ops="%s"' % sig)
        if names:
            args.append("names={%s}" % ", ".join('%s: "%s"' % (g, n) for g, n in names.items()))
        if "lit" in sig.split():
            args.append('flags=["LITERAL_K"%s]' % (', "NO_E64"' if fmt in E32 else ""))
        print("R(%s)" % ", ".join(args))


def reg(tok):
    m = re.match(r"([svad])(\d+)$", tok)
    if m:
        return m.group(1), int(m.group(2)), 1
    m = re.match(r"([sva])\[(\d+):(\d+)\]$", tok)
    if m:
        return m.group(1), int(m.group(2)), int(m.group(3)) - int(m.group(2)) + 1
    return None


def signature(fmt, name, text):
    toks = [t.strip() for t in text.split(None, 1)[1].split(",")] if " " in text else []
    toks = [t.split()[0] for t in toks if t]
    out = []
    for i, t in enumerate(toks):
        r = reg(t)
        if t in ("vcc", "vcc_lo"):
            out.append("vccd" if i == 0 or (fmt == "VOP2" and i == 1) else "vccs")
            continue
        if t == "off":
            out.append("saddr")
            continue
        if fmt in ("SOP1", "SOP2", "SOPC", "SOPK", "SMEM"):
            if r is None:
                if fmt == "SOP2" and re.match(r"0x", t):
                    out.append("lit")
                    continue
                if fmt == "SOPK" and re.match(r"0x", t):
                    out.append("simm")
                    continue
                if fmt == "SMEM" and re.match(r"0x", t):
                    out.append("soff")
                    continue
                return None
            k, n, w = r
            if fmt == "SMEM":
                out.append("sd%d" % w if n == 8 else "sbase%d" % w)
            elif fmt == "SOPK":
                out.append(("sk%d" if "cmpk" in name else "sd%d") % w)
            elif n == 6:
                out.append("sd%d" % w)
            else:
                out.append("ss%d" % w)
            continue
        if r is None and fmt == "VOP2" and re.match(r"0x", t):
            out.append("lit")
            continue
        if r is None:
            return None
        k, n, w = r
        if fmt in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P"):
            if k == "s" and n in (6, 12):
                out.append("sd%d" % w)
            elif k == "s" and n == 0:
                out.append("md")
            elif n in (6, 12):
                out.append("vd%d" % w)
            elif n == 2 or fmt in ("VOP3", "VOP3P"):
                out.append("vs%d" % w)
            else:
                out.append("vv%d" % w)
        elif fmt == "DS" or fmt in ("FLAT", "GLOBAL", "SCRATCH"):
            out.append({12: "vd", 2: "va", 4: "vv", 8: "vv"}[n] + "%d" % w)
        elif fmt == "MUBUF":
            if k == "s":
                out.append("srsrc" if w == 4 else "soff")
            else:
                out.append({12: "vdata", 2: "va"}[n] + "%d" % w)
    return " ".join(out)


main()
