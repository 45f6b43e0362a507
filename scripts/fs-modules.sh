#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the filesystem drivers of the name experiments out of tree from
# linux-source-6.12 against Debian's 6.12 headers: the stock ones as they
# are in the source (the baseline of the comparison), and the converted
# ones, which translate names with utfconv:
#
#   scripts/fs-modules.sh stock      # print the directory of the build
#   scripts/fs-modules.sh utfconv
#
# Converted: our patch for what SmPL cannot say
# (scripts/coccinelle/fs/<fs>.patch or <fs>-*.patch, if there is one), then the semantic
# patch scripts/coccinelle/utfconv-fsname.cocci (spatch), then the build
# with utfconv's headers and Module.symvers (utfconv built from this tree
# in build/fs/lib/ like scripts/vm.sh builds it), so every converted
# module depends on utfconv (modinfo depends). Fails when this tree's
# <linux/utfconv.h> does not declare the fsname API.
#
# Each of fs/fat (fat.ko, vfat.ko, msdos.ko), fs/exfat (exfat.ko),
# fs/ntfs3 (ntfs3.ko), fs/isofs (isofs.ko), fs/jfs (jfs.ko), fs/udf
# (udf.ko) and fs/smb (cifs.ko, ksmbd.ko and the modules of fs/smb/common)
# is copied from the pristine tree of scripts/lib.sh and built
# with `make -C <headers> M=<copy>`, so every module keeps the name and
# vermagic of the one Debian ships (all six are =m in
# /boot/config-6.12.*) and replaces it in the VM; fs/nls's private
# headers, which JFS includes as ../nls/, are copied beside them. The build
# is cached in $UTFCONV_CACHE/fs-<source version>-<hash>/{stock,utfconv}/<fs>/,
# where <hash> covers this script and, for the converted ones, the
# semantic patch, our patches and the API headers, so a clean clone
# reuses it.
#
# Environment: FS_LIST (fat exfat ntfs3 isofs jfs udf smb), FS_JOBS (2).

. "$(dirname "$0")/lib.sh"

FS_LIST=${FS_LIST:-fat exfat ntfs3 isofs jfs udf smb}
FS_JOBS=${FS_JOBS:-2}

# fs_cache_dir KIND: the cache directory of this source version and of
# what makes KIND's modules (this script; for utfconv also the semantic
# patch, our patches and the API headers).
fs_cache_dir() {
	local h files=("$UTFCONV_ROOT/scripts/fs-modules.sh")
	if [ "$1" = utfconv ]; then
		files+=("$UTFCONV_ROOT/scripts/coccinelle/utfconv-fsname.cocci"
			"$UTFCONV_ROOT"/scripts/coccinelle/fs/*.patch
			"$SRC/include/linux/utfconv.h" "$SRC/include/uapi/linux/utfconv.h")
	fi
	h=$(cat "${files[@]}" | sha256sum | cut -c1-12)
	printf '%s\n' "$UTFCONV_CACHE/fs-$(linux_source_version)-$h"
}

# convert DIR FS: our patches (FS.patch, or for a directory of several
# filesystems FS-*.patch: smb-client, smb-server), then the semantic
# patch, on the copy DIR.
convert() {
	local p
	for p in "$UTFCONV_ROOT/scripts/coccinelle/fs/$2".patch \
		"$UTFCONV_ROOT/scripts/coccinelle/fs/$2"-*.patch; do
		[ -f "$p" ] || continue
		patch -s -p1 -d "$(dirname "$1")" <"$p" >&2
	done
	nice spatch --very-quiet -D patch --no-includes --include-headers \
		--sp-file "$UTFCONV_ROOT/scripts/coccinelle/utfconv-fsname.cocci" \
		--dir "$1" --in-place >"$1/.spatch.diff"
}

# build_fs KIND KDIR SRCDIR OUTDIR [MAKE ARGS]: copy SRCDIR (fs/<name> of
# a tree) to OUTDIR, convert it for KIND utfconv, build its modules there;
# OUTDIR/.built marks a complete build.
build_fs() {
	local kind=$1 kdir=$2 src=$3 out=$4
	shift 4
	[ -f "$out/.built" ] && return 0
	rm -rf "$out"
	mkdir -p "$out"
	cp -a "$src/." "$out/"
	# fs/jfs includes "../nls/nls_ucs2_data.h"
	mkdir -p "$(dirname "$out")/nls"
	cp "$src/../nls/"*.h "$(dirname "$out")/nls/"
	[ "$kind" = stock ] || convert "$out" "$(basename "$out")"
	asn1_sources "$out"
	log "fs-modules: building $kind $(basename "$out") in $out" >&2
	nice make -s -j"$FS_JOBS" -C "$kdir" M="$out" "$@" modules >&2
	touch "$out/.built"
}

# asn1_sources DIR: the C sources of DIR's ASN.1 grammars (SMB's SPNEGO),
# which kbuild makes with scripts/asn1_compiler, a host program that
# Debian's headers package does not ship: built here from the tree.
asn1_sources() {
	local f c=$UTFCONV_CACHE/asn1_compiler-$(linux_source_version)
	find "$1" -name '*.asn1' | grep -q . || return 0
	[ -x "$c" ] || gcc -O2 -I"$tree/include" -o "$c" \
		"$tree/scripts/asn1_compiler.c" >&2
	find "$1" -name '*.asn1' | while read -r f; do
		"$c" "$f" "${f%.asn1}.asn1.c" "${f%.asn1}.asn1.h"
	done
}

# build_lib KDIR: utfconv from this tree in build/fs/lib/, for its
# Module.symvers; prints that file.
build_lib() {
	local lib=$SRC/build/fs/lib
	copy_module_tree "$lib"
	nice make -s -j"$FS_JOBS" -C "$1" M="$lib" modules >&2
	printf '%s\n' "$lib/Module.symvers"
}

kind=${1:-}
case $kind in
stock|utfconv) ;;
*) die "usage: $0 stock|utfconv" ;;
esac
kdir=$(kernel_headers 6.12)
tree=$(pristine_source)
top=$(fs_cache_dir "$kind")
args=()
if [ "$kind" = utfconv ]; then
	grep -q 'utfconv_fsname_utf16s_to_utf8s(' "$SRC/include/linux/utfconv.h" ||
		die "$SRC/include/linux/utfconv.h does not declare the fsname API"
	command -v spatch >/dev/null || die "spatch missing (run scripts/deps.sh)"
	args=(KBUILD_EXTRA_SYMBOLS="$(build_lib "$kdir")" KCFLAGS="-I$SRC/include")
fi
mkdir -p "$top"
(
	flock 9
	for fs in $FS_LIST; do
		build_fs "$kind" "$kdir" "$tree/fs/$fs" "$top/$kind/$fs" "${args[@]}"
	done
) 9>"$top.lock"
printf '%s\n' "$top/$kind"
