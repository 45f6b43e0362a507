# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers of the utfconv build and test scripts; source it.

set -eu -o pipefail

UTFCONV_ROOT=$(cd "$(dirname "$0")/.." && pwd)
# UTFCONV_SRC: the project tree to build and test (this clone by default).
SRC=${UTFCONV_SRC:-$UTFCONV_ROOT}
UTFCONV_CACHE=${UTFCONV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/utfconv}

log() { printf '%s\n' "$*"; }
die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }

section() { printf '\n==== %s ====\n' "$*"; }

# beside LOG CMD...: CMD in the background, its output to LOG, for two
# one-CPU guests at once (scripts/vm-test.sh, scripts/vm-debug.sh); then
# beside_done WHAT: wait for it, show LOG under WHAT; CMD's status.
beside() {
	BESIDE_LOG=$1
	shift
	"$@" >"$BESIDE_LOG" 2>&1 &
	BESIDE_PID=$!
}
beside_done() {
	local rc=0
	wait "$BESIDE_PID" || rc=$?
	section "$1 ($BESIDE_LOG)"
	cat "$BESIDE_LOG"
	return $rc
}

# dpkg_dep META PATTERN: the first dependency of metapackage META
# matching PATTERN, e.g. linux-headers-amd64 -> linux-headers-6.1.0-57-amd64.
dpkg_dep() {
	dpkg-query -W -f='${Depends}\n' "$1" 2>/dev/null |
		tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -E -m1 "$2" || true
}

# kernel_release KERNEL: Debian release string of KERNEL ("6.1" for
# bookworm's stock kernel, "6.12" for the 6.12 LTS one) from the
# installed metapackages, e.g. 6.1.0-57-amd64, 6.12.117+deb12-amd64.
kernel_release() {
	case $1 in
	6.1|stock) meta=linux-headers-amd64 ;;
	6.12) meta=linux-headers-6.12-amd64 ;;
	*) die "unknown kernel '$1' (want 6.1 or 6.12)" ;;
	esac
	pkg=$(dpkg_dep "$meta" '^linux-headers-.*-amd64$')
	rel=${pkg#linux-headers-}
	if [ -z "$rel" ]; then
		# No metapackage: newest matching headers in /usr/src.
		rel=$(ls -d /usr/src/linux-headers-"$1"[.-]*-amd64 2>/dev/null |
			sort -V | tail -n1)
		rel=${rel#/usr/src/linux-headers-}
	fi
	[ -n "$rel" ] || die "no headers for kernel $1 (run scripts/deps.sh)"
	printf '%s\n' "$rel"
}

# kernel_headers KERNEL: KDIR of that kernel's Debian headers.
kernel_headers() {
	d=/usr/src/linux-headers-$(kernel_release "$1")
	[ -f "$d/Makefile" ] || die "missing $d (run scripts/deps.sh)"
	printf '%s\n' "$d"
}

# Version of the linux-source-6.12 package and its tarball.
LINUX_SOURCE_PKG=linux-source-6.12
LINUX_SOURCE_TAR=/usr/src/linux-source-6.12.tar.xz

linux_source_version() {
	dpkg-query -W -f='${Version}' "$LINUX_SOURCE_PKG" 2>/dev/null ||
		die "$LINUX_SOURCE_PKG is not installed (run scripts/deps.sh)"
}

# extract_source DIR: extract the 6.12 tree into DIR once (DIR/.extracted
# marks a complete extraction). The caller holds the lock.
extract_source() {
	[ -f "$1/.extracted" ] && return 0
	[ -f "$LINUX_SOURCE_TAR" ] || die "missing $LINUX_SOURCE_TAR (run scripts/deps.sh)"
	log "extracting $LINUX_SOURCE_TAR into $1"
	rm -rf "$1" "$1.tmp"
	mkdir -p "$1.tmp"
	tar -xJf "$LINUX_SOURCE_TAR" -C "$1.tmp" --strip-components=1
	mv "$1.tmp" "$1"
	touch "$1/.extracted"
}

# pristine_source: a pristine 6.12 tree in the cache (for checkpatch.pl
# and kernel-doc), extracted once; prints its path.
pristine_source() {
	d=$UTFCONV_CACHE/linux-$(linux_source_version)
	mkdir -p "$UTFCONV_CACHE"
	(
		flock 9
		extract_source "$d"
	) 9>"$d.lock" >&2
	printf '%s\n' "$d"
}

# sync_file SRC DST: copy SRC to DST only when the content differs, so
# unchanged files keep their mtime and make rebuilds nothing.
sync_file() {
	if ! cmp -s "$1" "$2"; then
		mkdir -p "$(dirname "$2")"
		cp "$1" "$2"
	fi
}

# sync_text DST: write stdin to DST only when the content differs.
sync_text() {
	tmp=$(mktemp)
	cat >"$tmp"
	if cmp -s "$tmp" "$1"; then
		rm -f "$tmp"
	else
		mkdir -p "$(dirname "$1")"
		mv "$tmp" "$1"
		chmod 644 "$1"
	fi
}

# maintainer_identity CLONE: git am commits as someone, the maintainer
# taking the series, whom a fresh machine's git does not know (no
# user.name, no user.email): give CLONE one of its own.
maintainer_identity() {
	git -C "$1" config user.name "utfconv series-test"
	git -C "$1" config user.email "series-test@utfconv.invalid"
}

# copy_module_tree DEST: copy the module's sources (Kbuild, kmod/,
# include/) to DEST for a separate out-of-tree build. A file is copied only
# when its content differs, and then gets a new mtime, so make rebuilds
# exactly what changed (kept mtimes could make an older source look
# newer than nothing, or older than a stale object).
# Only sources are copied (C files and headers but kbuild's *.mod.c, and
# the Kbuild files), never what a build writes beside them: make check
# runs style, which copies, beside install-test's `make install`, which
# builds in the tree, and a temporary of that build (kbuild's
# .<module>.o.tmp) could vanish between rsync's listing and its copy.
copy_module_tree() {
	mkdir -p "$1"
	rsync -r --checksum --exclude='*.mod.c' --include='*/' \
		--include='*.[ch]' --include=Kbuild --exclude='*' \
		"$SRC/Kbuild" "$SRC/kmod" "$SRC/include" "$1/"
}

# uml_halt_abort URC CONSOLE RC ERRORS RAN FAILED: true when a UML kernel
# that exited URC died in UML's own exit path after the kernel halted,
# not in the tests. A timer signal that comes while UML halts stays
# pending; main() (arch/um/os-Linux/main.c) lets it through with
# unblock_signals() after the kernel has returned, and the timer
# interrupt then runs on the host's stack, where current_thread_info()
# is no task's: irq_enter() faults, the fault panics, the panic (silent:
# the console's channels were closed by the exitcalls) ends in
# os_dump_core() and UML kills itself with SIGABRT, exit 134. Only that
# exit, with the KTAP stream complete and passing (kunit.py parse status
# RC 0, no ERRORS, RAN > 0 tests, none FAILED or crashed) and "reboot:
# System halted" the last line of the CONSOLE log, counts as this.
uml_halt_abort() {
	[ "$1" = 134 ] && [ "$3" = 0 ] && [ "${4:-0}" = 0 ] &&
		[ "${5:-0}" -gt 0 ] && [ "${6:-1}" = 0 ] || return 1
	[ "$(grep -a -v '^[[:space:]]*$' "$2" | tail -n1 | tr -d '\r')" = \
		'reboot: System halted' ]
}

# tap_ok STATUS DESC: "ok N - DESC" when STATUS is 0, else "not ok N -
# DESC"; counted in tap_passed and tap_failed.
tap_n=0 tap_passed=0 tap_failed=0
tap_ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" = 0 ]; then
		tap_passed=$((tap_passed + 1))
	else
		tap_failed=$((tap_failed + 1))
		printf 'not '
	fi
	echo "ok $tap_n - $2"
}
