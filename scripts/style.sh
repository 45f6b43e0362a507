#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Style and static checks, each of which must report nothing:
#  - scripts/checkpatch.pl --strict --no-tree -f and
#    scripts/kernel-doc -none -Wall (from the 6.12 tree in the cache) on
#    kmod/*.[ch], include/**/*.h, kunit/*.[ch];
#  - the module built with W=1 and -Werror against Debian's 6.1 and 6.12
#    headers, in build/style-<release>/;
#  - sparse (C=2) on the 6.12 build.

. "$(dirname "$0")/lib.sh"

cd "$SRC"
mkdir -p build
exec 8>build/.style.lock
if ! flock -n 8; then
	log "style: waiting for another style.sh run in $SRC"
	flock 8
fi
tree=$(pristine_source)
fails=0 checks=0
fail() { echo "style: FAIL: $*"; fails=$((fails + 1)); }

shopt -s nullglob globstar
files=()
for f in kmod/*.c kmod/*.h include/**/*.h kunit/*.c kunit/*.h; do
	case $f in *.mod.c) ;; *) files+=("$f") ;; esac	# not kbuild output
done
[ ${#files[@]} -gt 0 ] || die "no source files"

section "style: checkpatch.pl --strict"
# checkpatch.pl caches CamelCase names in its working directory: run it in
# build/checkpatch/, which links to the sources so that the paths it sees
# (and its rules for include/uapi/) stay those of the tree.
scratch=$SRC/build/checkpatch
mkdir -p "$scratch"
for d in kmod include kunit; do
	ln -sfn "$SRC/$d" "$scratch/$d"
done
for f in "${files[@]}"; do
	checks=$((checks + 1))
	if ! out=$(cd "$scratch" && "$tree/scripts/checkpatch.pl" --strict \
			--no-tree --terse --show-types -f "$f" 2>&1); then
		printf '%s\n' "$out"
		fail "checkpatch: $f"
	fi
done
[ $fails = 0 ] && echo "checkpatch: ${#files[@]} files clean"

section "style: kernel-doc -none -Wall"
n=$fails
for f in "${files[@]}"; do
	checks=$((checks + 1))
	if ! out=$("$tree/scripts/kernel-doc" -none -Wall "$f" 2>&1) ||
			[ -n "$out" ]; then
		printf '%s\n' "$out"
		fail "kernel-doc: $f"
	fi
done
[ $fails = $n ] && echo "kernel-doc: ${#files[@]} files clean"

# build_check KERNEL EXTRA...: W=1 -Werror build (plus EXTRA make args) in
# a fresh copy, so every warning is printed each run.
build_check() {
	local k=$1 rel kdir bdir out rc
	shift
	rel=$(kernel_release "$k")
	kdir=$(kernel_headers "$k")
	bdir=$SRC/build/style-$rel
	section "style: W=1 $* build against $rel"
	checks=$((checks + 1))
	rm -rf "$bdir"
	mkdir -p "$bdir"
	copy_module_tree "$bdir"
	set +e
	out=$(make -C "$kdir" M="$bdir" W=1 KCFLAGS=-Werror "$@" modules 2>&1)
	rc=$?
	set -e
	printf '%s\n' "$out" | grep -v -E '^make(\[[0-9]+\])?: (Entering|Leaving) directory' || true
	if [ $rc != 0 ]; then
		fail "build against $rel (exit $rc)"
	elif printf '%s\n' "$out" | grep -q -E 'warning:|error:'; then
		fail "warnings building against $rel $*"
	else
		echo "build against $rel $*: clean"
	fi
}
build_check 6.1
build_check 6.12 C=2

section "style: summary"
echo "style: $((checks - fails)) passed, $fails failed"
[ $fails = 0 ]
