#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make vm-debug` (VM_DEBUG_SLICE=full) and the vm-debug step of `make
# check` (VM_DEBUG_SLICE=check): the debug kernel (KASAN, UBSAN, kmemleak,
# lockdep; scripts/debug-kernel.sh) in QEMU: two one-CPU guests at once,
# one for the device suite, the hardening tests and the KUnit vector
# suites, one for the other KUnit suites (its console goes to a file,
# shown when both are done); then one more with
# two CPUs for the race suite alone (calls racing on one file, now under
# KASAN and lockdep; without the CLI checks: the full slice runs them
# in the first guest; in the check slice as the unprivileged user only,
# as the vectors suite: root makes the same calls, and its run was half
# of the boot).
# Runs all three; fails if any did.
#
# The one-CPU boots keep utfconv_block_test's 10 ms poll limit
# meaningful: with two vCPUs on a loaded host, the host deschedules the
# vCPU holding the stream's spinlock and a poll waits for it. Each guest
# of the pair is one QEMU thread, so the pair fits two host CPUs.

. "$(dirname "$0")/lib.sh"

r=0
mkdir -p "$SRC/build/vm"
beside "$SRC/build/vm/debug-kunit.out" \
	env VM_DEBUG_PART=kunit "$UTFCONV_ROOT/scripts/vm.sh" test debug
VM_DEBUG_PART=suite "$UTFCONV_ROOT/scripts/vm.sh" test debug || r=1
beside_done "vm-debug: the KUnit guest's console" || r=1
race_env=RUN_CLI=0
[ "${VM_DEBUG_SLICE:-full}" != check ] ||
	race_env="$race_env USER_ONLY=utfconv_race_test"
VM_SMP=2 VM_TESTS=utfconv_race_test VM_GUEST_ENV=$race_env \
	"$UTFCONV_ROOT/scripts/vm.sh" test debug || r=1
exit $r
