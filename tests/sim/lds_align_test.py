#!/usr/bin/env python3
"""amdsim's LDS alignment check (suite 'sim'), five targets, llvm-mc-19 kernels.

  lds_align_test.py AMDSIM

Under SH_MEM_CONFIG.ALIGNMENT_MODE = UNALIGNED (amdsim's default: what the Linux KFD, HIP's
driver, programs on gfx9..gfx12) every DS address works, so no kernel here is reported.  With
--alignment-mode aligned (or AMDSIM_ALIGNMENT_MODE=aligned) a DS access below the alignment
that LLVM's DS selection patterns require outside unaligned-access-mode (n bytes for an n-byte
element, 16 for b96 and b128, each element of ds_read2/ds_write2) is a violation (exit 3)
naming the pc and the address; the same instruction at an aligned address is not.
"""
import os
import re
import sys
import tempfile

from simlib import TARGETS, assemble, check, finish, metadata, run

# name: (address in v1, DS instruction with generic mnemonic, the alignment it misses or 0)
CASES = {
    "b128_at16": (16, "READ_B128 v[2:5], v1", 0),
    "b128_at8": (8, "READ_B128 v[2:5], v1", 16),
    "b128_off4": (0, "READ_B128 v[2:5], v1 offset:4", 16),
    "b96_at16": (16, "READ_B96 v[2:4], v1", 0),
    "b96_at4": (4, "READ_B96 v[2:4], v1", 16),
    "b64_at8": (8, "READ_B64 v[2:3], v1", 0),
    "w64_at4": (4, "WRITE_B64 v1, v[2:3]", 8),
    "w128_at32": (32, "WRITE_B128 v1, v[2:5]", 0),
    "w128_at40": (40, "WRITE_B128 v1, v[2:5]", 16),
    "r2b64_at4": (4, "READ2_B64 v[2:5], v1 offset1:1", 8),
    "r2b64_at8": (8, "READ2_B64 v[2:5], v1 offset1:3", 0),
    "r2b32_at4": (4, "READ2_B32 v[2:3], v1 offset1:1", 0),
    "u16_at1": (1, "READ_U16 v2, v1", 2),
    "add_at2": (2, "ADD_U32 v1, v2", 4),
}

NAMES9 = {"READ_B128": "ds_read_b128", "READ_B96": "ds_read_b96", "READ_B64": "ds_read_b64",
          "WRITE_B64": "ds_write_b64", "WRITE_B128": "ds_write_b128",
          "READ2_B64": "ds_read2_b64", "READ2_B32": "ds_read2_b32", "READ_U16": "ds_read_u16",
          "ADD_U32": "ds_add_u32"}
NAMES11 = {"READ_B128": "ds_load_b128", "READ_B96": "ds_load_b96", "READ_B64": "ds_load_b64",
           "WRITE_B64": "ds_store_b64", "WRITE_B128": "ds_store_b128",
           "READ2_B64": "ds_load_2addr_b64", "READ2_B32": "ds_load_2addr_b32",
           "READ_U16": "ds_load_u16", "ADD_U32": "ds_add_u32"}

KERNEL = """
.text
.globl {name}
.p2align 8
.type {name},@function
{name}:
  s_load_dwordx2 s[0:1], s[0:1], 0x0
  v_lshlrev_b32 v5, 2, v0
  v_mov_b32 v2, 0
  v_mov_b32 v3, 0
  v_mov_b32 v4, 0
  v_mov_b32 v1, {addr}
  {insn}
  {wait}
  global_store_dword v5, v2, s[0:1]
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel {name}
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 64
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  {wave}
.end_amdhsa_kernel
"""


def build(t, tmp):
    gfx9 = t in ("gfx90a", "gfx942")
    names = NAMES11 if t in ("gfx1100", "gfx1200") else NAMES9
    wait = ("s_wait_dscnt 0\n  s_wait_kmcnt 0" if t == "gfx1200"
            else "s_waitcnt lgkmcnt(0)")
    wave = ".amdhsa_accum_offset 8" if gfx9 else ".amdhsa_wavefront_size32 1"
    src = '.amdgcn_target "amdgcn-amd-amdhsa--%s"\n' % t
    for n, (addr, insn, _) in CASES.items():
        op, rest = insn.split(" ", 1)
        src += KERNEL.format(name=n, addr=addr, insn=names[op] + " " + rest, wait=wait,
                             wave=wave)
    src += metadata(CASES, 64 if gfx9 else 32, lds=64)
    h, err = assemble(src, t, os.path.join(tmp, "align-" + t))
    check(h, "%s: llvm-mc: %s" % (t, err[:500]))
    return h


def main():
    amdsim = sys.argv[1]
    env = dict(os.environ)
    env.pop("AMDSIM_ALIGNMENT_MODE", None)
    with tempfile.TemporaryDirectory() as tmp:
        outb = os.path.join(tmp, "out.bin")
        for t in TARGETS:
            h = build(t, tmp)
            if not h:
                continue
            for n, (addr, _, need) in CASES.items():
                cmd = [amdsim, h, "--kernel", n, "--grid", "1", "--block", "64",
                       "out:256:" + outb]
                r = run(cmd, env=env)
                check(r.returncode == 0, "%s %s: unaligned mode (default) accepts it (exit "
                      "%d: %s)" % (t, n, r.returncode, r.stderr[:300]))
                r = run(cmd + ["--alignment-mode", "aligned"], env=env)
                if need:
                    ok = (r.returncode == 3 and "misaligned LDS access" in r.stderr
                          and "pc 0x" in r.stderr and "not %d-byte aligned" % need in r.stderr
                          and re.search(r"amdsim: \d+ misaligned LDS access\(es\)$", r.stderr, re.M)
                          and "waitcnt/hazard" not in r.stderr)
                    check(ok, "%s %s: aligned mode reports it (exit %d: %s)"
                          % (t, n, r.returncode, r.stderr[:400]))
                else:
                    check(r.returncode == 0, "%s %s: aligned mode accepts an aligned access "
                          "(exit %d: %s)" % (t, n, r.returncode, r.stderr[:300]))
            # the environment variable selects the mode for whole test suites
            r = run([amdsim, h, "--kernel", "b128_at8", "--grid", "1", "--block", "64",
                     "out:256:" + outb], env=dict(env, AMDSIM_ALIGNMENT_MODE="aligned"))
            check(r.returncode == 3 and "address 0x8 " in r.stderr,
                  "%s: AMDSIM_ALIGNMENT_MODE=aligned (exit %d: %s)"
                  % (t, r.returncode, r.stderr[:300]))
        r = run([amdsim, "x.hsaco", "--alignment-mode", "dword"], env=env)
        check(r.returncode == 2 and "bad alignment mode 'dword'" in r.stderr,
              "an unknown mode is refused by name (exit %d: %s)" % (r.returncode, r.stderr))
    finish()


main()
