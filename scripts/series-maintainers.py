#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Add files to utfconv's entry of a kernel tree's MAINTAINERS.

series-maintainers.py MAINTAINERS NAME EMAIL FILE...

Makes the entry the first time, before the first entry whose title sorts
after it, with NAME <EMAIL> as its maintainer, and lists FILE... among
its F: lines, in order (checkpatch.pl wants them sorted). scripts/
series.sh calls it for each patch with the files that patch adds, so that
checkpatch.pl sees a maintainer given to every new file.
"""

import re
import sys

TITLE = "UTFCONV UTF-8 AND UTF-16 CONVERSION LIBRARY"


def add_entry(text, name, email):
    """TEXT with an empty entry for utfconv where it sorts."""
    entry = (f"{TITLE}\nM:\t{name} <{email}>\n"
             "L:\tlinux-fsdevel@vger.kernel.org\nS:\tMaintained\n\n")
    # entries follow the "Maintainers List" heading: an upper-case title
    # line, its fields, a blank line
    start = text.index("\n\n", text.index("Maintainers List"))
    for m in re.finditer(r"\n\n([A-Z0-9][^\n]*)\n[A-Z]:\t", text[start:]):
        if m.group(1) > TITLE:
            pos = start + m.start(1)
            return text[:pos] + entry + text[pos:]
    sys.exit("series-maintainers.py: no entry sorts after " + TITLE)


def main():
    path, name, email, *files = sys.argv[1:]
    text = open(path).read()
    if "\n" + TITLE + "\n" not in text:
        text = add_entry(text, name, email)
    head = text.index("\n" + TITLE + "\n") + 1
    end = text.index("\n\n", head) + 1
    lines = text[head:end].splitlines()
    fields = [l for l in lines[1:] if not l.startswith("F:\t")]
    pats = sorted({l[3:] for l in lines[1:] if l.startswith("F:\t")} |
                  set(files))
    block = "\n".join([lines[0]] + fields + ["F:\t" + f for f in pats]) + "\n"
    open(path, "w").write(text[:head] + block + text[end:])


if __name__ == "__main__":
    main()
