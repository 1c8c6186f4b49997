#!/usr/bin/env python3
"""Robustness of the PTX parser on hostile input: each case must end with exit status 0
or 1 (1 only with a diagnostic), within a timeout, never a crash or a hang.

Cases: 10^6 nested braces (in a function and at module scope), a 100 MB single line of
many small functions, a function over the parser's statement limit, a 100 MB comment line and a 100 MB identifier, truncations of a
corpus file at many points, random byte flips, binary garbage.  Inputs are generated
into a temporary folder.  Usage: stress.py PARSER CORPUS_FILE"""
import os
import random
import subprocess
import sys
import tempfile

HEADER = b'.version 8.0\n.target sm_80\n.address_size 64\n'


def run(parser, path, timeout=60, expect=None):
    try:
        p = subprocess.run([parser, path], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 'timeout after %ds' % timeout
    if p.returncode not in (0, 1):
        return 'exit status %d (crash?)\n%s' % (p.returncode, p.stderr[-2000:].decode('utf-8', 'replace'))
    if p.returncode == 1 and b'error' not in p.stderr:
        return 'exit 1 without a diagnostic'
    if expect is not None and p.returncode != expect:
        return 'exit status %d, expected %d\n%s' % (p.returncode, expect,
                                                   p.stderr[:2000].decode('utf-8', 'replace'))
    return None


def write(tmp, name, data):
    path = os.path.join(tmp, name)
    with open(path, 'wb') as f:
        if callable(data):
            data(f)
        else:
            f.write(data)
    return path


def big_line_of_functions(f):
    f.write(HEADER.replace(b'\n', b' '))
    body = (b'.visible .entry k%d(.param .u64 p) { .reg .b32 %%r<4>; .reg .b64 %%rd<3>; '
            b'ld.param.u64 %%rd1, [p]; mov.u32 %%r1, %%tid.x; add.s32 %%r2, %%r1, 0x10; '
            b'st.global.u32 [%%rd1+4], %%r2; ret; } ')
    n, size = 0, 0
    while size < 100 * 1024 * 1024:
        chunk = b''.join(body % i for i in range(n, n + 1000))
        f.write(chunk)
        size += len(chunk)
        n += 1000


def main():
    parser, corpus_file = sys.argv[1], sys.argv[2]
    with open(corpus_file, 'rb') as f:
        sample = f.read()
    rng = random.Random(1234)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        cases = [
            ('nested braces in a function', write(tmp, 'nest.ptx', HEADER +
             b'.entry k() {' + b'{' * 1000000 + b'}' * 1000000 + b'}\n'), 1),
            ('unclosed nested braces', write(tmp, 'nest2.ptx', HEADER + b'.entry k() ' +
             b'{' * 1000000), 1),
            ('braces at module scope', write(tmp, 'nest3.ptx', HEADER + b'{' * 1000000), 1),
            ('nested initializer braces', write(tmp, 'nest4.ptx', HEADER +
             b'.global .u32 x[1] = ' + b'{' * 1000000 + b'1' + b'}' * 1000000 + b';\n'), 1),
            ('100 MB line of functions', write(tmp, 'line.ptx', big_line_of_functions), 0),
            ('100 MB comment line', write(tmp, 'comment.ptx', lambda f: (
                f.write(HEADER + b'// '), f.write(b'x' * (100 << 20)), f.write(b'\n'))), 0),
            ('100 MB identifier', write(tmp, 'ident.ptx', lambda f: (
                f.write(HEADER + b'.global .u32 '), f.write(b'a' * (100 << 20)),
                f.write(b';\n'))), 1),
            ('function over the statement limit', write(tmp, 'long.ptx', HEADER +
             b'.entry k() {\n' + b'ret;\n' * (1100 * 1000) + b'}\n'), 1),
            ('huge number', write(tmp, 'num.ptx', HEADER + b'.global .u32 x = ' +
                                  b'9' * 100000 + b';\n'), 1),
            ('binary garbage', write(tmp, 'garbage.ptx',
                                     bytes(rng.randrange(256) for _ in range(1 << 20))), 1),
            ('empty file', write(tmp, 'empty.ptx', b''), 1),
        ]
        for name, path, expect in cases:
            err = run(parser, path, expect=expect)
            if err:
                failures.append('%s: %s' % (name, err))
            os.unlink(path)
        cuts = sorted(set(rng.randrange(len(sample)) for _ in range(150)))
        for cut in cuts:
            path = write(tmp, 'cut.ptx', sample[:cut])
            err = run(parser, path, timeout=20)
            if err:
                failures.append('truncated at byte %d: %s' % (cut, err))
        for i in range(150):
            data = bytearray(sample)
            for _ in range(rng.randrange(1, 20)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            path = write(tmp, 'flip.ptx', bytes(data))
            err = run(parser, path, timeout=20)
            if err:
                keep = os.path.join(tempfile.gettempdir(), 'ptx_stress_flip_%d.ptx' % i)
                with open(keep, 'wb') as f:
                    f.write(data)
                failures.append('byte flips #%d (kept as %s): %s' % (i, keep, err))
    for f in failures:
        print('FAIL', f)
    print('%d stress failures' % len(failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
