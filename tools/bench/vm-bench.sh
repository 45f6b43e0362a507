#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The VM bench, in the guest (scripts/vm.sh bench): vm_bench on the corpus
# of the payload (data/corpus.list), with the payload's static utfconv CLI
# and glibc's iconv program from glibc/. Prints the tables and the goal
# lines of issue 4, ending with "vm bench checks: N passed, N failed".
#
# Environment: VM_BENCH_ARGS (extra vm_bench options, e.g. "-s 16 -r 2"),
# VM_BENCH_SIMD (the codec's paths, module and userspace build alike: the
# library's parameter simd=0|1; default 0, scalar only, because QEMU's TCG
# emulates the vector instructions, so SIMD figures here would measure
# the emulator; `make bench`'s host and UML benches measure both paths).

set -eu
cd "$(dirname "$0")"
HERE=$(pwd)
DATA=${UTFCONV_DATA:-$HERE/../data}
CLI=${CLI:-$HERE/../utfconv}

[ -c /dev/utfconv ] || { echo "vm-bench: no /dev/utfconv" >&2; exit 1; }
[ -s "$DATA/corpus.list" ] || { echo "vm-bench: no $DATA/corpus.list" >&2; exit 1; }

SIMD=${VM_BENCH_SIMD:-0}
want=N
[ "$SIMD" = 0 ] || want=Y
if [ "$(cat /sys/module/utfconv/parameters/simd 2>/dev/null)" != "$want" ]; then
	{ rmmod utfconv_dev && rmmod utfconv &&
		insmod "${UTFCONV_LIB_KO:-$HERE/../utfconv.ko}" simd="$SIMD" &&
		insmod "${UTFCONV_KO:-$HERE/../utfconv_dev.ko}"; } ||
		{ echo "vm-bench: cannot reload utfconv with simd=$SIMD" >&2; exit 1; }
fi
echo "vm-bench: codec paths: simd=$SIMD (module and the codec alone)"

set --
while read -r name; do
	[ -n "$name" ] && set -- "$@" "$DATA/corpus/$name.utf8.txt"
done < "$DATA/corpus.list"

# shellcheck disable=SC2086
exec ./vm_bench -p "$SIMD" -c "$CLI" -g "$HERE/glibc" -t "${TMPDIR:-/tmp}/vm-bench" \
	${VM_BENCH_ARGS:-} "$@"
