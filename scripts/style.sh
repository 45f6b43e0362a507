#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Style and static checks, each of which must report nothing:
#  - scripts/checkpatch.pl --strict --no-tree -f and
#    scripts/kernel-doc -none -Wall (from the 6.12 tree in the cache) on
#    kmod/*.[ch], include/**/*.h, kunit/*.[ch];
#  - the module built with W=1 and -Werror against Debian's 6.1 and 6.12
#    headers, in build/style-<release>/;
#  - sparse (C=2) on the 6.12 build;
#  - the module built with clang (LLVM=1), W=1 and -Werror against a 6.12
#    tree configured for clang in the cache (Debian's headers are
#    configured for gcc, whose flags clang rejects): x86_64_defconfig and
#    modules_prepare, once (minutes), in ~/.cache/utfconv/clang-<version>/.

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

# clang_tree: the 6.12 tree configured for LLVM=1, prepared once.
clang_tree() {
	local d=$UTFCONV_CACHE/clang-$(linux_source_version)
	(
		flock 9
		if [ ! -f "$d/.prepared" ]; then
			extract_source "$d"
			make -C "$d" -s LLVM=1 x86_64_defconfig
			make -C "$d" -s LLVM=1 -j"$(nproc)" modules_prepare
			touch "$d/.prepared"
		fi
	) 9>"$d.lock" >&2
	printf '%s\n' "$d"
}

# clang W=1 -Werror build. The tree has no vmlinux symbol table, so
# modpost may only warn about the kernel's symbols (KBUILD_MODPOST_WARN).
section "style: clang (LLVM=1) W=1 build against 6.12"
checks=$((checks + 1))
ctree=$(clang_tree)
bdir=$SRC/build/style-clang
rm -rf "$bdir"
mkdir -p "$bdir"
copy_module_tree "$bdir"
set +e
out=$(make -C "$ctree" M="$bdir" LLVM=1 W=1 KCFLAGS=-Werror \
	KBUILD_MODPOST_WARN=1 modules 2>&1)
rc=$?
set -e
printf '%s\n' "$out" | grep -v -E '^make(\[[0-9]+\])?: (Entering|Leaving) directory' |
	grep -v -E '^WARNING: modpost: ' || true
if [ $rc != 0 ]; then
	fail "clang build (exit $rc)"
elif printf '%s\n' "$out" | grep -v -E '^WARNING: modpost: ' |
		grep -q -E 'warning:|error:'; then
	fail "warnings in the clang build"
else
	echo "clang build against $(make -s -C "$ctree" kernelrelease): clean"
fi

section "style: summary"
echo "style: $((checks - fails)) passed, $fails failed"
[ $fails = 0 ]
