#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the filesystem drivers of the name experiments out of tree from
# linux-source-6.12 against Debian's 6.12 headers, the stock ones as they
# are in the source (the baseline of the comparison):
#
#   scripts/fs-modules.sh stock      # prints the directory of the build
#
# Each of fs/fat (fat.ko, vfat.ko, msdos.ko), fs/exfat (exfat.ko),
# fs/ntfs3 (ntfs3.ko) and fs/isofs (isofs.ko) is copied from the pristine
# tree of scripts/lib.sh and built with `make -C <headers> M=<copy>`, so
# every module keeps the name and vermagic of the one Debian ships (all
# four are =m in /boot/config-6.12.*) and replaces it in the VM. The build
# is cached in $UTFCONV_CACHE/fs-<source version>-<hash>/stock/<fs>/,
# where <hash> covers this script, so a clean clone reuses it.
#
# Environment: FS_LIST (fat exfat ntfs3 isofs), FS_JOBS (2).

. "$(dirname "$0")/lib.sh"

FS_LIST=${FS_LIST:-fat exfat ntfs3 isofs}
FS_JOBS=${FS_JOBS:-2}

# fs_cache_dir: the cache directory of this source version and scripts.
fs_cache_dir() {
	local h
	h=$(cat "$UTFCONV_ROOT/scripts/fs-modules.sh" | sha256sum | cut -c1-12)
	printf '%s\n' "$UTFCONV_CACHE/fs-$(linux_source_version)-$h"
}

# build_fs KDIR SRCDIR OUTDIR: copy SRCDIR (fs/<name> of a tree) to OUTDIR
# and build its modules there; OUTDIR/.built marks a complete build.
build_fs() {
	local kdir=$1 src=$2 out=$3
	[ -f "$out/.built" ] && return 0
	rm -rf "$out"
	mkdir -p "$out"
	cp -a "$src/." "$out/"
	log "fs-modules: building $(basename "$out") in $out"
	nice make -s -j"$FS_JOBS" -C "$kdir" M="$out" modules >&2
	touch "$out/.built"
}

[ "${1:-}" = stock ] || die "usage: $0 stock"
kdir=$(kernel_headers 6.12)
tree=$(pristine_source)
top=$(fs_cache_dir)
mkdir -p "$top"
(
	flock 9
	for fs in $FS_LIST; do
		build_fs "$kdir" "$tree/fs/$fs" "$top/stock/$fs"
	done
) 9>"$top.lock"
printf '%s\n' "$top/stock"
