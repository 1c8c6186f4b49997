#!/usr/bin/env python3
"""Diagnostics of calls ptxas-amd cannot compile (tests/exec/diag/calls/*.ptx): `exit` in a
recursive function (mutual recursion compiles); an indirect call no function fits; a 32-bit function address; calls to .extern functions; vararg calls; overlapping .param
accesses; a call to a function never defined; calls nested too deep or too many (generated
here; with --inline-all, real calls otherwise); and a device function nobody calls, which is not compiled.  NVIDIA ptxas's verdict is recorded in each file's first line (it accepts all
but the undefined callee), and each rejection must be exact: the first line lists the expected `LINE:COL: error: TEXT` (a prefix of the
message) and the `LINE:COL: note: TEXT` naming each call an error was inlined through,
separated by ' | ', and ptxas-amd must exit 1 with exactly those diagnostics, on every target; or it says `compiles`, and ptxas-amd must exit 0.

usage: calls_diag.py PTXAS_AMD [AMDSIM]   (with AMDSIM: also the stack overflow trap)
"""

import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
DIAG = re.compile(r'^(.+?):(\d+):(\d+): (error|note): (.*)$', re.M)


def expectations(path):
    first = open(path).readline()
    m = re.match(r'// expect: (.*?)\s+// NVIDIA ptxas', first)
    if not m:
        return None
    if m.group(1) == 'compiles':
        return []
    return [tuple(re.match(r'(\d+):(\d+): (error|note): (.*)', e.strip()).groups())
            for e in m.group(1).split(' | ')]


HEADER = '.version 7.0\n.target sm_75\n.address_size 64\n'


def chain_ptx(depth, calls_per_body):
    """Functions f0..f{depth} where each calls the next `calls_per_body` times, and a kernel
    calling f0; returns the text and the line of each function's first call."""
    lines = HEADER.splitlines()
    first_call = {}
    for k in range(depth, -1, -1):
        lines += ['.func (.param .b32 r) f%d(.param .b32 x)' % k, '{', '\t.reg .b32 %r<4>;',
                  '\tld.param.u32 %r1, [x];']
        for _ in range(calls_per_body if k < depth else 0):
            first_call.setdefault(k, len(lines) + 5)
            lines += ['\t{', '\t.param .b32 p0;', '\tst.param.b32 [p0], %r1;',
                      '\t.param .b32 r0;', '\tcall.uni (r0), f%d, (p0);' % (k + 1),
                      '\tld.param.b32 %r2, [r0];', '\t}', '\tadd.s32 %r1, %r1, %r2;']
        lines += ['\tst.param.b32 [r], %r1;', '\tret;', '}']
    lines += ['.visible .entry k(.param .u64 o)', '{', '\t.reg .b32 %r<2>;', '\t.reg .b64 %rd1;',
              '\tld.param.u64 %rd1, [o];', '\t{', '\t.param .b32 p0;',
              '\tst.param.b32 [p0], 3;', '\t.param .b32 r0;', '\tcall.uni (r0), f0, (p0);',
              '\tld.param.b32 %r1, [r0];', '\t}', '\tst.global.u32 [%rd1], %r1;', '\tret;', '}']
    return '\n'.join(lines) + '\n', first_call


def check_limits(ptxas_amd, amdsim, tmp):
    """With --inline-all, inlining stops with an error, quickly, when calls nest deeper than
    200 levels (at the call from f199 to f200) and when a call tree doubles at each of 30
    levels (2^30 calls).  By default both compile: the call past the limits, resp. the big
    functions called from two sites, become real calls (-v says so); the deep chain
    returns 3 * 211 (f210(x) = x, fk(x) = x + fk+1(x)) in amdsim."""
    failures = []
    text, first_call = chain_ptx(210, 1)
    deep = os.path.join(tmp, 'deep.ptx')
    open(deep, 'w').write(text)
    text, _ = chain_ptx(30, 2)
    wide = os.path.join(tmp, 'wide.ptx')
    open(wide, 'w').write(text)
    hsaco = os.path.join(tmp, 'k.hsaco')
    for path, want in ((deep, '%s:%d:2: error: call to \'f200\': inlining makes the kernel too large'
                        % (deep, first_call[199])),
                       (wide, ': error: call to \'f')):
        r = subprocess.run([ptxas_amd, '--gpu-name', 'gfx1100', '--inline-all', path, '-o',
                            hsaco], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=60)
        if r.returncode != 1 or want not in r.stdout or 'too large' not in r.stdout:
            failures.append('%s: exit %d, expected %r, got:\n%s'
                            % (os.path.basename(path), r.returncode, want, r.stdout[-800:]))
        r = subprocess.run([ptxas_amd, '--gpu-name', 'gfx1100', '-v', path, '-o', hsaco],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=60)
        if r.returncode != 0 or 'compiled as a real call' not in r.stdout:
            failures.append('%s without --inline-all: exit %d, expected real calls, got:\n%s'
                            % (os.path.basename(path), r.returncode, r.stdout[-800:]))
            continue
        if path != deep or not amdsim:
            continue
        out = os.path.join(tmp, 'deep.bin')
        r = subprocess.run([amdsim, hsaco, '--kernel', 'k', '--grid', '1', '--block', '32',
                            'out:4:' + out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=120)
        got = open(out, 'rb').read() if os.path.exists(out) else b''
        if r.returncode != 0 or got != (3 * 211).to_bytes(4, 'little'):
            failures.append('deep.ptx in amdsim: exit %d, out %r: %s'
                            % (r.returncode, got, r.stdout[-400:]))
    return failures


DOWN_PTX = HEADER + """
.func (.param .b32 r) down(.param .b32 x)
{
	.reg .pred %p1;
	.reg .b32 %r<4>;
	ld.param.u32 %r1, [x];
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra Z;
	add.u32 %r2, %r1, -1;
	{
	.param .b32 p0;
	st.param.b32 [p0], %r2;
	.param .b32 r0;
	call.uni (r0), down, (p0);
	ld.param.b32 %r3, [r0];
	}
	add.u32 %r1, %r3, 1;
Z:
	st.param.b32 [r], %r1;
	ret;
}
.visible .entry k(.param .u64 o, .param .u32 n)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd1;
	ld.param.u64 %rd1, [o];
	ld.param.u32 %r1, [n];
	{
	.param .b32 p0;
	st.param.b32 [p0], %r1;
	.param .b32 r0;
	call.uni (r0), down, (p0);
	ld.param.b32 %r2, [r0];
	}
	st.global.u32 [%rd1], %r2;
	ret;
}
"""


def check_overflow(ptxas_amd, amdsim, tmp):
    """Recursion deeper than the stack budget (--stack-size 512) traps in amdsim instead of
    overwriting memory; shallow recursion with the same budget returns the depth."""
    failures = []
    src = os.path.join(tmp, 'down.ptx')
    open(src, 'w').write(DOWN_PTX)
    for target in ('gfx90a', 'gfx1100'):
        hsaco = os.path.join(tmp, 'down.hsaco')
        r = subprocess.run([ptxas_amd, '--gpu-name', target, '--stack-size', '512', src, '-o',
                            hsaco], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            failures.append('down.ptx %s: exit %d: %s' % (target, r.returncode, r.stdout))
            continue
        for depth, trap in ((3, False), (1000, True)):
            out = os.path.join(tmp, 'down.bin')
            if os.path.exists(out):
                os.remove(out)
            r = subprocess.run([amdsim, hsaco, '--kernel', 'k', '--grid', '1', '--block', '32',
                                'out:4:' + out, 'u32:%d' % depth], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=120)
            got = open(out, 'rb').read() if os.path.exists(out) else b''
            ok = ('s_trap 2' in r.stdout and r.returncode != 0) if trap else (
                r.returncode == 0 and got == depth.to_bytes(4, 'little'))
            if not ok:
                failures.append('down.ptx %s depth %d: exit %d, out %r: %s'
                                % (target, depth, r.returncode, got, r.stdout[-400:]))
    return failures


def main():
    ptxas_amd = sys.argv[1]
    ddir = os.path.join(HERE, 'diag', 'calls')
    failures, checked = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(ddir)):
            path = os.path.join(ddir, name)
            exp = expectations(path)
            if exp is None:
                failures.append('%s: no expectation line' % name)
                continue
            for target in TARGETS:
                r = subprocess.run([ptxas_amd, '--gpu-name', target, '--verify', path, '-o',
                                    os.path.join(tmp, 'k.hsaco')], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, timeout=60)
                got = [(ln, col, kind, msg) for f, ln, col, kind, msg in DIAG.findall(r.stdout)]
                ok = r.returncode == (1 if exp else 0) and len(got) == len(exp) and all(
                    g[:3] == e[:3] and g[3].startswith(e[3]) for g, e in zip(got, exp))
                checked += 1
                if not ok:
                    failures.append('%s %s: exit %d, expected %s, got:\n%s'
                                    % (name, target, r.returncode, exp or 'success',
                                       r.stdout[-1500:]))
        failures += check_limits(ptxas_amd, sys.argv[2] if len(sys.argv) > 2 else None, tmp)
        checked += 5
        if len(sys.argv) > 2:
            failures += check_overflow(ptxas_amd, sys.argv[2], tmp)
            checked += 4
    for f in failures:
        print('FAIL  ' + f)
    print('calls-diag: %d checked, %d failed' % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
