#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series kernel booted (part of `make series-test`): a bzImage of the
# tree with the series applied, configured by scripts/series-kernel.config
# on tinyconfig (the library, its KUnit suites, the device and the
# converted filesystems all built in), booted in QEMU (TCG) by
# scripts/vm.sh with the payload of the fs experiments:
#
#  - the library's KUnit suites run built in at boot; their KTAP, from the
#    kernel log, is parsed by the tree's kunit.py and must pass;
#  - the fs experiments on every filesystem the series converts (vfat,
#    isofs, exFAT, ntfs3, JFS and UDF: images and creates and renames)
#    run under the driver "intree", the filesystems built into this
#    kernel mounted without names= (the default, wtf8), no module loaded,
#    and are judged against the same expected bytes as the out-of-tree
#    utfconv-wtf8 modules (userspace-test/fs/fsexp.py).
#
#   scripts/series-boot.sh [TREE]
#
# TREE: a git tree with the series applied (scripts/series-test.sh passes
# its own); without it, the series of build/series/ is applied with
# `git am` to a clone of the cached base. The build is cached, per
# fragment and compiler, in $UTFCONV_CACHE/series-<source version>/
# boot-<hash>/ (build/, and linux/: the tree, checked out at TREE's HEAD),
# with the git tree hash it was built from: a rerun of an unchanged series
# only boots, a changed one rebuilds what changed. Prints vm.sh's and fs-experiments.sh's
# lines, "N passed, N failed (KUnit in the series kernel, ...)" and
# "fs-experiments: N passed, N failed".
#
# Environment: SERIES_OUT (build/series), SERIES_JOBS (nproc),
# SERIES_FS_SLICE (empty: every filesystem; check: the check slice of
# `make check`, vfat, isofs and JFS's writes),
# SERIES_SWEEP_STRIDE (251: utfconv_kunit.sweep_stride of the boot, every
# N-th value of the exhaustive sweeps; 1 visits them all).

. "$(dirname "$0")/lib.sh"

OUT=${SERIES_OUT:-$SRC/build/series}
JOBS=${SERIES_JOBS:-$(nproc)}
ver=$(linux_source_version)
CDIR=$UTFCONV_CACHE/series-$ver
FRAG=$UTFCONV_ROOT/scripts/series-kernel.config

TREE=${1:-}
if [ -z "$TREE" ]; then
	[ -f "$CDIR/base.done" ] || die "no $CDIR/linux: run scripts/series.sh first"
	TREE=$OUT/boot-tree
	rm -rf "$TREE"
	git clone -q --shared "$CDIR/linux" "$TREE"
	git -C "$TREE" checkout -q -B boot base
	maintainer_identity "$TREE"
	for p in "$OUT"/0*.patch; do
		[ "${p##*/}" = 0000-cover-letter.patch ] && continue
		git -C "$TREE" am -q "$p" || die "git am ${p##*/} failed"
	done
fi

# The build directory per configuration, with a source tree of its own
# that is checked out at the series' commit: git rewrites only the files
# that differ, so kbuild rebuilds only what the series changed since the
# last build; built-tree names the git tree hash last built, and an
# unchanged series is not built at all.
dir=$CDIR/boot-$({ cat "$FRAG"; gcc --version | head -n1; } | sha256sum | cut -c1-12)
src=$dir/linux
b=$dir/build

# check_config CONFIG: every CONFIG_*=y of the fragment is in CONFIG.
check_config() {
	local missing=0 opt
	while read -r opt; do
		grep -qx "$opt=y" "$1" || { echo "missing: $opt=y"; missing=1; }
	done < <(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/\1/p' "$FRAG")
	return $missing
}

(
	flock 9
	[ -d "$src/.git" ] || git clone -q --shared "$CDIR/linux" "$src"
	git -C "$src" fetch -q "$(cd "$TREE" && pwd)" HEAD
	git -C "$src" checkout -q -f FETCH_HEAD
	tree=$(git -C "$src" rev-parse 'HEAD^{tree}')
	if [ -f "$b/arch/x86/boot/bzImage" ] && [ "$(cat "$dir/built-tree" 2>/dev/null)" = "$tree" ]; then
		log "series-boot: cached kernel $b (tree $tree)"
		exit 0
	fi
	rm -f "$dir/built-tree"
	mkdir -p "$b"
	t0=$(date +%s)
	log "series-boot: building $src ($(git -C "$src" log -1 --format='%h %s')) with $FRAG in $b (log $dir/build.log)"
	{
		if [ ! -f "$b/.config" ]; then
			make -C "$src" O="$b" tinyconfig &&
			"$src/scripts/kconfig/merge_config.sh" -m -O "$b" "$b/.config" "$FRAG"
		fi &&
		make -C "$src" O="$b" olddefconfig
	} >"$dir/build.log" 2>&1 || { tail -n 30 "$dir/build.log"; die "configuring failed"; }
	check_config "$b/.config" || die "the final .config lacks options of $FRAG"
	if ! nice make -C "$src" O="$b" -j"$JOBS" bzImage >>"$dir/build.log" 2>&1; then
		grep -a -E 'error|Error' "$dir/build.log" | tail -n 30
		die "building the series kernel failed (log $dir/build.log)"
	fi
	[ -f "$b/arch/x86/boot/bzImage" ] || die "no bzImage in $b"
	secs=$(( $(date +%s) - t0 ))
	echo "$tree" >"$dir/built-tree"
	log "series-boot: built in ${secs}s"
) 9>"$dir.lock" || exit 1

stride=${SERIES_SWEEP_STRIDE:-251}
SERIES_KERNEL_BUILD=$b FS_KERNEL=series FS_SLICE=${SERIES_FS_SLICE:-} \
	VM_SERIES_APPEND="utfconv_kunit.sweep_stride=$stride" \
	"$UTFCONV_ROOT/scripts/fs-experiments.sh"
