"""REPORT.md and the two SVG charts of bench/run.

Speed ratios are competitor CPU time / ptxas-amd CPU time per PTX file (above 1: ptxas-amd is
faster), summarised by their median over the kernels; cycle ratios are ptxas-amd's modelled
cycles / clang-19's for the same kernel and target (below 1: ptxas-amd's code is faster in
amdsim's model): the CU model's cycles for the launch on one compute unit (occupancy, latency
hiding and bandwidth count), with the older per-wave model's ratio beside them.  When ptxas-amd cannot compile a file, its columns show the compiler's first
error line and the charts show the front end's figures (--parse-only) instead, drawn hollow.
"""

import datetime
import json
import os
import platform
import statistics
import subprocess

import svg

TARGETS = ('gfx90a', 'gfx1100')
COLUMNS = [('parse', 'ptxas-amd --parse-only'), ('amd-gfx90a', 'ptxas-amd gfx90a'),
           ('amd-gfx1100', 'ptxas-amd gfx1100'), ('nv-ptxas', 'NVIDIA ptxas sm_80'),
           ('llc-gfx90a', 'llc-19 gfx90a'), ('llc-gfx1100', 'llc-19 gfx1100'),
           ('clang-gfx90a', 'clang-19 gfx90a'), ('clang-gfx1100', 'clang-19 gfx1100')]
TARGET_SPEEDUP = 20.0
TARGET_RATE = 1e6
TARGET_RSS_MIB = 20.0


def first_line(cmd):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except OSError:
        return 'not available'
    lines = [x for x in r.stdout.splitlines() if x.strip()]
    return lines[0].strip() if lines else 'unknown'


def machine():
    model, cpus, mhz = 'unknown', 0, ''
    with open('/proc/cpuinfo') as f:
        for line in f:
            key, _, value = line.partition(':')
            key, value = key.strip(), value.strip()
            if key == 'model name':
                model, cpus = value, cpus + 1
            elif key == 'cpu MHz' and not mhz:
                mhz = value
    mem = ''
    with open('/proc/meminfo') as f:
        for line in f:
            if line.startswith('MemTotal'):
                mem = '%.1f GiB' % (int(line.split()[1]) / 1048576)
    return '%s, %d logical CPUs%s, %s RAM, %s %s' % (
        model, cpus, ', %s MHz' % mhz if mhz else '', mem, platform.system(),
        platform.release())


class Run:
    def __init__(self, tools, repeats, quick, started):
        self.tools, self.repeats, self.quick, self.started = tools, repeats, quick, started
        self.kernels, self.clang_ptx, self.scales = [], {}, []
        self.startup = None
        self.skipped = []
        self.load_start = os.getloadavg()
        self.versions = {
            'clang-19': first_line([tools['clang-19'], '--version']),
            'ptxas-amd': first_line(['git', '-C', os.path.dirname(os.path.abspath(__file__)),
                                     'log', '-1', '--format=commit %h (%cd)', '--date=short']),
        }
        if tools['nv-ptxas']:
            out = subprocess.run([tools['nv-ptxas'], '--version'], stdout=subprocess.PIPE,
                                 text=True).stdout.strip().splitlines()
            self.versions['NVIDIA ptxas'] = out[-1] if out else 'unknown'

    def add_kernel(self, name, insns, figs, quality, regs):
        self.kernels.append(dict(name=name, insns=insns, figs=figs, quality=quality,
                                 nv_regs=regs[0], nv_regs_source=regs[1]))

    def add_clang_ptx(self, name, insns, figs):
        self.clang_ptx[name] = (insns, figs)

    def add_startup(self, figure, libraries):
        self.startup, self.libraries = figure, libraries

    def add_scale(self, scale, insns, figs):
        self.scales.append((scale, insns, figs))

    def finish(self):
        self.load_end = os.getloadavg()
        self.finished = datetime.datetime.now(datetime.timezone.utc)
        self.machine = machine()

    def save(self, path):
        """Writes every measured figure to path (JSON), so the report can be rewritten from
        it (bench/run --report-only) without measuring again."""
        def figs(d):
            return {c: f.to_dict() for c, f in d.items()}

        data = dict(tools=self.tools, repeats=self.repeats, quick=self.quick,
                    started=self.started.isoformat(), finished=self.finished.isoformat(),
                    load_start=self.load_start, load_end=self.load_end, machine=self.machine,
                    versions=self.versions,
                    startup=self.startup.to_dict() if self.startup else None,
                    libraries=getattr(self, 'libraries', []),
                    kernels=[dict(k, figs=figs(k['figs'])) for k in self.kernels],
                    clang_ptx={n: (i, figs(f)) for n, (i, f) in self.clang_ptx.items()},
                    scales=[(s, i, figs(f)) for s, i, f in self.scales], skipped=self.skipped)
        with open(path, 'w') as f:
            json.dump(data, f, indent=1)


def load(path, figure_class):
    """The Run saved by Run.save."""
    with open(path) as f:
        data = json.load(f)

    def figs(d):
        return {c: figure_class.from_dict(v) for c, v in d.items()}

    run = Run.__new__(Run)
    run.tools, run.repeats, run.quick = data['tools'], data['repeats'], data['quick']
    run.started = datetime.datetime.fromisoformat(data['started'])
    run.finished = datetime.datetime.fromisoformat(data['finished'])
    run.load_start, run.load_end = data['load_start'], data['load_end']
    run.machine, run.versions = data['machine'], data['versions']
    run.startup = figure_class.from_dict(data['startup']) if data['startup'] else None
    run.libraries = data['libraries']
    run.kernels = [dict(k, figs=figs(k['figs'])) for k in data['kernels']]
    run.clang_ptx = {n: (i, figs(f)) for n, (i, f) in data['clang_ptx'].items()}
    run.scales = [(s, i, figs(f)) for s, i, f in data['scales']]
    run.skipped = data.get('skipped', [])
    return run


def ratio(num, den):
    if num is None or den is None or not num.ok or not den.ok or den.cpu <= 0:
        return None
    return num.cpu / den.cpu


def fmt_ratio(r):
    return '%.3gx' % r if r is not None else 'n/a'


def fmt_fig(fig, attr='cpu'):
    if fig is None:
        return 'skipped'
    if not fig.ok:
        return 'stopped (time limit)' if fig.error.startswith('stopped at the time') else 'failed'
    v, lo, hi = getattr(fig, attr), getattr(fig, attr + '_min'), getattr(fig, attr + '_max')
    if fig.runs == 1:
        return '%.4f' % v
    return '%.4f [%.4f–%.4f]' % (v, lo, hi)


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def amd_error(run):
    for k in run.kernels:
        for t in TARGETS:
            fig = k['figs']['amd-' + t]
            if not fig.ok:
                return fig.error
    return None


def speedups(run, competitor, ours):
    return [ratio(k['figs'].get(competitor), k['figs'].get(ours)) for k in run.kernels]


def verdict(value, good, text):
    if value is None:
        return 'n/a'
    return '%s (%s)' % (text, 'met' if good else 'NOT met')


def scaling_ratio(run, column):
    """CPU seconds per instruction at the largest scale / at 1x."""
    per = {s: f[column].cpu / n for s, n, f in run.scales if column in f and f[column].ok}
    if 1 not in per or len(per) < 2 or per[1] <= 0:
        return None, None
    top = max(per)
    return per[top] / per[1], top


def targets_section(run):
    out = ['## Targets (reported, never asserted)', '']
    err = amd_error(run)
    if err:
        out += ['ptxas-amd did not compile every PTX file: first error `%s`. Its columns are '
                'n/a where it failed; the front end alone (`--parse-only`) is shown for '
                'context.' % err, '']
    rows = []
    for t in TARGETS:
        m = median(speedups(run, 'nv-ptxas', 'amd-' + t))
        rows.append(('compile speed vs NVIDIA ptxas, %s (median of per-kernel CPU ratios)' % t,
                     '>= 20x', verdict(m, m is not None and m >= TARGET_SPEEDUP, fmt_ratio(m))))
    for t in TARGETS:
        m = median(speedups(run, 'llc-' + t, 'amd-' + t))
        rows.append(('compile speed vs llc-19 %s' % t, '>= 20x',
                     verdict(m, m is not None and m >= TARGET_SPEEDUP, fmt_ratio(m))))
    for t in TARGETS:
        total_insns = sum(k['insns'] for k in run.kernels if k['figs']['amd-' + t].ok)
        total_cpu = sum(k['figs']['amd-' + t].cpu for k in run.kernels
                        if k['figs']['amd-' + t].ok)
        rate = total_insns / total_cpu if total_cpu > 0 else None
        rows.append(('throughput, ptxas-amd %s (all PTX instructions / all CPU time)' % t,
                     '>= 1M insns/s', verdict(rate, rate is not None and rate >= TARGET_RATE,
                                              fmt_rate(rate) + '/s' if rate else '')))
    rss = [k['figs']['amd-' + t].rss_mib for k in run.kernels for t in TARGETS
           if k['figs']['amd-' + t].ok]
    peak = max(rss) if rss else None
    rows.append(('peak RSS of ptxas-amd (largest over all files)', '< 20 MiB',
                 verdict(peak, peak is not None and peak < TARGET_RSS_MIB,
                         '%.1f MiB' % peak if peak else '')))
    grow, top = scaling_ratio(run, 'amd-gfx90a')
    rows.append(('scaling: CPU time per instruction at %sx / at 1x, ptxas-amd gfx90a'
                 % (top or 'N'), 'linear (<= 1.5)',
                 verdict(grow, grow is not None and grow <= 1.5, '%.2f' % grow if grow else '')))
    for t in TARGETS:
        cyc = median(cycle_ratios(run, t))
        rows.append(('CU-model cycles, ptxas-amd / clang-19, %s (median)' % t, '<= 1.0x',
                     verdict(cyc, cyc is not None and cyc <= 1.0, fmt_ratio(cyc))))
        every = [r for r in cycle_ratios(run, t) if r is not None]
        worst = max(every) if every else None
        rows.append(('CU-model cycles, ptxas-amd / clang-19, %s (every kernel)' % t, '<= 1.25x',
                     verdict(worst, worst is not None and worst <= 1.25,
                             'worst ' + fmt_ratio(worst))))
        wave = median(cycle_ratios(run, t, 'cycles'))
        rows.append(('per-wave-model cycles, ptxas-amd / clang-19, %s (median; the older '
                     'model, for comparison)' % t, '-', fmt_ratio(wave)))
        pairs = [(q['amd']['vgprs'], q['clang']['vgprs']) for q in
                 (k['quality'][t] for k in run.kernels) if q.get('amd') and q.get('clang')]
        fewer = sum(a <= c for a, c in pairs)
        rows.append(('VGPRs <= clang-19, %s (kernels)' % t, 'all',
                     verdict(pairs or None, pairs and fewer == len(pairs),
                             '%d of %d' % (fewer, len(pairs)))))
    for t in extra_targets(run):
        measured = [k['name'] for k in run.kernels if t in k['quality']]
        for name, r in zip(measured, cycle_ratios(run, t)):
            rows.append(('CU-model cycles, ptxas-amd / clang-19, %s on %s' % (name, t), '-',
                         fmt_ratio(r)))
    if run.startup and run.startup.ok:
        out += ['Start-up alone (`ptxas-amd --version`, no input): %.4f s CPU, %.4f s wall, '
                '%.1f MiB peak RSS; the binary loads %d shared libraries (`ldd`: %s).' % (
                    run.startup.cpu, run.startup.wall, run.startup.rss_mib,
                    len(run.libraries), ', '.join(run.libraries) or 'none'), '']
    out += ['| target | goal | this run |', '|---|---|---|']
    out += ['| %s | %s | %s |' % r for r in rows]
    front = [median(speedups(run, 'nv-ptxas', 'parse'))] + [
        median(speedups(run, 'llc-' + t, 'parse')) for t in TARGETS]
    parsed = [k for k in run.kernels if k['figs']['parse'].ok]
    parse_cpu = sum(k['figs']['parse'].cpu for k in parsed)
    parse_rate = sum(k['insns'] for k in parsed) / parse_cpu if parse_cpu > 0 else None
    parse_rss = max((k['figs']['parse'].rss_mib for k in parsed), default=0.0)
    out += ['', 'Front end alone (`ptxas-amd --parse-only`, whole process): median CPU ratio '
            '%s vs NVIDIA ptxas, %s vs llc-19 gfx90a, %s vs llc-19 gfx1100; %s PTX '
            'instructions/s over all files; peak RSS %.1f MiB.' % (
                fmt_ratio(front[0]), fmt_ratio(front[1]), fmt_ratio(front[2]),
                fmt_rate(parse_rate), parse_rss), '']
    return out


def fmt_rate(rate):
    if rate is None:
        return 'n/a'
    return '%.3gM' % (rate / 1e6) if rate >= 1e6 else '%.3gk' % (rate / 1e3)


def cycle_ratios(run, target, key='cu_cycles'):
    """ptxas-amd / clang-19 per kernel: CU-model cycles, or key='cycles' the per-wave model."""
    out = []
    for k in run.kernels:
        if target not in k['quality']:  # an extra target: only some kernels
            continue
        q = k['quality'][target]
        a, c = q.get('amd'), q.get('clang')
        if a and c and not a['problem'] and not c['problem'] and a.get(key) and c.get(key):
            out.append(a[key] / c[key])
        else:
            out.append(None)
    return out


def speed_table(run, attr, title, unit):
    cols = [c for c in COLUMNS if any(c[0] in k['figs'] for k in run.kernels)]
    out = ['### %s (%s: median [min–max] of %d interleaved runs)' % (title, unit, run.repeats),
           '', '| kernel | PTX insns | ' + ' | '.join(label for _, label in cols) + ' |',
           '|---|---:|' + '---:|' * len(cols)]
    for k in run.kernels:
        out.append('| %s | %d | ' % (k['name'], k['insns']) + ' | '.join(
            fmt_fig(k['figs'].get(c), attr) for c, _ in cols) + ' |')
    return out + ['']


def ratio_table(run):
    out = ['### Speed ratios (competitor CPU time / ptxas-amd CPU time; above 1: ptxas-amd '
           'is faster)', '',
           '| kernel | NVIDIA ptxas / ptxas-amd gfx90a | llc-19 / ptxas-amd gfx90a | '
           'llc-19 / ptxas-amd gfx1100 | clang-19 / ptxas-amd gfx90a | NVIDIA ptxas / '
           'parse-only | llc-19 gfx90a / parse-only | ptxas-amd insns/s (gfx90a) | '
           'parse-only insns/s |', '|---|' + '---:|' * 8]
    for k in run.kernels:
        f = k['figs']
        rate = k['insns'] / f['amd-gfx90a'].cpu if f['amd-gfx90a'].ok and f[
            'amd-gfx90a'].cpu > 0 else None
        prate = k['insns'] / f['parse'].cpu if f['parse'].ok and f['parse'].cpu > 0 else None
        cells = [ratio(f.get('nv-ptxas'), f['amd-gfx90a']),
                 ratio(f.get('llc-gfx90a'), f['amd-gfx90a']),
                 ratio(f.get('llc-gfx1100'), f['amd-gfx1100']),
                 ratio(f.get('clang-gfx90a'), f['amd-gfx90a']),
                 ratio(f.get('nv-ptxas'), f['parse']), ratio(f.get('llc-gfx90a'), f['parse'])]
        out.append('| %s | ' % k['name'] + ' | '.join(fmt_ratio(c) for c in cells) +
                   ' | %s | %s |' % (fmt_rate(rate), fmt_rate(prate)))
    return out + ['']


def rss_table(run):
    cols = [c for c in COLUMNS if any(c[0] in k['figs'] for k in run.kernels)]
    out = ['### Peak RSS (MiB, largest of the runs)', '',
           '| kernel | ' + ' | '.join(label for _, label in cols) + ' |',
           '|---|' + '---:|' * len(cols)]
    for k in run.kernels:
        cells = []
        for c, _ in cols:
            fig = k['figs'].get(c)
            cells.append('%.1f' % fig.rss_mib if fig and fig.ok else
                         ('skipped' if fig is None else 'failed'))
        out.append('| %s | ' % k['name'] + ' | '.join(cells) + ' |')
    return out + ['']


def errors_section(run):
    seen = {}
    for k in run.kernels:
        for c, label in COLUMNS:
            fig = k['figs'].get(c)
            if fig is not None and not fig.ok:
                seen.setdefault((label, fig.error), []).append(k['name'])
    if not seen:
        return []
    out = ['### Compiles that failed (first error line)', '']
    for (label, err), names in sorted(seen.items()):
        out.append('- %s, %d files (%s): `%s`' % (label, len(names), ', '.join(names), err))
    return out + ['']


def clang_ptx_table(run):
    if not run.clang_ptx:
        return []
    cols = [('parse', 'ptxas-amd --parse-only'), ('amd-gfx90a', 'ptxas-amd gfx90a'),
            ('amd-gfx1100', 'ptxas-amd gfx1100'), ('nv-ptxas', 'NVIDIA ptxas sm_80')]
    out = ['### The same kernels through clang-19\'s NVPTX back end (CPU s)', '',
           '| kernel | PTX insns | ' + ' | '.join(label for _, label in cols) +
           ' | NVIDIA ptxas / parse-only |', '|---|---:|' + '---:|' * (len(cols) + 1)]
    for name, (insns, figs) in sorted(run.clang_ptx.items()):
        out.append('| %s | %d | ' % (name, insns) + ' | '.join(
            fmt_fig(figs.get(c)) for c, _ in cols) + ' | %s |' % fmt_ratio(
                ratio(figs.get('nv-ptxas'), figs['parse'])))
    return out + ['']


def scaling_table(run):
    if not run.scales:
        return []
    cols = [c for c in COLUMNS if any(c[0] in f for _, _, f in run.scales)]
    out = ['### Scaling: the large kernel at 1x, 2x, 4x, 8x (CPU s, median; in parentheses '
           'microseconds per PTX instruction)', '',
           '| size | PTX insns | ' + ' | '.join(label for _, label in cols) + ' |',
           '|---|---:|' + '---:|' * len(cols)]
    for scale, insns, figs in run.scales:
        cells = []
        for c, _ in cols:
            fig = figs.get(c)
            if fig is None:
                cells.append('skipped')
            elif not fig.ok:
                cells.append(fmt_fig(fig))
            else:
                cells.append('%.3f (%.3g)' % (fig.cpu, fig.cpu / insns * 1e6))
        out.append('| %dx | %d | ' % (scale, insns) + ' | '.join(cells) + ' |')
    out.append('')
    for c, label in cols:
        grow, top = scaling_ratio(run, c)
        if grow is not None:
            out.append('- %s: time per instruction at %dx is %.2f times that at 1x.'
                       % (label, top, grow))
    return out + ['']


def quality_cell(q, key):
    return str(q[key]) if q and q.get(key) is not None else 'n/a'


def extra_targets(run):
    """The targets outside TARGETS some kernels were measured on (bench/run EXTRA_TARGETS)."""
    return sorted({t for k in run.kernels for t in k['quality']
                   if t not in TARGETS and t != 'passes'})


def quality_table(run, target):
    kernels = [k for k in run.kernels if target in k['quality']]
    out = ['### %s' % target + ('' if target in TARGETS else ' (only %s)' % ', '.join(
        k['name'] for k in kernels)), '',
           '| kernel | compiler | insns | VGPRs | SGPRs | LDS | scratch | waves/SIMD | '
           's_waitcnt | s_nop | dyn. wave insns | per-wave cycles | CU cycles | '
           'achieved waves/SIMD | result |',
           '|---|---|' + '---:|' * 12 + '---|']
    for k in kernels:
        entry = k['quality'][target]
        for comp, label in (('clang', 'clang-19'), ('amd', 'ptxas-amd')):
            q = entry.get(comp)
            if q is None:
                out.append('| %s | %s | not compiled: %s |' % (
                    k['name'], label, entry.get(comp + '_error', '')) + ' |' * 12)
                continue
            vg = '%d+%da' % (q['vgprs'], q['agprs']) if q['agprs'] else str(q['vgprs'])
            result = 'WRONG in amdsim: ' + q['problem'] if q['problem'] else 'correct'
            out.append('| %s | %s | %s | %s | ' % (k['name'], label, q['insns'], vg) + ' | '.join(
                quality_cell(q, key) for key in ('sgprs', 'lds', 'scratch', 'occupancy',
                                                 'waitcnt', 'nop', 'dyn_insns', 'cycles',
                                                 'cu_cycles', 'cu_occupancy')) +
                       ' | %s |' % result.replace('|', '\\|'))
    ratios = cycle_ratios(run, target)
    wave = cycle_ratios(run, target, 'cycles')
    out += ['', 'CU-model cycles ptxas-amd / clang-19 (per-wave model in brackets): ' + ', '.join(
        '%s %s (%s)' % (k['name'], fmt_ratio(r), fmt_ratio(w))
        for k, r, w in zip(kernels, ratios, wave)), '']
    return out


STALLS = (('wait_stall_cycles', 'waiting on s_waitcnt'), ('barrier_stall_cycles', 'at barriers'),
          ('nop_cycles', 's_nop'))
MIX = ('salu', 'smem', 'valu', 'valu_trans', 'valu_f64', 'vmem_load', 'vmem_store',
       'vmem_atomic', 'lds', 'branch', 'waitcnt', 'nop', 'barrier')


def cycles_table(run, target):
    """Where the modelled cycles go: amdsim --stats of both compilers' code, side by side."""
    out = ['### Where the cycles go in the per-wave model, %s (amdsim --stats, whole '
           'dispatch)' % target, '',
           'Stall columns are summed over waves (cycles a wave could not issue), so they can '
           'exceed the dispatch\'s cycles; the mix counts dynamic wave instructions.', '',
           '| kernel | compiler | cycles | ' + ' | '.join(t for _, t in STALLS) + ' | ' +
           ' | '.join(MIX) + ' |', '|---|---|' + '---:|' * (1 + len(STALLS) + len(MIX))]
    for k in run.kernels:
        entry = k['quality'].get(target, {})
        for comp, label in (('clang', 'clang-19'), ('amd', 'ptxas-amd')):
            q = entry.get(comp)
            sim = (q or {}).get('sim') or {}
            if not sim:
                continue
            cells = [str(sim.get('cycles', 'n/a'))] + [str(sim.get(key, 'n/a'))
                                                       for key, _ in STALLS]
            cells += [str(sim.get(key, 'n/a')) for key in MIX]
            out.append('| %s | %s | %s |' % (k['name'], label, ' | '.join(cells)))
    return out + ['']


CU_STALLS = ('wait_vmem', 'wait_lgkm', 'dependency', 'unit', 'barrier', 'other', 'idle')
CU_BUSY = ('valu', 'trans', 'matrix', 'salu', 'vmem', 'lds')


def cu_table(run, target):
    """The CU model's view: occupancy, unit utilisation and why SIMDs did not issue."""
    out = ['### Where the cycles go on one CU, %s (amdsim CU model, `--stats --cu-fill`)' %
           target, '',
           'The launch repeated (copies) until it has twice as many waves as the CU has wave '
           'slots; waves/SIMD: the limit '
           'the resources allow and the achieved average; busy: share of the SIMDs\' cycles '
           '(VMEM and LDS: of the CU\'s one pipe); stalls: SIMD issue cycles with nothing '
           'issued, by the reason of the oldest wave on the SIMD (docs/SIMULATOR.md).', '',
           '| kernel | compiler | CU cycles | copies | VGPRs | waves/SIMD limit | achieved | ' +
           ' | '.join('%s busy %%' % u for u in CU_BUSY) + ' | ' +
           ' | '.join(CU_STALLS) + ' |',
           '|---|---|' + '---:|' * (5 + len(CU_BUSY) + len(CU_STALLS))]
    differ = []
    for k in run.kernels:
        entry = k['quality'].get(target, {})
        for comp, label in (('clang', 'clang-19'), ('amd', 'ptxas-amd')):
            sim = ((entry.get(comp) or {}).get('sim')) or {}
            if 'cu_cycles' not in sim:
                continue
            cells = [str(sim.get(key, 'n/a')) for key in (
                'cu_cycles', 'cu_launch_copies', 'cu_vgprs_per_wave',
                'cu_waves_per_simd_limit', 'cu_occupancy')]
            cells += [str(sim.get('cu_busy_%s_pct' % u, 'n/a')) for u in CU_BUSY]
            cells += [str(sim.get('cu_stall_' + s, 'n/a')) for s in CU_STALLS]
            out.append('| %s | %s | %s |' % (k['name'], label, ' | '.join(cells)))
            static = (entry.get(comp) or {}).get('occupancy')
            if static is not None and sim.get('cu_waves_per_simd_limit') != static:
                differ.append('%s %s (%s vs %s)' % (k['name'], label, static,
                                                     sim.get('cu_waves_per_simd_limit')))
    out += ['', 'Occupancy limit of the CU model vs the static figure of the code-quality table '
            '(same rules, computed apart): ' + (('differs for ' + ', '.join(differ))
                                                if differ else 'the same for every kernel.')]
    return out + ['']


def passes_table(run):
    """Where ptxas-amd's compile time goes: --time-passes per kernel (gfx90a)."""
    stages = []
    for k in run.kernels:
        for st in k['quality'].get('passes', {}) or {}:
            if st not in stages and st != 'total':
                stages.append(st)
    if not stages:
        return []
    out = ['### Where ptxas-amd\'s compile time goes (gfx90a, `--time-passes`, best of 3, '
           'in-process: start-up excluded)', '',
           'Per stage: milliseconds (share of the in-process total); the last column is the '
           'memory the function arena handed out, summed over stages.', '',
           '| kernel | PTX insns | ' + ' | '.join(stages) + ' | total ms | insns/s | KiB |',
           '|---|---:|' + '---:|' * (len(stages) + 3)]
    for k in run.kernels:
        p = k['quality'].get('passes') or {}
        if not p:
            out.append('| %s | %d | not compiled |' % (k['name'], k['insns']) +
                       ' |' * (len(stages) + 2))
            continue
        total = sum(v[0] for st, v in p.items() if st != 'total')
        cells = ['%.2f (%.0f%%)' % (p[st][0], 100 * p[st][0] / total if total else 0)
                 if st in p else 'n/a' for st in stages]
        kib = sum(v[1] for st, v in p.items() if st != 'total')
        rate = k['insns'] / (total / 1e3) if total else 0
        out.append('| %s | %d | %s | %.2f | %s | %.0f |' % (k['name'], k['insns'],
                                                           ' | '.join(cells), total,
                                                           fmt_rate(rate), kib))
    return out + ['']


def nv_regs_table(run):
    out = ['### Registers per thread: NVIDIA ptxas -v (sm_80) as a reference point', '',
           '| kernel | NVIDIA ptxas | clang-19 gfx90a VGPRs | clang-19 gfx1100 VGPRs | '
           'ptxas-amd gfx90a | ptxas-amd gfx1100 |', '|---|---:|---:|---:|---:|---:|']
    for k in run.kernels:
        cells = [str(k['nv_regs']) if k['nv_regs'] is not None else 'n/a']
        for comp in ('clang', 'amd'):
            for t in TARGETS:
                q = k['quality'][t].get(comp)
                cells.append(str(q['vgprs']) if q else 'n/a')
        out.append('| %s | ' % k['name'] + ' | '.join(cells) + ' |')
    sources = sorted({k['nv_regs_source'] for k in run.kernels if k['nv_regs_source']})
    return out + ['', 'Source of the NVIDIA figures: %s.' % ', '.join(sources), '']


def header(run):
    mode = 'quick (one run per figure, no large kernel, front-end scaling only)' \
        if run.quick else 'full'
    out = ['# ptxas-amd benchmark report', '',
           'Made by `bench/run%s` on %s UTC (%.0f min). Mode: %s.' % (
               ' --quick' if run.quick else '', run.started.strftime('%Y-%m-%d %H:%M'),
               (run.finished - run.started).total_seconds() / 60, mode), '',
           '- Machine: %s' % run.machine,
           '- Load average at start %.1f, at end %.1f (a shared machine: wall times vary '
           'with load; CPU times are the steadier figure)' % (run.load_start[0],
                                                              run.load_end[0])]
    for tool, version in run.versions.items():
        out.append('- %s: %s' % (tool, version))
    if not run.tools['nv-ptxas']:
        out.append('- NVIDIA ptxas not found: its columns are skipped')
    if run.skipped:
        out.append('- Not measured (over the `--time-limit` of the run): %s'
                   % ', '.join(run.skipped))
    out += ['- Charts: [compile-ratio.svg](compile-ratio.svg), '
            '[cycles-ratio.svg](cycles-ratio.svg)', '']
    return out


def method_section():
    return ['## Method', '',
            'Every figure times a whole process (start-up included): wall time around the '
            'child, CPU time (user + system) and peak RSS from `os.wait4`, which include the '
            'children the process waited for (clang-19\'s ld.lld). The commands of one file '
            'run interleaved (A B C A B C ...); a command whose first run took more than 5 s '
            'of CPU is run only once (its cell then has no range). PTX comes from nvcc -arch '
            'sm_80 -O3 (committed, '
            '`bench/kernels/generate.sh`). llc-19 -O3 compiles the optimized IR clang-19 -O3 '
            'emitted for the same CUDA source (`-x hip -emit-llvm`; only llc is timed); '
            'clang-19 is the whole `-x hip --offload-arch=T -O3` compile to a code object. '
            'PTX instructions are counted statements of the function bodies (no directives). '
            'Occupancy is waves per SIMD allowed by VGPRs (gfx90a and gfx942: 512 per lane incl. AGPRs, '
            'granule 8; gfx1100 wave32: 1536, granule 24), SGPRs (gfx90a: 800, granule 16) and '
            'LDS per block (64 KiB per CU / 128 KiB per WGP, 4 SIMDs), capped at 8 (gfx90a) / '
            '16 (gfx1100). Dynamic figures are `amdsim --stats --cu-fill` (seed 0) on the fixed '
            'inputs of `bench/lib/cases.py`, whose results are checked against CPU references '
            'there. CU cycles: the launch scheduled on one compute unit by amdsim\'s CU model '
            '(docs/SIMULATOR.md: residency by VGPRs/SGPRs/LDS, per-SIMD issue arbitration, '
            'dependency latencies, memory pipes, bank conflicts, DRAM bandwidth), the launch '
            'repeated until it has twice as many waves as the CU has wave slots (the same '
            'work for both compilers); per-wave cycles: the older model that '
            'times each wave alone. The tensor-core GEMM is also measured on gfx942 (code '
            'quality only, one untimed compile per compiler: `EXTRA_TARGETS` in bench/run).', '']


def write_charts(run, out_dir):
    has_amd = any(k['figs']['amd-gfx90a'].ok for k in run.kernels)
    ours = 'amd-gfx90a' if has_amd else 'parse'
    ours1100 = 'amd-gfx1100' if has_amd else 'parse'
    what = 'ptxas-amd' if has_amd else 'ptxas-amd --parse-only (no code generation yet)'
    series = [('NVIDIA ptxas / %s' % what, '#76b900', not has_amd),
              ('llc-19 gfx90a / %s' % what, '#ed1c24', not has_amd),
              ('llc-19 gfx1100 / %s' % what, '#1f77b4', not has_amd)]
    rows = [(k['name'], [ratio(k['figs'].get('nv-ptxas'), k['figs'][ours]),
                         ratio(k['figs'].get('llc-gfx90a'), k['figs'][ours]),
                         ratio(k['figs'].get('llc-gfx1100'), k['figs'][ours1100])])
            for k in run.kernels]
    sub = 'CPU time ratio per PTX file (medians of whole-process runs); above 1: ptxas-amd faster'
    with open(os.path.join(out_dir, 'compile-ratio.svg'), 'w') as f:
        f.write(svg.bar_chart('Compile time: competitor / ptxas-amd', sub, rows, series,
                              TARGET_SPEEDUP, 'target 20x', log=True))
    series = [('ptxas-amd / clang-19, gfx90a', '#ed1c24', False),
              ('ptxas-amd / clang-19, gfx1100', '#1f77b4', False)]
    rows, notes = [], {}
    ratios = {t: cycle_ratios(run, t) for t in TARGETS}
    for i, k in enumerate(run.kernels):
        rows.append((k['name'], [ratios[t][i] for t in TARGETS]))
        if all(ratios[t][i] is None for t in TARGETS):
            q = k['quality']['gfx90a']
            notes[k['name']] = ('ptxas-amd: ' + (q.get('amd_error') or 'wrong result')
                                if not q.get('amd') else 'no figure (a result is wrong)')[:90]
    sub = ('amdsim CU-model cycles (launch on one CU) for the same kernel and input; below 1: '
           'ptxas-amd faster')
    with open(os.path.join(out_dir, 'cycles-ratio.svg'), 'w') as f:
        f.write(svg.bar_chart('CU-model cycles: ptxas-amd / clang-19', sub, rows, series, 1.0,
                              'target 1.0x', log=False, notes=notes))


def write(run, out_dir):
    lines = header(run) + targets_section(run)
    lines += ['## Compile speed', '']
    lines += speed_table(run, 'cpu', 'CPU time', 'seconds')
    lines += ratio_table(run)
    lines += speed_table(run, 'wall', 'Wall time', 'seconds')
    lines += rss_table(run) + errors_section(run) + scaling_table(run) + clang_ptx_table(run)
    lines += passes_table(run)
    lines += ['## Code quality (same CUDA source: clang-19 -O3 vs ptxas-amd -O3 on nvcc\'s PTX)',
              '']
    for t in TARGETS + tuple(extra_targets(run)):
        lines += quality_table(run, t)
    for t in TARGETS:
        lines += cu_table(run, t)
    for t in TARGETS:
        lines += cycles_table(run, t)
    lines += nv_regs_table(run) + method_section()
    with open(os.path.join(out_dir, 'REPORT.md'), 'w') as f:
        f.write('\n'.join(lines))
    write_charts(run, out_dir)
