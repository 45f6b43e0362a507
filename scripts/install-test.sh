#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module as a distribution installs it, in a scratch tree only (never
# the running kernel's /lib/modules):
#  - Debian's dkms (installed with apt-get if missing): `dkms add`, `build`
#    and `install` of dkms.conf against Debian's 6.1 and 6.12 headers, with
#    --sourcetree/--dkmstree/--installtree in build/install-test/ and
#    --no-depmod; depmod -b on that tree; modinfo of the installed module
#    (description, author, license, version, vermagic, parameter with its
#    description); `dkms remove`;
#  - `make install` and `make uninstall` with INSTALL_MOD_PATH/DESTDIR in
#    the same scratch tree.
# dkms runs in a private mount namespace where its framework.conf turns
# module signing off, so that it creates no signing key in /var/lib/dkms.

. "$(dirname "$0")/lib.sh"

cd "$SRC"
if ! command -v dkms >/dev/null; then
	log "install-test: installing dkms"
	SUDO=
	[ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -y -q \
		-o DPkg::Lock::Timeout=600 install --no-install-recommends dkms
fi

VER=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
S=$SRC/build/install-test
fails=0 checks=0
fail() { echo "install-test: FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "install-test: ok: $*"; }

rm -rf "$S"
mkdir -p "$S/source" "$S/dkms" "$S/root/lib/modules" "$S/etc"
copy_module_tree "$S/source/utfconv-$VER"
cp dkms.conf "$S/source/utfconv-$VER/"
echo 'sign_file="/nonexistent/sign-file"' >"$S/etc/framework.conf"

# dkms_ns ARGS...: dkms on the scratch trees, signing off.
dkms_ns() {
	unshare -m /bin/bash -c 'mount --bind "$1" /etc/dkms/framework.conf &&
		shift && exec dkms "$@"' _ "$S/etc/framework.conf" "$@" \
		--sourcetree "$S/source" --dkmstree "$S/dkms"
}

# expect_modinfo FILE FIELD REGEX
expect_modinfo() {
	local v
	v=$(modinfo -F "$2" "$1" 2>/dev/null | tr '\n' ' ')
	checks=$((checks + 1))
	if printf '%s\n' "$v" | grep -qE -- "$3"; then
		ok "modinfo $2: $v"
	else
		fail "modinfo $2 of $1 is '$v', want /$3/"
	fi
}

section "install-test: dkms add"
checks=$((checks + 1))
if dkms_ns add -m utfconv -v "$VER" >"$S/add.log" 2>&1; then
	ok "dkms add utfconv/$VER"
else
	cat "$S/add.log"
	fail "dkms add"
fi

for k in 6.1 6.12; do
	rel=$(kernel_release "$k")
	kdir=$(kernel_headers "$k")
	section "install-test: dkms build and install for $rel"
	mkdir -p "$S/root/lib/modules/$rel"
	checks=$((checks + 1))
	if dkms_ns build -m utfconv -v "$VER" -k "$rel" \
			--kernelsourcedir "$kdir" >"$S/build-$rel.log" 2>&1 &&
	   dkms_ns install -m utfconv -v "$VER" -k "$rel" \
			--kernelsourcedir "$kdir" --no-depmod \
			--installtree "$S/root/lib/modules" \
			>"$S/install-$rel.log" 2>&1; then
		ok "dkms build and install for $rel"
	else
		cat "$S/build-$rel.log" "$S/install-$rel.log" 2>/dev/null || true
		fail "dkms build/install for $rel"
		continue
	fi
	lib=$(find "$S/root/lib/modules/$rel" -name 'utfconv.ko*' | head -n1)
	dev=$(find "$S/root/lib/modules/$rel" -name 'utfconv_dev.ko*' | head -n1)
	checks=$((checks + 1))
	if [ -z "$lib" ] || [ -z "$dev" ]; then
		fail "no utfconv.ko* and utfconv_dev.ko* under $S/root/lib/modules/$rel"
		continue
	fi
	ok "installed ${lib#"$S"/root} ${dev#"$S"/root}"
	for ko in "$lib" "$dev"; do
		expect_modinfo "$ko" description 'UTF-8 <-> UTF-16'
		expect_modinfo "$ko" author '.'
		expect_modinfo "$ko" license '^GPL'
		expect_modinfo "$ko" version "^$VER"
		expect_modinfo "$ko" vermagic "^$(printf '%s' "$rel" | sed 's/[.+]/\\&/g') "
	done
	expect_modinfo "$lib" depends '^ *$'
	expect_modinfo "$lib" parm '(^| )simd:Use the SIMD paths .*\(default: 1\) \(bool\)'
	expect_modinfo "$lib" parm '^fsname_policy:Policy of the fs/nls drop-ins: wtf8 .* \(string\) '
	expect_modinfo "$dev" depends '^utfconv *$'
	expect_modinfo "$dev" parm '^buffer_bytes:Output buffer bytes per open file.*\(uint\)'
	expect_modinfo "$dev" parm ' max_user_streams:Most open files of /dev/utfconv per user.*\(uint\)'

	checks=$((checks + 1))
	if depmod -b "$S/root" "$rel" 2>/dev/null &&
	   grep -q 'utfconv_dev\.ko.*: .*utfconv\.ko' "$S/root/lib/modules/$rel/modules.dep"; then
		ok "depmod -b: utfconv_dev needs utfconv in modules.dep for $rel"
	else
		fail "depmod -b for $rel"
	fi
done

section "install-test: dkms status and remove"
dkms_ns status -m utfconv --installtree "$S/root/lib/modules" 2>&1 |
	grep -v "readelf: Warning" | sed 's/^/  /' || true
checks=$((checks + 1))
if dkms_ns remove -m utfconv -v "$VER" --all --no-depmod \
		--installtree "$S/root/lib/modules" >"$S/remove.log" 2>&1 &&
   [ -z "$(find "$S/root/lib/modules" -name 'utfconv*.ko*')" ]; then
	ok "dkms remove --all"
else
	cat "$S/remove.log"
	fail "dkms remove"
fi

rel=$(kernel_release 6.12)
kdir=$(kernel_headers 6.12)
section "install-test: make install / uninstall for $rel"
checks=$((checks + 1))
R=$S/make-root
if make -s install KDIR="$kdir" INSTALL_MOD_PATH="$R" DESTDIR="$R" \
		>"$S/make-install.log" 2>&1 &&
   [ -n "$(find "$R/lib/modules/$rel/updates" -name 'utfconv.ko*')" ] &&
   [ -n "$(find "$R/lib/modules/$rel/updates" -name 'utfconv_dev.ko*')" ] &&
   grep -q utfconv "$R/lib/modules/$rel/modules.dep" &&
   [ -f "$R/etc/udev/rules.d/60-utfconv.rules" ] &&
   [ -f "$R/usr/local/share/man/man4/utfconv.4" ] &&
   [ -x "$R/usr/local/bin/utfconv" ]; then
	ok "make install into $R"
else
	cat "$S/make-install.log"
	fail "make install"
fi
checks=$((checks + 1))
if make -s uninstall KDIR="$kdir" INSTALL_MOD_PATH="$R" DESTDIR="$R" \
		>"$S/make-uninstall.log" 2>&1 &&
   [ -z "$(find "$R" -name '*utfconv*' -type f)" ] &&
   ! grep -q utfconv "$R/lib/modules/$rel/modules.dep"; then
	ok "make uninstall"
else
	cat "$S/make-uninstall.log"
	find "$R" -name '*utfconv*' -type f
	fail "make uninstall"
fi

section "install-test: summary"
echo "install-test: $((checks - fails)) passed, $fails failed"
[ $fails = 0 ]
