#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the README's two commands the way a fresh Debian 12 machine sees
# them: a new bookworm root made by debootstrap, the project cloned into
# it from this repository's HEAD (or FRESH_REV), ../shared copied beside
# the clone without write bits (as CI lays it), then `make demo` and
# `make check` as root inside the chroot with an empty $HOME, so that
# scripts/deps.sh has to install every package and every kernel cache is
# built from nothing. Run it before resolving anything that touches
# set-up; it takes about as long as a first `make check` on a new machine.
#
#   scripts/fresh-check.sh            demo and check
#   FRESH_STEPS=demo scripts/fresh-check.sh
#
# The new root holds only what debootstrap's minbase gives plus git and
# make (the two commands a reader needs to follow the README: a Debian 12
# machine of this project's kind comes with both). Its apt sources are
# the host's suites (bookworm, -updates, -security) so that it gets the
# same kernel packages as the host.
#
# Environment: FRESH_DIR (the chroot, default /var/tmp/utfconv-fresh;
# made anew each run), FRESH_KEEP=1 (leave it in place afterwards),
# FRESH_REV (what to clone, default HEAD), FRESH_MIRROR, SHARED.
# Prints one line per step, `fresh-check: <step>: PASS|FAIL in <N>s`,
# and last `fresh-check: N passed, N failed` (steps); the steps' own
# output goes to build/fresh-check/<step>.log.

. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
DIR=${FRESH_DIR:-/var/tmp/utfconv-fresh}
REV=$(git -C "$UTFCONV_ROOT" rev-parse "${FRESH_REV:-HEAD}")
MIRROR=${FRESH_MIRROR:-http://deb.debian.org/debian}
SHARED=${SHARED:-$(cd "$UTFCONV_ROOT/.." && pwd)/shared}
STEPS=${FRESH_STEPS:-demo check}
LOGDIR=$UTFCONV_ROOT/build/fresh-check
[ -d "$SHARED/corpus" ] || die "no shared/ at $SHARED (set SHARED=)"
case $DIR in /|/usr|/var|/root|/home) die "refusing FRESH_DIR=$DIR" ;; esac

# The host needs debootstrap itself; nothing else of the project's.
if ! command -v debootstrap >/dev/null; then
	log "fresh-check: installing debootstrap on the host"
	DEBIAN_FRONTEND=noninteractive apt-get -y -q \
		-o DPkg::Lock::Timeout=600 install --no-install-recommends debootstrap ||
		{ apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -y -q \
			-o DPkg::Lock::Timeout=600 install --no-install-recommends debootstrap; }
fi

# One run at a time per root: a second would remove the first's.
exec 9>"$DIR.lock"
flock -n 9 || die "another fresh-check is using $DIR (FRESH_DIR= for another)"

MOUNTS=()
# Unmount in reverse order, lazily: a guest may still be tearing down.
cleanup() {
	local i
	for (( i = ${#MOUNTS[@]} - 1; i >= 0; i-- )); do
		umount -l "${MOUNTS[i]}" 2>/dev/null || true
	done
	[ "${FRESH_KEEP:-0}" = 1 ] || rm -rf --one-file-system "$DIR"
}
trap cleanup EXIT

bind() { # bind FROM TO: mount FROM at TO inside the chroot, undone at exit
	mkdir -p "$DIR$2" && mount --rbind "$1" "$DIR$2" || return
	MOUNTS+=("$DIR$2")
	mount --make-rslave "$DIR$2"
}

# A run that was killed (SIGKILL skips the trap) leaves its mounts under
# $DIR: rm --one-file-system then skips them and the new root would be
# laid over the old one. Detach them first, deepest first.
unmount_stale() {
	local m
	awk -v d="$DIR" '$2 == d || index($2, d "/") == 1 { print $2 }' \
		/proc/self/mounts | sort -r | while read -r m; do
		umount -l "$m" 2>/dev/null || true
	done
	! awk -v d="$DIR" '$2 == d || index($2, d "/") == 1 { f = 1 }
		END { exit !f }' /proc/self/mounts
}

make_root() {
	unmount_stale || die "mounts left under $DIR that will not unmount"
	rm -rf --one-file-system "$DIR"
	[ ! -e "$DIR" ] || die "could not remove the old root at $DIR"
	mkdir -p "$DIR"
	# A machine's / is a mount point; a chroot's is not unless bound onto
	# itself, and `unshare -m` (install-test's DKMS runs) then fails to make
	# it private.
	mount --bind "$DIR" "$DIR" || return
	MOUNTS+=("$DIR")
	# Called as `make_root || ...`, where bash ignores set -e: each step
	# that can fail returns by itself.
	debootstrap --variant=minbase --include=git,make,ca-certificates \
		bookworm "$DIR" "$MIRROR" || return
	[ -x "$DIR/usr/bin/make" ] || { echo "no make in the new root"; return 1; }
	cat >"$DIR/etc/apt/sources.list" <<-EOF
	deb $MIRROR bookworm main
	deb $MIRROR bookworm-updates main
	deb ${MIRROR%/debian}/debian-security bookworm-security main
	EOF
	# Package scripts must not start services in the chroot.
	printf '#!/bin/sh\nexit 101\n' >"$DIR/usr/sbin/policy-rc.d"
	chmod 755 "$DIR/usr/sbin/policy-rc.d"
	bind /proc /proc && bind /sys /sys && bind /dev /dev
}

# The clone at /root/src/utfconv and shared/ beside it, read-only.
lay_project() {
	git clone -q --no-hardlinks "$UTFCONV_ROOT" "$DIR/root/src/utfconv"
	git -C "$DIR/root/src/utfconv" checkout -q "$REV"
	mkdir -p "$DIR/root/src/shared"
	cp -a "$SHARED/." "$DIR/root/src/shared/"
	chmod -R a-w "$DIR/root/src/shared"
}

in_root() { # in_root CMD...: as root in the chroot, a login-like env
	chroot "$DIR" /usr/bin/env -i HOME=/root TERM=dumb CI=true \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		LANG=C.UTF-8 "$@"
}

mkdir -p "$LOGDIR"
t0=$(date +%s)
section "fresh-check: debootstrap bookworm into $DIR"
make_root >"$LOGDIR/debootstrap.log" 2>&1 ||
	{ tail -n 20 "$LOGDIR/debootstrap.log"; die "debootstrap failed"; }
lay_project
log "fresh-check: root made in $(( $(date +%s) - t0 ))s, project at $REV"

passed=0 failed=0
for step in $STEPS; do
	section "fresh-check: make $step (log $LOGDIR/$step.log)"
	s=$(date +%s)
	if in_root sh -c "cd /root/src/utfconv && make $step" </dev/null \
		>"$LOGDIR/$step.log" 2>&1; then
		res=PASS passed=$((passed + 1))
	else
		res=FAIL failed=$((failed + 1))
		tail -n 40 "$LOGDIR/$step.log"
	fi
	grep -a -E '^(check|demo|vm): .*passed' "$LOGDIR/$step.log" | tail -n 12 || true
	log "fresh-check: $step: $res in $(( $(date +%s) - s ))s"
done
log "fresh-check: total $(( $(date +%s) - t0 ))s"
echo "fresh-check: $passed passed, $failed failed"
[ "$failed" = 0 ]
