#!/usr/bin/env python3
"""Reader, encoder and printer against clang-19's own code: tests/kernels/survey/TARGET.txt
lists every mnemonic clang-19 -O3 emitted for the kernel suite with example instructions as
llvm-objdump-19 printed them and their encodings.  Each example is read by our reader,
encoded, and must give the recorded encoding, and our printer must spell it as objdump did.
Examples of mnemonics the table does not have yet are counted and listed; any wrong
encoding or spelling fails.  usage: test_survey.py ASM_READ"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SURVEY = os.path.join(HERE, "..", "kernels", "survey")
TARGETS = ["gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"]


def main():
    failed = False
    for t in TARGETS:
        path = os.path.join(SURVEY, t + ".txt")
        if not os.path.exists(path):
            print("%s: no survey file" % t)
            continue
        ex = []
        for ln in open(path):
            m = re.match(r"    (.*?) ; ([0-9A-F ]+) \[", ln)
            if m:
                ex.append((m.group(1).strip(), m.group(2).split()))
        out = subprocess.run([sys.argv[1], "--lines", t], input="\n".join(e[0] for e in ex) + "\n",
                             capture_output=True, text=True, check=True).stdout.splitlines()
        ok, missing, bad = 0, {}, 0
        for (text, words), res in zip(ex, out):
            if res.startswith("ERR"):
                key = re.sub(r"^ERR (col \d+: )?", "", res)
                missing.setdefault(key[:70], []).append(text)
                continue
            ours, printed = res[3:].split(" | ", 1)
            w0 = int(words[0], 16)
            if len(words) == 2 and words[1] == "00000000" and (w0 & 0xff == 0xff or
                                                              w0 & 0xff00 == 0xff00):
                # a literal left 0 for a relocation (s_add_u32 s4, s4, f@rel32@lo+4)
                missing.setdefault("relocated literal (not an instruction form)", []).append(text)
                continue
            if ours.split() != words:
                print("FAIL %s: '%s' encodes to %s, clang/objdump has %s" %
                      (t, text, ours, " ".join(words)))
                bad += 1
            elif printed != text:
                print("FAIL %s: we print '%s' for objdump's '%s'" % (t, printed, text))
                bad += 1
            else:
                ok += 1
        failed |= bad > 0
        print("%-8s %d/%d survey examples exact, %d not supported yet" %
              (t, ok, len(ex), sum(len(v) for v in missing.values())))
        for why, texts in sorted(missing.items()):
            print("    %-70s e.g. %s" % (why, texts[0]))
    return 1 if failed else 0


sys.exit(main())
