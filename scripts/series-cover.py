#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fill in the cover letter of the series that scripts/series.sh wrote.

series-cover.py OUT COVER TREE

OUT/0000-cover-letter.patch gets COVER's first line as its subject and
the rest as its text, then the fs-experiments table of
Documentation/fsname.rst with the command that prints it, then, for
each patch, whom scripts/get_maintainer.pl of TREE names for it.
"""

import pathlib
import re
import subprocess
import sys


def fs_table(doc):
    """The fs-experiments lines of the documentation's first run."""
    lines = []
    for l in doc.read_text().splitlines():
        if l.strip().startswith("fs-experiments: "):
            lines.append(l.strip())
            if re.match(r"fs-experiments: \d+ passed", l.strip()):
                break
    return lines


def maintainers(tree, patch):
    """get_maintainer.pl's addresses for one patch, one per line."""
    out = subprocess.run(
        ["perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
         "--no-rolestats", "--no-tree", str(patch)],
        cwd=tree, capture_output=True, text=True, check=True).stdout
    return [l for l in out.splitlines() if l.strip()]


def main():
    out, cover, tree = map(pathlib.Path, sys.argv[1:4])
    letter = out / "0000-cover-letter.patch"
    subject, _, blurb = cover.read_text().partition("\n")
    root = pathlib.Path(__file__).resolve().parent.parent
    table = fs_table(root / "Documentation" / "fsname.rst")
    text = blurb.strip("\n") + "\n"
    if table:
        text += ("\nNames on the images, stock and converted drivers "
                 "(make fs-experiments in the\nutfconv project; "
                 "Documentation/fsname.rst there):\n\n")
        text += "".join("  " + l + "\n" for l in table)
    text += "\nscripts/get_maintainer.pl --no-git per patch:\n"
    for p in sorted(out.glob("0*.patch")):
        if p.name == letter.name:
            continue
        text += "\n  " + p.name + ":\n"
        text += "".join("    " + m + "\n" for m in maintainers(tree, p))
    body = letter.read_text()
    if "*** SUBJECT HERE ***" not in body or "*** BLURB HERE ***" not in body:
        sys.exit("series-cover.py: %s has no placeholders" % letter)
    body = body.replace("*** SUBJECT HERE ***", subject.strip(), 1)
    body = body.replace("*** BLURB HERE ***", text.rstrip("\n"), 1)
    letter.write_text(body)


if __name__ == "__main__":
    main()
