#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make series-test`: the series of scripts/series.sh applied as a
# maintainer would take it, on a clean clone of the pristine 6.12 tree:
#
#  - every patch applies with `git am`;
#  - scripts/checkpatch.pl --strict of that tree has nothing to say of it;
#  - after every patch, the directories it touches build for x86-64 with
#    W=1 and no warning in a file of the series (x86_64_defconfig with
#    the converted filesystems, KUnit and utfconv as modules), so that the
#    series bisects;
#    (SERIES_BUILD=0 leaves the builds out: the slice of `make check`,
#    which applies and checks every patch in a minute or two);
#  - SERIES_KUNIT=1: kunit.py build --kunitconfig=lib/utfconv on the
#    patched tree (UML), its kernel run, and kunit.py parse of its console;
#  - SERIES_BOOT=1: the patched tree's kernel booted in QEMU
#    (scripts/series-boot.sh): its built-in KUnit suites pass, and the fs
#    experiments' check slice on its built-in filesystems (no module)
#    gives the bytes the out-of-tree utfconv-wtf8 modules give.
#
# The x86-64 build directory is cached outside the clone,
# $UTFCONV_CACHE/series-<source version>/x86-<config hash>, and so is
# kunit.py's (.../uml); a rerun rebuilds what the series changed.
# Prints one line per check, `series-test: <what>: PASS|FAIL`, and last
# `series-test: N passed, N failed`.
#
# Environment: SERIES_OUT (default build/series), SERIES_BUILD (1),
# SERIES_KUNIT (0),
# SERIES_BOOT (0), SERIES_JOBS (nproc).

. "$(dirname "$0")/lib.sh"

OUT=${SERIES_OUT:-$SRC/build/series}
JOBS=${SERIES_JOBS:-$(nproc)}
"$UTFCONV_ROOT/scripts/series.sh"

ver=$(linux_source_version)
CDIR=$UTFCONV_CACHE/series-$ver
TEST=$OUT/test
# The configuration: Debian's compiler, x86_64_defconfig, and as modules
# what the series touches (symbols it adds are set again after each patch,
# since olddefconfig drops the ones a tree does not know yet). Without
# CONFIG_WERROR, which x86_64_defconfig sets: W=1 finds warnings in files
# the series leaves alone (fs/smb/client/cifsacl.c), and the check below
# is that the series' own files have none.
CONFIG_SET=(-m KUNIT -m NLS -m UTFCONV -m FAT_FS -m VFAT_FS -m EXFAT_FS -m NTFS3_FS
	-m ISO9660_FS -e JOLIET -m JFS_FS -m UDF_FS -m CIFS -m SMB_SERVER
	-m UTFCONV_KUNIT_TEST -m UTFCONV_DEV -d WERROR)
KO=$CDIR/x86-$(printf '%s\n' "${CONFIG_SET[@]}" "$(gcc --version | head -n1)" |
	sha256sum | cut -c1-12)

passed=0 failed=0
result() { # result WHAT OK
	if [ "$2" = 0 ]; then
		echo "series-test: $1: PASS"
		passed=$((passed + 1))
	else
		echo "series-test: $1: FAIL"
		failed=$((failed + 1))
	fi
}

exec 9>"$KO.lock"
if ! flock -n 9; then
	log "series-test: waiting for another run using $KO"
	flock 9
fi

rm -rf "$TEST"
git clone -q --shared "$CDIR/linux" "$TEST"
git -C "$TEST" checkout -q -B test base
maintainer_identity "$TEST"

kconfig() {
	"$TEST/scripts/config" --file "$KO/.config" "${CONFIG_SET[@]}"
	make -s -C "$TEST" O="$KO" olddefconfig
}
if [ ! -f "$KO/.config" ]; then
	mkdir -p "$KO"
	make -s -C "$TEST" O="$KO" x86_64_defconfig
fi
if [ "${SERIES_BUILD:-1}" = 1 ]; then
	kconfig
	log "series-test: preparing $KO"
	nice make -s -C "$TEST" O="$KO" -j"$JOBS" modules_prepare
fi

# build_dirs: the directories of the C files the last commit touched.
build_dirs() {
	git -C "$TEST" diff --name-only HEAD~1 HEAD -- '*.c' '*.h' |
		grep -v '^include/' | xargs -r -n1 dirname | sort -u |
		sed 's|$|/|'
}

# The series' own files: where a warning counts.
series_files=$(cat "$OUT"/0*.patch | sed -n 's|^+++ b/||p' | sort -u)

for p in "$OUT"/0*.patch; do
	name=${p##*/}
	[ "$name" = 0000-cover-letter.patch ] && continue
	if ! git -C "$TEST" am -q "$p"; then
		result "$name: git am" 1
		git -C "$TEST" am --abort
		break
	fi
	result "$name: git am" 0

	# checkpatch calls two kinds of names CamelCase that a patch cannot
	# change: a filesystem's mount options, Opt_* enumerators (its own
	# naming), and names the tree had before the patch (JFS's
	# jfs_strfromUCS_le()). The CHECK on those is dropped, every other
	# word of checkpatch's stays.
	cp=$(cd "$TEST" && { perl scripts/checkpatch.pl --strict --no-tree -q \
		--no-summary "$p" 2>&1 || true; } | python3 -c '
import re, subprocess, sys
for block in sys.stdin.read().split("\n\n"):
    m = re.match(r"CHECK: Avoid CamelCase: <(\w+)>\n", block)
    if m and (m[1].startswith("Opt_") or subprocess.run(
            ["git", "grep", "-q", "-w", m[1], "HEAD~1", "--"]).returncode == 0):
        continue
    if block.strip():
        print(block.strip() + "\n")
')
	[ -z "$cp" ] || printf '%s\n' "$cp"
	result "$name: checkpatch --strict" "$([ -z "$cp" ]; echo $?)"

	[ "${SERIES_BUILD:-1}" = 1 ] || continue
	kconfig
	dirs=$(build_dirs)
	blog=$OUT/build-${name%.patch}.log
	rc=0
	touch "$OUT/.build-start"
	# shellcheck disable=SC2086
	nice make -C "$TEST" O="$KO" -j"$JOBS" W=1 $dirs >"$blog" 2>&1 || rc=$?
	# Every C file the patch touched was compiled by this build: a file
	# left out by the configuration would pass unbuilt.
	for f in $(git -C "$TEST" diff --name-only HEAD~1 HEAD -- '*.c'); do
		if [ ! "$KO/${f%.c}.o" -nt "$OUT/.build-start" ]; then
			echo "series-test: $f: not compiled by this build (configuration?)"
			rc=1
		fi
	done
	warn=$(grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$blog" |
		grep -F -f <(printf '%s:\n' $series_files) || true)
	[ -z "$warn" ] || printf '%s\n' "$warn"
	[ "$rc" = 0 ] || tail -n 20 "$blog"
	result "$name: W=1 build of $(echo $dirs)" "$([ "$rc" = 0 ] && [ -z "$warn" ]; echo $?)"
done

if [ "${SERIES_KUNIT:-0}" = 1 ] && [ "$failed" = 0 ]; then
	# kunit.py builds and parses; the UML kernel writes its console to a
	# file in between, as scripts/kunit.sh has it: under `kunit.py run`
	# UML writes to a non-blocking pipe and drops lines of long suites.
	rc=0
	(cd "$TEST" && nice python3 ./tools/testing/kunit/kunit.py build \
		--kunitconfig=lib/utfconv --build_dir="$CDIR/uml" \
		--jobs="$JOBS" &&
	 timeout -k 10 1200 nice "$CDIR/uml/linux" kunit.enable=1 mem=1G \
		console=tty kunit_shutdown=halt </dev/null >"$OUT/kunit-raw.log" 2>&1 &&
	 python3 ./tools/testing/kunit/kunit.py parse "$OUT/kunit-raw.log") \
		>"$OUT/kunit.log" 2>&1 || rc=$?
	grep -a 'Testing complete\.' "$OUT/kunit.log" || tail -n 20 "$OUT/kunit.log"
	result "kunit.py build, UML, kunit.py parse (lib/utfconv)" "$rc"
fi

if [ "${SERIES_BOOT:-0}" = 1 ] && [ "$failed" = 0 ]; then
	rc=0
	"$UTFCONV_ROOT/scripts/series-boot.sh" "$TEST" 2>&1 |
		tee "$OUT/boot.log" || rc=$?
	result "series kernel boot: built-in KUnit, fs-experiments intree" "$rc"
fi

echo "series-test: $passed passed, $failed failed"
[ "$failed" = 0 ]
