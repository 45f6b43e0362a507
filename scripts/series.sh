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

# lib_files KIND: the library's sources of kmod/ of one kind: fsname (the
# file-name functions), codec (everything else but the device).
lib_files() {
	local f
	for f in "$SRC"/kmod/*.[ch]; do
		case ${f##*/} in
		*.mod.c) ;;
		utfconv_dev.c) ;;
		utfconv_fsname.*) [ "$1" = fsname ] && echo "$f" ;;
		*) [ "$1" = codec ] && echo "$f" ;;
		esac
	done
}

# lib_makefile FSNAME TESTS: lib/utfconv/Makefile from kmod/Kbuild, less
# what only the out-of-tree build needs (the device, include paths), with
# or without the file-name object and the tests. The FPU flags keep their
# fallback: UML, where kunit.py runs the suites, has no CC_FLAGS_FPU.
lib_makefile() {
	{
		echo "# SPDX-License-Identifier: GPL-2.0"
		echo
		awk -v fsname="$1" '
			/^#/ || /^$/ { next }
			/CONFIG_UTFCONV_DEV/ || /^ccflags-y/ { next }
			fsname == "n" { sub(/ utfconv_fsname\.o/, "") }
			{ print }
		' "$SRC/kmod/Kbuild"
		if [ "$2" = y ]; then
			printf '\nobj-$(CONFIG_UTFCONV_KUNIT_TEST) += tests/\n'
		fi
	} >"$TREE/lib/utfconv/Makefile"
}

# --- 1: the codec --------------------------------------------------------
mkdir -p "$TREE/lib/utfconv"
cp "$SRC/include/linux/utfconv.h" "$TREE/include/linux/utfconv.h"
for f in $(lib_files codec); do
	cp "$f" "$TREE/lib/utfconv/"
done
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
lib_makefile n n
sed -i '$a\\nsource "lib/utfconv/Kconfig"' "$TREE/lib/Kconfig"
printf '\nobj-$(CONFIG_UTFCONV) += utfconv/\n' >>"$TREE/lib/Makefile"
# shellcheck disable=SC2046 # one argument per file
maintainers include/linux/utfconv.h lib/utfconv/Kconfig lib/utfconv/Makefile \
	$(lib_files codec | sed 's|.*/|lib/utfconv/|')
commit 01-codec

# --- 2: the file-name functions -----------------------------------------
for f in $(lib_files fsname); do
	cp "$f" "$TREE/lib/utfconv/"
done
lib_makefile y n
# shellcheck disable=SC2046
maintainers $(lib_files fsname | sed 's|.*/|lib/utfconv/|')
commit 02-fsname

# --- 3: the KUnit suites --------------------------------------------------
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
lib_makefile y y
maintainers lib/utfconv/.kunitconfig lib/utfconv/tests/
commit 03-kunit

# --- 4..: one filesystem each ----------------------------------------------
# fs_convert FS CONFIG: our patch where SmPL cannot say it, then the
# semantic patch, and CONFIG selects the library; the names= mount option
# goes into the filesystem's page of Documentation/filesystems/ too.
fs_convert() {
	local p=$UTFCONV_ROOT/scripts/coccinelle/fs/$1.patch
	local doc=$UTFCONV_ROOT/scripts/coccinelle/fs/doc/$1.patch
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
n=4
for fs in fat:FAT_FS exfat:EXFAT_FS ntfs3:NTFS3_FS isofs:JOLIET jfs:JFS_FS udf:UDF_FS; do
	fs_convert "${fs%%:*}" "${fs#*:}"
	commit "$(printf '%02d' $n)-fs-${fs%%:*}"
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
