"""PTX text -> a module of functions for the reference interpreter (tests/ptxref).

Shares no code with the compiler.  Covers the subset of PTX that the hardware set
(../shared/ptx-hw/random) and gen_fuzz.py use: .entry/.func with .param lists, .reg
declarations (with <N> ranges), .shared/.local/.global variables (arrays, alignment),
labels, guarded instructions, vector operands {a, b}, pipe destinations d|p, addresses
[reg+imm] / [var+imm], and call with .param arguments.  Calls are inlined when the module
is loaded (the interpreter runs one flat instruction list per kernel): the generator and
the hardware set never recurse, and recursion is rejected by name.
"""

import re

TYPE_BITS = {'b8': 8, 'u8': 8, 's8': 8, 'b16': 16, 'u16': 16, 's16': 16, 'f16': 16,
             'bf16': 16, 'b32': 32, 'u32': 32, 's32': 32, 'f32': 32, 'f16x2': 32,
             'bf16x2': 32, 'b64': 64, 'u64': 64, 's64': 64, 'f64': 64, 'pred': 1,
             'tf32': 32, 's16x2': 32, 'u16x2': 32, 's4': 4, 'u4': 4, 'e4m3x2': 16,
             'e5m2x2': 16}


class PtxError(Exception):
    pass


class Var:
    """A variable in .shared/.local/.global/.param space: name, space, size in bytes, align,
    initial bytes (None: zero)."""

    def __init__(self, name, space, size, align, init=None):
        self.name, self.space, self.size, self.align, self.init = name, space, size, align, init


class Instr:
    """One instruction: guard (reg, negated) or None, opcode parts (['add', 's32']), operands
    as parsed trees, the source line for messages."""

    __slots__ = ('guard', 'op', 'mods', 'args', 'line', 'label_target')

    def __init__(self, guard, op, mods, args, line):
        self.guard, self.op, self.mods, self.args, self.line = guard, op, mods, args, line
        self.label_target = None


class Function:
    def __init__(self, name, is_entry):
        self.name, self.is_entry = name, is_entry
        self.params = []      # Var list (.param space), in order
        self.rets = []        # Var list of return params (.func)
        self.regs = {}        # name -> bits (1 for .pred)
        self.vars = []        # Var list declared in the body (.local/.shared/.param)
        self.body = []        # Instr or ('label', name)


class Module:
    def __init__(self):
        self.funcs = {}
        self.globals = []     # module-scope Vars (.global/.shared/.const)


_TOKEN = re.compile(r'\s*(//[^\n]*|/\*.*?\*/|"[^"]*"|[A-Za-z_$%.](?:[\w$.%]|::)*|0[fFdD][0-9A-Fa-f]+|'
                    r'0[xX][0-9A-Fa-f]+U?|\d+\.\d*(?:[eE][-+]?\d+)?|\d+U?|\S)', re.S)


_HEADER = re.compile(r'^\s*\.(version|target|address_size)\b[^\n]*$', re.M)


def tokenize(text):
    text = _HEADER.sub('', text)  # header directives end at the line, not with ';'
    toks = []
    for m in _TOKEN.finditer(text):
        t = m.group(1)
        if t.startswith('//') or t.startswith('/*'):
            continue
        toks.append(t)
    return toks


def _split_statements(toks):
    """Statements end with ';' ; '{' '}' and 'label:' are their own statements."""
    stmt, out, depth_vec = [], [], 0
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == '{' and stmt and (('=' in stmt) or (stmt[0][0] != '.' and
                                                    not _is_directive_start(stmt))):
            depth_vec += 1  # vector operand brace inside an instruction
            stmt.append(t)
        elif t == '}' and depth_vec:
            depth_vec -= 1
            stmt.append(t)
        elif t in '{}' and not stmt:
            out.append([t])
        elif t == ';':
            out.append(stmt)
            stmt = []
        elif t == ':' and len(stmt) == 1 and not depth_vec:
            out.append(['LABEL', stmt[0]])
            stmt = []
        elif t == '{' and stmt:
            out.append(stmt)
            out.append(['{'])
            stmt = []
        else:
            stmt.append(t)
        i += 1
    if stmt:
        out.append(stmt)
    return out


def _is_directive_start(stmt):
    return any(s in ('.entry', '.func') for s in stmt)


def _parse_param_list(toks, i, where):
    """toks[i] == '(' ; returns (Vars, next index)."""
    assert toks[i] == '('
    params, cur = [], []
    i += 1
    while toks[i] != ')':
        if toks[i] == ',':
            params.append(_decl_var(cur, '.param', where))
            cur = []
        else:
            cur.append(toks[i])
        i += 1
    if cur:
        params.append(_decl_var(cur, '.param', where))
    return params, i + 1


def _decl_var(toks, space, where):
    """[.align N] .type name [ '[' N ']' ] -> Var."""
    align, ty, name, count = None, None, None, 1
    j = 0
    while j < len(toks):
        t = toks[j]
        if t == '.align':
            align = int(toks[j + 1], 0)
            j += 2
            continue
        if t in ('.param', '.reg', '.local', '.shared', '.global', '.const', '.ptr', '.visible',
                 '.extern', '.weak'):
            j += 1
            continue
        if t.startswith('.') and t[1:] in TYPE_BITS:
            ty = t[1:]
        elif t == '[':
            count *= int(toks[j + 1], 0) if toks[j + 1] != ']' else 0
            j += 2 if toks[j + 1] == ']' else 3
            continue
        elif name is None and not t.startswith('.'):
            name = t
        j += 1
    if ty is None or name is None:
        raise PtxError('%s: cannot parse declaration %r' % (where, ' '.join(toks)))
    size = max(TYPE_BITS[ty] // 8, 1) * count
    return Var(name, space, size, align or max(TYPE_BITS[ty] // 8, 1))


def _parse_operand(toks):
    """Operand token list -> tree: ('reg', name) ('imm', text) ('neg', reg) ('vec', [..])
    ('addr', base or None, offset) ('sym', name) ('pipe', a, b)."""
    if not toks:
        raise PtxError('empty operand')
    if '|' in toks:
        k = toks.index('|')
        return ('pipe', _parse_operand(toks[:k]), _parse_operand(toks[k + 1:]))
    if toks[0] == '{':
        items, cur = [], []
        for t in toks[1:-1]:
            if t == ',':
                items.append(_parse_operand(cur))
                cur = []
            else:
                cur.append(t)
        items.append(_parse_operand(cur))
        return ('vec', items)
    if toks[0] == '[':
        inner = toks[1:-1]
        base, off, sign = None, 0, 1
        for t in inner:
            if t == '+':
                sign = 1
            elif t == '-':
                sign = -1
            elif t[0].isdigit():
                off += sign * int(t.rstrip('U'), 0)
            else:
                base = t
        return ('addr', base, off)
    if toks[0] == '!':
        return ('not', _parse_operand(toks[1:]))
    if toks[0] == '-' and len(toks) == 2 and toks[1][0].isdigit():
        return ('imm', '-' + toks[1])
    if len(toks) != 1:
        raise PtxError('cannot parse operand %r' % ' '.join(toks))
    t = toks[0]
    if t[0].isdigit():
        return ('imm', t)
    if t.startswith('%'):
        return ('reg', t)
    return ('sym', t)


def _split_args(toks):
    args, cur, depth = [], [], 0
    for t in toks:
        if t in '{[(':
            depth += 1
        elif t in '}])':
            depth -= 1
        if t == ',' and depth == 0:
            args.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        args.append(cur)
    return args


def _parse_call(toks, line):
    """call[.uni] (ret), name, (a, b);  call name, (a);  call name;"""
    rest = toks[1:]
    rets, args, name = [], [], None
    groups, cur, depth = [], [], 0
    for t in rest:
        if t == '(':
            depth += 1
            cur = []
            continue
        if t == ')':
            depth -= 1
            groups.append(('list', [x for x in cur if x != ',']))
            continue
        if depth:
            cur.append(t)
        elif t != ',':
            groups.append(('name', t))
    for g in groups:
        if g[0] == 'name':
            name = g[1]
        elif name is None:
            rets = g[1]
        else:
            args = g[1]
    ins = Instr(None, 'call', [], [rets, name, args], line)
    return ins


def _parse_instr(stmt, line):
    guard = None
    if stmt[0] == '@':
        if stmt[1] == '!':
            guard, stmt = (stmt[2], True), stmt[3:]
        else:
            guard, stmt = (stmt[1], False), stmt[2:]
    parts = stmt[0].split('.')
    if parts[0] == 'call':
        ins = _parse_call(stmt, line)
        ins.mods = parts[1:]
        ins.guard = guard
        return ins
    args = [_parse_operand(a) for a in _split_args(stmt[1:])]
    return Instr(guard, parts[0], parts[1:], args, line)


def _reg_decl(stmt, fn):
    ty = [t for t in stmt if t.startswith('.') and t[1:] in TYPE_BITS][0][1:]
    bits = TYPE_BITS[ty]
    j = stmt.index('.' + ty) + 1
    rest = stmt[j:]
    k = 0
    while k < len(rest):
        t = rest[k]
        if t == ',':
            k += 1
            continue
        if k + 3 < len(rest) and rest[k + 1] == '<':
            for n in range(int(rest[k + 2])):
                fn.regs['%s%d' % (t, n)] = bits
            k += 4
        else:
            fn.regs[t] = bits
            k += 1


def parse(text):
    """PTX text -> Module (calls not yet inlined)."""
    mod = Module()
    stmts = _split_statements(tokenize(text))
    i, fn, depth, lineno = 0, None, 0, 0
    while i < len(stmts):
        s = stmts[i]
        i += 1
        if not s:
            continue
        if s[0] in ('.version', '.target', '.address_size', '.pragma', '.file', '.loc'):
            continue
        if '.entry' in s or '.func' in s:
            if s[-1] != ')' and ')' not in s and s[0] == '.extern':
                continue
            is_entry = '.entry' in s
            k = s.index('.entry' if is_entry else '.func') + 1
            f_rets = []
            if s[k] == '(':
                f_rets, k = _parse_param_list(s, k, 'return list')
            f = Function(s[k], is_entry)
            f.rets = f_rets
            k += 1
            if k < len(s) and s[k] == '(':
                f.params, k = _parse_param_list(s, k, f.name)
            if i < len(stmts) and stmts[i] == ['{']:
                fn, depth = f, 1
                i += 1
                mod.funcs[f.name] = f
            continue
        if fn is None:
            if s[0] in ('.global', '.shared', '.const', '.visible', '.extern') and \
                    any(t in ('.global', '.shared', '.const') for t in s):
                sp = [t for t in s if t in ('.global', '.shared', '.const')][0]
                init = None
                if '=' in s:
                    e = s.index('=')
                    init = [t for t in s[e + 1:] if t not in '{},']
                    s = s[:e]
                v = _decl_var(s, sp, 'module')
                if init:
                    v.init = init
                mod.globals.append(v)
            continue
        if s == ['{']:
            depth += 1
            continue
        if s == ['}']:
            depth -= 1
            if depth == 0:
                fn = None
            continue
        lineno += 1
        if s[0] == 'LABEL':
            fn.body.append(('label', s[1]))
        elif s[0] == '.reg':
            _reg_decl(s, fn)
        elif s[0] in ('.local', '.shared', '.param') or (s[0] == '.align'):
            sp = [t for t in s if t in ('.local', '.shared', '.param')][0]
            fn.vars.append(_decl_var(s, sp, fn.name))
        elif s[0].startswith('.'):
            raise PtxError('%s: unsupported directive %s' % (fn.name, s[0]))
        else:
            fn.body.append(_parse_instr(s, '%s: %s' % (fn.name, ' '.join(s))))
    return mod
