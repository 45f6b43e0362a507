#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module and the CLI as a Debian system installs them, in scratch
# roots only (never this machine's /, /lib/modules or dpkg database):
#  - the packages of `make deb` (scripts/deb.sh: utfconv-dkms, utfconv;
#    lintian must report no error, run beside the rest);
#  - a Debian 12 root (debootstrap minbase, then dkms and the headers of
#    Debian's 6.1 and 6.12 kernels, the versions installed here), made
#    once and cached in $UTFCONV_CACHE/pkgroot-<key>, key: the headers'
#    and dkms's versions and this recipe;
#  - in a private mount namespace, an overlay over that root (a copy of
#    it where overlayfs cannot be mounted), in which `dpkg -i` installs
#    both packages: utfconv-dkms's postinst runs dkms, which must build
#    and install utfconv.ko and utfconv_dev.ko for both kernels (`uname
#    -r` is this machine's, which the root does not have, so dkms builds
#    for every kernel in /lib/modules); modinfo of each module
#    (description, author, license, version, vermagic, parameters with
#    their descriptions) and its line in modules.dep; the CLI, the man
#    pages and the udev rule where the package puts them; then `dpkg
#    --purge` of both, after which no utfconv file, DKMS tree or
#    modules.dep line may be left;
#  - Debian's 6.1 and 6.12 kernels booted in QEMU (scripts/vm.sh run,
#    VM_MODULES) with the modules DKMS built, where the packaged CLI,
#    with the root's own C library, converts a file through /dev/utfconv;
#    the result is compared with glibc iconv's here;
#  - `make install` and `make uninstall` with INSTALL_MOD_PATH/DESTDIR in
#    a staging root.
# Needs root (debootstrap, chroot, mounts); the packages of scripts/deps.sh.
# INSTALL_TEST_MIRROR: the Debian mirror of the root (deb.debian.org).

. "$(dirname "$0")/lib.sh"

S=$SRC/build/install-test
P=$S/pkg
VER=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$SRC/dkms.conf")
KERNELS="6.1 6.12"

# --- in the private mount namespace (the script calls itself) ------------
# root_phase ROOT DEB...: overlay ROOT at $S/merged, install the DEBs,
# copy out what the checks read into $P, purge them.
root_phase() {
	local root=$1 m=$S/merged rel f s
	shift
	# Each step's result is recorded for the checks, not fatal here.
	set +e
	mkdir -p "$S/upper" "$S/work" "$m"
	if ! mount -t overlay overlay \
			-o "lowerdir=$root,upperdir=$S/upper,workdir=$S/work" "$m" 2>"$P/overlay.err"; then
		log "install-test: no overlay ($(cat "$P/overlay.err")): copying the root"
		cp -a "$root/." "$m/"
	fi
	mount -t proc proc "$m/proc"
	mount --rbind /dev "$m/dev"
	mount -t tmpfs tmpfs "$m/tmp"
	cp "$@" "$m/tmp/"
	in_root() {
		chroot "$m" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			DEBIAN_FRONTEND=noninteractive "$@"
	}

	s=$(date +%s)
	in_root sh -c 'dpkg -i /tmp/*.deb' >"$P/install.log" 2>&1
	echo $? >"$P/install.rc"
	echo $(( $(date +%s) - s )) >"$P/install.secs"
	in_root dkms status >"$P/dkms-status.txt" 2>&1 || true
	in_root dpkg-query -W -f='${Package} ${Version} ${db:Status-Abbrev}\n' \
		utfconv utfconv-dkms >"$P/dpkg-installed.txt" 2>&1 || true
	for rel in "$m"/lib/modules/*; do
		rel=${rel##*/}
		mkdir -p "$P/modules/$rel"
		find "$m/lib/modules/$rel" -name 'utfconv*.ko*' -printf '%P\n' \
			>"$P/modules/$rel.list"
		for f in $(cat "$P/modules/$rel.list"); do
			case $f in
			*.xz) xz -dc "$m/lib/modules/$rel/$f" >"$P/modules/$rel/$(basename "$f" .xz)" ;;
			*) cp "$m/lib/modules/$rel/$f" "$P/modules/$rel/" ;;
			esac
		done
		grep utfconv "$m/lib/modules/$rel/modules.dep" >"$P/modules/$rel.dep" || true
	done
	for f in /usr/bin/utfconv /lib/udev/rules.d/60-utfconv.rules \
		 /usr/share/man/man1/utfconv.1.gz /usr/share/man/man4/utfconv.4.gz \
		 /usr/src/utfconv-"$VER"/dkms.conf; do
		[ -e "$m$f" ] && echo "$f"
	done >"$P/files.txt"
	in_root utfconv --version >"$P/version.txt" 2>&1 || true
	# The packaged CLI and the shared objects it loads, for the VM.
	mkdir -p "$P/vm/root"
	if [ -x "$m/usr/bin/utfconv" ]; then
		cp "$m/usr/bin/utfconv" "$P/vm/utfconv"
		in_root ldd /usr/bin/utfconv | grep -o '/[^ ]*' >"$P/vm/libs.txt" || true
		for f in $(cat "$P/vm/libs.txt"); do
			mkdir -p "$P/vm/root$(dirname "$f")"
			cp -L "$m$f" "$P/vm/root$f"
		done
	fi

	in_root dpkg --purge utfconv utfconv-dkms >"$P/purge.log" 2>&1
	echo $? >"$P/purge.rc"
	{
		find "$m/lib/modules" "$m/usr/src" "$m/usr/bin" "$m/lib/udev" \
			"$m/usr/share/man" "$m/var/lib/dkms" -name '*utfconv*' 2>/dev/null
		grep -l utfconv "$m"/lib/modules/*/modules.dep 2>/dev/null
	} | sed "s|^$m||" >"$P/left.txt" || true
}

if [ "${1:-}" = --root-phase ]; then
	shift
	root_phase "$@"
	exit 0
fi

# --- the cached Debian 12 root ---------------------------------------------
# make_pkgroot DIR RELEASES...: debootstrap minbase and dkms with the
# headers of RELEASES into DIR (made in DIR.tmp, moved at the end).
make_pkgroot() {
	local d=$1 t=$1.tmp mirror=${INSTALL_TEST_MIRROR:-http://deb.debian.org/debian} r
	shift
	rm -rf --one-file-system "$t"
	mkdir -p "$t"
	debootstrap --variant=minbase bookworm "$t" "$mirror" || return
	cat >"$t/etc/apt/sources.list" <<-SOURCES
	deb $mirror bookworm main
	deb $mirror bookworm-updates main
	deb ${mirror%/debian}/debian-security bookworm-security main
	SOURCES
	printf '#!/bin/sh\nexit 101\n' >"$t/usr/sbin/policy-rc.d"
	chmod 755 "$t/usr/sbin/policy-rc.d"
	# No initramfs for the kernel image that the 6.12 headers depend on:
	# nothing boots this root, and making one takes minutes.
	chroot "$t" dpkg-divert --local --rename --add /usr/sbin/update-initramfs || return
	printf '#!/bin/sh\nexit 0\n' >"$t/usr/sbin/update-initramfs"
	chmod 755 "$t/usr/sbin/update-initramfs"
	local hdrs=
	for r in "$@"; do hdrs="$hdrs linux-headers-$r"; done
	# shellcheck disable=SC2086
	unshare -m --propagation private sh -c '
		mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev" &&
		chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			DEBIAN_FRONTEND=noninteractive sh -c "
			apt-get -q update &&
			apt-get -y -q install --no-install-recommends dkms $2 &&
			apt-get clean"' _ "$t" "$hdrs" || return
	for r in "$@"; do
		[ -f "$t/usr/src/linux-headers-$r/Makefile" ] ||
			{ echo "no headers of $r in the new root"; return 1; }
	done
	mv "$t" "$d"
}

# pkgroot: the root for this machine's 6.1 and 6.12 headers; prints it.
pkgroot() {
	local rels= vers= r key d
	for k in $KERNELS; do
		r=$(kernel_release "$k")
		rels="$rels $r"
		vers="$vers $(dpkg-query -W -f='${Version}' "linux-headers-$r")"
	done
	vers="$vers $(dpkg-query -W -f='${Version}' dkms 2>/dev/null)"
	key=$( { echo "$rels $vers"; declare -f make_pkgroot; } | sha256sum | cut -c1-12)
	d=$UTFCONV_CACHE/pkgroot-$key
	mkdir -p "$UTFCONV_CACHE"
	(
		flock 9
		if [ ! -d "$d" ]; then
			log "install-test: making the Debian 12 root $d (once: debootstrap, dkms,$rels headers)" >&2
			# shellcheck disable=SC2086
			make_pkgroot "$d" $rels >"$S/pkgroot.log" 2>&1 ||
				{ tail -n 30 "$S/pkgroot.log" >&2; die "could not make the root (log $S/pkgroot.log)"; }
		fi
	) 9>"$d.lock"
	printf '%s\n' "$d"
}

# --- the checks ----------------------------------------------------------
fails=0 checks=0
fail() { echo "install-test: FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "install-test: ok: $*"; }
# check DESC CMD...: one check, passed when CMD succeeds
check() {
	local d=$1
	shift
	checks=$((checks + 1))
	if "$@"; then ok "$d"; else fail "$d"; fi
}

# expect_modinfo FILE FIELD REGEX
expect_modinfo() {
	local v
	v=$(modinfo -F "$2" "$1" 2>/dev/null | tr '\n' ' ')
	checks=$((checks + 1))
	if printf '%s\n' "$v" | grep -qE -- "$3"; then
		ok "$(basename "$1") $2: $v"
	else
		fail "modinfo $2 of $1 is '$v', want /$3/"
	fi
}

# check_modules REL DIR: the modules DKMS built for REL, copied to DIR.
check_modules() {
	local rel=$1 lib=$2/utfconv.ko dev=$2/utfconv_dev.ko ko
	section "install-test: the modules DKMS built for $rel"
	check "dkms installed utfconv.ko and utfconv_dev.ko for $rel: $(tr '\n' ' ' <"$2.list" 2>/dev/null)" \
		test -f "$lib" -a -f "$dev"
	check "dkms status: utfconv/$VER, $rel: installed" \
		grep -q "utfconv/$VER, $rel, x86_64: installed" "$P/dkms-status.txt"
	[ -f "$lib" ] && [ -f "$dev" ] || return 0
	for ko in "$lib" "$dev"; do
		expect_modinfo "$ko" description 'UTF-8 <-> UTF-16'
		expect_modinfo "$ko" author '.'
		expect_modinfo "$ko" license '^GPL'
		expect_modinfo "$ko" version "^$VER"
		expect_modinfo "$ko" vermagic "^$(printf '%s' "$rel" | sed 's/[.+]/\\&/g') "
	done
	expect_modinfo "$lib" depends '^ *$'
	# the codec's paths follow the CPU alone and the file name policy is
	# each mount's: the library has no parameter
	check "$(basename "$lib") parm: none" \
		sh -c "[ -z \"\$(modinfo -F parm '$lib')\" ]"
	expect_modinfo "$dev" depends '^utfconv *$'
	expect_modinfo "$dev" parm '^buffer_bytes:Output buffer bytes per open file.*\(uint\)'
	expect_modinfo "$dev" parm ' max_user_streams:Most open files of /dev/utfconv per user.*\(uint\)'
	check "modules.dep of $rel: utfconv_dev needs utfconv ($(head -c 120 "$2.dep" | tr '\n' ' '))" \
		grep -q 'updates/dkms/utfconv_dev\.ko.*: .*updates/dkms/utfconv\.ko' "$2.dep"
}

# vm_convert K REL: boot Debian's kernel K with the modules DKMS built
# and convert a file with the packaged CLI through /dev/utfconv.
vm_convert() {
	local k=$1 rel=$2 v=$P/vm rc
	section "install-test: Linux $rel in QEMU with the DKMS-built modules"
	rm -f "$v/out-$k.le" "$v/out-$k.u8"
	rc=0
	VM_KERNEL=$k VM_MODULES=$P/modules/$rel VM_SHARE=$v \
		"$UTFCONV_ROOT/scripts/vm.sh" run -- sh -c '
		set -e
		for f in $(cat libs.txt); do
			mkdir -p "${f%/*}" && cp "root$f" "$f"
		done
		./utfconv -f UTF-8 -t UTF-16LE in.txt -o out-'"$k"'.le
		./utfconv -f UTF-16LE -t UTF-8 out-'"$k"'.le > out-'"$k"'.u8
		grep -E "^utfconv(_dev)? " /proc/modules' </dev/null >"$P/vm-$k.out" 2>"$P/vm-$k.err" ||
		rc=$?
	sed 's/^/  /' "$P/vm-$k.out"
	[ $rc = 0 ] || tail -n 20 "$P/vm-$k.err"
	check "Linux $rel: the packaged CLI ran in the guest (exit $rc)" [ $rc = 0 ]
	check "Linux $rel: its UTF-16LE through /dev/utfconv is iconv's ($(stat -c %s "$v/in.le") bytes)" \
		cmp -s "$v/out-$k.le" "$v/in.le"
	check "Linux $rel: and back to UTF-8, the input again" \
		cmp -s "$v/out-$k.u8" "$v/in.txt"
}

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
cd "$SRC"
rm -rf --one-file-system "$S"
mkdir -p "$P"
t0=$(date +%s)

section "install-test: the packages (scripts/deb.sh build)"
checks=$((checks + 1))
if "$UTFCONV_ROOT/scripts/deb.sh" build >"$S/deb.log" 2>&1; then
	ok "make deb: $(cd build/deb && ls -- *.deb | tr '\n' ' ')"
else
	tail -n 30 "$S/deb.log"
	fail "make deb (log $S/deb.log)"
fi
debs=()
for f in build/deb/utfconv-dkms_"$VER"_all.deb build/deb/utfconv_"$VER"_*.deb; do
	[ -f "$f" ] && debs+=("$SRC/$f")
done
beside "$S/lintian.log" "$UTFCONV_ROOT/scripts/deb.sh" lintian

ROOT=$(pkgroot)
section "install-test: dpkg -i in an overlay of $ROOT"
unshare -m --propagation private "$UTFCONV_ROOT/scripts/install-test.sh" \
	--root-phase "$ROOT" "${debs[@]}"
grep -E '^(Setting up|Building|Done|.*Installing to|It is likely)' "$P/install.log" | sed 's/^ */  /' || true
check "dpkg -i utfconv-dkms utfconv: exit $(cat "$P/install.rc") ($(cat "$P/install.secs")s)" \
	[ "$(cat "$P/install.rc")" = 0 ]
check "both installed: $(tr '\n' ';' <"$P/dpkg-installed.txt")" \
	[ "$(grep -c ' ii $' "$P/dpkg-installed.txt")" = 2 ]
for f in /usr/bin/utfconv /lib/udev/rules.d/60-utfconv.rules \
	 /usr/share/man/man1/utfconv.1.gz /usr/share/man/man4/utfconv.4.gz \
	 /usr/src/utfconv-"$VER"/dkms.conf; do
	check "installed $f" grep -qx "$f" "$P/files.txt"
done
check "utfconv --version: $(cat "$P/version.txt")" grep -qx "utfconv $VER" "$P/version.txt"
for k in $KERNELS; do
	rel=$(kernel_release "$k")
	check_modules "$rel" "$P/modules/$rel"
done

section "install-test: dpkg --purge utfconv utfconv-dkms"
grep -E '^(Removing|Module|.*Deleting)' "$P/purge.log" | sed 's/^ */  /' || true
check "dpkg --purge: exit $(cat "$P/purge.rc")" [ "$(cat "$P/purge.rc")" = 0 ]
check "nothing of utfconv left (modules, /usr/src, /var/lib/dkms, modules.dep)$(sed 's/^/ /' "$P/left.txt" | tr -d '\n')" \
	[ ! -s "$P/left.txt" ]

# The input: text in several scripts, its UTF-16LE by glibc iconv.
printf 'h\303\251llo w\303\266rld, \316\272\317\214\317\203\316\274\316\265, \320\274\320\270\321\200, \346\227\245\346\234\254\350\252\236, \360\237\230\273 e\314\201\n' >"$P/vm/in.txt"
iconv -f UTF-8 -t UTF-16LE "$P/vm/in.txt" >"$P/vm/in.le"
for k in $KERNELS; do
	vm_convert "$k" "$(kernel_release "$k")"
done

checks=$((checks + 1))
if beside_done "install-test: lintian (scripts/deb.sh lintian)"; then
	ok "lintian: no errors ($(grep -c '^W: ' build/deb/lintian.txt || true) warnings)"
else
	fail "lintian reports errors (build/deb/lintian.txt)"
fi

# make install / uninstall against both kernels' headers: Debian's 6.1
# headers name their release only in UTS_RELEASE (the Makefile's KRELEASE).
for k in $KERNELS; do
	rel=$(kernel_release "$k")
	kdir=$(kernel_headers "$k")
	section "install-test: make install / uninstall for $rel"
	checks=$((checks + 1))
	R=$S/make-root-$k
	rm -rf "$R"
	if make -s install KDIR="$kdir" INSTALL_MOD_PATH="$R" DESTDIR="$R" \
			>"$S/make-install.log" 2>&1 &&
	   [ -n "$(find "$R/lib/modules/$rel/updates" -name 'utfconv.ko*')" ] &&
	   [ -n "$(find "$R/lib/modules/$rel/updates" -name 'utfconv_dev.ko*')" ] &&
	   grep -q utfconv "$R/lib/modules/$rel/modules.dep" &&
	   [ -f "$R/etc/udev/rules.d/60-utfconv.rules" ] &&
	   [ -f "$R/usr/local/share/man/man4/utfconv.4" ] &&
	   [ -x "$R/usr/local/bin/utfconv" ]; then
		ok "make install ($rel) into $R"
	else
		cat "$S/make-install.log"
		fail "make install ($rel)"
	fi
	checks=$((checks + 1))
	if make -s uninstall KDIR="$kdir" INSTALL_MOD_PATH="$R" DESTDIR="$R" \
			>"$S/make-uninstall.log" 2>&1 &&
	   [ -z "$(find "$R" -name '*utfconv*' -type f)" ] &&
	   ! grep -q utfconv "$R/lib/modules/$rel/modules.dep"; then
		ok "make uninstall ($rel)"
	else
		cat "$S/make-uninstall.log"
		find "$R" -name '*utfconv*' -type f
		fail "make uninstall ($rel)"
	fi
done

section "install-test: summary ($(( $(date +%s) - t0 ))s)"
echo "install-test: $((checks - fails)) passed, $fails failed"
[ $fails = 0 ]
