#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The iconv-compatible cases of the CLI, run with either converter:
#   sh iconv-cases.sh utfconv|iconv OUTDIR    (from the project's top)
# For each case NAME it leaves OUTDIR/NAME.out (standard output),
# NAME.err, NAME.rc (exit status) and, for -o cases, NAME.o. The inputs
# are in build/run-test/in/ (scripts/vm-run-test.sh makes them).
# scripts/vm-run-test.sh runs it with utfconv in the VM (scripts/vm.sh
# run) and with glibc iconv on the host, and compares the two.

CONV=$1
OUT=$2
I=build/run-test/in
[ -n "$CONV" ] && [ -n "$OUT" ] || { echo "usage: $0 utfconv|iconv OUTDIR" >&2; exit 2; }
mkdir -p "$OUT" || exit 2

# case NAME STDIN PREFILL ARG...: run CONV ARG... with STDIN ("-": none);
# PREFILL ("-": none, "old": the text "old", else a file) is put in
# OUTDIR/NAME.o first, and an ARG "@o" stands for that file.
case_() {
	name=$1 stdin=$2 pre=$3
	shift 3
	o=$OUT/$name.o
	rm -f "$o"
	case $pre in
	-) ;;
	old) printf old > "$o" ;;
	*) cp "$pre" "$o" ;;
	esac
	n=$#
	while [ "$n" -gt 0 ]; do
		a=$1
		shift
		[ "$a" = @o ] && a=$o
		set -- "$@" "$a"
		n=$((n - 1))
	done
	[ "$stdin" = - ] && stdin=/dev/null
	"$CONV" "$@" < "$stdin" > "$OUT/$name.out" 2> "$OUT/$name.err"
	echo $? > "$OUT/$name.rc"
}

# inplace_ NAME FILE ARG...: "-o F F" on a copy F of FILE. glibc's iconv
# corrupts such a file once its output passes 32 KiB (it writes over input
# it has not read yet), so as the oracle it converts FILE to standard
# output, which then becomes NAME.o.
inplace_() {
	name=$1 file=$2
	shift 2
	if [ "$CONV" = iconv ]; then
		case_ "$name" - - "$@" "$file"
		mv "$OUT/$name.out" "$OUT/$name.o" && : > "$OUT/$name.out"
	else
		case_ "$name" - "$file" "$@" -o @o @o
	fi
}

case_ readme-le - - -f UTF-8 -t UTF-16LE README.md
case_ multi-be - - -f UTF-8 -t UTF-16BE $I/multi
case_ utf16 - - -f UTF-8 -t UTF-16 $I/multi
case_ utf16-readme - - -f UTF-8 -t UTF-16 README.md
case_ utf16-spelling - - -f utf8 -t utf16 $I/multi
case_ utf16-empty - - -f UTF-8 -t UTF-16 $I/empty
case_ utf16-bad - - -f UTF-8 -t UTF-16 $I/bad
case_ utf16-bad0 - - -f UTF-8 -t UTF-16 $I/bad0
case_ utf16-bom-in - - -f UTF-8 -t UTF-16 $I/bom8
case_ le-u8 - - -f UTF-16LE -t UTF-8 $I/multi.le
case_ be-u8 - - -f UTF-16BE -t UTF-8 $I/multi.be
case_ utf16-bomle-u8 - - -f UTF-16 -t UTF-8 $I/multi.16
case_ utf16-bombe-u8 - - -f UTF-16 -t UTF-8 $I/multi.16be
case_ bad - - -f UTF-8 -t UTF-16LE $I/bad
case_ trunc - - -f UTF-8 -t UTF-16LE $I/trunc
case_ c-bad - - -c -f UTF-8 -t UTF-16LE $I/bad
case_ c-trunc - - -c -f UTF-8 -t UTF-16LE $I/trunc
case_ c-lead16 - - -c -f UTF-16LE -t UTF-8 $I/lead16
case_ ignore-bad - - -f UTF-8 -t UTF-16LE//IGNORE $I/bad
case_ ignore-clean - - -f UTF-8 -t UTF-16LE//IGNORE $I/multi
case_ ignore-c - - -c -f UTF-8 -t UTF-16LE//IGNORE $I/bad
case_ ignore-two - - -f UTF-8 -t UTF-16LE//IGNORE $I/bad $I/multi
case_ unknown-from - - -f LATIN-NONE -t UTF-8 $I/multi
case_ unknown-to - - -f UTF-8 -t NONE-16 $I/multi
case_ stdin $I/multi - -f UTF-8 -t UTF-16LE
case_ two-files - - -f UTF-8 -t UTF-16BE $I/multi README.md
case_ o-file - - -f UTF-8 -t UTF-16LE -o @o $I/multi
inplace_ o-inplace $I/multi -f UTF-8 -t UTF-16LE
inplace_ o-inplace-utf16 README.md -f UTF-8 -t UTF-16
inplace_ o-inplace-big $I/big -f UTF-8 -t UTF-16BE
inplace_ o-inplace-back $I/multi.le -f UTF-16LE -t UTF-8
case_ o-bad - old -f UTF-8 -t UTF-16LE -o @o $I/bad
case_ o-bad0 - old -f UTF-8 -t UTF-16LE -o @o $I/bad0
# -f UTF-8 -t UTF-8: validate and copy (-c: clean)
case_ u8-u8 - - -f UTF-8 -t UTF-8 $I/multi
case_ u8-u8-readme - - -f UTF-8 -t UTF-8 README.md
case_ u8-u8-big - - -f UTF-8 -t UTF-8 $I/big
case_ u8-u8-bom - - -f UTF-8 -t UTF-8 $I/bom8
case_ u8-u8-empty - - -f UTF-8 -t UTF-8 $I/empty
case_ u8-u8-spelling - - -f utf8 -t UTF8 $I/multi
case_ u8-u8-bad - - -f UTF-8 -t UTF-8 $I/bad
case_ u8-u8-bad0 - - -f UTF-8 -t UTF-8 $I/bad0
case_ u8-u8-trunc - - -f UTF-8 -t UTF-8 $I/trunc
case_ u8-u8-surrogate - - -f UTF-8 -t UTF-8 $I/surr8
case_ u8-u8-c-bad - - -c -f UTF-8 -t UTF-8 $I/bad
case_ u8-u8-c-many - - -c -f UTF-8 -t UTF-8 $I/many-bad
case_ u8-u8-c-trunc - - -c -f UTF-8 -t UTF-8 $I/trunc
case_ u8-u8-stdin $I/multi - -f UTF-8 -t UTF-8
case_ u8-u8-o - old -f UTF-8 -t UTF-8 -o @o $I/multi
case_ u8-u8-o-bad - old -f UTF-8 -t UTF-8 -o @o $I/bad
# several files: each converted on its own, until one fails
case_ utf16-two - - -f UTF-8 -t UTF-16 $I/multi README.md
case_ utf16-three-empty - - -f UTF-8 -t UTF-16 $I/multi $I/empty $I/multi
case_ two-bad - - -f UTF-8 -t UTF-16LE $I/multi $I/bad $I/multi
case_ two-span - - -f UTF-8 -t UTF-16LE $I/span1 $I/span2
case_ c-two - - -c -f UTF-8 -t UTF-16LE $I/bad $I/multi $I/trunc $I/multi
case_ u8-u8-two - - -f UTF-8 -t UTF-8 $I/multi $I/bad $I/multi
# -l: NAME// a line (vm-run-test.sh compares it with iconv -l's UTF lines)
case_ list - - -l
exit 0
