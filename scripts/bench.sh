#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# utfconv benchmarks (issue 4); `make bench` runs `scripts/bench.sh all`.
# Never part of `make check`: the ratios are printed, not asserted.
#
#   scripts/bench.sh [host|kunit|all]
#
#   host   the codec built natively (-O2, tools/bench/) against glibc iconv
#          and ICU on every file of $SHARED/corpus, both directions;
#          table, CSV and PNG plot in results/ (git-ignored)
#   kunit  the codec against fs/nls (utf8s_to_utf16s, utf16s_to_utf8s)
#          inside the kernel, on User-Mode Linux (scripts/kunit.sh with
#          kunit/bench/.kunitconfig and its own cached build)
#
# Environment: SHARED (default ../shared), BENCH_ROUNDS (default 20),
# BENCH_MIN_MS (host: minimum ms per timed sample, default 2).

. "$(dirname "$0")/lib.sh"

SHARED=${SHARED:-$(cd "$UTFCONV_ROOT/.." && pwd)/shared}
CORPUS=$SHARED/corpus
RESULTS=$SRC/results
ROUNDS=${BENCH_ROUNDS:-20}
[ -d "$CORPUS" ] || die "no corpus at $CORPUS (set SHARED)"
mkdir -p "$RESULTS"

# need_pkg PKG...: install the missing Debian packages (idempotent).
need_pkg() {
	missing=
	for p in "$@"; do
		dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null |
			grep -q '^ii' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	log "bench: installing:$missing"
	SUDO=
	[ "$(id -u)" = 0 ] || SUDO=sudo
	APT="apt-get -y -q -o DPkg::Lock::Timeout=600"
	# shellcheck disable=SC2086
	$SUDO env DEBIAN_FRONTEND=noninteractive $APT install \
		--no-install-recommends $missing ||
		{ $SUDO env DEBIAN_FRONTEND=noninteractive $APT update &&
		  $SUDO env DEBIAN_FRONTEND=noninteractive $APT install \
			--no-install-recommends $missing; }
}

corpus_files() {
	find "$CORPUS" -type f -name '*.utf8.txt' | LC_ALL=C sort
}

bench_host() {
	section "host bench: codec vs glibc iconv vs ICU"
	need_pkg libicu-dev pkg-config gnuplot-nox
	make -s -C "$SRC/tools/bench" BUILD="$SRC/build/bench"
	csv=$RESULTS/bench-host.csv
	# shellcheck disable=SC2046
	"$SRC/build/bench/host_bench" -r "$ROUNDS" -m "${BENCH_MIN_MS:-2}" \
		-c "$csv" $(corpus_files) | tee "$RESULTS/bench-host.txt"
	sed 's/\.utf8\.txt,/,/' "$csv" | grep ',utf8-to-' >"$RESULTS/.host-u8.dat"
	sed 's/\.utf8\.txt,/,/' "$csv" | grep ',utf16le-to-' >"$RESULTS/.host-u16.dat"
	gnuplot -e "u8='$RESULTS/.host-u8.dat'; u16='$RESULTS/.host-u16.dat'; out='$RESULTS/bench-host.png'" \
		"$SRC/tools/bench/plot.gp"
	rm -f "$RESULTS/.host-u8.dat" "$RESULTS/.host-u16.dat"
	log "bench: results/bench-host.txt, results/bench-host.csv, results/bench-host.png"
}

what=${1:-all}
case $what in
host) bench_host ;;
all) bench_host ;;
*) die "unknown bench '$what' (want host or all)" ;;
esac
