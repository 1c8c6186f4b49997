"""Plain-SVG grouped horizontal bar charts for bench/run (no plotting library needed).

bar_chart(title, rows, series, ...) draws one group of bars per row label; each series is
(name, colour, hollow) and each row gives one value per series (None: nothing drawn, with an
optional note at the row).  The value axis is logarithmic when log=True.  A dashed line marks
the target value.
"""

import math

ROW_HEIGHT = 14
LEFT = 150
WIDTH = 760
PLOT_WIDTH = WIDTH - LEFT - 30


def esc(text):
    return text.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def axis_range(values, target, log):
    vals = [v for v in values if v is not None and v > 0] + [target]
    lo, hi = min(vals), max(vals)
    if log:
        return 10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi))
    return 0.0, hi * 1.1


def scale(value, lo, hi, log):
    if log:
        value = max(value, lo)
        frac = (math.log10(value) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))
    else:
        frac = (value - lo) / (hi - lo)
    return LEFT + frac * PLOT_WIDTH


def ticks(lo, hi, log):
    if log:
        out, v = [], lo
        while v <= hi * 1.0001:
            out.append(v)
            v *= 10
        return out
    step = 10 ** math.floor(math.log10(hi / 2))
    return [i * step for i in range(int(hi / step) + 1)]


def bar_chart(title, subtitle, rows, series, target, target_label, log, notes=None):
    """rows: [(label, [value per series])]; notes: {label: text} drawn where a row has no
    bars."""
    notes = notes or {}
    group = ROW_HEIGHT * len(series) + 8
    top = 60 + 16 * len(series)
    height = top + group * len(rows) + 40
    lo, hi = axis_range([v for _, vals in rows for v in vals], target, log)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (WIDTH, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="10" y="18" font-size="14" font-weight="bold">%s</text>' % esc(title),
           '<text x="10" y="34">%s</text>' % esc(subtitle)]
    for i, (name, colour, hollow) in enumerate(series):
        y = 48 + 16 * i
        fill = 'none' if hollow else colour
        out.append('<rect x="10" y="%d" width="12" height="10" fill="%s" stroke="%s"/>'
                   % (y, fill, colour))
        out.append('<text x="28" y="%d">%s</text>' % (y + 9, esc(name)))
    bottom = top + group * len(rows)
    for t in ticks(lo, hi, log):
        x = scale(t, lo, hi, log)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>'
                   % (x, top - 4, x, bottom))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%sx</text>'
                   % (x, bottom + 14, '%g' % t))
    for r, (label, values) in enumerate(rows):
        y0 = top + r * group
        out.append('<text x="%d" y="%d" text-anchor="end">%s</text>'
                   % (LEFT - 6, y0 + group // 2, esc(label)))
        drawn = False
        for i, ((_, colour, hollow), v) in enumerate(zip(series, values)):
            if v is None or v <= 0:
                continue
            drawn = True
            x1 = scale(v, lo, hi, log)
            y = y0 + i * ROW_HEIGHT
            out.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s" stroke="%s"/>'
                       % (LEFT, y, max(x1 - LEFT, 1), ROW_HEIGHT - 3,
                          'none' if hollow else colour, colour))
            out.append('<text x="%.1f" y="%d">%s</text>' % (x1 + 3, y + 10, '%.3gx' % v))
        if not drawn and label in notes:
            out.append('<text x="%d" y="%d" fill="#a00">%s</text>'
                       % (LEFT + 4, y0 + group // 2, esc(notes[label])))
    tx = scale(target, lo, hi, log)
    out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="red" stroke-dasharray="4,3"/>'
               % (tx, top - 8, tx, bottom))
    out.append('<text x="%.1f" y="%d" fill="red">%s</text>' % (tx + 3, top - 10,
                                                               esc(target_label)))
    out.append('</svg>')
    return '\n'.join(out) + '\n'
