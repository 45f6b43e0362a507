#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: the Debian packages of debian/ (source package utfconv):
#  - utfconv-dkms: the module sources and dkms.conf in /usr/src/utfconv-*/,
#    whose maintainer scripts (dh_dkms) build and install utfconv.ko and
#    utfconv_dev.ko with DKMS for every installed kernel, and remove them;
#  - utfconv: the CLI, utfconv(1), utfconv(4) and the udev rule.
# dpkg-buildpackage runs in a copy of the tree's files (tracked and new
# ones, not the ignored: no build output) under build/deb/, so that the
# tree itself stays clean; the source package, the .debs, the .changes
# and lintian's report (lintian.txt) are left in build/deb/. Fails when
# lintian reports an error (E:); prints its warnings.
# Needs debhelper, dh-dkms and lintian (scripts/deps.sh).
#   scripts/deb.sh [build|lintian]     (default: both)

. "$(dirname "$0")/lib.sh"

cd "$SRC"
VER=$(dpkg-parsechangelog -l debian/changelog -S Version)
D=$SRC/build/deb
T=$D/utfconv-$VER
WHAT=${1:-all}
case $WHAT in all|build|lintian) ;; *) die "usage: $0 [build|lintian]" ;; esac

build() {
	rm -rf "$D"
	mkdir -p "$T"

	section "deb: utfconv $VER, built in $T"
	if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
		# Files git knows or would add, as they are now (a deleted one is
		# left out).
		git ls-files -z --cached --others --exclude-standard |
			while IFS= read -r -d '' f; do
				[ -e "$f" ] && printf '%s\0' "$f"
			done | rsync -a --from0 --files-from=- ./ "$T/"
	else
		rsync -a --exclude=/build --filter=':- .gitignore' ./ "$T/"
	fi

	s=$(date +%s)
	if ! (cd "$T" && dpkg-buildpackage -us -uc --no-sign) >"$D/build.log" 2>&1; then
		tail -n 40 "$D/build.log"
		die "dpkg-buildpackage failed (log $D/build.log)"
	fi
	log "deb: dpkg-buildpackage: $(( $(date +%s) - s ))s (log $D/build.log)"
	for f in "$D"/*.deb; do
		log "  $(basename "$f"): $(stat -c %s "$f") bytes"
	done
}

lintian_check() {
	section "deb: lintian"
	s=$(date +%s)
	changes=$(ls "$D"/utfconv_"$VER"_*.changes)
	lintian --info --display-info --pedantic "$changes" 2>&1 |
		grep -v "running with root privileges is not recommended" >"$D/lintian.txt" || true
	sed 's/^/  /' "$D/lintian.txt"
	errors=$(grep -c '^E: ' "$D/lintian.txt" || true)
	warnings=$(grep -c '^W: ' "$D/lintian.txt" || true)
	log "deb: lintian: $errors errors, $warnings warnings ($(( $(date +%s) - s ))s, $D/lintian.txt)"
	[ "$errors" = 0 ] || die "lintian reports errors"
}

[ "$WHAT" = lintian ] || build
[ "$WHAT" = build ] || lintian_check
