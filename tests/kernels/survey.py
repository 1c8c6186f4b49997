#!/usr/bin/env python3
"""Mnemonic survey: which AMDGPU instructions clang-19 emits for the kernel suite.

Compiles every kernel in src/ for gfx90a, gfx942, gfx1030, gfx1100 and gfx1200, disassembles the
code objects with llvm-objdump-19 and writes survey/<target>.txt: every distinct mnemonic with its
count and up to three example lines with distinct operand shapes (register classes and widths,
inline constants vs literals, modifiers), each with its encoding and the kernel it came from.
Both halves of a VOPD dual-issue pair (v_dual_X :: v_dual_Y) are counted.
survey/summary.txt lists each mnemonic against the five targets. The trailing s_nop/s_code_end
padding after each function is not counted.

usage: survey.py [--out DIR] [--check]   (--check: compare with the committed files, exit 1 on
difference; used to notice when a clang or kernel change makes the committed survey stale)
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
import kbuild  # noqa: E402

OBJDUMP = os.environ.get('OBJDUMP', 'llvm-objdump-19')
PADDING = {'s_nop', 's_code_end'}


def disassemble(hsaco):
    """Yields lists of (text, encoding) per function, trailing padding removed."""
    out = subprocess.run([OBJDUMP, '-d', hsaco], check=True, stdout=subprocess.PIPE,
                         text=True).stdout
    funcs, cur = [], None
    for line in out.splitlines():
        if re.match(r'^[0-9a-f]+ <.*>:$', line):
            cur = []
            funcs.append(cur)
            continue
        if cur is None or not line.startswith('\t'):
            continue
        text, _, comment = line.strip().rpartition('//')
        if not text:
            text, comment = comment, ''
        enc = comment.split(':', 1)[1].strip() if ':' in comment else ''
        enc = re.sub(r'\s*<.*>$', '', enc)
        cur.append((text.strip(), enc))
    for f in funcs:
        while f and f[-1][0].split()[0] in PADDING and f[-1][0] in ('s_nop 0', 's_code_end'):
            f.pop()
    return funcs


def operand_shape(text):
    """Abstract an instruction's operands: register numbers and immediate values dropped."""
    parts = text.split(None, 1)
    ops = parts[1] if len(parts) > 1 else ''
    ops = re.sub(r'\b([vsa]|ttmp)\[(\d+):(\d+)\]',
                 lambda m: '%s[%d]' % (m.group(1), int(m.group(3)) - int(m.group(2)) + 1), ops)
    ops = re.sub(r'\b([vsa]|ttmp)\d+\b', r'\1', ops)
    ops = re.sub(r'(quad_perm|row_\w+|wave_\w+|row_mask|bank_mask|bound_ctrl|offset\d?|'
                 r'swizzle|sel|lgkmcnt|vmcnt|expcnt|vscnt|dst_sel|src\d_sel|dst_unused|op_sel'
                 r'|op_sel_hi|neg_lo|neg_hi|instid\d|instskip|fi|dpp8|cpol|format)'
                 r'([:(])\s*(\[[^\]]*\]|\([^)]*\)|[^\s,)]+)', r'\1\2#', ops)
    ops = re.sub(r'(?<![\w#.])-?0x[0-9a-fA-F]+\b', 'LIT', ops)
    ops = re.sub(r'(?<![\w#.\[])-?\d+\.\d+(e[-+]?\d+)?\b', 'FI', ops)

    def num(m):
        v = int(m.group(0))
        return 'I' if -16 <= v <= 64 else 'LIT'
    ops = re.sub(r'(?<![\w#.\[])-?\d+\b', num, ops)
    return ops


def survey_target(target, hsacos):
    """hsacos: list of (kernel, path). Returns (counts, examples) keyed by mnemonic."""
    counts = collections.Counter()
    examples = collections.defaultdict(list)
    shapes = collections.defaultdict(set)
    for kernel, path in hsacos:
        for func in disassemble(path):
            for text, enc in func:
                # A VOPD pair (gfx11+) counts for both of its halves.
                for part in text.split(' :: '):
                    mn = part.split()[0]
                    counts[mn] += 1
                    shape = operand_shape(part)
                    if (shape not in shapes[mn] and len(examples[mn]) < 3 and
                            all(text != e[0] for e in examples[mn])):
                        shapes[mn].add(shape)
                        examples[mn].append((text, enc, kernel))
    return counts, examples


def render_target(target, counts, examples, nkernels):
    lines = ['# Mnemonic survey for %s: %d kernels from tests/kernels/src compiled by clang-19 -O3'
             % (target, nkernels),
             '# (see kbuild.py), disassembled by llvm-objdump-19. Regenerate with survey.py.',
             '# %d distinct mnemonics, %d instructions (function-end s_nop/s_code_end padding'
             % (len(counts), sum(counts.values())),
             '# not counted). Format: MNEMONIC COUNT, then up to 3 examples with distinct operand',
             '# shapes: instruction ; encoding [kernel]', '']
    for mn in sorted(counts):
        lines.append('%s %d' % (mn, counts[mn]))
        for text, enc, kernel in examples[mn]:
            lines.append('    %s ; %s [%s]' % (text, enc, kernel))
    return '\n'.join(lines) + '\n'


def render_summary(per_target):
    targets = list(per_target)
    allmn = sorted(set().union(*[set(c) for c in per_target.values()]))
    lines = ['# Instruction counts per target for the kernel suite (0 = not emitted there).',
             '# %-38s %s' % ('mnemonic', ' '.join('%8s' % t for t in targets))]
    for mn in allmn:
        lines.append('  %-38s %s' % (mn, ' '.join('%8d' % per_target[t].get(mn, 0)
                                                   for t in targets)))
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', default=os.path.join(kbuild.HERE, 'survey'))
    ap.add_argument('--check', action='store_true')
    args = ap.parse_args()
    srcs = kbuild.kernel_sources()
    files = {}
    with tempfile.TemporaryDirectory() as tmp:
        jobs = [(p, t) for _, p in srcs for t in kbuild.SURVEY_TARGETS]
        built = kbuild.compile_all(jobs, tmp)
        per_target = {}
        for t in kbuild.SURVEY_TARGETS:
            counts, examples = survey_target(t, [(k, built[(p, t)]) for k, p in srcs])
            per_target[t] = counts
            files[t + '.txt'] = render_target(t, counts, examples, len(srcs))
        files['summary.txt'] = render_summary(per_target)
    status = 0
    for name, text in sorted(files.items()):
        path = os.path.join(args.out, name)
        if args.check:
            old = open(path).read() if os.path.exists(path) else ''
            if old != text:
                print('survey: %s is stale (rerun survey.py)' % path)
                status = 1
        else:
            os.makedirs(args.out, exist_ok=True)
            with open(path, 'w') as f:
                f.write(text)
    if not args.check:
        print('survey: wrote %d files to %s' % (len(files), args.out))
    return status


if __name__ == '__main__':
    sys.exit(main())
