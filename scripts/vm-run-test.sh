#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm.sh run end to end: the CLI's iconv-compatible cases
# (userspace-test/dev/iconv-cases.sh) on files of this tree, run by
# utfconv in the VM (Debian's 6.12 kernel, the tree shared by 9p) and by
# glibc iconv here; standard output, exit status and -o files must be
# byte for byte the same, and where iconv reports an illegal input
# sequence, utfconv must report it at the same position.
# Prints "ok N - ..." / "not ok N - ..." and "N passed, N failed".

. "$(dirname "$0")/lib.sh"

cd "$SRC"
D=build/run-test
rm -rf "$D"
mkdir -p "$D/in"

# The inputs: text in several scripts, its UTF-16 forms by iconv, and
# ill-formed pieces.
printf 'h\303\251llo w\303\266rld, \316\272\317\214\317\203\316\274\316\265, \320\274\320\270\321\200, \346\227\245\346\234\254\350\252\236, \360\237\230\273 e\314\201\n' >"$D/in/multi"
iconv -f UTF-8 -t UTF-16LE "$D/in/multi" >"$D/in/multi.le"
iconv -f UTF-8 -t UTF-16BE "$D/in/multi" >"$D/in/multi.be"
iconv -f UTF-8 -t UTF-16 "$D/in/multi" >"$D/in/multi.16"
{ printf '\376\377'; cat "$D/in/multi.be"; } >"$D/in/multi.16be"
: >"$D/in/empty"
# 55 KiB of text: in place, its UTF-16 passes 32 KiB (see iconv-cases.sh).
for i in $(seq 1024); do cat "$D/in/multi"; done >"$D/in/big"
printf 'ab\377cd' >"$D/in/bad"
printf '\377ab' >"$D/in/bad0"
printf 'ab\343\201' >"$D/in/trunc"
printf '\357\273\277A' >"$D/in/bom8"
printf 'a\000\000\334b\000\075\330' >"$D/in/lead16"
printf 'a\355\240\200b' >"$D/in/surr8"
# (no F4 90 80 80 and up: glibc's UTF-8 to UTF-8 copies those forms
# past U+10FFFF, utfconv(1) says so)
printf '\377a\300\257b\355\240\200c\342\202d\303' >"$D/in/many-bad"
printf 'x\303' >"$D/in/span1"
printf '\251y' >"$D/in/span2"

section "vm-run: the cases in the VM (scripts/vm.sh run)"
set +e
VM_SHARE=$SRC "$UTFCONV_ROOT/scripts/vm.sh" run -- \
	sh userspace-test/dev/iconv-cases.sh utfconv "$D/vm" </dev/null
vrc=$?
sh userspace-test/dev/iconv-cases.sh iconv "$D/iconv" || die "iconv-cases.sh failed"
# utfconv -l lists its names as iconv -l does: iconv's lines of them.
grep -x -E 'UTF-?(8|16|16LE|16BE)//' "$D/iconv/list.out" >"$D/iconv/list.utf" || true
mv "$D/iconv/list.utf" "$D/iconv/list.out"

# position FILE: the position of iconv's "illegal input sequence" line
position() { sed -n 's/.*illegal input sequence at position \([0-9]*\)$/\1/p' "$1"; }

tap_ok "$vrc" "scripts/vm.sh run: exit status 0 (got $vrc)"

# The command's standard error comes back alone, also when its last line
# has no newline (the CLI's progress line on a terminal had none, and the
# whole guest log followed it), and its exit status comes through.
VM_SHARE=$SRC "$UTFCONV_ROOT/scripts/vm.sh" run -- \
	sh -c 'echo err1 >&2; echo >&2; printf partial >&2; exit 7' \
	>"$D/stderr.out" 2>"$D/stderr.err" </dev/null
src=$?
tap_ok "$([ "$src" = 7 ]; echo $?)" "scripts/vm.sh run: exit status 7 of sh -c (got $src)"
got=$(sed '1,/^vm: booting /d' "$D/stderr.err" | od -An -c | tr -s ' ')
want=$(printf 'err1\n\npartial\n' | od -An -c | tr -s ' ')
[ "$got" = "$want" ]
tap_ok $? "scripts/vm.sh run: standard error 'err1', '', 'partial' alone (got:$(head -c 200 <<<"$got"))"
# Standard input is not passed to the guest: a pipe or a file on it
# fails (125) before anything boots, where the command would have read
# nothing and passed.
for how in pipe file; do
	if [ $how = pipe ]; then
		echo text | VM_SHARE=$SRC "$UTFCONV_ROOT/scripts/vm.sh" run -- true \
			>"$D/stdin.out" 2>"$D/stdin.err"
	else
		VM_SHARE=$SRC "$UTFCONV_ROOT/scripts/vm.sh" run -- true <"$D/in/multi" \
			>"$D/stdin.out" 2>"$D/stdin.err"
	fi
	irc=$?
	[ $irc = 125 ] && grep -q 'standard input is not passed' "$D/stdin.err" &&
		! grep -q 'vm: booting' "$D/stdin.err"
	tap_ok $? "scripts/vm.sh run with a $how on standard input: exit 125 before booting (got $irc: $(head -c 200 "$D/stdin.err"))"
done
for rcf in "$D"/iconv/*.rc; do
	name=$(basename "$rcf" .rc)
	v=$D/vm/$name i=$D/iconv/$name
	[ "$(cat "$v.rc" 2>/dev/null)" = "$(cat "$i.rc")" ]
	tap_ok $? "$name: exit status $(cat "$i.rc"), as iconv (utfconv: $(cat "$v.rc" 2>/dev/null))"
	cmp -s "$v.out" "$i.out"
	tap_ok $? "$name: standard output, $(stat -c %s "$i.out") bytes, as iconv (utfconv: $(stat -c %s "$v.out" 2>/dev/null) bytes)"
	if [ -e "$i.o" ] || [ -e "$v.o" ]; then
		cmp -s "$v.o" "$i.o"
		tap_ok $? "$name: the -o file, as iconv ($(od -An -tx1 "$i.o" 2>/dev/null | head -c 48 | tr -s ' '))"
	fi
	# (//IGNORE: glibc gives the end of its buffer, utfconv the first
	# byte dropped; utfconv(1) says so.)
	p=$(position "$i.err")
	if [ -n "$p" ] && [ "${name#ignore-}" = "$name" ]; then
		[ "$(position "$v.err")" = "$p" ]
		tap_ok $? "$name: illegal input at position $p, as iconv (utfconv: $(head -c 200 "$v.err"))"
	fi
done
echo "$tap_passed passed, $tap_failed failed"
[ "$tap_failed" = 0 ]
