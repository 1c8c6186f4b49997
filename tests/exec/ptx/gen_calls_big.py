#!/usr/bin/env python3
"""Writes calls_big.ptx: big device functions called from several sites, so that ptxas-amd's
size policy (src/ir/call_policy.c) compiles them as real calls.  Straight-line rounds make the
bodies big; the constants of the rounds are ROUNDS below, which tests/exec/cases/cases_calls_big.py
imports to compute the references from the PTX ISA's definitions of the instructions.

  mixer(x, y) -> u32     a .local table of 16 words filled in a loop, then ROUNDS rounds of
                         t = tab[(h >> s1) & 15]; h = h * K + t; h ^= h >> s2
  combine(struct {u32 a; u32 b; u64 c}) -> struct {u32 m1; u32 m2; u64 d}
                         m1 = mixer(a, b), m2 = mixer(b, lo(c)) (nested calls), d = c + m1
  kernel calls_big(out, in, n): per thread x = in[2i], y = in[2i+1];
    r1 = mixer(x, y); r2 = x % 3 == 0 ? mixer(y, x ^ 0x1234) : 7   (divergent call)
    (m1, m2, d) = combine({x, y, r1 << 32 | r2})
    if i odd: (p1, p2, e) = combine({y, r1, x}) else p1 = p2 = e = 0   (divergent call)
    out[8i ..] = r1, r2, m1, m2, d (2 words), p1 ^ p2, lo(e)

usage: gen_calls_big.py > calls_big.ptx
"""

ROUNDS = [(k % 5, 3 + k % 11, (0x9E3779B1 + 0x7F4A7C15 * k) & 0xffffffff | 1) for k in range(125)]


def mixer():
    out = ['.func (.param .b32 mx_ret) mixer(.param .b32 mx_x, .param .b32 mx_y)', '{',
           '\t.local .align 4 .b32 tab[16];',
           '\t.reg .b32 %r<12>;', '\t.reg .b64 %rd<6>;', '\t.reg .pred %p<2>;',
           '\tld.param.u32 %r1, [mx_x];', '\tld.param.u32 %r2, [mx_y];',
           '\tmov.u64 %rd1, tab;', '\tmov.u32 %r3, 0;',
           'MX_FILL:',
           '\tadd.s32 %r4, %r3, 1;', '\tmul.lo.s32 %r5, %r2, %r4;', '\txor.b32 %r5, %r5, %r1;',
           '\tmul.wide.u32 %rd2, %r3, 4;', '\tadd.s64 %rd3, %rd1, %rd2;',
           '\tst.local.u32 [%rd3], %r5;', '\tmov.u32 %r3, %r4;',
           '\tsetp.lt.u32 %p1, %r3, 16;', '\t@%p1 bra MX_FILL;',
           '\tmov.u32 %r6, %r1;']
    for s1, s2, k in ROUNDS:
        out += ['\tshr.u32 %%r7, %%r6, %d;' % s1, '\tand.b32 %r7, %r7, 15;',
                '\tmul.wide.u32 %rd4, %r7, 4;', '\tadd.s64 %rd5, %rd1, %rd4;',
                '\tld.local.u32 %r8, [%rd5];', '\tmad.lo.s32 %%r6, %%r6, %d, %%r8;' % k,
                '\tshr.u32 %%r9, %%r6, %d;' % s2, '\txor.b32 %r6, %r6, %r9;']
    out += ['\tst.param.b32 [mx_ret], %r6;', '\tret;', '}']
    return out


def call_mixer(a, b, dst, tag):
    return ['\t{', '\t.param .b32 %s_p0;' % tag, '\t.param .b32 %s_p1;' % tag,
            '\t.param .b32 %s_r;' % tag,
            '\tst.param.b32 [%s_p0], %s;' % (tag, a), '\tst.param.b32 [%s_p1], %s;' % (tag, b),
            '\tcall (%s_r), mixer, (%s_p0, %s_p1);' % (tag, tag, tag),
            '\tld.param.b32 %s, [%s_r];' % (dst, tag), '\t}']


def combine():
    out = ['.func (.param .align 8 .b8 cb_ret[16]) combine(.param .align 8 .b8 cb_s[16])', '{',
           '\t.reg .b32 %r<8>;', '\t.reg .b64 %rd<4>;',
           '\tld.param.u32 %r1, [cb_s+0];', '\tld.param.u32 %r2, [cb_s+4];',
           '\tld.param.u64 %rd1, [cb_s+8];', '\tcvt.u32.u64 %r3, %rd1;']
    out += call_mixer('%r1', '%r2', '%r4', 'c0')
    out += call_mixer('%r2', '%r3', '%r5', 'c1')
    out += ['\tcvt.u64.u32 %rd2, %r4;', '\tadd.s64 %rd3, %rd1, %rd2;',
            '\tst.param.b32 [cb_ret+0], %r4;', '\tst.param.b32 [cb_ret+4], %r5;',
            '\tst.param.b64 [cb_ret+8], %rd3;', '\tret;', '}']
    return out


def call_combine(a, b, c64, d1, d2, d3, tag):
    return ['\t{', '\t.param .align 8 .b8 %s_s[16];' % tag,
            '\t.param .align 8 .b8 %s_r[16];' % tag,
            '\tst.param.b32 [%s_s+0], %s;' % (tag, a), '\tst.param.b32 [%s_s+4], %s;' % (tag, b),
            '\tst.param.b64 [%s_s+8], %s;' % (tag, c64),
            '\tcall (%s_r), combine, (%s_s);' % (tag, tag),
            '\tld.param.b32 %s, [%s_r+0];' % (d1, tag), '\tld.param.b32 %s, [%s_r+4];' % (d2, tag),
            '\tld.param.b64 %s, [%s_r+8];' % (d3, tag), '\t}']


def kernel():
    out = ['.visible .entry calls_big(.param .u64 out_p, .param .u64 in_p, .param .u32 n_p)',
           '{', '\t.reg .b32 %r<20>;', '\t.reg .b64 %rd<16>;', '\t.reg .pred %p<4>;',
           '\tld.param.u64 %rd1, [out_p];', '\tld.param.u64 %rd2, [in_p];',
           '\tld.param.u32 %r1, [n_p];',
           '\tmov.u32 %r2, %ctaid.x;', '\tmov.u32 %r3, %ntid.x;', '\tmov.u32 %r4, %tid.x;',
           '\tmad.lo.s32 %r5, %r2, %r3, %r4;',
           '\tsetp.ge.u32 %p1, %r5, %r1;', '\t@%p1 bra DONE;',
           '\tmul.wide.u32 %rd3, %r5, 8;', '\tadd.s64 %rd4, %rd2, %rd3;',
           '\tld.global.u32 %r6, [%rd4];', '\tld.global.u32 %r7, [%rd4+4];']
    out += call_mixer('%r6', '%r7', '%r8', 'k0')
    out += ['\tmov.u32 %r9, 7;', '\trem.u32 %r10, %r6, 3;', '\tsetp.ne.u32 %p2, %r10, 0;',
            '\t@%p2 bra SKIP1;', '\txor.b32 %r11, %r6, 0x1234;']
    out += call_mixer('%r7', '%r11', '%r9', 'k1')
    out += ['SKIP1:', '\tcvt.u64.u32 %rd5, %r8;', '\tshl.b64 %rd5, %rd5, 32;',
            '\tcvt.u64.u32 %rd6, %r9;', '\tor.b64 %rd5, %rd5, %rd6;']
    out += call_combine('%r6', '%r7', '%rd5', '%r12', '%r13', '%rd7', 'k2')
    out += ['\tmov.u32 %r14, 0;', '\tmov.u32 %r15, 0;', '\tmov.u64 %rd8, 0;',
            '\tand.b32 %r16, %r5, 1;', '\tsetp.eq.u32 %p3, %r16, 0;', '\t@%p3 bra SKIP2;',
            '\tcvt.u64.u32 %rd9, %r6;']
    out += call_combine('%r7', '%r8', '%rd9', '%r14', '%r15', '%rd8', 'k3')
    out += ['SKIP2:', '\tmul.wide.u32 %rd10, %r5, 32;', '\tadd.s64 %rd11, %rd1, %rd10;',
            '\tst.global.u32 [%rd11], %r8;', '\tst.global.u32 [%rd11+4], %r9;',
            '\tst.global.u32 [%rd11+8], %r12;', '\tst.global.u32 [%rd11+12], %r13;',
            '\tst.global.u64 [%rd11+16], %rd7;', '\txor.b32 %r17, %r14, %r15;',
            '\tst.global.u32 [%rd11+24], %r17;', '\tcvt.u32.u64 %r18, %rd8;',
            '\tst.global.u32 [%rd11+28], %r18;',
            'DONE:', '\tret;', '}']
    return out


def main():
    lines = ['// Generated by tests/exec/ptx/gen_calls_big.py (big functions called from several',
             '// sites: real calls under the default size policy).  Reference:',
             '// tests/exec/cases/cases_calls_big.py.',
             '.version 7.0', '.target sm_70', '.address_size 64', '']
    lines += mixer() + [''] + combine() + [''] + kernel()
    print('\n'.join(lines))


if __name__ == '__main__':
    main()
