"""Near-miss conformance cases, imported by gen_conformance.py: for one accepted form of
each instruction family of src/parse/ptx_ops.def, mechanical mutations of it (an operand
too few or too many, an immediate destination, a register source swapped for an
immediate or the other way round, a register of the wrong width, a duplicated modifier,
a modifier of another instruction, a state space the instruction does not take, a
vector width), plus the forms earlier reviews found the parser too lenient on
(ldmatrix operand shapes, 16-bit video destinations, mma/wmma register counts).  Each
becomes a file conformance/nm_*.ptx with ptxas's verdict, like every other case."""
import re

# (family, accepted form): every form is valid for ptxas -arch=sm_90.
BASES = [
    ('add', 'add.u32 %ur1, %ur2, %ur3;'),
    ('sub_f32', 'sub.rn.f32 %f1, %f2, %f3;'),
    ('mul', 'mul.lo.s32 %sr1, %sr2, %sr3;'),
    ('mad', 'mad.lo.u32 %ur1, %ur2, %ur3, %ur1;'),
    ('mul24', 'mul24.lo.u32 %ur1, %ur2, %ur3;'),
    ('sad', 'sad.u32 %ur1, %ur2, %ur3, %ur1;'),
    ('div', 'div.rn.f32 %f1, %f2, %f3;'),
    ('rem', 'rem.s32 %sr1, %sr2, %sr3;'),
    ('abs', 'abs.s32 %sr1, %sr2;'),
    ('neg_f64', 'neg.f64 %fd1, %fd2;'),
    ('min', 'min.u32 %ur1, %ur2, %ur3;'),
    ('popc', 'popc.b32 %ur1, %r2;'),
    ('clz', 'clz.b64 %ur1, %rd2;'),
    ('brev', 'brev.b32 %r1, %r2;'),
    ('bfe', 'bfe.u32 %ur1, %ur2, %ur3, %ur1;'),
    ('bfi', 'bfi.b32 %r1, %r2, %r3, %ur1, %ur2;'),
    ('copysign', 'copysign.f32 %f1, %f2, %f3;'),
    ('testp', 'testp.finite.f32 %p1, %f1;'),
    ('sin', 'sin.approx.f32 %f1, %f2;'),
    ('rcp', 'rcp.rn.f64 %fd1, %fd2;'),
    ('sqrt', 'sqrt.rn.f32 %f1, %f2;'),
    ('fma', 'fma.rn.f32 %f1, %f2, %f3, %f1;'),
    ('and', 'and.b32 %r1, %r2, %r3;'),
    ('not', 'not.b16 %bh1, %bh2;'),
    ('lop3', 'lop3.b32 %r1, %r2, %r3, %r0, 0x96;'),
    ('shf', 'shf.l.wrap.b32 %r1, %r2, %r3, %ur1;'),
    ('shl', 'shl.b32 %r1, %r2, %ur1;'),
    ('prmt', 'prmt.b32 %r1, %r2, %r3, %r0;'),
    ('mov', 'mov.u32 %ur1, %ur2;'),
    ('cvt', 'cvt.rn.f32.s32 %f1, %sr1;'),
    ('cvta', 'cvta.to.global.u64 %rd1, %rd2;'),
    ('isspacep', 'isspacep.shared %p1, %rd1;'),
    ('setp', 'setp.lt.s32 %p1, %sr1, %sr2;'),
    ('set', 'set.lt.u32.s32 %ur1, %sr1, %sr2;'),
    ('selp', 'selp.b32 %r1, %r2, %r3, %p1;'),
    ('slct', 'slct.u32.s32 %ur1, %ur2, %ur3, %sr1;'),
    ('ld', 'ld.global.u32 %ur1, [%rd0];'),
    ('st', 'st.shared.f32 [smem], %f1;'),
    ('ldu', 'ldu.global.u32 %ur1, [%rd0];'),
    ('prefetch', 'prefetch.global.L2 [%rd0];'),
    ('atom', 'atom.global.add.u32 %ur1, [%rd0], %ur2;'),
    ('red', 'red.shared.add.u32 [smem], %ur2;'),
    ('bar', 'bar.sync 0;'),
    ('membar', 'membar.gl;'),
    ('fence', 'fence.acq_rel.gpu;'),
    ('shfl', 'shfl.sync.bfly.b32 %r1, %r2, 1, 0x1f, -1;'),
    ('vote', 'vote.sync.ballot.b32 %r1, %p1, -1;'),
    ('match', 'match.any.sync.b32 %r1, %r2, -1;'),
    ('redux', 'redux.sync.add.u32 %ur1, %ur2, -1;'),
    ('nanosleep', 'nanosleep.u32 %ur1;'),
    ('cp_async', 'cp.async.ca.shared.global [smem], [%rd0], 8;'),
    ('mbarrier', 'mbarrier.arrive.shared.b64 %rd1, [smem];'),
    ('ldmatrix', 'ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r1, %r2}, [smem];'),
    ('stmatrix', 'stmatrix.sync.aligned.m8n8.x2.shared.b16 [smem], {%r1, %r2};'),
    ('movmatrix', 'movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;'),
    ('getctarank', 'getctarank.shared::cluster.u64 %ur1, %rd1;'),
    ('mapa', 'mapa.shared::cluster.u64 %rd1, %rd2, %ur1;'),
    ('vadd', 'vadd.u32.u32.u32 %ur1, %ur2, %ur3;'),
    ('vadd2', 'vadd2.u32.u32.u32 %ur1, %ur2, %ur3, %ur1;'),
    ('dp4a', 'dp4a.u32.u32 %ur1, %ur2, %ur3, %ur1;'),
]

# A second set of families: their accepted form, one rotating mutation, and the mutations
# on which the parser disagreed with ptxas when they were added (KEEP).
BASES2 = [
    ('bmsk', 'bmsk.clamp.b32 %r1, %ur1, %ur2;'),
    ('szext', 'szext.clamp.s32 %sr1, %sr2, %ur1;'),
    ('dp2a', 'dp2a.lo.u32.u32 %ur1, %ur2, %ur3, %ur1;'),
    ('fns', 'fns.b32 %r1, %r2, %r3, 1;'),
    ('ex2', 'ex2.approx.f32 %f1, %f2;'),
    ('tanh', 'tanh.approx.f32 %f1, %f2;'),
    ('rsqrt', 'rsqrt.approx.f64 %fd1, %fd2;'),
    ('xor', 'xor.b64 %rd1, %rd2, %rd3;'),
    ('cnot', 'cnot.b32 %r1, %r2;'),
    ('shr', 'shr.s32 %sr1, %sr2, %ur1;'),
    ('bfind', 'bfind.u32 %ur1, %ur2;'),
    ('mad24', 'mad24.lo.s32 %sr1, %sr2, %sr3, %sr1;'),
    ('addc', 'addc.cc.u32 %ur1, %ur2, %ur3;'),
    ('madc', 'madc.lo.cc.u32 %ur1, %ur2, %ur3, %ur1;'),
    ('min_f16x2', 'min.f16x2 %fx1, %fx2, %fx3;'),
    ('abs_f16', 'abs.f16 %fh1, %fh2;'),
    ('activemask', 'activemask.b32 %r1;'),
    ('atom_cas', 'atom.global.cas.b32 %r1, [%rd0], %r2, %r3;'),
    ('atom_f32v', 'atom.global.v2.f32.add {%f1, %f2}, [%rd0], {%f1, %f2};'),
    ('ld_v4', 'ld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd0];'),
    ('st_v2', 'st.global.v2.u32 [%rd0], {%ur1, %ur2};'),
    ('bar_red', 'bar.red.popc.u32 %ur1, 0, %p1;'),
    ('barrier', 'barrier.sync 0;'),
    ('barrier_cluster', 'barrier.cluster.arrive;'),
    ('elect', 'elect.sync %r1|%p1, -1;'),
    ('cp_async_wait', 'cp.async.wait_group 0;'),
    ('mbarrier_init', 'mbarrier.init.shared.b64 [smem], 32;'),
    ('mbarrier_wait', 'mbarrier.try_wait.parity.shared.b64 %p1, [smem], %ur1;'),
    ('wmma_load', 'wmma.load.a.sync.aligned.row.m16n16k16.global.f16 '
     '{%r0, %r1, %r2, %r3, %r0, %r1, %r2, %r3}, [%rd0];'),
    ('mma', 'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 '
     '{%f0, %f1, %f2, %f3}, {%r0, %r1}, {%r2}, {%f0, %f1, %f2, %f3};'),
    ('istypep', 'istypep.texref %p1, %rd1;'),
    ('alloca', 'alloca.u64 %rd1, 64;'),
    ('stacksave', 'stacksave.u64 %rd1;'),
    ('createpolicy', 'createpolicy.fractional.L2::evict_last.b64 %rd1, 1.0;'),
    ('applypriority', 'applypriority.global.L2::evict_normal [%rd0], 128;'),
    ('discard', 'discard.global.L2 [%rd0], 128;'),
    ('griddep', 'griddepcontrol.wait;'),
    ('vset', 'vset.u32.u32.lt %ur1, %ur2, %ur3;'),
    ('vmad', 'vmad.s32.s32.s32 %sr1, %sr2, %sr3, %sr1;'),
    ('vabsdiff4', 'vabsdiff4.u32.u32.u32.add %ur1, %ur2, %ur3, %ur1;'),
    ('brev64', 'brev.b64 %rd1, %rd2;'),
    ('cvt_pack', 'cvt.pack.sat.u8.s32.b32 %r1, %sr1, %sr2, %r3;'),
    ('red_f16', 'red.global.add.noftz.f16 [%rd0], %fh1;'),
    ('prefetchu', 'prefetchu.L1 [%rd0];'),
    ('cvta_to', 'cvta.shared.u64 %rd1, %rd2;'),
]

KEEP = {
    'activemask': ['wide_reg'], 'addc': ['dup_mod'], 'alloca': ['space', 'wide_reg'],
    'atom_cas': ['drop_operand'], 'bar_red': ['dup_mod', 'extra_operand'],
    'bmsk': ['drop_mod'], 'createpolicy': ['drop_mod', 'drop_operand', 'extra_operand',
                                           'wide_reg'],
    'cvt_pack': ['drop_operand'], 'cvta_to': ['drop_mod'], 'dp2a': ['drop_mod'],
    'elect': ['drop_mod'], 'fns': ['imm_dest', 'wide_reg'], 'griddep': ['drop_mod'],
    'madc': ['drop_mod'], 'mbarrier_init': ['drop_operand', 'extra_operand'],
    'mbarrier_wait': ['drop_mod', 'drop_operand', 'imm_src', 'wide_reg'],
    'mma': ['extra_operand', 'foreign_mod'], 'prefetchu': ['drop_mod'], 'red_f16': ['vec'],
    'szext': ['drop_mod'], 'wmma_load': ['dup_mod'],
}


# Registers of another width or kind for the "wrong register" mutation.
SWAP = {'%ur': '%ud', '%sr': '%sd', '%r': '%rd', '%f': '%fd', '%fd': '%f', '%rd': '%r',
        '%bh': '%r', '%p': '%r', '%ud': '%ur'}
# A modifier that belongs to another instruction, one per family kind.
FOREIGN = ['.wide', '.approx', '.sync', '.trans', '.cas', '.to', '.nc', '.x4']


def split_insn(body):
    head, _, rest = body.rstrip(';').partition(' ')
    ops, depth, cur = [], 0, ''
    for ch in rest:
        if ch in '{[':
            depth += 1
        elif ch in '}]':
            depth -= 1
        if ch == ',' and depth == 0:
            ops.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return head, ops


def join(head, ops):
    return '%s %s;' % (head, ', '.join(ops)) if ops else head + ';'


def is_reg(o):
    return re.fullmatch(r'%[a-z]+\d', o) is not None


def mutations(family, body):
    head, ops = split_insn(body)
    words = head.split('.')
    out = []
    if ops:
        out.append(('drop_operand', join(head, ops[:-1])))
        out.append(('extra_operand', join(head, ops + [ops[-1]])))
    if ops and is_reg(ops[0]):
        out.append(('imm_dest', join(head, ['1'] + ops[1:])))
    srcs = [i for i, o in enumerate(ops) if i and is_reg(o)]
    if srcs:
        i = srcs[0]
        out.append(('imm_src', join(head, ops[:i] + ['7'] + ops[i + 1:])))
    regs = [i for i, o in enumerate(ops) if is_reg(o)]
    if regs:
        i = regs[0]
        pre = re.match(r'%[a-z]+', ops[i]).group(0)
        if pre in SWAP:
            out.append(('wide_reg', join(head, ops[:i] + [SWAP[pre] + ops[i][len(pre):]] +
                                         ops[i + 1:])))
    if len(words) > 1:
        out.append(('dup_mod', join('.'.join(words[:2] + words[1:]), ops)))
        # drop the first modifier (a mandatory one for many families)
        out.append(('drop_mod', join('.'.join(words[:1] + words[2:]), ops)))
    foreign = FOREIGN[len(family) % len(FOREIGN)]
    out.append(('foreign_mod', join('.'.join(words[:1] + [foreign[1:]] + words[1:]), ops)))
    if not any(w in ('global', 'shared', 'local', 'param', 'const') for w in words):
        out.append(('space', join('.'.join(words[:1] + ['local'] + words[1:]), ops)))
    out.append(('vec', join('.'.join(words[:-1] + ['v2', words[-1]]), ops)))
    keep = pick(family)
    return [('nm_%s_%s' % (family, m), b) for i, (m, b) in enumerate(out)
            if i in keep(len(out)) or m in KEEP.get(family, ())]


# Families whose operands the table leaves untyped (X/x letters) get every mutation; the
# others three, rotating over the kinds so that each kind meets many families.
LOOSE = {'ldmatrix', 'stmatrix', 'movmatrix', 'vadd', 'vadd2', 'mbarrier', 'shfl', 'vote',
         'match', 'dp4a', 'getctarank', 'mapa', 'popc', 'clz', 'nanosleep', 'atom', 'red',
         'redux', 'bar', 'sin'}


def pick(family):
    if family in LOOSE:
        return lambda n: range(n)
    names = [f for f, _ in BASES]
    if family in names:
        start = names.index(family)
        return lambda n: {(start * 3 + j) % n for j in range(3)}
    start = [f for f, _ in BASES2].index(family)
    return lambda n: {(start * 5) % n}


R = lambda p, n, s=0: '{' + ', '.join('%s%d' % (p, s + i % 4) for i in range(n)) + '}'

# Forms earlier reviews found, each next to its accepted neighbour.
SPECIFIC = [
    ('nm_ldmatrix_x1_nobrace', 'ldmatrix.sync.aligned.m8n8.x1.shared.b16 %r1, [smem];'),
    ('nm_ldmatrix_x1_brace', 'ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [smem];'),
    ('nm_ldmatrix_sink', 'ldmatrix.sync.aligned.m8n8.x2.shared.b16 {_, %r1}, [smem];'),
    ('nm_ldmatrix_sink1', 'ldmatrix.sync.aligned.m8n8.x1.shared.b16 {_}, [smem];'),
    ('nm_ldmatrix_global', 'ldmatrix.sync.aligned.m8n8.x1.global.b16 {%r1}, [%rd0];'),
    ('nm_ldmatrix_cluster', 'ldmatrix.sync.aligned.m8n8.x1.shared::cluster.b16 {%r1}, [%rd0];'),
    ('nm_ldmatrix_generic', 'ldmatrix.sync.aligned.m8n8.x1.b16 {%r1}, [%rd0];'),
    ('nm_ldmatrix_b64_dst', 'ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%rd1}, [smem];'),
    ('nm_ldmatrix_f32_dst', 'ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%f1}, [smem];'),
    ('nm_ldmatrix_imm_dst', 'ldmatrix.sync.aligned.m8n8.x1.shared.b16 {1}, [smem];'),
    ('nm_ldmatrix_type_b32', 'ldmatrix.sync.aligned.m8n8.x1.shared.b32 {%r1}, [smem];'),
    ('nm_ldmatrix_no_shape', 'ldmatrix.sync.aligned.x1.shared.b16 {%r1}, [smem];'),
    ('nm_stmatrix_nobrace', 'stmatrix.sync.aligned.m8n8.x1.shared.b16 [smem], %r1;'),
    ('nm_stmatrix_global', 'stmatrix.sync.aligned.m8n8.x1.global.b16 [%rd0], {%r1};'),
    ('nm_stmatrix_imm', 'stmatrix.sync.aligned.m8n8.x1.shared.b16 [smem], {1};'),
    ('nm_set_and_const1', 'set.lt.and.u32.u32 %ur1, %ur2, %ur3, 1;'),
    ('nm_set_and_const0', 'set.lt.and.u32.u32 %ur1, %ur2, %ur3, 0;'),
    ('nm_setp_and_const1', 'setp.lt.and.u32 %p1, %ur2, %ur3, 1;'),
    ('nm_set_f32_dst', 'set.lt.f32.u32 %f1, %ur2, %ur3;'),
    ('nm_set_s32_dst', 'set.lt.s32.u32 %sr1, %ur2, %ur3;'),
    ('nm_set_u16_dst', 'set.lt.u16.u32 %uh1, %ur2, %ur3;'),
    ('nm_vadd_u16', 'vadd.u16.u32.u32 %uh1, %ur2, %ur3;'),
    ('nm_vadd_u16_all', 'vadd.u16.u16.u16 %uh1, %uh2, %uh3;'),
    ('nm_vadd_dst_u16reg', 'vadd.u32.u32.u32 %uh1, %ur2, %ur3;'),
    ('nm_vadd_src_u16reg', 'vadd.u32.u32.u32 %ur1, %uh2, %ur3;'),
    ('nm_vadd_dst_u64reg', 'vadd.u32.u32.u32 %ud1, %ur2, %ur3;'),
    ('nm_vadd_f32', 'vadd.f32.f32.f32 %f1, %f2, %f3;'),
    ('nm_vadd_imm_src5', 'vadd.u32.u32.u32 %ur1, %ur2, 5;'),
    ('nm_vadd2_u16', 'vadd2.u16.u32.u32 %uh1, %ur2, %ur3, %uh1;'),
    ('nm_vset_u16_dst', 'vset.u32.u32.lt %uh1, %ur2, %ur3;'),
    ('nm_vmad_u16', 'vmad.u16.u32.u32 %uh1, %ur1, %ur2, %uh3;'),
    ('nm_vshl_s16', 'vshl.s16.u32.u32.clamp %sh1, %ur2, %ur3;'),
    # mutations of the full generator run left out of the rotation above
    ('nm_cvt_extra_operand2', 'cvt.rn.f32.s32 %f1, %sr1, %sr1;'),
    ('nm_cvt_f16x2_two_srcs', 'cvt.rn.f16x2.f32 %r1, %f1, %f2;'),
    ('nm_getctarank_u32_addr64', 'getctarank.shared::cluster.u32 %ur1, %rd1;'),
    ('nm_getctarank_u32_addr32', 'getctarank.shared::cluster.u32 %ur1, %ur2;'),
    ('nm_mapa_u64_src32', 'mapa.shared::cluster.u64 %rd1, %r2, %ur1;'),
    ('nm_isspacep_no_space', 'isspacep %p1, %rd1;'),
    ('nm_lop3_sixth_no_pair', 'lop3.b32 %r1, %r2, %r3, %r0, 0x96, %p1;'),
    ('nm_lop3_sixth_pair', 'lop3.or.b32 %r1|%p2, %r2, %r3, %r0, 0x96, %p1;'),
]


def mma(shape, types, d, a, b, c, layout='row.col'):
    return 'mma.sync.aligned.%s.%s.%s %s, %s, %s, %s;' % (shape, layout, types, d, a, b, c)


def wmma_load(frag, shape, t, regs):
    return 'wmma.load.%s.sync.aligned.row.%s.global.%s %s, [%%rd0];' % (frag, shape, t, regs)


F, RR, S, FD = ('%f', '%r', '%sr', '%fd')
# mma: (name, shape, types, (d, a, b, c) register counts and prefixes), valid counts first.
MMA = [
    ('m16n8k16_f32', 'm16n8k16', 'f32.f16.f16.f32', (F, 4), (RR, 4), (RR, 2), (F, 4)),
    ('m16n8k8_f32', 'm16n8k8', 'f32.f16.f16.f32', (F, 4), (RR, 2), (RR, 1), (F, 4)),
    ('m16n8k16_f16', 'm16n8k16', 'f16.f16.f16.f16', (RR, 2), (RR, 4), (RR, 2), (RR, 2)),
    ('m16n8k8_tf32', 'm16n8k8', 'f32.tf32.tf32.f32', (F, 4), (RR, 4), (RR, 2), (F, 4)),
    ('m16n8k4_tf32', 'm16n8k4', 'f32.tf32.tf32.f32', (F, 4), (RR, 2), (RR, 1), (F, 4)),
    ('m16n8k32_s8', 'm16n8k32', 's32.s8.s8.s32', (S, 4), (RR, 4), (RR, 2), (S, 4)),
    ('m16n8k16_s8', 'm16n8k16', 's32.s8.s8.s32', (S, 4), (RR, 2), (RR, 1), (S, 4)),
    ('m8n8k16_s8', 'm8n8k16', 's32.s8.s8.s32', (S, 2), (RR, 1), (RR, 1), (S, 2)),
    ('m8n8k4_f64', 'm8n8k4', 'f64.f64.f64.f64', (FD, 2), (FD, 1), (FD, 1), (FD, 2)),
    ('m8n8k4_f16', 'm8n8k4', 'f32.f16.f16.f32', (F, 8), (RR, 2), (RR, 2), (F, 8)),
    ('m16n8k64_s4', 'm16n8k64', 's32.s4.s4.s32', (S, 4), (RR, 4), (RR, 2), (S, 4)),
    ('m16n8k32_e4m3', 'm16n8k32', 'f32.e4m3.e4m3.f32', (F, 4), (RR, 4), (RR, 2), (F, 4)),
]


def mma_cases():
    out = []
    for name, shape, types, *ops in MMA:
        def text(counts):
            return mma(shape, types, *[R(p, n) if n > 1 or p != FD else '{%fd1}'
                                       for (p, _), n in zip(ops, counts)])
        good = [n for _, n in ops]
        out.append(('nm_mma_%s_ok' % name, text(good)))
        for i, role in enumerate('dabc'):
            bad = list(good)
            bad[i] = good[i] * 2 if good[i] < 4 or role in 'dc' else good[i] - 1
            out.append(('nm_mma_%s_%s_count' % (name, role), text(bad)))
    return out


# wmma.load: (shape, type, fragment, register count, prefix)
WMMA = [
    ('m16n16k16', 'f16', 'a', 8, RR), ('m16n16k16', 'f16', 'c', 4, RR),
    ('m16n16k16', 'f32', 'c', 8, F), ('m32n8k16', 'f16', 'a', 8, RR),
    ('m8n32k16', 'f16', 'b', 8, RR), ('m16n16k16', 's8', 'a', 2, RR),
    ('m32n8k16', 's8', 'a', 4, RR), ('m8n32k16', 's8', 'a', 1, RR),
    ('m16n16k16', 's32', 'c', 8, S), ('m16n16k16', 'bf16', 'a', 4, RR),
    ('m32n8k16', 'bf16', 'a', 8, RR), ('m16n16k8', 'tf32', 'a', 4, RR),
    ('m16n16k8', 'tf32', 'b', 4, RR), ('m8n8k4', 'f64', 'a', 1, FD),
    ('m8n8k4', 'f64', 'c', 2, FD), ('m8n8k32', 's4', 'a', 1, RR),
    ('m8n8k128', 'b1', 'a', 1, RR), ('m8n8k32', 's32', 'c', 2, S),
]


def wmma_cases():
    out = []
    for shape, t, frag, n, p in WMMA:
        tag = '%s_%s_%s' % (shape, t, frag)
        out.append(('nm_wmma_ld_%s_ok' % tag, wmma_load(frag, shape, t, R(p, n))))
        if n == 1 or len(out) % 2:
            out.append(('nm_wmma_ld_%s_more' % tag, wmma_load(frag, shape, t, R(p, n + 1))))
        else:
            out.append(('nm_wmma_ld_%s_less' % tag, wmma_load(frag, shape, t, R(p, n - 1))))
    st = 'wmma.store.d.sync.aligned.row.m16n16k16.global.%s [%%rd0], %s;'
    out += [('nm_wmma_st_f32_ok', st % ('f32', R(F, 8))),
            ('nm_wmma_st_f32_less', st % ('f32', R(F, 4))),
            ('nm_wmma_st_f16_ok', st % ('f16', R(RR, 4))),
            ('nm_wmma_st_f16_more', st % ('f16', R(RR, 8)))]
    mm = 'wmma.mma.sync.aligned.row.col.m16n16k16.%s %s, %s, %s, %s;'
    out += [('nm_wmma_mma_f32_d_less', mm % ('f32.f32', R(F, 4), R(RR, 8), R(RR, 8), R(F, 8))),
            ('nm_wmma_mma_f32_a_less', mm % ('f32.f32', R(F, 8), R(RR, 4), R(RR, 8), R(F, 8))),
            ('nm_wmma_mma_f32_b_more', mm % ('f32.f32', R(F, 8), R(RR, 8), R(RR, 9), R(F, 8))),
            ('nm_wmma_mma_f16_c_more', mm % ('f16.f16', R(RR, 4), R(RR, 8), R(RR, 8), R(RR, 8))),
            ('nm_wmma_mma_s8_a_more', mm % ('s32.s8.s8.s32', R(S, 8), R(RR, 4), R(RR, 2),
                                              R(S, 8)))]
    return out


def add_cases(case):
    """Calls case(name, body) for every near-miss case."""
    for family, body in BASES + BASES2:
        case('nm_%s_ok' % family, body)
        for name, text in mutations(family, body):
            case(name, text)
    for name, body in SPECIFIC + mma_cases() + wmma_cases():
        case(name, body)
