#!/usr/bin/env python3
"""suld.b and sust.b on surface objects, txq/suq and tex.{1d,2d}.v4.f32.f32 (docs/TEXTURES.md),
against CPU references written here
from the PTX ISA: "suld.b performs an unformatted load of binary data.  The lowest dimension
coordinate represents a byte offset into the surface and is not scaled, and the size of the data
transfer matches the size of destination operand d" (sust.b the same with its source), and the
clamp modes: .trap traps on an out-of-range coordinate, .clamp uses the nearest element, .zero
reads zero and drops the store.  Generated kernels over every vector size and element width whose
access is 4, 8 or 16 bytes, .1d and .2d, every mode, with coordinates one element past both ends
(surfaces built by amdsim's image: argument, HIP's descriptor block, with texels of the access
size: r32ui/r32f, rg32f, rgba32ui/rgba32f; suld also .b8 on r8ui and 4 bytes on rgba8ui, whose
8-bit integer channels hold the raw bytes).  They run in amdsim; a trap
must end the launch (exit status 4, "kernel trap"): an out-of-range .trap access, a surface whose
texels are not the access size (or not 32-bit channels) and a byte x that is not a multiple of
the access size; a guarded (@p) suld leaves the other lanes' registers alone.  They run on
gfx90a, gfx1030, gfx1100 and gfx1200; gfx942 (no image instructions) must reject them by name.
A handle that differs between threads runs through a waterfall loop (run_waterfall, wave32 and
wave64; gfx90a wave64 only).  The queries and tex: see run_queries and run_textures.
usage: run_surf.py PTXAS_AMD AMDSIM"""
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

RUN = ['gfx90a', 'gfx1030', 'gfx1100', 'gfx1200']
REJECT = {'gfx942': 'no image instructions'}
W, H = 5, 3
FORMAT = {4: ['r32ui', 'r32f'], 8: ['rg32f'], 16: ['rgba32ui', 'rgba32f']}
# suld also reads 8-bit integer channels: one (r8ui) or four (rgba8ui) bytes
LOAD_FORMAT = {1: ['r8ui'], 4: ['r32ui', 'r32f', 'rgba8ui', 'rgba8ui'], 8: ['rg32f'],
               16: ['rgba32ui', 'rgba32f']}
BITS_TYPE = {8: 'b16', 16: 'b16', 32: 'b32', 64: 'b64'}


def shapes(op):
    for nelem in (1, 2, 4):
        for bits in (8, 16, 32, 64):
            if nelem * bits // 8 in ((1, 4, 8, 16) if op == 'suld' else (4, 8, 16)):
                yield nelem, bits


def vec(nelem):
    return '' if nelem == 1 else '.v%d' % nelem


def coord_code(op, mode, is_2d):
    """PTX computing the element coordinates %xe, %ye of thread (%tx, %ty): loads cover one
    element past both ends (block W+2 x H+2); stores write every element once (block W x H),
    the out-of-range ones clamped onto an element no other thread writes (x = -1 -> 0, y = H ->
    H-1), or in range only for .trap."""
    if mode == 'trap':
        return ['mov.u32 %xe, %tx;', 'mov.u32 %ye, %ty;']
    if op == 'suld':
        return ['sub.s32 %xe, %tx, 1;', 'sub.s32 %ye, %ty, 1;']
    return ['add.s32 %xe, %tx, 1;', 'setp.eq.u32 %p1, %tx, {};'.format(W - 1),
            'selp.b32 %xe, -1, %xe, %p1;', 'sub.s32 %ye, %ty, 1;',
            'setp.eq.u32 %p1, %ty, 0;', 'selp.b32 %ye, {}, %ye, %p1;'.format(H)]


def kernel(op, is_2d, nelem, bits, mode, xscale):
    """One kernel: k(surf, buf, w) with buf the output (suld) or the values (sust), one u64
    slot per element of each thread (thread n = ty * w + tx)."""
    ty = BITS_TYPE[bits]
    regs = ', '.join('%%e%d' % e for e in range(nelem))
    geom = '2d' if is_2d else '1d'
    c = '{%xb, %ye}' if is_2d else '{%xb}'
    body = coord_code(op, mode, is_2d)
    body += ['mul.lo.s32 %%xb, %%xe, %d;' % xscale]
    body += ['mad.lo.u32 %n, %ty, %w, %tx;', 'mul.lo.u32 %n, %n, {};'.format(nelem),
             'mul.wide.u32 %off, %n, 8;', 'add.u64 %a, %buf, %off;']
    mn = '' if mode == 'trap' else '.' + mode
    if op == 'suld':
        body.append('suld.b.%s%s.%s.%s {%s}, [%%surf, %s];' % (geom, vec(nelem), 'b%d' % bits,
                                                              mn[1:] or 'trap', regs, c))
        for e in range(nelem):
            cv = 'mov.b64 %%q, %%e%d;' % e if bits == 64 else \
                 'cvt.u64.u%d %%q, %%e%d;' % (16 if bits <= 16 else 32, e)
            body += [cv, 'st.global.u64 [%%a+%d], %%q;' % (8 * e)]
    else:
        for e in range(nelem):
            body.append('ld.global.u64 %%q, [%%a+%d];' % (8 * e))
            body.append('mov.b64 %%e%d, %%q;' % e if bits == 64 else
                        'cvt.u%d.u64 %%e%d, %%q;' % (16 if bits <= 16 else 32, e))
        body.append('sust.b.%s%s.%s.%s [%%surf, %s], {%s};' % (geom, vec(nelem), 'b%d' % bits,
                                                              mn[1:] or 'trap', c, regs))
    decl = ['.reg .%s %%e<%d>;' % (ty, nelem), '.reg .b64 %surf, %buf, %off, %a, %q;',
            '.reg .b32 %tx, %ty, %w, %xe, %ye, %xb, %n;', '.reg .pred %p1;',
            'ld.param.u64 %surf, [surf];', 'ld.param.u64 %buf, [buf];',
            'ld.param.u32 %w, [w];', 'mov.u32 %tx, %tid.x;', 'mov.u32 %ty, %tid.y;']
    return ('.version 7.8\n.target sm_80\n.address_size 64\n'
            '.visible .entry k(.param .u64 surf, .param .u64 buf, .param .u32 w)\n{\n\t' +
            '\n\t'.join(decl + body + ['ret;']) + '\n}\n')


def elem_of(texel, e, bits):
    return int.from_bytes(texel[e * bits // 8:(e + 1) * bits // 8], 'little')


def load_ref(img, is_2d, nelem, bits, mode, bw, bh):
    size = nelem * bits // 8
    out = []
    for ty in range(bh):
        for tx in range(bw):
            xe, ye = (tx, ty) if mode == 'trap' else (tx - 1, ty - 1)
            if not is_2d:
                ye = 0
            inside = 0 <= xe < W and 0 <= ye < (H if is_2d else 1)
            if mode == 'clamp':
                xe, ye = min(max(xe, 0), W - 1), min(max(ye, 0), (H if is_2d else 1) - 1)
            if not inside and mode == 'zero':
                out += [0] * nelem
                continue
            off = (ye * W + xe) * size
            out += [elem_of(img[off:off + size], e, bits) for e in range(nelem)]
    return out


def store_ref(img, vals, is_2d, nelem, bits, mode, bw, bh):
    size = nelem * bits // 8
    img = bytearray(img)
    for ty in range(bh):
        for tx in range(bw):
            if mode == 'trap':
                xe, ye = tx, ty
            else:
                xe = -1 if tx == W - 1 else tx + 1
                ye = H if ty == 0 else ty - 1
            if not is_2d:
                ye = 0
            hh = H if is_2d else 1
            if mode == 'clamp':
                xe, ye = min(max(xe, 0), W - 1), min(max(ye, 0), hh - 1)
            elif not (0 <= xe < W and 0 <= ye < hh):
                continue
            n = ty * bw + tx
            data = b''.join((vals[n * nelem + e] & ((1 << bits) - 1)).to_bytes(bits // 8, 'little')
                            for e in range(nelem))
            off = (ye * W + xe) * size
            img[off:off + size] = data
    return bytes(img)


def compile_ptx(exe, tmp, target, src):
    ptx = os.path.join(tmp, 'k.ptx')
    with open(ptx, 'w') as f:
        f.write(src)
    hsaco = os.path.join(tmp, 'k.%s.hsaco' % target)
    r = subprocess.run([exe, '--gpu-name', target, ptx, '-o', hsaco], capture_output=True,
                       text=True, timeout=120)
    return hsaco, r


def rejected_by_name(exe, tmp, target, src, text, what):
    """The problems (none or one) of a form that must be rejected with `text` in the
    diagnostic: compiling src for target must fail and say it."""
    _, r = compile_ptx(exe, tmp, target, src)
    if r.returncode == 0 or text not in r.stderr:
        return ['%s: expected the rejection by name: %s' % (what, r.stderr[:300])]
    return []


def launch(sim, hsaco, tmp, fmt, is_2d, bw, bh, buf, nslots, store):
    img, out, outimg = (os.path.join(tmp, n) for n in ('img.bin', 'out.bin', 'outimg.bin'))
    spec = 'image:%s:%s:%s' % (fmt, '%dx%d' % (W, H) if is_2d else '%d' % W, img)
    for p in (out, outimg):
        if os.path.exists(p):
            os.remove(p)
    args = [sim, hsaco, '--kernel', 'k', '--grid', '1', '--block', '%d,%d' % (bw, bh)]
    if store:
        with open(out, 'wb') as f:
            f.write(struct.pack('<%dQ' % len(buf), *buf))
        args += [spec + ':' + outimg, 'in:' + out]
    else:
        args += [spec, 'out:%d:%s' % (8 * nslots, out)]
    args.append('u32:%d' % bw)
    r = subprocess.run(args, capture_output=True, text=True, timeout=120)
    res = outimg if store else out
    data = open(res, 'rb').read() if os.path.exists(res) else None
    return r, data


def run_case(exe, sim, tmp, target, rng, op, is_2d, nelem, bits, mode, fmt=None):
    size = nelem * bits // 8
    tag = '%s %s.%s%s.b%d.%s' % (target, op, '2d' if is_2d else '1d', vec(nelem), bits, mode)
    hsaco, r = compile_ptx(exe, tmp, target, kernel(op, is_2d, nelem, bits, mode, size))
    if r.returncode:
        return ['%s: ptxas-amd failed: %s' % (tag, r.stderr.strip()[:300])]
    fmt = fmt or rng.choice((LOAD_FORMAT if op == 'suld' else FORMAT)[size])
    texels = W * (H if is_2d else 1)
    img = bytes(rng.getrandbits(8) for _ in range(texels * size))
    with open(os.path.join(tmp, 'img.bin'), 'wb') as f:
        f.write(img)
    grow = 0 if mode == 'trap' else (2 if op == 'suld' else 0)
    bw, bh = W + grow, (H if is_2d else 1) + (grow if is_2d else 0)
    if op == 'suld':
        r, data = launch(sim, hsaco, tmp, fmt, is_2d, bw, bh, None, bw * bh * nelem, False)
        want = load_ref(img, is_2d, nelem, bits, mode, bw, bh)
        got = list(struct.unpack('<%dQ' % (len(data) // 8), data)) if data else None
    else:
        vals = [rng.getrandbits(64) for _ in range(bw * bh * nelem)]
        r, got = launch(sim, hsaco, tmp, fmt, is_2d, bw, bh, vals, 0, True)
        want = store_ref(img, vals, is_2d, nelem, bits, mode, bw, bh)
    if r.returncode or got != want:
        return ['%s (%s): exit %d, got %r, expected %r; %s' % (
            tag, fmt, r.returncode, got and got[:8], want[:8], r.stderr.strip()[:300])]
    return []


def run_traps(exe, sim, tmp, target):
    """Launches that must trap: .trap one element past the end, a texel size other than the
    access size, a byte x that is not a multiple of it."""
    errs = []
    texel = {'r32ui': 4, 'rgba32ui': 16, 'rgba8ui': 4, 'rgba8': 4}
    cases = [('past the end', kernel('suld', True, 1, 32, 'trap', 4).replace(
                  'mov.u32 %xe, %tx;', 'add.u32 %xe, %tx, 1;'), 'r32ui'),
             ('texel of another size', kernel('suld', True, 1, 32, 'zero', 4), 'rgba32ui'),
             ('8-bit channels', kernel('sust', True, 4, 8, 'zero', 4), 'rgba8ui'),
             ('unorm 8-bit channels', kernel('suld', True, 1, 32, 'zero', 4), 'rgba8'),
             ('misaligned x', kernel('suld', True, 1, 32, 'clamp', 2), 'r32ui')]
    for what, src, fmt in cases:
        with open(os.path.join(tmp, 'img.bin'), 'wb') as f:
            f.write(bytes(texel[fmt] * W * H))
        hsaco, r = compile_ptx(exe, tmp, target, src)
        if r.returncode:
            errs.append('%s trap (%s): ptxas-amd failed: %s' % (target, what, r.stderr[:300]))
            continue
        r, _ = launch(sim, hsaco, tmp, fmt, True, W, H, [0] * (W * H * 4), W * H, 'sust' in src)
        if r.returncode != 4 or 'kernel trap' not in r.stderr:
            errs.append('%s: %s: exit %d, expected the trap (4): %s' % (
                target, what, r.returncode, r.stderr.strip()[:300]))
    return errs


def run_guarded(exe, sim, tmp, target):
    """@p suld: the lanes without p keep their old value (and do not trap)."""
    src = kernel('suld', False, 1, 32, 'trap', 4).replace(
        'suld.b.', 'mov.b32 %e0, 77;\n\tand.b32 %ye, %tx, 1;\n\tsetp.eq.u32 %p1, %ye, 1;'
        '\n\t@%p1 suld.b.')
    hsaco, r = compile_ptx(exe, tmp, target, src)
    if r.returncode:
        return ['%s guarded suld: ptxas-amd failed: %s' % (target, r.stderr[:300])]
    img = bytes(range(4 * W))
    with open(os.path.join(tmp, 'img.bin'), 'wb') as f:
        f.write(img)
    r, data = launch(sim, hsaco, tmp, 'r32ui', False, W, 1, None, W, False)
    want = [elem_of(img[4 * x:4 * x + 4], 0, 32) if x % 2 else 77 for x in range(W)]
    got = list(struct.unpack('<%dQ' % W, data)) if data else None
    if r.returncode or got != want:
        return ['%s guarded suld: exit %d, got %r, expected %r; %s' % (
            target, r.returncode, got, want, r.stderr.strip()[:300])]
    return []


def run_waterfall(exe, sim, tmp, target, wave):
    """tests/exec/ptx/surf_waterfall.ptx: thread t uses surface a (4x2) when even, b (4x3) when
    odd, at element (t >> 1, t & 1): suld.b.2d.b32.clamp, suq.height, then sust.b.2d.b32.zero
    of the value + 1000 at the same place (x >= 4 dropped)."""
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ptx',
                            'surf_waterfall.ptx')).read()
    ptx = os.path.join(tmp, 'wf.ptx')
    with open(ptx, 'w') as f:
        f.write(src)
    hsaco = os.path.join(tmp, 'wf.hsaco')
    r = subprocess.run([exe, '--gpu-name', target, '--wavefront-size', str(wave), ptx, '-o',
                        hsaco], capture_output=True, text=True, timeout=120)
    tag = '%s wave%d waterfall' % (target, wave)
    if r.returncode:
        return ['%s: ptxas-amd failed: %s' % (tag, r.stderr[:300])]
    a, b = [0xa00 + i for i in range(8)], [0xb00 + i for i in range(12)]
    files = {}
    for name, words in (('a', a), ('b', b)):
        files[name] = os.path.join(tmp, 'wf_%s.bin' % name)
        with open(files[name], 'wb') as f:
            f.write(struct.pack('<%dI' % len(words), *words))
    out = os.path.join(tmp, 'wf_out.bin')
    r = subprocess.run([sim, hsaco, '--kernel', 'wf', '--grid', '1', '--block', '16',
                        'image:r32ui:4x2:%s:%s.out' % (files['a'], files['a']),
                        'image:r32ui:4x3:%s:%s.out' % (files['b'], files['b']),
                        'out:128:' + out], capture_output=True, text=True, timeout=120)
    if r.returncode:
        return ['%s: exit %d: %s' % (tag, r.returncode, r.stderr.strip()[:300])]
    want, wa, wb = [], list(a), list(b)
    for t in range(16):
        img, new, h = (a, wa, 2) if t % 2 == 0 else (b, wb, 3)
        x, y = t >> 1, t & 1
        v = img[y * 4 + min(x, 3)]
        want += [v, h]
        if x < 4:
            new[y * 4 + x] = v + 1000
    got = list(struct.unpack('<32I', open(out, 'rb').read()))
    ga = list(struct.unpack('<8I', open(files['a'] + '.out', 'rb').read()))
    gb = list(struct.unpack('<12I', open(files['b'] + '.out', 'rb').read()))
    if (got, ga, gb) != (want, wa, wb):
        return ['%s: got %r %r %r, expected %r %r %r' % (tag, got, ga, gb, want, wa, wb)]
    return []


# HSA's channel type and order numbers (hsa_ext_image_channel_type_t / _order_t, the HSA
# runtime specification), what txq/suq .channel_data_type/.channel_order return
HSA = {'r32ui': (13, 1), 'r32i': (10, 1), 'r32f': (15, 1), 'rg32f': (15, 3), 'rgba32f': (15, 8),
       'rgba32ui': (13, 8), 'r8': (2, 1), 'r8ui': (11, 1), 'rgba8': (2, 8), 'rgba8ui': (11, 8)}
TEXEL = {'r32ui': 4, 'r32i': 4, 'r32f': 4, 'rg32f': 8, 'rgba32f': 16, 'rgba32ui': 16, 'r8': 1,
         'r8ui': 1, 'rgba8': 4, 'rgba8ui': 4}


def query_kernel(queries):
    body = ['ld.param.u64 %h, [h];', 'ld.param.u64 %o, [o];']
    for i, (op, q) in enumerate(queries):
        body.append('%s.%s.b32 %%r%d, [%%h];' % (op, q, i))
        body.append('st.global.u32 [%%o+%d], %%r%d;' % (4 * i, i))
    return ('.version 7.8\n.target sm_80\n.address_size 64\n'
            '.visible .entry q(.param .u64 h, .param .u64 o)\n{\n\t.reg .b32 %%r<%d>;\n'
            '\t.reg .b64 %%h, %%o;\n\t%s\n\tret;\n}\n' % (len(queries), '\n\t'.join(body)))


def run_queries(exe, sim, tmp, target, rng):
    """suq/txq .width, .height (0 for a 1D image, CUDA's extent of a 1D array),
    .channel_data_type and .channel_order of image arguments in amdsim."""
    errs = []
    qs = [('suq', 'width'), ('suq', 'height'), ('suq', 'channel_data_type'),
          ('suq', 'channel_order'), ('txq', 'width'), ('txq', 'height'),
          ('txq', 'channel_data_type'), ('txq', 'channel_order')]
    hsaco, r = compile_ptx(exe, tmp, target, query_kernel(qs))
    if r.returncode:
        return ['%s queries: ptxas-amd failed: %s' % (target, r.stderr[:300])]
    for fmt in sorted(HSA):
        w, h = rng.randint(1, 40), rng.choice([0, rng.randint(1, 20)])
        img, out = os.path.join(tmp, 'img.bin'), os.path.join(tmp, 'out.bin')
        with open(img, 'wb') as f:
            f.write(bytes(TEXEL[fmt] * w * max(h, 1)))
        size = '%dx%d' % (w, h) if h else '%d' % w
        r = subprocess.run([sim, hsaco, '--kernel', 'q', '--grid', '1', '--block', '1',
                            'image:%s:%s:%s' % (fmt, size, img), 'out:32:' + out],
                           capture_output=True, text=True, timeout=120)
        want = [w, h, HSA[fmt][0], HSA[fmt][1]] * 2
        got = list(struct.unpack('<8I', open(out, 'rb').read())) if r.returncode == 0 else None
        if got != want:
            errs.append('%s queries of %s %s: got %r, expected %r; %s' % (
                target, fmt, size, got, want, r.stderr.strip()[:300]))
    return errs


def run_queries_block(exe, sim, tmp, target):
    """Where amdsim builds no image argument: .width/.channel_* read a descriptor block given as
    a buffer (dwords 8-10 in HIP's layout), also from a handle per thread; .height is an error
    by name (the resource's layout
    on this generation is not read yet)."""
    qs = [('suq', 'width'), ('txq', 'channel_data_type'), ('suq', 'channel_order')]
    hsaco, r = compile_ptx(exe, tmp, target, query_kernel(qs))
    if r.returncode:
        return ['%s queries: ptxas-amd failed: %s' % (target, r.stderr[:300])]
    blk, out = os.path.join(tmp, 'blk.bin'), os.path.join(tmp, 'out.bin')
    words = [0] * 20
    words[8], words[9], words[10] = 15, 8, 1234
    with open(blk, 'wb') as f:
        f.write(struct.pack('<20I', *words))
    r = subprocess.run([sim, hsaco, '--kernel', 'q', '--grid', '1', '--block', '1',
                        'in:' + blk, 'out:12:' + out], capture_output=True, text=True,
                       timeout=120)
    got = list(struct.unpack('<3I', open(out, 'rb').read())) if r.returncode == 0 else None
    errs = [] if got == [1234, 15, 8] else ['%s queries of a block: got %r; %s' % (
        target, got, r.stderr.strip()[:300])]
    # a handle per thread (four blocks, 80 bytes apart): .width of each
    src = query_kernel([('suq', 'width')]).replace(
        'ld.param.u64 %h, [h];', 'ld.param.u64 %h, [h];\n\tcvt.u64.u32 %o, %tid.x;'
        '\n\tmad.lo.u64 %h, %o, 80, %h;').replace(
        'ld.param.u64 %o, [o];', 'ld.param.u64 %o, [o];\n\tcvt.u64.u32 %q, %tid.x;'
        '\n\tmad.lo.u64 %o, %q, 4, %o;').replace('.reg .b64 %h, %o;', '.reg .b64 %h, %o, %q;')
    hsaco, r = compile_ptx(exe, tmp, target, src)
    words = []
    for i in range(4):
        words += [0] * 10 + [100 + i] + [0] * 9
    with open(blk, 'wb') as f:
        f.write(struct.pack('<80I', *words))
    r = subprocess.run([sim, hsaco, '--kernel', 'q', '--grid', '1', '--block', '4',
                        'in:' + blk, 'out:16:' + out], capture_output=True, text=True,
                       timeout=120)
    got = list(struct.unpack('<4I', open(out, 'rb').read())) if r.returncode == 0 else None
    if got != [100, 101, 102, 103]:
        errs.append('%s suq.width of per-thread handles: got %r; %s' % (
            target, got, r.stderr.strip()[:300]))
    _, r = compile_ptx(exe, tmp, target, query_kernel([('suq', 'height')]))
    if r.returncode == 0 or REJECT[target] not in r.stderr:
        errs.append('%s suq.height: expected the rejection naming %r: %s' % (
            target, REJECT[target], r.stderr.strip()[:300]))
    return errs


def tex_kernel(is_2d, form=''):
    """t(tex, coords, out): thread n samples at its coordinates (two f32 or one) and stores the
    four channels; form 'level' adds the level of detail (the x coordinate, whatever it is),
    'grad' the derivatives ({x, y} and {y, x})."""
    n = 2 if is_2d else 1
    regs = ', '.join('%%c%d' % i for i in range(n))
    extra = {'': '', 'level': ', %c0',
             'grad': ', {%s}, {%s}' % (regs, ', '.join(reversed(regs.split(', '))))}[form]
    ld = 'ld.global.v2.f32 {%c0, %c1}, [%a];' if is_2d else 'ld.global.f32 %c0, [%a];'
    return ('.version 7.8\n.target sm_80\n.address_size 64\n'
            '.visible .entry t(.param .u64 tex, .param .u64 coords, .param .u64 out)\n{\n'
            '\t.reg .f32 %%c<2>, %%d<4>;\n\t.reg .b64 %%t, %%cs, %%o, %%a, %%off;\n'
            '\t.reg .b32 %%n;\n\tld.param.u64 %%t, [tex];\n\tld.param.u64 %%cs, [coords];\n'
            '\tld.param.u64 %%o, [out];\n\tmov.u32 %%n, %%tid.x;\n'
            '\tmul.wide.u32 %%off, %%n, %d;\n\tadd.u64 %%a, %%cs, %%off;\n\t%s\n'
            '\ttex%s.%s.v4.f32.f32 {%%d0, %%d1, %%d2, %%d3}, [%%t, {%s}]%s;\n'
            '\tmul.wide.u32 %%off, %%n, 16;\n\tadd.u64 %%a, %%o, %%off;\n'
            '\tst.global.v4.f32 [%%a], {%%d0, %%d1, %%d2, %%d3};\n\tret;\n}\n'
            % (4 * n, ld, '.' + form if form else '', '2d' if is_2d else '1d', regs, extra))


def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


def texel_rgba(fmt, data, i):
    """The four f32 channels a texel samples to (CUDA/AMD format rules: unorm8 v / 255, missing
    channels 0 and alpha 1)."""
    if fmt == 'rgba8':
        return [f32(b / 255) for b in data[4 * i:4 * i + 4]]
    n = {'r32f': 1, 'rg32f': 2, 'rgba32f': 4}[fmt]
    ch = list(struct.unpack('<%df' % n, data[4 * n * i:4 * n * (i + 1)]))
    return ch + [0.0] * (3 - n) + [1.0] * (n < 4)


def sampled_index(i, n, mode):
    """The texel an integer texel position i samples along an axis of n under an address mode
    (CUDA's wrap, clamp, mirror, border), -1 for the border colour."""
    if mode == 'wrap':
        return i % n
    if mode == 'mirror':
        r = i % (2 * n)
        return r if r < n else 2 * n - 1 - r
    if mode == 'clamp':
        return min(max(i, 0), n - 1)
    return i if 0 <= i < n else -1


BORDER = {'': [0.0] * 4, 'black': [0.0, 0.0, 0.0, 1.0], 'white': [1.0] * 4}


def run_samplers(exe, sim, tmp, target, rng):
    """The address modes, unnormalized coordinates and border colours of the sampler (S#, the
    image: argument's /OPT), on 2D rgba32f textures, texel positions up to three periods out."""
    errs = []
    hsaco, r = compile_ptx(exe, tmp, target, tex_kernel(True))
    if r.returncode:
        return ['%s tex: ptxas-amd failed: %s' % (target, r.stderr[:300])]
    cases = [(m, u, b) for m in ('wrap', 'mirror', 'clamp', 'border') for u in (False, True)
             for b in ('', 'black', 'white') if not (u and m in ('wrap', 'mirror')) and
             (m == 'border' or not b)]
    for mode, unnorm, border in cases:
        w, h = rng.randint(1, 7), rng.randint(1, 5)
        data = struct.pack('<%df' % (4 * w * h), *[rng.uniform(-9, 9) for _ in range(4 * w * h)])
        coords, want = [], []
        for _ in range(32):
            i, j = rng.randrange(-3 * w, 4 * w), rng.randrange(-3 * h, 4 * h)
            coords += [i + 0.5, j + 0.5] if unnorm else [(i + 0.5) / w, (j + 0.5) / h]
            x, y = sampled_index(i, w, mode), sampled_index(j, h, mode)
            want += BORDER[border] if x < 0 or y < 0 else texel_rgba('rgba32f', data, y * w + x)
        img, cf, out = (os.path.join(tmp, n) for n in ('img.bin', 'c.bin', 'out.bin'))
        with open(img, 'wb') as f:
            f.write(data)
        with open(cf, 'wb') as f:
            f.write(struct.pack('<64f', *coords))
        opts = '/' + mode + ('/unnorm' if unnorm else '') + ('/' + border if border else '')
        r = subprocess.run([sim, hsaco, '--kernel', 't', '--grid', '1', '--block', '32',
                            'image:rgba32f%s:%dx%d:%s' % (opts, w, h, img), 'in:' + cf,
                            'out:512:' + out], capture_output=True, text=True, timeout=120)
        got = list(struct.unpack('<128f', open(out, 'rb').read())) if r.returncode == 0 else None
        if got != want:
            errs.append('%s tex sampler %s %dx%d: got %r, expected %r; %s' % (
                target, opts, w, h, got and got[:8], want[:8], r.stderr.strip()[:300]))
    return errs


def run_textures(exe, sim, tmp, target, rng, form=''):
    """tex.{1d,2d}.v4.f32.f32 with the sampler amdsim's image: argument builds (point
    filtering, wrap, normalized coordinates): texel centres shifted by whole periods, against
    the PTX ISA's point sampling (texel floor(u * width) wrapped into the image).  form: tex.level
    or tex.grad over the same one-level textures, where every level of detail samples level 0
    (gfx90a has neither: rejected by name)."""
    errs = []
    for is_2d in (False, True):
        hsaco, r = compile_ptx(exe, tmp, target, tex_kernel(is_2d, form))
        if form and target == 'gfx90a':
            if r.returncode == 0 or 'gfx90a has no image_sample_l' not in r.stderr:
                errs.append('%s tex.%s: expected the rejection by name: %s' % (
                    target, form, r.stderr[:300]))
            continue
        if r.returncode:
            errs.append('%s tex: ptxas-amd failed: %s' % (target, r.stderr[:300]))
            continue
        for fmt in ('r32f', 'rg32f', 'rgba32f', 'rgba8'):
            w, h = rng.randint(1, 9), rng.randint(1, 6) if is_2d else 1
            size = {'r32f': 4, 'rg32f': 8, 'rgba32f': 16, 'rgba8': 4}[fmt]
            if fmt == 'rgba8':
                data = bytes(rng.getrandbits(8) for _ in range(4 * w * h))
            else:
                data = struct.pack('<%df' % (size // 4 * w * h),
                                   *[rng.uniform(-100, 100) for _ in range(size // 4 * w * h)])
            coords, want = [], []
            for _ in range(32):
                x, y = rng.randrange(w), rng.randrange(h)
                coords.append((x + 0.5) / w + rng.randint(-3, 3))
                if is_2d:
                    coords.append((y + 0.5) / h + rng.randint(-3, 3))
                want += texel_rgba(fmt, data, y * w + x)
            img, cf, out = (os.path.join(tmp, n) for n in ('img.bin', 'c.bin', 'out.bin'))
            with open(img, 'wb') as f:
                f.write(data)
            with open(cf, 'wb') as f:
                f.write(struct.pack('<%df' % len(coords), *coords))
            spec = '%dx%d' % (w, h) if is_2d else '%d' % w
            r = subprocess.run([sim, hsaco, '--kernel', 't', '--grid', '1', '--block', '32',
                                'image:%s:%s:%s' % (fmt, spec, img), 'in:' + cf,
                                'out:512:' + out], capture_output=True, text=True, timeout=120)
            got = list(struct.unpack('<128f', open(out, 'rb').read())) if r.returncode == 0 \
                else None
            if got != want:
                errs.append('%s tex.%s %s %s: got %r, expected %r; %s' % (
                    target, '2d' if is_2d else '1d', fmt, spec, got and got[:8], want[:8],
                    r.stderr.strip()[:300]))
    return errs


def fetch_kernel(rtype, ctype):
    """f(tex, out, w): thread n reads element n - 2 (ctype .s32: tex1Dfetch) or samples the
    centre of texel n, normalized by the width w (ctype .f32), and stores the four channels
    as rtype."""
    coord = ('\tsub.s32 %x, %n, 2;' if ctype == 's32' else
             '\tcvt.rn.f32.u32 %x, %n;\n\tadd.f32 %x, %x, 0f3F000000;\n'
             '\tcvt.rn.f32.u32 %y, %w;\n\tdiv.rn.f32 %x, %x, %y;')
    xty = '.b32' if ctype == 's32' else '.f32'
    return ('.version 7.8\n.target sm_80\n.address_size 64\n'
            '.visible .entry f(.param .u64 tex, .param .u64 out, .param .u32 w)\n{\n'
            '\t.reg .%s %%d<4>;\n\t.reg .b64 %%t, %%o, %%a, %%off;\n'
            '\t.reg .b32 %%n, %%w;\n\t.reg %s %%x, %%y;\n'
            '\tld.param.u64 %%t, [tex];\n\tld.param.u64 %%o, [out];\n'
            '\tld.param.u32 %%w, [w];\n\tmov.u32 %%n, %%tid.x;\n%s\n'
            '\ttex.1d.v4.%s.%s {%%d0, %%d1, %%d2, %%d3}, [%%t, {%%x}];\n'
            '\tmul.wide.u32 %%off, %%n, 16;\n\tadd.u64 %%a, %%o, %%off;\n'
            '\tst.global.v4.b32 [%%a], {%%d0, %%d1, %%d2, %%d3};\n\tret;\n}\n'
            % ('b32' if rtype != 'f32' else 'f32', xty, coord, rtype, ctype))


FETCH_FORMATS = {  # format: (channels, bytes, kind) -- the texel rules of amdsim's image:
    'r32f': (1, 4, 'f'), 'rgba32f': (4, 4, 'f'), 'rgba8': (4, 1, 'unorm'),
    'r32ui': (1, 4, 'u'), 'r32i': (1, 4, 'u'), 'r8ui': (1, 1, 'u'), 'rgba8ui': (4, 1, 'u'),
    'rg32f': (2, 4, 'f')}


def texel_words(fmt, data, i):
    """The four dwords a texel reads as (unorm8 v / 255 as f32 bits, integer and float bits
    unchanged, missing channels 0 and alpha 1 -- 1.0 for float kinds)."""
    ch, nb, kind = FETCH_FORMATS[fmt]
    one = 0x3f800000 if kind in ('f', 'unorm') else 1
    out = [0, 0, 0, one]
    for c in range(ch):
        v = int.from_bytes(data[(i * ch + c) * nb:(i * ch + c + 1) * nb], 'little')
        if kind == 'unorm':
            v = struct.unpack('<I', struct.pack('<f', v / 255.0))[0]
        out[c] = v
    return out


def run_fetch(exe, sim, tmp, target, rng):
    """tex.1d.v4.{f32,s32,u32}.s32 (tex1Dfetch) on linear-memory textures (image:FMT/linear,
    the buffer descriptor HIP's runtime builds) against the element's converted channels, and 0
    in all four for an index below 0 or at/past the width (CUDA's out-of-range fetch from
    linear memory); tex.1d.v4.{u32,s32}.f32 samples of integer textures (readMode element
    type: the texel's integers); an image (not linear) under tex1Dfetch traps."""
    errs = []
    cases = [('f32', 's32', f) for f in ('r32f', 'rgba32f', 'rgba8', 'rg32f')]
    cases += [('u32', 's32', f) for f in ('r32ui', 'r8ui', 'rgba8ui')] + [('s32', 's32', 'r32i')]
    cases += [('u32', 'f32', f) for f in ('r8ui', 'rgba8ui', 'r32ui')] + [('s32', 'f32', 'r32i')]
    for rtype, ctype, fmt in cases:
        hsaco, r = compile_ptx(exe, tmp, target, fetch_kernel(rtype, ctype))
        tag = '%s tex.1d.v4.%s.%s %s' % (target, rtype, ctype, fmt)
        if r.returncode:
            errs.append('%s: ptxas-amd failed: %s' % (tag, r.stderr[:300]))
            continue
        ch, nb, _ = FETCH_FORMATS[fmt]
        n = rng.randint(1, 20)
        data = bytes(rng.getrandbits(8) for _ in range(n * ch * nb))
        if fmt in ('r32f', 'rgba32f', 'rg32f'):
            data = struct.pack('<%df' % (n * ch), *[rng.uniform(-9, 9) for _ in range(n * ch)])
        img, out = os.path.join(tmp, 'img.bin'), os.path.join(tmp, 'out.bin')
        with open(img, 'wb') as f:
            f.write(data)
        threads = n + 4 if ctype == 's32' else n
        spec = '%s/linear' % fmt if ctype == 's32' else fmt
        r = subprocess.run([sim, hsaco, '--kernel', 'f', '--grid', '1', '--block', str(threads),
                            'image:%s:%d:%s' % (spec, n, img), 'out:%d:%s' % (16 * threads, out),
                            'u32:%d' % n], capture_output=True, text=True, timeout=120)
        want = []
        for t in range(threads):
            i = t - 2 if ctype == 's32' else t
            want += texel_words(fmt, data, i) if 0 <= i < n else [0, 0, 0, 0]
        got = list(struct.unpack('<%dI' % (4 * threads), open(out, 'rb').read())) \
            if r.returncode == 0 else None
        if got != want:
            errs.append('%s (%d): got %r, expected %r; %s' % (
                tag, n, got and got[:12], want[:12], r.stderr.strip()[:300]))
    hsaco, r = compile_ptx(exe, tmp, target, fetch_kernel('f32', 's32'))
    img = os.path.join(tmp, 'img.bin')
    with open(img, 'wb') as f:
        f.write(bytes(16))
    r = subprocess.run([sim, hsaco, '--kernel', 'f', '--grid', '1', '--block', '4',
                        'image:r32f:4:' + img, 'out:64:' + os.path.join(tmp, 'out.bin'),
                        'u32:4'], capture_output=True, text=True, timeout=120)
    if r.returncode != 4 or 'trap' not in r.stderr:
        errs.append('%s tex1Dfetch of an image: expected the trap, exit %d: %s' % (
            target, r.returncode, r.stderr[:300]))
    return errs


def gather_ref(data, w, h, u, v, comp, mode):
    """The PTX ISA's tld4 on a 2D rgba32f texture: channel comp of the four texels of the
    bilinear footprint of (u, v) (normalized), counter-clockwise from the lower left: (i0, j1),
    (i1, j1), (i1, j0), (i0, j0) with i0 = floor(u * w - 0.5), through the address mode."""
    i0, j0 = math.floor(u * w - 0.5), math.floor(v * h - 0.5)
    out = []
    for di, dj in ((0, 1), (1, 1), (1, 0), (0, 0)):
        x, y = sampled_index(i0 + di, w, mode), sampled_index(j0 + dj, h, mode)
        out.append(0.0 if x < 0 or y < 0 else texel_rgba('rgba32f', data, y * w + x)[comp])
    return out


def run_gather(exe, sim, tmp, target, rng):
    """tld4.{r,g,b,a}.2d.v4.f32.f32 (image_gather4_lz) on rgba32f textures under wrap, clamp and
    border, points a quarter texel off the centres (away from where the footprint changes),
    against gather_ref; gfx90a (no image_gather4) rejects it by name."""
    errs = []
    for comp, name in enumerate('rgba'):
        src = tex_kernel(True).replace('tex.2d.v4.f32.f32', 'tld4.%s.2d.v4.f32.f32' % name)
        hsaco, r = compile_ptx(exe, tmp, target, src)
        if target == 'gfx90a':
            if r.returncode == 0 or 'gfx90a has no image_gather4' not in r.stderr:
                errs.append('%s tld4: expected the rejection by name: %s' % (target, r.stderr[:300]))
            return errs
        if r.returncode:
            return ['%s tld4: ptxas-amd failed: %s' % (target, r.stderr[:300])]
        for mode in ('wrap', 'clamp', 'border'):
            w, h = rng.randint(1, 6), rng.randint(1, 5)
            data = struct.pack('<%df' % (4 * w * h), *[rng.uniform(-9, 9) for _ in range(4 * w * h)])
            coords, want = [], []
            for _ in range(32):
                u = (rng.randrange(-2 * w, 3 * w) + rng.choice((0.25, 0.75))) / w
                v = (rng.randrange(-2 * h, 3 * h) + rng.choice((0.25, 0.75))) / h
                coords += [u, v]
                want += gather_ref(data, w, h, u, v, comp, mode)
            img, cf, out = (os.path.join(tmp, n) for n in ('img.bin', 'c.bin', 'out.bin'))
            with open(img, 'wb') as f:
                f.write(data)
            with open(cf, 'wb') as f:
                f.write(struct.pack('<64f', *coords))
            r = subprocess.run([sim, hsaco, '--kernel', 't', '--grid', '1', '--block', '32',
                                'image:rgba32f/%s:%dx%d:%s' % (mode, w, h, img), 'in:' + cf,
                                'out:512:' + out], capture_output=True, text=True, timeout=120)
            got = list(struct.unpack('<128f', open(out, 'rb').read())) if r.returncode == 0 \
                else None
            if got != [f32(x) for x in want]:
                errs.append('%s tld4.%s %s %dx%d: got %r, expected %r; %s' % (
                    target, name, mode, w, h, got and got[:8], want[:8], r.stderr.strip()[:300]))
    return errs


def layered_kernel(geom, level=False):
    """t(tex, coords, out): thread n samples tex.3d at {x, y, z, z}, tex.a2d at {layer, x, y, y}
    or tex.a1d at {layer, x} (the layer an .s32 read from the coordinate buffer's third word)
    and stores the four channels; level: tex.level with the buffer's fourth word as the LOD."""
    if level:
        return layered_kernel(geom).replace('ld.global.s32 %l, [%a+8];', (
            'ld.global.s32 %l, [%a+8];\n\tld.global.f32 %c3, [%a+12];')).replace(
            '\ttex.' + geom, '\ttex.level.' + geom).replace('];\n\tadd.u64 %a, %o', '], %c3;'
                                                             '\n\tadd.u64 %a, %o')
    if geom == '3d':
        ld = '\tld.global.v4.f32 {%c0, %c1, %c2, %c3}, [%a];'
        opnd = '{%c0, %c1, %c2, %c2}'
    elif geom == 'a1d':
        ld = ('\tld.global.v2.f32 {%c0, %c1}, [%a];\n\tld.global.s32 %l, [%a+8];')
        opnd = '{%l, %c0}'
    else:
        ld = ('\tld.global.v2.f32 {%c0, %c1}, [%a];\n\tld.global.s32 %l, [%a+8];')
        opnd = '{%l, %c0, %c1, %c1}'
    return ('.version 7.8\n.target sm_80\n.address_size 64\n'
            '.visible .entry t(.param .u64 tex, .param .u64 coords, .param .u64 out)\n{\n'
            '\t.reg .f32 %%c<4>, %%d<4>;\n\t.reg .b64 %%t, %%cs, %%o, %%a, %%off;\n'
            '\t.reg .b32 %%n, %%l;\n\tld.param.u64 %%t, [tex];\n\tld.param.u64 %%cs, [coords];\n'
            '\tld.param.u64 %%o, [out];\n\tmov.u32 %%n, %%tid.x;\n'
            '\tmul.wide.u32 %%off, %%n, 16;\n\tadd.u64 %%a, %%cs, %%off;\n%s\n'
            '\ttex.%s.v4.f32.f32 {%%d0, %%d1, %%d2, %%d3}, [%%t, %s];\n'
            '\tadd.u64 %%a, %%o, %%off;\n'
            '\tst.global.v4.f32 [%%a], {%%d0, %%d1, %%d2, %%d3};\n\tret;\n}\n'
            % (ld, geom, opnd))


def run_layered(exe, sim, tmp, target, rng):
    """tex.3d (image_sample_lz dim 3D; gfx90a image_sample), tex.a2d (2D array: the layer
    rounded and clamped to the layers, as CUDA clamps it) and tex.a1d, and their .level forms
    (image_sample_l, not on gfx90a; one-level textures: every LOD samples level 0) on rgba32f textures, texel centres up
    to two periods out under wrap, clamp and border (3D: on all three axes), against point
    sampling from the PTX ISA (the texel floor(u * size) through the address mode)."""
    errs = []
    forms = [(g, lv) for g in ('3d', 'a2d', 'a1d') for lv in (False, True)
             if not lv or target != 'gfx90a']  # gfx90a: no image_sample_l
    for geom, level in forms:
        hsaco, r = compile_ptx(exe, tmp, target, layered_kernel(geom, level))
        if r.returncode:
            errs.append('%s tex.%s: ptxas-amd failed: %s' % (target, geom, r.stderr[:300]))
            continue
        for mode in ('wrap', 'clamp', 'border'):
            w, h, dd = rng.randint(1, 5), rng.randint(1, 4), rng.randint(1, 4)
            h = 1 if geom == 'a1d' else h
            data = struct.pack('<%df' % (4 * w * h * dd),
                               *[rng.uniform(-9, 9) for _ in range(4 * w * h * dd)])
            words, want = [], []
            for _ in range(32):
                i, j = rng.randrange(-2 * w, 3 * w), rng.randrange(-2 * h, 3 * h)
                j = 0 if geom == 'a1d' else j  # a1d has no y: its rows are the layers
                x, y = sampled_index(i, w, mode), sampled_index(j, h, mode)
                if geom == '3d':
                    k = rng.randrange(-2 * dd, 3 * dd)
                    z = sampled_index(k, dd, mode)
                    words += [struct.unpack('<I', struct.pack('<f', c))[0]
                              for c in ((i + 0.5) / w, (j + 0.5) / h, (k + 0.5) / dd,
                                        rng.uniform(-2, 5))]  # the LOD: one level here
                else:
                    layer = rng.randrange(-2, dd + 2)
                    z = min(max(layer, 0), dd - 1)
                    words += [struct.unpack('<I', struct.pack('<f', c))[0]
                              for c in ((i + 0.5) / w, (j + 0.5) / h, 0.0)]
                    words[-1:] = [layer & 0xffffffff, struct.unpack(
                        '<I', struct.pack('<f', rng.uniform(-2, 5)))[0]]
                want += BORDER[''] if x < 0 or y < 0 or z < 0 else \
                    texel_rgba('rgba32f', data, (z * h + y) * w + x)
            img, cf, out = (os.path.join(tmp, n) for n in ('img.bin', 'c.bin', 'out.bin'))
            with open(img, 'wb') as f:
                f.write(data)
            with open(cf, 'wb') as f:
                f.write(struct.pack('<128I', *words))
            spec = 'rgba32f/%s%s:%dx%dx%d' % (mode, '/array' if geom == 'a2d' else '', w, h, dd)
            if geom == 'a1d':
                spec = 'rgba32f/%s/array:%dx%d' % (mode, w, dd)
            r = subprocess.run([sim, hsaco, '--kernel', 't', '--grid', '1', '--block', '32',
                                'image:%s:%s' % (spec, img), 'in:' + cf, 'out:512:' + out],
                               capture_output=True, text=True, timeout=120)
            got = list(struct.unpack('<128f', open(out, 'rb').read())) if r.returncode == 0 \
                else None
            if got != want:
                errs.append('%s tex%s.%s %s: got %r, expected %r; %s' % (
                    target, '.level' if level else '', geom, spec, got and got[:8], want[:8], r.stderr.strip()[:300]))
    return errs


FETCH_WATERFALL = """.version 7.8
.target sm_80
.address_size 64
.visible .entry fw(.param .u64 a, .param .u64 b, .param .u64 out)
{
	.reg .b32 %n, %x, %d<4>;
	.reg .b64 %ha, %hb, %h, %o, %off;
	.reg .pred %p;
	ld.param.u64 %ha, [a];
	ld.param.u64 %hb, [b];
	ld.param.u64 %o, [out];
	mov.u32 %n, %tid.x;
	and.b32 %x, %n, 1;
	setp.eq.u32 %p, %x, 0;
	selp.b64 %h, %ha, %hb, %p;
	shr.u32 %x, %n, 1;
	tex.1d.v4.u32.s32 {%d0, %d1, %d2, %d3}, [%h, {%x}];
	mul.wide.u32 %off, %n, 16;
	add.u64 %o, %o, %off;
	st.global.v4.u32 [%o], {%d0, %d1, %d2, %d3};
	ret;
}
"""


def run_fetch_waterfall(exe, sim, tmp, target, wave):
    """tex1Dfetch with a handle per thread (linear textures a, rgba32ui of 5 elements, and b,
    r32ui of 3, on alternate threads): the waterfall loop over the two V#s; element t >> 1, 0
    past the width."""
    ptx, hsaco = os.path.join(tmp, 'fw.ptx'), os.path.join(tmp, 'fw.hsaco')
    with open(ptx, 'w') as f:
        f.write(FETCH_WATERFALL)
    r = subprocess.run([exe, '--gpu-name', target, '--wavefront-size', str(wave), ptx, '-o',
                        hsaco], capture_output=True, text=True, timeout=120)
    tag = '%s wave%d tex1Dfetch waterfall' % (target, wave)
    if r.returncode:
        return ['%s: ptxas-amd failed: %s' % (tag, r.stderr[:300])]
    a, b = [0xa00 + i for i in range(20)], [0xb00 + i for i in range(3)]
    fa, fb, out = (os.path.join(tmp, n) for n in ('fw_a.bin', 'fw_b.bin', 'fw_out.bin'))
    with open(fa, 'wb') as f:
        f.write(struct.pack('<20I', *a))
    with open(fb, 'wb') as f:
        f.write(struct.pack('<3I', *b))
    r = subprocess.run([sim, hsaco, '--kernel', 'fw', '--grid', '1', '--block', '16',
                        'image:rgba32ui/linear:5:' + fa, 'image:r32ui/linear:3:' + fb,
                        'out:256:' + out], capture_output=True, text=True, timeout=120)
    want = []
    for t in range(16):
        i = t >> 1
        if t % 2 == 0:
            want += a[4 * i:4 * i + 4] if i < 5 else [0] * 4
        else:
            want += [b[i], 0, 0, 1] if i < 3 else [0] * 4
    got = list(struct.unpack('<64I', open(out, 'rb').read())) if r.returncode == 0 else None
    if got != want:
        return ['%s: got %r, expected %r; %s' % (tag, got, want, r.stderr.strip()[:300])]
    return []


def run_guarded_tex(exe, sim, tmp, target):
    """@p tex: the lanes without p keep their values and do not sample (their coordinates sit on
    a texel edge, where amdsim would stop rather than guess)."""
    src = tex_kernel(True).replace('\ttex.2d', '\tmov.f32 %d0, 0f40000000;\n\tmov.f32 %d1, %d0;'
                                   '\n\tmov.f32 %d2, %d0;\n\tmov.f32 %d3, %d0;\n'
                                   '\tsetp.lt.u32 %p, %n, 4;\n\t@%p tex.2d').replace(
        '.reg .b32 %n;', '.reg .b32 %n;\n\t.reg .pred %p;')
    hsaco, r = compile_ptx(exe, tmp, target, src)
    if r.returncode:
        return ['%s guarded tex: ptxas-amd failed: %s' % (target, r.stderr[:300])]
    w, h = 4, 3
    data = struct.pack('<48f', *[float(i) for i in range(48)])
    xy = [(0, 0), (3, 2), (1, 1), (2, 0)]
    coords = [c for x, y in xy for c in ((x + 0.5) / w, (y + 0.5) / h)] + [0.5] * 56
    want = [c for x, y in xy for c in texel_rgba('rgba32f', data, y * w + x)] + [2.0] * 112
    img, cf, out = (os.path.join(tmp, n) for n in ('img.bin', 'c.bin', 'out.bin'))
    with open(img, 'wb') as f:
        f.write(data)
    with open(cf, 'wb') as f:
        f.write(struct.pack('<64f', *coords))
    r = subprocess.run([sim, hsaco, '--kernel', 't', '--grid', '1', '--block', '32',
                        'image:rgba32f:4x3:' + img, 'in:' + cf, 'out:512:' + out],
                       capture_output=True, text=True, timeout=120)
    got = list(struct.unpack('<128f', open(out, 'rb').read())) if r.returncode == 0 else None
    if got != want:
        return ['%s guarded tex: got %r, expected %r; %s' % (
            target, got and got[:20], want[:20], r.stderr.strip()[:300])]
    return []


def main():
    exe, sim = sys.argv[1], sys.argv[2]
    errs, n = [], 0
    rng = random.Random(19)
    with tempfile.TemporaryDirectory() as tmp:
        for target in RUN:
            for op in ('suld', 'sust'):
                for is_2d in (False, True):
                    for nelem, bits in shapes(op):
                        for mode in ('trap', 'clamp', 'zero'):
                            errs += run_case(exe, sim, tmp, target, rng, op, is_2d, nelem,
                                             bits, mode)
                            n += 1
            for nelem, bits in ((4, 8), (1, 32), (2, 16)):  # rgba8ui, whatever the draws
                errs += run_case(exe, sim, tmp, target, rng, 'suld', True, nelem, bits,
                                 'clamp', 'rgba8ui')
                n += 1
            errs += run_traps(exe, sim, tmp, target)
            errs += run_guarded(exe, sim, tmp, target)
            errs += run_queries(exe, sim, tmp, target, rng)
            for form in ('', 'level', 'grad'):
                errs += run_textures(exe, sim, tmp, target, rng, form)
            errs += run_samplers(exe, sim, tmp, target, rng)
            errs += run_guarded_tex(exe, sim, tmp, target)
            errs += run_fetch(exe, sim, tmp, target, rng)
            errs += run_gather(exe, sim, tmp, target, rng)
            errs += run_layered(exe, sim, tmp, target, rng)
            for wave in (64,) if target == 'gfx90a' else (32, 64):
                errs += run_waterfall(exe, sim, tmp, target, wave)
                errs += run_fetch_waterfall(exe, sim, tmp, target, wave)
        for target in REJECT:
            errs += run_queries_block(exe, sim, tmp, target)
        for target, why in REJECT.items():
            for op in ('suld', 'sust', 'tex'):
                src = tex_kernel(True) if op == 'tex' else kernel(op, True, 4, 32, 'zero', 16)
                _, r = compile_ptx(exe, tmp, target, src)
                if r.returncode == 0 or why not in r.stderr:
                    errs.append('%s %s: expected the rejection naming %r: %s' % (
                        target, op, why, r.stderr.strip()[:300]))
        _, r = compile_ptx(exe, tmp, 'gfx1100', kernel('suld', True, 1, 16, 'zero', 2))
        if r.returncode == 0 or 'suld.b of 2 bytes' not in r.stderr:
            errs.append('suld.b16: expected the rejection by name: %s' % r.stderr[:300])
    for e in errs:
        print(e)
    print('%d surface cases (and queries, textures) on %s, %d problems' % (
        n, ', '.join(RUN), len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
