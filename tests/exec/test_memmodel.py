#!/usr/bin/env python3
"""The memory model against LLVM: for every target, each PTX memory-model form (ld.relaxed/
.acquire, st.relaxed/.release, atom and red with every order, fence.sc/.acq_rel, membar, at
scopes .cta/.gpu/.sys, on .global and generic addresses; ld/st.volatile; bar.sync) is compiled by
ptxas-amd, and the equivalent LLVM IR (load/store atomic, atomicrmw, fence with syncscope
workgroup/agent/system; volatile load/store) by llc-19.  The cache side of both must agree exactly: the cache write-back and invalidate
instructions (buffer_wbl2, buffer_inv, buffer_gl0_inv, global_inv, ...) with their bits, and
the cache-policy bits of the memory instruction itself (glc, dlc, sc0, sc1, nt, th, scope), in
order.  Waits are not compared (ptxas-amd waits for every counter where LLVM waits for some);
instead every release must be preceded by a wait for all memory counters after its last
write-back, and every acquire followed by one before its invalidates.  The waits of bar.sync are
compared: in kernels with a global load, a global store and a shared store in flight at the
barrier, the counters waited to zero between the last memory instruction and the barrier must be
llc-19's for __syncthreads (fence release workgroup; s_barrier; fence acquire workgroup), but for
kmcnt and expcnt (ours may wait on them: nothing of ours is pending there that matters) and for
one deliberate difference: gfx90a/gfx942 keep vmcnt(0) where the kernel also holds a .gpu
release (PTX's causality order is transitive through the barrier; sel_atomic.c).  So are those
of the CTA-scope fences (fence.acq_rel/.sc.cta, membar.cta vs fence workgroup acq_rel/seq_cst)
with the same memory in flight: the counters waited to zero between the last memory
instruction before the fence and the first after it.

usage: test_memmodel.py PTXAS_AMD [--target T]... [-v]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
LLC = os.environ.get('LLC', 'llc-19')
SCOPES = (('cta', 'syncscope("workgroup") '), ('gpu', 'syncscope("agent") '), ('sys', ''))
CACHE_OPS = ('buffer_wbl2', 'buffer_inv', 'buffer_invl2', 'buffer_wbinvl1_vol', 'buffer_wbinvl1',
             'buffer_gl0_inv', 'buffer_gl1_inv', 'global_inv', 'global_wb', 'global_wbinv')
MEM = re.compile(r'^(global|flat)_(atomic|load|store)')
BITS = re.compile(r'\b(glc|dlc|slc|sc0|sc1|nt|th:\S+|scope:\S+)')


def forms():
    """(name, PTX body, LLVM body) for each form; %p/%q: pointers, %v: a value."""
    out = []
    for sname, sc in SCOPES:
        for space, sp, asp in (('g', '.global', 1), ('f', '', 0)):
            pp = 'ptr addrspace(%d) %%p' % asp
            for order, llo in (('relaxed', 'monotonic'), ('acquire', 'acquire')):
                out.append(('ld_%s_%s_%s' % (order, sname, space),
                            'ld.%s.%s%s.u32 %%r2, [%%rd1];\n\tst.global.u32 [%%rd2], %%r2;'
                            % (order, sname, sp),
                            '%%r = load atomic i32, %s %s%s, align 4\n  store i32 %%r, '
                            'ptr addrspace(1) %%q' % (pp, sc, llo)))
            for order, llo in (('relaxed', 'monotonic'), ('release', 'release')):
                out.append(('st_%s_%s_%s' % (order, sname, space),
                            'st.%s.%s%s.u32 [%%rd1], %%r1;' % (order, sname, sp),
                            'store atomic i32 %%v, %s %s%s, align 4' % (pp, sc, llo)))
            for order, llo in (('relaxed', 'monotonic'), ('acquire', 'acquire'),
                               ('release', 'release'), ('acq_rel', 'acq_rel')):
                out.append(('atom_%s_%s_%s' % (order, sname, space),
                            'atom.%s.%s%s.add.u32 %%r2, [%%rd1], %%r1;\n\t'
                            'st.global.u32 [%%rd2], %%r2;' % (order, sname, sp),
                            '%%r = atomicrmw add %s, i32 %%v %s%s\n  store i32 %%r, '
                            'ptr addrspace(1) %%q' % (pp, sc, llo)))
            for order, llo in (('relaxed', 'monotonic'), ('release', 'release')):
                out.append(('red_%s_%s_%s' % (order, sname, space),
                            'red.%s.%s%s.add.u32 [%%rd1], %%r1;' % (order, sname, sp),
                            '%%r = atomicrmw add %s, i32 %%v %s%s' % (pp, sc, llo)))
        out.append(('fence_sc_%s' % sname, 'fence.sc.%s;' % sname, 'fence %sseq_cst' % sc))
        out.append(('fence_acqrel_%s' % sname, 'fence.acq_rel.%s;' % sname,
                    'fence %sacq_rel' % sc))
        out.append(('membar_%s' % sname, 'membar.%s;' % {'cta': 'cta', 'gpu': 'gl',
                                                          'sys': 'sys'}[sname],
                    'fence %sseq_cst' % sc))
    out.append(('bar_sync', 'bar.sync 0;', 'fence syncscope("workgroup") release\n  call void '
                '@llvm.amdgcn.s.barrier()\n  fence syncscope("workgroup") acquire'))
    for space, sp, asp in (('g', '.global', 1), ('f', '', 0)):
        pp = 'ptr addrspace(%d) %%p' % asp
        out.append(('ld_volatile_%s' % space,
                    'ld.volatile%s.u32 %%r2, [%%rd1];\n\tst.global.u32 [%%rd2], %%r2;' % sp,
                    '%%r = load volatile i32, %s, align 4\n  store i32 %%r, ptr addrspace(1) %%q'
                    % pp))
        out.append(('st_volatile_%s' % space, 'st.volatile%s.u32 [%%rd1], %%r1;' % sp,
                    'store volatile i32 %%v, %s, align 4' % pp))
    return out


# bar.sync with memory in flight: (name, PTX body, LLVM body, extra counters ours waits for on
# gfx90a/gfx942).  %r2 (loaded) is used after the barrier, so the load is still pending there.
BAR_PTX = ('mov.u32 %%r3, %%tid.x;\n\tmul.wide.u32 %%rd3, %%r3, 4;\n\t'
           'add.s64 %%rd3, %%rd1, %%rd3;\n\t'
           'ld.global.u32 %%r2, [%%rd3+64];\n\tst.global.u32 [%%rd1], %%r1;\n\t'
           'st.shared.u32 [sh], %%r1;\n\tbar.sync 0;\n\t%sst.global.u32 [%%rd2], %%r2;')
BAR_LL = ('%%t = call i32 @llvm.amdgcn.workitem.id.x()\n  %%t64 = zext i32 %%t to i64\n  '
          '%%b = getelementptr i32, ptr addrspace(1) %%p, i64 %%t64\n  '
          '%%a = getelementptr i32, ptr addrspace(1) %%b, i64 16\n  '
          '%%r = load i32, ptr addrspace(1) %%a, align 4\n  '
          'store i32 %%v, ptr addrspace(1) %%p, align 4\n  '
          'store i32 %%v, ptr addrspace(3) @sh, align 4\n  '
          'fence syncscope("workgroup") release\n  call void @llvm.amdgcn.s.barrier()\n  '
          'fence syncscope("workgroup") acquire\n  %sstore i32 %%r, ptr addrspace(1) %%q, align 4')
BAR_FORMS = (('bar_wait', BAR_PTX % '', BAR_LL % '', set()),
             ('bar_wait_gpu_release', BAR_PTX % 'fence.acq_rel.gpu;\n\t',
              BAR_LL % 'fence syncscope("agent") acq_rel\n  ', {'vmcnt'}))
# CTA-scope fences with memory in flight: (name, PTX fence, LLVM fence).  Three memory
# instructions come before the fence (a global load whose value is stored after it, a global
# store, a shared store) and two stores after it; the counters waited to zero between the
# third and the fourth memory instruction must be llc-19's (but for IGNORED_COUNTERS).
FENCE_PTX = BAR_PTX.replace('bar.sync 0;\n\t%s', '%s\n\tst.global.u32 [%%rd2+4], %%r1;\n\t')
FENCE_LL = BAR_LL.replace(
    'fence syncscope("workgroup") release\n  call void @llvm.amdgcn.s.barrier()\n  '
    'fence syncscope("workgroup") acquire\n  %s',
    '%s\n  %%q4 = getelementptr i32, ptr addrspace(1) %%q, i64 1\n  '
    'store i32 %%v, ptr addrspace(1) %%q4, align 4\n  ')
FENCE_FORMS = (('fence_acqrel_cta_wait', 'fence.acq_rel.cta;',
                'fence syncscope("workgroup") acq_rel'),
               ('fence_sc_cta_wait', 'fence.sc.cta;', 'fence syncscope("workgroup") seq_cst'),
               ('membar_cta_wait', 'membar.cta;', 'fence syncscope("workgroup") seq_cst'))
IGNORED_COUNTERS = {'kmcnt', 'expcnt'}
VECTOR_MEM = re.compile(r'^(global|flat|buffer|scratch|ds)_')


def fence_waited(lines):
    """Counters waited to zero between the third and the fourth vector or LDS memory
    instruction, cache operations aside (None: fewer than four)."""
    at = [k for k, ins in enumerate(lines)
          if VECTOR_MEM.match(ins) and ins.split()[0] not in CACHE_OPS]
    return zero_waits(lines[at[2]:at[3]]) if len(at) >= 4 else None


def waited_counters(lines):
    """Counters waited to zero between the last memory instruction before the first barrier
    and the barrier (None: no barrier)."""
    end = next((k for k, ins in enumerate(lines)
                if ins.split()[0] in ('s_barrier', 's_barrier_signal')), None)
    if end is None:
        return None
    start = end
    while start > 0 and not re.match(r'^(global|flat|buffer|ds|s_load|s_buffer)_',
                                     lines[start - 1]):
        start -= 1
    return zero_waits(lines[start:end])


def zero_waits(lines):
    """Counters the wait instructions among lines wait to zero."""
    out = set()
    for ins in lines:
        op = ins.split()[0]
        if op == 's_waitcnt':
            out |= {c for c, n in re.findall(r'(\w+cnt)\((\d+)\)', ins) if int(n) == 0}
            if re.match(r'^s_waitcnt\s+0$', ins):
                out |= {'vmcnt', 'expcnt', 'lgkmcnt'}
        elif op == 's_waitcnt_vscnt' and re.search(r',\s*0(x0)?$', ins):
            out.add('vscnt')
        elif op.startswith('s_wait_') and re.search(r'\s0(x0)?$', ins):
            out |= {c if c.endswith('cnt') else c + 'cnt' for c in op[len('s_wait_'):].split('_')
                    if c}
    return out


def fence_problems(ours, theirs):
    got, exp = fence_waited(ours), fence_waited(theirs)
    if got is None or exp is None:
        return ['fewer than four memory instructions in the output']
    got, exp = got - IGNORED_COUNTERS, exp - IGNORED_COUNTERS
    if got != exp:
        return ['the fence waits for %s, llc-19 for %s' % (sorted(got), sorted(exp))]
    return []


def bar_problems(ours, theirs, target, extra):
    got, exp = waited_counters(ours), waited_counters(theirs)
    if got is None or exp is None:
        return ['no barrier in the output']
    got, exp = got - IGNORED_COUNTERS, exp - IGNORED_COUNTERS
    if target in ('gfx90a', 'gfx942'):
        exp = exp | extra
    if got != exp:
        return ['bar.sync waits for %s, llc-19 for %s' % (sorted(got), sorted(exp))]
    return []


def ptx_module(fs):
    parts = ['.version 7.8\n.target sm_70\n.address_size 64\n.shared .align 4 .u32 sh;\n']
    for name, body, _ in fs:
        parts.append('.visible .entry %s(.param .u64 p, .param .u64 q, .param .u32 v)\n{\n'
                     '\t.reg .b32 %%r<4>;\n\t.reg .b64 %%rd<4>;\n'
                     '\tld.param.u64 %%rd1, [p];\n\tld.param.u64 %%rd2, [q];\n'
                     '\tld.param.u32 %%r1, [v];\n\t%s\n\tret;\n}\n' % (name, body))
    return '\n'.join(parts)


def llvm_module(fs):
    parts = ['target triple = "amdgcn-amd-amdhsa"\ndeclare void @llvm.amdgcn.s.barrier()\n'
             '@sh = addrspace(3) global i32 poison, align 4\n'
             'declare i32 @llvm.amdgcn.workitem.id.x()\n']
    for name, _, body in fs:
        parts.append('define amdgpu_kernel void @%s(ptr addrspace(1) %%p1, ptr addrspace(1) %%q,'
                     ' i32 %%v, ptr %%p0) {\n  %s\n  ret void\n}\n' % (name, body.replace('ptr addrspace(0) %p', 'ptr %p0')
                                          .replace('ptr addrspace(1) %p', 'ptr addrspace(1) %p1')))
    return '\n'.join(parts)


def split_kernels(text, header):
    """{kernel: [instruction lines]} from ptxas-amd -S (header=True) or llc output."""
    out, cur = {}, None
    for line in text.splitlines():
        m = (re.match(r'^// (\w+): gfx', line) if header else re.match(r'^(\w+):\s*(;.*)?$', line))
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        s = line.split('//')[0].split(';')[0].strip()
        if cur is not None and s and not s.startswith('.') and not s.endswith(':'):
            cur.append(s)
    return out


def is_full_wait(ins, target):
    if target == 'gfx1200':
        return ins.startswith('s_wait_') and ins.endswith('0x0')
    return ins.startswith('s_waitcnt') and 'vscnt' not in ins


def tokens(lines):
    toks = []
    for ins in lines:
        op = ins.split()[0]
        if op in CACHE_OPS:
            toks.append(' '.join([op] + sorted(BITS.findall(ins))))
        elif MEM.match(op):
            toks.append(' '.join([re.sub(r'_(dword|b32|u32|x2)$', '', op)] +
                                 sorted(BITS.findall(ins))))
    return toks


IN_FLIGHT = re.compile(r'^(global|flat|buffer|scratch|ds|s_load|s_buffer)_')


def wait_problems(lines, target):
    """A write-back must be followed by a wait (ptxas-amd), and an invalidate preceded by one
    where a memory instruction before it may still be in flight (the waitcnt pass drops the
    wait when nothing is, as llc-19 does)."""
    errs = []
    for k, ins in enumerate(lines):
        op = ins.split()[0]
        if op in ('buffer_wbl2', 'global_wb') and not (k + 1 < len(lines) and
                                                       is_full_wait(lines[k + 1], target)):
            errs.append('no wait after %s' % ins)
        if op in CACHE_OPS and op not in ('buffer_wbl2', 'global_wb'):
            j = k - 1
            while j >= 0 and not lines[j].startswith('s_wait') and (
                    lines[j].split()[0] in CACHE_OPS or not IN_FLIGHT.match(lines[j])):
                j -= 1
            if j >= 0 and not lines[j].startswith('s_wait'):
                errs.append('no wait before %s (after %s)' % (ins, lines[j]))
    return errs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ptxas_amd')
    ap.add_argument('--target', action='append')
    ap.add_argument('-v', '--verbose', action='store_true')
    args = ap.parse_args()
    if not shutil.which(LLC):
        print('memmodel: %s not found: skipped' % LLC)
        return 77
    fs = forms()
    bar_extra = {name: extra for name, _, _, extra in BAR_FORMS}
    fs += [(name, p, ll) for name, p, ll, _ in BAR_FORMS]
    fence_names = {name for name, _, _ in FENCE_FORMS}
    fs += [(name, FENCE_PTX % p, FENCE_LL % ll) for name, p, ll in FENCE_FORMS]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        ptx, ll = os.path.join(tmp, 'mm.ptx'), os.path.join(tmp, 'mm.ll')
        with open(ptx, 'w') as f:
            f.write(ptx_module(fs))
        with open(ll, 'w') as f:
            f.write(llvm_module(fs))
        for target in args.target or TARGETS:
            ours = subprocess.run([args.ptxas_amd, '--gpu-name', target, '--verify', ptx, '-S',
                                   '-o', '-'], capture_output=True, text=True, timeout=300)
            if ours.returncode:
                print('FAIL  %s ptxas-amd: %s' % (target, ours.stderr[-2000:]))
                failures += 1
                continue
            theirs = subprocess.run([LLC, '-O2', '-mtriple=amdgcn-amd-amdhsa', '-mcpu=' + target,
                                     '-amdgpu-atomic-optimizer-strategy=None', ll, '-o', '-'],
                                    capture_output=True, text=True, timeout=300)
            if theirs.returncode:
                print('FAIL  %s llc: %s' % (target, theirs.stderr[-2000:]))
                failures += 1
                continue
            ok_k, bad = split_kernels(ours.stdout, True), 0
            ref_k = split_kernels(theirs.stdout, False)
            for name, _, _ in fs:
                got, exp = tokens(ok_k.get(name, [])), tokens(ref_k.get(name, []))
                if name in fence_names:  # llc-19 reorders and merges the plain accesses
                    got, exp = ([t for t in toks if t.split()[0] in CACHE_OPS]
                                for toks in (got, exp))
                errs = wait_problems(ok_k.get(name, []), target)
                if name not in ok_k or name not in ref_k:
                    errs.append('kernel missing from the output')
                elif name in bar_extra:
                    errs += bar_problems(ok_k[name], ref_k[name], target, bar_extra[name])
                elif name in fence_names:
                    errs += fence_problems(ok_k[name], ref_k[name])
                if got != exp or errs:
                    bad += 1
                    print('FAIL  %-8s %-22s ptxas-amd %s\n%40s llc-19    %s%s' % (
                        target, name, got, '', exp, ''.join('\n    ' + e for e in errs)))
                elif args.verbose:
                    print('ok    %-8s %-22s %s' % (target, name, got))
            print('%s  %-8s %d forms, %d differ from llc-19' % ('FAIL' if bad else 'PASS', target,
                                                               len(fs), bad))
            failures += bad
    print('memmodel: %d failures' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
