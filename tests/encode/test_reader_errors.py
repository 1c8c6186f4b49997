#!/usr/bin/env python3
"""Reader diagnostics: each bad line must be rejected with a clang-style
file:line:col: error whose column points at the offending token (the column is computed from
the input here, not copied from our output), the other lines must still be read, and no
input may crash the reader.  usage: test_reader_errors.py ASM_READ"""
import os
import re
import subprocess
import sys
import tempfile

# (line, token the caret must point at); every line is wrong for gfx1100
CASES = [
    ("v_add_f32 v1, v2, v[3:4]", "v[3:4]"),          # width mismatch
    ("v_fooo v1, v2", "v_fooo"),                      # unknown mnemonic
    ("v_add_u32 v1, v2, v3", "v_add_u32"),            # gfx9 spelling, not on gfx1100
    ("s_mov_b32 s1, s2, s3", "s1, s2"),               # operand count: caret at the operands
    ("global_load_b32 v1, v[2:3], off offset:zz", "zz"),
    ("s_waitcnt vmcnt(99)", "vmcnt(99)"),
    ("s_branch .Lnowhere", ".Lnowhere"),
    ("v_add_f32 v1, 0x12345, 0x6789", "v_add_f32"),   # two literals (encoder)
    (".bogus_directive 1", ".bogus_directive"),
    ("s_getreg_b32 s1, hwreg(HW_REG_NOPE)", "HW_REG_NOPE"),
    ("v_dual_mov_b32 v1, v2 :: v_dual_mov_b32 v3, v4", "v_dual_mov_b32"),  # dst parity
    # relocation expressions: the forms not supported say so (NOT_SUPPORTED below)
    ("s_add_u32 s0, s0, sym@rel64", "sym@rel64"),
    ("s_add_u32 s0, s0, sym@gotpcrel", "sym@gotpcrel"),
    ("s_movk_i32 s0, sym@abs32@lo", "sym@abs32@lo"),
    ("s_add_u32 s0, s0, sym@rel32@lo+zz", "zz"),
    ("s_add_u32 s0, sym@rel32@lo+4, sym@rel32@hi+12", "sym@rel32@hi+12"),
]
NOT_SUPPORTED = ["sym@rel64", "sym@gotpcrel", "s_movk_i32", "sym@rel32@hi+12"]
GOOD = "s_endpgm"


def main():
    text = "\n".join(c[0] + "\n" + GOOD for c in CASES) + "\n" + "\0garbage\xff\n"
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bad.s")
        open(path, "w", encoding="latin-1").write(text)
        r = subprocess.run([sys.argv[1], "gfx1100", path], capture_output=True, text=True,
                           errors="replace")
        if r.returncode != 1:
            problems.append("exit status %d, want 1 (errors reported, no crash)" % r.returncode)
        errs = {}
        for m in re.finditer(r"^%s:(\d+):(\d+): error: (.*)$" % re.escape(path), r.stderr, re.M):
            errs.setdefault(int(m.group(1)), (int(m.group(2)), m.group(3)))
        for i, (line, token) in enumerate(CASES):
            lineno = 2 * i + 1
            want_col = line.index(token) + 1
            if lineno not in errs:
                problems.append("line %d '%s': no error" % (lineno, line))
            elif errs[lineno][0] != want_col:
                problems.append("line %d '%s': error at column %d, want %d (%s)" %
                                (lineno, line, errs[lineno][0], want_col, errs[lineno][1]))
            elif any(w in line for w in NOT_SUPPORTED) and \
                    "not supported" not in errs[lineno][1]:
                problems.append("line %d '%s': %s (want 'not supported')" %
                                (lineno, line, errs[lineno][1]))
            if lineno + 1 in errs:
                problems.append("line %d (%s) after a bad line was not read" % (lineno + 1, GOOD))
        if 2 * len(CASES) + 1 not in errs:
            problems.append("NUL byte in the input was not reported")
        words = r.stdout.split()
        endpgm = " ".join(words[1:]).count("00 00 b0 bf")  # s_endpgm on gfx1100
        if words[:1] != ["text"] or endpgm != len(CASES):
            problems.append("%d of the %d good lines encoded" % (endpgm, len(CASES)))
    for p in problems:
        print("FAIL", p)
    print("%d bad lines, %d problems" % (len(CASES), len(problems)))
    return 1 if problems else 0


sys.exit(main())
