#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The main job, in the guest (busybox sh): every file of the corpus through
# /dev/utfconv with the utfconv CLI, UTF-8 -> UTF-16LE and -> UTF-16BE
# compared byte for byte with glibc iconv's output made on the host, and
# back (UTF-16LE -> UTF-8, UTF-16BE -> UTF-8) compared with the original.
# Prints a table and a last line "N passed, N failed" (one per check);
# exit status 0 only if every check passed.

cd "$(dirname "$0")" || exit 1
CLI=${CLI:-./utfconv}
DATA=${UTFCONV_DATA:-./data}
TMP=${TMPDIR:-/tmp}/utfconv-demo.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT

passed=0
failed=0
files=0
total=0

# check NAME OUT WANT: print ok/FAIL, count it
check() {
	if [ "$1" -eq 0 ] && cmp -s "$2" "$3"; then
		passed=$((passed + 1))
		result=ok
	else
		failed=$((failed + 1))
		result=FAIL
	fi
}

echo "utfconv demo: $(wc -l < "$DATA/corpus.list") corpus files through /dev/utfconv on Linux $(uname -r)"
echo "(reference: glibc iconv on the build host)"
echo
printf '%-40s %9s  %-8s %-8s %-13s %-13s\n' file bytes utf16le utf16be "roundtrip le" "roundtrip be"
printf '%-40s %9s  %-8s %-8s %-13s %-13s\n' "----" "-----" "-------" "-------" "------------" "------------"
start=$(date +%s)
while read -r name; do
	[ -n "$name" ] || continue
	src=$DATA/corpus/$name.utf8.txt
	bytes=$(wc -c < "$src")
	files=$((files + 1))
	total=$((total + bytes))

	"$CLI" -f UTF-8 -t UTF-16LE -o "$TMP/le" "$src"
	check $? "$TMP/le" "$DATA/corpus/$name.utf16le"; r1=$result
	"$CLI" -f UTF-8 -t UTF-16BE -o "$TMP/be" "$src"
	check $? "$TMP/be" "$DATA/corpus/$name.utf16be"; r2=$result
	"$CLI" -f UTF-16LE -t UTF-8 -o "$TMP/le8" "$TMP/le"
	check $? "$TMP/le8" "$src"; r3=$result
	"$CLI" -f UTF-16BE -t UTF-8 -o "$TMP/be8" "$TMP/be"
	check $? "$TMP/be8" "$src"; r4=$result

	printf '%-40s %9s  %-8s %-8s %-13s %-13s\n' "$name.utf8.txt" "$bytes" "$r1" "$r2" "$r3" "$r4"
	rm -f "$TMP/le" "$TMP/be" "$TMP/le8" "$TMP/be8"
done < "$DATA/corpus.list"
end=$(date +%s)
echo
echo "$files files, $total bytes of UTF-8, 4 conversions each, $((end - start)) s (emulated: times mean little)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$files" -gt 0 ]
