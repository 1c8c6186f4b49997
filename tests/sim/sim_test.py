#!/usr/bin/env python3
"""amdsim tests (suite 'sim'), judged against clang-19/llvm-mc-19 output and CPU references.

  sim_test.py AMDSIM exec         clang-compiled kernels on the five targets vs CPU results
  sim_test.py AMDSIM waitcnt      clang code with one s_waitcnt removed or weakened is reported
  sim_test.py AMDSIM hazard       llvm-mc kernels with a hazard + s_nop pass; without the s_nop
                                  the checker names the hazard
  sim_test.py AMDSIM roundmode    MODE rounding directions on the five targets
  sim_test.py AMDSIM determinism  same seed -> identical stats and outputs
  sim_test.py AMDSIM errors       corrupt ELF, unknown kernel, bad arguments, out-of-bounds access
  sim_test.py AMDSIM spin         s_sleep yields the wave (an LDS spin-wait ends); a spin
                                  nobody releases is reported as a deadlock, not a hang
  sim_test.py AMDSIM api LOADER   the C API / loader unit test binary on clang's objects
"""
import os
import re
import struct
import sys
import tempfile

from simlib import (TARGETS, WAVE32, assemble, build_cl, build_cl_text, check, disasm, finish,
                    metadata, patch_word, read_words, run, text_section)

HERE = os.path.dirname(os.path.abspath(__file__))


def build_kernel(name, target, outdir, flags=()):
    """tests/sim/kernels/NAME.cl for target; a failure to build stops the script."""
    base = os.path.join(outdir, "%s-%s" % (name, target + "".join(flags)))
    h = build_cl(os.path.join(HERE, "kernels", name + ".cl"), target, base, flags)
    if not h:
        finish()
    return h


def write_floats(path, vals):
    with open(path, "wb") as f:
        f.write(struct.pack("<%df" % len(vals), *vals))


def delete_insn(src, dst, addr, end_addr):
    """Removes the 4-byte instruction at addr, shifting the straight-line code up to end_addr
    (exclusive) and filling the gap before end_addr with s_nop 0."""
    off, base = text_section(src)
    data = bytearray(open(src, "rb").read())
    a, e = off + addr - base, off + end_addr - base
    data[a:e] = data[a + 4:e] + struct.pack("<I", 0xBF800000)
    open(dst, "wb").write(data)


def vadd_args(tmp, n=1000, size=None):
    a = [i * 1.5 for i in range(n)]
    b = [i * 0.25 for i in range(n)]
    write_floats(os.path.join(tmp, "a.bin"), a)
    write_floats(os.path.join(tmp, "b.bin"), b)
    out = os.path.join(tmp, "c.bin")
    return ["in:" + os.path.join(tmp, "a.bin"), "in:" + os.path.join(tmp, "b.bin"),
            "out:%d:%s" % (4 * (size or n), out), "i32:%d" % n], out, [x + y for x, y in zip(a, b)]


def test_exec(amdsim, tmp):
    test_vbuffer_gfx12(amdsim, tmp)
    for t in TARGETS:
        h = build_kernel("vadd", t, tmp)
        args, out, exp = vadd_args(tmp)
        r = run([amdsim, h, "--kernel", "vadd", "--grid", "4", "--block", "256"] + args)
        check(r.returncode == 0, "%s vadd exit %d: %s" % (t, r.returncode, r.stderr))
        check(read_words(out, "f") == exp, "%s vadd result" % t)
        r = run([amdsim, h, "--kernel", "vadd", "--grid", "1", "--block", "40", "--trace"] + args)
        # 40 work-items: one partial wave64, or a full wave32 and one with 8 lanes
        part = r"wave 1 pc 0x[0-9a-f]+ exec 000000ff " if t in WAVE32 else \
            r"wave 0 pc 0x[0-9a-f]+ exec 000000ffffffffff "
        ok = r.returncode == 0 and "v_add_f32" in r.stdout and "s_endpgm" in r.stdout
        ok = ok and re.search(part, r.stdout) is not None
        check(ok, "%s --trace prints instructions with wave and EXEC: %s" % (t, r.stdout[:300]))
        # reduction with barriers and LDS
        h = build_kernel("lds_sum", t, tmp)
        a = os.path.join(tmp, "la.bin")
        open(a, "wb").write(struct.pack("<1024I", *range(1024)))
        o = os.path.join(tmp, "lo.bin")
        r = run([amdsim, h, "--kernel", "lds_sum", "--grid", "4", "--block", "256", "in:" + a,
                 "out:16:" + o, "u32:10"])
        exp = []
        for g in range(4):
            s = 0
            for i in range(256):
                v = g * 256 + i
                for _ in range(10):
                    v = (v * 1664525 + 1013904223 + (v >> 7)) & 0xffffffff
                s = (s + v) & 0xffffffff
            exp.append(s)
        check(r.returncode == 0, "%s lds_sum exit %d: %s" % (t, r.returncode, r.stderr))
        check(read_words(o, "I") == exp, "%s lds_sum result" % t)
        if t in WAVE32:  # RDNA also runs wave64 code
            h = build_kernel("lds_sum", t, tmp, ("-mwavefrontsize64",))
            r = run([amdsim, h, "--kernel", "lds_sum", "--grid", "4", "--block", "256",
                     "in:" + a, "out:16:" + o, "u32:10", "--stats"])
            check(r.returncode == 0 and read_words(o, "I") == exp,
                  "%s wave64 lds_sum: exit %d %s" % (t, r.returncode, r.stderr[:300]))
            h = build_kernel("vadd", t, tmp, ("-mwavefrontsize64",))
            args, out, vexp = vadd_args(tmp)
            r = run([amdsim, h, "--kernel", "vadd", "--grid", "3", "--block", "100"] + args)
            check(r.returncode == 0 and read_words(out, "f")[:300] == vexp[:300],
                  "%s wave64 vadd (partial waves): exit %d %s" % (t, r.returncode,
                                                                  r.stderr[:300]))


# gfx12 VBUFFER: a raw buffer (stride 0, 256 bytes) over the argument; lane i loads dword i+1
# (lane 63's offset 256 is out of range and loads 0), adds 1 and stores to dword i.
VBUF12_BODY = """  s_load_b64 s[0:1], s[0:1], 0x0
  v_lshlrev_b32 v5, 2, v0
  s_wait_kmcnt 0x0
  s_mov_b32 s4, s0
  s_and_b32 s5, s1, 0xffff
  s_movk_i32 s6, 0x100
  s_mov_b32 s7, 0
  buffer_load_b32 v1, v5, s[4:7], null offen offset:4
  s_wait_loadcnt 0x0
  v_add_nc_u32 v1, 1, v1
  buffer_store_b32 v1, v5, s[4:7], null offen
  s_endpgm
"""


def test_vbuffer_gfx12(amdsim, tmp):
    start, end = W12_SRC.index("  s_load_b64"), W12_SRC.index(".rodata")
    src = W12_SRC[:start] + VBUF12_BODY + W12_SRC[end:]
    h, err = assemble(src, "gfx1200", os.path.join(tmp, "vbuf12"))
    if not check(h, "gfx1200 vbuffer: llvm-mc: %s" % err[:500]):
        return
    buf, outb = os.path.join(tmp, "vbuf.bin"), os.path.join(tmp, "vbuf.out")
    open(buf, "wb").write(struct.pack("<64I", *range(1000, 1064)))
    r = run([amdsim, h, "--kernel", "w12", "--grid", "1", "--block", "64",
             "inout:%s:%s" % (buf, outb)])
    want = [1001 + i + 1 for i in range(63)] + [1]
    ok = r.returncode == 0 and read_words(outb, "I") == want
    check(ok, "gfx1200 VBUFFER load/store (exit %d: %s)" % (r.returncode, r.stderr[:300]))


def waitcnt_fields(target, word):
    """(vmcnt, lgkmcnt) of an s_waitcnt encoding (layouts: tests/../shared waitcnt facts)."""
    v = word & 0xffff
    if target == "gfx1100":
        return (v >> 10) & 63, (v >> 4) & 63
    return (v & 15) | ((v >> 14) & 3) << 4, (v >> 8) & (63 if target == "gfx1030" else 15)


def with_vmcnt(target, word, n):
    if target == "gfx1100":
        return (word & ~(63 << 10)) | (n << 10)
    if target == "gfx1200":  # s_wait_loadcnt N
        return (word & ~0xffff) | n
    return (word & ~0xC00F) | (n & 15) | ((n >> 4) << 14)


def wait_sites(target, insns):
    """Addresses and words of the waits for vector loads (count 0) and for scalar loads
    (count 0): s_waitcnt vmcnt(0)/lgkmcnt(0), on gfx12 s_wait_loadcnt 0/s_wait_kmcnt 0."""
    if target == "gfx1200":
        vm = [(a, w[0]) for a, m, _, w in insns if m == "s_wait_loadcnt" and w[0] & 0xffff == 0]
        lg = [(a, w[0]) for a, m, _, w in insns if m == "s_wait_kmcnt" and w[0] & 0xffff == 0]
        return vm, lg
    waits = [(a, w[0]) for a, m, _, w in insns if m == "s_waitcnt"]
    return ([(a, w) for a, w in waits if waitcnt_fields(target, w)[0] == 0],
            [(a, w) for a, w in waits if waitcnt_fields(target, w)[1] == 0])


def test_waitcnt(amdsim, tmp):
    for t in TARGETS:
        h = build_kernel("vadd", t, tmp)
        args, out, exp = vadd_args(tmp)
        cmd = ["--kernel", "vadd", "--grid", "4", "--block", "256"] + args
        check(run([amdsim, h] + cmd).returncode == 0, "%s: unpatched vadd passes" % t)
        insns = disasm(h)
        vm, lg = wait_sites(t, insns)
        if not check(vm and lg, "%s: vadd has vmcnt(0) and lgkmcnt(0) waits" % t):
            continue
        g12 = t == "gfx1200"
        cases = [("removed vmcnt wait", vm[-1][0], 0xBF800000, "loadcnt" if g12 else "vmcnt"),
                 ("vmcnt(0) raised to 1", vm[-1][0], with_vmcnt(t, vm[-1][1], 1),
                  "s_wait_loadcnt 0" if g12 else "vmcnt(0)"),
                 ("removed lgkmcnt wait", lg[0][0], 0xBF800000,
                  "s_wait_kmcnt 0" if g12 else "lgkmcnt(0)")]
        for what, addr, word, needle in cases:
            p = os.path.join(tmp, "patched.hsaco")
            patch_word(h, p, addr, word)
            r = run([amdsim, p] + cmd)
            ok = r.returncode == 3 and needle in r.stderr and "violation" in r.stderr
            ok = ok and re.search(r"reads [sv]\d+", r.stderr) is not None
            check(ok, "%s %s: expected a violation naming %s, got exit %d: %s"
                  % (t, what, needle, r.returncode, r.stderr[:400]))
            # output files are still written
            check(os.path.exists(out), "%s %s: output written" % (t, what))
    test_waitcnt_gfx12(amdsim, tmp)


# gfx12's combined wait: dscnt in bits [5:0], loadcnt in [13:8] (LLVM AMDGPUBaseInfo).  v1 comes
# from a global load, v2 from an LDS load; one s_wait_loadcnt_dscnt 0x0 covers both.
W12_SRC = """.amdgcn_target "amdgcn-amd-amdhsa--gfx1200"
.text
.globl w12
.p2align 8
.type w12,@function
w12:
  s_load_b64 s[0:1], s[0:1], 0x0
  v_lshlrev_b32 v5, 2, v0
  ds_store_b32 v5, v5
  s_wait_dscnt 0x0
  s_wait_kmcnt 0x0
  global_load_b32 v1, v5, s[0:1]
  ds_load_b32 v2, v5
  s_wait_loadcnt_dscnt 0x0
  v_add_nc_u32 v2, v1, v2
  global_store_b32 v5, v2, s[0:1]
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel w12
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 256
  .amdhsa_wavefront_size32 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 8
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: w12
    .symbol: w12.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 32
    .sgpr_count: 8
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
"""


def test_waitcnt_gfx12(amdsim, tmp):
    h, err = assemble(W12_SRC, "gfx1200", os.path.join(tmp, "w12"))
    if not check(h, "gfx1200 w12: llvm-mc: %s" % err[:500]):
        return
    buf = os.path.join(tmp, "w12.bin")
    open(buf, "wb").write(struct.pack("<64I", *range(1000, 1064)))
    outb = os.path.join(tmp, "w12.out")
    cmd = ["--kernel", "w12", "--grid", "1", "--block", "64", "inout:%s:%s" % (buf, outb)]
    r = run([amdsim, h] + cmd)
    ok = r.returncode == 0 and read_words(outb, "I") == [1000 + 5 * i for i in range(64)]
    check(ok, "gfx1200 w12 passes with s_wait_loadcnt_dscnt 0x0 (exit %d: %s)"
          % (r.returncode, r.stderr[:300]))
    site = [(a, w[0]) for a, m, _, w in disasm(h) if m == "s_wait_loadcnt_dscnt"]
    if not check(len(site) == 1, "gfx1200 w12: one s_wait_loadcnt_dscnt"):
        return
    addr, word = site[0]
    for imm, reg, needle in [(0x100, "v1", "s_wait_loadcnt 0"), (0x001, "v2", "s_wait_dscnt 0"),
                             (0x3f3f, "v1", "global_load_b32")]:
        p = os.path.join(tmp, "w12-patched.hsaco")
        patch_word(h, p, addr, (word & ~0xffff) | imm)
        r = run([amdsim, p] + cmd)
        ok = r.returncode == 3 and ("reads %s " % reg) in r.stderr and needle in r.stderr
        check(ok, "gfx1200 s_wait_loadcnt_dscnt 0x%x: expected a violation on %s naming %s, "
              "got exit %d: %s" % (imm, reg, needle, r.returncode, r.stderr[:400]))


HAZARD_KERNELS = {
    # name: (targets, body lines (s_nop marked by NOP), message fragment)
    "hz_div_fmas": (["gfx90a", "gfx942"], [
        "v_cvt_f32_u32 v1, v0",
        "v_cmp_eq_u32 vcc, v0, v0",
        "NOP 3",
        "v_div_fmas_f32 v2, v1, v1, v1"], "v_div_fmas"),
    "hz_vmem_sgpr": (["gfx90a", "gfx942"], [
        "v_mov_b32 v3, s0",
        "v_mov_b32 v4, s1",
        "v_cvt_f32_u32 v2, v0",
        "v_readfirstlane_b32 s2, v3",
        "v_readfirstlane_b32 s3, v4",
        "NOP 4",
        "global_store_dword v5, v2, s[2:3]"], "VMEM reads"),
    "hz_lane_select": (["gfx90a", "gfx942"], [
        "v_mov_b32 v6, 3",
        "v_cvt_f32_u32 v2, v0",
        "v_readfirstlane_b32 s6, v6",
        "NOP 3",
        "v_readlane_b32 s7, v2, s6",
        "v_mov_b32 v3, 0",
        "v_mov_b32 v4, 0",
        "v_mov_b32 v2, s7"], "lane select"),
    "hz_valu_sgpr": (["gfx942"], [
        "v_mov_b32 v6, 5",
        "v_mov_b32 v7, 0",
        "v_readfirstlane_b32 s6, v6",
        "NOP 1",
        "v_add_u32 v2, s6, v0"], "VALU reads it"),
    "hz_trans": (["gfx942"], [
        "v_cvt_f32_u32 v1, v0",
        "v_rcp_f32 v2, v1",
        "NOP 0",
        "v_add_f32 v2, v2, v1"], "transcendental"),
    # gfx10 (LLVM FPAtomicToDenormModeHazard): 3 wait states, no VALU or wait in between
    "hz_fpatomic_denorm": (["gfx1030"], [
        "v_cvt_f32_u32 v2, v0",
        "global_atomic_fmin v5, v2, s[0:1]",
        "NOP 2",
        "s_denorm_mode 0xf"], "s_denorm_mode"),
}

ASM_KERNEL = """
.text
.globl {name}
.p2align 8
.type {name},@function
{name}:
  s_load_dwordx2 s[0:1], s[0:1], 0x0
  v_lshlrev_b32 v5, 2, v0
  s_waitcnt lgkmcnt(0)
{body}
  global_store_dword v5, v2, s[0:1]
  s_endpgm
.Lend_{name}:
.rodata
.p2align 6
.amdhsa_kernel {name}
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
"""


def test_hazard(amdsim, tmp):
    for t in ["gfx90a", "gfx942", "gfx1030"]:
        names = [n for n, (ts, _, _) in HAZARD_KERNELS.items() if t in ts]
        src = '.amdgcn_target "amdgcn-amd-amdhsa--%s"\n' % t
        kernel = ASM_KERNEL
        if t in WAVE32:
            kernel = kernel.replace(".amdhsa_accum_offset 8", ".amdhsa_wavefront_size32 1")
        for n in names:
            body = "\n".join("  s_nop " + ln[4:] if ln.startswith("NOP") else "  " + ln
                             for ln in HAZARD_KERNELS[n][1])
            src += kernel.format(name=n, body=body)
        src += metadata(names, 32 if t in WAVE32 else 64)
        h, err = assemble(src, t, os.path.join(tmp, "hz-" + t))
        if not check(h, "%s: llvm-mc: %s" % (t, err[:500])):
            continue
        insns = disasm(h)
        outb = os.path.join(tmp, "hz.out")
        for n in names:
            cmd = ["--kernel", n, "--grid", "1", "--block", "64", "out:256:" + outb]
            r = run([amdsim, h] + cmd)
            check(r.returncode == 0, "%s %s: with s_nop passes (exit %d: %s)"
                  % (t, n, r.returncode, r.stderr[:300]))
            # this kernel's s_nop: between the instructions that surround it in the source
            lines = HAZARD_KERNELS[n][1]
            k = [i for i, ln in enumerate(lines) if ln.startswith("NOP")][0]
            before, after = lines[k - 1].split()[0], lines[k + 1].split()[0]
            cand = [i for i in range(1, len(insns) - 1)
                    if insns[i][1] == "s_nop" and insns[i - 1][1].startswith(before)
                    and insns[i + 1][1].startswith(after)]
            if not check(len(cand) >= 1, "%s %s: s_nop found in the code" % (t, n)):
                continue
            i = cand[0]
            addr, word = insns[i][0], insns[i][3][0]
            p = os.path.join(tmp, "hz-patched.hsaco")
            if word & 0xffff:
                patch_word(h, p, addr, word - 1)  # one wait state short
            else:
                end = next(a for a, m, _, _ in insns[i:] if m == "s_endpgm") + 4
                delete_insn(h, p, addr, end)
            r = run([amdsim, p] + cmd)
            ok = r.returncode == 3 and "hazard" in r.stderr and HAZARD_KERNELS[n][2] in r.stderr
            check(ok, "%s %s: short s_nop reported (exit %d: %s)"
                  % (t, n, r.returncode, r.stderr[:400]))
            r = run([amdsim, p, "--no-strict"] + cmd)
            check(r.returncode == 0, "%s %s: --no-strict ignores the hazard" % (t, n))


# Rounding modes (descriptor FLOAT_ROUND_MODE_32 / _16_64): each lane adds +-2^-30 to 1.0
# (odd lanes negative).  The exact sum lies strictly between two floats, so each IEEE
# rounding direction picks a known neighbour: 1.0 = 0x3f800000, next up 0x3f800001,
# next down 0x3f7fffff.
ROUND_BODY = ["v_and_b32 v1, 1, v0", "v_lshlrev_b32 v1, 31, v1",
              "v_or_b32 v3, 0x30800000, v1", "v_add_f32 v2, 1.0, v3"]
ROUND_EXPECT = {0: (0x3f800000, 0x3f800000), 1: (0x3f800001, 0x3f800000),
                2: (0x3f800000, 0x3f7fffff), 3: (0x3f800000, 0x3f7fffff)}


def test_roundmode(amdsim, tmp):
    for t in TARGETS:
        wave = 32 if t in WAVE32 else 64
        cases = [(rm, 0) for rm in range(4)] + [(0, 1)]  # (mode_32, mode_16_64)
        src = '.amdgcn_target "amdgcn-amd-amdhsa--%s"\n' % t
        names = []
        for rm32, rm64 in cases:
            n = "round_%d_%d" % (rm32, rm64)
            names.append(n)
            fields = ("  .amdhsa_float_round_mode_32 %d\n  .amdhsa_float_round_mode_16_64 %d\n"
                      % (rm32, rm64))
            fields += ("  .amdhsa_wavefront_size32 1\n" if wave == 32
                       else "  .amdhsa_accum_offset 8\n")
            k = ASM_KERNEL.replace("  .amdhsa_accum_offset 8\n", fields)
            if t == "gfx1200":  # gfx12 has the split waits only
                k = k.replace("s_waitcnt lgkmcnt(0)", "s_wait_kmcnt 0x0")
            src += k.format(name=n, body="\n".join("  " + ln for ln in ROUND_BODY))
        src += metadata(names, wave)
        h, err = assemble(src, t, os.path.join(tmp, "round-" + t))
        if not check(h, "%s: llvm-mc: %s" % (t, err[:500])):
            continue
        outb = os.path.join(tmp, "round.out")
        for (rm32, rm64), n in zip(cases, names):
            r = run([amdsim, h, "--kernel", n, "--grid", "1", "--block", str(wave),
                     "out:%d:%s" % (4 * wave, outb)])
            if not check(r.returncode == 0, "%s %s: exit %d: %s" % (t, n, r.returncode,
                                                                     r.stderr[:300])):
                continue
            got = read_words(outb, "I")
            want = [ROUND_EXPECT[rm32][lane & 1] for lane in range(wave)]
            check(list(got) == want, "%s %s: got %s, want %s" % (
                t, n, [hex(x) for x in got[:2]], [hex(x) for x in want[:2]]))


def test_determinism(amdsim, tmp):
    for t in ["gfx90a", "gfx1100", "gfx1200"]:
        h = build_kernel("lds_sum", t, tmp)
        a = os.path.join(tmp, "la.bin")
        open(a, "wb").write(struct.pack("<2048I", *[i * 7 for i in range(2048)]))
        res = []
        for seed in (1, 1, 2):
            o = os.path.join(tmp, "lo%d.bin" % len(res))
            r = run([amdsim, h, "--kernel", "lds_sum", "--grid", "8", "--block", "256", "in:" + a,
                     "out:32:" + o, "u32:5", "--stats", "--seed", str(seed)])
            check(r.returncode == 0, "%s determinism run: %s" % (t, r.stderr))
            res.append((r.stdout, open(o, "rb").read()))
        check(res[0] == res[1], "%s: same seed gives identical stats and output" % t)
        check(res[0][1] == res[2][1], "%s: another seed gives the same output" % t)
        check("cycles" in res[0][0] and "waits" in res[0][0], "%s: --stats prints" % t)
        check(res[0][0] != res[2][0], "%s: another seed changes the timing" % t)


def test_errors(amdsim, tmp):
    h = build_kernel("vadd", "gfx90a", tmp)
    args, out, exp = vadd_args(tmp)
    base = ["--kernel", "vadd", "--grid", "4", "--block", "256"]
    data = open(h, "rb").read()
    cases = []
    for cut in (0, 10, 64, 200, len(data) // 2, len(data) - 100):
        p = os.path.join(tmp, "cut%d.hsaco" % cut)
        open(p, "wb").write(data[:cut])
        cases.append(("truncated to %d" % cut, [p] + base + args, "error"))
    junk = bytearray(data)
    for i in range(64, len(junk), 97):
        junk[i] ^= 0x5A
    p = os.path.join(tmp, "junk.hsaco")
    open(p, "wb").write(junk)
    cases.append(("corrupted", [p] + base + args, None))
    cases.append(("unknown kernel", [h, "--kernel", "nope", "--grid", "1", "--block", "64"] + args,
                  "no kernel named"))
    cases.append(("too few args", [h] + base + args[:2], "arguments"))
    small, _, _ = vadd_args(tmp, n=1000, size=100)
    cases.append(("out of bounds", [h] + base + small, "out-of-bounds"))
    for what, cmd, needle in cases:
        r = run([amdsim] + cmd)
        ok = r.returncode in (1, 3) if needle is None else r.returncode == 1
        ok = ok and (needle is None or needle in r.stderr) and r.returncode >= 0
        check(ok, "%s: clear error, exit 1 (got %d: %s)" % (what, r.returncode, r.stderr[:300]))
    r = run([amdsim, h, "--kernel", "vadd", "--grid", "0", "--block", "1"])
    check(r.returncode == 2, "bad --grid is a usage error")
    # image instructions (clang-19 inline asm: MIMG, gfx12 VIMAGE/VSAMPLE) are decoded to their
    # name; what amdsim does not simulate (a descriptor of all zeros: a format it does not
    # know) stops the run naming it (docs/TEXTURES.md), never runs as something else
    for target, insn, mods in [
            ("gfx90a", "image_load %0, %1, %2 dmask:0xf unorm", ""),
            ("gfx1030", "image_load %0, %1, %2 dmask:0xf dim:SQ_RSRC_IMG_1D unorm", ""),
            ("gfx1100", "image_store %0, %1, %2 dmask:0xf dim:SQ_RSRC_IMG_1D unorm", ""),
            ("gfx1200", "image_load %0, %1, %2 dmask:0xf dim:SQ_RSRC_IMG_1D", ""),
            ("gfx1200", "image_sample_lz %0, %1, %2, %3 dmask:0xf dim:SQ_RSRC_IMG_1D", "s")]:
        samp = ', "s"(((constant int4 *)d)[3])' if mods else ""  # dword 12, as HIP
        src = ("kernel void img(global float4 *o, constant int8 *d) {\n"
               "  float4 r = 0; int x = __builtin_amdgcn_workitem_id_x();\n"
               '  __asm volatile("%s" : "+v"(r) : "v"(x), "s"(*d)%s);\n'
               "  o[x] = r;\n}\n" % (insn, samp))
        hi = build_cl_text(src, target, os.path.join(tmp, "img"))
        if not hi:  # the failure names target and img.cl
            continue
        desc = os.path.join(tmp, "desc.bin")
        open(desc, "wb").write(bytes(64))
        outi = os.path.join(tmp, "img.out")
        r = run([amdsim, hi, "--kernel", "img", "--grid", "1", "--block", "1",
                 "out:16:" + outi, "in:" + desc])
        name = insn.split()[0]
        said = ("unimplemented instruction", "not simulated", "gfx11 only")
        check(r.returncode == 1 and any(x in r.stderr for x in said) and
              name in r.stderr, "%s %s: error naming it (exit %d: %s)" %
              (target, name, r.returncode, r.stderr[:300]))
    # gfx12 barrier misuse (hangs on hardware) is an error naming the instruction
    for body, needle in [("s_barrier_wait -1", "without a preceding s_barrier_signal"),
                         ("s_barrier_signal -1\n  s_barrier_signal -1", "twice"),
                         ("s_barrier_signal 0", "only the work-group barrier")]:
        src = W12_SRC.replace("  s_wait_loadcnt_dscnt 0x0\n",
                              "  s_wait_loadcnt_dscnt 0x0\n  %s\n" % body)
        hb, err = assemble(src, "gfx1200", os.path.join(tmp, "bar12"))
        if not check(hb, "gfx1200 barrier kernel: %s" % err[:300]):
            continue
        outb = os.path.join(tmp, "bar12.out")
        r = run([amdsim, hb, "--kernel", "w12", "--grid", "1", "--block", "64",
                 "out:256:" + outb])
        check(r.returncode == 1 and needle in r.stderr and "s_barrier" in r.stderr,
              "gfx1200 `%s`: error naming it (exit %d: %s)" % (body, r.returncode,
                                                                r.stderr[:300]))


def test_spin(amdsim, tmp):
    n, groups = 128, 2
    for t in ("gfx90a", "gfx1100"):
        h = build_kernel("spin", t, tmp)
        out = os.path.join(tmp, "spin-%s.bin" % t)
        base = [amdsim, h, "--kernel", "spin", "--grid", str(groups), "--block", str(n),
                "out:%d:%s" % (4 * n * groups, out), "i32:%d" % n]
        exp = [1000 + g + i for g in range(groups) for i in range(n)]
        r = run(base + ["i32:0"])
        if check(r.returncode == 0, "%s spin-wait ends: %s" % (t, r.stderr[:300])):
            got = read_words(out, "I")
            check(got == exp, "%s spin-wait: waves read the data the last wave wrote" % t)
        r = run(base + ["i32:1"], timeout=60)
        check(r.returncode == 1 and "deadlock: waves spin at s_sleep" in r.stderr,
              "%s spin without a release: deadlock reported (exit %d: %s)" %
              (t, r.returncode, r.stderr[:300]))
        r = run(base + ["i32:2", "--max-insns", "3000000"])  # no s_sleep: others get turns
        if check(r.returncode == 0, "%s spin-wait without s_sleep ends: %s" % (t, r.stderr[:300])):
            check(read_words(out, "I") == exp,
                  "%s spin-wait without s_sleep: waves read the data the last wave wrote" % t)
        r = run(base + ["i32:3", "--max-insns", "3000000"], timeout=60)
        check(r.returncode == 1 and "instruction budget exceeded" in r.stderr,
              "%s endless spin without s_sleep: budget fault (exit %d: %s)" %
              (t, r.returncode, r.stderr[:300]))


def test_api(amdsim, tmp, loader):
    for t in TARGETS:
        h = build_kernel("vadd", t, tmp)
        r = run([loader, h, t])
        check(r.returncode == 0, "%s loader/API unit test: %s%s" % (t, r.stdout, r.stderr))


def main():
    amdsim, what = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        if what == "api":
            test_api(amdsim, tmp, sys.argv[3])
        else:
            globals()["test_" + what](amdsim, tmp)
    finish()


main()
