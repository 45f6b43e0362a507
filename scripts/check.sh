#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: every test of the project, in order: host-check (codec
# under ASan/UBSan, differential), kunit (UML), style (checkpatch,
# kernel-doc, W=1, sparse), vm-test (Debian 6.1 and 6.12 in QEMU).
# A failing step does not stop the later ones; any failure fails the run.
# CHECK_STEPS="kunit style" runs a subset.

. "$(dirname "$0")/lib.sh"

SHARED=${SHARED:-$(cd "$UTFCONV_ROOT/.." && pwd)/shared}
export SHARED
STEPS=${CHECK_STEPS:-host-check kunit style vm-test}
cd "$UTFCONV_ROOT"

passed=0 failed=0 report=
t0=$(date +%s)
for step in $STEPS; do
	section "check: $step"
	s=$(date +%s)
	case $step in
	host-check) cmd=(make -C userspace-test host-check SHARED="$SHARED") ;;
	kunit) cmd=(scripts/kunit.sh) ;;
	style) cmd=(scripts/style.sh) ;;
	vm-test) cmd=(scripts/vm.sh test) ;;
	*) die "unknown step $step" ;;
	esac
	if "${cmd[@]}"; then
		res=PASS passed=$((passed + 1))
	else
		res="FAIL (exit $?)" failed=$((failed + 1))
	fi
	secs=$(( $(date +%s) - s ))
	report="$report$(printf '  %-12s %-14s %5ss' "$step" "$res" "$secs")\n"
	echo "check: $step: $res in ${secs}s"
done

section "check: summary ($(( $(date +%s) - t0 ))s)"
printf "$report"
echo "check: $passed passed, $failed failed"
[ "$failed" = 0 ]
