#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The VM bench, in the guest (scripts/vm.sh bench): vm_bench on the corpus
# of the payload (data/corpus.list), with the payload's static utfconv CLI
# and glibc's iconv program from glibc/. Prints the tables and the goal
# lines of issue 4, ending with "vm bench checks: N passed, N failed".
#
# Environment: VM_BENCH_ARGS (extra vm_bench options, e.g. "-s 16 -r 2").
# The module and the codec alone both take the paths the library chooses
# for this CPU, what users get. Under QEMU's TCG the vector instructions
# are emulated, so these figures compare the module with its peers in the
# same guest, never with the host; `make bench`'s host and UML benches
# measure each path natively.

set -eu
cd "$(dirname "$0")"
HERE=$(pwd)
DATA=${UTFCONV_DATA:-$HERE/../data}
CLI=${CLI:-$HERE/../utfconv}

[ -c /dev/utfconv ] || { echo "vm-bench: no /dev/utfconv" >&2; exit 1; }
[ -s "$DATA/corpus.list" ] || { echo "vm-bench: no $DATA/corpus.list" >&2; exit 1; }

echo "vm-bench: codec paths: as the library chooses them (module and the codec alone)"

set --
while read -r name; do
	[ -n "$name" ] && set -- "$@" "$DATA/corpus/$name.utf8.txt"
done < "$DATA/corpus.list"

# shellcheck disable=SC2086
exec ./vm_bench -p 1 -c "$CLI" -g "$HERE/glibc" -t "${TMPDIR:-/tmp}/vm-bench" \
	${VM_BENCH_ARGS:-} "$@"
