#!/usr/bin/env python3
"""Bootstrap helper (not part of the build): asks llvm-mc-19's disassembler what every opcode
value of every format means on each generation, with distinct register numbers in every field so
the printed operands show each field's role and width.  Output: JSON
{gen: {format: {opcode: "disassembled text"}}} on stdout.  isa_table.py was seeded from it; rerun
it when adding a generation (see docs/ENCODING.md)."""
import json
import re
import subprocess

GENS = [("GFX9", "gfx90a"), ("GFX940", "gfx942"), ("GFX10", "gfx1030"), ("GFX11", "gfx1100"),
        ("GFX12", "gfx1200")]
FMTS = ["SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC", "VOP3", "VOP3P",
        "DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF"]
SEG = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}
NOFF = {"GFX9": 0x7F, "GFX940": 0x7F, "GFX10": 0x7D, "GFX11": 0x7C, "GFX12": 0x7C}


def words(gen, fmt, op, var):
    g9 = gen in ("GFX9", "GFX940")
    # variant var zeroes fields LLVM requires to be zero when unused
    a, d0, d1, vd = [(0 if var & (1 << i) else x) for i, x in enumerate((2, 4, 8, 12))]
    if fmt == "SOP2":
        return [(2 << 30) | (op << 23) | (6 << 16) | (4 << 8) | 2] if op < 0x60 else None
    if fmt == "SOPK":
        return [(0xB << 28) | (op << 23) | (6 << 16) | 0x10] if op < 32 else None
    if fmt == "SOP1":
        return [0xBE800000 | (6 << 16) | (op << 8) | 2]
    if fmt == "SOPC":
        return [0xBF000000 | (op << 16) | (4 << 8) | 2] if op < 0x7f else None
    if fmt == "SOPP":
        return [0xBF800000 | (op << 16) | 3] if op < 0x7f else None
    if fmt == "SMEM":
        if g9:
            return [0xC0000000 | (op << 18) | (1 << 17) | (8 << 6) | 2, 0x10]
        if gen == "GFX12":
            return [0xF4000000 | (op << 13) | (8 << 6) | 2, 0xF8000010]
        return [0xF4000000 | (op << 18) | (8 << 6) | 2, (NOFF[gen] << 25) | 0x10]
    if fmt == "VOP2":
        return [(op << 25) | (6 << 17) | (4 << 9) | 0x102] if op < 0x3F else None
    if fmt == "VOP1":
        return [0x7E000000 | (op << 9) | (6 << 17) | 0x102]
    if fmt == "VOPC":
        return [0x7C000000 | (op << 17) | (4 << 9) | 0x102]
    src3 = 0x102 | ((0x104 if not var & 2 else 0) << 9) | ((0x108 if not var & 4 else 0) << 18)
    if fmt == "VOP3":
        return [(0xD0000000 if g9 else 0xD4000000) | (op << 16) | 12, src3]
    if fmt == "VOP3P":
        if op >= 128:
            return None
        return [(0xD3800000 if g9 else 0xCC000000) | (op << 16) | (1 << 14) | 12, src3 | (3 << 27)]
    if fmt == "DS":
        return [0xD8000000 | (op << (17 if g9 else 18)), a | (d0 << 8) | (d1 << 16) | (vd << 24)]
    if fmt in SEG:
        if op >= (256 if gen == "GFX12" else 128):
            return None
        seg = SEG[fmt]
        if gen == "GFX12":
            return [0xEC000000 | (seg << 24) | (op << 14) | 0x7C, (d0 << 23) | vd, 2]
        sh = 16 if gen == "GFX11" else 14
        noff = 0 if g9 and fmt == "FLAT" else NOFF[gen]
        return [0xDC000000 | (op << 18) | (seg << sh), 2 | (d0 << 8) | (noff << 16) | (vd << 24)]
    if fmt == "MUBUF":
        if gen == "GFX12":
            return [0xC4000000 | (op << 14) | 3, (1 << 30) | (1 << 23) | (4 << 9) | 12, 2]
        if op >= (256 if gen != "GFX9" and gen != "GFX940" else 128):
            return None
        if gen == "GFX11":
            return [0xE0000000 | (op << 18), 2 | (12 << 8) | (1 << 16) | (3 << 24) | (1 << 22)]
        return [0xE0000000 | (op << 18) | (1 << 12), 2 | (12 << 8) | (1 << 16) | (3 << 24)]
    return None


def disasm(cpu, entries):
    lines = []
    for _, _, ws in entries:
        b = []
        for w in ws + [0xBF800000]:
            b += [w & 255, (w >> 8) & 255, (w >> 16) & 255, w >> 24]
        lines.append(",".join("0x%02x" % x for x in b))
    out = subprocess.run(["llvm-mc-19", "-disassemble", "-show-encoding",
                          "-triple=amdgcn-amd-amdhsa", "-mcpu=" + cpu],
                         input="\n".join(lines) + "\n", capture_output=True, text=True).stdout
    res = []
    for ln in out.splitlines():
        m = re.match(r"\s*(.*?)\s*; encoding: \[(.*)\]", ln)
        if m:
            res.append((m.group(1), [int(x, 16) for x in m.group(2).split(",")]))
    return res


def main():
    result = {}
    for gen, cpu in GENS:
        result[gen] = {}
        for fmt in FMTS:
            got = {}
            for var in range(16):
                entries = [(fmt, op, words(gen, fmt, op, var)) for op in
                           range(1024 if fmt == "VOP3" else 256) if op not in got]
                entries = [e for e in entries if e[2]]
                if entries:
                    scan_variant(cpu, fmt, entries, got)
            result[gen][fmt] = got
    print(json.dumps(result, indent=0, sort_keys=True))


def scan_variant(cpu, fmt, entries, got):
    if True:
        if True:
            outs = disasm(cpu, entries)
            # match each output to an entry by its leading word
            first = {}
            for txt, bs in outs:
                w0 = bs[0] | bs[1] << 8 | bs[2] << 16 | bs[3] << 24
                first.setdefault(w0, []).append((txt, len(bs)))
            for _, op, ws in entries:
                for txt, n in first.get(ws[0], []):
                    if n >= 4 * len(ws) and not (txt.startswith("s_nop") and fmt != "SOPP") \
                            and "Invalid" not in txt:
                        got[op] = txt
                        break


main()
