"""Flattens a parsed PTX module into one kernel: calls to .func functions are inlined (their
registers, labels and .param/.local variables renamed per call site), `ret` in the kernel
becomes `exit`, and labels are resolved to instruction indices.

Why inline: the interpreter's SIMT scheduler orders threads by program counter (see
executor.py), which needs one instruction list; a call's semantics (copy the arguments into
the callee's .param variables, run it, copy the return variables back) is preserved exactly.
"""

from ptxparse import Instr, PtxError, Var


class Flat:
    def __init__(self, entry):
        self.entry = entry
        self.regs = {}        # name -> bits
        self.vars = []        # Vars of the kernel and of every inlined call
        self.code = []        # Instr list
        self.labels = {}      # name -> index


def _rename_arg(a, regmap, symmap):
    k = a[0]
    if k == 'reg':
        return ('reg', regmap.get(a[1], a[1]))
    if k == 'sym':
        return ('sym', symmap.get(a[1], a[1]))
    if k == 'addr':
        b = a[1]
        if b is not None:
            b = regmap.get(b, symmap.get(b, b))
        return ('addr', b, a[2])
    if k == 'not':
        return ('not', _rename_arg(a[1], regmap, symmap))
    if k == 'vec':
        return ('vec', [_rename_arg(x, regmap, symmap) for x in a[1]])
    if k == 'pipe':
        return ('pipe', _rename_arg(a[1], regmap, symmap), _rename_arg(a[2], regmap, symmap))
    return a


def _mk(op, mods, args, line, guard=None):
    return Instr(guard, op, mods, args, line)


class _Inliner:
    def __init__(self, mod, flat):
        self.mod, self.flat, self.sites = mod, flat, 0

    def emit_fn(self, fn, prefix, stack, ret_label):
        regmap = {r: r + prefix for r in fn.regs}
        for r, b in fn.regs.items():
            self.flat.regs[r + prefix] = b
        symmap = {}
        for v in fn.vars + (fn.params + fn.rets if prefix else []):
            symmap[v.name] = v.name + prefix
        for v in fn.vars:
            self.flat.vars.append(Var(v.name + prefix, v.space, v.size, v.align, v.init))
        for item in fn.body:
            if isinstance(item, tuple):
                self.flat.labels[item[1] + prefix] = len(self.flat.code)
                continue
            guard = None
            if item.guard:
                guard = (regmap.get(item.guard[0], item.guard[0]), item.guard[1])
            if item.op == 'ret':
                if ret_label is None:
                    self.flat.code.append(_mk('exit', [], [], item.line, guard))
                else:
                    self.flat.code.append(_mk('bra', [], [('sym', ret_label)], item.line, guard))
                continue
            if item.op == 'call':
                self.emit_call(item, guard, regmap, symmap, stack)
                continue
            args = [_rename_arg(a, regmap, symmap) for a in item.args]
            if item.op == 'bra' and args and args[0][0] == 'sym':
                args = [('sym', args[0][1] + prefix)]
            self.flat.code.append(Instr(guard, item.op, item.mods, args, item.line))

    def emit_call(self, ins, guard, regmap, symmap, stack):
        rets, name, args = ins.args
        callee = self.mod.funcs.get(name)
        if callee is None:
            raise PtxError('%s: call of unknown function %s' % (ins.line, name))
        if name in stack:
            raise PtxError('%s: recursive call of %s is not supported by the interpreter' %
                           (ins.line, name))
        if len(args) != len(callee.params) or len(rets) != len(callee.rets):
            raise PtxError('%s: call of %s with the wrong number of arguments' % (ins.line, name))
        self.sites += 1
        prefix = '@c%d' % self.sites
        skip = 'skip' + prefix
        end = 'end' + prefix
        code = self.flat.code
        if guard:
            code.append(_mk('bra', [], [('sym', skip)], ins.line, (guard[0], not guard[1])))
        for v in callee.params + callee.rets:
            self.flat.vars.append(Var(v.name + prefix, '.param', v.size, v.align))
        for formal, actual in zip(callee.params, args):
            self._copy(formal.name + prefix, formal.size, actual, regmap, symmap, True, ins.line)
        self.emit_fn(callee, prefix, stack + [name], end)
        self.flat.labels[end] = len(code)
        for formal, actual in zip(callee.rets, rets):
            self._copy(formal.name + prefix, formal.size, actual, regmap, symmap, False, ins.line)
        self.flat.labels[skip] = len(code)

    def _copy(self, pvar, size, actual, regmap, symmap, into_callee, line):
        """Argument/return transfer between the caller's .param variable (or register) and
        the callee's .param variable."""
        if actual.startswith('%') or actual[0].isdigit() or actual[0] == '-':
            ty = {1: 'b8', 2: 'b16', 4: 'b32', 8: 'b64'}[size]
            operand = ('reg', regmap.get(actual, actual)) if actual.startswith('%') \
                else ('imm', actual)
            if into_callee:
                self.flat.code.append(_mk('st', ['param', ty], [('addr', pvar, 0), operand], line))
            else:
                self.flat.code.append(_mk('ld', ['param', ty], [operand, ('addr', pvar, 0)], line))
            return
        mine = symmap.get(actual, actual)
        src, dst = (mine, pvar) if into_callee else (pvar, mine)
        self.flat.code.append(_mk('parcopy', [], [('sym', dst), ('sym', src), ('imm', str(size))],
                                  line))


def flatten(mod, entry_name=None):
    entries = [f for f in mod.funcs.values() if f.is_entry]
    if entry_name:
        entries = [f for f in entries if f.name == entry_name]
    if not entries:
        raise PtxError('no entry %s' % (entry_name or ''))
    entry = entries[0]
    flat = Flat(entry)
    _Inliner(mod, flat).emit_fn(entry, '', [entry.name], None)
    flat.code.append(_mk('exit', [], [], 'end of kernel'))
    for ins in flat.code:
        if ins.op == 'bra':
            target = ins.args[0][1]
            if target not in flat.labels:
                raise PtxError('%s: unknown label %s' % (ins.line, target))
            ins.label_target = flat.labels[target]
    return flat
