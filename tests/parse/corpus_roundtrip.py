#!/usr/bin/env python3
"""Every PTX file under the corpus folder (walked at test time) must parse without
diagnostics, and its normalized dump must be a fixed point:
dump(parse(dump(parse(f)))) == dump(parse(f)).
With PTXAS (NVIDIA's assembler), every dump must also be accepted by it: the
normalized text is still valid PTX with the same meaning as far as ptxas can tell.
Usage: corpus_roundtrip.py PARSER CORPUS_DIR [PTXAS]"""
import os
import re
import subprocess
import sys
import tempfile


def run(parser, path, out):
    p = subprocess.run([parser, '--dump-ast', '-o', out, path], capture_output=True, timeout=60)
    return p.returncode, p.stderr.decode('utf-8', 'replace')


def main():
    parser, corpus = sys.argv[1], sys.argv[2]
    ptxas = sys.argv[3] if len(sys.argv) > 3 else None
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs
                   if f.endswith('.ptx'))
    if not files:
        print('no corpus files under %s' % corpus)
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        d1, d2 = os.path.join(tmp, 'd1.ptx'), os.path.join(tmp, 'd2.ptx')
        for path in files:
            rc, err = run(parser, path, d1)
            if rc != 0 or err:
                failed += 1
                print('FAIL parse %s (exit %d):\n%s' % (path, rc, err[:2000]))
                continue
            rc, err = run(parser, d1, d2)
            if rc != 0 or err:
                failed += 1
                print('FAIL reparse of dump of %s (exit %d):\n%s' % (path, rc, err[:2000]))
                continue
            with open(d1) as a, open(d2) as b:
                t1, t2 = a.read(), b.read()
            if t1 != t2 or not t1.strip():
                failed += 1
                print('FAIL dump of %s is not a fixed point' % path)
                continue
            m = re.search(r'^\.target (sm_\w+)', t1, re.M)
            if ptxas and m:
                p = subprocess.run([ptxas, '-arch', m.group(1), d1, '-o', os.devnull],
                                   capture_output=True, timeout=120)
                if p.returncode != 0:
                    failed += 1
                    print('FAIL ptxas rejects the dump of %s:\n%s' %
                          (path, p.stderr.decode('utf-8', 'replace')[:2000]))
    print('%d/%d corpus files parse and round-trip' % (len(files) - failed, len(files)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
