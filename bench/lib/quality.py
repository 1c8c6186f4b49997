"""Code quality of one code object for bench/run: static figures from llvm-readelf-19 and
llvm-objdump-19, dynamic figures and correctness from amdsim.

Static: instructions of the kernel's function symbol (bounded by the symbol's size, so the
code-end padding after it is not counted), s_waitcnt* and s_nop counts, VGPRs (plus AGPRs),
SGPRs, LDS and scratch bytes from the NT_AMDGPU_METADATA note, and the occupancy these allow.
Dynamic: `amdsim --stats` on the case's fixed input (wave instructions, modelled cycles), and
the output buffers checked against the case's CPU reference.
"""

import os
import re
import subprocess

READELF = os.environ.get('READELF', 'llvm-readelf-19')
OBJDUMP = os.environ.get('OBJDUMP', 'llvm-objdump-19')
SIM_TIMEOUT = 600

# Occupancy model (waves per SIMD), from AMD's CDNA2 and RDNA3 ISA guides and LLVM's
# AMDGPUBaseInfo: gfx90a has 512 VGPRs (VGPRs + AGPRs, granule 8) per SIMD lane, 800 SGPRs
# (granule 16) per SIMD, at most 8 waves per SIMD, 64 KiB LDS per CU of 4 SIMDs; gfx1100 has
# 1536 VGPRs per SIMD lane in wave32 (granule 24), at most 16 waves per SIMD, 128 KiB LDS per
# WGP of 4 SIMDs (WGP mode).  Scratch and barriers do not limit it here.
OCCUPANCY = {
    'gfx90a': dict(vgprs=512, vgpr_granule=8, sgprs=800, sgpr_granule=16, max_waves=8,
                   lds=65536, simds=4, max_groups=16),
    'gfx942': dict(vgprs=512, vgpr_granule=8, sgprs=800, sgpr_granule=16, max_waves=8,
                   lds=65536, simds=4, max_groups=16),  # CDNA3: as CDNA2 (unified file)
    'gfx1100': dict(vgprs=1536, vgpr_granule=24, sgprs=0, sgpr_granule=0, max_waves=16,
                    lds=131072, simds=4, max_groups=32),
}


def read_metadata(hsaco, kernel):
    """The kernel's scalar keys of the metadata note, as strings (e.g. 'vgpr_count')."""
    text = subprocess.run([READELF, '--notes', hsaco], check=True, stdout=subprocess.PIPE,
                          text=True).stdout
    keys, current = {}, None
    for line in text.splitlines():
        m = re.match(r'^(  - |    )\.([a-z_]+):\s*(\S.*)?$', line)
        if not m:
            continue
        if m.group(1) == '  - ':
            current = {}
        if current is not None:
            current[m.group(2)] = (m.group(3) or '').strip("'")
            if m.group(2) == 'name' and current.get('name') == kernel:
                keys = current
    return keys


def align_up(value, granule):
    return (value + granule - 1) // granule * granule


def occupancy(target, vgprs, sgprs, lds_bytes, block_threads, wave_size):
    model = OCCUPANCY[target]
    waves = model['max_waves']
    waves = min(waves, model['vgprs'] // max(align_up(max(vgprs, 1), model['vgpr_granule']), 1))
    if model['sgprs']:
        waves = min(waves, model['sgprs'] // align_up(max(sgprs, 1), model['sgpr_granule']))
    if lds_bytes:  # LLVM-19's rule: whole workgroups in the LDS and in the wave slots
        waves_per_group = -(-block_threads // wave_size)
        groups = model['lds'] // lds_bytes
        slots = waves * model['simds']
        fit = slots if waves_per_group <= 1 else min(slots // waves_per_group,
                                                      model['max_groups'])
        waves = min(waves, -(-min(groups, fit) * waves_per_group // model['simds']))
    return waves


def kernel_range(hsaco, kernel):
    """(start address, size) of the kernel's function symbol."""
    text = subprocess.run([READELF, '-sW', hsaco], check=True, stdout=subprocess.PIPE,
                          text=True).stdout
    for line in text.splitlines():
        cols = line.split()
        if len(cols) >= 8 and cols[3] == 'FUNC' and cols[7] == kernel:
            return int(cols[1], 16), int(cols[2])
    raise RuntimeError('%s: no FUNC symbol %s' % (hsaco, kernel))


def count_instructions(hsaco, kernel):
    """(instructions, s_waitcnt*, s_nop) inside the kernel's symbol."""
    start, size = kernel_range(hsaco, kernel)
    text = subprocess.run([OBJDUMP, '-d', hsaco], check=True, stdout=subprocess.PIPE,
                          text=True).stdout
    total = waits = nops = 0
    for line in text.splitlines():
        m = re.match(r'^\s+([a-z_0-9]+)\b.*//\s*([0-9A-Fa-f]+):', line)
        if not m or not start <= int(m.group(2), 16) < start + size:
            continue
        total += 1
        waits += m.group(1).startswith('s_waitcnt')
        nops += m.group(1) == 's_nop'
    return total, waits, nops


def static_figures(hsaco, kernel, target, block_threads):
    meta = read_metadata(hsaco, kernel)
    insns, waits, nops = count_instructions(hsaco, kernel)
    vgprs = int(meta.get('vgpr_count', 0))
    agprs = int(meta.get('agpr_count', 0))
    sgprs = int(meta.get('sgpr_count', 0))
    lds = int(meta.get('group_segment_fixed_size', 0))
    wave = int(meta.get('wavefront_size', 64))
    unified = align_up(vgprs, 4) + agprs if agprs else vgprs
    return dict(insns=insns, waitcnt=waits, nop=nops, vgprs=vgprs, agprs=agprs, sgprs=sgprs,
                lds=lds, scratch=int(meta.get('private_segment_fixed_size', 0)),
                wave=wave, occupancy=occupancy(target, unified, sgprs, lds, block_threads,
                                               wave))


def sim_args(case, workdir):
    """amdsim argument words for the case; returns (words, {arg index: output file})."""
    words, outputs = [], {}
    for i, (kind, value) in enumerate(case.args):
        path = os.path.join(workdir, 'arg%d.bin' % i)
        out = os.path.join(workdir, 'arg%d.out' % i)
        if kind in ('in', 'inout'):
            with open(path, 'wb') as f:
                f.write(value)
        if kind == 'in':
            words.append('in:' + path)
        elif kind == 'inout':
            words.append('inout:%s:%s' % (path, out))
            outputs[i] = out
        elif kind == 'out':
            words.append('out:%d:%s' % (value, out))
            outputs[i] = out
        else:
            words.append('%s:%s' % (kind, repr(float(value)) if kind[0] == 'f' else value))
    return words, outputs


def parse_stats(text):
    """`NAME VALUE` lines of amdsim --stats: integers, and the CU model's fractions
    (cu_occupancy, cu_busy_*_pct) as floats."""
    stats = {}
    for line in text.splitlines():
        cols = line.split()
        if len(cols) != 2:
            continue
        if cols[1].isdigit():
            stats[cols[0]] = int(cols[1])
        elif re.fullmatch(r'\d+\.\d+', cols[1]):
            stats[cols[0]] = float(cols[1])
    return stats


def simulate(amdsim, hsaco, case, workdir):
    """Runs the case; returns (stats dict, None) when the results are right, else
    (stats or {}, reason)."""
    os.makedirs(workdir, exist_ok=True)
    words, outputs = sim_args(case, workdir)
    dims = [','.join(str(d) for d in case.grid), ','.join(str(d) for d in case.block)]
    # --cu-fill: the CU model repeats the case's launch until it has twice as many waves as
    # the CU has wave slots (the same work for both compilers), so
    # that occupancy and latency hiding count whatever the case's grid
    cmd = [amdsim, hsaco, '--kernel', case.kernel, '--grid', dims[0], '--block', dims[1],
           '--stats', '--cu-fill'] + words
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=SIM_TIMEOUT)
    except subprocess.TimeoutExpired:
        return {}, 'amdsim timed out after %d s' % SIM_TIMEOUT
    stats = parse_stats(r.stdout)
    if r.returncode == 3:
        first = r.stderr.strip().splitlines()
        return stats, 'waitcnt/hazard violation: ' + (first[0] if first else '')
    if r.returncode != 0:
        first = r.stderr.strip().splitlines()
        return stats, 'amdsim: ' + (first[0] if first else 'exit %d' % r.returncode)
    results = {}
    for i, path in outputs.items():
        with open(path, 'rb') as f:
            results[i] = f.read()
    reason = case.check(results)
    return stats, ('wrong result: ' + reason) if reason else None
