"""The SIMT executor of the reference interpreter: runs a flattened kernel (loader.py) for one
CTA, warp by warp, thread by thread.

Model (PTX ISA, "SIMT" and "Independent thread scheduling" as observed on sm_70+):
- A CTA's threads are split into warps of 32 lanes by linear thread id.
- Within a warp, the threads that have not exited and are not waiting at a barrier are
  scheduled by lowest program counter: the group of threads with the minimum PC executes the
  next instruction together (that group is the active mask; `activemask` returns it).  This
  reconverges divergent paths at the earliest common point after both (an if/else's join, a
  loop's exit once every lane has left it), which is what the hardware set shows.
- A guard predicate narrows the active group for that instruction only.
- Warp-level instructions (shfl/vote/match/redux/bar.warp.sync) require every lane of their
  membermask to be in the executing group; anything else is undefined in PTX and raised as an
  error (the fuzzer's generator must not produce it).
- bar.sync/barrier.sync: a thread waits until every non-exited thread of the CTA has arrived
  (PTX: the barrier counts all threads of the CTA); warps are switched while one waits.
"""

import memory as mem
from ops_common import OpContext, UB
import intops
import floatops
import warpops
import tensorops
import memops
import intsatops

WARP = 32


class Regs(dict):
    """A thread's registers, remembering when each was last written (a count of writes): the
    H100's choice among several f64 NaN operands follows it (floatops._f64_nan_order)."""
    __slots__ = ('when', 'clock')

    def __init__(self, regs):
        super().__init__(regs)
        self.when, self.clock = {}, 0

    def __setitem__(self, name, value):
        self.clock += 1
        self.when[name] = self.clock
        dict.__setitem__(self, name, value)


class Thread:
    __slots__ = ('r', 'pc', 'cc', 'tid', 'lane', 'warp', 'local', 'param', 'done', 'at_bar',
                 'cta')

    def __init__(self, tid, regs, local, param, cta, warp_size=WARP):
        self.r = Regs(regs)
        self.pc = 0
        self.cc = 0
        self.tid = tid
        self.lane = tid % warp_size
        self.warp = tid // warp_size
        self.local = local
        self.param = param
        self.done = False
        self.at_bar = False
        self.cta = cta


class Cta:
    def __init__(self, gmem, shared, ntid, ctaid=0, nctaid=1):
        self.gmem, self.shared, self.ntid, self.ctaid, self.nctaid = gmem, shared, ntid, ctaid, \
            nctaid


OPS = {}
for _m in (intops, floatops, warpops, memops, intsatops, tensorops):  # intsatops wraps add/min/max/cvt
    OPS.update(_m.OPS)


class CompiledKernel:
    """A flat kernel with every instruction turned into (kind, payload, guard)."""

    def __init__(self, flat, strict=True, quirk16=False):
        self.flat = flat
        self.strict = strict  # raise UB on what PTX leaves undefined (else model the hardware)
        self.quirk16 = quirk16  # the H100's +32768 after neg/abs.s16 of -32768 (ops_common)
        self.local_layout = mem.SpaceLayout()
        self.shared_layout = mem.SpaceLayout()
        self.param_layout = mem.SpaceLayout()
        for v in flat.entry.params:
            self.param_layout.place(v)
        for v in flat.vars:
            {'.local': self.local_layout, '.shared': self.shared_layout,
             '.param': self.param_layout}[v.space].place(v)
        self.global_vars = []
        ctx = OpContext(flat, self)
        self.code = []
        for ins in flat.code:
            self.code.append(self._compile(ins, ctx))
        self.regs = {r: 0 for r in flat.regs}

    def _compile(self, ins, ctx):
        guard = None
        if ins.guard:
            g, neg = ins.guard
            guard = (g, 1 if neg else 0)
        if ins.op == 'bra':
            return ('bra', ins.label_target, guard, ins)
        if ins.op == 'exit':
            return ('exit', None, guard, ins)
        comp = OPS.get(ins.op)
        if comp is None:
            raise UB('%s: instruction %s is not supported by the interpreter' % (ins.line, ins.op))
        kind, fn = comp(ins, ctx)
        return (kind, fn, guard, ins)


class StepLimit(Exception):
    pass


def run_cta(ck, ntid, params_bytes, gmem, max_steps=2000000, warp_size=WARP):
    """Runs one CTA of ntid threads.  params_bytes: the kernel's .param block (bytes, laid out by
    ck.param_layout).  Global memory gmem is updated in place.  warp_size 64 models ptxas-amd's
    64-lane warps on wave64 (%laneid up to 63) for programs without warp instructions, whose
    32-bit masks cannot name 64 lanes (they are rejected then)."""
    if warp_size != WARP and any(e[0] == 'warp' for e in ck.code):
        raise UB('warp instructions are modelled with 32-lane warps only')
    shared = bytearray(ck.shared_layout.size)
    cta = Cta(gmem, shared, ntid)
    threads = []
    for t in range(ntid):
        local = bytearray(ck.local_layout.size)
        param = bytearray(max(ck.param_layout.size, 16))
        param[:len(params_bytes)] = params_bytes
        threads.append(Thread(t, ck.regs, local, param, cta, warp_size))
    warps = [threads[w:w + warp_size] for w in range(0, ntid, warp_size)]
    steps = 0
    code = ck.code
    while True:
        progressed = False
        for warp in warps:
            while True:
                live = [t for t in warp if not t.done and not t.at_bar]
                if not live:
                    break
                pc = min(t.pc for t in live)
                group = [t for t in live if t.pc == pc]
                steps += 1
                if steps > max_steps:
                    raise StepLimit('more than %d warp steps' % max_steps)
                _step(code[pc], group, warp)
                progressed = True
        if all(t.done for t in threads):
            return
        waiting = [t for t in threads if t.at_bar]
        if waiting and all(t.done or t.at_bar for t in threads):
            for t in waiting:
                t.at_bar = False
                t.pc += 1
            continue
        if not progressed:
            raise UB('deadlock: no thread can proceed')


def _step(entry, group, warp):
    kind, fn, guard, ins = entry
    if guard is not None:
        g, neg = guard
        active = [t for t in group if t.r[g] ^ neg]
    else:
        active = group
    if kind == 'lane':
        for t in active:
            fn(t)
        for t in group:
            t.pc += 1
    elif kind == 'bra':
        for t in group:
            t.pc += 1
        for t in active:
            t.pc = fn
    elif kind == 'exit':
        for t in active:
            t.done = True
        for t in group:
            if not t.done:
                t.pc += 1
    elif kind == 'warp':
        if active:
            fn(active, group, warp)
        for t in group:
            t.pc += 1
    elif kind == 'bar':
        for t in active:
            t.at_bar = True
        for t in group:
            if not t.at_bar:
                t.pc += 1
    else:
        raise UB('%s: unknown kind %s' % (ins.line, kind))


def launch(ck, ntid, args, gmem):
    """args: list of ints, one per kernel parameter (pointers are global addresses)."""
    pb = bytearray(max(ck.param_layout.size, 16))
    for v, a in zip(ck.flat.entry.params, args):
        mem.store(pb, ck.param_layout.addr[v.name], v.size, a)
    run_cta(ck, ntid, bytes(pb), gmem)
