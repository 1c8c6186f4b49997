#!/usr/bin/env python3
"""Encoder/printer conformance against LLVM (the only oracle).

enc_conform prints, for every table row on every target where it exists, instances with our
printed text and our encoded bytes (or ERR when our encoder refuses).  For each target this
script runs ONE llvm-mc-19 -show-encoding over all texts and ONE llvm-mc-19 --disassemble
over all byte strings, and requires: OK lines assemble to exactly our bytes, LLVM prints them
exactly as we do, our bytes disassemble to exactly our text; ERR lines are rejected by
llvm-mc-19 too.  Every (row, target) must have at least one passing instance.
usage: conformance.py ENC_CONFORM [target...]"""
import collections
import re
import subprocess
import sys

MAX_SHOW = 25


class Problems:
    """Failures, remembered with the table row they concern."""

    def __init__(self):
        self.items = []

    def append(self, row, msg):
        self.items.append((row, msg))

    def __len__(self):
        return len(self.items)


def run_mc(cpu, lines, disassemble):
    args = ["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + cpu, "-show-encoding"]
    if disassemble:
        args.append("--disassemble")
    p = subprocess.run(args, input="\n".join(lines) + "\n", capture_output=True, text=True)
    bad = set()
    for ln in p.stderr.splitlines():
        m = re.match(r"<stdin>:(\d+):\d+: (error|warning):", ln)
        if m and (m.group(2) == "error" or "invalid instruction encoding" in ln):
            bad.add(int(m.group(1)) - 1)
    outs = []
    for ln in p.stdout.splitlines():
        m = re.match(r"\s*(.*?)\s*; encoding: \[(.*)\]", ln)
        if m:
            outs.append((m.group(1), m.group(2)))
    return bad, outs


def check_target(cpu, cases, problems):
    texts = [c[2] for c in cases]
    bad, outs = run_mc(cpu, texts, False)
    ok_rows = collections.Counter()
    passed = 0
    it = iter(outs)
    asm = {}
    for i, (row, status, text, data) in enumerate(cases):
        if i in bad:
            asm[i] = None
            continue
        asm[i] = next(it, ("<missing>", ""))
    # the disassembler reads all lines as one byte stream; walk its outputs along the stream
    # (an undecodable word is skipped with a warning) to find what decoded at each
    # instance's first byte
    dis_idx = [i for i, c in enumerate(cases) if c[1] == "OK"]
    stream, starts = [], {}
    for i in dis_idx:
        starts[len(stream)] = i
        stream += [int(x, 16) for x in cases[i][3].split(",")]
    _, douts = run_mc(cpu, [cases[i][3].replace(",", " ") for i in dis_idx], True)
    dis, pos = {}, 0
    for txt, enc in douts:
        b = [int(x, 16) for x in enc.split(",")]
        found = pos
        while found < min(len(stream), pos + 64) and stream[found:found + len(b)] != b:
            found += 1
        if stream[found:found + len(b)] != b:
            continue  # not from the stream near here: ignore, keep position
        pos = found
        if pos in starts and len(b) == len(cases[starts[pos]][3].split(",")):
            dis[starts[pos]] = txt
        pos += len(b)
    for i, (row, status, text, data) in enumerate(cases):
        if status == "ERR":
            if asm[i] is not None:
                problems.append(row, "%s: we refuse but llvm-mc accepts: %s  (ours: %s) -> %s" %
                                (cpu, text, data, asm[i][1]))
            else:
                passed += 1
            continue
        if asm[i] is None:
            problems.append(row, "%s: llvm-mc rejects our text: %s" % (cpu, text))
            continue
        got_text, got_bytes = asm[i]
        ours = data.lower()
        if got_bytes.lower() != ours:
            problems.append(row, "%s: bytes differ for '%s': llvm %s ours %s" %
                            (cpu, text, got_bytes, ours))
            continue
        if got_text != text and dis.get(i) != text:
            problems.append(row, "%s: llvm-mc prints '%s' for our '%s'" % (cpu, got_text, text))
            continue
        if dis.get(i) != text:
            problems.append(row, "%s: disassembly of %s is '%s', we print '%s'" %
                            (cpu, data, dis.get(i), text))
            continue
        ok_rows[row] += 1
        passed += 1
    return passed, ok_rows


def main():
    prog = sys.argv[1]
    out = subprocess.run([prog] + sys.argv[2:], capture_output=True, text=True, check=True).stdout
    by_target = collections.OrderedDict()
    rows = collections.defaultdict(list)
    roundtrip_fail = []
    for ln in out.splitlines():
        parts = ln.split("\t")
        if parts[2] == "ROW":
            rows[parts[0]].append(parts[1])
            continue
        if parts[2] == "RTFAIL":
            roundtrip_fail.append((parts[1], "%s: reader round trip of '%s': %s" %
                                   (parts[0], parts[3], parts[4])))
            continue
        by_target.setdefault(parts[0], []).append(tuple(parts[1:5]))
    problems = Problems()
    for row, msg in roundtrip_fail:
        problems.append(row, msg)
    total = 0
    for cpu, cases in by_target.items():
        passed, ok_rows = check_target(cpu, cases, problems)
        missing = [r for r in rows[cpu] if ok_rows[r] == 0]
        for r in missing:
            problems.append(r, "%s: row %s has no passing instance" % (cpu, r))
        print("%-8s %5d forms checked (%d instances, %d rows, %d rows uncovered)" %
              (cpu, passed, len(cases), len(rows[cpu]), len(missing)))
        total += passed
    shown = collections.Counter()
    for row, p in problems.items:
        shown[row] += 1
        if shown[row] <= 2 and "no passing instance" not in p:
            print("FAIL", p)
    print("%d forms checked, %d problems" % (total, len(problems)))
    return 1 if len(problems) else 0


sys.exit(main())
