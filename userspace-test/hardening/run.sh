#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In-guest hardening tests (busybox sh), run by scripts/vm.sh on the debug
# kernel after run-tests.sh: stress, fault injection, info leaks, syscall
# fuzz, per-open memory. Each program's "#" figures and totals go to the
# console; the last line is "N passed, N failed" (the hardening totals).
# HARDENING_STRESS_SECONDS (60), HARDENING_FUZZ_COUNT (20000),
# HARDENING_OPENS (2000).

cd "$(dirname "$0")" || exit 1
P=./utfconv_hardening
passed=0
failed=0

run() {
	out=$("$@" 2>&1)
	rc=$?
	echo "$out" | grep -E '^(#|FAIL|not ok)' | head -n 60
	line=$(echo "$out" | grep -E '^hardening [a-z]+: [0-9]+ passed, [0-9]+ failed' | tail -n 1)
	if [ -z "$line" ]; then
		echo "hardening: $* exited $rc without totals"
		echo "$out" | tail -n 20
		failed=$((failed + 1))
		return
	fi
	echo "$line" | sed 's/ passed, / ok, /; s/ failed$/ not ok/'
	p=$(echo "$line" | sed 's/.*: \([0-9]*\) passed.*/\1/')
	f=$(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$rc" = 0 ] || [ "$f" != 0 ] || failed=$((failed + 1))
}

run $P leak
run $P stress "${HARDENING_STRESS_SECONDS:-60}"
run $P fault
run $P fuzz "${HARDENING_FUZZ_COUNT:-200000}"

# The module cannot be unloaded while a file is open.
exec 3<>/dev/utfconv
if rmmod utfconv 2>/dev/null; then
	echo "FAIL: rmmod utfconv succeeded with /dev/utfconv open"
	failed=$((failed + 1))
	insmod "${UTFCONV_KO:-/utfconv/utfconv.ko}"
else
	echo "# unload: rmmod refused while a file is open"
	passed=$((passed + 1))
fi
exec 3>&-

# Per-open memory, charged to a memory cgroup when cgroup2 can be set up.
cg=
root=/sys/fs/cgroup
[ -d $root ] || root=/tmp/cgroup2
if mkdir -p $root && { mountpoint -q $root ||
	mount -t cgroup2 none $root 2>/dev/null; }; then
	echo +memory > $root/cgroup.subtree_control 2>/dev/null
	mkdir -p $root/utfconv-opens 2>/dev/null &&
		[ -f $root/utfconv-opens/memory.current ] &&
		cg=$root/utfconv-opens
fi
run $P opens "${HARDENING_OPENS:-2000}" $cg
[ -n "$cg" ] && rmdir "$cg" 2>/dev/null

echo "hardening: totals"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
