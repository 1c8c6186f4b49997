"""Random PTX program generator for the differential fuzzer (fuzz.py), checked against the
reference interpreter.  Deterministic per seed.  Programs are valid CUDA PTX without
undefined behaviour:
- warp operations only where every lane of the membermask executes them convergently (the
  full mask at the top level, which every thread reaches; or a mask computed by a ballot of
  the branch condition just before the branch, used inside that branch);
- bar.sync only at the top level or in branches on kernel parameters taken by the whole CTA,
  including right after the join of divergent branches;
- loops bounded (trip counts below 8, counters never reset);
- memory accesses in bounds and aligned.

Aims at what the hardware set (../shared/ptx-hw/random) does not cover: predicates and
uniform values (kernel parameters) assigned under divergent branches and read after the
joins, barriers after divergent regions, .local arrays addressed by generic ld/st naming the
variable, loops with divergent exits and values live out of them, warp operations under
partial membermasks, spill pressure (--maxrregcount 32), and calls of .func functions.

Kernel: .entry fuzz(.param .u64 in, .param .u64 out, .param .u32 u0, .param .u32 u1), one CTA
of THREADS threads; thread t reads NIN words at in[t*NIN] and writes its results at
out[t*nout] (nout is in the returned program's info).

usage: gen_fuzz.py SEED [> prog.ptx]
"""

import random
import sys

THREADS = 64
NIN = 8
MAX_SLOTS = 96

INT_BINOPS = ['add.u32', 'sub.u32', 'mul.lo.u32', 'xor.b32', 'and.b32', 'or.b32', 'min.u32',
              'max.s32', 'mul.hi.u32', 'min.s32', 'max.u32']


# Feature classes, each enabled per seed with probability 0.6 (so that one compiler bug does
# not make every seed fail, and a failing seed's features point at the cause).
FEATURES = ('pred_phi', 'uniform_setp', 'uniform_mov', 'local_generic', 'bar', 'warp',
            'warp_partial', 'call', 'loop', 'loop_exit', 'local')


class Gen:
    def __init__(self, seed, disable=()):
        self.rng = random.Random(seed)
        self.seed = seed
        self.feat = {f: self.rng.random() < 0.6 for f in FEATURES}
        for f in disable:  # drawn first, then turned off: the rest of the stream is kept
            self.feat[f] = False
        self.body = []
        self.nr = self.np = self.nl = self.nrd = self.nlab = 0
        self.slots = 0
        self.uses_warp = False
        self.local_arrays = []
        self.funcs = []
        self.func_text = []
        self.spill = seed % 4 == 3
        self.params_decl = []

    # -------------------------------------------------------------- names
    def r(self):
        self.nr += 1
        return '%%r%d' % self.nr

    def p(self):
        self.np += 1
        return '%%p%d' % self.np

    def rd(self):
        self.nrd += 1
        return '%%rd%d' % self.nrd

    def label(self, what):
        self.nlab += 1
        return '$L_%s_%d' % (what, self.nlab)

    def emit(self, s):
        self.body.append('\t' + s if not s.endswith(':') else s)

    def store(self, reg):
        if self.slots >= MAX_SLOTS:
            return
        self.emit('st.global.b32 [%%pout+%d], %s;' % (4 * self.slots, reg))
        self.slots += 1

    def store_pred(self, p):
        t = self.r()
        self.emit('selp.u32 %s, 1, 0, %s;' % (t, p))
        self.store(t)

    # -------------------------------------------------------------- values
    def pick(self, pool):
        return self.rng.choice(pool)

    def binop(self, pool, dst=None):
        op = self.rng.choice(INT_BINOPS + ['shl.b32', 'shr.u32', 'shr.s32', 'mad.lo.u32',
                                           'selp', 'lop3', 'divrem', 'bfe', 'wide', 'unary'])
        d = dst or self.r()
        a, b = self.pick(pool), self.pick(pool)
        if op == 'divrem':  # a divisor that is never 0
            t = self.r()
            self.emit('or.b32 %s, %s, %d;' % (t, b, 1 << self.rng.randrange(12)))
            self.emit('%s %s, %s, %s;' % (self.rng.choice(['div.u32', 'rem.u32', 'div.s32',
                                                           'rem.s32']), d, a, t))
        elif op == 'bfe':
            self.emit('bfe.%s32 %s, %s, %d, %d;' % (self.rng.choice('us'), d, a,
                                                   self.rng.randrange(32),
                                                   self.rng.randrange(1, 33)))
        elif op == 'wide':  # through 64 bits and back
            w = self.rd()
            self.emit('mul.wide.%s32 %s, %s, %s;' % (self.rng.choice('us'), w, a, b))
            self.emit('shr.u64 %s, %s, %d;' % (w, w, self.rng.randrange(40)))
            self.emit('cvt.u32.u64 %s, %s;' % (d, w))
        elif op == 'unary':
            self.emit('%s %s, %s;' % (self.rng.choice(['popc.b32', 'brev.b32', 'clz.b32',
                                                      'not.b32', 'neg.s32']), d, a))
        elif op.startswith('sh'):
            self.emit('%s %s, %s, %d;' % (op, d, a, self.rng.randrange(0, 32)))
        elif op == 'mad.lo.u32':
            self.emit('mad.lo.u32 %s, %s, %s, %s;' % (d, a, b, self.pick(pool)))
        elif op == 'selp':
            p = self.p()
            self.emit('setp.%s.u32 %s, %s, %s;' % (self.rng.choice(['lt', 'ge', 'ne']), p, a, b))
            self.emit('selp.b32 %s, %s, %s, %s;' % (d, a, self.pick(pool), p))
        elif op == 'lop3':
            self.emit('lop3.b32 %s, %s, %s, %s, 0x%02x;' % (d, a, b, self.pick(pool),
                                                          self.rng.randrange(256)))
        else:
            self.emit('%s %s, %s, %s;' % (op, d, a, b))
        return d

    def lane_cond(self, pool):
        """A predicate that differs between lanes."""
        p = self.p()
        k = self.rng.randrange(4)
        if k == 0:
            t = self.r()
            self.emit('and.b32 %s, %%laneid_r, %d;' % (t, self.rng.choice([1, 2, 4, 8, 16, 3, 5])))
            self.emit('setp.ne.u32 %s, %s, 0;' % (p, t))
        elif k == 1:
            self.emit('setp.lt.u32 %s, %%laneid_r, %d;' % (p, self.rng.randrange(1, 32)))
        elif k == 2:
            t = self.r()
            self.emit('and.b32 %s, %s, %d;' % (t, self.pick(pool), 1 << self.rng.randrange(8)))
            self.emit('setp.eq.u32 %s, %s, 0;' % (p, t))
        else:
            self.emit('setp.%s.u32 %s, %s, %s;' % (self.rng.choice(['lt', 'gt', 'le']), p,
                                                  self.pick(pool), self.pick(pool)))
        return p

    def uniform_cond(self):
        p = self.p()
        self.emit('setp.%s.u32 %s, %%u0, %%u1;' % (self.rng.choice(['lt', 'ge', 'ne', 'eq']), p))
        return p

    # -------------------------------------------------------------- statements
    def block(self, pool, depth, n, top):
        for _ in range(n):
            self.statement(pool, depth, top)

    def statement(self, pool, depth, top):
        f = self.feat
        kinds = [('arith', 6), ('if', 3 if depth < 3 else 0),
                 ('loop', 2 if depth < 2 and f['loop'] else 0),
                 ('local', 2 if self.local_arrays else 0),
                 ('call', 1 if self.funcs and depth < 3 else 0)]
        if top:
            kinds += [('bar', 2 if f['bar'] else 0), ('warp', 2 if f['warp'] else 0),
                      ('warp_partial', 2 if f['warp_partial'] else 0)]
        total = sum(w for _, w in kinds)
        x = self.rng.randrange(total)
        for k, w in kinds:
            if x < w:
                break
            x -= w
        if k == 'if':
            self.s_if(pool, depth, top)
        else:
            getattr(self, 's_' + k)(pool, depth)

    def s_arith(self, pool, depth):
        d = self.binop(pool)
        if self.rng.random() < 0.5:
            self.store(d)
        pool.append(d)

    def s_if(self, pool, depth, top=False):
        """if or if/else with phis; under a uniform condition (kernel parameters) reached by
        every thread, the branches are still 'top level' for barriers and full-mask warp
        operations (every thread of the CTA takes the same path)."""
        uniform = self.rng.random() < 0.25
        inner_top = top and uniform
        # phi candidates: a value and a predicate defined before, reassigned in the branch
        x = self.r()
        self.emit('mov.b32 %s, %s;' % (x, self.pick(pool)))
        q = self.lane_cond(pool)
        qv = self.p()
        self.emit('mov.pred %s, %s;' % (qv, q))
        c = self.uniform_cond() if uniform else self.lane_cond(pool)
        els, end = self.label('else'), self.label('join')
        has_else = self.rng.random() < 0.6
        self.emit('@!%s bra %s;' % (c, els if has_else else end))
        inner = list(pool)
        self.block(inner, depth + 1, self.rng.randrange(1, 4), inner_top)
        self.assign_in_branch(x, qv, inner)
        if has_else:
            self.emit('bra %s;' % end)
            self.emit('%s:' % els)
            inner = list(pool)
            self.block(inner, depth + 1, self.rng.randrange(0, 3), inner_top)
            if self.rng.random() < 0.5:
                self.assign_in_branch(x, qv, inner)
        self.emit('%s:' % end)
        self.store(x)
        self.store_pred(qv)
        t = self.r()
        self.emit('selp.b32 %s, %s, %s, %s;' % (t, x, self.pick(pool), qv))
        self.store(t)
        pool.append(x)
        pool.append(t)

    def assign_in_branch(self, x, qv, inner):
        """The branch's values of the phis: a uniform value (kernel parameter) or a computed
        one, and a predicate from uniform operands (the setp bug) or lane values."""
        k = self.rng.randrange(3) if self.feat['uniform_mov'] else 2
        if k == 0:
            self.emit('mov.b32 %s, %%u%d;' % (x, self.rng.randrange(2)))
        elif k == 1:
            self.emit('add.u32 %s, %%u0, %d;' % (x, self.rng.randrange(100)))
        else:
            self.binop(inner, dst=x)
        if not self.feat['pred_phi']:
            return
        if self.feat['uniform_setp'] and self.rng.random() < 0.7:
            self.emit('setp.%s.u32 %s, %%u0, %%u1;' % (self.rng.choice(['lt', 'ge', 'ne', 'eq']),
                                                      qv))
        else:
            self.emit('setp.ne.u32 %s, %s, %s;' % (qv, self.pick(inner), self.pick(inner)))

    def s_loop(self, pool, depth):
        i, n, acc = self.r(), self.r(), self.r()
        self.emit('mov.u32 %s, 0;' % i)
        self.emit('and.b32 %s, %s, 7;' % (n, self.pick(pool)))
        self.emit('mov.b32 %s, %s;' % (acc, self.pick(pool)))
        head, exit_ = self.label('loop'), self.label('exit')
        self.emit('%s:' % head)
        p = self.p()
        self.emit('setp.ge.u32 %s, %s, %s;' % (p, i, n))
        self.emit('@%s bra %s;' % (p, exit_))
        inner = list(pool) + [acc, i]
        if self.rng.random() < 0.5:
            self.block(inner, depth + 1, self.rng.randrange(0, 2), False)
        self.binop(inner, dst=acc)
        if self.feat['loop_exit'] and self.rng.random() < 0.5:  # a divergent early exit
            b = self.p()
            t = self.r()
            self.emit('and.b32 %s, %s, %d;' % (t, acc, self.rng.choice([3, 5, 7, 12])))
            self.emit('setp.eq.u32 %s, %s, 0;' % (b, t))
            self.emit('@%s bra %s;' % (b, exit_))
        self.emit('add.u32 %s, %s, 1;' % (i, i))
        self.emit('bra %s;' % head)
        self.emit('%s:' % exit_)
        self.store(i)
        self.store(acc)
        pool += [acc, i]

    def s_local(self, pool, depth):
        if not self.local_arrays:
            return self.s_arith(pool, depth)
        arr = self.rng.choice(self.local_arrays)
        generic_names = self.feat['local_generic']
        k = self.rng.randrange(3) if generic_names else self.rng.choice([1, 2])
        v = self.pick(pool)
        if k == 0:  # generic ld/st naming the variable
            j, m = self.rng.randrange(8), self.rng.randrange(8)
            self.emit('st.u32 [%s+%d], %s;' % (arr, 4 * j, v))
            d = self.r()
            self.emit('ld.u32 %s, [%s+%d];' % (d, arr, 4 * m))
        elif k == 1:  # .local space
            j, m = self.rng.randrange(8), self.rng.randrange(8)
            self.emit('st.local.u32 [%s+%d], %s;' % (arr, 4 * j, v))
            d = self.r()
            self.emit('ld.local.u32 %s, [%s+%d];' % (d, arr, 4 * m))
        else:  # a generic pointer from cvta, indexed by a lane value
            idx, a, g, off = self.r(), self.rd(), self.rd(), self.rd()
            self.emit('and.b32 %s, %s, 7;' % (idx, self.pick(pool)))
            self.emit('mov.u64 %s, %s;' % (a, arr))
            self.emit('cvta.local.u64 %s, %s;' % (g, a))
            self.emit('mul.wide.u32 %s, %s, 4;' % (off, idx))
            self.emit('add.u64 %s, %s, %s;' % (g, g, off))
            self.emit('st.u32 [%s], %s;' % (g, v))
            d = self.r()
            if generic_names:
                self.emit('ld.u32 %s, [%s+%d];' % (d, arr, 4 * self.rng.randrange(8)))
            else:
                self.emit('ld.local.u32 %s, [%s+%d];' % (d, arr, 4 * self.rng.randrange(8)))
        self.store(d)
        pool.append(d)

    def s_bar(self, pool, depth):
        v = self.pick(pool)
        self.emit('st.shared.u32 [%rsh], ' + v + ';')
        self.emit('bar.sync 0;')
        k = self.rng.randrange(1, THREADS)
        t, a, d = self.r(), self.r(), self.r()
        self.emit('add.u32 %s, %%rtid, %d;' % (t, k))
        self.emit('and.b32 %s, %s, %d;' % (t, t, THREADS - 1))
        self.emit('shl.b32 %s, %s, 2;' % (a, t))
        self.emit('mov.u32 %s, sh;' % self.r())
        self.emit('add.u32 %s, %s, %%r%d;' % (a, a, self.nr))
        self.emit('ld.shared.u32 %s, [%s];' % (d, a))
        self.emit('bar.sync 0;')
        self.store(d)
        pool.append(d)

    def s_warp(self, pool, depth):
        self.uses_warp = True
        k = self.rng.randrange(5)
        d = self.r()
        v = self.pick(pool)
        if k == 0:
            mode = self.rng.choice(['bfly', 'down', 'up', 'idx'])
            c = 0 if mode == 'up' else 31
            self.emit('shfl.sync.%s.b32 %s, %s, %d, %d, 0xffffffff;' %
                      (mode, d, v, self.rng.randrange(32), c))
        elif k == 1:
            p = self.lane_cond(pool)
            self.emit('vote.sync.ballot.b32 %s, %s, 0xffffffff;' % (d, p))
        elif k == 2:
            op = self.rng.choice(['add.u32', 'min.u32', 'max.s32', 'and.b32', 'or.b32', 'xor.b32'])
            self.emit('redux.sync.%s %s, %s, 0xffffffff;' % (op, d, v))
        elif k == 3:
            t = self.r()
            self.emit('and.b32 %s, %s, 3;' % (t, v))
            self.emit('match.any.sync.b32 %s, %s, 0xffffffff;' % (d, t))
        else:
            p, q = self.lane_cond(pool), self.p()
            self.emit('vote.sync.any.pred %s, %s, 0xffffffff;' % (q, p))
            self.emit('selp.u32 %s, 7, 9, %s;' % (d, q))
        self.store(d)
        pool.append(d)

    def s_warp_partial(self, pool, depth):
        """A warp operation inside a divergent branch, with the membermask the ballot of the
        branch condition computed by the whole warp just before the branch."""
        self.uses_warp = True
        c = self.lane_cond(pool)
        m, x = self.r(), self.r()
        self.emit('vote.sync.ballot.b32 %s, %s, 0xffffffff;' % (m, c))
        self.emit('mov.b32 %s, %s;' % (x, self.pick(pool)))
        end = self.label('pjoin')
        self.emit('@!%s bra %s;' % (c, end))
        v = self.pick(pool)
        k = self.rng.randrange(5)
        if k == 0:
            t, lo = self.r(), self.r()
            self.emit('brev.b32 %s, %s;' % (t, m))
            self.emit('clz.b32 %s, %s;' % (lo, t))  # the lowest lane of the mask
            self.emit('shfl.sync.idx.b32 %s, %s, %s, 31, %s;' % (x, v, lo, m))
        elif k == 1:
            self.emit('redux.sync.%s %s, %s, %s;' % (
                self.rng.choice(['add.u32', 'min.u32', 'max.u32', 'xor.b32']), x, v, m))
        elif k == 2:
            p = self.lane_cond(pool)
            self.emit('vote.sync.ballot.b32 %s, %s, %s;' % (x, p, m))
        elif k == 3:
            t = self.r()
            self.emit('and.b32 %s, %s, 1;' % (t, v))
            self.emit('match.any.sync.b32 %s, %s, %s;' % (x, t, m))
        else:
            self.emit('activemask.b32 %s;' % x)
        self.emit('%s:' % end)
        self.store(m)
        self.store(x)
        pool.append(x)

    def s_call(self, pool, depth):
        f = self.rng.choice(self.funcs)
        n = self.nl
        self.nl += 1
        a0, a1, rv = 'cp%d_a' % n, 'cp%d_b' % n, 'cp%d_r' % n
        self.params_decl += ['.param .b32 %s;' % a0, '.param .b32 %s;' % a1,
                             '.param .b32 %s;' % rv]
        self.emit('st.param.b32 [%s], %s;' % (a0, self.pick(pool)))
        self.emit('st.param.b32 [%s], %s;' % (a1, self.pick(pool)))
        self.emit('call (%s), %s, (%s, %s);' % (rv, f, a0, a1))
        d = self.r()
        self.emit('ld.param.b32 %s, [%s];' % (d, rv))
        self.store(d)
        pool.append(d)

    # -------------------------------------------------------------- functions
    def make_func(self, idx):
        name = 'fz_f%d' % idx
        saved = (self.body, self.nr, self.np, self.nrd, self.slots, self.funcs)
        self.body, self.funcs = [], []  # no calls from functions
        self.nr = self.np = self.nrd = 0
        self.slots = MAX_SLOTS  # no stores from functions
        a, b = self.r(), self.r()
        self.emit('ld.param.b32 %s, [%s_x];' % (a, name))
        self.emit('ld.param.b32 %s, [%s_y];' % (b, name))
        pool = [a, b]
        self.emit('mov.u32 %laneid_r, %laneid;')
        for _ in range(self.rng.randrange(2, 5)):
            k = self.rng.randrange(3)
            if k == 0:
                self.s_if(pool, 2)
            elif k == 1:
                self.s_loop(pool, 1)
            else:
                self.s_arith(pool, 2)
        res = self.r()
        self.emit('xor.b32 %s, %s, %s;' % (res, pool[-1], pool[-2]))
        self.emit('st.param.b32 [%s_ret], %s;' % (name, res))
        self.emit('ret;')
        text = ['.func (.param .b32 %s_ret) %s(.param .b32 %s_x, .param .b32 %s_y)' %
                (name, name, name, name), '{',
                '\t.reg .pred %%p<%d>;' % (self.np + 1), '\t.reg .b32 %%r<%d>;' % (self.nr + 1),
                '\t.reg .b64 %%rd<%d>;' % (self.nrd + 1), '\t.reg .b32 %u0, %u1, %laneid_r;',
                '\tmov.u32 %u0, 3;',
                '\tmov.u32 %u1, 5;'] + self.body + ['}', '']
        self.body, self.nr, self.np, self.nrd, self.slots, self.funcs = saved
        self.funcs.append(name)
        self.func_text += text

    # -------------------------------------------------------------- program
    def program(self):
        for i in range(self.rng.randrange(1, 3) if self.feat['call'] else 0):
            self.make_func(i)
        for i in range(self.rng.randrange(1, 3) if self.feat['local'] else 0):
            self.local_arrays.append('lar%d' % i)
        pool = []
        for i in range(NIN):
            r = self.r()
            self.emit('ld.global.b32 %s, [%%pin+%d];' % (r, 4 * i))
            pool.append(r)
        pool += ['%rtid', '%u0', '%u1']
        for arr in self.local_arrays:
            for j in range(8):
                self.emit('st.local.u32 [%s+%d], %s;' % (arr, 4 * j, self.pick(pool)))
        live = []
        if self.spill:
            for _ in range(40):
                d = self.binop(pool)
                live.append(d)
        self.block(pool, 0, self.rng.randrange(8, 20), True)
        if live:
            acc = self.r()
            self.emit('mov.b32 %s, 0;' % acc)
            for v in live:
                self.emit('xor.b32 %s, %s, %s;' % (acc, acc, v))
                self.emit('shf.l.wrap.b32 %s, %s, %s, 3;' % (acc, acc, acc))
            self.store(acc)
        return self.render()

    def render(self):
        nout = max(self.slots, 1)
        head = ['// gen_fuzz.py seed %d; features: %s' % (
            self.seed, ' '.join(f for f in FEATURES if self.feat[f])), '.version 8.0', '.target sm_80',
                '.address_size 64', '']
        head += self.func_text
        head += ['.visible .entry fuzz(.param .u64 in, .param .u64 out, .param .u32 pu0, '
                 '.param .u32 pu1)', '{',
                 '\t.reg .pred %%p<%d>;' % (self.np + 1), '\t.reg .b32 %%r<%d>;' % (self.nr + 1),
                 '\t.reg .b64 %%rd<%d>;' % (self.nrd + 1),
                 '\t.reg .b32 %rtid, %u0, %u1, %rsh, %laneid_r;',
                 '\t.reg .b64 %rdin, %rdout, %rdtmp, %pin, %pout;',
                 '\t.shared .align 4 .b32 sh[%d];' % THREADS]
        head += ['\t.local .align 4 .b32 %s[8];' % a for a in self.local_arrays]
        head += ['\t' + p for p in self.params_decl]
        head += ['\tld.param.u64 %rdin, [in];', '\tld.param.u64 %rdout, [out];',
                 '\tld.param.u32 %u0, [pu0];', '\tld.param.u32 %u1, [pu1];',
                 '\tcvta.to.global.u64 %rdin, %rdin;', '\tcvta.to.global.u64 %rdout, %rdout;',
                 '\tmov.u32 %rtid, %tid.x;', '\tmov.u32 %laneid_r, %laneid;',
                 '\tmul.wide.u32 %%rdtmp, %%rtid, %d;' % (4 * NIN),
                 '\tadd.s64 %pin, %rdin, %rdtmp;',
                 '\tmul.wide.u32 %%rdtmp, %%rtid, %d;' % (4 * nout),
                 '\tadd.s64 %pout, %rdout, %rdtmp;',
                 '\tmov.u32 %rsh, sh;', '\tmad.lo.u32 %rsh, %rtid, 4, %rsh;']
        return '\n'.join(head + self.body + ['\tret;', '}', '']), {
            'nout': nout, 'threads': THREADS, 'nin': NIN, 'warp': self.uses_warp,
            'maxrregcount': 32 if self.spill else None,
            'features': sorted(f for f, on in self.feat.items() if on)}


def generate(seed, disable=()):
    """-> (ptx text, info dict: nout, threads, nin, warp, maxrregcount, features).  disable:
    feature classes turned off (to look past a known bug)."""
    unknown = set(disable) - set(FEATURES)
    if unknown:
        raise ValueError('unknown feature classes: %s' % ', '.join(sorted(unknown)))
    return Gen(seed, disable).program()


def inputs(seed):
    """The input words (THREADS*NIN) and the two uniform parameters for a seed."""
    rng = random.Random(seed * 7919 + 1)
    special = [0, 1, 2, 3, 7, 0xffffffff, 0x80000000, 0x7fffffff, 31, 32]
    words = [rng.choice(special) if rng.random() < 0.2 else rng.getrandbits(32)
             for _ in range(THREADS * NIN)]
    return words, (rng.randrange(16), rng.randrange(16))


if __name__ == '__main__':
    text, info = generate(int(sys.argv[1]))
    sys.stdout.write(text)
