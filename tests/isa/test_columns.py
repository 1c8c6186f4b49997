#!/usr/bin/env python3
"""The counter, latency and unit columns as the compiler reads them (amd_inst_counters,
amd_latency_cycles) against the hardware rules, classified by LLVM mnemonic.

Counters (AMD ISA manuals, "Data dependency resolution" / s_waitcnt sections; LLVM
SIInsertWaitcnts): LDS instructions count on lgkmcnt (gfx12 dscnt); scalar memory and
s_sendmsg on lgkmcnt (gfx12 kmcnt); vector loads, and atomics that return a value, on vmcnt
(gfx12 loadcnt); vector stores and non-returning atomics on vmcnt before gfx10 and on
vscnt/storecnt from gfx10; FLAT (not GLOBAL/SCRATCH) also on lgkmcnt (it may address LDS).
Cache-control rows without operands are not judged (they count per implementation).
Access flags: LOAD/STORE as the manuals classify each memory instruction (atomics, LDS ones
included, read and write).  Latencies: every row has one; SALU < VALU <= TRANS, LDS < SMEM < VMEM (the order the
scheduler relies on; magnitudes are cited in src/isa/latency.c).
usage: test_columns.py ISA_DUMP"""
import subprocess
import sys

TARGETS = ["gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"]
failures = []


def lines(dump, mode, target):
    out = subprocess.run([dump, mode, target], capture_output=True, text=True, check=True)
    return [ln.split("\t") for ln in out.stdout.splitlines()]


def expected(target, mnem, fmt, returning):
    gfx12, gfx9 = target == "gfx1200", target in ("gfx90a", "gfx942")
    if fmt == "DS":
        return {"LGKM"}
    if fmt == "SMEM" or mnem == "s_sendmsg":
        return {"KM"} if gfx12 else {"LGKM"}
    if fmt not in ("FLAT", "GLOBAL", "SCRATCH", "MUBUF"):
        return None
    extra = {"LGKM"} if fmt == "FLAT" else set()
    if "_load" in mnem or ("_atomic" in mnem and returning):
        return {"VM"} | extra
    if "_store" in mnem or "_atomic" in mnem:
        return ({"VM"} if gfx9 else {"VS"}) | extra
    return None  # cache control


def check_counters(dump, target):
    judged = 0
    for name, mnem, fmt, plain, rtn in lines(dump, "counters", target):
        for returning, got in ((False, plain), (True, rtn)):
            want = expected(target, mnem, fmt, returning)
            if want is None:
                continue
            have = set() if got == "-" else set(got.split())
            if have != want:
                failures.append("%s %s (%s): counters %s, want %s" % (
                    target, mnem, "returning" if returning else "plain", sorted(have),
                    sorted(want)))
            judged += 1
    return judged


def check_latency(dump, target):
    rows = {r[0]: r for r in lines(dump, "rows", target)}
    lat = {n: int(r[6]) for n, r in rows.items()}
    for n, v in lat.items():
        if v <= 0:
            failures.append("%s %s: no latency" % (target, n))
    order = [("s_add_u32", "v_add_f32"), ("ds_read_b32", "s_load_dword"),
             ("s_load_dword", "global_load_dword")]
    for a, b in order:
        if not lat[a] < lat[b]:
            failures.append("%s: latency %s (%d) not below %s (%d)" % (target, a, lat[a], b,
                                                                        lat[b]))
    if not lat["v_add_f32"] <= lat["v_exp_f32"]:
        failures.append("%s: transcendental faster than plain VALU" % target)


F_STORE, F_LOAD = 1 << 5, 1 << 6


def check_access_flags(dump, target):
    """LOAD/STORE flags (memory read / written) by the ISA manuals' classes: DS_READ/LOAD and
    vector loads read, DS_WRITE/STORE and vector stores write, atomics (DS ones included)
    read and write; DS_(B)PERMUTE and DS_SWIZZLE write no memory."""
    judged = 0
    for name, mnem, fmt, _, _, flags, *_ in lines(dump, "rows", target):
        if fmt not in ("DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF") or mnem.startswith(
                ("buffer_wb", "buffer_inv", "buffer_gl", "global_inv", "global_wb")):
            continue
        f = int(flags, 16)
        have = (f & F_LOAD != 0, f & F_STORE != 0)
        if "_atomic" in mnem or (fmt == "DS" and not mnem.startswith(
                ("ds_read", "ds_load", "ds_write", "ds_store_", "ds_bpermute", "ds_permute",
                 "ds_swizzle"))):
            want = (True, True)
        elif "_load" in mnem or mnem.startswith("ds_read"):
            want = (True, False)
        elif "_store" in mnem or mnem.startswith("ds_write"):
            want = (False, True)
        elif mnem.startswith(("ds_bpermute", "ds_permute", "ds_swizzle")):
            want = (have[0], False)
        else:
            failures.append("%s %s: memory row of no known class" % (target, mnem))
            continue
        if have != want:
            failures.append("%s %s: LOAD/STORE flags %s, want %s" % (target, mnem, have, want))
        judged += 1
    return judged


def main():
    dump = sys.argv[1]
    n = 0
    for target in TARGETS:
        n += check_counters(dump, target) + check_access_flags(dump, target)
        check_latency(dump, target)
    for f in failures[:40]:
        print("FAIL", f)
    print("%d counter sets and access flags judged, %d failures" % (n, len(failures)))
    return 1 if failures or n < 1000 else 0


sys.exit(main())
