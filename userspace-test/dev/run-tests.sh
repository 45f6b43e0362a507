#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In-guest test runner (busybox sh): the /dev/utfconv selftests as root
# and as an unprivileged user (uid 1000; the test programs drop
# privileges themselves), then the CLI checks. Full logs go to $LOGDIR;
# the console gets each program's totals and any failure. The last line
# is exactly "N passed, N failed"; exit status 0 only if nothing failed.
# A skipped test counts as failed here: the rig guarantees the device.

cd "$(dirname "$0")" || exit 1
HERE=$(pwd)
LOGDIR=${LOGDIR:-/tmp/utfconv-logs}
UTFCONV_DATA=${UTFCONV_DATA:-$HERE/data}
export UTFCONV_DATA
mkdir -p "$LOGDIR"
chmod 0777 "$LOGDIR" 2>/dev/null

passed=0
failed=0
TESTS=${TESTS:-"utfconv_api_test utfconv_iter_test utfconv_vectors_test utfconv_block_test utfconv_stress_test utfconv_race_test"}
# Programs of $TESTS run as the unprivileged user only, not as root too:
# the debug kernel's check slice (scripts/vm.sh, scripts/vm-debug.sh)
# passes the vectors suite, whose root run takes as long there as the
# rest of the suite, and the race suite.
USER_ONLY=${USER_ONLY:-}
# RUN_CLI=0 leaves out the CLI checks and the module parameters:
# scripts/vm-debug.sh's race boot, after a boot that ran them.
RUN_CLI=${RUN_CLI:-1}
USER_UID=${USER_UID:-1000}

# summarise PROGRAM LABEL LOG RC
summarise() {
	totals=$(grep '^# Totals:' "$3" | tail -n 1)
	if [ -z "$totals" ]; then
		echo "$2: $1 exited $4 without totals"
		tail -n 20 "$3"
		failed=$((failed + 1))
		return
	fi
	p=$(echo "$totals" | sed 's/.*Totals: pass:\([0-9]*\).*/\1/')
	f=$(echo "$totals" | sed 's/.* fail:\([0-9]*\).*/\1/')
	x=$(echo "$totals" | sed 's/.*xfail:\([0-9]*\).*/\1/')
	xp=$(echo "$totals" | sed 's/.*xpass:\([0-9]*\).*/\1/')
	s=$(echo "$totals" | sed 's/.*skip:\([0-9]*\).*/\1/')
	e=$(echo "$totals" | sed 's/.*error:\([0-9]*\).*/\1/')
	passed=$((passed + p + x))
	failed=$((failed + f + xp + s + e))
	echo "$2: $1: pass $p fail $f skip $s error $e (exit $4)"
	if [ $((f + xp + s + e)) -ne 0 ] || [ "$4" -ne 0 ]; then
		# diagnostics and failures, not the passing tests
		grep -v -e '^ok ' -e '^#  *RUN ' -e '^#  *OK ' "$3" | tail -n 200
		if [ "$4" -ne 0 ] && [ $((f + xp + s + e)) -eq 0 ]; then
			failed=$((failed + 1))
		fi
	fi
}

# utfconv_block_test stalls a read's copy_to_user() with userfaultfd,
# which an unprivileged process may do for kernel faults only with this
# sysctl. A kernel without CONFIG_USERFAULTFD has no
# such sysctl: that one test is left out there, and says so.
UFFD_ARGS=
if [ -e /proc/sys/vm/unprivileged_userfaultfd ]; then
	echo 1 > /proc/sys/vm/unprivileged_userfaultfd
else
	UFFD_ARGS="-T poll_during_stalled_read -T reset_during_stalled_read"
	echo "utfconv_block_test: no CONFIG_USERFAULTFD in this kernel: poll_during_stalled_read and reset_during_stalled_read left out"
fi

# io_uring, aio and user namespaces are in Debian's kernels; the debug
# kernel (tinyconfig plus scripts/debug-kernel.config) has none of them,
# so the tests that need one are left out there, and say so.
# __io_uring_cancel is io_uring's (6.1 and 6.12); the system call names
# exist without it, as stubs.
ITER_ARGS=
API_ARGS=
if ! grep -q ' [Tt] __io_uring_cancel$' /proc/kallsyms; then
	ITER_ARGS="-T io_uring_read_write -T io_uring_write_waits_for_room -T poll_mask_write -T poll_mask_ill_formed -T poll_mask_flush -T poll_mask_room"
	echo "utfconv_iter_test: no CONFIG_IO_URING in this kernel: io_uring_read_write, io_uring_write_waits_for_room and the poll_mask_* tests left out"
fi
if [ ! -e /proc/sys/fs/aio-max-nr ]; then
	ITER_ARGS="$ITER_ARGS -T aio_poll"
	echo "utfconv_iter_test: no CONFIG_AIO in this kernel: aio_poll left out"
fi
if [ ! -e /proc/self/ns/user ]; then
	API_ARGS="-T open_max_user_streams_userns -T open_max_user_streams_root_userns"
	echo "utfconv_api_test: no CONFIG_USER_NS in this kernel: open_max_user_streams_userns and open_max_user_streams_root_userns left out"
fi

# utfconv_race_test races calls on two CPUs; with one they hardly
# interleave and it could not fail (the debug kernel's guest has two).
if [ "$(grep -c '^processor' /proc/cpuinfo)" -lt 2 ]; then
	case " $TESTS " in
	*" utfconv_race_test "*)
		TESTS=$(echo " $TESTS " | sed 's/ utfconv_race_test / /')
		echo "utfconv_race_test: one CPU in this guest: left out (make vm-test runs it in a two-CPU guest)" ;;
	esac
fi

for who in root user; do
	for t in $TESTS; do
		case " $USER_ONLY " in
		*" $t "*) [ "$who" = root ] && continue ;;
		esac
		log=$LOGDIR/$t.$who.log
		args=
		t0=$(date +%s)
		case $t in
		utfconv_block_test) args=$UFFD_ARGS ;;
		utfconv_iter_test) args=$ITER_ARGS ;;
		utfconv_api_test) args=$API_ARGS ;;
		esac
		if [ "$who" = user ]; then
			UTFCONV_TEST_UID=$USER_UID "./$t" $args > "$log" 2>&1
		else
			"./$t" $args > "$log" 2>&1
		fi
		rc=$?
		echo "$who: $t: $(($(date +%s) - t0))s"
		summarise "$t" "$who" "$log" $rc
		# times the tests measured, for the record
		grep '^# measured: ' "$log" | sed "s/^# measured: /$who: $t: /"
	done
done

# cli_checks: userspace-test/dev/cli-test.sh against the CLI.
cli_checks() {
	log=$LOGDIR/cli-test.log
	t0=$(date +%s)
	sh ./cli-test.sh "$HERE/utfconv" > "$log" 2>&1
	rc=$?
	echo "cli: cli-test.sh: $(($(date +%s) - t0))s"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
	if [ -n "$line" ]; then
		p=${line%% passed*}
		f=${line#*, }
		f=${f%% failed}
		passed=$((passed + p))
		failed=$((failed + f))
		echo "cli: $line (exit $rc)"
		[ "$f" -ne 0 ] && grep -e '^not ok' -e '^#' "$log"
	else
		echo "cli: cli-test.sh exited $rc without a summary"
		tail -n 20 "$log"
		failed=$((failed + 1))
	fi
}

[ "$RUN_CLI" = 1 ] && cli_checks

# Module parameters: insmod refuses values out of range and takes valid
# ones; both modules are left loaded with their defaults. Root only, and
# only with nothing else holding the device open.
# param OK|FAIL DESC lib|dev ARG...: load the library (UTFCONV_LIB_KO,
# after unloading both) or the device (UTFCONV_KO) with ARG...
param() {
	want=$1 desc=$2 which=$3
	shift 3
	r=1
	ko=$UTFCONV_KO
	[ "$which" = lib ] && ko=$UTFCONV_LIB_KO
	if rmmod utfconv_dev && { [ "$which" = dev ] || rmmod utfconv; }; then
		if insmod "$ko" "$@" 2> "$LOGDIR/insmod.err"; then
			[ "$want" = OK ] && r=0
		else
			[ "$want" = FAIL ] && grep -qi 'invalid' "$LOGDIR/insmod.err" && r=0
		fi
		[ -d /sys/module/utfconv ] || insmod "$UTFCONV_LIB_KO"
		[ -c /dev/utfconv ] || insmod "$UTFCONV_KO"
	fi
	if [ $r = 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "params: not ok - $desc: $(cat "$LOGDIR/insmod.err")"
	fi
}

# readback DESC WANT: the device's parameter buffer_bytes reads back as
# WANT, and the library has no parameter that switches its codec paths
# (simd and bmi2 are gone: the paths follow the CPU alone).
readback() {
	p=/sys/module/utfconv/parameters
	v=$(cat /sys/module/utfconv_dev/parameters/buffer_bytes)
	if [ "$v" = "$2" ] && [ ! -e $p/simd ] && [ ! -e $p/bmi2 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "params: not ok - $1: buffer_bytes read back $v, want $2; library parameters: $(ls $p 2>/dev/null | tr '\n' ' ')"
	fi
}

if [ "$RUN_CLI" = 1 ] && [ -n "${UTFCONV_KO:-}" ] &&
		[ -n "${UTFCONV_LIB_KO:-}" ] && [ "$(id -u)" = 0 ] &&
		[ -c /dev/utfconv ]; then
	p0=$passed
	param FAIL "buffer_bytes=1000 (not a power of two) refused" dev buffer_bytes=1000
	# past unsigned int: EINVAL as documented, not kstrtouint's ERANGE
	param FAIL "buffer_bytes=4294967296 (2^32) refused" dev buffer_bytes=4294967296
	param FAIL "buffer_bytes=2^64+4096 refused" dev buffer_bytes=18446744073709555712
	param FAIL "buffer_bytes=x refused" dev buffer_bytes=x
	param OK "buffer_bytes=4096 taken" dev buffer_bytes=4096
	readback "buffer_bytes=4096" 4096
	param OK "defaults taken again" lib
	readback "defaults" 65536
	echo "params: $((passed - p0)) passed"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
