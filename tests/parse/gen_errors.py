#!/usr/bin/env python3
"""Writes tests/parse/errors/*.ptx (run by hand after editing the cases; the test only
reads the .ptx files).  Each case is PTX text plus the diagnostics the PTX rules demand,
each located by pointing at a substring of a source line (column = its offset + 1);
they are appended as `// expect:` comments after the code.
Usage: gen_errors.py OUT_DIR"""
import os
import sys
H = '.version 8.0\n.target sm_80\n.address_size 64\n'
K = '.visible .entry k(.param .u64 p)\n{\n'
cases = []
def case(name, text, *exp, header=True, dump=False):
    cases.append((name, (H if header else '') + text, exp, dump))

# each expectation: (line_substring_to_find, occurrence_substring, level, message)
#   the line is the first line containing line_substring; col = index of occurrence_substring in it
case('lex_invalid_char', K + '    .reg .b32 %r<3>;\n    add.s32 %r1, %r2, #3;\n    ret;\n}\n',
     ('#3', '#', 'error', "invalid character '#'"))
case('lex_binary_byte', K + '    ret;\x01\n}\n',
     ('ret;\x01', '\x01', 'error', 'invalid byte 0x01 in input'))
case('lex_unterminated_comment', K + '    ret;\n}\n/* no end\n',
     ('/* no end', '/*', 'error', 'unterminated /* comment'))
case('lex_unterminated_string', '.pragma "nounroll;\n',
     ('.pragma', '"', 'error', 'unterminated string literal'))
case('num_too_large', K + '    .reg .b64 %rd<2>;\n    mov.u64 %rd1, 18446744073709551616;\n    ret;\n}\n',
     ('18446744073709551616', '18446744073709551616', 'error', 'integer literal does not fit in 64 bits'))
case('num_bad_hexfloat', K + '    .reg .f32 %f<2>;\n    mov.f32 %f1, 0f3F80000;\n    ret;\n}\n',
     ('0f3F80000', '0f3F80000', 'error', '0f literal needs exactly 8 hexadecimal digits'))
case('num_bad_octal', K + '    .reg .b32 %r<2>;\n    mov.u32 %r1, 089;\n    ret;\n}\n',
     ('089', '089', 'error', 'invalid digit in octal literal'))
case('num_bad_binary', K + '    .reg .b32 %r<2>;\n    mov.u32 %r1, 0b1021;\n    ret;\n}\n',
     ('0b1021', '0b1021', 'error', 'invalid digit in binary literal'))
case('num_bad_double_hex', K + '    .reg .f64 %fd<2>;\n    mov.f64 %fd1, 0d3FF000000000000;\n    ret;\n}\n',
     ('0d3FF', '0d3FF', 'error', '0d literal needs exactly 16 hexadecimal digits'))
case('missing_version', '.target sm_80\n.address_size 64\n',
     ('.target', '.target', 'error', 'missing .version directive at the start of the module'), header=False)
cases.append(('unknown_target', '.version 8.0\n.target sm_80, fancy_mode\n.address_size 64\n',
     (('fancy_mode', 'fancy_mode', 'error', "unknown target 'fancy_mode'"),), False))
cases.append(('bad_address_size', '.version 8.0\n.target sm_80\n.address_size 48\n',
     (('.address_size 48', '.address_size', 'error', '.address_size must be 32 or 64'),), False))
case('syntax_missing_semicolon', K + '    .reg .b32 %r<3>;\n    add.s32 %r1, %r2, %r2\n    ret;\n}\n',
     ('    ret;', 'ret', 'error', "expected ',' or ';' after operand, found 'ret'"))
case('syntax_missing_operand', K + '    .reg .b32 %r<3>;\n    add.s32 %r1, , %r2;\n    ret;\n}\n',
     (', , %r2', ', %r2', 'error', "expected an operand, found ','"))
case('syntax_bad_address', K + '    .reg .b32 %r<3>;\n    .reg .b64 %rd<3>;\n    ld.global.u32 %r1, [%rd1+];\n    ret;\n}\n',
     ('[%rd1+]', ']', 'error', "expected an integer offset, found ']'"))
case('syntax_unclosed_body', K + '    ret;\n',
     ('    ret;', None, 'error', "unexpected end of file in the body of 'k' (missing '}')"))
case('syntax_module_garbage', 'add.s32 %r1, %r2, %r3;\n',
     ('add.s32', 'add', 'error', "expected a directive, found 'add'"))
case('syntax_recovery_many', K + '    .reg .b32 %r<3>;\n    add.s32 %r1 %r2;\n    sub.s32 %r1, %r2, ;\n    mul.lo.s32 %r1, %r2, %r2;\n    ret;\n}\n',
     ('add.s32 %r1 %r2', '%r2', 'error', "expected ',' or ';' after operand, found '%r2'"),
     ('sub.s32', ';', 'error', "expected an operand, found ';'"))
case('undefined_register', K + '    .reg .b32 %r<3>;\n    add.s32 %r1, %r9, 1;\n    ret;\n}\n',
     ('%r9', '%r9', 'error', "undefined identifier '%r9'"))
case('undefined_variable', K + '    .reg .b64 %rd<3>;\n    mov.u64 %rd1, nosuchvar;\n    ret;\n}\n',
     ('nosuchvar', 'nosuchvar', 'error', "undefined identifier 'nosuchvar'"))
case('undefined_label', K + '    bra.uni $L_missing;\n    ret;\n}\n',
     ('$L_missing', '$L_missing', 'error', "undefined label '$L_missing'"))
case('undefined_function', K + '    call.uni nosuchfunc, ();\n    ret;\n}\n',
     ('nosuchfunc', 'nosuchfunc', 'error', "undefined identifier 'nosuchfunc'"))
case('range_out_of_bounds', K + '    .reg .b32 %r<3>;\n    mov.u32 %r3, 0;\n    ret;\n}\n',
     ('%r3, 0', '%r3', 'error', "undefined identifier '%r3'"))
case('redeclared_register', K + '    .reg .b32 %r<3>;\n    .reg .b32 %r<5>;\n    ret;\n}\n',
     ('%r<5>', '%r', 'error', "redeclaration of '%r<>' (first declared at line 6)"))
case('redeclared_in_range', K + '    .reg .b32 %r<3>;\n    .reg .b32 %r2;\n    ret;\n}\n',
     ('%r2;', '%r2', 'error', "redeclaration of '%r2' (first declared at line 6)"))
case('redeclared_global', '.global .u32 g;\n.global .f32 g;\n',
     ('.global .f32 g', 'g;', 'error', "redeclaration of 'g' (first declared at line 4)"))
cases.append(('redefined_label', H + K + '$L1:\n    ret;\n$L1:\n    ret;\n}\n',
     ((('$L1:', 2), '$L1', 'error', "redefinition of label '$L1' (first defined at line 6)"),), False))
case('redefined_function', '.func f()\n{\n    ret;\n}\n.func f()\n{\n    ret;\n}\n',
     ((('.func f()', 2), 'f()', 'error', "redefinition of function 'f'")))
case('conflicting_prototype', '.func f(.param .b32 a);\n.func f(.param .b32 a, .param .b32 b);\n',
     (('.param .b32 b', 'f(', 'error', "declaration of 'f' does not match its earlier declaration at line 4")))
case('scope_ends', K + '    .reg .b32 %r<3>;\n    {\n        .reg .b32 t;\n        mov.u32 t, 1;\n    }\n    mov.u32 t, 2;\n    ret;\n}\n',
     ('mov.u32 t, 2', 't, 2', 'error', "undefined identifier 't'"))
case('type_mismatch_float_int', K + '    .reg .b32 %r<3>;\n    .reg .f32 %f<3>;\n    add.s32 %r1, %f1, %r2;\n    ret;\n}\n',
     ('add.s32', '%f1', 'error', "operand '%f1' has type .f32, but 'add' expects .s32"))
case('type_mismatch_size', K + '    .reg .b32 %r<3>;\n    .reg .b64 %rd<3>;\n    add.s32 %r1, %rd1, %r2;\n    ret;\n}\n',
     ('add.s32', '%rd1', 'error', "operand '%rd1' has type .b64, but 'add' expects .s32"))
case('type_mismatch_pred', K + '    .reg .b32 %r<3>;\n    .reg .pred %p<2>;\n    add.u32 %p1, %r1, %r2;\n    ret;\n}\n',
     ('add.u32', '%p1', 'error', "operand '%p1' has type .pred, but 'add' expects .u32"))
case('setp_dest_not_pred', K + '    .reg .b32 %r<3>;\n    setp.lt.s32 %r1, %r1, %r2;\n    ret;\n}\n',
     ('setp', '%r1', 'error', "operand '%r1' has type .b32, but 'setp' expects .pred"))
case('guard_not_pred', K + '    .reg .b32 %r<3>;\n    @%r1 bra $L;\n$L:\n    ret;\n}\n',
     ('@%r1', '%r1', 'error', "guard '%r1' is not a .pred register"))
case('float_imm_int_type', K + '    .reg .b32 %r<3>;\n    add.s32 %r1, %r2, 0f3F800000;\n    ret;\n}\n',
     ('0f3F800000', '0f3F800000', 'error', "floating-point immediate for .s32 operand of 'add'"))
case('operand_count_few', K + '    .reg .b32 %r<3>;\n    add.s32 %r1, %r2;\n    ret;\n}\n',
     ('add.s32', 'add', 'error', "'add' takes 3 operands, found 2"))
case('operand_count_many', K + '    .reg .b32 %r<3>;\n    mov.u32 %r1, %r2, %r2;\n    ret;\n}\n',
     ('mov.u32', 'mov', 'error', "'mov' takes 2 operands, found 3"))
case('dest_immediate', K + '    .reg .b32 %r<3>;\n    add.s32 5, %r1, %r2;\n    ret;\n}\n',
     ('add.s32 5', '5', 'error', "destination of 'add' must be a register, not an immediate"))
case('dest_special_register', K + '    .reg .b32 %r<3>;\n    mov.u32 %tid.x, %r1;\n    ret;\n}\n',
     ('%tid.x', '%tid.x', 'error', "cannot write to special register '%tid'"))
case('ld_needs_address', K + '    .reg .b32 %r<3>;\n    ld.global.u32 %r1, %r2;\n    ret;\n}\n',
     ('ld.global', '%r2', 'error', "operand 2 of 'ld' must be an address [..], not this operand"))
case('address_float_base', K + '    .reg .b32 %r<3>;\n    .reg .f64 %fd<3>;\n    ld.global.u32 %r1, [%fd1];\n    ret;\n}\n',
     ('[%fd1]', '[', 'error', "address register '%fd1' has type .f64"))
case('bra_needs_label', K + '    .reg .b32 %r<3>;\n    bra %r1;\n    ret;\n}\n',
     ('bra %r1', '%r1', 'error', "operand of 'bra' must be a label"))
case('vector_size_mismatch', K + '    .reg .f32 %f<5>;\n    .reg .b64 %rd<2>;\n    ld.global.v4.f32 {%f1, %f2}, [%rd1];\n    ret;\n}\n',
     ('ld.global.v4', '{', 'error', "'ld' with 4 elements needs a vector operand, found 2 elements"))
case('unknown_instruction', K + '    frobnicate.s32 %r1;\n    ret;\n}\n',
     ('frobnicate', 'frobnicate', 'error', "unknown instruction 'frobnicate'"))
case('unknown_mnemonic_with_modifiers', K + '    .reg .b32 %r<3>;\n    wgmma.fence.sync.aligned;\n'
     '    add.bogus.s32 %r1, %r2, 1;\n    ret;\n}\n',
     ('wgmma', 'wgmma', 'error', "unknown instruction 'wgmma'"),
     ('add.bogus', '.bogus', 'error', "unknown modifier '.bogus'"))
case('unknown_modifier', K + '    .reg .b32 %r<3>;\n    add.fast.s32 %r1, %r2, %r2;\n    ret;\n}\n',
     ('add.fast', '.fast', 'error', "unknown modifier '.fast'"))
case('modifier_not_valid', K + '    .reg .b32 %r<3>;\n    add.wide.s32 %r1, %r2, %r2;\n    ret;\n}\n',
     ('add.wide', '.wide', 'error', "modifier '.wide' is not valid for 'add'"))
case('modifier_conflict', K + '    .reg .f32 %f<3>;\n    add.rn.rz.f32 %f1, %f2, %f2;\n    ret;\n}\n',
     ('add.rn.rz', '.rz', 'error', "modifier '.rz' conflicts with an earlier modifier of 'add'"))
case('modifier_duplicate', K + '    .reg .f32 %f<3>;\n    add.ftz.ftz.f32 %f1, %f2, %f2;\n    ret;\n}\n',
     ('add.ftz.ftz', '.ftz.f32', 'error', "duplicate modifier '.ftz' on 'add'"))
case('rounding_on_integer', K + '    .reg .b32 %r<3>;\n    add.rn.s32 %r1, %r2, %r2;\n    ret;\n}\n',
     ('add.rn', '.rn', 'error', "modifier '.rn' of 'add' requires a floating-point type"))
case('wide_on_float', K + '    .reg .f32 %f<3>;\n    mul.wide.f32 %f1, %f2, %f2;\n    ret;\n}\n',
     ('mul.wide', '.wide', 'error', "modifier '.wide' of 'mul' requires an integer type"))
case('missing_type', K + '    .reg .b32 %r<3>;\n    add %r1, %r2, %r2;\n    ret;\n}\n',
     ('add %r1', 'add', 'error', "'add' needs 1 type, found 0"))
case('too_many_types', K + '    .reg .b32 %r<3>;\n    add.s32.u32 %r1, %r2, %r2;\n    ret;\n}\n',
     ('add.s32.u32', '.u32', 'error', "too many types ('.u32') for 'add'"))
case('setp_needs_cmp', K + '    .reg .b32 %r<3>;\n    .reg .pred %p<2>;\n    setp.s32 %p1, %r1, %r2;\n    ret;\n}\n',
     ('setp.s32', 'setp', 'error', "'setp' needs a comparison operator"))
cases.append(('version_too_old', '.version 6.0\n.target sm_70\n.address_size 64\n' + K +
     '    .reg .b32 %r<3>;\n    activemask.b32 %r1;\n    ret;\n}\n',
     (('activemask', 'activemask', 'error', "'activemask' requires PTX ISA 6.2 or later (module declares .version 6.0)"),), False))
cases.append(('target_too_old', '.version 8.0\n.target sm_75\n.address_size 64\n' + K +
     '    .reg .b32 %r<3>;\n    redux.sync.add.u32 %r1, %r2, -1;\n    ret;\n}\n',
     (('redux', 'redux', 'error', "'redux' requires sm_80 or later (module targets sm_75)"),), False))
cases.append(('type_too_new', '.version 6.0\n.target sm_70\n.address_size 64\n' + K +
     '    .reg .b16 %h<3>;\n    add.bf16 %h1, %h2, %h2;\n    ret;\n}\n',
     (('add.bf16', '.bf16', 'error', "type '.bf16' requires PTX ISA 7.0 or later (module declares .version 6.0)"),), False))
cases.append(('version_unsupported', '.version 9.9\n.target sm_80\n.address_size 64\n',
     (('.version 9.9', '9.9', 'error', 'unsupported PTX ISA version 9.9 (the newest supported is 9.0)'),), False))
case('call_arg_count', '.func (.param .b32 r) f(.param .b32 a)\n{\n    ret;\n}\n' + K +
     '    .param .b32 x;\n    .param .b32 y;\n    call.uni (y), f, (x, x);\n    ret;\n}\n',
     ('call.uni', 'f,', 'error', 'call passes 2 arguments, the callee takes 1'))
case('call_indirect_no_proto', K + '    .reg .b64 %rd<3>;\n    call.uni %rd1, ();\n    ret;\n}\n',
     ('call.uni', '%rd1', 'error', 'an indirect call needs a .callprototype or .calltargets label'))
case('call_kernel', K + '    call.uni k, (p);\n    ret;\n}\n',
     ('call.uni', 'k,', 'error', 'kernels (.entry) cannot be called'))
case('pred_in_global', '.global .pred flag;\n',
     ('.global .pred', '.global', 'error', '.pred variables must be in the .reg state space'))
case('reg_at_module', '.reg .b32 r;\n',
     ('.reg .b32 r', 'r;', 'error', '.reg variables must be declared inside a function'))
case('too_many_initializers', '.global .u32 a[2] = {1, 2, 3};\n',
     ('.global .u32 a', 'a[', 'error', "too many initializers for 'a' (3 given, 2 expected)"))
case('init_undefined_symbol', '.global .u64 a[1] = {nothere};\n',
     ('nothere', 'nothere', 'error', "undefined identifier 'nothere'"))
case('bad_alignment', '.global .align 3 .u32 a;\n',
     ('.align 3', '3', 'error', 'alignment 3 is not a power of two'))
case('deep_nesting', K + '    ' + '{' * 300 + '}' * 300 + '\n    ret;\n}\n',
     ('{{{', '{' * 45 + '}', 'error', 'blocks nested deeper than 256'))
case('deep_initializer', '.global .u32 a[1] = ' + '{' * 300 + '1' + '}' * 300 + ';\n',
     ('.global', '{' * 44 + '1', 'error', 'initializer nested too deeply'))
case('extern_with_body', '.extern .func f()\n{\n    ret;\n}\n',
     ('.extern .func f', 'f(', 'error', ".extern function 'f' cannot have a body"))
case('sink_as_source', K + '    .reg .b32 %r<3>;\n    add.s32 %r1, _, %r2;\n    ret;\n}\n',
     ('add.s32', '_', 'error', "'_' can only be a destination"))
case('negated_non_pred', K + '    .reg .b32 %r<3>;\n    add.s32 %r1, !%r2, %r2;\n    ret;\n}\n',
     ('add.s32', '!', 'error', "only predicate operands can be negated with '!'"))
case('sreg_needs_component', K + '    .reg .b32 %r<3>;\n    mov.u32 %r1, %tid;\n    ret;\n}\n',
     ('%tid;', '%tid', 'error', "special register '%tid' needs a component (.x, .y, .z)"))
case('bad_component', K + '    .reg .b32 %r<3>;\n    mov.u32 %r1, %laneid.x;\n    ret;\n}\n',
     ('%laneid', '.x', 'error', "'%laneid' has no component '.x'"))
case('const_expr_div_zero', K + '    .reg .b32 %r<3>;\n    mov.u32 %r1, (4 + 4) / (2 - 2);\n    ret;\n}\n',
     ('mov.u32', '(', 'error', 'division by zero in constant expression'))
case('kernel_reg_param', '.entry k(.reg .b32 a)\n{\n    ret;\n}\n',
     ('.entry', 'a)', 'error', 'kernel parameters must be in the .param state space'))
case('valid_module_no_diagnostics', K + '    .reg .b32 %r<3>;\n    .reg .pred %p<2>;\n    mov.u32 %r1, %tid.x;\n    setp.lt.u32 %p1|%p0, %r1, WARP_SZ;\n    @!%p1 bra $Lend;\n    add.s32 %r2, %r1, (1 << 4) + 0x10;\n    {\n        .reg .b32 %r<2>;\n        mov.u32 %r2, %r1;\n    }\n$Lend:\n    ret;\n}\n')

cases.append(('shfl_without_sync_warning', '.version 6.3\n.target sm_75\n.address_size 64\n' + K +
     '    .reg .b32 %r<3>;\n    shfl.down.b32 %r1, %r2, 1, 31;\n    ret;\n}\n',
     (('shfl.down', 'shfl', 'warning', "'shfl' without '.sync' is deprecated since PTX ISA 6.0"),), False))
cases.append(('shfl_without_sync_error', '.version 7.0\n.target sm_80\n.address_size 64\n' + K +
     '    .reg .b32 %r<3>;\n    shfl.down.b32 %r1, %r2, 1, 31;\n    ret;\n}\n',
     (('shfl.down', 'shfl', 'error', "'shfl' without '.sync' is not supported on sm_70 and later from PTX ISA 6.4"),), False))
cases.append(('target_needs_newer_version', '.version 6.0\n.target sm_80\n.address_size 64\n' + K + '    ret;\n}\n',
     (('.target', 'sm_80', 'error', 'PTX ISA version 6.0 does not support .target sm_80 (needs 7.0)'),), False))
case('space_mismatch', '.global .align 4 .u32 gvar;\n' + K + '    .reg .b32 %r<3>;\n    ld.shared.u32 %r1, [gvar];\n    ret;\n}\n',
     ('ld.shared', '[gvar]', 'error', "'gvar' is a .global variable, but 'ld' accesses .shared"))
case('sreg_too_new', K + '    .reg .b32 %r<3>;\n    mov.u32 %r1, %cluster_ctarank;\n    ret;\n}\n',
     ('%cluster_ctarank', '%cluster_ctarank', 'error', "special register '%cluster_ctarank' requires sm_90 or later (module targets sm_80)"))
case('address_negated_base', K + '    .reg .b32 %r<3>;\n    .reg .b64 %rd<3>;\n    ld.global.u32 %r1, [!%rd1];\n    ret;\n}\n',
     ('[!%rd1]', '!', 'error', 'address base must be a register or a variable'))
case('call_negated_argument', '.func f(.param .b32 a)\n{\n    ret;\n}\n' + K +
     '    .reg .pred %p<2>;\n    call.uni f, (!%p1);\n    ret;\n}\n',
     ('call.uni', '(', 'error', 'call operands cannot be negated'))
LIMITS = {'deep_nesting', 'num_too_large'}
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, text, exps, dump in cases:
    lines = text.split('\n')
    exp_lines = []
    for e in exps:
        find, occ, level, msg = e
        nth = 1
        if isinstance(find, tuple):
            find, nth = find
        idx = [i for i, l in enumerate(lines) if find in l]
        if len(idx) < nth:
            sys.exit('%s: no line contains %r' % (name, find))
        li = idx[nth - 1]
        if occ is None:  # end of file: position after the last line
            li = len(lines) - 1 + len(exps)
            col = 1
        else:
            col = lines[li].index(occ) + 1
        exp_lines.append('// expect: %d:%d: %s: %s' % (li + 1, col, level, msg))
    # expectations go after the code so they do not shift its line numbers
    body = text if text.endswith('\n') else text + '\n'
    with open(os.path.join(out, name + '.ptx'), 'w', newline='\n') as f:
        f.write(body + '\n'.join(exp_lines) + ('\n' if exp_lines else ''))
        if name in LIMITS:
            f.write('// limit: NVIDIA ptxas accepts this input; the error is a limit of this parser\n')
print(len(cases), 'cases')
