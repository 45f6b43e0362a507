#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make vm-debug` (VM_DEBUG_SLICE=full) and the vm-debug step of `make
# check` (VM_DEBUG_SLICE=check): the debug kernel (KASAN, UBSAN, kmemleak,
# lockdep; scripts/debug-kernel.sh) in QEMU, once with one CPU for the
# device suite, the hardening tests and KUnit, then once more with two
# CPUs for the race suite alone (calls racing on one file, now under
# KASAN and lockdep). Runs both; fails if either did.
#
# The one-CPU boot keeps utfconv_block_test's 10 ms poll limit
# meaningful: with two vCPUs on a loaded host, the host deschedules the
# vCPU holding the stream's spinlock and a poll waits for it.

. "$(dirname "$0")/lib.sh"

r=0
"$UTFCONV_ROOT/scripts/vm.sh" test debug || r=1
VM_SMP=2 VM_TESTS=utfconv_race_test "$UTFCONV_ROOT/scripts/vm.sh" test debug ||
	r=1
exit $r
