#!/usr/bin/env python3
"""Writes the PTX conformance files under conformance/ and records NVIDIA ptxas's
verdict on each as the file's first line (`// ptxas: ok` or `// ptxas: error`, then
ptxas's first message).  Needs ptxas (CUDA 13); the meson test (run_conformance.py)
reads only the committed verdicts.  Every case is one small kernel: a fixed prelude of
registers of every type, then the instruction(s) under test.

Usage: gen_conformance.py [PTXAS]   (default /usr/local/cuda/bin/ptxas)
The cases come in families: cross products of instruction type and register type
(the ISA's type-compatibility and relaxed-size rules) and the syntax boxes of the
PTX ISA 8.x instruction chapters, valid and invalid spellings side by side."""
import concurrent.futures
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'conformance')

# One register per type, declared in every case's prelude.
REG = {
    'pred': '%p1', 'b16': '%bh1', 'u16': '%uh1', 's16': '%sh1', 'f16': '%fh1',
    'b32': '%r1', 'u32': '%ur1', 's32': '%sr1', 'f32': '%f1',
    'f16x2': '%fx1', 'b64': '%rd1', 'u64': '%ud1', 's64': '%sd1',
    'f64': '%fd1', 'b128': '%q1',
}
PRELUDE = ''.join('\t.reg .%s %s<4>;\n' % (t, r[:-1]) for t, r in REG.items()) + '''\
\t.reg .v2 .u32 %v2u;
\t.reg .v4 .u32 %v4u;
\t.reg .v2 .f32 %v2f;
\t.reg .v4 .f32 %v4f;
\t.reg .v2 .b64 %v2d;
\t.reg .v2 .u16 %v2h;
\t.reg .v4 .b16 %v4h;
\t.shared .align 16 .b8 smem[4096];
\tld.param.u64 %rd0, [p];
'''


def kernel(body, sm='sm_90', version='8.5', decls=''):
    return ('.version %s\n.target %s\n.address_size 64\n\n%s'
            '.visible .entry k(.param .u64 p)\n{\n%s%s\n\tret;\n}\n' %
            (version, sm, decls, PRELUDE, '\n'.join('\t' + l for l in body.split('\n'))))


CASES = []


def case(name, body, sm='sm_90', version='8.5', decls=''):
    CASES.append((name, kernel(body, sm, version, decls)))


def raw(name, text):
    CASES.append((name, text))


def slug(s):
    return re.sub(r'[^A-Za-z0-9]+', '_', s).strip('_')[:60]


# --- Type compatibility: instruction type x register type ------------------------------
SCALARS = ['pred', 'b16', 'u16', 's16', 'f16', 'b32', 'u32', 's32', 'f32', 'b64', 'u64', 's64',
           'f64']
MEMTYPES = ['b8', 'u8', 's8', 'b16', 'u16', 's16', 'f16', 'b32', 'u32', 's32', 'f32', 'b64',
            'u64', 's64', 'f64']


def type_families():
    for it in MEMTYPES:
        for rt in SCALARS:
            case('ld_%s_into_%s' % (it, rt), 'ld.global.%s %s, [%%rd0];' % (it, REG[rt]))
            case('st_%s_from_%s' % (it, rt), 'st.global.%s [%%rd0], %s;' % (it, REG[rt]))
    for it in ['b16', 'u16', 'f16', 'b32', 'u32', 's32', 'f32', 'b64', 's64', 'f64', 'pred']:
        src = REG.get(it)
        for rt in SCALARS:
            case('mov_%s_to_%s' % (it, rt), 'mov.%s %s, %s;' % (it, REG[rt], src))
            case('mov_%s_from_%s' % (it, rt), 'mov.%s %s, %s;' % (it, src, REG[rt]))
    for it in ['u16', 's32', 'u32', 'f32', 'f64', 'u64', 'b32']:
        op = 'and' if it[0] == 'b' else 'add'
        for rt in SCALARS:
            case('%s_%s_dst_%s' % (op, it, rt),
                 '%s.%s %s, %s, %s;' % (op, it, REG[rt], REG[it if it[0] != 'b' else 'b32'],
                                        REG[it if it[0] != 'b' else 'b32']))
            case('%s_%s_src_%s' % (op, it, rt),
                 '%s.%s %s, %s, %s;' % (op, it, REG[it], REG[rt], REG[it]))
    for d, s in [('u32', 'u8'), ('s32', 's8'), ('u16', 'u32'), ('f32', 's32'), ('s32', 'f32'),
                 ('f16', 'f32'), ('f32', 'f16'), ('u64', 'u32'), ('u8', 'u32'), ('s64', 's16')]:
        rnd = '.rn' if (d[0] == 'f' and (s[0] != 'f' or int(d[1:]) < int(s[1:]))) else (
            '.rzi' if d[0] != 'f' and s[0] == 'f' else '')
        for rt in SCALARS:
            good_s = REG.get(s, REG['u32' if s[0] == 'u' else 's32'])
            good_d = REG.get(d, REG['u32' if d[0] == 'u' else 's32'])
            case('cvt_%s_%s_dst_%s' % (d, s, rt), 'cvt%s.%s.%s %s, %s;' % (rnd, d, s, REG[rt],
                                                                          good_s))
            case('cvt_%s_%s_src_%s' % (d, s, rt), 'cvt%s.%s.%s %s, %s;' % (rnd, d, s, good_d,
                                                                          REG[rt]))


type_families()


def regs(prefix, n, start=0):
    return '{' + ', '.join('%s%d' % (prefix, start + i) for i in range(n)) + '}'


R4, R2, R1 = regs('%r', 4), regs('%r', 2), regs('%r', 1)
F4, F8, F2 = regs('%f', 4), regs('%f', 4) + '', regs('%f', 2)
SR4 = '{%sr0, %sr1, %sr2, %sr3}'

# (name, body, sm) — syntax boxes of the PTX ISA instruction chapters.
GRAMMAR = [
    # vector-typed variables and their components
    ('vec_mov_v2_brace', 'mov.v2.u32 %v2u, {%ur1, %ur2};', 'sm_90'),
    ('vec_mov_v2_copy', 'mov.v2.u32 %v2u, %v2u;', 'sm_90'),
    ('vec_mov_v4_f32', 'mov.v4.f32 %v4f, {%f1, %f2, %f3, %f1};', 'sm_90'),
    ('vec_mov_v4_copy', 'mov.v4.u32 %v4u, %v4u;', 'sm_90'),
    ('vec_mov_v2_b64', 'mov.v2.b64 %v2d, {%rd1, %rd2};', 'sm_90'),
    ('vec_mov_v2_imm', 'mov.v2.u32 %v2u, {1, 2};', 'sm_90'),
    ('vec_mov_v2_wrong_len', 'mov.v2.u32 %v2u, {%ur1, %ur2, %ur3};', 'sm_90'),
    ('vec_mov_v4_into_v2', 'mov.v4.u32 %v2u, %v4u;', 'sm_90'),
    ('vec_mov_scalar_into_vec', 'mov.u32 %v2u, %ur1;', 'sm_90'),
    ('vec_comp_add', 'add.u32 %v2u.x, %v2u.y, 1;', 'sm_90'),
    ('vec_comp_rgba', 'mov.u32 %ur1, %v4u.r;\nmov.u32 %ur1, %v4u.g;\nmov.u32 %ur1, %v4u.b;\n'
     'mov.u32 %ur1, %v4u.a;', 'sm_90'),
    ('vec_comp_xyzw', 'add.f32 %v4f.w, %v4f.z, %v4f.x;\nmul.f32 %v4f.y, %v4f.w, 2.0;', 'sm_90'),
    ('vec_comp_z_of_v2', 'mov.u32 %ur1, %v2u.z;', 'sm_90'),
    ('vec_comp_bad_letter', 'mov.u32 %ur1, %v2u.q;', 'sm_90'),
    ('vec_comp_of_scalar', 'mov.u32 %ur1, %ur2.x;', 'sm_90'),
    ('vec_comp_type_mismatch', 'mov.u32 %ur1, %v2f.x;', 'sm_90'),
    ('vec_comp_b32_from_f32', 'mov.b32 %r1, %v2f.y;', 'sm_90'),
    ('vec_comp_setp', 'setp.eq.u32 %p1, %v2u.x, 0;', 'sm_90'),
    ('vec_comp_cvt', 'cvt.rn.f32.u32 %v4f.w, %v4u.z;', 'sm_90'),
    ('vec_comp_in_brace', 'st.global.v2.u32 [%rd0], {%v2u.x, %v2u.y};', 'sm_90'),
    ('vec_comp_ld_dest', 'ld.global.u32 %v2u.y, [%rd0];', 'sm_90'),
    ('vec_comp_u16', 'add.u16 %v2h.x, %v2h.y, %uh1;', 'sm_90'),
    ('vec_whole_as_scalar', 'add.u32 %ur1, %v2u, 1;', 'sm_90'),
    ('vec_ld_v2', 'ld.global.v2.u32 %v2u, [%rd0];', 'sm_90'),
    ('vec_ld_v4_f32', 'ld.global.v4.f32 %v4f, [%rd0];', 'sm_90'),
    ('vec_ld_v2_b64', 'ld.global.v2.b64 %v2d, [%rd0];', 'sm_90'),
    ('vec_st_v2', 'st.global.v2.u32 [%rd0], %v2u;', 'sm_90'),
    ('vec_st_v4_f32', 'st.shared.v4.f32 [smem], %v4f;', 'sm_90'),
    ('vec_ld_v4_into_v2', 'ld.global.v4.u32 %v2u, [%rd0];', 'sm_90'),
    ('vec_ld_scalar_into_vec', 'ld.global.u32 %v2u, [%rd0];', 'sm_90'),
    ('vec_ld_v2_type_mismatch', 'ld.global.v2.f32 %v2u, [%rd0];', 'sm_90'),
    ('vec_ld_v4_b16', 'ld.global.v4.b16 %v4h, [%rd0];', 'sm_90'),
    ('vec_ld_v2_u32_into_b64vec', 'ld.global.v2.u32 %v2d, [%rd0];', 'sm_90'),
    ('vec_mov_b64_from_v2u', 'mov.b64 %rd1, %v2u;', 'sm_90'),
    ('vec_mov_unpack', 'mov.b64 {%ur1, %ur2}, %rd1;', 'sm_90'),
    ('vec_mov_pack', 'mov.b64 %rd1, {%ur1, %ur2};', 'sm_90'),
    ('vec_mov_pack4', 'mov.b32 %r1, {%bh1, %bh2};\nmov.b64 %rd1, {%bh0, %bh1, %bh2, %bh3};',
     'sm_90'),
    ('vec_atom_v2', 'atom.global.v2.f32.add {%f1, %f2}, [%rd0], {%f1, %f2};', 'sm_90'),
    ('vec_red_v4_f32', 'red.global.v4.f32.add [%rd0], {%f1, %f2, %f3, %f0};', 'sm_90'),
    ('vec_shfl_comp', 'shfl.sync.bfly.b32 %v2u.x, %v2u.y, 1, 0x1f, -1;', 'sm_90'),
    ('vec_selp_comp', 'selp.f32 %v2f.x, %v2f.y, 1.0, %p1;', 'sm_90'),
    # constant and negated predicate operands
    ('pred_selp_const0', 'selp.u16 %uh1, %uh1, %uh2, 0;', 'sm_90'),
    ('pred_selp_const1', 'selp.u32 %ur1, 1, 2, 1;', 'sm_90'),
    ('pred_selp_const2', 'selp.u32 %ur1, 1, 2, 2;', 'sm_90'),
    ('pred_selp_negated', 'selp.b32 %r1, %r2, %r3, !%p1;', 'sm_90'),
    ('pred_selp_float', 'selp.u32 %ur1, 1, 2, 1.0;', 'sm_90'),
    ('pred_selp_u32reg', 'selp.u32 %ur1, 1, 2, %ur2;', 'sm_90'),
    ('pred_vote_const', 'vote.sync.all.pred %p1, 1, 0xffffffff;', 'sm_90'),
    ('pred_vote_negated', 'vote.sync.any.pred %p1, !%p2, -1;', 'sm_90'),
    ('pred_vote_ballot_const', 'vote.sync.ballot.b32 %r1, 1, -1;', 'sm_90'),
    ('pred_vote_uni', 'vote.sync.uni.pred %p1, %p2, %r1;', 'sm_90'),
    ('pred_vote_ballot_negated', 'vote.sync.ballot.b32 %r1, !%p2, -1;', 'sm_90'),
    ('pred_vote_dest_neg', 'vote.sync.all.pred !%p1, %p2, -1;', 'sm_90'),
    ('pred_barred_and', 'bar.red.and.pred %p1, 1, !%p2;', 'sm_90'),
    ('pred_barred_or_count', 'bar.red.or.pred %p1, 0, 32, %p2;', 'sm_90'),
    ('pred_barred_popc', 'bar.red.popc.u32 %ur1, 0, !%p1;', 'sm_90'),
    ('pred_barred_popc_const', 'bar.red.popc.u32 %ur1, 0, 1;', 'sm_90'),
    ('pred_barred_sync', 'barrier.red.and.pred %p1, 1, %p2;', 'sm_90'),
    ('pred_barred_bad_dest', 'bar.red.and.pred %ur1, 1, %p2;', 'sm_90'),
    ('pred_setp_bool_neg', 'setp.eq.and.u32 %p1, %ur1, 0, !%p2;', 'sm_90'),
    ('pred_setp_bool_const', 'setp.eq.and.u32 %p1, %ur1, 0, 1;', 'sm_90'),
    ('pred_setp_pair', 'setp.lt.s32 %p1|%p2, %sr1, 0;', 'sm_90'),
    ('pred_setp_pair_bool', 'setp.lt.or.s32 %p1|%p2, %sr1, 0, %p3;', 'sm_90'),
    ('pred_set_bool', 'set.eq.and.u32.u32 %ur1, %ur1, 1, !%p1;', 'sm_90'),
    ('pred_and_pred', 'and.pred %p1, %p2, %p3;', 'sm_90'),
    ('pred_and_pred_const', 'and.pred %p1, %p2, 1;', 'sm_90'),
    ('pred_and_pred_negated', 'and.pred %p1, !%p2, %p3;', 'sm_90'),
    ('pred_or_xor_not', 'or.pred %p1, %p2, %p3;\nxor.pred %p1, %p2, %p3;\nnot.pred %p1, %p2;',
     'sm_90'),
    ('pred_mov_const', 'mov.pred %p1, 1;', 'sm_90'),
    ('pred_mov_const0', 'mov.pred %p1, 0;', 'sm_90'),
    ('pred_mov_negated', 'mov.pred %p1, !%p2;', 'sm_90'),
    ('pred_add_negated', 'add.u32 %ur1, !%ur2, 1;', 'sm_90'),
    ('pred_guard_negated', '@!%p1 add.u32 %ur1, %ur2, 1;', 'sm_90'),
    ('pred_guard_nonpred', '@%ur1 add.u32 %ur1, %ur2, 1;', 'sm_90'),
    ('pred_guard_const', '@1 add.u32 %ur1, %ur2, 1;', 'sm_90'),
    ('pred_lop3_pred', 'lop3.or.b32 %r1|%p1, %r2, %r3, %r0, 0xfe, !%p2;', 'sm_90'),
    ('pred_lop3', 'lop3.b32 %r1, %r2, %r3, %r0, 0x96;', 'sm_90'),
    ('pred_isspacep', 'isspacep.global %p1, %rd1;', 'sm_90'),
    ('pred_testp', 'testp.finite.f32 %p1, %f1;\ntestp.normal.f64 %p1, %fd1;', 'sm_90'),
    ('pred_shfl_pair', 'shfl.sync.idx.b32 %r1|%p1, %r2, 0, 0x1f, -1;', 'sm_90'),
    ('pred_cvt_from_pred', 'cvt.u32.pred %ur1, %p1;', 'sm_90'),
    ('pred_setp_const_pair', 'setp.eq.u32 %p1, 1, 1;', 'sm_90'),
    ('pred_match_pred', 'match.all.sync.b32 %r1|%p1, %r2, -1;', 'sm_90'),
    ('pred_elect', 'elect.sync %r1|%p1, -1;', 'sm_90'),
    ('pred_elect_sink', 'elect.sync _|%p1, -1;', 'sm_90'),
    # register plus constant
    ('rpc_st', 'st.global.u64 [%rd0], %rd1 + 1;', 'sm_90'),
    ('rpc_st_u32', 'st.global.u32 [%rd0], %ur1+4;', 'sm_90'),
    ('rpc_add_src', 'add.u32 %ur1, %ur2 + 4, 1;', 'sm_90'),
    ('rpc_mov', 'mov.u64 %rd1, %rd2+8;', 'sm_90'),
    ('rpc_mov_minus', 'mov.u32 %ur1, %ur2-1;', 'sm_90'),
    ('rpc_dest', 'add.u32 %ur1+1, %ur2, 1;', 'sm_90'),
    ('rpc_f32', 'add.f32 %f1, %f2+1, 1.0;', 'sm_90'),
    ('rpc_addr_neg', 'ld.global.u32 %ur1, [%rd0+-4];', 'sm_90'),
    ('rpc_addr_sym', 'ld.shared.u32 %ur1, [smem+4];', 'sm_90'),
    ('rpc_addr_imm', 'ld.global.u32 %ur1, [64];', 'sm_90'),
    ('rpc_addr_reg_reg', 'ld.global.u32 %ur1, [%rd0+%rd1];', 'sm_90'),
    ('rpc_mov_sym', 'mov.u64 %rd1, smem+8;', 'sm_90'),
    ('rpc_mov_sym_expr', 'mov.u64 %rd1, smem+(2*4);', 'sm_90'),
    ('rpc_addr_expr', 'ld.shared.u32 %ur1, [smem+(4*2+1)];', 'sm_90'),
    ('rpc_pred', 'selp.u32 %ur1, 1, 2, %p1+1;', 'sm_90'),
]

F8R = regs('%f', 4) [:-1] + ', %f0, %f1, %f2, %f3}'
R8 = regs('%r', 4)[:-1] + ', %r0, %r1, %r2, %r3}'
SR8 = '{%sr0, %sr1, %sr2, %sr3, %sr0, %sr1, %sr2, %sr3}'
FD2, FD1 = '{%fd1, %fd2}', '{%fd1}'
GRAMMAR += [
    # multi-type conversions
    ('cvt_pack_u8', 'cvt.pack.sat.u8.s32.b32 %r1, %sr1, %sr2, %r3;', 'sm_90'),
    ('cvt_pack_s16', 'cvt.pack.sat.s16.s32 %r1, %sr1, %sr2;', 'sm_90'),
    ('cvt_pack_u4', 'cvt.pack.sat.u4.s32.b32 %r1, %sr1, %sr2, %r3;', 'sm_90'),
    ('cvt_pack_nosat', 'cvt.pack.u8.s32.b32 %r1, %sr1, %sr2, %r3;', 'sm_90'),
    ('cvt_f16x2_f32', 'cvt.rn.f16x2.f32 %fx1, %f1, %f2;', 'sm_90'),
    ('cvt_bf16x2_f32', 'cvt.rn.bf16x2.f32 %r1, %f1, %f2;', 'sm_90'),
    ('cvt_bf16x2_relu', 'cvt.rn.relu.bf16x2.f32 %r1, %f1, %f2;', 'sm_90'),
    ('cvt_f16x2_b32', 'cvt.rn.f16x2.f32 %r1, %f1, %f2;', 'sm_90'),
    ('cvt_tf32_sm80', 'cvt.rna.tf32.f32 %r1, %f1;', 'sm_80'),
    ('cvt_tf32_sm75', 'cvt.rna.tf32.f32 %r1, %f1;', 'sm_75'),
    ('cvt_tf32_rn_sm90', 'cvt.rn.tf32.f32 %r1, %f1;', 'sm_90'),
    ('cvt_tf32_satfinite', 'cvt.rna.satfinite.tf32.f32 %r1, %f1;', 'sm_90'),
    ('cvt_e4m3x2', 'cvt.rn.satfinite.e4m3x2.f32 %bh1, %f1, %f2;', 'sm_90'),
    ('cvt_e5m2x2_f16x2', 'cvt.rn.satfinite.e5m2x2.f16x2 %bh1, %fx1;', 'sm_90'),
    ('cvt_f16x2_e4m3x2', 'cvt.rn.f16x2.e4m3x2 %fx1, %bh1;', 'sm_90'),
    ('cvt_e4m3x2_nosat', 'cvt.rn.e4m3x2.f32 %bh1, %f1, %f2;', 'sm_90'),
    ('cvt_relu_f16', 'cvt.rn.relu.f16.f32 %fh1, %f1;', 'sm_90'),
    ('cvt_bf16_f32', 'cvt.rn.bf16.f32 %bh1, %f1;', 'sm_90'),
    ('cvt_f32_bf16', 'cvt.f32.bf16 %f1, %bh1;', 'sm_90'),
    ('cvt_sat_f32', 'cvt.sat.f32.f32 %f1, %f2;', 'sm_90'),
    ('cvt_ftz_rni', 'cvt.rni.ftz.f32.f32 %f1, %f2;', 'sm_90'),
    ('cvt_missing_round', 'cvt.f32.s32 %f1, %sr1;', 'sm_90'),
    ('cvt_missing_iround', 'cvt.s32.f32 %sr1, %f1;', 'sm_90'),
    ('cvt_f64_f32', 'cvt.f64.f32 %fd1, %f1;', 'sm_90'),
    ('cvt_f32_f64_norm', 'cvt.f32.f64 %f1, %fd1;', 'sm_90'),
    ('cvt_sat_int', 'cvt.sat.u8.s32 %uh1, %sr1;', 'sm_90'),
    ('cvt_one_type', 'cvt.u32 %ur1, %ur2;', 'sm_90'),
    ('cvt_u8_u8', 'cvt.u16.u8 %uh1, %uh2;', 'sm_90'),
    ('cvt_rs', 'cvt.rs.f16x2.f32 %fx1, %f1, %f2, %ur1;', 'sm_90a'),
    ('cvt_f16_imm', 'cvt.rn.f16.f32 %fh1, 1.0;', 'sm_90'),
    # mma
    ('mma_f16_f32', 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_f16_f16', 'mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 %s, %s, %s, %s;' %
     (R2, R4, R2, R2), 'sm_90'),
    ('mma_f16_f32_f16c', 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 %s, %s, %s, %s;' %
     (F4, R4, R2, R2), 'sm_90'),
    ('mma_k8_f16', 'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F4, R2, R1, F4), 'sm_90'),
    ('mma_bf16_k8', 'mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 %s, %s, %s, %s;' %
     (F4, R2, R1, F4), 'sm_90'),
    ('mma_bf16_k16', 'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_tf32_k8', 'mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_tf32_k4', 'mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 %s, %s, %s, %s;' %
     (F4, R2, R1, F4), 'sm_90'),
    ('mma_s8_k32', 'mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 %s, %s, %s, %s;' %
     (SR4, R4, R2, SR4), 'sm_90'),
    ('mma_s8_k32_satfinite',
     'mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 %s, %s, %s, %s;' %
     (SR4, R4, R2, SR4), 'sm_90'),
    ('mma_s8u8_k16', 'mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32 %s, %s, %s, %s;' %
     (SR4, R2, R1, SR4), 'sm_90'),
    ('mma_u8_k32', 'mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 %s, %s, %s, %s;' %
     (SR4, R4, R2, SR4), 'sm_90'),
    ('mma_f64', 'mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 %s, %s, %s, %s;' %
     (FD2, FD1, FD1, FD2), 'sm_90'),
    ('mma_m8n8k16_s8', 'mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 %s, %s, %s, %s;' %
     ('{%sr0, %sr1}', R1, R1, '{%sr0, %sr1}'), 'sm_90'),
    ('mma_s4_k64', 'mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 %s, %s, %s, %s;' %
     (SR4, R4, R2, SR4), 'sm_90'),
    ('mma_b1_k256', 'mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc '
     '%s, %s, %s, %s;' % (SR4, R4, R2, SR4), 'sm_90'),
    ('mma_b1_xor', 'mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc '
     '%s, %s, %s, %s;' % (SR4, R4, R2, SR4), 'sm_90'),
    ('mma_e4m3', 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_e5m2_e4m3', 'mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_m8n8k4_f16', 'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F8R, R2, R2, F8R), 'sm_90'),
    ('mma_m8n8k4_f16_f16', 'mma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16 %s, %s, %s, %s;' %
     (R4, R2, R2, R4), 'sm_90'),
    ('mma_row_row_k16', 'mma.sync.aligned.m16n8k16.row.row.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_too_few_elems', 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F2, R4, R2, F4), 'sm_90'),
    ('mma_bad_shape', 'mma.sync.aligned.m16n8k12.row.col.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_mixed_ab', 'mma.sync.aligned.m16n8k16.row.col.f32.f16.bf16.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_no_sync', 'mma.aligned.m16n8k16.row.col.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_no_layout', 'mma.sync.aligned.m16n8k16.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_two_types', 'mma.sync.aligned.m16n8k16.row.col.f32.f16 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_sm75_k16', 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_75'),
    ('mma_sm75_k8', 'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F4, R2, R1, F4), 'sm_75'),
    ('mma_sm80_bf16', 'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_80'),
    ('mma_sm80_e4m3', 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_80'),
    # wmma
    ('wmma_load_a_f16', 'wmma.load.a.sync.aligned.row.m16n16k16.global.f16 %s, [%%rd0], 16;' %
     R8, 'sm_90'),
    ('wmma_load_b_f16', 'wmma.load.b.sync.aligned.col.m16n16k16.f16 %s, [%%rd0];' % R8,
     'sm_90'),
    ('wmma_load_c_f32', 'wmma.load.c.sync.aligned.row.m16n16k16.f32 %s, [%%rd0];' % F8R,
     'sm_90'),
    ('wmma_load_c_f16', 'wmma.load.c.sync.aligned.row.m16n16k16.global.f16 %s, [%%rd0], 16;' %
     R4, 'sm_90'),
    ('wmma_mma_f32_f32', 'wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 %s, %s, %s, %s;' %
     (F8R, R8, R8, F8R), 'sm_90'),
    ('wmma_mma_f16_f16', 'wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16 %s, %s, %s, %s;' %
     (R4, R8, R8, R4), 'sm_90'),
    ('wmma_mma_f32_f16', 'wmma.mma.sync.aligned.row.row.m32n8k16.f32.f16 %s, %s, %s, %s;' %
     (F8R, R8, R8, R4), 'sm_90'),
    ('wmma_store_f32', 'wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%%rd0], %s, 16;' %
     F8R, 'sm_90'),
    ('wmma_store_f16', 'wmma.store.d.sync.aligned.col.m16n16k16.shared.f16 [smem], %s;' % R4,
     'sm_90'),
    ('wmma_load_a_s8', 'wmma.load.a.sync.aligned.row.m16n16k16.global.s8 %s, [%%rd0];' % R2,
     'sm_90'),
    ('wmma_load_c_s32', 'wmma.load.c.sync.aligned.row.m16n16k16.global.s32 %s, [%%rd0];' % SR8,
     'sm_90'),
    ('wmma_mma_s8', 'wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 %s, %s, %s, %s;' %
     (SR8, R2, R2, SR8), 'sm_90'),
    ('wmma_mma_u8_satfinite',
     'wmma.mma.sync.aligned.row.col.m16n16k16.s32.u8.u8.s32.satfinite %s, %s, %s, %s;' %
     (SR8, R2, R2, SR8), 'sm_90'),
    ('wmma_load_a_tf32', 'wmma.load.a.sync.aligned.row.m16n16k8.global.tf32 %s, [%%rd0];' % R4,
     'sm_90'),
    ('wmma_mma_tf32', 'wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32 %s, %s, %s, %s;'
     % (F8R, R4, R4, F8R), 'sm_90'),
    ('wmma_load_a_bf16', 'wmma.load.a.sync.aligned.row.m16n16k16.global.bf16 %s, [%%rd0];' % R4,
     'sm_90'),
    ('wmma_mma_bf16', 'wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32 %s, %s, %s, %s;'
     % (F8R, R4, R4, F8R), 'sm_90'),
    ('wmma_mma_f64', 'wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64 %s, %s, %s, %s;' %
     (FD2, FD1, FD1, FD2), 'sm_90'),
    ('wmma_load_a_f64', 'wmma.load.a.sync.aligned.row.m8n8k4.global.f64 %s, [%%rd0];' % FD1,
     'sm_90'),
    ('wmma_load_a_b1', 'wmma.load.a.sync.aligned.row.m8n8k128.global.b1 %s, [%%rd0];' % R1,
     'sm_90'),
    ('wmma_mma_b1', 'wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 '
     '%s, %s, %s, %s;' % ('{%sr0, %sr1}', R1, R1, '{%sr0, %sr1}'), 'sm_90'),
    ('wmma_load_a_s4', 'wmma.load.a.sync.aligned.row.m8n8k32.global.s4 %s, [%%rd0];' % R1,
     'sm_90'),
    ('wmma_load_bad_shape', 'wmma.load.a.sync.aligned.row.m16n16k32.global.f16 %s, [%%rd0];' %
     R8, 'sm_90'),
    ('wmma_load_no_layout', 'wmma.load.a.sync.aligned.m16n16k16.global.f16 %s, [%%rd0];' % R8,
     'sm_90'),
    ('wmma_mma_one_type', 'wmma.mma.sync.aligned.row.col.m16n16k16.f32 %s, %s, %s, %s;' %
     (F8R, R8, R8, F8R), 'sm_90'),
    ('wmma_load_too_few', 'wmma.load.a.sync.aligned.row.m16n16k16.global.f16 %s, [%%rd0];' % R4,
     'sm_90'),
    # matrix moves, async copies, barriers
    ('movmatrix', 'movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;', 'sm_90'),
    ('movmatrix_no_trans', 'movmatrix.sync.aligned.m8n8.b16 %r1, %r2;', 'sm_90'),
    ('movmatrix_sm75', 'movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;', 'sm_75'),
    ('ldmatrix_x4', 'ldmatrix.sync.aligned.m8n8.x4.shared.b16 %s, [smem];' % R4, 'sm_90'),
    ('ldmatrix_x2_trans', 'ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 %s, [%%rd1];' % R2,
     'sm_90'),
    ('ldmatrix_x1', 'ldmatrix.sync.aligned.x1.m8n8.shared.b16 %s, [smem];' % R1, 'sm_90'),
    ('ldmatrix_wrong_count', 'ldmatrix.sync.aligned.m8n8.x4.shared.b16 %s, [smem];' % R2,
     'sm_90'),
    ('stmatrix_x1', 'stmatrix.sync.aligned.m8n8.x1.shared.b16 [smem], %s;' % R1, 'sm_90'),
    ('stmatrix_x4_trans', 'stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [smem], %s;' % R4,
     'sm_90'),
    ('cp_async_mbarrier_arrive', 'cp.async.mbarrier.arrive.shared.b64 [smem];', 'sm_90'),
    ('cp_async_mbarrier_arrive_noinc', 'cp.async.mbarrier.arrive.noinc.shared.b64 [smem];',
     'sm_90'),
    ('cp_async_mbarrier_arrive_cta', 'cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%rd1];',
     'sm_90'),
    ('cp_async_ca', 'cp.async.ca.shared.global [smem], [%rd0], 4;', 'sm_90'),
    ('cp_async_cg_src', 'cp.async.cg.shared.global [smem], [%rd0], 16, 8;', 'sm_90'),
    ('cp_async_cg_l2', 'cp.async.cg.shared.global.L2::128B [smem], [%rd0], 16;', 'sm_90'),
    ('cp_async_groups', 'cp.async.commit_group;\ncp.async.wait_group 0;\ncp.async.wait_all;',
     'sm_90'),
    ('cp_async_bad_size', 'cp.async.cg.shared.global [smem], [%rd0], 8;', 'sm_90'),
    ('cp_async_sm75', 'cp.async.ca.shared.global [smem], [%rd0], 4;', 'sm_75'),
    ('mbarrier_init', 'mbarrier.init.shared.b64 [smem], 32;', 'sm_90'),
    ('mbarrier_arrive', 'mbarrier.arrive.shared.b64 %rd1, [smem];', 'sm_90'),
    ('mbarrier_arrive_sink', 'mbarrier.arrive.release.cta.shared::cta.b64 _, [smem];', 'sm_90'),
    ('mbarrier_try_wait_parity', 'mbarrier.try_wait.parity.shared.b64 %p1, [smem], 0;', 'sm_90'),
    ('mbarrier_test_wait', 'mbarrier.test_wait.shared.b64 %p1, [smem], %rd1;', 'sm_90'),
    ('mbarrier_expect_tx', 'mbarrier.arrive.expect_tx.shared.b64 %rd1, [smem], 16;', 'sm_90'),
    ('mbarrier_inval', 'mbarrier.inval.shared.b64 [smem];', 'sm_90'),
    ('mbarrier_pending_count', 'mbarrier.pending_count.b64 %ur1, %rd1;', 'sm_90'),
    ('bar_sync', 'bar.sync 0;\nbar.arrive 1, 64;\nbar.sync 2, 128;', 'sm_90'),
    ('barrier_sync_aligned', 'barrier.sync.aligned 0;\nbarrier.sync 1;', 'sm_90'),
    ('bar_warp_sync', 'bar.warp.sync -1;', 'sm_90'),
    ('barrier_cluster', 'barrier.cluster.arrive;\nbarrier.cluster.wait;', 'sm_90'),
    ('barrier_cluster_relaxed', 'barrier.cluster.arrive.relaxed.aligned;', 'sm_90'),
    ('membar', 'membar.gl;\nmembar.cta;\nmembar.sys;', 'sm_90'),
    ('fence', 'fence.acq_rel.gpu;\nfence.sc.sys;\nfence.proxy.async.shared::cta;', 'sm_90'),
    ('fence_proxy_alias', 'fence.proxy.alias;', 'sm_90'),
    ('fence_bad_scope', 'fence.acq_rel.grid;', 'sm_90'),
]

GRAMMAR += [
    # rules added with the relaxed type checks and mandatory modifiers
    ('cvt_f16_f32_no_round', 'cvt.f16.f32 %fh1, %f1;', 'sm_90'),
    ('cvt_f32_f16_no_round', 'cvt.f32.f16 %f1, %fh1;', 'sm_90'),
    ('cvt_f64_f32_round', 'cvt.rn.f64.f32 %fd1, %f1;', 'sm_90'),
    ('cvt_s32_s64_round', 'cvt.rzi.s32.s64 %sr1, %sd1;', 'sm_90'),
    ('cvt_u32_u64', 'cvt.u32.u64 %ur1, %ud1;', 'sm_90'),
    ('cvt_pack_two_types_three_ops', 'cvt.pack.sat.s16.s32 %r1, %sr1, %sr2, %r3;', 'sm_90'),
    ('cvt_three_types_no_pack', 'cvt.sat.u8.s32.b32 %r1, %sr1, %sr2, %r3;', 'sm_90'),
    ('cvt_b32_f32', 'cvt.rzi.b32.f32 %r1, %f1;', 'sm_90'),
    ('fma_f16_no_round', 'fma.f16 %fh1, %fh1, %fh2, %fh3;', 'sm_90'),
    ('fma_f64_no_round', 'fma.f64 %fd1, %fd1, %fd2, %fd3;', 'sm_90'),
    ('div_f64_approx', 'div.approx.f64 %fd1, %fd1, %fd2;', 'sm_90'),
    ('div_f64_no_mode', 'div.f64 %fd1, %fd1, %fd2;', 'sm_90'),
    ('sqrt_no_mode', 'sqrt.f32 %f1, %f2;', 'sm_90'),
    ('rcp_no_mode', 'rcp.f64 %fd1, %fd2;', 'sm_90'),
    ('ex2_no_approx', 'ex2.f32 %f1, %f2;', 'sm_90'),
    ('rsqrt_no_approx', 'rsqrt.f32 %f1, %f2;', 'sm_90'),
    ('tanh_no_approx', 'tanh.f32 %f1, %f2;', 'sm_90'),
    ('mad_no_mode', 'mad.u32 %ur1, %ur1, %ur2, %ur3;', 'sm_90'),
    ('mad_f32_no_round', 'mad.f32 %f1, %f1, %f2, %f3;', 'sm_90'),
    ('mad_f32_rn', 'mad.rn.f32 %f1, %f1, %f2, %f3;', 'sm_90'),
    ('mul24_no_mode', 'mul24.u32 %ur1, %ur1, %ur2;', 'sm_90'),
    ('mul_f32_no_mode', 'mul.f32 %f1, %f1, %f2;', 'sm_90'),
    ('mul_wide_f32', 'mul.wide.f32 %fd1, %f1, %f2;', 'sm_90'),
    ('shf_r_wrap', 'shf.r.wrap.b32 %r1, %r2, %r3, %ur1;', 'sm_90'),
    ('movmatrix_type_b32', 'movmatrix.sync.aligned.m8n8.trans.b32 %r1, %r2;', 'sm_90'),
    ('movmatrix_dst_b64', 'movmatrix.sync.aligned.m8n8.trans.b16 %rd1, %r2;', 'sm_90'),
    ('mma_no_aligned', 'mma.sync.m16n8k16.row.col.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_col_row_k8', 'mma.sync.aligned.m16n8k8.col.row.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F4, R2, R1, F4), 'sm_90'),
    ('mma_m8n8k4_col_col', 'mma.sync.aligned.m8n8k4.col.col.f32.f16.f16.f32 %s, %s, %s, %s;' %
     (F8R, R2, R2, F8R), 'sm_90'),
    ('mma_three_layouts', 'mma.sync.aligned.m16n8k16.row.col.row.f32.f16.f16.f32 %s, %s, %s, %s;'
     % (F4, R4, R2, F4), 'sm_90'),
    ('mma_s8_u8_k32', 'mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 %s, %s, %s, %s;' %
     (SR4, R4, R2, SR4), 'sm_90'),
    ('mma_tf32_f16', 'mma.sync.aligned.m16n8k8.row.col.f32.tf32.f16.f32 %s, %s, %s, %s;' %
     (F4, R4, R2, F4), 'sm_90'),
    ('mma_f16_f16_f32c', 'mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32 %s, %s, %s, %s;' %
     (R2, R4, R2, F4), 'sm_90'),
    ('mma_m8n8k4_f32_f16c', 'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f16 %s, %s, %s, %s;' %
     (F8R, R2, R2, R4), 'sm_90'),
    ('mma_sm75_s8_k16', 'mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 %s, %s, %s, %s;' %
     (SR4, R2, R1, SR4), 'sm_75'),
    ('wmma_mma_three_types', 'wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16.f16 '
     '%s, %s, %s, %s;' % (F8R, R8, R8, F8R), 'sm_90'),
    ('wmma_store_no_layout', 'wmma.store.d.sync.aligned.m16n16k16.global.f32 [%%rd0], %s;' %
     F8R, 'sm_90'),
    ('wmma_mma_one_layout', 'wmma.mma.sync.aligned.row.m16n16k16.f32.f32 %s, %s, %s, %s;' %
     (F8R, R8, R8, F8R), 'sm_90'),
    ('setp_le_u32', 'setp.le.u32 %p1, %ur1, %ur2;', 'sm_90'),
    ('setp_ltu_s32', 'setp.ltu.s32 %p1, %sr1, %sr2;', 'sm_90'),
    ('setp_hs_b32', 'setp.hs.b32 %p1, %r1, %r2;', 'sm_90'),
    ('setp_lo_f32', 'setp.lo.f32 %p1, %f1, %f2;', 'sm_90'),
    ('setp_ne_b16', 'setp.ne.b16 %p1, %bh1, %bh2;', 'sm_90'),
    ('setp_num_f64', 'setp.num.f64 %p1, %fd1, %fd2;', 'sm_90'),
    ('set_lo_u32', 'set.lo.u32.u32 %ur1, %ur1, %ur2;', 'sm_90'),
    ('ld_relaxed_scope_shared', 'ld.relaxed.cta.shared.u32 %ur1, [smem];', 'sm_90'),
    ('st_release_no_scope', 'st.release.global.u32 [%rd0], %ur1;', 'sm_90'),
    ('ld_acquire_no_scope', 'ld.acquire.global.u32 %ur1, [%rd0];', 'sm_90'),
    ('or_u64', 'or.u64 %ud1, %ud1, %ud2;', 'sm_90'),
    ('xor_s32', 'xor.s32 %sr1, %sr1, %sr2;', 'sm_90'),
    ('not_pred', 'not.pred %p1, !%p2;', 'sm_90'),
    ('cnot_pred', 'cnot.pred %p1, %p2;', 'sm_90'),
    ('mov_u8', 'mov.u8 %uh1, 1;', 'sm_90'),
    ('mov_b8', 'mov.b8 %bh1, 1;', 'sm_90'),
    ('mov_s16_imm', 'mov.s16 %sh1, -3;', 'sm_90'),
    ('ld_bf16', 'ld.global.bf16 %bh1, [%rd0];', 'sm_90'),
    ('st_f16x2', 'st.global.f16x2 [%rd0], %fx1;', 'sm_90'),
    ('ld_b128_into_b64', 'ld.global.b128 %rd1, [%rd0];', 'sm_90'),
    ('cvta_u64_to_u32reg', 'cvta.to.global.u64 %ur1, %rd0;', 'sm_90'),
    ('cvta_u32', 'cvta.to.shared.u32 %ur1, %ur2;', 'sm_90'),
    ('dp4a_s32_s32', 'dp4a.s32.s32 %sr1, %sr1, %sr2, %sr3;', 'sm_90'),
    ('popc_u32', 'popc.u32 %ur1, %ur2;', 'sm_90'),
    ('clz_dst_s32', 'clz.b32 %sr1, %r1;', 'sm_90'),
    ('clz_dst_b32', 'clz.b32 %r1, %r1;', 'sm_90'),
    ('bfind_dst_u64', 'bfind.u64 %ud1, %ud2;', 'sm_90'),
    ('pred_imm_float_setp', 'setp.eq.and.u32 %p1, %ur1, 0, 1.0;', 'sm_90'),
    ('pred_vote_const_2', 'vote.sync.any.pred %p1, 5, -1;', 'sm_90'),
    ('pred_selp_neg_const', 'selp.u32 %ur1, 1, 2, !1;', 'sm_90'),
    ('rpc_ld_dest_offset', 'ld.global.u32 %ur1+4, [%rd0];', 'sm_90'),
    ('rpc_in_brace', 'st.global.v2.u32 [%rd0], {%ur1 + 1, %ur2};', 'sm_90'),
    ('rpc_expr', 'add.u32 %ur1, %ur2 + (2 * 3), 1;', 'sm_90'),
    ('rpc_float_const', 'add.f32 %f1, %f2 + 1.5, 1.0;', 'sm_90'),
    ('rpc_vec_comp', 'add.u32 %ur1, %v2u.x + 1, 1;', 'sm_90'),
    ('rpc_sreg', 'add.u32 %ur1, %tid.x + 1, 1;', 'sm_90'),
    ('rpc_st_minus_neg', 'st.global.u32 [%rd0], %ur1 + -1;', 'sm_90'),
    ('vec_comp_w_of_v4_dest', 'mov.u32 %v4u.w, 7;', 'sm_90'),
    ('vec_whole_in_brace', 'st.global.v2.b64 [%rd0], {%v2u, %rd1};', 'sm_90'),
    ('vec_st_v2_comps_mixed', 'st.global.v2.f32 [%rd0], {%v2f.y, %f1};', 'sm_90'),
    ('vec_setp_whole', 'setp.eq.u32 %p1, %v2u, 0;', 'sm_90'),
    ('vec_mov_v2_f32_from_u32', 'mov.v2.f32 %v2f, %v2u;', 'sm_90'),
    ('vec_mov_v2_u32_comps', 'mov.v2.u32 %v2u, {%v4u.x, %v4u.w};', 'sm_90'),
    ('vec_mov_b32_from_v2h', 'mov.b32 %r1, %v2h;', 'sm_90'),
    ('vec_mov_v2h_from_b32', 'mov.b32 %v2h, %r1;', 'sm_90'),
    ('vec_mov_u64_from_v2u', 'mov.u64 %ud1, %v2u;', 'sm_90'),
    ('vec_ld_v2_f32_into_u32vec', 'ld.global.v2.u32 %v2f, [%rd0];', 'sm_90'),
    ('vec_ld_v2_u16_into_v2u', 'ld.global.v2.u16 %v2u, [%rd0];', 'sm_90'),
    ('vec_ld_v2_b64_into_v2u', 'ld.global.v2.b64 %v2u, [%rd0];', 'sm_90'),
    ('vec_ldu_v2', 'ldu.global.v2.u32 %v2u, [%rd0];', 'sm_90'),
    ('vec_atom_whole', 'atom.global.v2.f32.add %v2f, [%rd0], %v2f;', 'sm_90'),
    ('add_sat_s32', 'add.sat.s32 %sr1, %sr1, %sr2;', 'sm_90'),
    ('sub_sat_u16', 'sub.sat.u16 %uh1, %uh1, %uh2;', 'sm_90'),
    ('add_f64_imm_int', 'add.f64 %fd1, %fd1, 2;', 'sm_90'),
    ('mov_f32_imm_int', 'mov.f32 %f1, 0;', 'sm_90'),
    ('mov_b32_imm_float', 'mov.b32 %r1, 1.0;', 'sm_90'),
    ('setp_f32_imm_int', 'setp.eq.f32 %p1, %f1, 0;', 'sm_90'),
    ('st_f32_imm_int', 'st.global.f32 [%rd0], 1;', 'sm_90'),
    ('selp_f32_imm_int', 'selp.f32 %f1, 1, %f2, %p1;', 'sm_90'),
    ('fma_f16x2_imm_int', 'fma.rn.f16x2 %fx1, %fx1, 0, %fx2;', 'sm_90'),
    ('atom_add_s64', 'atom.global.add.s64 %sd1, [%rd0], 1;', 'sm_90'),
    ('atom_or_b64', 'atom.global.or.b64 %rd1, [%rd0], 1;', 'sm_90'),
    ('atom_xor_u32', 'atom.global.xor.u32 %ur1, [%rd0], 1;', 'sm_90'),
    ('atom_exch_u32', 'atom.global.exch.u32 %ur1, [%rd0], 1;', 'sm_90'),
    ('atom_cas_u64', 'atom.global.cas.u64 %ud1, [%rd0], 1, 2;', 'sm_90'),
    ('atom_inc_s32', 'atom.global.inc.s32 %sr1, [%rd0], 1;', 'sm_90'),
    ('atom_min_f32', 'atom.global.min.f32 %f1, [%rd0], %f2;', 'sm_90'),
    ('atom_max_u64', 'atom.global.max.u64 %ud1, [%rd0], 1;', 'sm_90'),
    ('atom_exch_b128', 'atom.global.exch.b128 %q1, [%rd0], %q2;', 'sm_90'),
    ('red_and_s32', 'red.global.and.s32 [%rd0], 1;', 'sm_90'),
    ('red_add_b64', 'red.global.add.b64 [%rd0], 1;', 'sm_90'),
    ('min_three_f16', 'min.f16 %fh1, %fh1, %fh2, %fh3;', 'sm_90'),
    ('ld_local_imm_addr', 'ld.local.u32 %ur1, [16];', 'sm_90'),
    ('ld_generic_imm_addr', 'ld.u32 %ur1, [16];', 'sm_90'),
    ('ld_shared_imm_addr', 'ld.shared.u32 %ur1, [16];', 'sm_90'),
    ('redux_f32_sm100a', 'redux.sync.min.f32 %f1, %f2, -1;', 'sm_100a'),
    ('popc_b64_dst_b32', 'popc.b64 %r1, %rd1;', 'sm_90'),
    ('barred_popc_dst_u64', 'bar.red.popc.u32 %ud1, 0, %p1;', 'sm_90'),
    ('barred_popc_dst_pred', 'bar.red.popc.u32 %p1, 0, %p2;', 'sm_90'),
    ('cp_async_ca_16', 'cp.async.ca.shared.global [smem], [%rd0], 16;', 'sm_90'),
    ('cp_async_ca_12', 'cp.async.ca.shared.global [smem], [%rd0], 12;', 'sm_90'),
    ('cp_async_cg_4', 'cp.async.cg.shared.global [smem], [%rd0], 4;', 'sm_90'),
    # memory instructions
    ('ld_cache_ops', 'ld.global.ca.u32 %ur1, [%rd0];\nld.global.cg.u32 %ur1, [%rd0];\n'
     'ld.global.cs.u32 %ur1, [%rd0];\nld.global.lu.u32 %ur1, [%rd0];\n'
     'ld.global.cv.u32 %ur1, [%rd0];', 'sm_90'),
    ('ld_volatile', 'ld.volatile.global.u32 %ur1, [%rd0];', 'sm_90'),
    ('ld_relaxed_acquire', 'ld.relaxed.gpu.global.u32 %ur1, [%rd0];\n'
     'ld.acquire.sys.global.u32 %ur1, [%rd0];', 'sm_90'),
    ('ld_relaxed_no_scope', 'ld.relaxed.global.u32 %ur1, [%rd0];', 'sm_90'),
    ('ld_nc', 'ld.global.nc.u32 %ur1, [%rd0];\nld.global.nc.L1::no_allocate.u32 %ur1, [%rd0];',
     'sm_90'),
    ('ld_l2_prefetch', 'ld.global.L2::128B.u32 %ur1, [%rd0];', 'sm_90'),
    ('ld_evict', 'ld.global.L1::evict_last.u32 %ur1, [%rd0];', 'sm_90'),
    ('ld_cache_hint', 'ld.global.L2::cache_hint.u32 %ur1, [%rd0], %rd1;', 'sm_90'),
    ('ld_generic', 'ld.u32 %ur1, [%rd0];', 'sm_90'),
    ('ld_param', 'ld.param.u64 %rd1, [p];', 'sm_90'),
    ('ld_param_offset', 'ld.param.u32 %ur1, [p+4];', 'sm_90'),
    ('ld_b128', 'ld.global.b128 %q1, [%rd0];\nst.global.b128 [%rd0], %q1;', 'sm_90'),
    ('ld_u8_vec', 'ld.global.v4.u8 {%uh0, %uh1, %uh2, %uh3}, [%rd0];', 'sm_90'),
    ('ld_v8', 'ld.global.v8.f32 {%f0, %f1, %f2, %f3, %f0, %f1, %f2, %f3}, [%rd0];', 'sm_90'),
    ('ld_pred', 'ld.global.pred %p1, [%rd0];', 'sm_90'),
    ('ld_two_spaces', 'ld.global.shared.u32 %ur1, [%rd0];', 'sm_90'),
    ('ld_addr_u32reg', 'ld.shared.u32 %ur1, [%ur2];', 'sm_90'),
    ('ld_addr_f32reg', 'ld.global.u32 %ur1, [%f1];', 'sm_90'),
    ('ld_dest_imm', 'ld.global.u32 1, [%rd0];', 'sm_90'),
    ('ld_sink', 'ld.global.u32 _, [%rd0];', 'sm_90'),
    ('st_imm', 'st.global.u32 [%rd0], 5;\nst.global.f32 [%rd0], 0f3F800000;', 'sm_90'),
    ('st_release', 'st.release.gpu.global.u32 [%rd0], %ur1;', 'sm_90'),
    ('st_wb_wt', 'st.global.wb.u32 [%rd0], %ur1;\nst.global.wt.u32 [%rd0], %ur1;', 'sm_90'),
    ('st_sym', 'st.shared.u32 [smem+8], %ur1;', 'sm_90'),
    ('ldu', 'ldu.global.u32 %ur1, [%rd0];\nldu.global.v2.f32 {%f1, %f2}, [%rd0];', 'sm_90'),
    ('prefetch', 'prefetch.global.L2 [%rd0];\nprefetchu.L1 [%rd0];\nprefetch.L1 [%rd0];',
     'sm_90'),
    ('prefetch_evict', 'prefetch.global.L2::evict_last [%rd0];', 'sm_90'),
    ('applypriority', 'applypriority.global.L2::evict_normal [%rd0], 128;', 'sm_90'),
    ('discard', 'discard.global.L2 [%rd0], 128;', 'sm_90'),
    ('createpolicy', 'createpolicy.fractional.L2::evict_last.b64 %rd1, 1.0;', 'sm_90'),
    ('createpolicy_frac', 'createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 '
     '%rd1, 0.5;', 'sm_90'),
    ('atom_cas', 'atom.global.cas.b32 %r1, [%rd0], 0, 1;', 'sm_90'),
    ('atom_add_u32', 'atom.global.add.u32 %ur1, [%rd0], 1;', 'sm_90'),
    ('atom_add_f16', 'atom.global.add.noftz.f16 %fh1, [%rd0], %fh2;', 'sm_90'),
    ('atom_add_bf16x2', 'atom.global.add.noftz.bf16x2 %r1, [%rd0], %r2;', 'sm_90'),
    ('atom_sem_scope', 'atom.acq_rel.gpu.global.exch.b32 %r1, [%rd0], %r2;', 'sm_90'),
    ('atom_inc', 'atom.global.inc.u32 %ur1, [%rd0], 10;', 'sm_90'),
    ('atom_min_s64', 'atom.global.min.s64 %sd1, [%rd0], %sd2;', 'sm_90'),
    ('atom_add_f64', 'atom.global.add.f64 %fd1, [%rd0], %fd2;', 'sm_90'),
    ('atom_cas_b16', 'atom.global.cas.b16 %bh1, [%rd0], %bh2, %bh3;', 'sm_90'),
    ('atom_and_s32', 'atom.global.and.s32 %sr1, [%rd0], 1;', 'sm_90'),
    ('atom_add_b32', 'atom.global.add.b32 %r1, [%rd0], 1;', 'sm_90'),
    ('atom_shared_cluster', 'atom.shared::cluster.add.u32 %ur1, [%rd0], 1;', 'sm_90'),
    ('red_add', 'red.global.add.u32 [%rd0], 1;\nred.shared.max.s32 [smem], %sr1;', 'sm_90'),
    ('red_add_f32', 'red.global.add.f32 [%rd0], %f1;', 'sm_90'),
    ('red_release', 'red.release.gpu.global.add.u64 [%rd0], 1;', 'sm_90'),
    ('red_cache_hint', 'red.global.L2::cache_hint.add.u32 [%rd0], 1, %rd1;', 'sm_90'),
    # integer and float arithmetic
    ('mul_wide', 'mul.wide.u32 %rd1, %ur1, %ur2;\nmul.wide.s16 %sr1, %sh1, %sh2;', 'sm_90'),
    ('mul_wide_u64dst', 'mul.wide.u32 %ud1, %ur1, %ur2;', 'sm_90'),
    ('mul_wide_bad_dst', 'mul.wide.u32 %ur1, %ur1, %ur2;', 'sm_90'),
    ('mul_hi_lo', 'mul.hi.u32 %ur1, %ur1, %ur2;\nmul.lo.s64 %sd1, %sd1, 3;', 'sm_90'),
    ('mul_no_mode', 'mul.u32 %ur1, %ur1, %ur2;', 'sm_90'),
    ('mad', 'mad.lo.s32 %sr1, %sr1, %sr2, %sr3;\nmad.hi.u32 %ur1, %ur1, %ur2, %ur3;\n'
     'mad.wide.s32 %sd1, %sr1, %sr2, %sd2;', 'sm_90'),
    ('mad_cc', 'mad.lo.cc.u32 %ur1, %ur1, %ur2, %ur3;\nmadc.hi.u32 %ur1, %ur1, %ur2, %ur3;',
     'sm_90'),
    ('add_cc', 'add.cc.u32 %ur1, %ur1, %ur2;\naddc.cc.u32 %ur1, %ur1, %ur2;\n'
     'addc.u32 %ur1, %ur1, 0;', 'sm_90'),
    ('sub_sat', 'sub.sat.s32 %sr1, %sr1, %sr2;\nadd.sat.s32 %sr1, %sr1, 1;', 'sm_90'),
    ('add_sat_u32', 'add.sat.u32 %ur1, %ur1, 1;', 'sm_90'),
    ('add_s16x2', 'add.s16x2 %r1, %r1, %r2;', 'sm_90'),
    ('mul24', 'mul24.lo.u32 %ur1, %ur1, %ur2;\nmad24.hi.sat.s32 %sr1, %sr1, %sr2, %sr3;', 'sm_90'),
    ('sad_rem_div', 'sad.u32 %ur1, %ur1, %ur2, %ur3;\nrem.s32 %sr1, %sr1, 3;\n'
     'div.u64 %ud1, %ud1, %ud2;', 'sm_90'),
    ('abs_neg_min_max', 'abs.s32 %sr1, %sr1;\nneg.s64 %sd1, %sd1;\nmin.u16 %uh1, %uh1, %uh2;\n'
     'max.s32 %sr1, %sr1, 0;', 'sm_90'),
    ('min_relu', 'min.relu.s32 %sr1, %sr1, %sr2;\nmax.s16x2 %r1, %r2, %r3;', 'sm_90'),
    ('min_three', 'min.s32 %sr1, %sr1, %sr2, %sr3;', 'sm_90'),
    ('min_f32_three', 'max.f32 %f1, %f1, %f2, %f3;', 'sm_90'),
    ('popc_clz', 'popc.b32 %ur1, %r1;\npopc.b64 %ur1, %rd1;\nclz.b64 %ur1, %rd1;', 'sm_90'),
    ('popc_dst_b32', 'popc.b32 %r1, %r1;', 'sm_90'),
    ('popc_dst_u64', 'popc.b64 %ud1, %rd1;', 'sm_90'),
    ('bfind', 'bfind.u32 %ur1, %ur2;\nbfind.shiftamt.s64 %ur1, %sd1;', 'sm_90'),
    ('brev_bfe_bfi', 'brev.b32 %r1, %r2;\nbfe.u32 %ur1, %ur2, 8, 4;\n'
     'bfi.b32 %r1, %r2, %r3, 8, 4;', 'sm_90'),
    ('bfe_s64', 'bfe.s64 %sd1, %sd1, %ur1, %ur2;', 'sm_90'),
    ('fns', 'fns.b32 %r1, %r2, %ur1, 1;', 'sm_90'),
    ('bmsk_szext', 'bmsk.clamp.b32 %r1, %ur1, %ur2;\nszext.wrap.s32 %sr1, %sr2, %ur1;', 'sm_90'),
    ('dp4a', 'dp4a.u32.u32 %ur1, %ur1, %ur2, %ur3;\ndp4a.s32.u32 %sr1, %sr1, %ur2, %sr3;',
     'sm_90'),
    ('dp2a', 'dp2a.lo.u32.u32 %ur1, %ur1, %ur2, %ur3;\ndp2a.hi.s32.s32 %sr1, %sr1, %sr2, %sr3;',
     'sm_90'),
    ('dp4a_bad_type', 'dp4a.f32.u32 %f1, %ur1, %ur2, %f3;', 'sm_90'),
    ('prmt', 'prmt.b32 %r1, %r2, %r3, 0x3210;\nprmt.b32.f4e %r1, %r2, %r3, %r0;', 'sm_90'),
    ('shf', 'shf.l.wrap.b32 %r1, %r2, %r3, 5;\nshf.r.clamp.b32 %r1, %r2, %r3, %ur1;', 'sm_90'),
    ('shf_no_mode', 'shf.l.b32 %r1, %r2, %r3, 5;', 'sm_90'),
    ('shl_shr', 'shl.b32 %r1, %r2, 3;\nshr.s32 %sr1, %sr2, %ur1;\nshr.u64 %ud1, %ud1, 3;',
     'sm_90'),
    ('shl_b64_shift_b32', 'shl.b64 %rd1, %rd2, %r1;', 'sm_90'),
    ('shl_shift_u16', 'shl.b32 %r1, %r2, %uh1;', 'sm_90'),
    ('logic', 'and.b32 %r1, %r2, 0xff;\nor.b64 %rd1, %rd1, %rd2;\nxor.b16 %bh1, %bh1, %bh2;\n'
     'not.b32 %r1, %r2;\ncnot.b32 %r1, %r2;', 'sm_90'),
    ('and_u32', 'and.u32 %ur1, %ur1, %ur2;', 'sm_90'),
    ('and_f32', 'and.f32 %f1, %f1, %f2;', 'sm_90'),
    ('fma', 'fma.rn.f32 %f1, %f1, %f2, %f3;\nfma.rn.ftz.sat.f32 %f1, %f1, %f2, %f3;\n'
     'fma.rn.f64 %fd1, %fd1, %fd2, %fd3;', 'sm_90'),
    ('fma_no_round', 'fma.f32 %f1, %f1, %f2, %f3;', 'sm_90'),
    ('fma_f16x2', 'fma.rn.f16x2 %fx1, %fx1, %fx2, %fx3;\nfma.rn.relu.bf16x2 %r1, %r1, '
     '%r2, %r3;', 'sm_90'),
    ('fma_f16_b16', 'fma.rn.f16 %bh1, %bh1, %bh2, %bh3;', 'sm_90'),
    ('fma_f16x2_b32', 'fma.rn.f16x2 %r1, %r1, %r2, %r3;', 'sm_90'),
    ('fma_oob', 'fma.rn.oob.relu.f16 %fh1, %fh1, %fh2, %fh3;', 'sm_90'),
    ('add_f16', 'add.f16 %fh1, %fh1, %fh2;\nadd.rn.bf16 %bh1, %bh1, %bh2;\n'
     'sub.f16x2 %fx1, %fx1, %fx2;', 'sm_90'),
    ('add_f32_modes', 'add.rn.ftz.sat.f32 %f1, %f1, %f2;\nadd.rz.f64 %fd1, %fd1, %fd2;\n'
     'mul.rm.f32 %f1, %f1, 2.5;', 'sm_90'),
    ('add_f32_imm_dec', 'add.f32 %f1, %f1, 1.5;', 'sm_90'),
    ('add_f32_imm_int', 'add.f32 %f1, %f1, 1;', 'sm_90'),
    ('add_u32_imm_float', 'add.u32 %ur1, %ur1, 1.5;', 'sm_90'),
    ('add_f64_hex', 'add.f64 %fd1, %fd1, 0d3FF0000000000000;', 'sm_90'),
    ('add_f32_dimm', 'add.f32 %f1, %f1, 0d3FF0000000000000;', 'sm_90'),
    ('add_f64_fimm', 'add.f64 %fd1, %fd1, 0f3F800000;', 'sm_90'),
    ('min_nan', 'min.NaN.f32 %f1, %f1, %f2;\nmax.ftz.NaN.f16x2 %fx1, %fx1, %fx2;', 'sm_90'),
    ('min_xorsign', 'min.xorsign.abs.f32 %f1, %f1, %f2;', 'sm_90'),
    ('div_variants', 'div.full.f32 %f1, %f1, %f2;\ndiv.approx.f32 %f1, %f1, %f2;\n'
     'div.rn.f64 %fd1, %fd1, %fd2;', 'sm_90'),
    ('div_f32_no_mode', 'div.f32 %f1, %f1, %f2;', 'sm_90'),
    ('rcp', 'rcp.rn.f32 %f1, %f2;\nrcp.approx.ftz.f64 %fd1, %fd2;\nrcp.approx.f32 %f1, %f2;',
     'sm_90'),
    ('rcp_approx_f64_noftz', 'rcp.approx.f64 %fd1, %fd2;', 'sm_90'),
    ('sqrt_rsqrt', 'sqrt.rn.f32 %f1, %f2;\nsqrt.approx.f32 %f1, %f2;\n'
     'rsqrt.approx.f64 %fd1, %fd2;\nrsqrt.approx.ftz.f64 %fd1, %fd2;', 'sm_90'),
    ('transcendental', 'sin.approx.f32 %f1, %f2;\ncos.approx.ftz.f32 %f1, %f2;\n'
     'lg2.approx.f32 %f1, %f2;\nex2.approx.ftz.f32 %f1, %f2;\ntanh.approx.f32 %f1, %f2;',
     'sm_90'),
    ('ex2_f16', 'ex2.approx.f16 %fh1, %fh2;\nex2.approx.ftz.bf16x2 %r1, %r2;', 'sm_90'),
    ('sin_no_approx', 'sin.f32 %f1, %f2;', 'sm_90'),
    ('abs_f16', 'abs.f16 %fh1, %fh2;\nneg.bf16x2 %r1, %r2;\nabs.ftz.f32 %f1, %f2;', 'sm_90'),
    ('copysign', 'copysign.f32 %f1, %f2, %f3;\ncopysign.f64 %fd1, %fd2, %fd3;', 'sm_90'),
    ('testp_more', 'testp.infinite.f32 %p1, %f1;\ntestp.notanumber.f64 %p1, %fd1;\n'
     'testp.subnormal.f32 %p1, %f1;\ntestp.number.f32 %p1, %f1;', 'sm_90'),
    ('slct', 'slct.f32.s32 %f1, %f2, %f3, %sr1;\nslct.u32.f32 %ur1, %ur2, %ur3, %f1;', 'sm_90'),
    ('set', 'set.lt.u32.f32 %ur1, %f1, %f2;\nset.eq.f32.s32 %f1, %sr1, %sr2;', 'sm_90'),
    ('setp_modes', 'setp.ne.ftz.f32 %p1, %f1, %f2;\nsetp.nan.f64 %p1, %fd1, %fd2;\n'
     'setp.ltu.f32 %p1, %f1, 0f00000000;\nsetp.hs.u32 %p1, %ur1, 4;', 'sm_90'),
    ('setp_lo_signed', 'setp.lo.s32 %p1, %sr1, 4;', 'sm_90'),
    ('setp_f16x2', 'setp.lt.f16x2 %p1|%p2, %fx1, %fx2;', 'sm_90'),
    ('setp_b32_eq', 'setp.eq.b32 %p1, %r1, %r2;', 'sm_90'),
    ('setp_b32_lt', 'setp.lt.b32 %p1, %r1, %r2;', 'sm_90'),
    ('cvta', 'cvta.to.global.u64 %rd1, %rd0;\ncvta.shared.u64 %rd1, smem;\n'
     'cvta.to.shared.u32 %ur1, %rd1;', 'sm_90'),
    ('cvta_const', 'cvta.const.u64 %rd1, %rd2;\ncvta.local.u64 %rd1, %rd2;', 'sm_90'),
    ('cvta_u16', 'cvta.global.u16 %uh1, %rd0;', 'sm_90'),
    ('activemask', 'activemask.b32 %r1;', 'sm_90'),
    ('redux', 'redux.sync.add.u32 %ur1, %ur2, -1;\nredux.sync.min.s32 %sr1, %sr2, -1;\n'
     'redux.sync.and.b32 %r1, %r2, -1;', 'sm_90'),
    ('redux_f32', 'redux.sync.max.abs.NaN.f32 %f1, %f2, -1;', 'sm_100a'),
    ('redux_f32_sm90', 'redux.sync.max.f32 %f1, %f2, -1;', 'sm_90'),
    ('shfl_modes', 'shfl.sync.up.b32 %r1, %r2, 1, 0, -1;\nshfl.sync.down.b32 %r1|%p1, %r2, 1, '
     '0x1f, -1;\nshfl.sync.bfly.b32 %r1, %r2, 16, 0x1f, %r0;', 'sm_90'),
    ('shfl_f32_reg', 'shfl.sync.idx.b32 %f1, %f2, 0, 0x1f, -1;', 'sm_90'),
    ('shfl_no_sync', 'shfl.idx.b32 %r1, %r2, 0, 0x1f;', 'sm_90'),
    ('shfl_no_sync_old', 'shfl.idx.b32 %r1, %r2, 0, 0x1f;', 'sm_75'),
    ('match', 'match.any.sync.b32 %r1, %r2, -1;\nmatch.any.sync.b64 %r1, %rd2, -1;', 'sm_90'),
    ('vote_old', 'vote.all.pred %p1, %p2;', 'sm_90'),
    ('nanosleep', 'nanosleep.u32 100;\nnanosleep.u32 %ur1;', 'sm_90'),
    ('mapa', 'mapa.shared::cluster.u32 %ur1, %ur2, 0;\nmapa.u64 %rd1, %rd2, %ur1;', 'sm_90'),
    ('getctarank', 'getctarank.shared::cluster.u32 %ur1, %ur2;\ngetctarank.u64 %ur1, %rd1;',
     'sm_90'),
    ('griddepcontrol', 'griddepcontrol.wait;\ngriddepcontrol.launch_dependents;', 'sm_90'),
    ('setmaxnreg', 'setmaxnreg.inc.sync.aligned.u32 64;', 'sm_90a'),
    ('setmaxnreg_sm90', 'setmaxnreg.inc.sync.aligned.u32 64;', 'sm_90'),
    ('elect', 'elect.sync %r1|%p1, %r2;', 'sm_90'),
    ('alloca', 'alloca.u64 %rd1, 64;\nalloca.u64 %rd1, %rd2, 16;', 'sm_90'),
    ('stacksave', 'stacksave.u64 %rd1;\nstackrestore.u64 %rd1;', 'sm_90'),
    ('misc_ctrl', 'trap;\nbrkpt;\npmevent 1;\npmevent.mask 0x3;', 'sm_90'),
    ('exit', 'exit;', 'sm_90'),
    ('istypep_txq', 'istypep.texref %p1, %rd1;', 'sm_90'),
    ('video_vadd', 'vadd.u32.u32.u32.sat %ur1, %ur1, %ur2;\n'
     'vadd.s32.s32.u32.add %sr1, %sr1, %ur2, %sr3;', 'sm_90'),
    ('video_vabsdiff4', 'vabsdiff4.u32.u32.u32.add %ur1, %ur1, %ur2, %ur3;', 'sm_90'),
    ('video_vmad', 'vmad.s32.s32.s32 %sr1, %sr1, %sr2, %sr3;', 'sm_90'),
    ('video_vset', 'vset.u32.u32.lt %ur1, %ur1, %ur2;', 'sm_90'),
    ('video_sel', 'vadd.u32.u32.u32 %ur1, %ur1.b0, %ur2.h1;', 'sm_90'),
    ('video_sel_all', 'vadd.s32.u32.s32.sat %sr1, %ur1.b3, %sr2.h0;\n'
     'vmax.u32.u32.u32.max %ur1, %ur1.b1, %ur2.b2, %ur3;', 'sm_90'),
    ('video_sel_dest', 'vadd.u32.u32.u32 %ur1.h0, %ur1, %ur2;', 'sm_90'),
    ('video_sel_b4', 'vadd.u32.u32.u32 %ur1, %ur1.b4, %ur2;', 'sm_90'),
    ('video_sel_on_add', 'add.u32 %ur1, %ur2.b0, 1;', 'sm_90'),
    ('video_sel_simd', 'vadd2.u32.u32.u32 %ur1, %ur1.h1, %ur2, %ur3;', 'sm_90'),
    ('expr_cond_chain', 'mov.u32 %ur1, 0 ? 1 : 0 ? 5 : 7;', 'sm_90'),
    ('expr_cond_paren_cond', 'mov.u32 %ur1, (2 - 2) ? 4 : 9;', 'sm_90'),
    ('expr_cond_missing_colon', 'mov.u32 %ur1, 1 ? 4;', 'sm_90'),
    ('expr_cond_float', 'mov.f32 %f1, 1 ? 0f3F800000 : 0f00000000;', 'sm_90'),
    # special registers and moves
    ('sreg_basic', 'mov.u32 %ur1, %tid.x;\nmov.u32 %ur1, %ntid.y;\nmov.u32 %ur1, %laneid;\n'
     'mov.u32 %ur1, %warpid;\nmov.u32 %ur1, %ctaid.z;\nmov.u32 %ur1, %nctaid.x;', 'sm_90'),
    ('sreg_clock', 'mov.u64 %rd1, %clock64;\nmov.u32 %ur1, %clock;\n'
     'mov.u64 %rd1, %globaltimer;\nmov.u32 %ur1, %smid;', 'sm_90'),
    ('sreg_lanemask', 'mov.u32 %ur1, %lanemask_lt;\nmov.u32 %ur1, %lanemask_ge;', 'sm_90'),
    ('sreg_env', 'mov.u32 %ur1, %envreg3;\nmov.u32 %ur1, %dynamic_smem_size;\n'
     'mov.u32 %ur1, %total_smem_size;', 'sm_90'),
    ('sreg_cluster', 'mov.u32 %ur1, %clusterid.x;\nmov.u32 %ur1, %cluster_ctarank;\n'
     'mov.pred %p1, %is_explicit_cluster;', 'sm_90'),
    ('sreg_tid_u16', 'mov.u16 %uh1, %tid.x;', 'sm_90'),
    ('sreg_tid_u64', 'mov.u64 %rd1, %tid.x;', 'sm_90'),
    ('sreg_cvt_tid', 'cvt.u64.u32 %rd1, %tid.x;', 'sm_90'),
    ('sreg_no_comp', 'mov.u32 %ur1, %tid;', 'sm_90'),
    ('sreg_write', 'mov.u32 %laneid, %ur1;', 'sm_90'),
    ('sreg_gridid', 'mov.u64 %rd1, %gridid;', 'sm_90'),
    ('sreg_pm', 'mov.u32 %ur1, %pm0;\nmov.u64 %rd1, %pm0_64;', 'sm_90'),
    ('mov_sym', 'mov.u64 %rd1, smem;\nmov.b64 %rd1, k;', 'sm_90'),
    ('mov_sym_u32', 'mov.u32 %ur1, smem;', 'sm_90'),
    ('mov_imm_forms', 'mov.b32 %r1, 0f3F800000;\nmov.f64 %fd1, 0d3FF0000000000000;\n'
     'mov.u32 %ur1, 0x7fffffff;\nmov.s32 %sr1, -1;\nmov.u32 %ur1, 017;\nmov.u32 %ur1, 0b101;',
     'sm_90'),
    ('mov_f32_decimal', 'mov.f32 %f1, 1.5;', 'sm_90'),
    ('mov_f32_exp', 'mov.f32 %f1, 1e-3;', 'sm_90'),
    ('mov_u16_big', 'mov.u16 %uh1, 70000;', 'sm_90'),
    ('mov_u32_big', 'mov.u32 %ur1, 0x1ffffffff;', 'sm_90'),
    ('mov_u32_u_suffix', 'mov.u32 %ur1, 5U;', 'sm_90'),
    ('mov_f16_hex', 'mov.b16 %fh1, 0x3c00;', 'sm_90'),
    ('mov_f16_fimm', 'mov.f16 %fh1, 0f3F800000;', 'sm_90'),
    ('mov_expr', 'mov.u32 %ur1, (1 << 4) | 3;\nmov.s32 %sr1, -(8 / 2);\n'
     'mov.u32 %ur1, ~0 & 0xff;', 'sm_90'),
    ('mov_expr_cond', 'mov.u32 %ur1, 3 > 2 ? 1 : 0;', 'sm_90'),
    ('mov_warpsz', 'mov.u32 %ur1, WARP_SZ;', 'sm_90'),
    ('mov_b128', 'mov.b128 %q1, {%rd1, %rd2};\nmov.b128 {%rd1, %rd2}, %q1;', 'sm_90'),
    ('undefined_reg', 'mov.u32 %ur1, %nope;', 'sm_90'),
    ('unknown_insn', 'frobnicate.u32 %ur1, %ur2;', 'sm_90'),
    ('unknown_modifier', 'add.wibble.u32 %ur1, %ur2, 1;', 'sm_90'),
    ('missing_type', 'add %ur1, %ur2, 1;', 'sm_90'),
    ('too_many_operands', 'add.u32 %ur1, %ur2, 1, 2;', 'sm_90'),
    ('too_few_operands', 'add.u32 %ur1, %ur2;', 'sm_90'),
    ('dest_immediate', 'add.u32 1, %ur2, 1;', 'sm_90'),
    ('missing_semicolon', 'add.u32 %ur1, %ur2, 1\nadd.u32 %ur1, %ur2, 1;', 'sm_90'),
    ('two_rounding', 'add.rn.rz.f32 %f1, %f1, %f2;', 'sm_90'),
    ('round_on_int', 'add.rn.u32 %ur1, %ur1, 1;', 'sm_90'),
]

HDR = '.version 8.5\n.target sm_90\n.address_size 64\n\n'
K = '.visible .entry k(.param .u64 p)\n{\n%s\n\tret;\n}\n'
DECLS = [
    ('decl_global_vec', '.global .v4 .f32 gv;\n', '.reg .v4 .f32 %v;\nld.global.v4.f32 %v, [gv];'),
    ('decl_global_vec_init', '.global .v2 .u32 gv = {1, 2};\n', ''),
    ('decl_global_vec_array', '.global .v2 .f32 gv[4] = {{1.0, 2.0}, {3.0, 4.0}};\n', ''),
    ('decl_const_init', '.const .align 8 .b8 c[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n', ''),
    ('decl_array_2d', '.global .u32 arr[2][3] = {{1, 2, 3}, {4, 5, 6}};\n', ''),
    ('decl_f32_init', '.global .f32 x = 1.0;\n.global .f64 y = 0d3FF0000000000000;\n', ''),
    ('decl_f32_hex_init', '.global .f32 x = 0f3F800000;\n', ''),
    ('decl_ptr_init', '.global .align 8 .b8 g[16];\n.global .u64 q = g;\n'
     '.global .u64 r = generic(g)+4;\n', ''),
    ('decl_extern_shared', '.extern .shared .align 16 .b8 dyn[];\n',
     '.reg .u32 %a;\nld.shared.u32 %a, [dyn];'),
    ('decl_weak_common', '.weak .global .u32 w;\n.common .global .u32 cmn;\n', ''),
    ('decl_visible_global', '.visible .global .align 4 .u32 vg;\n', ''),
    ('decl_local_vec', '', '.local .v2 .f32 lv[4];\n.reg .v2 .f32 %v;\nld.local.v2.f32 %v, [lv];'),
    ('decl_reg_v8', '', '.reg .v8 .u32 %v;'),
    ('decl_reg_v2_pred', '', '.reg .v2 .pred %v;'),
    ('decl_reg_v4_b64', '', '.reg .v4 .b64 %v;'),
    ('decl_reg_v4_f64', '', '.reg .v4 .f64 %v;'),
    ('decl_reg_v3', '', '.reg .v3 .u32 %v;'),
    ('decl_reg_u8', '', '.reg .u8 %c;\n.reg .b8 %d;\n.reg .s8 %e;'),
    ('decl_reg_u8_use', '', '.reg .u8 %c;\nld.global.u8 %c, [p];'),
    ('decl_reg_bf16', '', '.reg .bf16 %h;'),
    ('decl_reg_bf16x2', '', '.reg .bf16x2 %h;'),
    ('decl_reg_tf32', '', '.reg .tf32 %h;'),
    ('decl_reg_e4m3', '', '.reg .e4m3 %h;'),
    ('decl_reg_array', '', '.reg .u32 %a[4];'),
    ('decl_reg_range_use', '', '.reg .u32 %a<4>;\nmov.u32 %a3, 1;'),
    ('decl_reg_range_out', '', '.reg .u32 %a<4>;\nmov.u32 %a4, 1;'),
    ('decl_reg_dup', '', '.reg .u32 %a;\n.reg .u32 %a;'),
    ('decl_reg_list', '', '.reg .u32 %a, %b, %c;\nadd.u32 %a, %b, %c;'),
    ('decl_shared_align', '', '.shared .align 128 .b8 s[256];'),
    ('decl_bad_align', '', '.shared .align 3 .b8 s[256];'),
    ('decl_tex', '.global .texref t;\n.global .samplerref sm;\n.global .surfref sf;\n', ''),
    ('decl_texref_use', '.global .texref t;\n', '.reg .f32 %a<4>;\n.reg .s32 %c;\n'
     'tex.1d.v4.f32.s32 {%a0, %a1, %a2, %a3}, [t, {%c}];'),
    ('decl_txq', '.global .texref t;\n', '.reg .b32 %w;\ntxq.width.b32 %w, [t];'),
    ('decl_suld', '.global .surfref s;\n', '.reg .b32 %w;\n.reg .s32 %x;\n'
     'suld.b.1d.b32.trap {%w}, [s, {%x}];'),
    ('decl_sust', '.global .surfref s;\n', '.reg .b32 %w;\n.reg .s32 %x;\n'
     'sust.b.1d.b32.trap [s, {%x}], {%w};'),
    ('decl_param_vec_entry', '', ''),
    ('decl_managed', '.global .attribute(.managed) .align 4 .u32 mg;\n', ''),
    ('decl_local_in_body', '', '.local .align 8 .b8 buf[64];\n.reg .u64 %a;\n'
     'mov.u64 %a, buf;'),
    ('decl_nested_scope', '', '{\n.reg .u32 %a;\nmov.u32 %a, 1;\n}\n{\n.reg .f32 %a;\n'
     'mov.f32 %a, 0f00000000;\n}'),
    ('decl_shadow_use_outer', '', '.reg .u32 %a;\n{\n.reg .u32 %b;\n}\nmov.u32 %b, 1;'),
    ('decl_label_branch', '', '.reg .pred %q;\nsetp.eq.u32 %q, 1, 1;\n@%q bra L1;\n'
     'bra.uni L1;\nL1:'),
    ('decl_label_undefined', '', 'bra L9;'),
    ('decl_label_dup', '', 'L1:\nL1:'),
    ('decl_brx', '', '.reg .u32 %i;\nmov.u32 %i, 0;\nts: .branchtargets L0, L1;\n'
     'brx.idx %i, ts;\nL0:\nL1:'),
    ('decl_pragma', '', '.pragma "nounroll";'),
    ('decl_loc', '', '.loc 1 2 3\n.reg .u32 %a;'),
]
for name, top, body in DECLS:
    raw(name, HDR + top + K % body)

FUNCS = [
    ('func_reg_params', '.func (.reg .u32 r) f(.reg .u32 a)\n{\n\tadd.u32 r, a, 1;\n\tret;\n}\n'),
    ('func_param_vec', '.func f(.param .v2 .u32 a)\n{\n\t.reg .v2 .u32 %v;\n'
     '\tld.param.v2.u32 %v, [a];\n\tret;\n}\n'),
    ('func_param_vec4_f32', '.func (.param .v4 .f32 r) f()\n{\n\t.reg .v4 .f32 %v;\n'
     '\tmov.v4.f32 %v, {0f00000000, 0f00000000, 0f00000000, 0f00000000};\n'
     '\tst.param.v4.f32 [r], %v;\n\tret;\n}\n'),
    ('func_call', '.func (.param .b32 r) f(.param .b32 a)\n{\n\t.reg .b32 %x;\n'
     '\tld.param.b32 %x, [a];\n\tst.param.b32 [r], %x;\n\tret;\n}\n'
     '.visible .entry k()\n{\n\t.reg .b32 %y;\n\t.param .b32 pa;\n\t.param .b32 pr;\n'
     '\tst.param.b32 [pa], 1;\n\tcall (pr), f, (pa);\n\tld.param.b32 %y, [pr];\n\tret;\n}\n'),
    ('func_call_block', '.func (.param .b32 r) f(.param .b32 a)\n{\n\tret;\n}\n'
     '.visible .entry k()\n{\n\t{\n\t.param .b32 pa;\n\t.param .b32 pr;\n'
     '\tst.param.b32 [pa], 1;\n\tcall.uni (pr), f, (pa);\n\t}\n\tret;\n}\n'),
    ('func_call_wrong_count', '.func f(.param .b32 a)\n{\n\tret;\n}\n'
     '.visible .entry k()\n{\n\tcall f, ();\n\tret;\n}\n'),
    ('func_call_indirect', '.func f(.param .b32 a)\n{\n\tret;\n}\n'
     '.visible .entry k()\n{\n\t.reg .u64 %fp;\n\t.param .b32 pa;\n'
     '\tproto: .callprototype _ (.param .b32 _);\n\tmov.u64 %fp, f;\n'
     '\tst.param.b32 [pa], 0;\n\tcall %fp, (pa), proto;\n\tret;\n}\n'),
    ('func_call_reg_args', '.func (.reg .u32 r) f(.reg .u32 a)\n{\n\tmov.u32 r, a;\n\tret;\n}\n'
     '.visible .entry k()\n{\n\t.reg .u32 %x;\n\tcall (%x), f, (%x);\n\tret;\n}\n'),
    ('func_call_imm_arg', '.func f(.param .b32 a)\n{\n\tret;\n}\n'
     '.visible .entry k()\n{\n\tcall f, (1);\n\tret;\n}\n'),
    ('func_decl_then_def', '.func f(.param .b32 a);\n.func f(.param .b32 a)\n{\n\tret;\n}\n'),
    ('func_extern', '.extern .func f(.param .b32 a);\n'),
    ('func_noreturn', '.func f() .noreturn\n{\n\ttrap;\n}\n'),
    ('func_entry_perf', '.visible .entry k() .maxntid 256, 1, 1 .minnctapersm 2\n{\n\tret;\n}\n'),
    ('func_entry_reqntid', '.visible .entry k() .reqntid 128 .maxnreg 64\n{\n\tret;\n}\n'),
    ('func_entry_cluster', '.visible .entry k() .reqnctapercluster 2, 1, 1\n{\n\tret;\n}\n'),
    ('func_entry_explicitcluster', '.visible .entry k() .explicitcluster\n{\n\tret;\n}\n'),
    ('func_entry_ptr_param', '.visible .entry k(.param .u64 .ptr .global .align 16 p)\n{\n'
     '\tret;\n}\n'),
    ('func_entry_array_param', '.visible .entry k(.param .align 8 .b8 s[24])\n{\n'
     '\t.reg .u64 %a;\n\tld.param.u64 %a, [s+8];\n\tret;\n}\n'),
    ('func_entry_param_b128', '.visible .entry k(.param .b128 q)\n{\n\tret;\n}\n'),
    ('func_alias', '.func f()\n{\n\tret;\n}\n.func g();\n.alias g, f;\n'),
    ('func_recursive', '.func f(.param .b32 a)\n{\n\t.param .b32 b;\n\tst.param.b32 [b], 0;\n'
     '\tcall f, (b);\n\tret;\n}\n'),
    ('func_entry_call_entry', '.visible .entry g()\n{\n\tret;\n}\n'
     '.visible .entry k()\n{\n\tcall g;\n\tret;\n}\n'),
    ('func_entry_param_vec', '.visible .entry k(.param .v2 .u32 a)\n{\n\tret;\n}\n'),
    ('func_param_vec_reg', '.func f(.reg .v2 .u32 a)\n{\n\tret;\n}\n'),
    ('func_param_b32_array', '.func f(.param .align 4 .b8 a[8])\n{\n\tret;\n}\n'),
    ('func_ret_value', '.func (.reg .u32 r) f()\n{\n\tmov.u32 r, 1;\n\tret;\n}\n'),
]
for name, text in FUNCS:
    raw(name, HDR + text)

MODULE = [
    ('module_version_old', '.version 6.0\n.target sm_75\n.address_size 64\n\n' +
     K % '.reg .u32 %a;\nmov.u32 %a, 1;'),
    ('module_version_90', '.version 9.0\n.target sm_90\n.address_size 64\n\n' + K % ''),
    ('module_no_address_size', '.version 8.5\n.target sm_90\n\n' + K % ''),
    ('module_target_list', '.version 8.5\n.target sm_90, texmode_independent\n'
     '.address_size 64\n\n' + K % ''),
    ('module_sm90a', '.version 8.5\n.target sm_90a\n.address_size 64\n\n' + K % ''),
    ('module_no_target', '.version 8.5\n.address_size 64\n\n' + K % ''),
    ('module_file_loc', HDR + '.file 1 "a.cu"\n.file 2 "b.h", 1700000000, 1234\n' +
     K % '.loc 1 2 3\n.loc 2 4 1'),
    ('module_comments', HDR + '/* block\ncomment */ // line comment\n' + K % '// nothing'),
    ('module_section', HDR + K % '' + '.section .debug_str\n{\n\t.b8 65, 0\n}\n'),
    ('module_two_kernels', HDR + K % '' + K.replace(' k(', ' k2('), ),
    ('module_dup_kernel', HDR + K % '' + K % ''),
    ('module_version_newer_feature', '.version 7.0\n.target sm_80\n.address_size 64\n\n' +
     K % '.reg .b32 %a;\n.reg .f32 %b;\ncvt.rna.tf32.f32 %a, %b;'),
    ('module_version_too_new', '.version 9.9\n.target sm_90\n.address_size 64\n\n' + K % ''),
]
for m in MODULE:
    raw(m[0], m[1])

for name, body, sm in GRAMMAR:
    case(name, body, sm)

import gen_nearmiss  # noqa: E402  (near-miss mutations of one accepted form per family)
gen_nearmiss.add_cases(case)
case('ldmatrix_m16n16_b8', 'ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r0, %r1}, [%rd1];',
     'sm_100a', '8.6')
case('ldmatrix_shared_cta_sm80',
     'ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 {%r0, %r1}, [%rd1];', 'sm_80',
     '8.3')

# sub has no packed 16-bit integer form (add/min/max do)
case('sub_s16x2', 'sub.s16x2 %r1, %r2, %r3;', 'sm_90')
case('sub_u16x2', 'sub.u16x2 %r1, %r2, %r3;', 'sm_90')
# st.param to an input parameter, also through an inner block's .param of the same name
# (ptxas resolves [p] to the kernel parameter there)
case('param_store_kernel_input', 'st.param.u64 [p], %rd1;', 'sm_90')
case('param_store_shadowed_input', '{\n.param .b64 p;\nst.param.b64 [p], %rd1;\n}', 'sm_90')
case('param_block_other_name', '{\n.param .b64 q;\nst.param.b64 [q], %rd1;\n}', 'sm_90')
raw('param_store_func_input', '.version 8.5\n.target sm_90\n.address_size 64\n\n'
    '.visible .func (.param .b64 r) f(.param .u64 a)\n{\n\t.reg .b64 %rd<4>;\n'
    '\tld.param.u64 %rd1, [a];\n\tst.param.b64 [a], 7;\n\tst.param.b64 [r], %rd1;\n\tret;\n}\n')
raw('param_store_func_return', '.version 8.5\n.target sm_90\n.address_size 64\n\n'
    '.visible .func (.param .b64 r) f(.param .u64 a)\n{\n\t.reg .b64 %rd<4>;\n'
    '\tld.param.u64 %rd1, [a];\n\tst.param.b64 [r], %rd1;\n\tret;\n}\n')
# mbarrier.arrive{_drop}.noComplete (needs the count) and fence.mbarrier_init
for nm, body, sm in (
        ('mbar_nocomplete', 'mbarrier.arrive.noComplete.shared.b64 %rd1, [smem], 1;', 'sm_80'),
        ('mbar_nocomplete_cta', 'mbarrier.arrive.noComplete.shared::cta.b64 %rd1, [smem], 2;',
         'sm_90'),
        ('mbar_nocomplete_release',
         'mbarrier.arrive.noComplete.release.cta.shared::cta.b64 %rd1, [smem], 2;', 'sm_90'),
        ('mbar_drop_nocomplete', 'mbarrier.arrive_drop.noComplete.shared.b64 %rd1, [smem], 1;',
         'sm_80'),
        ('mbar_nocomplete_no_count', 'mbarrier.arrive.noComplete.shared.b64 %rd1, [smem];',
         'sm_80'),
        ('mbar_nocomplete_expect_tx',
         'mbarrier.arrive.expect_tx.noComplete.shared.b64 %rd1, [smem], 16;', 'sm_90'),
        ('fence_mbarrier_init', 'fence.mbarrier_init.release.cluster;', 'sm_90'),
        ('fence_mbarrier_init_bare', 'fence.mbarrier_init;', 'sm_90'),
        ('fence_mbarrier_init_cta', 'fence.mbarrier_init.release.cta;', 'sm_90'),
        ('fence_mbarrier_init_acquire', 'fence.mbarrier_init.acquire.cluster;', 'sm_90'),
        ('fence_mbarrier_init_sm80', 'fence.mbarrier_init.release.cluster;', 'sm_80')):
    case(nm, body, sm, '8.3' if sm == 'sm_80' else '8.5')


def ptxas_verdict(ptxas, name, text):
    path = os.path.join(OUT, name + '.ptx')
    if os.path.exists(path):  # unchanged case: keep the recorded verdict
        with open(path) as f:
            old = f.read()
        body = re.sub(r'^(// ptxas.*\n)+', '', old)
        if body == text:
            return name, old.startswith('// ptxas: ok')
    with open(path, 'w') as f:
        f.write(text)
    m = re.search(r'^\.target (sm_\w+)', text, re.M)
    arch = m.group(1) if m else 'sm_90'
    p = subprocess.run([ptxas, '-arch', arch, path, '-o', os.devnull], capture_output=True,
                       timeout=120)
    msgs = [l for l in p.stderr.decode('utf-8', 'replace').splitlines()
            if re.search(r'error|fatal|warning', l) and 'aborted due to' not in l]
    first = re.sub(r'^ptxas [^,]*, ', '', msgs[0]).strip() if msgs else ''
    head = '// ptxas: %s\n' % ('ok' if p.returncode == 0 else 'error')
    if first and p.returncode != 0:
        head += '// ptxas says: %s\n' % first[:160]
    with open(path, 'w') as f:
        f.write(head + text)
    return name, p.returncode == 0


def main():
    ptxas = sys.argv[1] if len(sys.argv) > 1 else '/usr/local/cuda/bin/ptxas'
    os.makedirs(OUT, exist_ok=True)
    names = [n for n, _ in CASES]
    dups = {n for n in names if names.count(n) > 1}
    if dups:
        sys.exit('duplicate case names: %s' % ', '.join(sorted(dups)))
    for f in os.listdir(OUT):
        if f.endswith('.ptx') and f[:-4] not in names:
            os.remove(os.path.join(OUT, f))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        res = list(pool.map(lambda c: ptxas_verdict(ptxas, *c), CASES))
    print('%d cases: %d accepted by ptxas, %d rejected' %
          (len(res), sum(ok for _, ok in res), sum(not ok for _, ok in res)))


if __name__ == '__main__':
    main()
