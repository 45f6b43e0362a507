#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Checks of the utfconv CLI (busybox or any POSIX sh).
#   sh cli-test.sh [PATH/TO/utfconv]
# Without the device (UTFCONV_DEVICE or /dev/utfconv absent) only the
# checks that need none run: usage errors, --help, -l, exit status 3.
# Prints "ok N - ..." / "not ok N - ..." and a last line
# "N passed, N failed"; exit status 0 only if all passed.

CLI=${1:-./utfconv}
DEV=${UTFCONV_DEVICE:-/dev/utfconv}
T=${TMPDIR:-/tmp}/utfconv-cli.$$
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT

passed=0
failed=0
n=0
outdiff=

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		passed=$((passed + 1))
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		echo "#   exit $rc; stderr: $(head -c 300 "$T/err" | tr '\n' '|')"
		if [ -n "$outdiff" ]; then
			echo "#   $outdiff"
		fi
	fi
}

# run [ARGS...]: stdin from $T/in if present, else /dev/null
run() {
	if [ -f "$T/in" ]; then
		"$CLI" "$@" < "$T/in" > "$T/out" 2> "$T/err"
	else
		"$CLI" "$@" < /dev/null > "$T/out" 2> "$T/err"
	fi
	rc=$?
	rm -f "$T/in"
}

input() { printf "$1" > "$T/in"; }
want() { printf "$1" > "$T/want"; }
same() { cmp -s "$T/out" "$T/want"; }
says() { grep -q -e "$1" "$T/err"; }

# check DESC RC [STDERR-PATTERN]: exit status, stdout == $T/want, stderr
check() {
	r=1
	if [ "$rc" = "$2" ] && same; then
		if [ -z "$3" ] || says "$3"; then
			r=0
		fi
	fi
	outdiff=
	if ! same; then
		outdiff="stdout $(wc -c < "$T/out") bytes"
		outdiff="$outdiff, expected $(wc -c < "$T/want")"
		outdiff="$outdiff: $(cmp "$T/out" "$T/want" 2>&1 | head -n 1)"
	fi
	ok $r "$1"
	outdiff=
}

# ---- no device needed -----------------------------------------------

run
[ $rc = 2 ] && says 'required'; ok $? "no -f/-t: usage error, exit 2"
# Unsupported conversions exit 1, as glibc iconv does ("conversion from
# `X' unsupported"), and write nothing, not even to an -o file.
run -f UTF-16LE -t UTF-16BE
[ $rc = 1 ] && says "^utfconv: conversion from .UTF-16LE. to .UTF-16BE. is not supported"
ok $? "UTF-16LE -> UTF-16BE unsupported, exit 1"
run -f UTF-16 -t UTF-16BE
[ $rc = 1 ] && says 'not supported'; ok $? "UTF-16 -> UTF-16BE unsupported, exit 1"
run -f LATIN1 -t UTF-8
[ $rc = 1 ] && says "^utfconv: conversion from .LATIN1. is not supported" && ! says 'Try'
ok $? "unknown input encoding: exit 1, no usage hint"
printf 'old' > "$T/keep"
run -f UTF-8 -t KOI8-R -o "$T/keep"
[ $rc = 1 ] && says "conversion to .KOI8-R. is not supported" && [ "$(cat "$T/keep")" = old ]
ok $? "unknown output encoding: exit 1, -o file untouched"
run -f UTF-8//FROB -t UTF-16LE
[ $rc = 1 ]; ok $? "unknown //suffix: exit 1"
run -f UTF-8 -t UTF-16LE --policy=lenient
[ $rc = 2 ] && says 'unknown policy'; ok $? "unknown policy, exit 2"
run -f UTF-8 -t UTF-16LE -c --policy=replace
[ $rc = 2 ] && says 'conflicts'; ok $? "-c with --policy=replace, exit 2"
run --frobnicate
[ $rc = 2 ]; ok $? "unknown option, exit 2"
run -f UTF-8 -t UTF-16LE --check -o "$T/x"
[ $rc = 2 ]; ok $? "--check with -o, exit 2"
run --help
[ $rc = 0 ] && grep -q 'Exit status' "$T/out" && grep -q -- '--policy' "$T/out"
ok $? "--help documents options and exit status"
run --version
[ $rc = 0 ] && grep -q '^utfconv ' "$T/out"; ok $? "--version"
# glibc's iconv -l when its output is not a terminal: NAME//, one a line
run -l
want 'UTF-8//\nUTF-16//\nUTF-16BE//\nUTF-16LE//\nUTF8//\nUTF16//\nUTF16BE//\nUTF16LE//\n'
check "-l lists the names as iconv -l: NAME// a line, nothing else" 0
run --version
want 'utfconv 1.0\n'
check "--version: the version alone (the device has no ABI number)" 0
run --list
[ $rc = 0 ] && grep -q 'UTF-16' "$T/out"; ok $? "--list"
UTFCONV_DEVICE=/nonexistent/utfconv "$CLI" -f UTF-8 -t UTF-16LE < /dev/null > "$T/out" 2> "$T/err"
rc=$?
[ $rc = 3 ] && says '^utfconv: cannot open /nonexistent/utfconv: No such file or directory$' &&
	! says 'not loaded'
ok $? "UTFCONV_DEVICE absent: exit 3, names it, no module hint"
# Where /dev/utfconv is absent (the host run), the hint to load it.
if [ ! -e /dev/utfconv ]; then
	env -u UTFCONV_DEVICE "$CLI" -f UTF-8 -t UTF-16LE < /dev/null > "$T/out" 2> "$T/err"
	rc=$?
	[ $rc = 3 ] && says 'insmod' && says 'modprobe' && says 'vm.sh run'
	ok $? "no /dev/utfconv: exit 3 and how to load the module"
fi

if [ ! -e "$DEV" ]; then
	echo "# $DEV absent: device checks not run"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
fi

# ---- through the device --------------------------------------------

# "héllo €😻" in each encoding
U8='h\303\251llo \342\202\254\360\237\230\273'
LE='h\000\351\000l\000l\000o\000 \000\254\040\075\330\073\336'
BE='\000h\000\351\000l\000l\000o\000 \040\254\330\075\336\073'

input "$U8"; want "$LE"; run -f UTF-8 -t UTF-16LE
check "UTF-8 -> UTF-16LE" 0
input "$U8"; want "$BE"; run -f UTF-8 -t UTF-16BE
check "UTF-8 -> UTF-16BE" 0
input "$LE"; want "$U8"; run -f UTF-16LE -t UTF-8
check "UTF-16LE -> UTF-8" 0
input "$BE"; want "$U8"; run -f UTF-16BE -t UTF-8
check "UTF-16BE -> UTF-8" 0
input "\377\376$LE"; want "$U8"; run -f UTF-16 -t UTF-8
check "UTF-16 with LE BOM -> UTF-8 (BOM consumed)" 0
input "$BE"; want "$U8"; run -f UTF-16 -t UTF-8
check "UTF-16 without BOM is big-endian" 0
input "$U8"; want "$LE"; run -f utf8 -t utf16le
check "iconv spellings, any case: utf8, utf16le" 0
input "$U8"; want "$BE"; run --from-code=Utf-8 --to-code=UTF16BE
check "long options, mixed case" 0
input "$U8"; want "$LE"; run -f UTF-8 -t UTF-16LE -
check "FILE '-' is standard input" 0

# strict errors: message, position, exit 1, output before the error kept
input 'ab\300\257cd'; want 'a\000b\000'; run -f UTF-8 -t UTF-16LE
check "ill-formed: exit 1, output before it" 1 '^utfconv: illegal input sequence at position 2$'
input 'ab\343\201'; want 'a\000b\000'; run -f UTF-8 -t UTF-16LE
check "truncated at end: incomplete, exit 1" 1 '^utfconv: incomplete character at end of input at position 2$'
input 'a\000\000\334'; want 'a'; run -f UTF-16LE -t UTF-8
check "lone trail surrogate: position 2" 1 'illegal input sequence at position 2$'
input 'a\000\075\330'; want 'a'; run -f UTF-16LE -t UTF-8
check "lead surrogate at end: incomplete at 2" 1 'incomplete character at end of input at position 2$'
input 'a\000b'; want 'a'; run -f UTF-16LE -t UTF-8
check "odd trailing byte: incomplete at 2" 1 'incomplete character at end of input at position 2$'

# policies
# -c and //IGNORE with glibc iconv's exit status: -c drops ill-formed
# input (exit 0), but a character cut off by the end of the input still
# fails (exit 1); //IGNORE without -c fails (exit 1) when it dropped any.
input 'a\377b\300cd'; want 'a\000b\000c\000d\000'; run -f UTF-8 -t UTF-16LE -c
check "-c drops ill-formed input like iconv -c, exit 0" 0
input 'a\377b\343\201'; want 'a\000b\000'; run -f UTF-8 -t UTF-16LE -c
check "-c, incomplete last character: exit 1 (as iconv -c)" 1 '^utfconv: incomplete character at end of input at position 3$'
input 'a\000\000\334b\000\075\330'; want 'ab'; run -f UTF-16LE -t UTF-8 -c
check "-c, UTF-16 lead surrogate at the end: exit 1" 1 'incomplete character at end of input at position 6$'
input 'ab\377cd'; want 'a\000b\000c\000d\000'; run -f UTF-8 -t UTF-16LE//IGNORE
check "//IGNORE drops like -c, exit 1 since it dropped (as glibc)" 1 '^utfconv: illegal input sequence at position 2$'
input 'abcd'; want 'a\000b\000c\000d\000'; run -f UTF-8 -t UTF-16LE//IGNORE
check "//IGNORE, nothing to drop: exit 0" 0
input 'ab\377cd'; want 'a\000b\000c\000d\000'; run -f UTF-8 -t UTF-16LE//IGNORE -c
check "//IGNORE with -c: as -c, exit 0" 0
input 'ab\377cd'; want 'a\000b\000c\000d\000'; run -f UTF-8 -t UTF-16LE -c -s
check "-s (iconv's --silent) is accepted and does nothing" 0

# Closed standard descriptors: /dev/null takes their place, never the
# device (which took fd 1 and was fed its own output, till it hung).
big=abcdefghijklmnop
i=0
while [ $i -lt 14 ]; do big=$big$big; i=$((i + 1)); done
printf '%s' "$big" > "$T/big"
: > "$T/want"
: > "$T/out"
"$CLI" -f UTF-8 -t UTF-16LE "$T/big" >&- 2> "$T/err"
rc=$?
check "closed stdout, 256 KiB: a write error, exit 4, no hang" 4 'standard output'
"$CLI" -f UTF-8 -t UTF-16LE - <&- > "$T/out" 2> "$T/err"
rc=$?
check "closed stdin: a read error, exit 4, no output" 4 'standard input: Bad file descriptor'
"$CLI" -f UTF-8 -t UTF-16LE <&- > "$T/out" 2> "$T/err"
rc=$?
check "closed stdin, no FILE: a read error, exit 4" 4 'standard input: Bad file descriptor'
printf 'ab\377' > "$T/f"
want 'a\000b\000'
"$CLI" -f UTF-8 -t UTF-16LE "$T/f" > "$T/out" 2>&-
rc=$?
check "closed stderr: the message is lost, not converted; exit 1" 1
input 'a\377b\343\201'; want 'a\000b\000'; run -f UTF-8 -t UTF-16LE --policy=skip
check "--policy=skip drops an incomplete last character too, exit 0" 0
input 'a\377b\343\201'; want 'a\000\375\377b\000\375\377'; run -f UTF-8 -t UTF-16LE --policy=replace
check "--policy=replace: U+FFFD per maximal subpart" 0
input 'a\377b'; want 'a\000b\000'; run -f UTF-8 -t UTF-16LE --policy=skip
check "--policy=skip" 0
input 'a\000\000\330b\000'; want 'a\355\240\200b'; run -f UTF-16LE -t UTF-8 --policy=wtf8
check "--policy=wtf8: lone surrogate round-trips" 0
input 'a\355\240\200b'; want 'a\000\000\330b\000'; run -f UTF-8 -t UTF-16LE --policy=wtf8
check "--policy=wtf8 back" 0
input 'a\355\240\200b'; want 'a\000'; run -f UTF-8 -t UTF-16LE
check "strict refuses what wtf8 accepts" 1 'position 1$'

# BOM options
input 'A'; want '\377\376A\000'; run -f UTF-8 -t UTF-16LE --bom
check "--bom writes a BOM" 0
input '\357\273\277A'; want 'A\000'; run -f UTF-8 -t UTF-16LE --strip-bom
check "--strip-bom drops a leading BOM" 0
input '\357\273\277A'; want '\377\376A\000'; run -f UTF-8 -t UTF-16LE
check "without --strip-bom a BOM is data" 0

# -f UTF-8 -t UTF-8: validated and copied (through UTF-16 and back)
input "$U8"; want "$U8"; run -f UTF-8 -t UTF-8
check "UTF-8 -> UTF-8: a copy" 0
input 'ab\300\257cd'; want 'ab'; run -f UTF-8 -t UTF-8
check "UTF-8 -> UTF-8: ill-formed, exit 1, the text before it" 1 '^utfconv: illegal input sequence at position 2$'
input 'ab\343\201'; want 'ab'; run -f UTF-8 -t UTF-8
check "UTF-8 -> UTF-8: incomplete at the end, exit 1" 1 '^utfconv: incomplete character at end of input at position 2$'
input '\377a\300\257b\355\240\200c\364\220\200\200d'; want 'abcd'; run -f UTF-8 -t UTF-8 -c
check "UTF-8 -> UTF-8 -c: every ill-formed sequence dropped, exit 0" 0
input 'a\377b'; want 'a\357\277\275b'; run -f UTF-8 -t UTF-8 --policy=replace
check "UTF-8 -> UTF-8 --policy=replace: U+FFFD" 0
input 'a\355\240\200b\355\277\277'; want 'a\355\240\200b\355\277\277'; run -f UTF-8 -t UTF-8 --policy=wtf8
check "UTF-8 -> UTF-8 --policy=wtf8: lone surrogates kept, the last one too" 0
input 'ab'; want '\357\273\277ab'; run -f UTF-8 -t UTF-8 --bom
check "UTF-8 -> UTF-8 --bom" 0
input '\357\273\277ab'; want 'ab'; run -f UTF-8 -t UTF-8 --strip-bom
check "UTF-8 -> UTF-8 --strip-bom" 0
input 'ab\377'; want ''; run -f UTF-8 -t UTF-8 --check
check "UTF-8 -> UTF-8 --check: exit 1, no output" 1 'position 2$'
# Surrogate pairs across the 64 KiB reads of the UTF-16 in between:
# "a" first puts the pairs at offset 2 mod 4, so a read that ends at a
# multiple of 4 bytes (64 KiB) cuts one.
printf 'a' > "$T/in"
printf '\360\237\230\273\360\220\200\200' > "$T/x"
while [ "$(wc -c < "$T/x")" -lt 200000 ]; do
	cat "$T/x" "$T/x" > "$T/x2" && mv "$T/x2" "$T/x"
done
cat "$T/x" >> "$T/in"
cp "$T/in" "$T/want"
run -f UTF-8 -t UTF-8
check "UTF-8 -> UTF-8: $(wc -c < "$T/want") bytes of four-byte characters, copied" 0

# --check, --stats, -o
input "$U8"; want ''; run -f UTF-8 -t UTF-16LE --check
check "--check: valid, no output" 0
input 'ab\300'; want ''; run -f UTF-8 -t UTF-16LE --check
check "--check: invalid, exit 1, no output" 1 'position 2$'
input "$U8"; want "$LE"; run -f UTF-8 -t UTF-16LE --stats
check "--stats: counters on stderr" 0 '^bytes in: *14$'
says '^code points: *8$' && says '^bytes out: *18$'; ok $? "--stats: code points and bytes out"
input "$U8"; want ''; run -f UTF-8 -t UTF-16LE -o "$T/o1"
[ $rc = 0 ] && printf "$LE" > "$T/want" && cmp -s "$T/o1" "$T/want" && [ ! -s "$T/out" ]
ok $? "-o OUT writes the file, not stdout"

# -t UTF-16 as glibc iconv: a BOM, then the machine's byte order
# (little-endian here, x86), the BOM only before the first output byte.
input "$U8"; want "\377\376$LE"; run -f UTF-8 -t UTF-16
check "-t UTF-16: BOM FF FE, then UTF-16LE (glibc on x86)" 0
input "$U8"; want "\377\376$LE"; run -f utf8 -t utf16
check "-t utf16 (iconv spelling)" 0
want ''; run -f UTF-8 -t UTF-16
check "-t UTF-16, empty input: no output, no BOM (as glibc)" 0
input '\377ab'; want ''; run -f UTF-8 -t UTF-16
check "-t UTF-16, error at 0: no BOM, exit 1" 1 'illegal input sequence at position 0$'
input 'ab\377'; want '\377\376a\000b\000'; run -f UTF-8 -t UTF-16
check "-t UTF-16, error at 2: BOM and the output before it" 1 'position 2$'
input '\377\377'; want ''; run -f UTF-8 -t UTF-16 -c
check "-t UTF-16 -c, nothing valid: empty output (as glibc)" 0
input '\357\273\277A'; want '\377\376\377\376A\000'; run -f UTF-8 -t UTF-16
check "-t UTF-16: a BOM in the input is data after ours (as glibc)" 0
input 'A'; want '\377\376A\000'; run -f UTF-8 -t UTF-16 --bom
check "-t UTF-16 --bom: one BOM" 0
input "$U8"; want ''; run -f UTF-8 -t UTF-16 -o "$T/o16"
printf "\377\376$LE" > "$T/want"
[ $rc = 0 ] && cmp -s "$T/o16" "$T/want"; ok $? "-t UTF-16 -o FILE"

# -o FILE where FILE is also an input: converted through a temporary
# file renamed over FILE, never truncated first.
# tmpfiles: the temporaries -o left in $T (there must be none)
tmpfiles() { find "$T" -name '*.utfconv-*'; }
printf "$U8" > "$T/same"; chmod 640 "$T/same"
want ''; run -f UTF-8 -t UTF-16LE -o "$T/same" "$T/same"
printf "$LE" > "$T/want"
[ $rc = 0 ] && cmp -s "$T/same" "$T/want" && [ -z "$(tmpfiles)" ]
ok $? "-o FILE FILE: converted in place, no temporary left"
[ "$(stat -c %a "$T/same")" = 640 ]; ok $? "-o FILE FILE: mode 640 kept ($(stat -c %a "$T/same"))"
printf "$U8" > "$T/same"
"$CLI" -f UTF-8 -t UTF-16BE -o "$T/same" < "$T/same" > "$T/out" 2> "$T/err"
rc=$?
printf "$BE" > "$T/want"
[ $rc = 0 ] && cmp -s "$T/same" "$T/want"; ok $? "-o FILE < FILE: in place"
ln -s same "$T/link"
printf "$U8" > "$T/same"
run -f UTF-8 -t UTF-16LE -o "$T/link" "$T/link"
printf "$LE" > "$T/want"
[ $rc = 0 ] && [ -L "$T/link" ] && cmp -s "$T/same" "$T/want"
ok $? "-o LINK LINK: the symlink's target is replaced, the link stays"
rm -f "$T/link"
printf 'ab\377cd' > "$T/same"; cp "$T/same" "$T/want"
run -f UTF-8 -t UTF-16LE -o "$T/same" "$T/same"
[ $rc = 1 ] && cmp -s "$T/same" "$T/want" && says "same' left unchanged" && [ -z "$(tmpfiles)" ]
ok $? "-o FILE FILE, invalid input: exit 1, FILE unchanged, no temporary"
printf 'ab\377cd' > "$T/f1"; printf 'old' > "$T/o2"
run -f UTF-8 -t UTF-16LE -o "$T/o2" "$T/f1"
printf 'a\000b\000' > "$T/want"
[ $rc = 1 ] && cmp -s "$T/o2" "$T/want"
ok $? "-o OTHER, invalid input: the output before the error (as iconv)"
printf '\377cd' > "$T/f1"; printf 'old' > "$T/o2"
run -f UTF-8 -t UTF-16LE -o "$T/o2" "$T/f1"
[ $rc = 1 ] && [ "$(cat "$T/o2")" = old ] && [ -z "$(tmpfiles)" ]
ok $? "-o OTHER, error at 0: OTHER untouched (as iconv)"
printf 'ab' > "$T/f1"; printf 'old' > "$T/o2"
run -f UTF-8 -t UTF-16LE -o "$T/o2" "$T/f1" "$T/does-not-exist"
[ $rc = 4 ] && [ "$(cat "$T/o2")" = old ] && [ -z "$(tmpfiles)" ]
ok $? "-o OTHER, missing input: exit 4, OTHER untouched"
rm -f "$T/new"
(umask 027; "$CLI" -f UTF-8 -t UTF-16LE -o "$T/new" < /dev/null > "$T/out" 2> "$T/err")
rc=$?
[ $rc = 0 ] && [ -f "$T/new" ] && [ ! -s "$T/new" ] && [ "$(stat -c %a "$T/new")" = 640 ]
ok $? "-o NEW, empty input: an empty file, mode 0666 less the umask"
run -f UTF-8 -t UTF-16LE -o "$T/no-dir/x"
[ $rc = 4 ] && says 'temporary file beside'; ok $? "-o in a missing directory: exit 4"
input "$U8"; run -f UTF-8 -t UTF-16LE -o /dev/null
[ $rc = 0 ] && [ -c /dev/null ]; ok $? "-o /dev/null: written in place, still a device"
# An -o file its user may not write is refused, though renaming over it
# would work (its directory is writable): iconv could not open it either.
if [ "$(id -u)" = 0 ] && su -s /bin/sh nobody -c true 2>/dev/null; then
	mkdir -p "$T/u"; chown nobody "$T/u"
	printf 'keep' > "$T/u/ro"; chown nobody "$T/u/ro"; chmod 444 "$T/u/ro"
	printf "$U8" > "$T/u/in"; chmod 644 "$T/u/in"; chmod 755 "$T"
	su -s /bin/sh nobody -c "'$CLI' -f UTF-8 -t UTF-16LE -o '$T/u/ro' '$T/u/in'" > "$T/out" 2> "$T/err"
	rc=$?
	[ $rc = 4 ] && says 'Permission denied' && [ "$(cat "$T/u/ro")" = keep ] &&
		[ -z "$(tmpfiles)" ]
	ok $? "-o FILE not writable by its user (dir writable): exit 4, FILE kept"
fi
# A signal while converting: the temporary goes, FILE stays.
if mkfifo "$T/fifo" 2>/dev/null; then
	printf 'old' > "$T/o2"
	"$CLI" -f UTF-8 -t UTF-16LE -o "$T/o2" "$T/fifo" 2> "$T/err" &
	pid=$!
	exec 3> "$T/fifo"
	printf 'abc' >&3
	i=0
	while [ -z "$(tmpfiles)" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	kill -TERM $pid
	wait $pid
	rc=$?
	exec 3>&-
	[ $rc = 143 ] && [ "$(cat "$T/o2")" = old ] && [ -z "$(tmpfiles)" ]
	ok $? "-o OTHER, SIGTERM while converting: OTHER untouched, temporary removed"
	rm -f "$T/fifo"
fi

# several files: each on its own, as glibc's iconv, until one fails
printf 'a\343' > "$T/f1"; printf '\201\202b' > "$T/f2"; printf 'c' > "$T/f3"
want 'a\000'; run -f UTF-8 -t UTF-16LE "$T/f1" "$T/f2" "$T/f3"
check "a character cut off at the end of a file is incomplete; stop there" 1 \
	'^utfconv: incomplete character at end of input at position 1$'
printf 'abc' > "$T/f1"; printf 'd\377e' > "$T/f2"
want 'a\000b\000c\000d\000'; run -f UTF-8 -t UTF-16LE "$T/f1" "$T/f2" "$T/f1"
check "error positions count from the start of the file at fault" 1 'position 1$'
printf 'ab' > "$T/f1"; : > "$T/f0"; printf 'c' > "$T/f2"
want '\377\376a\000b\000\377\376c\000'; run -f UTF-8 -t UTF-16 "$T/f1" "$T/f0" "$T/f2"
check "-t UTF-16: a BOM for each file with output" 0
want '\377\376a\000b\000\377\376a\000b\000'; run -f UTF-8 -t UTF-16 "$T/f1" "$T/f1"
check "-t UTF-16, the same file twice: two BOMs" 0
printf 'a\303\251' > "$T/f1"; printf '\377' > "$T/f2"
want 'a\000\351\000a\000\351\000'; run -f UTF-8 -t UTF-16LE -c --stats "$T/f1" "$T/f2" "$T/f1"
check "-c, several files: --stats counts them all" 0 '^bytes in: *7$'
says '^replacements: *1$' && says '^first error: *ill-formed at position 0$'
ok $? "--stats: the first error, its position in its file"
want ''; run -f UTF-8 -t UTF-16LE "$T/does-not-exist"
[ $rc = 4 ] && says 'does-not-exist'; ok $? "missing input file: exit 4"
want ''; run -f UTF-8 -t UTF-16LE
check "empty input, empty output" 0

# The last character of a stream is written by FLUSH; when the device's
# output buffer (64 KiB by default) is exactly full, FLUSH says EAGAIN
# and the CLI must drain and retry, not fail.
printf 'A' > "$T/a"; printf 'A\000' > "$T/w"
i=0
while [ $i -lt 15 ]; do
	cat "$T/a" "$T/a" > "$T/x"; mv "$T/x" "$T/a"
	cat "$T/w" "$T/w" > "$T/x"; mv "$T/x" "$T/w"
	i=$((i + 1))
done
{ cat "$T/a"; printf '\342'; } > "$T/in"
{ cat "$T/w"; printf '\375\377'; } > "$T/want"
run -f UTF-8 -t UTF-16LE --policy=replace
check "replace: U+FFFD for the tail with the device buffer full" 0
{ cat "$T/w" "$T/w"; printf '\000\330'; } > "$T/in"
{ cat "$T/a" "$T/a"; printf '\355\240\200'; } > "$T/want"
run -f UTF-16LE -t UTF-8 --policy=wtf8
check "wtf8: a last lone lead surrogate with the device buffer full" 0

# streaming: more than the device buffer, through pipes both ways
big=""
for f in data/corpus/wikipedia_mars/thai data/corpus/wikipedia_mars/english; do
	[ -f "$(dirname "$0")/$f.utf8.txt" ] && big="$(dirname "$0")/$f"
done
if [ -n "$big" ]; then
	cat "$big.utf8.txt" | "$CLI" -f UTF-8 -t UTF-16LE 2> "$T/err" | cat > "$T/out"
	rc=$?
	cmp -s "$T/out" "$big.utf16le"; ok $? "large input through pipes matches iconv"
	cat "$big.utf16be" "$big.utf16be" | "$CLI" -f UTF-16BE -t UTF-8 > "$T/out" 2> "$T/err"
	rc=$?
	cat "$big.utf8.txt" "$big.utf8.txt" > "$T/want"
	[ $rc = 0 ] && same; ok $? "large UTF-16BE input twice, back to UTF-8"
else
	echo "# no corpus data next to $0: large-input checks skipped"
fi

# ---- the progress line ----------------------------------------------
# Shown on standard error when it is a terminal, standard output is not
# the same terminal, and the input is regular files of >= 16 MiB; updated
# every 250 ms, erased ("\r\033[K") before any message and at the end.
# ptyrun puts standard error (-o: and standard output) on a new pty and
# copies what arrives there to a transcript.
PTYRUN=$(dirname "$0")/ptyrun
PROGRESS='utfconv: [0-9]*\.[0-9] of [0-9]*\.[0-9] MiB ([0-9]*%)'
printf '\r\033[K' > "$T/erase"

# grow FILE BYTES: FILE doubled until it holds at least BYTES
grow() {
	while [ "$(stat -c %s "$1")" -lt "$2" ]; do
		cat "$1" "$1" > "$1.2" && mv "$1.2" "$1"
	done
}

# ms: the run time ptyrun measured (its stderr is $T/err)
ms() { sed -n 's/^ptyrun: \([0-9]*\) ms$/\1/p' "$T/err"; }

# progress_check DESC WANT(yes|no): "yes" needs a progress line in
# $T/tty; "no" needs none, and only counts when the run lasted long
# enough (500 ms: the first line is due after 250 ms) that one would
# have shown.
progress_check() {
	shown=1
	tr '\r' '\n' < "$T/tty" | grep -q "^$PROGRESS" && shown=0
	t=$(ms)
	if [ "$2" = yes ]; then
		ok $shown "$1 (${t} ms)"
	elif [ "${t:-0}" -ge 500 ]; then
		[ $shown != 0 ]; ok $? "$1 (${t} ms)"
	else
		echo "# $1: run took ${t} ms, too short to tell; not counted"
	fi
}

if [ -x "$PTYRUN" ] && [ -n "$big" ]; then
	cp "$big.utf8.txt" "$T/p8"
	grow "$T/p8" $((48 << 20))
	size=$(stat -c %s "$T/p8")

	"$PTYRUN" "$T/tty" "$CLI" -f UTF-8 -t UTF-16LE -o /dev/null "$T/p8" 2> "$T/err"
	rc=$?
	[ $rc = 0 ]; ok $? "progress: 48 MiB to a file, stderr a terminal: exit 0"
	progress_check "progress: line shown on the terminal" yes
	tail -c 4 "$T/tty" | cmp -s - "$T/erase"
	ok $? "progress: line erased at the end, nothing after it"
	pct=$(tr '\r' '\n' < "$T/tty" | sed -n 's/.*MiB (\([0-9]*\)%)$/\1/p')
	prev=0 mono=0
	for p in $pct; do
		[ "$p" -ge "$prev" ] && [ "$p" -le 100 ] || mono=1
		prev=$p
	done
	[ -n "$pct" ] && [ $mono = 0 ]
	ok $? "progress: percentages rise and stay within 100"
	tr '\r' '\n' < "$T/tty" | grep -q "of $((size * 10 / 1048576 / 10))\.[0-9] MiB"
	ok $? "progress: the total is the input size"

	# An error after a progress line: erased first, message on its own line.
	printf '\377' >> "$T/p8"
	"$PTYRUN" "$T/tty" "$CLI" -f UTF-8 -t UTF-16LE -o /dev/null "$T/p8" 2> "$T/err"
	rc=$?
	printf '\r\033[Kutfconv: illegal input sequence at position %s\n' "$size" > "$T/want"
	n8=$(stat -c %s "$T/want")
	[ $rc = 1 ] && tail -c "$n8" "$T/tty" | cmp -s - "$T/want"
	ok $? "progress: an error erases the line, then the message"
	progress_check "progress: line shown before the error" yes

	# stdout the same terminal: no progress line.
	cp "$big.utf16le" "$T/p16"
	grow "$T/p16" $((32 << 20))
	"$PTYRUN" -o "$T/tty" "$CLI" -f UTF-16LE -t UTF-8 "$T/p16" 2> "$T/err"
	rc=$?
	[ $rc = 0 ]; ok $? "progress: stdout a terminal too: exit 0"
	progress_check "progress: none when stdout is the terminal" no

	# Input below 16 MiB: none.
	head -c $(((16 << 20) - 2)) "$T/p16" > "$T/small"
	"$PTYRUN" "$T/tty" "$CLI" -f UTF-16LE -t UTF-8 -o /dev/null "$T/small" 2> "$T/err"
	rc=$?
	[ $rc = 0 ] && [ ! -s "$T/tty" ]
	ok $? "progress: below 16 MiB of input: exit 0, stderr left empty"
	progress_check "progress: none below 16 MiB of input" no

	# Input from a pipe (size unknown): none.
	"$PTYRUN" "$T/tty" sh -c "cat '$T/p16' | '$CLI' -f UTF-16LE -t UTF-8 -o /dev/null" 2> "$T/err"
	rc=$?
	[ $rc = 0 ] && [ ! -s "$T/tty" ]
	ok $? "progress: input from a pipe: exit 0, stderr left empty"
	progress_check "progress: none for input of unknown size (a pipe)" no

	# stderr not a terminal (a file inside the pty session): none.
	"$PTYRUN" "$T/tty" sh -c "'$CLI' -f UTF-16LE -t UTF-8 -o /dev/null '$T/p16' 2> '$T/e2'" 2> "$T/err"
	rc=$?
	[ $rc = 0 ] && [ ! -s "$T/e2" ] && [ ! -s "$T/tty" ]
	ok $? "progress: stderr a file: exit 0, file left empty"
	cp "$T/e2" "$T/tty"
	progress_check "progress: none when stderr is not a terminal" no
	rm -f "$T/p8" "$T/p16" "$T/small"
else
	echo "# no ptyrun or corpus next to $0: progress checks skipped"
fi

# ---- mapped input files ----------------------------------------------

# double FILE N: FILE repeated 2^N times
double() {
	i=0
	while [ $i -lt "$2" ]; do
		cat "$1" "$1" > "$1.2" && mv "$1.2" "$1"
		i=$((i + 1))
	done
}

# mapped FILE: wait (up to 10 s) until a process has FILE mapped: the CLI,
# whose output pipe is not read yet, so that it stays within the mapping
# while the file is changed under it. A change made on a timer instead
# could come before the CLI opened the file, or after it was read. The
# mapping is found by FILE's inode (the fifth field of /proc/PID/maps),
# which no spelling of FILE's path can miss. On a timeout FILE.unmapped
# is left for the check to fail on.
mapped() {
	ino=$(stat -c %i "$1")
	i=0
	until cat /proc/[0-9]*/maps 2>/dev/null |
	    awk -v ino="$ino" '$5 == ino { m = 1 } END { exit !m }'; do
		if [ $i -ge 100 ]; then
			echo "cli-test: no process mapped $1 in 10 s" >&2
			: > "$1.unmapped"
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
}

# A regular file of at least 64 KiB is mapped 8 MiB at a time: its output
# is the same as through stdin (read in chunks), also when a window ends
# inside a character: 8 MiB of three-byte euro signs ends one byte short;
# after one 'a', 8 MiB of four-byte emoji ends inside one, and their
# UTF-16 splits a surrogate pair there.
printf '\342\202\254' > "$T/m8"
double "$T/m8" 22	# 12 MiB
printf 'a' > "$T/m4"
printf '\360\237\230\273' > "$T/m4e"
double "$T/m4e" 22	# 16 MiB
cat "$T/m4e" >> "$T/m4"
rm -f "$T/m4e"
for f in m8 m4; do
	"$CLI" -f UTF-8 -t UTF-16LE "$T/$f" > "$T/$f.map" 2> "$T/err"
	rc=$?
	"$CLI" -f UTF-8 -t UTF-16LE < "$T/$f" > "$T/$f.read" 2>> "$T/err"
	rc2=$?
	[ $rc = 0 ] && [ $rc2 = 0 ] && [ -s "$T/$f.map" ] &&
		cmp -s "$T/$f.map" "$T/$f.read"
	ok $? "mapped $f: UTF-8 -> UTF-16LE the same as read from stdin"
	"$CLI" -f UTF-16LE -t UTF-8 "$T/$f.map" > "$T/$f.back" 2> "$T/err"
	rc=$?
	[ $rc = 0 ] && cmp -s "$T/$f.back" "$T/$f"
	ok $? "mapped $f: UTF-16LE -> UTF-8 gives the file back"
	rm -f "$T/$f.read" "$T/$f.back"
done
# Several files, mapped and not (a short one, stdin), one after the other.
printf '\342\202\254' > "$T/short"
printf 'x' > "$T/in"
"$CLI" -f UTF-8 -t UTF-16LE "$T/m8" "$T/short" - "$T/m8" < "$T/in" > "$T/out" 2> "$T/err"
rc=$?
rm -f "$T/in"
cat "$T/m8.map" > "$T/want"
printf '\254\040x\000' >> "$T/want"
cat "$T/m8.map" >> "$T/want"
check "mapped and read files, and stdin, one after the other" 0
rm -f "$T/m8" "$T/m4" "$T/m8.map" "$T/m4.map" "$T/cut"

# A mapped file truncated while it is read, within its last page: the
# pages read as zeros up to the page's end, which were never in the file;
# the CLI must fail (exit 4, "shrank"), not convert them as U+0000 and
# exit 0. Its output pipe is not read until the file is cut, so the CLI
# is blocked in a write, within its mapping, when that happens.
printf 'a' > "$T/sh"
double "$T/sh" 17	# 128 KiB
{ "$CLI" -f UTF-8 -t UTF-16LE "$T/sh" 2> "$T/err"; echo $? > "$T/rc"; } |
	{ mapped "$T/sh"; truncate -s 130000 "$T/sh"; cat > "$T/out"; }
rc=$(cat "$T/rc")
[ ! -e "$T/sh.unmapped" ] && [ "$rc" = 4 ] && says 'shrank while it was read'
ok $? "mapped file cut short under the CLI: exit 4 and says so"
rm -f "$T/sh" "$T/rc" "$T/sh.unmapped"

# A mapped file that grows while it is read (utfconv(1): "one that grows
# is read to its new end"): the part past the mapping comes through
# read(2). The output pipe is held as above, so the CLI is still inside
# the first 128 KiB when a euro sign and a last byte are appended; a CLI
# that stopped at the size it saw at open would miss their 4 units.
printf 'a' > "$T/gr"
double "$T/gr" 17	# 128 KiB
{ "$CLI" -f UTF-8 -t UTF-16LE "$T/gr" 2> "$T/err"; echo $? > "$T/rc"; } |
	{ mapped "$T/gr"; printf '\342\202\254z' >> "$T/gr"; cat > "$T/out"; }
rc=$(cat "$T/rc")
printf 'a\000' > "$T/want"
double "$T/want" 17
printf '\254\040z\000' >> "$T/want"
[ ! -e "$T/gr.unmapped" ]
ok $? "mapped file grown under the CLI: grown while the CLI had it mapped"
check "mapped file grown under the CLI: read to its new end" 0
rm -f "$T/gr" "$T/rc" "$T/gr.unmapped"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
