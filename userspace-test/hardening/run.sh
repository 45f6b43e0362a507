#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In-guest hardening tests (busybox sh), run by scripts/vm.sh on the debug
# kernel (after run-tests.sh, where the boot runs both): info leaks, stress, fault injection, syscall
# fuzz, unload while open, per-open memory. Each program's "#" figures,
# failures and totals go to the console line by line as they come (a hang
# shows where it stopped), with the seconds each part took; the last line
# is "N passed, N failed" (the hardening totals).
#
# Sizes (scripts/vm.sh sets them per slice): HARDENING_STRESS_SECONDS
# (60), HARDENING_FUZZ_COUNT (200000), HARDENING_OPENS (2000).

cd "$(dirname "$0")" || exit 1
P=./utfconv_hardening
passed=0
failed=0
OUT=/tmp/hardening.out

run() {
	t0=$(date +%s)
	echo "# hardening: $* ..."
	# The program's stdout is line-buffered; pass on the lines that
	# matter at once (a shell loop: grep and sed would buffer them), keep
	# all of them for the totals. Its totals line is shown as "N ok, N
	# not ok" so that only this script's last line counts as totals.
	: >"$OUT"
	{ "$@" 2>&1; echo "rc=$?" >"$OUT.rc"; } | while IFS= read -r l; do
		echo "$l" >>"$OUT"
		case $l in
		"#"*|FAIL*|"not ok"*) echo "$l" ;;
		"hardening "*": "*" passed, "*" failed")
			l=${l% failed}
			echo "${l% passed, *} ok, ${l##*, } not ok" ;;
		esac
	done
	rc=$(sed -n 's/^rc=//p' "$OUT.rc")
	secs=$(( $(date +%s) - t0 ))
	line=$(grep -E '^hardening [a-z]+: [0-9]+ passed, [0-9]+ failed' "$OUT" | tail -n 1)
	if [ -z "$line" ]; then
		echo "FAIL: hardening: $* exited $rc without totals (${secs}s)"
		tail -n 20 "$OUT"
		failed=$((failed + 1))
		return
	fi
	p=$(echo "$line" | sed 's/.*: \([0-9]*\) passed.*/\1/')
	f=$(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$rc" = 0 ] || [ "$f" != 0 ] || failed=$((failed + 1))
	echo "# hardening: $1 $2: ${secs}s"
}

run $P leak
run $P stress "${HARDENING_STRESS_SECONDS:-60}"
run $P fault
run $P fuzz "${HARDENING_FUZZ_COUNT:-200000}"

# The device module cannot be unloaded while a file is open, nor the
# library while the device module uses it.
exec 3<>/dev/utfconv
if rmmod utfconv_dev 2>/dev/null; then
	echo "FAIL: rmmod utfconv_dev succeeded with /dev/utfconv open"
	failed=$((failed + 1))
	insmod "${UTFCONV_KO:-/utfconv/utfconv_dev.ko}"
else
	echo "# unload: rmmod utfconv_dev refused while a file is open"
	passed=$((passed + 1))
fi
exec 3>&-
if rmmod utfconv 2>/dev/null; then
	echo "FAIL: rmmod utfconv succeeded with utfconv_dev loaded"
	failed=$((failed + 1))
	insmod "${UTFCONV_LIB_KO:-/utfconv/utfconv.ko}"
	rmmod utfconv_dev
	insmod "${UTFCONV_KO:-/utfconv/utfconv_dev.ko}"
else
	echo "# unload: rmmod utfconv refused while utfconv_dev uses it"
	passed=$((passed + 1))
fi

# Per-open memory, charged to a child memory cgroup (cgroup v2).
cg=
root=/sys/fs/cgroup
[ -d $root ] || root=/tmp/cgroup2
if mkdir -p $root && { grep -q " $root cgroup2 " /proc/mounts ||
	mount -t cgroup2 none $root 2>/dev/null; }; then
	echo +memory > $root/cgroup.subtree_control 2>/dev/null
	mkdir -p $root/utfconv-opens 2>/dev/null &&
		[ -f $root/utfconv-opens/memory.current ] &&
		cg=$root/utfconv-opens
fi
if [ -z "$cg" ]; then
	echo "FAIL: no cgroup v2 memory controller for the per-open charge"
	failed=$((failed + 1))
fi
run $P opens "${HARDENING_OPENS:-2000}" $cg
[ -n "$cg" ] && rmdir "$cg" 2>/dev/null

echo "hardening: totals"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
