#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run utfconv's KUnit suites with kunit.py on User-Mode Linux.
#
# The 6.12 tree (Debian's linux-source-6.12) is extracted once into a cache
# outside the clone, keyed by source version and by kunit/.kunitconfig:
#   ~/.cache/utfconv/kunit-<version>-<hash>/{src,build}
# The project goes into that tree as drivers/misc/utfconv/ with its
# checked-in Kconfig and Kbuild files (copied only when their content
# changed, so a rerun only rebuilds what changed), and kunit.py builds it;
# one boot of the UML kernel runs every suite on every codec path (each
# case passes its path to the library, kunit/utfconv_paths.h). Extra
# arguments go to the UML kernel's command line.
#
# Exits non-zero on a failed or crashed test, or when no test ran.
#
# Environment (for scripts/bench.sh; unset gives the suites of kunit/):
#   KUNIT_KUNITCONFIG  kunitconfig to use (default kunit/.kunitconfig);
#                      its content keys the cache directory
#   KUNIT_TESTS_DIR    directory placed as kunit/ of the tree: its *.c,
#                      *.h and Kbuild (default kunit/)
#   KUNIT_LOG          parsed results (default build/kunit.log)
#   KUNIT_MAKE_OPTION  one make variable for the build, e.g. UTFCONV_ISA=
#                      (the portable codec alone, kmod/Kbuild)

. "$(dirname "$0")/lib.sh"

# The vector table of the suites is generated, never checked in: make it
# before kunit/ is copied into the tree, from the case files of the tree.
python3 "$SRC/scripts/gen_vectors.py" --kunit "$SRC/kunit/utfconv_vectors_gen.h"

KUNITCONFIG=${KUNIT_KUNITCONFIG:-$SRC/kunit/.kunitconfig}
TESTS_DIR=${KUNIT_TESTS_DIR:-$SRC/kunit}
[ -f "$KUNITCONFIG" ] || die "missing $KUNITCONFIG"

ver=$(linux_source_version)
hash=$(cat "$KUNITCONFIG" | sha256sum | cut -c1-12)
CDIR=$UTFCONV_CACHE/kunit-$ver-$hash
TREE=$CDIR/src
BUILD=$CDIR/build
LOG=${KUNIT_LOG:-$SRC/build/kunit.log}
mkdir -p "$CDIR" "$SRC/build"

exec 9>"$CDIR.lock"
if ! flock -n 9; then
	log "kunit: waiting for another run using $CDIR"
	flock 9
fi

extract_source "$TREE"

# --- place the project in the tree as drivers/misc/utfconv/ ------------
D=$TREE/drivers/misc/utfconv

sync_file "$SRC/include/linux/utfconv.h" "$TREE/include/linux/utfconv.h"
sync_file "$SRC/include/uapi/linux/utfconv.h" \
	"$TREE/include/uapi/linux/utfconv.h"

# sync_dir FROM TO GLOB...: mirror the matching files of FROM into TO,
# removing the ones no longer in FROM.
sync_dir() {
	from=$1 to=$2
	shift 2
	mkdir -p "$to"
	for f in "$to"/*; do
		case $f in *.c|*.h) ;; *) continue ;; esac
		[ -f "$f" ] && { [ ! -f "$from/${f##*/}" ] || [ "${f%.mod.c}" != "$f" ]; } &&
			rm -f "$f"
	done
	for g in "$@"; do
		for f in "$from"/$g; do
			case $f in *.mod.c) continue ;; esac	# kbuild output
			[ -f "$f" ] && sync_file "$f" "$to/${f##*/}"
		done
	done
	return 0
}
sync_dir "$SRC/kmod" "$D/kmod" '*.c' '*.h' Kbuild
sync_dir "$TESTS_DIR" "$D/kunit" '*.c' '*.h' Kbuild
[ -f "$D/kunit/Kbuild" ] || die "no Kbuild in $TESTS_DIR"
# The checked-in Kconfig and Kbuild, as an in-tree driver has them.
sync_file "$SRC/Kconfig" "$D/Kconfig"
sync_file "$SRC/Kbuild" "$D/Kbuild"
rm -f "$D/Makefile"	# written by earlier versions of this script

grep -q '^source "drivers/misc/utfconv/Kconfig"' "$TREE/drivers/misc/Kconfig" ||
	sed -i '$i source "drivers/misc/utfconv/Kconfig"' "$TREE/drivers/misc/Kconfig"
grep -q '^obj-y.*utfconv/' "$TREE/drivers/misc/Makefile" ||
	echo 'obj-y				+= utfconv/' >>"$TREE/drivers/misc/Makefile"

# --- build and run --------------------------------------------------------
# kunit.py configures and builds; the UML kernel then runs with its console
# written to a file and kunit.py parses that file. (Under `kunit.py run`
# UML writes to a non-blocking pipe and drops console lines whenever the
# reader falls behind, which garbles long suites.)
log "kunit: tree $TREE"
log "kunit: build $BUILD"
cd "$TREE"
KUNIT=(python3 ./tools/testing/kunit/kunit.py)
"${KUNIT[@]}" build --kunitconfig="$KUNITCONFIG" \
	--jobs="${KUNIT_JOBS:-$(nproc)}" --build_dir="$BUILD" \
	${KUNIT_MAKE_OPTION+--make_options="$KUNIT_MAKE_OPTION"}

# One boot of the UML kernel: the suites run every codec path themselves.
# Its console goes to test-all.log (and test.log), its parsed results to
# $LOG-all and $LOG.
PATHS=all
total_passed=0 total_failed=0 total_skipped=0 ok=1
: >"$LOG"
for path in $PATHS; do
	RAW=$BUILD/test-$path.log
	args=(kunit.enable=1 mem=1G console=tty kunit_shutdown=halt "$@")
	log "kunit: [$path] running $BUILD/linux ${args[*]}"
	set +e
	start=$(date +%s)
	timeout -k 10 "${KUNIT_TIMEOUT:-1200}" "$BUILD/linux" "${args[@]}" \
		</dev/null >"$RAW" 2>&1
	urc=$?
	secs=$(( $(date +%s) - start ))
	cp "$RAW" "$BUILD/test.log"
	[ "$urc" = 124 ] && log "kunit: [$path] UML timed out after ${KUNIT_TIMEOUT:-1200}s"
	log "kunit: [$path] UML ran ${secs}s (exit $urc), console in $RAW"

	# The full parsed result goes to $LOG; print all but the passing cases.
	set -o pipefail
	"${KUNIT[@]}" parse "$RAW" 2>&1 | tee "$LOG-$path" |
		grep -a -v -E '^\[[0-9:]+\] +\[PASSED\] '
	rc=${PIPESTATUS[0]}
	set +o pipefail
	cat "$LOG-$path" >>"$LOG"
	set -e

	# "Testing complete. Ran 12 tests: passed: 11, failed: 1"
	summary=$(grep -a 'Testing complete\. Ran' "$LOG-$path" | tail -n1 | sed 's/^\[[0-9:]*\] //')
	ran=$(printf '%s\n' "$summary" | sed -n 's/.*Ran \([0-9]*\) tests\{0,1\}.*/\1/p')
	passed=$(printf '%s\n' "$summary" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
	failed=$(printf '%s\n' "$summary" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
	crashed=$(printf '%s\n' "$summary" | sed -n 's/.*crashed: \([0-9]*\).*/\1/p')
	skipped=$(printf '%s\n' "$summary" | sed -n 's/.*skipped: \([0-9]*\).*/\1/p')
	errors=$(printf '%s\n' "$summary" | sed -n 's/.*errors: \([0-9]*\).*/\1/p')
	failed=$(( ${failed:-0} + ${crashed:-0} ))

	echo
	echo "kunit: [$path] parsed results in $LOG-$path"
	pok=1
	# UML can abort in its own exit path after the kernel halted
	# (uml_halt_abort in lib.sh): not a failure of the tests.
	if uml_halt_abort "$urc" "$RAW" "$rc" "$errors" "$ran" "$failed"; then
		echo "kunit: [$path] UML aborted during its own shutdown (exit 134, SIGABRT), after all tests completed and the kernel halted: not counted as a failure"
		shutdown_aborts=$(( ${shutdown_aborts:-0} + 1 ))
	elif [ "$urc" != 0 ]; then
		echo "kunit: [$path] UML kernel exited $urc"
		pok=0
	fi
	if [ "$rc" != 0 ]; then
		echo "kunit: [$path] kunit.py parse reports failure (exit $rc)"
		pok=0
	fi
	if [ -n "$errors" ] && [ "$errors" != 0 ]; then
		echo "kunit: [$path] $errors KTAP parse errors"
		pok=0
	fi
	if [ -z "$ran" ] || [ "$ran" = 0 ]; then
		echo "kunit: [$path] no test ran"
		pok=0
	fi
	[ $pok = 0 ] && [ "$failed" = 0 ] && failed=1
	[ $pok = 0 ] && ok=0
	echo "kunit: [$path] ${passed:-0} passed, $failed failed, ${skipped:-0} skipped"
	total_passed=$(( total_passed + ${passed:-0} ))
	total_failed=$(( total_failed + failed ))
	total_skipped=$(( total_skipped + ${skipped:-0} ))
done

echo
echo "kunit: parsed results in $LOG (paths: $PATHS)"
[ "${shutdown_aborts:-0}" = 0 ] ||
	echo "kunit: $shutdown_aborts boot(s) aborted in UML's own shutdown after all their tests passed (not failures)"
echo "kunit: $total_passed passed, $total_failed failed, $total_skipped skipped"
[ $ok = 1 ] && [ "$total_failed" = 0 ]
