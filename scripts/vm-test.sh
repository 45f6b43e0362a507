#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make vm-test` and the vm-test step of `make check`: the device suite
# and CLI checks on Debian's 6.1 and 6.12 kernels (one CPU each, both
# guests at once; the 6.1 guest's console goes to a file, shown when
# both are done), the race suite in a two-CPU guest of each kernel, one
# after the other (calls racing on one file; with one CPU they hardly
# interleave; without the CLI checks, which the one-CPU guests ran),
# then scripts/vm-run-test.sh (the
# CLI's iconv cases through scripts/vm.sh run). Runs them all; fails if
# any did.

. "$(dirname "$0")/lib.sh"

r=0
mkdir -p "$SRC/build/vm"
beside "$SRC/build/vm/vm-test-6.1.out" "$UTFCONV_ROOT/scripts/vm.sh" test 6.1
"$UTFCONV_ROOT/scripts/vm.sh" test 6.12 || r=1
beside_done "vm-test: the 6.1 guest's console" || r=1
VM_SMP=2 VM_TESTS=utfconv_race_test VM_GUEST_ENV=RUN_CLI=0 \
	"$UTFCONV_ROOT/scripts/vm.sh" test 6.1 6.12 || r=1
"$UTFCONV_ROOT/scripts/vm-run-test.sh" || r=1
exit $r
