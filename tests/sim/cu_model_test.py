#!/usr/bin/env python3
"""amdsim's CU timing model (src/sim/cu_model.c) against the figures it is calibrated to.

  cu_model_test.py AMDSIM

Microbenchmarks (tests/sim/kernels/cu_bench.cl, clang-19, five targets), each measured as the
difference between N = 64 and N = 128 operations so that the launch overhead cancels:
  * VALU chains: a dependent v_fma_f32 costs the dependency latency (CDNA: 4 cycles, the
    wave64 op on SIMD16 issues back to back; RDNA: 5, LLVM's GFX10/GFX11 model and RDNA3's
    S_DELAY_ALU VALU_DEP_1..4), eight independent chains the issue rate (CDNA 4, RDNA 1);
  * load-to-use: a chain of dependent global loads costs the L2 latency (320 cycles, LLVM's
    VMEM latency) plus the address arithmetic of each step (at most 40 cycles);
  * LDS bank conflicts: the LDS pipe cycles of a ds_read of one dword per lane are
    lanes / 32 with stride 1 and the lanes themselves with stride 32 (32 banks of 4 bytes);
  * barriers: s_barrier with four waves costs the release latency (16) plus an issue cycle
    or four (16..24 cycles);
  * transcendentals (v_exp_f32): CDNA issues them on the VALU at quarter rate (16 cycles,
    dependent or not); RDNA has a trans unit: dependent 10 cycles (LLVM's GFX10/GFX11
    latency), independent 4 (quarter rate), 8 per step with two waves on each SIMD;
  * matrix: a chain of dependent MFMA (gfx90a, gfx942) or WMMA (gfx11, gfx12) 16x16x16 f16
    costs the instruction table's cycles each (gfx90a 32, gfx942 16: LLVM's 8 and 4 passes),
    one wave per SIMD as fast as one wave, two waves per SIMD twice as long (one matrix core
    per SIMD; WMMA on the VALU);
  * occupancy: a latency-bound kernel runs 4x the waves in the same time (within 10%) while
    they fit, and the kernel whose VGPRs cap occupancy at L waves/SIMD needs ceil(8 / L)
    rounds for 8 waves per SIMD (within 15%); the model's occupancy limit equals the
    "; Occupancy:" clang-19 prints for the same kernel (VGPR- and LDS-limited cases).
The CU figures do not depend on --seed (the per-wave model's latency seed).
Tolerance 10% unless said otherwise.
"""
import math
import os
import re
import struct
import sys
import tempfile

from simlib import TARGETS, build_cl, check, cl_flags, finish, run

HERE = os.path.dirname(os.path.abspath(__file__))


def build(target, n, tmp):
    src = os.path.join(HERE, "kernels", "cu_bench.cl")
    base = os.path.join(tmp, "cu-%s-%d" % (target, n))
    flags = ["-DN=%d" % n]
    if not build_cl(src, target, base, flags):
        finish()
    occ = {}
    if n == 64:  # clang-19's own occupancy figure per kernel
        asm = run(["clang-19"] + cl_flags(target) + ["-O3"] + flags + ["-S", src, "-o", "-"],
                  check=True).stdout
        kernel = None
        for line in asm.splitlines():
            m = re.match(r"^([a-z_]+):", line)
            if m:
                kernel = m.group(1)
            m = re.match(r"^\s*; Occupancy: (\d+)", line)
            if m and kernel:
                occ[kernel] = int(m.group(1))
    return base + ".hsaco", occ


def stats(amdsim, hsaco, kernel, grid, block, args):
    r = run([amdsim, hsaco, "--kernel", kernel, "--grid", str(grid), "--block", str(block),
             "--stats"] + args)
    if r.returncode != 0:
        raise RuntimeError("%s %s: exit %d %s" % (hsaco, kernel, r.returncode, r.stderr[:300]))
    out = {}
    for line in r.stdout.splitlines():
        cols = line.split()
        if len(cols) == 2:
            try:
                out[cols[0]] = float(cols[1])
            except ValueError:
                pass
    return out


def near(got, want, tol):
    return abs(got - want) <= tol * want


def one_target(amdsim, t, tmp):
    cdna = t in ("gfx90a", "gfx942")
    wave = 64 if cdna else 32
    h64, occ = build(t, 64, tmp)
    h128, _ = build(t, 128, tmp)
    idx = os.path.join(tmp, "idx.bin")
    with open(idx, "wb") as f:
        f.write(struct.pack("<64I", *range(64)))
    out = "out:%d:%s" % (1 << 20, os.path.join(tmp, "o.bin"))

    def slope(kernel, args, key="cu_cycles", grid=1, block=wave):  # per operation
        a = stats(amdsim, h64, kernel, grid, block, args)
        b = stats(amdsim, h128, kernel, grid, block, args)
        return (b[key] - a[key]) / 64.0

    dep = slope("valu_dep", [out, "f32:1.5"])
    indep = slope("valu_indep", [out, "f32:1.5"])
    want_dep, want_indep = (4, 4) if cdna else (5, 1)
    check(near(dep, want_dep, 0.1), "%s dependent v_fma_f32: %.2f cycles, want %d" %
          (t, dep, want_dep))
    check(near(indep, want_indep, 0.1), "%s independent v_fma_f32: %.2f cycles, want %d" %
          (t, indep, want_indep))
    load = slope("load_chain", ["in:" + idx, out])
    check(320 <= load <= 360, "%s load-to-use: %.1f cycles, want 320..360" % (t, load))
    lds1 = slope("lds_chain", [out, "u32:1"], "cu_busy_lds")
    lds32 = slope("lds_chain", [out, "u32:32"], "cu_busy_lds")
    check(lds1 == wave / 32 and lds32 == wave,
          "%s LDS pipe cycles per ds_read: stride 1 %.1f (want %d), stride 32 %.1f (want %d)" %
          (t, lds1, wave // 32, lds32, wave))
    c1 = slope("lds_chain", [out, "u32:1"])
    c32 = slope("lds_chain", [out, "u32:32"])
    check(near(c32 - c1, wave - wave // 32, 0.1),
          "%s bank conflicts add %.1f cycles per dependent ds_read, want %d" %
          (t, c32 - c1, wave - wave // 32))
    bar = slope("barriers", [out], block=4 * wave)
    check(16 <= bar <= 24, "%s s_barrier with 4 waves: %.1f cycles, want 16..24" % (t, bar))
    # transcendentals; gfx11's checker wants a drain between dependent transcendentals,
    # which is no part of what is measured here
    targs = [out, "f32:0.01"] + (["--no-strict"] if t == "gfx1100" else [])
    tdep = slope("trans_dep", targs)
    tind = slope("trans_indep", targs)
    tind2 = slope("trans_indep", targs, grid=2, block=4 * wave)
    want = (16, 16, 32) if cdna else (10, 4, 8)
    check(near(tdep, want[0], 0.1) and near(tind, want[1], 0.1) and near(tind2, want[2], 0.1),
          "%s v_exp_f32: dependent %.2f, independent %.2f, 2 waves/SIMD %.2f; want %s" %
          (t, tdep, tind, tind2, want))
    if t != "gfx1030":  # no matrix instructions
        margs = [out, "f32:0.01"]
        table = slope("matrix_chain", margs, "matrix_cycles")
        one = slope("matrix_chain", margs)
        four = slope("matrix_chain", margs, grid=1, block=4 * wave)
        eight = slope("matrix_chain", margs, grid=2, block=4 * wave)
        check(near(one, table, 0.1) and near(four, table, 0.1) and near(eight, 2 * table, 0.1),
              "%s matrix chain: %.1f cycles per op (table %.0f), 1 wave/SIMD %.1f, 2 waves/SIMD "
              "%.1f" % (t, one, table, four, eight))
        print("%s: matrix %.0f cycles per op (table %.0f)" % (t, one, table))
    # occupancy: one wave per workgroup, 4 SIMDs (CDNA, RDNA in WGP mode)
    base = stats(amdsim, h64, "load_chain", 4, wave, ["in:" + idx, out])
    four = stats(amdsim, h64, "load_chain", 16, wave, ["in:" + idx, out])
    check(base["cu_simds"] == 4, "%s: %d SIMDs, want 4" % (t, base["cu_simds"]))
    check(near(four["cu_cycles"], base["cu_cycles"], 0.1),
          "%s latency-bound: 4 waves/SIMD take %d cycles, 1 wave/SIMD %d (want the same)" %
          (t, four["cu_cycles"], base["cu_cycles"]))
    thin = stats(amdsim, h64, "load_chain", 32, wave, ["in:" + idx, out])
    fat = stats(amdsim, h64, "load_chain_fat", 32, wave, ["in:" + idx, out])
    lim = fat["cu_waves_per_simd_limit"]
    rounds = math.ceil(8 / lim) / math.ceil(8 / thin["cu_waves_per_simd_limit"])
    check(near(fat["cu_cycles"] / thin["cu_cycles"], rounds, 0.15),
          "%s 8 waves/SIMD with occupancy %d: %.2fx the cycles of occupancy %d, want %.2fx" %
          (t, lim, fat["cu_cycles"] / thin["cu_cycles"], thin["cu_waves_per_simd_limit"],
           rounds))
    check(fat["cu_peak_waves_per_simd"] == lim,
          "%s VGPR-limited: peak %d waves/SIMD, limit %d" % (t, fat["cu_peak_waves_per_simd"],
                                                          lim))
    seeded = stats(amdsim, h64, "load_chain", 32, wave, ["in:" + idx, out, "--seed", "7"])
    check(all(seeded[k] == v for k, v in thin.items() if k.startswith("cu_")),
          "%s: the CU figures depend on the latency seed" % t)
    big = stats(amdsim, h64, "lds_big", 8, 256, [out])
    for name, st in (("load_chain", thin), ("load_chain_fat", fat), ("lds_big", big)):
        check(st["cu_waves_per_simd_limit"] == occ.get(name),
              "%s %s: occupancy limit %d, clang-19 says %s" %
              (t, name, st["cu_waves_per_simd_limit"], occ.get(name)))
    print("%s: VALU dep %.2f indep %.2f, trans dep %.2f indep %.2f, load %.1f, LDS stride1/32 "
          "%.0f/%.0f, barrier %.1f, occupancy thin %d fat %d lds %d" % (
              t, dep, indep, tdep, tind, load, c1, c32, bar,
                                             thin["cu_waves_per_simd_limit"], lim,
                                             big["cu_waves_per_simd_limit"]))


def main():
    amdsim = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        for t in TARGETS:
            one_target(amdsim, t, tmp)
    finish()


if __name__ == "__main__":
    main()
