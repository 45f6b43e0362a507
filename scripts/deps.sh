#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install, with apt-get, every Debian 12 package that utfconv's build and
# tests need. Idempotent: does nothing when all are installed, and runs
# `apt-get update` once before installing what is missing.

set -eu

PACKAGES="
	build-essential gcc make perl python3 xz-utils rsync
	flex bison bc libelf-dev libssl-dev sparse
	clang llvm lld libclang-rt-14-dev libicu-dev pkg-config
	linux-source-6.12 liburing-dev
	linux-headers-amd64 linux-image-amd64
	linux-headers-6.12-amd64 linux-image-6.12-amd64
	qemu-system-x86 busybox-static cpio kmod
	python3-sphinx groff-base man-db
	gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user
	dosfstools mtools exfatprogs ntfs-3g xorriso genisoimage coccinelle
	jfsutils udftools ksmbd-tools
	debhelper dh-dkms dkms lintian debootstrap
"

# One dpkg-query for all: "ii  name" for each installed package.
# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' $PACKAGES 2>/dev/null |
	awk '/^ii/ { print $2 }' || true)
missing=
for p in $PACKAGES; do
	printf '%s\n' "$installed" | grep -qx -- "$p" || missing="$missing $p"
done

[ -z "$missing" ] && exit 0

echo "deps: installing:$missing"
SUDO=
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null ||
		{ echo "deps: run as root or install sudo: apt-get install$missing" >&2; exit 1; }
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
# Another apt run may hold the lock: wait for it rather than fail.
APT="apt-get -y -q -o DPkg::Lock::Timeout=600"
$SUDO env DEBIAN_FRONTEND=noninteractive $APT update
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive $APT install --no-install-recommends $missing
