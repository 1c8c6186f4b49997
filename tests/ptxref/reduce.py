#!/usr/bin/env python3
"""Shrinks a failing fuzz program (fuzz.py --out DIR/seedN_TARGET) while ptxas-amd + amdsim
still disagree with the reference interpreter.  Every candidate must stay valid: the
interpreter runs it in strict mode (no undefined behaviour), and removed instructions that
define a register are replaced by a move of 0 so that no register is read undefined.

Steps, repeated until nothing changes: drop stores, drop branches (both paths then run in
sequence: still valid), replace instructions by `mov dst, 0`, drop unused declarations.

usage: reduce.py DIR/seedN_TARGET [--ptxas-amd P] [--amdsim P]   (writes reduced.ptx there)
"""

import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import interp  # noqa: E402

SENTINEL = 0xDEADBEEF
WAVE64 = ('gfx90a', 'gfx942')


def parse_readme(d):
    text = open(os.path.join(d, 'README')).read()
    m = re.search(r'seed (\d+) target (\S+):', text)
    p = re.search(r'params u0=(\d+) u1=(\d+), warp ops: (\w+), maxrregcount: (\w+)', text)
    return {'target': m.group(2), 'u': (int(p.group(1)), int(p.group(2))),
            'warp': p.group(3) == 'True',
            'maxrreg': None if p.group(4) == 'None' else int(p.group(4)),
            'threads': int(re.search(r'block (\d+)', text).group(1))}


def outcome(text, meta, words, args, work):
    """True when the program is valid and amdsim disagrees with the interpreter."""
    n_in = len(words)
    nout = 128
    try:
        ck = interp.compile_ptx(text, 'fuzz', strict=True)
        inp = bytearray(struct.pack('<%dI' % n_in, *words))
        out = bytearray(struct.pack('<I', SENTINEL) * (meta['threads'] * nout))
        interp.run(ck, meta['threads'], [inp, out], list(meta['u']), max_steps=200000)
    except Exception:  # noqa: BLE001 -- an invalid candidate
        return False
    src, hs = os.path.join(work, 'r.ptx'), os.path.join(work, 'r.hsaco')
    with open(src, 'w') as f:
        f.write(text)
    cmd = [args.ptxas_amd, '--gpu-name', meta['target']]
    if meta['target'] in WAVE64:  # the interpreter models 32-lane warps
        cmd += ['--warp-size', '32']
    if meta['maxrreg']:
        cmd += ['--maxrregcount', str(meta['maxrreg'])]
    if subprocess.run(cmd + [src, '-o', hs], capture_output=True).returncode:
        return False
    fin, fs, fo = (os.path.join(work, x) for x in ('in', 'sent', 'out'))
    with open(fin, 'wb') as f:
        f.write(inp)
    with open(fs, 'wb') as f:
        f.write(struct.pack('<I', SENTINEL) * (meta['threads'] * nout))
    r = subprocess.run([args.amdsim, hs, '--kernel', 'fuzz', '--grid', '1', '--block',
                        str(meta['threads']), 'in:' + fin, 'inout:%s:%s' % (fs, fo),
                        'u32:%d' % meta['u'][0], 'u32:%d' % meta['u'][1]], capture_output=True)
    if r.returncode != 0:  # a fault where the interpreter runs cleanly (not a launch error)
        return b'argument' not in r.stderr
    return open(fo, 'rb').read() != bytes(out)


_DEST = re.compile(r'^\t(?:@!?%\w+ )?([a-z][\w.]*) (%\w+)(?:\|%\w+)?,')


def zero_of(line):
    """`mov dst, 0` for an instruction with one register destination, else None."""
    m = _DEST.match(line)
    if not m or m.group(1).startswith(('st.', 'bra', 'call', 'bar')):
        return None
    op, dst = m.group(1), m.group(2)
    # lane-varying replacements (the first input word): a constant would be uniform and
    # could trigger other bugs than the one being reduced
    if dst.startswith('%p'):
        return '\tsetp.eq.u32 %s, %%r1, 0x12345678;' % dst
    if dst.startswith('%rd'):
        return '\tcvt.u64.u32 %s, %%r1;' % dst
    return '\tmov.b32 %s, %%r1;' % dst


PROTECTED = ('ld.global.b32 %r1,', '%rdin', '%rdout', '%pin', '%pout', '%rdtmp', 'ld.param.u64', 'ld.param.u32 %u',
             '%rtid, %tid')


def candidates(lines, i):
    """Simpler versions of line i (the kernel's prologue stays: amdsim needs its pointers)."""
    s = lines[i]
    if any(x in s for x in PROTECTED) and not s.startswith('\tst.global'):
        return
    if s.startswith('\tst.') or re.match(r'^\t(@!?%\w+ )?bra ', s) or \
            s.startswith('\tbar.sync'):
        yield None
    z = zero_of(s)
    if z and z != s:
        yield z


def reduce_text(text, meta, words, args, work):
    lines = text.split('\n')
    changed = True
    while changed:
        changed = False
        start = next(i for i, s in enumerate(lines) if s.startswith('.visible'))
        for i in range(len(lines) - 1, -1, -1):
            if i < start and not lines[i].startswith('\t'):
                continue
            for c in candidates(lines, i):
                trial = lines[:i] + ([] if c is None else [c]) + lines[i + 1:]
                if outcome('\n'.join(trial), meta, words, args, work):
                    lines = trial
                    changed = True
                    break
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir')
    ap.add_argument('--ptxas-amd', default='build/src/driver/ptxas-amd')
    ap.add_argument('--amdsim', default='build/src/sim/amdsim')
    args = ap.parse_args()
    meta = parse_readme(args.dir)
    text = open(os.path.join(args.dir, 'prog.ptx')).read()
    data = open(os.path.join(args.dir, 'in.bin'), 'rb').read()
    words = list(struct.unpack('<%dI' % (len(data) // 4), data))
    with tempfile.TemporaryDirectory() as work:
        if not outcome(text, meta, words, args, work):
            print('the program does not fail as given')
            return 1
        red = reduce_text(text, meta, words, args, work)
    with open(os.path.join(args.dir, 'reduced.ptx'), 'w') as f:
        f.write(red)
    print('%s: %d -> %d lines' % (args.dir, text.count('\n'), red.count('\n')))
    return 0


if __name__ == '__main__':
    sys.exit(main())
