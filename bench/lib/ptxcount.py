"""Counts the PTX instructions of a file: statements ending in ';' inside function bodies that
are not directives (.reg, .shared, .local, .pragma ...) and not labels; a statement spread over
several lines (a call with its argument list) counts once."""

import re


def count_text(text):
    count, depth = 0, 0
    for raw in text.splitlines():
        line = re.sub(r'//.*', '', raw).strip()
        if not line:
            continue
        if depth > 0 and line.endswith(';'):
            body = line.lstrip('{').strip()
            body = re.sub(r'^[$%\w]+:\s*', '', body)  # a label before the statement
            if body and not body.startswith('.') and not body.startswith(')'):
                count += 1
            elif body.startswith(')'):
                count += 1  # end of a multi-line call: "), ... ;" or ");"
        depth += line.count('{') - line.count('}')
    return count


def count_file(path):
    with open(path) as f:
        return count_text(f.read())
