#!/usr/bin/env python3
"""sured.b.{add,min,max,and,or}.{1d,2d,3d} on surface objects (docs/TEXTURES.md "Surface
reductions") in amdsim, against CPU references written here from the PTX ISA: "sured.b performs
an unformatted reduction on .u32, .s32, .b32 ... data.  The lowest dimension coordinate
represents a byte offset into the surface and is not scaled"; the operation is atomic (so
threads hitting one texel all count, in any order: the operations are commutative); .trap,
.clamp and .zero as for suld/sust (out-of-range: trap, the nearest element, no access).  32
threads each reduce a random value into a random texel (collisions wanted) of r32ui and r32i
surfaces, coordinates up to two elements outside for .clamp/.zero; a surface of floats must trap
(the .b reduction is on integer bits, which AMD's image atomics apply only to integer
channels), as must .trap outside.  sured.p the same with "the lowest dimension coordinate [a]
sample offset rather than a byte offset" and ".b32 ... interpreted as .u32 or .s32 based on the
surface sample format" (min/max signed on r32i, unsigned on r32ui).  gfx90a, gfx1030, gfx1100,
gfx1200; gfx942 rejects by name, as do the 64-bit forms.
usage: run_sured.py PTXAS_AMD AMDSIM"""
import os
import random
import struct
import subprocess
import sys
import tempfile

from run_surf import compile_ptx, rejected_by_name

RUN = ['gfx90a', 'gfx1030', 'gfx1100', 'gfx1200']
N = 32
OPS = [('add', 'u32'), ('add', 's32'), ('min', 'u32'), ('min', 's32'), ('max', 'u32'),
       ('max', 's32'), ('and', 'b32'), ('or', 'b32')]
SIZE = {'1d': (5, 1, 1), '2d': (4, 3, 1), '3d': (3, 2, 2)}


def kernel(op, ty, geom, mode, kind='b'):
    """k(surf, buf): thread n reads {x, y, z, v} (element coordinates and the value) and reduces
    (sured.b: x in bytes; sured.p: x the element)."""
    c = {'1d': '{%xb}', '2d': '{%xb, %y}', '3d': '{%xb, %y, %z, %z}'}[geom]
    return ('.version 7.8\n.target sm_80\n.address_size 64\n'
            '.visible .entry k(.param .u64 surf, .param .u64 buf)\n{\n'
            '\t.reg .b32 %x, %y, %z, %v, %xb, %n;\n\t.reg .b64 %surf, %buf, %off, %a;\n'
            '\tld.param.u64 %surf, [surf];\n\tld.param.u64 %buf, [buf];\n'
            '\tmov.u32 %n, %tid.x;\n\tmul.wide.u32 %off, %n, 16;\n\tadd.u64 %a, %buf, %off;\n'
            '\tld.global.v4.u32 {%x, %y, %z, %v}, [%a];\n\t{scale};\n'
            '\tsured.{kind}.{op}.{geom}.{ty}.{mode} [%surf, {c}], %v;\n\tret;\n}}\n'
            ).replace('{scale}', 'shl.b32 %xb, %x, 2' if kind == 'b' else 'mov.b32 %xb, %x'
                      ).replace('{kind}', kind).replace('{op}', op).replace('{geom}', geom).replace('{ty}', ty).replace(
                '{mode}', mode).replace('{c}', c).replace('}}', '}')


def apply(op, ty, old, v):
    s = (lambda u: u - (1 << 32) if u >> 31 else u) if ty == 's32' else (lambda u: u)
    if op == 'add':
        return (old + v) & 0xffffffff
    if op in ('min', 'max'):
        pick = min if op == 'min' else max
        return pick(old, v, key=s)
    return old & v if op == 'and' else old | v


def launch(sim, hsaco, tmp, fmt, geom, img, words):
    w, h, d = SIZE[geom]
    paths = [os.path.join(tmp, n) for n in ('img.bin', 'c.bin', 'out.bin')]
    if os.path.exists(paths[2]):
        os.remove(paths[2])
    with open(paths[0], 'wb') as f:
        f.write(img)
    with open(paths[1], 'wb') as f:
        f.write(struct.pack('<%dI' % len(words), *words))
    size = {'1d': '%d' % w, '2d': '%dx%d' % (w, h), '3d': '%dx%dx%d' % (w, h, d)}[geom]
    r = subprocess.run([sim, hsaco, '--kernel', 'k', '--grid', '1', '--block', str(N),
                        'image:%s:%s:%s:%s' % (fmt, size, paths[0], paths[2]), 'in:' + paths[1]],
                       capture_output=True, text=True, timeout=120)
    return r, open(paths[2], 'rb').read() if os.path.exists(paths[2]) else None


def run_case(exe, sim, tmp, rng, target, op, ty, geom, mode, kind='b', fmt=None):
    tag = '%s sured.%s.%s.%s.%s.%s' % (target, kind, op, geom, ty, mode)
    fmt = fmt or ('r32i' if ty == 's32' else 'r32ui')
    hsaco, r = compile_ptx(exe, tmp, target, kernel(op, ty, geom, mode, kind))
    if r.returncode:
        return ['%s: ptxas-amd failed: %s' % (tag, r.stderr.strip()[:300])]
    dims = SIZE[geom]
    texels = [rng.getrandbits(32) for _ in range(dims[0] * dims[1] * dims[2])]
    want, words = list(texels), []
    out = 0 if mode == 'trap' else 2
    for _ in range(N):
        used = {'1d': 1, '2d': 2, '3d': 3}[geom]  # the coordinates the geometry reads
        c = [rng.randrange(-out, n + out) if k < used else 0 for k, n in enumerate(dims)]
        v = rng.getrandbits(32)
        words += [x & 0xffffffff for x in c] + [v]
        if mode == 'zero' and not all(0 <= x < n for x, n in zip(c, dims)):
            continue
        x, y, z = (min(max(x, 0), n - 1) for x, n in zip(c, dims))
        i = (z * dims[1] + y) * dims[0] + x
        want[i] = apply(op, 's32' if fmt == 'r32i' else ty, want[i], v)
    r, data = launch(sim, hsaco, tmp, fmt, geom, struct.pack('<%dI' % len(texels), *texels),
                     words)
    got = list(struct.unpack('<%dI' % (len(data) // 4), data)) if data else None
    if r.returncode or got != want:
        return ['%s: exit %d, got %r, expected %r; %s' % (
            tag, r.returncode, got and got[:6], want[:6], r.stderr.strip()[:300])]
    return []


def run_traps(exe, sim, tmp, target):
    errs = []
    for what, src, fmt, words in (
            ('a float surface', kernel('add', 'u32', '2d', 'zero'), 'r32f', [0, 0, 0, 1] * N),
            ('.trap outside', kernel('or', 'b32', '2d', 'trap'), 'r32ui', [4, 0, 0, 1] * N)):
        hsaco, r = compile_ptx(exe, tmp, target, src)
        if r.returncode:
            errs.append('%s sured trap (%s): ptxas-amd failed: %s' % (target, what, r.stderr))
            continue
        r, _ = launch(sim, hsaco, tmp, fmt, '2d', bytes(4 * 12), words)
        if r.returncode != 4 or 'kernel trap' not in r.stderr:
            errs.append('%s sured %s: exit %d, expected the trap (4): %s' % (
                target, what, r.returncode, r.stderr.strip()[:300]))
    return errs


def main():
    exe, sim = sys.argv[1], sys.argv[2]
    errs, n = [], 0
    rng = random.Random(41)
    with tempfile.TemporaryDirectory() as tmp:
        for target in RUN:
            for op, ty in OPS:
                for geom, mode in (('2d', 'trap'), ('2d', 'clamp'), ('2d', 'zero'),
                                   (rng.choice(('1d', '3d')), rng.choice(('clamp', 'zero')))):
                    errs += run_case(exe, sim, tmp, rng, target, op, ty, geom, mode)
                    n += 1
            for op in ('add', 'min', 'max', 'and', 'or'):  # sured.p: the format's signedness
                for fmt in ('r32ui', 'r32i'):
                    errs += run_case(exe, sim, tmp, rng, target, op, 'b32',
                                     rng.choice(('1d', '2d', '3d')),
                                     rng.choice(('trap', 'clamp', 'zero')), 'p', fmt)
                    n += 1
            errs += run_traps(exe, sim, tmp, target)
        errs += rejected_by_name(exe, tmp, 'gfx942', kernel('add', 'u32', '2d', 'zero'),
                                 'no image instructions', 'gfx942 sured')
        errs += rejected_by_name(exe, tmp, 'gfx1100', kernel('add', 'u32', '2d', 'zero').replace(
            '.u32.zero', '.u64.zero').replace('%v;', '%off;'), '64-bit sured',
            'sured.b.add.u64')
        errs += rejected_by_name(exe, tmp, 'gfx1100', kernel('min', 'b32', '2d', 'zero', 'p').replace(
            '.b32.zero', '.b64.zero').replace('%v;', '%off;'), '64-bit sured',
            'sured.p.min.b64')
    for e in errs:
        print(e)
    print('%d sured cases on %s, %d problems' % (n, ', '.join(RUN), len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
