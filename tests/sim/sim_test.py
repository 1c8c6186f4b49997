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
  sim_test.py AMDSIM image        image_load/store/sample (4 targets) vs CPU texel references
"""
import math
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ["gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"]
WAVE32 = ("gfx1030", "gfx1100", "gfx1200")  # default wave32; they also run wave64 code
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)
    return cond


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def build_cl(name, target, outdir, flags=()):
    src = os.path.join(HERE, "kernels", name + ".cl")
    tag = target + "".join(flags)
    obj = os.path.join(outdir, "%s-%s.o" % (name, tag))
    hsaco = os.path.join(outdir, "%s-%s.hsaco" % (name, tag))
    subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                    "-mcpu=" + target, "-nogpulib", "-O3", *flags, "-c", src, "-o", obj],
                   check=True)
    subprocess.run(["ld.lld-19", "-shared", obj, "-o", hsaco], check=True)
    return hsaco


def write_floats(path, vals):
    with open(path, "wb") as f:
        f.write(struct.pack("<%df" % len(vals), *vals))


def read_words(path, fmt):
    data = open(path, "rb").read()
    return list(struct.unpack("<%d%s" % (len(data) // 4, fmt), data))


def text_section(hsaco):
    """(file offset, address) of .text, from llvm-readelf-19."""
    out = run(["llvm-readelf-19", "-S", "-W", hsaco]).stdout
    for ln in out.splitlines():
        f = ln.replace("]", "] ").split()
        if ".text" in f:
            i = f.index(".text")
            return int(f[i + 3], 16), int(f[i + 2], 16)
    raise RuntimeError("no .text in " + hsaco)


def disasm(hsaco):
    """[(address, mnemonic, text, [words])] from llvm-objdump-19."""
    res = []
    for ln in run(["llvm-objdump-19", "-d", hsaco]).stdout.splitlines():
        m = re.match(r"\s+(\S+)(.*?)//\s*([0-9A-Fa-f]+):((?:\s[0-9A-Fa-f]{8})+)", ln)
        if m:
            res.append((int(m.group(3), 16), m.group(1), (m.group(1) + m.group(2)).strip(),
                        [int(x, 16) for x in m.group(4).split()]))
    return res


def patch_word(src, dst, addr, word):
    off, base = text_section(src)
    data = bytearray(open(src, "rb").read())
    data[off + addr - base: off + addr - base + 4] = struct.pack("<I", word)
    open(dst, "wb").write(data)


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
        h = build_cl("vadd", t, tmp)
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
        h = build_cl("lds_sum", t, tmp)
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
            h = build_cl("lds_sum", t, tmp, ("-mwavefrontsize64",))
            r = run([amdsim, h, "--kernel", "lds_sum", "--grid", "4", "--block", "256",
                     "in:" + a, "out:16:" + o, "u32:10", "--stats"])
            check(r.returncode == 0 and read_words(o, "I") == exp,
                  "%s wave64 lds_sum: exit %d %s" % (t, r.returncode, r.stderr[:300]))
            h = build_cl("vadd", t, tmp, ("-mwavefrontsize64",))
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
    s = os.path.join(tmp, "vbuf12.s")
    o, h = s[:-2] + ".o", s[:-2] + ".hsaco"
    open(s, "w").write(src)
    r = run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1200", "-filetype=obj", s,
             "-o", o])
    if not check(r.returncode == 0, "gfx1200 vbuffer: llvm-mc: %s" % r.stderr[:500]):
        return
    subprocess.run(["ld.lld-19", "-shared", o, "-o", h], check=True)
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
        h = build_cl("vadd", t, tmp)
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
    s = os.path.join(tmp, "w12.s")
    o, h = s[:-2] + ".o", s[:-2] + ".hsaco"
    open(s, "w").write(W12_SRC)
    r = run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1200", "-filetype=obj", s,
             "-o", o])
    if not check(r.returncode == 0, "gfx1200 w12: llvm-mc: %s" % r.stderr[:500]):
        return
    subprocess.run(["ld.lld-19", "-shared", o, "-o", h], check=True)
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

ASM_META = """
.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
{kernels}
...
.end_amdgpu_metadata
"""

META_KERNEL = """  - .name: {name}
    .symbol: {name}.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 256
    .args:
      - {{ .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }}
"""


def test_hazard(amdsim, tmp):
    for t in ["gfx90a", "gfx942", "gfx1030"]:
        names = [n for n, (ts, _, _) in HAZARD_KERNELS.items() if t in ts]
        src = '.amdgcn_target "amdgcn-amd-amdhsa--%s"\n' % t
        kernel, meta = ASM_KERNEL, META_KERNEL
        if t in WAVE32:
            kernel = kernel.replace(".amdhsa_accum_offset 8", ".amdhsa_wavefront_size32 1")
            meta = meta.replace(".wavefront_size: 64", ".wavefront_size: 32")
        for n in names:
            body = "\n".join("  s_nop " + ln[4:] if ln.startswith("NOP") else "  " + ln
                             for ln in HAZARD_KERNELS[n][1])
            src += kernel.format(name=n, body=body)
        src += ASM_META.format(kernels="".join(meta.format(name=n) for n in names))
        s = os.path.join(tmp, "hz-%s.s" % t)
        o, h = s[:-2] + ".o", s[:-2] + ".hsaco"
        open(s, "w").write(src)
        r = run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + t, "-filetype=obj", s,
                 "-o", o])
        if not check(r.returncode == 0, "%s: llvm-mc: %s" % (t, r.stderr[:500])):
            continue
        subprocess.run(["ld.lld-19", "-shared", o, "-o", h], check=True)
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
        meta = "".join(META_KERNEL.format(name=n) for n in names)
        src += ASM_META.format(kernels=meta.replace(".wavefront_size: 64",
                                                    ".wavefront_size: %d" % wave))
        s = os.path.join(tmp, "round-%s.s" % t)
        o, h = s[:-2] + ".o", s[:-2] + ".hsaco"
        open(s, "w").write(src)
        r = run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + t, "-filetype=obj", s,
                 "-o", o])
        if not check(r.returncode == 0, "%s: llvm-mc: %s" % (t, r.stderr[:500])):
            continue
        subprocess.run(["ld.lld-19", "-shared", o, "-o", h], check=True)
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
        h = build_cl("lds_sum", t, tmp)
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
    h = build_cl("vadd", "gfx90a", tmp)
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
        cl, obj, hi = (os.path.join(tmp, "img." + e) for e in ("cl", "o", "hsaco"))
        open(cl, "w").write(src)
        r = run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                 "-mcpu=" + target, "-nogpulib", "-O3", "-c", cl, "-o", obj])
        if not check(r.returncode == 0, "%s image kernel: %s" % (target, r.stderr[:300])):
            continue
        subprocess.run(["ld.lld-19", "-shared", obj, "-o", hi], check=True)
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
        s = os.path.join(tmp, "bar12.s")
        o, hb = s[:-2] + ".o", s[:-2] + ".hsaco"
        open(s, "w").write(src)
        r = run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1200", "-filetype=obj",
                 s, "-o", o])
        if not check(r.returncode == 0, "gfx1200 barrier kernel: %s" % r.stderr[:300]):
            continue
        subprocess.run(["ld.lld-19", "-shared", o, "-o", hb], check=True)
        outb = os.path.join(tmp, "bar12.out")
        r = run([amdsim, hb, "--kernel", "w12", "--grid", "1", "--block", "64",
                 "out:256:" + outb])
        check(r.returncode == 1 and needle in r.stderr and "s_barrier" in r.stderr,
              "gfx1200 `%s`: error naming it (exit %d: %s)" % (body, r.returncode,
                                                                r.stderr[:300]))


IMG_FORMATS = {  # name: (channels, bytes per channel, kind) -- docs/TEXTURES.md
    "r32f": (1, 4, "f"), "r32ui": (1, 4, "u"), "rg32f": (2, 4, "f"), "rgba32f": (4, 4, "f"),
    "rgba32ui": (4, 4, "u"), "r8": (1, 1, "unorm"), "r8ui": (1, 1, "u"),
    "rgba8": (4, 1, "unorm")}


def img_kernel(tmp, target, name, body):
    """An OpenCL kernel with the image instruction in inline asm (clang-19 assembles it),
    linked to a code object."""
    cl, obj, hs = (os.path.join(tmp, "%s.%s" % (name, e)) for e in ("cl", "o", "hsaco"))
    open(cl, "w").write(body)
    subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                    "-mcpu=" + target, "-nogpulib", "-O3", "-c", cl, "-o", obj], check=True)
    subprocess.run(["ld.lld-19", "-shared", obj, "-o", hs], check=True)
    return hs


def texel_ref(fmt, data, index, dmask):
    """What image_load returns for texel `index` (CPU reference from the format rules: channels
    widened, unorm8 v / 255, the missing ones 0 and alpha 1), the dmask components, as u32."""
    ch, nb, kind = IMG_FORMATS[fmt]
    one = 0x3f800000 if kind in ("f", "unorm") else 1
    comp = [0, 0, 0, one]
    for c in range(ch):
        v = int.from_bytes(data[(index * ch + c) * nb:(index * ch + c + 1) * nb], "little")
        if kind == "unorm":
            v = struct.unpack("<I", struct.pack("<f", v / 255.0))[0]
        comp[c] = v
    return [comp[i] for i in range(4) if dmask >> i & 1]


# The image instructions' syntax per target: gfx90a's MIMG has no dim (the resource's type
# decides) and no image_sample_lz; gfx12's VIMAGE/VSAMPLE take the address VGPRs as a list and
# image_load/image_store have no unorm bit.
IMG_SYNTAX = {  # target: (2D address, its operands, load/store suffix, sample, sample suffix)
    "gfx90a": ("%[xy]", '[xy] "v"((int2)(X, Y))', " unorm", "image_sample", ""),
    "gfx1030": ("%[xy]", '[xy] "v"((int2)(X, Y))', " dim:SQ_RSRC_IMG_2D unorm",
                "image_sample_lz", " dim:SQ_RSRC_IMG_2D"),
    "gfx1200": ("[%[x], %[y]]", '[x] "v"(X), [y] "v"(Y)', " dim:SQ_RSRC_IMG_2D",
                "image_sample_lz", " dim:SQ_RSRC_IMG_2D")}
IMG_SYNTAX["gfx1100"] = IMG_SYNTAX["gfx1030"]


def img_asm(target, text, x, y):
    """Inline asm text and its input operands with the 2D address of (x, y) in target syntax:
    ADDR in text is the address, SFX the load/store suffix, SAMPLE/SSFX the sampling op."""
    addr, opnds, sfx, sample, ssfx = IMG_SYNTAX[target]
    text = text.replace("ADDR", addr).replace("SSFX", ssfx).replace("SFX", sfx)
    wait = "s_wait_loadcnt 0\\n s_wait_storecnt 0" if target == "gfx1200" else "s_waitcnt vmcnt(0)"
    text = text.replace("SAMPLE", sample) + "\\n " + wait
    return text, opnds.replace("X", x).replace("Y", y)


def test_image(amdsim, tmp):
    """amdsim's image_load/image_store/image_sample_lz (gfx90a: image_sample) on linear 1D/2D
    images, four targets, on clang-19 inline-asm kernels, against CPU references from the texel
    format rules and point sampling; image arguments built by amdsim as HIP's descriptor block
    (T# at dword 0, S# at dword 12) in each generation's layout."""
    for target in ("gfx90a", "gfx1030", "gfx1100", "gfx1200"):
        image_target(amdsim, tmp, target)
        image_sample_target(amdsim, tmp, target)
        image_fetch_target(amdsim, tmp, target)
        if target != "gfx90a":  # no image_gather4 there
            image_gather_target(amdsim, tmp, target)
        image_layered_target(amdsim, tmp, target)


def image_target(amdsim, tmp, target):
    w, h = 5, 3
    ld15, ops = img_asm(target, "image_load %[r], ADDR, %[d] dmask:0xfSFX", "l % w", "l / w")
    ld5, _ = img_asm(target, "image_load %[r], ADDR, %[d] dmask:0x5SFX", "l % w", "l / w")
    load = img_kernel(tmp, target, "imgld", """
kernel void ld(global uint *o, constant int8 *d, int w, int dm) {
  int l = __builtin_amdgcn_workitem_id_x();
  uint4 r = 7;
  if (dm == 15) __asm volatile("%s" : [r] "=v"(r) : %s, [d] "s"(*d));
  else __asm volatile("%s" : [r] "=v"(r.xy) : %s, [d] "s"(*d));
  ((global uint4 *)o)[l] = r;
}
""" % (ld15, ops, ld5, ops))
    rng = random.Random(5)
    for fmt, (ch, nb, kind) in sorted(IMG_FORMATS.items()):
        for dmask in (0xf, 0x5):
            data = bytes(rng.randrange(256) for _ in range(w * h * ch * nb))
            src, outp = os.path.join(tmp, "tex.bin"), os.path.join(tmp, "ld.out")
            open(src, "wb").write(data)
            r = run([amdsim, load, "--kernel", "ld", "--grid", str(w * h), "--block",
                     str(w * h), "out:%d:%s" % (16 * w * h, outp),
                     "image:%s:%dx%d:%s" % (fmt, w, h, src), "i32:%d" % w, "i32:%d" % dmask])
            if not check(r.returncode == 0, "image_load %s: %s" % (fmt, r.stderr[:300])):
                continue
            got = read_words(outp, "I")
            bad = []
            for i in range(w * h):
                want = texel_ref(fmt, data, i, dmask)
                want += [7] * (4 - len(want))
                if got[4 * i:4 * i + 4] != want:
                    bad.append((i, got[4 * i:4 * i + 4], want))
            check(not bad, "%s image_load %s dmask 0x%x: %s" % (target, fmt, dmask, bad[:3]))
    # image_store of all channels of a 32-bit format: the texels come back in the image
    st, ops = img_asm(target, "image_store %[v], ADDR, %[d] dmask:0xfSFX", "l % w", "l / w")
    store = img_kernel(tmp, target, "imgst", """
kernel void st(constant int8 *d, int w) {
  int l = __builtin_amdgcn_workitem_id_x();
  float4 v = (float4)(l, l * 0.5f, -l, l + 0.25f);
  __asm volatile("%s" : : [v] "v"(v), %s, [d] "s"(*d) : "memory");
}
""" % (st, ops))
    src, outp = os.path.join(tmp, "st.bin"), os.path.join(tmp, "st.out")
    open(src, "wb").write(bytes(16 * w * h))
    r = run([amdsim, store, "--kernel", "st", "--grid", str(w * h), "--block", str(w * h),
             "image:rgba32f:%dx%d:%s:%s" % (w, h, src, outp), "i32:%d" % w])
    if check(r.returncode == 0, "image_store: %s" % r.stderr[:300]):
        got = struct.unpack("<%df" % (4 * w * h), open(outp, "rb").read())
        want = [x for l in range(w * h) for x in (l, l * 0.5, -l, l + 0.25)]
        check(list(got) == want, "%s image_store rgba32f: %s" % (target, got[:8]))
    # the strict checker knows image_load's counter: its result read without a wait
    sfx = IMG_SYNTAX[target][2].replace("2D", "1D")
    nowait = img_kernel(tmp, target, "imgnw", """
kernel void nw(global uint *o, constant int8 *d) {
  int l = __builtin_amdgcn_workitem_id_x();
  uint r;
  __asm volatile("image_load %%0, %%1, %%2 dmask:0x1%s"
      : "=v"(r) : "v"(l), "s"(*d));
  o[l] = r;
}
""" % sfx)
    open(src, "wb").write(bytes(4 * w))
    r = run([amdsim, nowait, "--kernel", "nw", "--grid", str(w), "--block", str(w),
             "out:%d:%s" % (4 * w, outp), "image:r32f:%d:%s" % (w, src)])
    check(r.returncode == 3 and "image_load" in r.stderr,
          "%s image_load result read without s_waitcnt: violation (exit %d: %s)" %
          (target, r.returncode, r.stderr[:300]))
    # what is not simulated stops the run naming it (a coordinate outside the image)
    data = bytes(4 * w * h)
    open(src, "wb").write(data)
    r = run([amdsim, load, "--kernel", "ld", "--grid", "64", "--block", "64",
             "out:1024:" + outp, "image:r32f:%dx%d:%s" % (w, h, src), "i32:%d" % w, "i32:15"])
    check(r.returncode == 1 and "outside the 5x3 image" in r.stderr,
          "image_load outside the image: error (exit %d: %s)" % (r.returncode, r.stderr[:200]))


def image_fetch_target(amdsim, tmp, target):
    """buffer_load_format_xyzw by index through the V# amdsim builds for a linear (1D buffer)
    texture (image:FORMAT/linear, ROCR's 1DB descriptor): each element converted by its format
    (float and integer bits as they are, unorm8 v / 255, missing channels 0 and alpha 1)."""
    wait = "s_wait_loadcnt 0" if target == "gfx1200" else "s_waitcnt vmcnt(0)"
    soff = "null" if target == "gfx1200" else "0"
    hs = img_kernel(tmp, target, "imgbf", """
kernel void bf(global uint4 *o, constant int4 *d) {
  int l = __builtin_amdgcn_workitem_id_x();
  uint4 r;
  __asm volatile("buffer_load_format_xyzw %%0, %%1, %%2, %s idxen\\n %s"
      : "=v"(r) : "v"(l), "s"(*d));
  o[l] = r;
}
""" % (soff, wait))
    rng = random.Random(9)
    for fmt, (ch, nb, kind) in sorted(IMG_FORMATS.items()):
        n = rng.randint(1, 40)
        data = bytes(rng.randrange(256) for _ in range(n * ch * nb))
        src, outp = os.path.join(tmp, "lin.bin"), os.path.join(tmp, "lin.out")
        open(src, "wb").write(data)
        r = run([amdsim, hs, "--kernel", "bf", "--grid", str(n), "--block", str(n),
                 "out:%d:%s" % (16 * n, outp), "image:%s/linear:%d:%s" % (fmt, n, src)])
        if not check(r.returncode == 0, "%s buffer_load_format %s: %s" % (
                target, fmt, r.stderr[:300])):
            continue
        got = read_words(outp, "I")
        want = [x for i in range(n) for x in texel_ref(fmt, data, i, 0xf)]
        check(got == want, "%s buffer_load_format %s: got %s, expected %s" % (
            target, fmt, got[:8], want[:8]))


def image_gather_target(amdsim, tmp, target):
    """image_gather4_lz of each channel of 2D rgba32f images (wrap, mirror, clamp, white border)
    at points a quarter texel off the centres: the four texels of the bilinear footprint,
    counter-clockwise from the lower left ((i0, j1), (i1, j1), (i1, j0), (i0, j0), i0 =
    floor(u * w - 0.5)), as D3D's gather4 defines it."""
    rng = random.Random(11)
    for ch in range(4):
        text, ops = img_asm(target, "image_gather4_lz %%[r], ADDR, %%[d], %%[s] dmask:0x%xSSFX"
                            % (1 << ch), "c[l].x", "c[l].y")
        hs = img_kernel(tmp, target, "imgg%d" % ch, """
kernel void g(global float4 *o, constant int8 *d, global float2 *c) {
  int l = __builtin_amdgcn_workitem_id_x();
  float4 r;
  __asm volatile("%s"
      : [r] "=v"(r) : %s, [d] "s"(*d), [s] "s"(((constant int4 *)d)[3]));
  o[l] = r;
}
""" % (text.replace("%%", "%"), ops.replace("int2", "float2")))
        for opts, mode in (("", "wrap"), ("/mirror", "mirror"), ("/clamp", "clamp"),
                           ("/border/white", "border")):
            w, h, n = rng.randint(1, 6), rng.randint(1, 4), 32
            vals = [rng.uniform(-50, 50) for _ in range(4 * w * h)]
            data = struct.pack("<%df" % len(vals), *vals)
            vals = list(struct.unpack("<%df" % len(vals), data))
            coords, want = [], []
            for _ in range(n):
                u = (rng.randrange(-2 * w, 3 * w) + rng.choice((0.25, 0.75))) / w
                v = (rng.randrange(-2 * h, 3 * h) + rng.choice((0.25, 0.75))) / h
                coords += [u, v]
                i0, j0 = math.floor(u * w - 0.5), math.floor(v * h - 0.5)
                for di, dj in ((0, 1), (1, 1), (1, 0), (0, 0)):
                    x, y = point_index(i0 + di, w, mode), point_index(j0 + dj, h, mode)
                    want.append(1.0 if x < 0 or y < 0 else vals[4 * (y * w + x) + ch])
            src, cf, outp = (os.path.join(tmp, f) for f in ("g.bin", "c.bin", "g.out"))
            open(src, "wb").write(data)
            open(cf, "wb").write(struct.pack("<%df" % len(coords), *coords))
            r = run([amdsim, hs, "--kernel", "g", "--grid", str(n), "--block", str(n),
                     "out:%d:%s" % (16 * n, outp), "image:rgba32f%s:%dx%d:%s" % (opts, w, h, src),
                     "in:" + cf])
            if not check(r.returncode == 0, "%s image_gather4_lz %s: %s" % (
                    target, opts, r.stderr[:300])):
                continue
            got = list(struct.unpack("<%df" % (4 * n), open(outp, "rb").read()))
            check(got == want, "%s image_gather4_lz ch %d %s %dx%d: got %s, expected %s" % (
                target, ch, opts, w, h, got[:8], want[:8]))


def image_layered_target(amdsim, tmp, target):
    """image_sample_lz (gfx90a: image_sample, `da` for arrays) of 3D images (x, y, z normalized,
    the address mode on all three) and 2D arrays (x, y, then the slice as a float: rounded to the
    nearest and clamped to the layers), rgba32f, against the CPU's texel choice."""
    rng = random.Random(13)
    wait = "s_wait_loadcnt 0" if target == "gfx1200" else "s_waitcnt vmcnt(0)"
    for geom in ("3D", "2D_ARRAY"):
        if target == "gfx90a":
            op = "image_sample %[r], %[a], %[d], %[s] dmask:0xf" + (" da" if geom != "3D" else "")
            ops = '[a] "v"((float3)(c[l].x, c[l].y, c[l].z))'
        elif target == "gfx1200":
            op = "image_sample_lz %[r], [%[x], %[y], %[z]], %[d], %[s] dmask:0xf dim:SQ_RSRC_IMG_" + geom
            ops = '[x] "v"(c[l].x), [y] "v"(c[l].y), [z] "v"(c[l].z)'
        else:
            op = "image_sample_lz %[r], %[a], %[d], %[s] dmask:0xf dim:SQ_RSRC_IMG_" + geom
            ops = '[a] "v"((float3)(c[l].x, c[l].y, c[l].z))'
        hs = img_kernel(tmp, target, "imgl" + geom, """
kernel void s3(global float4 *o, constant int8 *d, global float4 *c) {
  int l = __builtin_amdgcn_workitem_id_x();
  float4 r;
  __asm volatile("%s\\n %s"
      : [r] "=v"(r) : %s, [d] "s"(*d), [s] "s"(((constant int4 *)d)[3]));
  o[l] = r;
}
""" % (op, wait, ops))
        for opts, mode in (("", "wrap"), ("/clamp", "clamp"), ("/border", "border")):
            w, h, dd, n = rng.randint(1, 5), rng.randint(1, 4), rng.randint(1, 4), 32
            vals = [rng.uniform(-50, 50) for _ in range(4 * w * h * dd)]
            data = struct.pack("<%df" % len(vals), *vals)
            vals = list(struct.unpack("<%df" % len(vals), data))
            coords, want = [], []
            for _ in range(n):
                i, j = rng.randrange(-2 * w, 3 * w), rng.randrange(-2 * h, 3 * h)
                x, y = point_index(i, w, mode), point_index(j, h, mode)
                if geom == "3D":
                    k = rng.randrange(-2 * dd, 3 * dd)
                    z, zc = point_index(k, dd, mode), (k + 0.5) / dd
                else:
                    layer = rng.randrange(-2, dd + 2)
                    z, zc = min(max(layer, 0), dd - 1), layer + rng.choice((-0.3, 0.0, 0.3))
                coords += [(i + 0.5) / w, (j + 0.5) / h, zc, 0.0]
                base = 4 * ((z * h + y) * w + x)
                want += [0.0] * 4 if x < 0 or y < 0 or z < 0 else vals[base:base + 4]
            src, cf, outp = (os.path.join(tmp, f) for f in ("l.bin", "c.bin", "l.out"))
            open(src, "wb").write(data)
            open(cf, "wb").write(struct.pack("<%df" % len(coords), *coords))
            arr = "/array" if geom != "3D" else ""
            r = run([amdsim, hs, "--kernel", "s3", "--grid", str(n), "--block", str(n),
                     "out:%d:%s" % (16 * n, outp),
                     "image:rgba32f%s%s:%dx%dx%d:%s" % (opts, arr, w, h, dd, src), "in:" + cf])
            if not check(r.returncode == 0, "%s sample %s %s: %s" % (
                    target, geom, opts, r.stderr[:300])):
                continue
            got = list(struct.unpack("<%df" % (4 * n), open(outp, "rb").read()))
            check(got == want, "%s sample %s %s %dx%dx%d: got %s, expected %s" % (
                target, geom, opts, w, h, dd, got[:8], want[:8]))


def point_index(i, n, mode):
    """The texel a texel position i (its centre sampled) gives along an axis of n under the
    sampler's CLAMP mode (AMD's wrap, mirror, clamp to the last texel, border), -1 border."""
    if mode == "wrap":
        return i % n
    if mode == "mirror":
        r = i % (2 * n)
        return r if r < n else 2 * n - 1 - r
    if mode == "clamp":
        return min(max(i, 0), n - 1)
    return i if 0 <= i < n else -1


# image_sample_l (x, y, lod) and image_sample_d (ds/dx, dt/dx, ds/dy, dt/dy, s, t) address
# operands per target syntax: one tuple on gfx10/gfx11 (a float3 / double3), gfx12's list
LOD_GRAD_ASM = {
    "l": ("v[0:3]", "%[a]", '[a] "v"((float3)(c[l].x, c[l].y, 1.75f))',
          "[%[x], %[y], %[z]]", '[x] "v"(c[l].x), [y] "v"(c[l].y), [z] "v"(1.75f)'),
    "d": ("v[0:3]", "%[a]",
          '[a] "v"((double3)(as_double((float2)(0.5f, 0.0f)), as_double((float2)(0.0f, 0.25f)),'
          ' as_double(c[l])))',
          "[%[p], %[q], %[r2], %[s3]]",
          '[p] "v"(0.5f), [q] "v"(0.0f), [r2] "v"(0.0f), [s3] "v"((float3)(0.25f, c[l].x, c[l].y))')}


def image_lod_grad_kernel(tmp, target, kind):
    """A kernel running image_sample_l or image_sample_d (clang-19 inline asm) at c[l]."""
    _, addr, ops, addr12, ops12 = LOD_GRAD_ASM[kind]
    if target == "gfx1200":
        addr, ops = addr12, ops12
    text = "image_sample_%s %%[r], %s, %%[d], %%[s] dmask:0xf dim:SQ_RSRC_IMG_2D" % (kind, addr)
    text += "\\n " + ("s_wait_loadcnt 0" if target == "gfx1200" else "s_waitcnt vmcnt(0)")
    return img_kernel(tmp, target, "imgs" + kind, """
kernel void sm(global float4 *o, constant int8 *d, global float2 *c) {
  int l = __builtin_amdgcn_workitem_id_x();
  float4 r;
  __asm volatile("%s"
      : [r] "=v"(r) : %s, [d] "s"(*d), [s] "s"(((constant int4 *)d)[3]));
  o[l] = r;
}
""" % (text, ops))


def image_sample_target(amdsim, tmp, target):
    """Point sampling (image_sample_lz; gfx90a image_sample over a one-level image) of 2D rgba32f
    and rgba8 images at texel centres up to two periods outside, normalized and unnormalized
    coordinates, every address mode, against the CPU's texel choice and border colour."""
    smp, ops = img_asm(target, "SAMPLE %[r], ADDR, %[d], %[s] dmask:0xfSSFX", "c[l].x", "c[l].y")
    ops = ops.replace("int2", "float2")
    kernels = {IMG_SYNTAX[target][3]: img_kernel(tmp, target, "imgsm", """
kernel void sm(global float4 *o, constant int8 *d, global float2 *c) {
  int l = __builtin_amdgcn_workitem_id_x();
  float4 r;
  __asm volatile("%s"
      : [r] "=v"(r) : %s, [d] "s"(*d), [s] "s"(((constant int4 *)d)[3]));
  o[l] = r;
}
""" % (smp, ops))}
    if target != "gfx90a":  # gfx90a has no image_sample_l/_d
        for kind in ("l", "d"):
            kernels["image_sample_" + kind] = image_lod_grad_kernel(tmp, target, kind)
    for name, hs in sorted(kernels.items()):
        image_sample_cases(amdsim, tmp, target, name, hs)


def image_sample_cases(amdsim, tmp, target, name, hs):
    """Point samples of 2D rgba32f and rgba8 one-level images through the kernel hs (o[l] =
    sample at c[l]): texel centres up to two periods outside, four sampler settings."""
    rng = random.Random(7)
    for fmt in ("rgba32f", "rgba8"):
        for opts, mode, unnorm in (("", "wrap", False), ("/mirror", "mirror", False),
                                   ("/clamp/unnorm", "clamp", True),
                                   ("/border/white", "border", False)):
            w, h, n = rng.randint(1, 6), rng.randint(1, 4), 32
            nb = 4 if fmt == "rgba8" else 16
            data = bytes(rng.randrange(256) for _ in range(w * h * nb))
            if fmt == "rgba32f":
                data = struct.pack("<%df" % (4 * w * h),
                                   *[rng.uniform(-50, 50) for _ in range(4 * w * h)])
            coords, want = [], []
            for _ in range(n):
                i, j = rng.randrange(-2 * w, 3 * w), rng.randrange(-2 * h, 3 * h)
                coords += [i + 0.5, j + 0.5] if unnorm else [(i + 0.5) / w, (j + 0.5) / h]
                x, y = point_index(i, w, mode), point_index(j, h, mode)
                if x < 0 or y < 0:
                    want += [1.0] * 4
                elif fmt == "rgba8":
                    want += [struct.unpack("<f", struct.pack("<f", b / 255.0))[0]
                             for b in data[4 * (y * w + x):4 * (y * w + x) + 4]]
                else:
                    want += list(struct.unpack("<4f", data[16 * (y * w + x):16 * (y * w + x + 1)]))
            src, cf, outp = (os.path.join(tmp, f) for f in ("smp.bin", "c.bin", "smp.out"))
            open(src, "wb").write(data)
            open(cf, "wb").write(struct.pack("<%df" % len(coords), *coords))
            r = run([amdsim, hs, "--kernel", "sm", "--grid", str(n), "--block", str(n),
                     "out:%d:%s" % (16 * n, outp), "image:%s%s:%dx%d:%s" % (fmt, opts, w, h, src),
                     "in:" + cf])
            if not check(r.returncode == 0, "%s %s %s%s: %s" % (
                    target, name, fmt, opts, r.stderr[:300])):
                continue
            got = list(struct.unpack("<%df" % (4 * n), open(outp, "rb").read()))
            check(got == want, "%s %s %s%s %dx%d: got %s, expected %s" % (
                target, name, fmt, opts, w, h, got[:8], want[:8]))


def test_spin(amdsim, tmp):
    n, groups = 128, 2
    for t in ("gfx90a", "gfx1100"):
        h = build_cl("spin", t, tmp)
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
        h = build_cl("vadd", t, tmp)
        r = run([loader, h, t])
        check(r.returncode == 0, "%s loader/API unit test: %s%s" % (t, r.stdout, r.stderr))


def main():
    amdsim, what = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        if what == "api":
            test_api(amdsim, tmp, sys.argv[3])
        else:
            globals()["test_" + what](amdsim, tmp)
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        sys.exit(1)
    print("ok")


main()
