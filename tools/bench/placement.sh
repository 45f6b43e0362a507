#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# placement.sh FILE...: where the codec's code lands, against its speed.
# `make -C tools/bench placement FILES="..."` runs it with the objects
# host_bench is linked from (BUILD, BENCH_LINK, CC, LIBS, SDU_OBJS from
# the Makefile; SIMDUTF_DIR there says where simdutf is).
#
# A module's code lands wherever the objects linked before it end, at
# any multiple of the functions' 16-byte alignment, and a loop's speed
# can depend on where it falls (Documentation/benchmarks.rst, "Where the
# code lands"). This links host_bench STEPS times (16), each time with
# simdutf first, where it stays, then a function that grows by 16 bytes
# a time (k = 0 .. STEPS - 1), which moves every codec function (and
# host_bench's own) by 16 * k bytes, and runs it on FILE... with
# ROUNDS rounds (6) of samples of MIN_MS (2) ms. Per placement it prints
# the lowest ratio of the default path over simdutf's icelake kernel
# each way, the rounds it won on that file and the file; then the lowest
# over all placements.
# The offsets are those after the first placement's (+0: the pad an
# empty function); "address" is the low 16 bits of utfconv_buf's, hex.
# Without simdutf's icelake kernel (no simdutf, or no AVX-512 on this
# CPU) it says so and stops. Information, as the bench is: the exit
# status only reports errors.
set -eu

: "${BUILD:?}" "${BENCH_LINK:?}" "${SDU_OBJS?}" "${LIBS?}"
STEPS=${STEPS:-16}
ROUNDS=${ROUNDS:-6}
MIN_MS=${MIN_MS:-2}
[ $# -gt 0 ] || { echo "placement.sh: FILE... (the corpus files; make -C tools/bench placement FILES=\"...\")" >&2; exit 2; }
case $STEPS in
''|*[!0-9]*|0) echo "placement.sh: STEPS=$STEPS: a count of placements, 1 or more" >&2; exit 2 ;;
esac
[ -n "$SDU_OBJS" ] || {
	echo "placement: no simdutf built (SIMDUTF_DIR=DIR, the folder of simdutf.cpp): nothing to compare with"
	exit 0
}

dir=$BUILD/placement
mkdir -p "$dir"
rm -f "$dir/all.txt"

# host_bench's own lowest SIMD/icelake ratio over the files, the goal
# line "SIMD >= 1.0x icelake, every file, <direction>": "utf8 R FILE W"
# and "utf16 R FILE W", R without its x, W the rounds it won there
# ("12/20"); nothing where icelake was not measured ("not measured").
lowest() {
	sed -n 's/^ *SIMD >= 1\.0x icelake, every file, UTF-\([0-9]*\) -> .* measured *\([0-9.]*\)x (\([^)]*\)).*, won \([0-9]*\) of \([0-9]*\) rounds.*/utf\1 \2 \3 \4\/\5/p' "$1"
}

printf '%-7s %-8s  %-46s  %s\n' offset address \
	"UTF-8 -> UTF-16LE, lowest, rounds won there" \
	"UTF-16LE -> UTF-8, lowest, rounds won there"
k=0
while [ "$k" -lt "$STEPS" ]; do
	pad=$((16 * k))
	# k = 0: an empty function (a ret), whose 16 bytes are the start
	printf 'void utfconv_bench_pad(void);\nvoid utfconv_bench_pad(void)\n{\n%s}\n' \
		"$([ "$pad" -eq 0 ] || printf '\tasm(".skip %d, 0xcc");\n' "$pad")" \
		> "$dir/pad.c"
	${CC:-cc} -O2 -falign-functions=16 -c -o "$dir/pad.o" "$dir/pad.c"
	# word lists: the compiler driver, the objects, the libraries
	# shellcheck disable=SC2086
	$BENCH_LINK -o "$dir/host_bench" $SDU_OBJS "$dir/pad.o" \
		"$BUILD/utfconv_codec.o" "$BUILD/host_bench.o" $LIBS -lm
	addr=$(nm "$dir/host_bench" | awk '$3 == "utfconv_buf" { print $1 }')
	[ -n "$addr" ] || { echo "placement.sh: no utfconv_buf in host_bench" >&2; exit 1; }
	if ! "$dir/host_bench" -r "$ROUNDS" -m "$MIN_MS" "$@" \
			> "$dir/run.txt" 2>&1; then
		echo "placement: host_bench failed at +$pad:" >&2
		grep -v '^[.]*$' "$dir/run.txt" | tail -5 >&2
		exit 1
	fi
	lowest "$dir/run.txt" > "$dir/low.txt"
	if [ "$(wc -l < "$dir/low.txt")" -ne 2 ]; then
		echo "placement: simdutf's icelake kernel does not run on this CPU (no AVX-512): nothing to compare with"
		exit 0
	fi
	printf '%-7s %-8s  %-46s  %s\n' "+$pad" "${addr#"${addr%????}"}" \
		"$(awk '$1 == "utf8" { printf "%.2fx %5s %s", $2, $4, $3 }' "$dir/low.txt")" \
		"$(awk '$1 == "utf16" { printf "%.2fx %5s %s", $2, $4, $3 }' "$dir/low.txt")"
	cat "$dir/low.txt" >> "$dir/all.txt"
	k=$((k + 1))
done
awk '!($1 in low) || $2 < low[$1] { low[$1] = $2; at[$1] = $3 }
	END {
		printf "lowest over %d placements: UTF-8 -> UTF-16LE %.2fx (%s), UTF-16LE -> UTF-8 %.2fx (%s)\n",
		       NR / 2, low["utf8"], at["utf8"], low["utf16"], at["utf16"]
	}' "$dir/all.txt"
rm -f "$dir/all.txt"
