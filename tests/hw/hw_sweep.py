#!/usr/bin/env python3
"""The hardware sweep: every kernel of ../shared/ptx-hw/{random,tensor,tensor2} that ptxas-amd
accepts, run in amdsim on every target, must give what the NVIDIA H100 wrote (judge.py's rules,
docs/HARDWARE.md), except the differences listed in known_diffs.txt.

usage: hw_sweep.py --ptxas-amd P --amdsim S --hw DIR [--targets gfx1100,...] [--sets random,...]
                   [-j N] [--known FILE] [--update] [--report FILE.md] [--limit N]

Per kernel and target: compile (the default 32-lane warps, also on wave64), run amdsim
with the kernel's input and an output buffer of 0xDEADBEEF, judge every slot of every thread.
Kernels ptxas-amd rejects are counted by instruction form, not failed.  Root differences are
counted per (target, set, kind, form) in root lanes; crashes, timeouts and simulator errors per
kernel.  The test fails on any count not in known_diffs.txt, on any listed count that is not
seen (fixed: the list only shrinks), and on any count that changed.  --update rewrites the
entries of the targets and sets that ran.  Exit 77 (skipped) when the data directory is absent.
"""

import argparse
import array
import collections
import concurrent.futures
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
SETS = ('random', 'tensor', 'tensor2')
KERNEL_FAILURES = ('crashed', 'timeout', 'sim-error', 'nv-missing')
TIMEOUT_S = 60


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--ptxas-amd', required=True)
    ap.add_argument('--amdsim', required=True)
    ap.add_argument('--hw', required=True, help='the ptx-hw directory (../shared/ptx-hw)')
    ap.add_argument('--targets', default=','.join(TARGETS))
    ap.add_argument('--sets', default=','.join(SETS))
    ap.add_argument('-j', type=int, default=0, help='parallel kernels (default: the cores)')
    ap.add_argument('--known', default=os.path.join(HERE, 'known_diffs.txt'))
    ap.add_argument('--update', action='store_true', help='rewrite the known list from this run')
    ap.add_argument('--report', help='write a report for humans (markdown) here')
    ap.add_argument('--limit', type=int, help='only the first N kernels of each set (no check)')
    return ap.parse_args()


def default_jobs():
    if os.environ.get('MESON_TESTTHREADS', '').isdigit():
        return max(1, int(os.environ['MESON_TESTTHREADS']))
    return max(1, len(os.sched_getaffinity(0)))


# ------------------------------------------------------------------ one kernel on one target

def compile_kernel(args, set_dir, kernel, target, hsaco):
    """(outcome, stderr): ok / rejected / crashed / timeout."""
    cmd = [args.ptxas_amd, '--gpu-name', target,
           os.path.join(set_dir, kernel['file']), '-o', hsaco]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return 'timeout', 'ptxas-amd took over %d s' % TIMEOUT_S
    err = r.stderr.strip()
    if r.returncode == 0:
        return 'ok', ''
    if r.returncode < 0 or not err or 'internal' in err.lower() or 'assert' in err.lower():
        return 'crashed', 'ptxas-amd rc=%d: %s' % (r.returncode, (err.splitlines() or [''])[-1])
    return 'rejected', err


def simulate(args, kernel, hsaco, fin, fsent, fout):
    """(outcome, detail, uint32 array or None)."""
    cmd = [args.amdsim, hsaco, '--kernel', 'k', '--grid', '1', '--block', str(kernel['threads']),
           'in:' + fin, 'inout:%s:%s' % (fsent, fout)]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return 'timeout', 'amdsim took over %d s' % TIMEOUT_S, None
    if r.returncode < 0:
        return 'crashed', 'amdsim signal %d: %s' % (-r.returncode, r.stderr.strip()[-200:]), None
    if r.returncode != 0 or not os.path.exists(fout):
        return 'sim-error', 'amdsim rc=%d: %s' % (r.returncode, r.stderr.strip()[-200:]), None
    data = array.array('I')
    with open(fout, 'rb') as f:
        data.frombytes(f.read())
    os.remove(fout)
    if sys.byteorder != 'little':
        data.byteswap()
    if len(data) != kernel['threads'] * kernel['out_words']:
        return 'sim-error', 'output of %d words' % len(data), None
    return 'ok', '', data


def rejection_forms(err, ptx_path):
    """{(form, message)} of ptxas-amd's error lines (compare.py's grouping)."""
    with open(ptx_path) as f:
        lines = f.read().split('\n')
    return {compare.error_form(ln, lines) for ln in err.splitlines() if ': error:' in ln}


def run_kernel(args, work, data, set_name, i, targets):
    """[(target, outcome, detail, differences)] for kernel i of a set on every target."""
    set_dir, manifest, slots, inputs, nv = data[set_name]
    kernel = manifest['kernels'][i]
    base = os.path.join(work, '%s_%s' % (set_name, kernel['file'][:-4]))
    fin, fsent = base + '.in', base + '.sent'
    words = kernel['threads'] * kernel['in_words']
    with open(fin, 'wb') as f:
        inputs[i][:words].tofile(f)
    with open(fsent, 'wb') as f:
        array.array('I', [judge.SENTINEL] * (kernel['threads'] * kernel['out_words'])).tofile(f)
    status, hw = nv.get(i, ('not run', None))
    by_off = judge.slot_index(slots[i])
    out = []
    for target in targets:
        hsaco = '%s.%s.hsaco' % (base, target)
        outcome, detail = compile_kernel(args, set_dir, kernel, target, hsaco)
        if outcome != 'ok':
            if outcome == 'rejected':
                detail = rejection_forms(detail, os.path.join(set_dir, kernel['file']))
            out.append((target, outcome, detail, None))
            continue
        outcome, detail, ours = simulate(args, kernel, hsaco, fin, fsent, base + '.out')
        os.remove(hsaco)
        if outcome != 'ok':
            out.append((target, outcome, detail, None))
        elif status != 'ok':
            out.append((target, 'nv-missing', status, None))
        else:
            diffs = judge.compare_kernel(kernel, slots[i], by_off, inputs[i], hw, ours,
                                         set_name != 'random')
            roots = any(d['root'] for d in diffs)
            out.append((target, 'mismatch' if roots else 'match', '', diffs))
    for f in (fin, fsent):
        os.remove(f)
    return out


# ------------------------------------------------------------------ the whole sweep

class Results:
    def __init__(self, targets):
        self.targets = targets
        self.outcomes = collections.Counter()           # (target, set, outcome) -> kernels
        self.cat_outcomes = collections.Counter()       # (target, set, cat, outcome) -> kernels
        self.rejected = collections.Counter()           # (target, set, form, message) -> kernels
        self.reject_example = {}
        self.counts = collections.Counter()             # (target, set, kind, form) -> root lanes
        self.propagated = collections.Counter()         # (target, set, kind, form) -> lanes
        self.kernels = collections.defaultdict(set)     # (target, set, kind, form) -> kernels
        self.examples = collections.defaultdict(list)   # (set, kind, form) -> examples
        self.failures = []                              # (target, set, kernel, outcome, detail)

    def add(self, set_name, kernel, target, outcome, detail, diffs):
        self.outcomes[(target, set_name, outcome)] += 1
        self.cat_outcomes[(target, set_name, kernel['cat'], outcome)] += 1
        if outcome == 'rejected':
            for form, msg in detail:
                self.rejected[(target, set_name, form, msg)] += 1
                self.reject_example.setdefault((set_name, form, msg), kernel['file'])
        elif outcome in KERNEL_FAILURES:
            self.counts[(target, set_name, outcome, kernel['file'])] += 1
            self.failures.append((target, set_name, kernel['file'], outcome, detail))
        for d in diffs or ():
            form = d['slot']['op'] if d['slot'] else '(word of no slot)'
            key = (target, set_name, d['kind'], form)
            if not d['root']:
                self.propagated[key] += 1
                continue
            self.counts[key] += 1
            self.kernels[key].add(kernel['file'])
            ex = self.examples[(set_name, d['kind'], form)]
            if len(ex) < 3 and not any(e[0] == kernel['file'] for e in ex):
                ex.append((kernel['file'], target, d))


def sweep(args, data, sets, targets, jobs):
    results = Results(targets)
    with tempfile.TemporaryDirectory(prefix='hw-sweep-') as work:
        todo = [(s, i) for s in sets for i in range(len(data[s][1]['kernels']))
                if args.limit is None or i < args.limit]
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            futures = [pool.submit(run_kernel, args, work, data, s, i, targets) for s, i in todo]
            for (s, i), fut in zip(todo, futures):
                kernel = data[s][1]['kernels'][i]
                for target, outcome, detail, diffs in fut.result():
                    results.add(s, kernel, target, outcome, detail, diffs)
    return results


# ------------------------------------------------------------------ the known list

KNOWN_HEADER = """\
# Differences between ptxas-amd + amdsim and the NVIDIA H100 that are known (tests/hw/hw_sweep.py,
# docs/HARDWARE.md): one line per (target, set, kind, instruction form) with its number of root
# lanes (threads x slots whose operands all matched), or per kernel that crashed, timed out or
# that amdsim refused (count 1, the kernel file as the form).  The test fails on any difference
# not listed here, on a listed one that no longer occurs and on any count that changed, so the
# list can only shrink honestly.  Regenerate after a fix (and review the diff):
#   python3 tests/hw/hw_sweep.py --ptxas-amd build/src/driver/ptxas-amd \\
#     --amdsim build/src/sim/amdsim --hw ../shared/ptx-hw --update
# target set kind root-lanes form
"""


def read_known(path):
    known = {}
    if not os.path.exists(path):
        return known
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            parts = line.split(None, 4)
            if len(parts) != 5 or not parts[3].isdigit():
                raise SystemExit('%s:%d: expected "target set kind count form"' % (path, n))
            target, set_name, kind, count, form = parts
            known[(target, set_name, kind, form)] = int(count)
    return known


def write_known(path, known):
    order = {t: n for n, t in enumerate(TARGETS)}
    keys = sorted(known, key=lambda k: (order.get(k[0], 99), k[0], k[1], k[2], k[3]))
    with open(path, 'w') as f:
        f.write(KNOWN_HEADER)
        for k in keys:
            f.write('%s %s %s %d %s\n' % (k[0], k[1], k[2], known[k], k[3]))


def check_known(known, counts, targets, sets):
    """Lines describing every disagreement between the list and this run."""
    problems = []
    ran = {k: v for k, v in known.items() if k[0] in targets and k[1] in sets}
    for key in sorted(set(ran) | set(counts)):
        listed, seen = ran.get(key, 0), counts.get(key, 0)
        if listed == seen:
            continue
        what = ('NEW       ' if not listed else 'GONE      ' if not seen else
                'MORE      ' if seen > listed else 'FEWER     ')
        problems.append('%s%s %s %s %s: listed %d, seen %d' % (what, key[0], key[1], key[2],
                                                              key[3], listed, seen))
    return problems


# ------------------------------------------------------------------ summaries and the report

def summary_lines(results, sets):
    lines = []
    for t in results.targets:
        o = collections.Counter()
        for (tt, s, outcome), n in results.outcomes.items():
            if tt == t and s in sets:
                o[outcome] += n
        total = sum(o.values())
        roots = collections.Counter()
        for (tt, s, kind, form), n in results.counts.items():
            if tt == t:
                roots[(form, kind)] += n
        top = ', '.join('%s %s %d' % (f, k, n) for (f, k), n in roots.most_common(5))
        rejected = collections.Counter()
        for (tt, s, form, _), n in results.rejected.items():
            if tt == t and s in sets:
                rejected[form] += n
        top_rejected = ', '.join('%s %d' % fn for fn in rejected.most_common(3))
        lines.append('%s: %d kernels, %d compiled, %d rejected, %d match, %d mismatch, %d other '
                     '(crashed/timeout/sim-error/nv-missing); root lanes %d in %d forms; top: %s; '
                     'most rejected forms: %s'
                     % (t, total, total - o['rejected'], o['rejected'], o['match'], o['mismatch'],
                        sum(o[x] for x in KERNEL_FAILURES), sum(roots.values()), len(roots),
                        top or '-', top_rejected or '-'))
    return lines


def fmt_ops(values, op):
    return compare.fmt_ops([v if isinstance(v, (int, str)) or v is None else None
                            for v in values], op)


def hardware_bounds(data):
    """The H100's own approximate results against the same bounds (a check of the bound table):
    {op: [lanes judged, lanes outside, example]}."""
    if 'random' not in data:
        return {}
    _, manifest, slots, inputs, nv = data['random']
    seen = collections.defaultdict(lambda: [0, 0, None])
    for i, kernel in enumerate(manifest['kernels']):
        status, hw = nv.get(i, ('not run', None))
        approx = [s for s in slots[i] if s.get('cls') == 'approx']
        if status != 'ok' or not approx:
            continue
        by_w = {s['w']: s for s in slots[i]}
        M, K = kernel['out_words'], kernel['in_words']
        for s in approx:
            for t in range(kernel['threads']):
                value, _ = compare.slot_value(hw, t, M, s)
                ops = compare.operand_values(hw, t, M, K, inputs[i], by_w, s['srcs'])
                if value == judge.SENTINEL or not all(isinstance(v, int) for v in ops):
                    continue
                entry = seen[s['op']]
                entry[0] += 1
                if not judge.approx_ok(s['op'], value, ops):
                    entry[1] += 1
                    if entry[2] is None:
                        entry[2] = (kernel['file'], t, s, value, ops)
    return seen


def write_report(path, results, sets, secs, problems, data):
    targets = results.targets
    lines = ['# Hardware sweep: ptxas-amd + amdsim against the NVIDIA H100 (../shared/ptx-hw)', '',
             'Sets %s, targets %s, %.0f s. Rules: docs/HARDWARE.md.' % (', '.join(sets),
                                                                         ', '.join(targets), secs),
             '', '## Summary', '']
    lines += ['- ' + ln for ln in summary_lines(results, sets)]
    lines += ['', '## Against tests/hw/known_diffs.txt', '']
    lines += ['- ' + p for p in problems] or ['- no difference from the list']
    cols = ('rejected', 'match', 'mismatch') + KERNEL_FAILURES
    lines += ['', '## Kernels per set, category and target', '',
              '| set | cat | target | compiled | ' + ' | '.join(cols) + ' |',
              '|---|---|---|---|' + '---|' * len(cols)]
    cats = sorted({(s, c) for (_, s, c, _) in results.cat_outcomes})
    for s, c in cats:
        for t in targets:
            n = {x: results.cat_outcomes.get((t, s, c, x), 0) for x in cols}
            compiled = sum(n.values()) - n['rejected']
            lines.append('| %s | %s | %s | %d | %s |' % (s, c, t, compiled,
                                                         ' | '.join(str(n[x]) for x in cols)))
    lines += ['', '## Rejected by the code generator (kernels per target, by instruction form)', '',
              '| set | form | message | ' + ' | '.join(targets) + ' | example |',
              '|---|---|---|' + '---|' * len(targets) + '---|']
    rej = collections.defaultdict(collections.Counter)
    for (t, s, form, msg), n in results.rejected.items():
        rej[(s, form, msg)][t] += n
    for (s, form, msg), per in sorted(rej.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])):
        lines.append('| %s | `%s` | %s | %s | %s |' % (
            s, form, msg.replace('|', '/'), ' | '.join(str(per.get(t, 0)) for t in targets),
            results.reject_example[(s, form, msg)]))
    lines += ['', '## Root differences (lanes per target; propagated lanes in parentheses)', '',
              '| set | kind | form | ' + ' | '.join(targets) + ' | kernels |',
              '|---|---|---|' + '---|' * len(targets) + '---|']
    rows = collections.defaultdict(dict)
    for (t, s, kind, form), n in results.counts.items():
        rows[(s, kind, form)][t] = n
    for key, per in sorted(rows.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])):
        s, kind, form = key
        kernels = set()
        for t in targets:
            kernels |= results.kernels.get((t, s, kind, form), set())
        cells = ['%d (%d)' % (per.get(t, 0), results.propagated.get((t, s, kind, form), 0))
                 for t in targets]
        lines.append('| %s | %s | `%s` | %s | %d |' % (s, kind, form, ' | '.join(cells),
                                                       len(kernels)))
    lines += ['', '## The H100 against the same approximate bounds (a check of the table)', '',
              '| form | lanes judged | outside the bound | example |', '|---|---|---|---|']
    for op, (judged, outside, ex) in sorted(hardware_bounds(data).items()):
        text = '-'
        if ex:
            kfile, t, s, value, ops = ex
            rt = compare.res_type(op)
            text = '%s thread %d: %s -> %s' % (kfile, t, fmt_ops(ops, op),
                                                compare.decode(value, rt, 64 if value >> 32 else 32))
        lines.append('| `%s` | %d | %d | %s |' % (op, judged, outside, text))
    lines += ['', '## Crashes, timeouts, simulator errors', '']
    lines += ['- %s %s %s: %s %s' % f for f in results.failures] or ['- none']
    lines += ['', '## Examples']
    for (s, kind, form), exs in sorted(results.examples.items()):
        lines += ['', '### `%s` (%s, %s)' % (form, kind, s)]
        for kfile, t, d in exs:
            slot = d['slot']
            if slot is None:
                lines.append('- %s thread %d, %s: NVIDIA 0x%08x, ours 0x%08x'
                             % (kfile, d['thread'], t, d['nv'], d['us']))
                continue
            rt = compare.res_type(slot['op'])
            lines.append('- %s thread %d, %s: `%s`' % (kfile, d['thread'], t, slot['text']))
            lines.append('  - operands: %s' % fmt_ops(d['ops_nv'], slot['op']))
            lines.append('  - NVIDIA: %s, ours: %s' % (compare.decode(d['nv'], rt, d['nbits']),
                                                       compare.decode(d['us'], rt, d['nbits'])))
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def main():
    args = parse_args()
    if not os.path.isdir(args.hw):
        print('SKIP: no hardware data at %s' % args.hw)
        return 77
    sys.path.insert(0, os.path.join(args.hw, 'tools'))
    sys.path.insert(0, HERE)
    global compare, judge, hwdata
    import compare
    import judge
    import hwdata
    targets = [t for t in args.targets.split(',') if t]
    sets = [s for s in args.sets.split(',') if s]
    start = time.time()
    data = {}
    for s in sets:
        set_dir = os.path.join(args.hw, s)
        data[s] = (set_dir,) + hwdata.load_set(set_dir)
    jobs = args.j or default_jobs()
    results = sweep(args, data, sets, targets, jobs)
    secs = time.time() - start
    known = read_known(args.known)
    problems = check_known(known, results.counts, targets, sets)
    for line in summary_lines(results, sets):
        print(line)
    if args.report:
        write_report(args.report, results, sets, secs, problems, data)
        print('report: %s' % args.report)
    print('%s kernels x %d targets in %.0f s (-j %d)' % (
        '+'.join('%d %s' % (len(data[s][1]['kernels']), s) for s in sets), len(targets), secs,
        jobs))
    if args.limit is not None:
        print('--limit: the known list is not checked')
        return 0
    if args.update:
        kept = {k: v for k, v in known.items() if k[0] not in targets or k[1] not in sets}
        kept.update(results.counts)
        write_known(args.known, kept)
        print('wrote %s (%d entries)' % (args.known, len(kept)))
        return 0
    for p in problems:
        print(p)
    if problems:
        print('FAIL: %d differences from %s (NEW/MORE: a regression to fix; GONE/FEWER: fixed, '
              'run with --update and commit the shorter list)' % (len(problems), args.known))
        return 1
    print('PASS: every difference is one listed in %s' % args.known)
    return 0


if __name__ == '__main__':
    sys.exit(main())
