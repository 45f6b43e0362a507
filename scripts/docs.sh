#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make docs`: build Documentation/ to HTML with Sphinx (Debian
# python3-sphinx) and the kernel-doc extension of the cached 6.12 tree,
# with warnings as errors, into build/docs/html; then check the man pages
# man/*.[1-8] with groff -ww and man -l, which must print nothing.

. "$(dirname "$0")/lib.sh"

cd "$SRC"
tree=$(pristine_source)
out=$SRC/build/docs
fails=0 checks=0
fail() { echo "docs: FAIL: $*"; fails=$((fails + 1)); }

section "docs: sphinx-build -W"
checks=$((checks + 1))
rm -rf "$out/html" "$out/doctrees"
mkdir -p "$out"
if UTFCONV_LINUX_TREE=$tree sphinx-build -b html -W --keep-going -q \
		-d "$out/doctrees" Documentation "$out/html" 2>&1 |
		tee "$out/sphinx.log" && [ ! -s "$out/sphinx.log" ]; then
	echo "docs: HTML in $out/html/index.html"
else
	fail "sphinx-build (log in $out/sphinx.log)"
fi

section "docs: man pages"
shopt -s nullglob
for f in man/*.[1-8]; do
	checks=$((checks + 1))
	w=$(groff -ww -man -z "$f" 2>&1)
	w2=$(LC_ALL=C.UTF-8 MANWIDTH=80 MAN_KEEP_FORMATTING=1 \
		man --warnings -E UTF-8 -l "$f" 2>&1 >/dev/null)
	if [ -n "$w$w2" ]; then
		printf '%s\n' "$w" "$w2"
		fail "man page $f"
	else
		echo "docs: $f clean"
	fi
done

section "docs: summary"
echo "docs: $((checks - fails)) passed, $fails failed"
[ $fails = 0 ]
