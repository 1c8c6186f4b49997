#!/usr/bin/env python3
"""The PTX conformance test: every file under conformance/ carries NVIDIA ptxas's
verdict on its first line (`// ptxas: ok` or `// ptxas: error`, recorded by
gen_conformance.py).  One run of `ptx_parse_check --batch` over all files must agree:
a file ptxas accepts must parse without errors and its --dump-ast must be a fixed
point; a file ptxas rejects must be rejected with a located `FILE:LINE:COL: error:`.

Files named in conformance_known.txt are disagreements not fixed yet: they are reported
as known, and a listed file that agrees fails the test (so the list only shrinks).
With PTXAS given (suite 'slow'), the dump of every accepted file must also be accepted
by ptxas itself.
Usage: run_conformance.py PARSER CONFORMANCE_DIR [PTXAS]"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile



def batch(parser, files, dump_dir=None):
    extra = ['--dump-dir', dump_dir] if dump_dir else []
    p = subprocess.run([parser, '--batch'] + extra + files, capture_output=True, timeout=300)
    results, diags, cur = {}, {}, None
    if p.returncode != 0:  # a sanitizer report, a leak, a crash: the whole run fails
        results[None] = 'parser exited with status %d:\n%s' % (
            p.returncode, p.stderr.decode('utf-8', 'replace')[:2000])
    for line in p.stdout.decode('utf-8', 'replace').splitlines():
        if line.startswith('== '):
            cur = line[3:]
            diags[cur] = []
        elif line.startswith('=> '):
            verdict, path = line[3:].split(' ', 1)
            results[path] = verdict
        elif cur is not None:
            diags[cur].append(line)
    return results, diags


def ptxas_rejects(ptxas, path, arch):
    p = subprocess.run([ptxas, '-O0', '-arch', arch, path, '-o', os.devnull], capture_output=True,
                       timeout=300)
    return None if p.returncode == 0 else p.stderr.decode('utf-8', 'replace')[:1000]


def check_dumps(ptxas, paths, tmp):
    """ptxas must accept the dump of every accepted file.  Dumps that are one kernel `k`
    under the module header are merged, one module per header with the kernels renamed,
    so that ptxas runs a few times instead of once per file; the others run alone, and
    a merged module ptxas rejects is checked file by file to name the culprits."""
    groups, alone = {}, []
    for path in paths:
        dump = os.path.join(tmp, os.path.basename(path))
        with open(dump) as f:
            text = f.read()
        head = re.match(r'((?:\.(?:version|target|address_size)[^\n]*\n)+)\s*', text)
        body = text[head.end():] if head else ''
        tops = re.findall(r'^\S.*$', body, re.M)
        if head and len(tops) == 1 and tops[0].startswith('.visible .entry k('):
            groups.setdefault(head.group(1), []).append((path, body))
        else:
            alone.append(path)
    failed, jobs = [], []
    for n, (head, members) in enumerate(sorted(groups.items())):
        merged = os.path.join(tmp, 'merged%d.ptx' % n)
        with open(merged, 'w') as f:
            f.write(head)
            for i, (_, body) in enumerate(members):
                f.write(body.replace('.visible .entry k(', '.visible .entry k%d(' % i, 1))
        jobs.append((merged, [p for p, _ in members]))
    jobs += [(os.path.join(tmp, os.path.basename(p)), [p]) for p in alone]

    def arch_of(path):
        with open(path) as f:
            m = re.search(r'^\.target (sm_\w+)', f.read(), re.M)
        return m.group(1) if m else 'sm_90'

    def run(job):
        module, members = job
        err = ptxas_rejects(ptxas, module, arch_of(module))
        if err and len(members) > 1:  # name the files whose dumps ptxas rejects
            return [(p, e) for p in members for e in [ptxas_rejects(
                ptxas, os.path.join(tmp, os.path.basename(p)), arch_of(p))] if e]
        return [(members[0], err)] if err else []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for bad in pool.map(run, jobs):
            failed += ['FAIL %s: ptxas rejects our dump:\n%s' % (p, e) for p, e in bad]
    return failed


def main():
    parser, folder = sys.argv[1], sys.argv[2]
    ptxas = sys.argv[3] if len(sys.argv) > 3 else None
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith('.ptx'))
    want = {}
    for path in files:
        with open(path) as f:
            first = f.readline().strip()
        m = re.match(r'// ptxas: (ok|error)$', first)
        if not m:
            print('FAIL %s: first line must be // ptxas: ok|error' % path)
            return 1
        want[path] = m.group(1)
    known = {}
    known_path = os.path.join(os.path.dirname(os.path.abspath(folder)), 'conformance_known.txt')
    if os.path.exists(known_path):
        with open(known_path) as f:
            for line in f:
                if line.strip() and not line.startswith('#'):
                    name, _, why = line.strip().partition(' ')
                    known[name] = why.strip()
    tmp = tempfile.mkdtemp() if ptxas else None
    results, diags = batch(parser, files, tmp)
    failed, xfail = ([results.pop(None)] if None in results else []), []
    for path in files:
        got = results.get(path, 'missing')
        text = '\n'.join(diags.get(path, []))
        msg = None
        if want[path] == 'ok' and got != 'accept':
            msg = 'FAIL %s: ptxas accepts it, we say %s:\n%s' % (path, got, text[:1500])
        elif want[path] == 'error':
            located = re.search(r'^%s:\d+:\d+: error: ' % re.escape(path), text, re.M)
            if got != 'reject' or not located:
                msg = 'FAIL %s: ptxas rejects it, we say %s%s' % (
                    path, got, '' if located else ' (no located error)')
        name = os.path.basename(path)[:-4]
        if name in known:
            if msg:
                xfail.append('KNOWN %s: %s' % (name, known[name]))
            else:
                failed.append('FAIL %s agrees with ptxas now: remove it from %s' %
                              (path, known_path))
        elif msg:
            failed.append(msg)
    if ptxas:
        ok_files = [f for f in files if want[f] == 'ok' and results.get(f) == 'accept']
        failed += check_dumps(ptxas, ok_files, tmp)
        shutil.rmtree(tmp)
    for f in xfail + failed:
        print(f)
    nok = sum(v == 'ok' for v in want.values())
    print('%d/%d conformance files agree with ptxas (%d valid, %d invalid), %d known not to%s' %
          (len(files) - len(failed) - len(xfail), len(files), nok, len(files) - nok, len(xfail),
           ', dumps checked by ptxas' if ptxas else ''))
    if len(files) < 300:
        print('too few conformance files in %s' % folder)
        return 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
