#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the utfconv debug kernel: a small x86_64 kernel from
# linux-source-6.12 with KASAN, UBSAN, KMEMLEAK, lockdep, KFENCE, fault
# injection and KUnit (scripts/debug-kernel.config merged onto
# tinyconfig), for scripts/vm.sh's `debug` kernel.
#
#   scripts/debug-kernel.sh     prints the build directory (O=) on stdout
#
# The build lives outside the clone, in
# $UTFCONV_CACHE/debug-<source version>-<hash of the fragment>/build,
# made under a lock and marked complete by .built, so a fresh clone (CI)
# reuses it. bzImage is build/arch/x86/boot/bzImage; build/source is the
# source tree; `make modules` ran too, so Module.symvers exists for
# `make -C <build>/source O=<build> M=<dir>`. The first build takes a few
# minutes; build-seconds in the directory records how long it took.

. "$(dirname "$0")/lib.sh"

FRAG=$UTFCONV_ROOT/scripts/debug-kernel.config
[ -f "$FRAG" ] || die "missing $FRAG"
ver=$(linux_source_version)
hash=$(sha256sum "$FRAG" | cut -c1-12)
dir=$UTFCONV_CACHE/debug-$ver-$hash
src=$(pristine_source)
mkdir -p "$UTFCONV_CACHE"

# check_config CONFIG: every option of the fragment has its value in CONFIG.
check_config() {
	local missing=0 opt
	while read -r opt; do
		grep -qx "$opt=y" "$1" || { echo "missing: $opt=y"; missing=1; }
	done < <(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/\1/p' "$FRAG")
	while read -r opt; do
		grep -q "^$opt=" "$1" && { echo "should be off: $(grep "^$opt=" "$1")"; missing=1; }
	done < <(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$FRAG")
	return $missing
}

(
	flock 9
	if [ -f "$dir/.built" ] && check_config "$dir/build/.config" >/dev/null; then
		log "debug-kernel: cached build $dir/build"
		exit 0
	fi
	rm -rf "$dir"
	mkdir -p "$dir/build"
	b=$dir/build
	t0=$(date +%s)
	log "debug-kernel: building $src with $FRAG in $b (log $dir/build.log)"
	{
		make -C "$src" O="$b" tinyconfig &&
		"$src/scripts/kconfig/merge_config.sh" -m -O "$b" "$b/.config" "$FRAG" &&
		make -C "$src" O="$b" olddefconfig
	} >"$dir/build.log" 2>&1 || { tail -n 30 "$dir/build.log"; die "configuring failed"; }
	if ! check_config "$b/.config"; then
		die "the final .config lacks options of $FRAG"
	fi
	jobs=$(nproc)
	if ! make -C "$src" O="$b" -j"$jobs" bzImage modules >>"$dir/build.log" 2>&1; then
		grep -a -E 'error|Error' "$dir/build.log" | tail -n 30
		die "building the debug kernel failed (log $dir/build.log)"
	fi
	[ -f "$b/arch/x86/boot/bzImage" ] || die "no bzImage in $b"
	[ -f "$b/Module.symvers" ] || die "no Module.symvers in $b"
	secs=$(( $(date +%s) - t0 ))
	echo "$secs" >"$dir/build-seconds"
	touch "$dir/.built"
	log "debug-kernel: built in ${secs}s"
) 9>"$dir.lock" >&2
printf '%s\n' "$dir/build"
