#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make series`: the project as a `git format-patch` series against
# Debian's linux-source-6.12, the way it would be sent upstream. Every
# patch is made here from the project's own files (kmod/, kunit/,
# include/, the semantic patch and scripts/coccinelle/fs/), never edited
# by hand; the commit messages and the cover letter are scripts/series/.
#
#   scripts/series.sh            write build/series/*.patch
#
# The pristine tree becomes a one-commit git repository in the cache,
# $UTFCONV_CACHE/series-<source version>/linux (made once); the series is
# committed on a clone of it in build/series/tree and written by
# `git format-patch --cover-letter` to build/series/. Author, committer
# and dates are those of this project's HEAD, so that one HEAD always
# gives the same series.
#
# What the out-of-tree build needs and an in-tree one does not stays out:
# kmod/compat/, the 6.1 fallbacks of kmod/Kbuild, the include paths.
#
# Debian's .gitignore ignores every top-level path of its tree, so files
# are added with -f.
#
# Environment: SERIES_OUT (default build/series).

. "$(dirname "$0")/lib.sh"

OUT=${SERIES_OUT:-$SRC/build/series}
MSGS=$UTFCONV_ROOT/scripts/series
ver=$(linux_source_version)
CDIR=$UTFCONV_CACHE/series-$ver
BASE=$CDIR/linux
TREE=$OUT/tree
mkdir -p "$CDIR" "$OUT"
command -v spatch >/dev/null || die "spatch missing (run scripts/deps.sh)"

# Who sends it: this project's HEAD, for every commit of the series.
GIT_AUTHOR_NAME=$(git -C "$SRC" log -1 --format=%an HEAD)
GIT_AUTHOR_EMAIL=$(git -C "$SRC" log -1 --format=%ae HEAD)
GIT_AUTHOR_DATE=$(git -C "$SRC" log -1 --format=%aI HEAD)
GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE \
	GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE

# --- the base: the pristine tree as one commit, tagged "base" ------------
exec 9>"$CDIR.lock"
flock 9
if [ ! -f "$CDIR/base.done" ]; then
	log "series: making the base repository $BASE (once)"
	rm -rf "$BASE"
	extract_source "$BASE"
	rm -f "$BASE/.extracted"
	git -C "$BASE" init -q
	git -C "$BASE" add -A -f
	git -C "$BASE" -c user.name=Debian -c user.email=debian-kernel@lists.debian.org \
		commit -q -m "Linux $ver (Debian linux-source-6.12)"
	git -C "$BASE" tag -f base >/dev/null
	touch "$CDIR/base.done"
fi
flock -u 9

if [ ! -d "$TREE/.git" ]; then
	rm -rf "$TREE"
	git clone -q --shared "$BASE" "$TREE"
fi
git -C "$TREE" fetch -q --tags origin
git -C "$TREE" checkout -q -f -B series base
git -C "$TREE" clean -q -fdx

# commit NAME: commit everything under the tree with scripts/series/NAME.txt
# as the message (its first line the subject) and a Signed-off-by.
commit() {
	local msg=$MSGS/$1.txt
	[ -f "$msg" ] || die "no message $msg"
	git -C "$TREE" add -A -f
	git -C "$TREE" commit -q -s -F "$msg"
}

# maintainers FILE...: FILE... listed in the project's MAINTAINERS entry
# (scripts/series-maintainers.py): each patch lists the files it adds.
maintainers() {
	python3 "$UTFCONV_ROOT/scripts/series-maintainers.py" "$TREE/MAINTAINERS" \
		"$GIT_AUTHOR_NAME" "$GIT_AUTHOR_EMAIL" "$@"
}

# lib_files KIND: the library's sources of kmod/ of one kind, each in its
# own patch: codec (the portable codec, with the headers it includes,
# whose hooks are constants without the x86-64 symbols), x86 (the
# dispatch and the BMI2 steps' key), sse2, avx2, avx512 (the SIMD paths of
# each instruction set), fsname (the file-name functions).
lib_files() {
	local f k
	for f in "$SRC"/kmod/*.[ch]; do
		case ${f##*/} in
		*.mod.c | utfconv_dev.c) continue ;;
		utfconv_fsname*) k=fsname ;;
		utfconv_x86.c) k=x86 ;;
		utfconv_sse2.c | utfconv_sse.h | utfconv_simd_tables.*) k=sse2 ;;
		utfconv_avx2*) k=avx2 ;;
		utfconv_avx512*) k=avx512 ;;
		*) k=codec ;;
		esac
		[ "$k" = "$1" ] && echo "$f"
	done
}

# kbuild_var NAME: the value of NAME := ... in kmod/Kbuild, continuation
# lines joined: the flags of an instruction set's objects, which
# lib/utfconv/Kconfig tests as kmod/Kbuild's out-of-tree block does.
kbuild_var() {
	awk -v n="$1" '
		{ line = line $0 }
		/\\$/ { sub(/\\$/, "", line); next }
		{
			if (index(line, n " := ") == 1)
				print substr(line, length(n) + 5)
			line = ""
		}
	' "$SRC/kmod/Kbuild" | tr -s '\t ' '  '
}

# lib_makefile ISAS FSNAME TESTS: lib/utfconv/Makefile from kmod/Kbuild,
# less what only the out-of-tree build needs (the device, include paths,
# the block that stands in for Kconfig there), with the paragraphs of the
# instruction sets in ISAS (x86 sse2 avx2 avx512) only, with or without
# the file-name object and the tests. A paragraph (the lines between blank
# ones, comments left out) belongs to an instruction set where it names
# its symbol or defines its flags. The FPU flags keep their fallback:
# UML, where kunit.py runs the suites, has no CC_FLAGS_FPU.
lib_makefile() {
	{
		echo "# SPDX-License-Identifier: GPL-2.0"
		echo
		awk -v isas=" $1 " -v fsname="$2" '
			BEGIN {
				RS = ""; FS = "\n"
				key["x86"] = "CONFIG_UTFCONV_X86"
				key["sse2"] = "CONFIG_UTFCONV_SSE2|(^|\n)UTFCONV_FPU_FLAGS :="
				key["avx2"] = "CONFIG_UTFCONV_AVX2|(^|\n)UTFCONV_AVX2_FLAGS :="
				key["avx512"] = "CONFIG_UTFCONV_AVX512|(^|\n)UTFCONV_AVX512_FLAGS :="
			}
			{
				out = ""
				for (i = 1; i <= NF; i++) {
					l = $i
					if (l ~ /^#/ || l ~ /CONFIG_UTFCONV_DEV/ ||
					    l ~ /^ccflags-y/)
						continue
					if (fsname == "n")
						gsub(/ utfconv_fsname[a-z0-9_]*\.o/, "", l)
					out = out l "\n"
				}
				if (out == "" || out ~ /UTFCONV_ISA/)
					next
				for (k in key)
					if (index(isas, " " k " ") == 0 && out ~ key[k])
						next
				printf "%s%s", (n++ ? "\n" : ""), out
			}
		' "$SRC/kmod/Kbuild"
		if [ "$3" = y ]; then
			printf '\nobj-$(CONFIG_UTFCONV_KUNIT_TEST) += tests/\n'
		fi
	} >"$TREE/lib/utfconv/Makefile"
}

# lib_patch KIND NAME ISAS: the library's files of KIND, its Makefile with
# ISAS, the files in MAINTAINERS, committed with scripts/series/NAME.txt.
lib_patch() {
	local f
	for f in $(lib_files "$1"); do
		cp "$f" "$TREE/lib/utfconv/"
	done
	lib_makefile "$3" n n
	# shellcheck disable=SC2046 # one argument per file
	maintainers $(lib_files "$1" | sed 's|.*/|lib/utfconv/|')
	commit "$2"
}

# --- 1: the portable codec -------------------------------------------------
# The headers the portable code includes (utfconv_x86.h, utfconv_simd.h,
# utfconv_bmi2.h) test the x86-64 symbols of patches 2-5, unset here:
# their hooks are constants and the codec is the scalar paths alone.
mkdir -p "$TREE/lib/utfconv"
cp "$SRC/include/linux/utfconv.h" "$TREE/include/linux/utfconv.h"
cat >"$TREE/lib/utfconv/Kconfig" <<'EOF'
# SPDX-License-Identifier: GPL-2.0

config UTFCONV
	tristate "UTF-8 <-> UTF-16 conversion library"
	help
	  Streaming UTF-8 <-> UTF-16 codec (<linux/utfconv.h>), exact to
	  the Unicode Standard, with strict, replacing, skipping and WTF-8
	  policies and exact error offsets. The filesystems that translate
	  names with it select it; say M here to build it for other code.
EOF
sed -i '$a\\nsource "lib/utfconv/Kconfig"' "$TREE/lib/Kconfig"
printf '\nobj-$(CONFIG_UTFCONV) += utfconv/\n' >>"$TREE/lib/Makefile"
maintainers include/linux/utfconv.h lib/utfconv/Kconfig lib/utfconv/Makefile
lib_patch codec 01-codec ""

# --- 2..5: the x86-64 paths, one instruction set each -----------------------
# Each a hidden symbol (kmod/Kbuild says what each builds), set where the
# compiler takes the flags kmod/Kbuild gives its objects, as lib/raid6's
# AVX-512 code is built only with CONFIG_AS_AVX512.
cat >>"$TREE/lib/utfconv/Kconfig" <<'EOF'

config UTFCONV_X86
	def_bool UTFCONV && X86_64
	help
	  The x86-64 CPU dispatch of utfconv, and the BMI2 steps (PDEP
	  and PEXT) of its scalar paths where the CPU runs them fast.
EOF
lib_patch x86 02-x86 "x86"

cat >>"$TREE/lib/utfconv/Kconfig" <<'EOF'

config UTFCONV_SSE2
	def_bool UTFCONV_X86
	help
	  utfconv's SSE2 and SSSE3 paths for large buffers.
EOF
lib_patch sse2 03-sse2 "x86 sse2"

cat >>"$TREE/lib/utfconv/Kconfig" <<EOF

config UTFCONV_AVX2
	def_bool UTFCONV_SSE2 && \$(cc-option,$(kbuild_var UTFCONV_AVX2_FLAGS))
	help
	  utfconv's AVX2 paths, where the compiler builds AVX2 code.
EOF
lib_patch avx2 04-avx2 "x86 sse2 avx2"

cat >>"$TREE/lib/utfconv/Kconfig" <<EOF

config UTFCONV_AVX512
	def_bool UTFCONV_AVX2 && \$(cc-option,$(kbuild_var UTFCONV_AVX512_FLAGS))
	help
	  utfconv's AVX-512 paths (F, BW, VL, VBMI and VBMI2), where the
	  compiler builds them (GCC 8, clang 6 and later).
EOF
ISAS="x86 sse2 avx2 avx512"
lib_patch avx512 05-avx512 "$ISAS"

# --- 6: the file-name functions -----------------------------------------
for f in $(lib_files fsname); do
	cp "$f" "$TREE/lib/utfconv/"
done
lib_makefile "$ISAS" y n
# shellcheck disable=SC2046
maintainers $(lib_files fsname | sed 's|.*/|lib/utfconv/|')
commit 06-fsname

# --- 7: the KUnit suites --------------------------------------------------
T=$TREE/lib/utfconv/tests
mkdir -p "$T"
python3 "$SRC/scripts/gen_vectors.py" --kunit "$T/utfconv_vectors_gen.h"
for f in "$SRC"/kunit/*.c "$SRC"/kunit/*.h; do
	case ${f##*/} in utfconv_vectors_gen.h) continue ;; esac
	sed 's|"\.\./kmod/|"../|' "$f" >"$T/${f##*/}"
done
awk '/^#/ || /^$/ || /utfconv_vectors_gen\.h/ || /^ccflags-y/ { next } { print }' \
	"$SRC/kunit/Kbuild" | sed '1i # SPDX-License-Identifier: GPL-2.0\n' >"$T/Makefile"
cat >>"$TREE/lib/utfconv/Kconfig" <<'EOF'

config UTFCONV_KUNIT_TEST
	tristate "KUnit tests for utfconv" if !KUNIT_ALL_TESTS
	depends on KUNIT
	select UTFCONV
	default KUNIT_ALL_TESTS
	help
	  KUnit suites of the utfconv library: the Unicode Standard's
	  examples, every split of every case across calls, every output
	  capacity and cases from real bug reports, each run on every
	  codec path the CPU has (scalar and SIMD), and its file name
	  functions next to fs/nls.

	  If unsure, say N.
EOF
printf 'CONFIG_KUNIT=y\nCONFIG_NLS=y\nCONFIG_UTFCONV_KUNIT_TEST=y\n' \
	>"$TREE/lib/utfconv/.kunitconfig"
lib_makefile "$ISAS" y y
maintainers lib/utfconv/.kunitconfig lib/utfconv/tests/
commit 07-kunit

# --- 8..: one filesystem each ----------------------------------------------
# fs_convert FS CONFIG: our patch where SmPL cannot say it, then the
# semantic patch, and CONFIG selects the library; the names= mount option
# goes into the filesystem's page of Documentation/filesystems/ too.
# FS is a directory of fs/ (smb/client: its patch is smb-client.patch).
fs_convert() {
	local p=$UTFCONV_ROOT/scripts/coccinelle/fs/${1//\//-}.patch
	local doc=$UTFCONV_ROOT/scripts/coccinelle/fs/doc/${1//\//-}.patch
	if [ -f "$p" ]; then
		patch -s -p1 -d "$TREE/fs" <"$p"
	fi
	if [ -f "$doc" ]; then
		patch -s -p1 -d "$TREE" <"$doc"
	fi
	spatch --very-quiet -D patch --no-includes --include-headers \
		--sp-file "$UTFCONV_ROOT/scripts/coccinelle/utfconv-fsname.cocci" \
		--dir "$TREE/fs/$1" --in-place >/dev/null
	python3 - "$TREE/fs/$1/Kconfig" "$2" <<'EOF2' ||
import re, sys
p, name = sys.argv[1:3]
t = open(p).read()
m = re.search(r"^config %s\n(?:(?!config ).*\n)*?\tselect NLS\n" % name, t, re.M)
if not m:
    sys.exit(1)
open(p, "w").write(t[:m.end()] + "\tselect UTFCONV\n" + t[m.end():])
EOF2
		die "fs/$1/Kconfig: no 'select NLS' under config $2 to add UTFCONV beside"
}
n=8
for fs in fat:FAT_FS exfat:EXFAT_FS ntfs3:NTFS3_FS isofs:JOLIET jfs:JFS_FS \
	udf:UDF_FS smb/client:CIFS smb/server:SMB_SERVER; do
	fs_convert "${fs%%:*}" "${fs#*:}"
	name=${fs%%:*}
	commit "$(printf '%02d' $n)-fs-${name//\//-}"
	n=$((n + 1))
done

# --- last: the device -------------------------------------------------------
# The UAPI header is the device's alone: the library has its own constants.
cp "$SRC/include/uapi/linux/utfconv.h" "$TREE/include/uapi/linux/utfconv.h"
cp "$SRC/kmod/utfconv_dev.c" "$TREE/drivers/misc/utfconv_dev.c"
cat >>"$TREE/drivers/misc/Kconfig" <<'EOF'

config UTFCONV_DEV
	tristate "UTF-8 <-> UTF-16 conversion device /dev/utfconv"
	select UTFCONV
	help
	  The character device /dev/utfconv: every open file is a
	  conversion stream, fed with write() and read with read(), set up
	  with ioctls (<uapi/linux/utfconv.h>). The command line tool
	  utfconv(1) uses it.

	  To compile it as a module, choose M here: the module will be
	  called utfconv_dev.
EOF
# drivers/misc/Kconfig ends with the menu's end and sourced files: put the
# entry before the first "source" line instead of after them.
python3 - "$TREE/drivers/misc/Kconfig" <<'EOF'
import sys
p = sys.argv[1]
t = open(p).read()
i = t.index("\nconfig UTFCONV_DEV\n")
entry, t = t[i:], t[:i]
j = t.index("\nsource ")
open(p, "w").write(t[:j] + entry + t[j:])
EOF
echo 'obj-$(CONFIG_UTFCONV_DEV)	+= utfconv_dev.o' >>"$TREE/drivers/misc/Makefile"
sed -i '/^0xB8  01-02  uapi\/misc\/mrvl_cn10k_dpi.h/a 0xBF  00-0F  uapi/linux/utfconv.h                                      UTF-8 <-> UTF-16 conversion device /dev/utfconv' \
	"$TREE/Documentation/userspace-api/ioctl/ioctl-number.rst"
maintainers drivers/misc/utfconv_dev.c include/uapi/linux/utfconv.h
commit "$(printf '%02d' $n)-device"

# --- the series -------------------------------------------------------------
rm -f "$OUT"/*.patch
git -C "$TREE" format-patch -q --cover-letter --thread=shallow \
	-o "$OUT" base..series
python3 "$UTFCONV_ROOT/scripts/series-cover.py" "$OUT" "$MSGS/cover.txt" "$TREE"
log "series: $(ls "$OUT"/*.patch | wc -l) files in $OUT:"
ls "$OUT"/*.patch | sed 's|.*/|  |'
