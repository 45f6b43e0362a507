#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""funcsize.py FILE...: each C function's length and nesting, longest first.

For kernel-style sources (a function body opens with '{' in column 0 and
closes with '}' in column 0). Length: lines from the first line of the
signature to the closing brace. Nesting: the deepest statement's leading
tabs minus one, so that a statement directly in the body is at 0 and one
inside an if or a loop at 1; continuation lines of a statement or of a
condition are not statements. Comments and preprocessor lines are left
out. The last line gives the maxima.
"""
import re
import sys

CTL = re.compile(r'(\}\s*)?(if|for|while|switch|else if)\b')


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'),
                  text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def depth_of(body):
    depth, prev, first = 0, '{', ''
    for line in body:
        s = line.strip()
        if not s or s.startswith('#'):
            continue
        ends = re.search(r'[;{}:]$', prev) or prev in ('else', '} else', 'do')
        header = CTL.match(first) and prev.endswith(')')
        if ends or header:
            depth = max(depth, len(line) - len(line.lstrip('\t')) - 1)
            first = s
        prev = s
    return depth


def functions(path):
    lines = strip_comments(open(path).read()).split('\n')
    i = 0
    while i < len(lines):
        if lines[i] == '{' and i > 0:
            j = i - 1
            while j > 0 and (lines[j] == '' or lines[j][0] in ' \t'):
                j -= 1
            sig = ' '.join(l.strip() for l in lines[j:i])
            k = i + 1
            while k < len(lines) and not lines[k].startswith('}'):
                k += 1
            m = re.search(r'(\w+)\s*\(', sig)
            if m and '=' not in sig.split('(')[0]:
                yield m.group(1), k - j + 1, depth_of(lines[i + 1:k])
            i = k
        i += 1


found = [(p, f, n, d) for p in sys.argv[1:] for f, n, d in functions(p)]
for p, f, n, d in sorted(found, key=lambda x: (-x[2], -x[3])):
    print(f'{n:5d} {d:2d}  {p}:{f}')
if found:
    longest = max(found, key=lambda x: x[2])
    deepest = max(found, key=lambda x: x[3])
    print(f'max lines {longest[2]} ({longest[1]}), '
          f'max depth {deepest[3]} ({deepest[1]})')
