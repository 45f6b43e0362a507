#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: every test of the project, in order: host-check (codec
# under ASan/UBSan, differential), kunit (UML), style (checkpatch,
# kernel-doc, W=1, sparse), docs (Sphinx -W, man pages), install-test
# (make install and DKMS into scratch trees), vm-test (Debian 6.1 and
# 6.12 in QEMU; then scripts/vm.sh run compared with iconv), vm-debug (the debug kernel in QEMU: device suite,
# hardening slice, KUnit, kmemleak, then the race suite on two CPUs;
# VM_DEBUG_SLICE=check, the shorter
# slice; `make vm-debug` runs it in full), fs-experiments (FS_SLICE=check:
# vfat and Joliet images and JFS creates and renames under the stock and
# utfconv-wtf8 drivers, one boot; `make fs-experiments` runs every
# filesystem and driver).
# A failing step does not stop the later ones; any failure fails the run.
# CHECK_STEPS="kunit style" runs a subset; CHECK_STEPS can also name
# series-boot (scripts/series-boot.sh on a fresh `make series`), which is
# not a default step.

. "$(dirname "$0")/lib.sh"

SHARED=${SHARED:-$(cd "$UTFCONV_ROOT/.." && pwd)/shared}
export SHARED
STEPS=${CHECK_STEPS:-host-check kunit style docs install-test vm-test vm-debug fs-experiments}
cd "$SRC"

passed=0 failed=0 report= tests_passed=0 tests_failed=0
t0=$(date +%s)
for step in $STEPS; do
	section "check: $step"
	s=$(date +%s)
	case $step in
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
	# Not in the default steps (Documentation/series.rst): the series
	# written and its kernel booted, without the per-patch builds.
	series-boot) cmd=(bash -c '"$1/scripts/series.sh" && "$1/scripts/series-boot.sh"'
		_ "$UTFCONV_ROOT") ;;
	*) die "unknown step $step" ;;
	esac
	slog=$SRC/build/check/$step.log
	mkdir -p "$(dirname "$slog")"
	if "${cmd[@]}" 2>&1 | tee "$slog"; then
		res=PASS passed=$((passed + 1))
	else
		res="FAIL (exit ${PIPESTATUS[0]})" failed=$((failed + 1))
	fi
	secs=$(( $(date +%s) - s ))
	# The step's own test counts: the sum of its bare "N passed, N failed"
	# lines (host-check, one per guest), else its last "x: N passed, N
	# failed" line (kunit).
	read -r p f < <(awk '
		/^[0-9]+ passed, [0-9]+ failed/ { bp += $1; bf += $3; bare = 1 }
		/^[a-z-]+: [0-9]+ passed, [0-9]+ failed/ { lp = $2; lf = $4 + 0 }
		END { if (bare) print bp + 0, bf + 0; else print lp + 0, lf + 0 }' "$slog")
	if [ "$res" != PASS ] && [ "$f" = 0 ]; then
		f=1	# failed without a failing count: count the step
	fi
	tests_passed=$((tests_passed + p)) tests_failed=$((tests_failed + f))
	report="$report$(printf '  %-12s %-14s %5ss  %6s passed, %s failed' "$step" "$res" "$secs" "$p" "$f")\n"
	echo "check: $step: $res in ${secs}s"
done

section "check: summary ($(( $(date +%s) - t0 ))s)"
printf "$report"
echo "check: $passed of $((passed + failed)) steps passed"
echo "check: $tests_passed passed, $tests_failed failed"
[ "$failed" = 0 ] && [ "$tests_failed" = 0 ]
