#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: every test of the project, in this order: host-check
# (codec under ASan/UBSan, differential; alone, on both CPUs); kunit
# (UML), then style (checkpatch, kernel-doc, W=1, sparse) and docs
# (Sphinx -W, man pages), beside install-test (make install and DKMS into
# scratch trees), fs-experiments (FS_SLICE=check: vfat and Joliet images
# under the stock, utfconv-wtf8 and utfconv-strict drivers, JFS creates
# and renames under the first two, SMB end to end, one boot; `make
# fs-experiments` runs every filesystem and driver) and
# series (the patch series applied and each patch checked by checkpatch,
# without the builds of `make series-test`); vm-test (Debian 6.1 and 6.12
# in QEMU; then scripts/vm.sh run compared with iconv); vm-debug (the
# debug kernel in QEMU: device suite, hardening slice, KUnit, kmemleak,
# then the race suite on two CPUs; VM_DEBUG_SLICE=check, the shorter
# slice; `make vm-debug` runs it in full). vm-test and vm-debug run
# alone: their device suites time polls and races, which a busy host
# would stretch.
# A failing step does not stop the later ones; any failure fails the run.
# CHECK_STEPS="kunit style" runs a subset: groups separated by spaces
# run one after the other; in a group "a,b+c+d" (as below), a then b run
# in the background while c then d run in the foreground (only a group's
# first member is a list). Each step may be named once; the list is
# checked before any step runs. CHECK_STEPS can also name series-boot
# (scripts/series-boot.sh on a fresh `make series`), which is not a
# default step.

. "$(dirname "$0")/lib.sh"

SHARED=${SHARED:-$(cd "$UTFCONV_ROOT/.." && pwd)/shared}
export SHARED
STEPS=${CHECK_STEPS:-host-check kunit,style,docs+install-test+fs-experiments+series vm-test vm-debug}
cd "$SRC"

passed=0 failed=0 report= tests_passed=0 tests_failed=0 failed_steps=

# step_cmd STEP: the command of STEP in cmd.
step_cmd() {
	case $1 in
	host-check) cmd=(make -C userspace-test host-check SHARED="$SHARED") ;;
	kunit) cmd=(bash -c '"$1/scripts/uml-halt-test.sh" && "$1/scripts/kunit.sh"'
		_ "$UTFCONV_ROOT") ;;
	style) cmd=("$UTFCONV_ROOT/scripts/style.sh") ;;
	docs) cmd=("$UTFCONV_ROOT/scripts/docs.sh") ;;
	install-test) cmd=("$UTFCONV_ROOT/scripts/install-test.sh") ;;
	vm-test) cmd=("$UTFCONV_ROOT/scripts/vm-test.sh") ;;
	vm-debug) cmd=(env VM_DEBUG_SLICE="${VM_DEBUG_SLICE:-check}"
		"$UTFCONV_ROOT/scripts/vm-debug.sh") ;;
	fs-experiments) cmd=(env FS_SLICE=check
		"$UTFCONV_ROOT/scripts/fs-experiments.sh") ;;
	# The series applied and every patch checked, without the builds
	# (Documentation/series.rst); `make series-test` builds and boots.
	series) cmd=(env SERIES_BUILD=0 "$UTFCONV_ROOT/scripts/series-test.sh") ;;
	# Not in the default steps (Documentation/series.rst): the series
	# written and its kernel booted, without the per-patch builds.
	series-boot) cmd=(bash -c '"$1/scripts/series.sh" && "$1/scripts/series-boot.sh"'
		_ "$UTFCONV_ROOT") ;;
	*) die "unknown step '$1' (the steps: host-check style docs kunit install-test fs-experiments series vm-test vm-debug series-boot)" ;;
	esac
}

# account STEP STATUS SECONDS: STEP's line of the summary, and its own
# test counts: the sum of its bare "N passed, N failed" lines
# (host-check, one per guest), else its last "x: N passed, N failed"
# line (kunit).
account() {
	local step=$1 st=$2 secs=$3 res p f
	if [ "$st" = 0 ]; then
		res=PASS passed=$((passed + 1))
	else
		res="FAIL (exit $st)" failed=$((failed + 1))
		failed_steps="$failed_steps $step"
	fi
	read -r p f < <(awk '
		/^[0-9]+ passed, [0-9]+ failed/ { bp += $1; bf += $3; bare = 1 }
		/^[a-z-]+: [0-9]+ passed, [0-9]+ failed/ { lp = $2; lf = $4 + 0 }
		END { if (bare) print bp + 0, bf + 0; else print lp + 0, lf + 0 }' \
		"$SRC/build/check/$step.log")
	if [ "$res" != PASS ] && [ "$f" = 0 ]; then
		f=1	# failed without a failing count: count the step
	fi
	tests_passed=$((tests_passed + p)) tests_failed=$((tests_failed + f))
	report="$report$(printf '  %-14s %-14s %5ss  %6s passed, %s failed' "$step" "$res" "$secs" "$p" "$f")\n"
	echo "check: $step: $res in ${secs}s"
}

# lane STEP...: each STEP in turn, its output to its log alone, its
# status and seconds to build/check/STEP.rc for the summary.
lane() {
	local step s st
	for step; do
		step_cmd "$step"
		s=$(date +%s) st=0
		"${cmd[@]}" >"$SRC/build/check/$step.log" 2>&1 || st=$?
		echo "$st $(( $(date +%s) - s ))" >"$SRC/build/check/$step.rc"
	done
}

# check_steps: every group of STEPS well formed, every step known and
# named once (a step's log and status are one file each), before any
# runs: a misspelt name would otherwise end the run where it stands,
# without a summary, and leave a background lane running.
check_steps() {
	local group m step i names steps
	local -A seen=()
	for group in $STEPS; do
		case +$group+ in
		*++*) die "CHECK_STEPS: '$group' has an empty step" ;;
		esac
		IFS=+ read -ra steps <<<"$group"
		for i in "${!steps[@]}"; do
			m=${steps[$i]}
			case ,$m, in
			*,,*) die "CHECK_STEPS: '$group' has an empty step" ;;
			esac
			[ "$i" = 0 ] || [ "$m" = "${m%,*}" ] ||
				die "CHECK_STEPS: '$group': only a group's first member may be a list (a,b+c)"
			IFS=, read -ra names <<<"$m"
			for step in "${names[@]}"; do
				step_cmd "$step"
				[ -z "${seen[$step]:-}" ] ||
					die "CHECK_STEPS: step '$step' named twice"
				seen[$step]=1
			done
		done
	done
	[ "${#seen[@]}" -gt 0 ] || die "CHECK_STEPS names no step"
}
check_steps

mkdir -p "$SRC/build/check"
rm -f "$SRC"/build/check/*.rc
t0=$(date +%s)
for group in $STEPS; do
	# A group "a,b+c+d" runs a then b in the background, each one's
	# output to its log alone (shown when the group is done), while c
	# and d run one after the other: steps that keep one CPU busy
	# (kunit's UML kernel, then style's checkpatch and builds) beside
	# steps that keep the other busy (one QEMU guest at a time).
	IFS=+ read -ra steps <<<"$group"
	bg=()
	if [ "${#steps[@]}" -gt 1 ]; then
		IFS=, read -ra bg <<<"${steps[0]}"
		steps=("${steps[@]:1}")
		for step in "${bg[@]}"; do
			rm -f "$SRC/build/check/$step.rc" "$SRC/build/check/$step.log"
		done
		section "check: ${bg[*]}, beside ${steps[*]} (their logs follow them)"
		lane "${bg[@]}" &
		lane_pid=$!
	fi
	for step in "${steps[@]}"; do
		section "check: $step"
		step_cmd "$step"
		s=$(date +%s) st=0
		"${cmd[@]}" 2>&1 | tee "$SRC/build/check/$step.log" || st=${PIPESTATUS[0]}
		account "$step" "$st" "$(( $(date +%s) - s ))"
	done
	# each step's own status is in its .rc; the lane's would stop the
	# run here (set -e) before any of them were counted
	[ "${#bg[@]}" -eq 0 ] || wait "$lane_pid" || true
	for step in "${bg[@]}"; do
		section "check: $step ($SRC/build/check/$step.log)"
		cat "$SRC/build/check/$step.log" 2>/dev/null || echo "check: $step: no log"
		# no status: the lane died before the step ended
		if ! read -r st secs 2>/dev/null <"$SRC/build/check/$step.rc"; then
			echo "check: $step: no status, the lane ended before it did"
			st=1 secs=0
			touch "$SRC/build/check/$step.log"
		fi
		account "$step" "$st" "$secs"
	done
done

# CI shows the end of the output only: the failures of each failed
# step, again, just above the summary.
for log in "$SRC"/build/check/*.log; do
	step=$(basename "$log" .log)
	case " $failed_steps " in *" $step "*) ;; *) continue ;; esac
	section "check: $step: what failed (the first 40 lines)"
	# no such line (pipefail, set -e) must not cost the summary
	grep -a -E 'not ok [0-9]|Expected|[^A-Za-z]FAIL|fatal:|error:|Error [0-9]|[Ww][Aa][Rr][Nn][Ii][Nn][Gg]:' \
		"$log" | grep -a -v -E '# SKIP|^check:' | head -40 || true
done

section "check: summary ($(( $(date +%s) - t0 ))s)"
printf "$report"
echo "check: $passed of $((passed + failed)) steps passed"
echo "check: $tests_passed passed, $tests_failed failed"
[ "$failed" = 0 ] && [ "$tests_failed" = 0 ]
