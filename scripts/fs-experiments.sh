#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The file name experiments (`make fs-experiments`): real images of each
# filesystem, made by its own tools and tools/fsimg, mounted in QEMU on
# Debian's 6.12 kernel under each driver, the table of what each driver
# lists and opens, and one line per filesystem and driver:
#
#   fs-experiments: <fs> <driver>: names N, lost L, aliased A, truncated T,
#   unrepresentable U, depends=<modinfo depends of the module used>
#   fs-experiments: N passed, N failed
#
# Drivers: "stock" (scripts/fs-modules.sh stock); "utfconv-strict" and
# "utfconv-wtf8", the converted modules (scripts/fs-modules.sh utfconv)
# mounted with names=strict and without names= (the default, wtf8), when
# this tree's <linux/utfconv.h> declares the fsname API. Filesystems: vfat
# (mtools, then fsimg), isofs (Joliet: xorriso, then fsimg), exFAT, JFS
# and UDF (mkfs.exfat, mkfs.jfs, mkudffs; their files made by the stock
# driver in a first boot, then rewritten by fsimg) and ntfs3 (mkntfs and
# ntfs-3g's ntfscp, which write every case). All but isofs also get
# creates and renames on a scratch disk of their own per driver, read
# back on the host with fsimg and checked with fsck.vfat -n, fsck.exfat
# -n, ntfsfix -n, fsck.jfs -n or udfinfo (udftools 2.3 has no fsck). See
# Documentation/fsname.rst.
#
# Environment: SHARED (../shared), FS_DRIVERS (the drivers above),
# FSEXP_FS (the full run's filesystems: vfat isofs exfat ntfs3 jfs udf
# smb; smb is SMB over the guest's loopback interface, ksmbd serving NTFS
# disks to cifs; utfconv-strict is the client's names=strict, ksmbd has no
# names= and loses nothing),
# FS_SLICE=check (the slice of `make check`: vfat and isofs under stock,
# utfconv-wtf8 and utfconv-strict, the last on the images only, without
# creates and renames (FSEXP_IMAGES_ONLY), and JFS's creates and renames
# on its scratch disks under the first two (FSEXP_WRITES_ONLY=jfs: no
# image of names, which would need the boot that makes its files), and
# SMB as in the full run, one boot; FS_DRIVERS still overrides the
# drivers), FS_KERNEL (6.12:
# Debian's kernel, the drivers as modules; "series": the kernel of the
# series in SERIES_KERNEL_BUILD, an O= build directory of
# scripts/series-boot.sh), where the driver is "intree": the filesystems
# built into that kernel, mounted without names= and judged as
# utfconv-wtf8, no module loaded at all; its first boot makes the exFAT,
# JFS and UDF files with them too.

. "$(dirname "$0")/lib.sh"

SHARED=${SHARED:-$(cd "$UTFCONV_ROOT/.." && pwd)/shared}
FS_KERNEL=${FS_KERNEL:-6.12}
case $FS_KERNEL in
6.12) ;;
series) [ -f "${SERIES_KERNEL_BUILD:-}/arch/x86/boot/bzImage" ] ||
		die "FS_KERNEL=series: no bzImage in SERIES_KERNEL_BUILD=${SERIES_KERNEL_BUILD:-}"
	FS_DRIVERS=${FS_DRIVERS:-intree} ;;
*) die "FS_KERNEL=$FS_KERNEL: want 6.12 or series" ;;
esac
case ${FS_SLICE:-} in
'') slice_drivers="stock utfconv-strict utfconv-wtf8"
	# the filesystems of fsexp.py, the source directories of fs-modules.sh
	export FSEXP_FS=${FSEXP_FS:-"vfat isofs exfat ntfs3 jfs udf smb"} ;;
check) # names=strict on the images only: a mount, no scratch disk
	slice_drivers="stock utfconv-wtf8 utfconv-strict"
	export FSEXP_IMAGES_ONLY=utfconv-strict
	export FSEXP_FS="vfat isofs jfs smb" FSEXP_WRITES_ONLY=jfs ;;
*) die "FS_SLICE=${FS_SLICE}: only check is known" ;;
esac
# the source directories of fs-modules.sh: only those of this run's
# filesystems are built
# The series converts no SMB code: no smb with its kernel.
[ "$FS_KERNEL" != series ] ||
	FSEXP_FS=$(printf '%s\n' $FSEXP_FS | grep -vx smb | tr '\n' ' ')
# smb's share is NTFS: ntfs3 is built for it too.
FS_LIST=$(for fs in $FSEXP_FS; do
	case $fs in
	vfat) fs=fat ;;
	smb) fs="ntfs3 smb" ;;
	esac
	printf '%s ' "$fs"
done | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ')
export FS_LIST
if grep -q 'utfconv_fsname_utf16s_to_utf8s(' "$SRC/include/linux/utfconv.h"; then
	FS_DRIVERS=${FS_DRIVERS:-$slice_drivers}
else
	log "fs-experiments: <linux/utfconv.h> has no fsname API yet: stock drivers only"
	FS_DRIVERS=${FS_DRIVERS:-stock}
fi
if [ "$FS_KERNEL" = series ]; then
	rel=series-$(linux_source_version)
else
	rel=$(kernel_release 6.12)
fi
mods=/lib/modules/$rel/kernel
OUT=$SRC/build/fs
PAYLOAD=$OUT/payload
IMAGES=$PAYLOAD/fs/images
# the scratch disks: QEMU disks, not files of the guest's initramfs
SCRATCH=$OUT/scratch
FSIMG=$SRC/tools/fsimg/fsimg

for t in mkfs.vfat mcopy fsck.vfat xorriso isoinfo mkfs.exfat fsck.exfat \
	mkntfs ntfscp ntfsfix ntfsls mkfs.jfs fsck.jfs mkudffs udfinfo \
	ksmbd.adduser; do
	command -v "$t" >/dev/null || die "$t missing (run scripts/deps.sh)"
done
KSMBD_TOOLS=/usr/libexec/ksmbd.tools	# ksmbd-tools: one binary for all

# smb_payload DIR: what the guest's smb() runs: ksmbd-tools with the
# libraries it links and their loader, its configuration (two shares,
# the disks the guest mounts there) and a user, the client's mount
# options.
smb_payload() {
	local lib
	mkdir -p "$1/lib"
	cp "$KSMBD_TOOLS" "$1/ksmbd.tools"
	for lib in $(ldd "$KSMBD_TOOLS" | awk '/=>/ { print $3 } /ld-linux/ { print $1 }'); do
		cp -L "$lib" "$1/lib/"
	done
	cat >"$1/ksmbd.conf" <<-EOF
	[global]
		netbios name = utfconv
	[names]
		path = /srv/m/names
		read only = yes
		force user = root
		force group = root
	[w]
		path = /srv/wm/w
		read only = no
		force user = root
		force group = root
	EOF
	ksmbd.adduser -i "$1/ksmbdpwd.db" -c "$1/ksmbd.conf" -a utfconv \
		-p utfconv >/dev/null
	printf '%s\n' default mapchars nomapposix >"$1/options.txt"
}

section "fs-experiments: tools and images"
make -s -C "$SRC/tools/fsimg"
rm -rf "$PAYLOAD" "$SCRATCH"
mkdir -p "$IMAGES" "$SCRATCH" "$PAYLOAD/fs/modules/base"
gcc -O2 -Wall -Wextra -static -o "$PAYLOAD/fs/fsprobe" "$SRC/userspace-test/fs/fsprobe.c"
gcc -O2 -Wall -Wextra -static -o "$PAYLOAD/fs/smbwire" "$SRC/userspace-test/fs/smbwire.c"
install -m 755 "$SRC/userspace-test/fs/run.sh" "$PAYLOAD/fs/run.sh"
# fsimg's NTFS reader refuses damaged records (both slices: a second).
selftest_ok=0
python3 "$SRC/userspace-test/fs/fsexp.py" selftest "$IMAGES" "$FSIMG" || selftest_ok=1
python3 "$SRC/userspace-test/fs/fsexp.py" images "$IMAGES" "$FSIMG" "$SHARED/corpus"

# Debian's own modules the experiments need besides the drivers (built
# into the series kernel); for SMB, what cifs and ksmbd need and Debian
# builds as modules, among them the ciphers and hashes they ask the
# crypto API for by name (SMB 3.1.1 signing and encryption).
: >"$PAYLOAD/fs/modules/base/order"
base="drivers/cdrom/cdrom drivers/block/loop drivers/block/virtio_blk
	fs/nls/nls_cp437 fs/nls/nls_ascii fs/nls/nls_utf8 fs/nls/nls_ucs2_utils
	lib/crc-itu-t"
case " $FSEXP_FS " in
*" smb "*)
	smb_payload "$PAYLOAD/fs/smb"
	base="$base fs/smb/common/cifs_arc4 fs/smb/common/cifs_md4
		net/dns_resolver/dns_resolver fs/netfs/netfs crypto/cmac
		crypto/ccm crypto/crypto_null lib/crypto/gf128mul
		crypto/ghash-generic crypto/gcm crypto/geniv crypto/seqiv" ;;
esac
[ "$FS_KERNEL" = series ] ||
for m in $base; do
	xz -dc "$mods/$m.ko.xz" >"$PAYLOAD/fs/modules/base/${m##*/}.ko"
	echo "${m##*/}.ko" >>"$PAYLOAD/fs/modules/base/order"
done

# make_scratch FS IMAGE: an empty 16 MiB image of FS made by its own tool.
make_scratch() {
	rm -f "$2"
	case $1 in
	vfat) mkfs.vfat -C -F 16 -n SCRATCH "$2" 16384 >/dev/null ;;
	smb) make_scratch ntfs3 "$2" ;;
	exfat) truncate -s 16M "$2" && mkfs.exfat -L SCRATCH "$2" >/dev/null ;;
	ntfs3) truncate -s 16M "$2" &&
		mkntfs -q -F -f -s 512 -c 4096 -L SCRATCH "$2" >/dev/null 2>&1 ;;
	jfs) truncate -s 16M "$2" && mkfs.jfs -q -L SCRATCH "$2" >/dev/null 2>&1 ;;
	udf) truncate -s 16M "$2" && mkudffs --media-type=hd --udfrev=0x0201 \
		--blocksize=512 --label=SCRATCH "$2" >/dev/null 2>&1 ;;
	esac
}

# check_scratch FS IMAGE: the filesystem's own check of what the guest wrote.
check_scratch() {
	case $1 in
	vfat) fsck.vfat -n "$2" ;;
	exfat) fsck.exfat -n "$2" ;;
	ntfs3|smb) ntfsfix -n "$2" ;;
	jfs) fsck.jfs -n "$2" ;;
	udf) udfinfo "$2" ;;
	esac >/dev/null 2>&1
}

section "fs-experiments: the drivers"
depends=() qemu_args= disk=0
for drv in $FS_DRIVERS; do
	d=$PAYLOAD/fs/modules/$drv
	mkdir -p "$d"
	case $drv in
	stock) mdir=$("$UTFCONV_ROOT/scripts/fs-modules.sh" stock) ;;
	utfconv-strict|utfconv-wtf8)
		mdir=$("$UTFCONV_ROOT/scripts/fs-modules.sh" utfconv)
		# the mount option (run.sh): names=strict, or none for wtf8
		if [ "$drv" = utfconv-strict ]; then
			echo strict >"$d/names"
		else
			echo default >"$d/names"
		fi ;;
	intree) [ "$FS_KERNEL" = series ] || die "driver intree: only with FS_KERNEL=series"
		echo default >"$d/names" ;;
	*) die "unknown driver $drv" ;;
	esac
	: >"$d/order"
	for fs in $FSEXP_FS; do
		# no result of a driver that neither mounts images nor writes
		case " ${FSEXP_IMAGES_ONLY:-} " in
		*" $drv "*) case " ${FSEXP_WRITES_ONLY:-} " in
			*" $fs "*) continue ;;
			esac ;;
		esac
		if [ "$drv" = intree ]; then
			depends+=("$drv/$fs=built-in")
			continue
		fi
		case $fs in
		vfat) kos="fat/fat.ko fat/vfat.ko" ;;
		# the share's NTFS, the server, the client
		smb) kos="ntfs3/ntfs3.ko smb/server/ksmbd.ko smb/client/cifs.ko" ;;
		*) kos=$fs/$fs.ko ;;
		esac
		for ko in $kos; do
			grep -qx "${ko##*/}" "$d/order" && continue
			cp "$mdir/$ko" "$d/"
			echo "${ko##*/}" >>"$d/order"
		done
		depends+=("$drv/$fs=$(modinfo -F depends "$d/${kos##*/}")")
	done
	# A fresh scratch disk per driver and filesystem for the creates and
	# renames (isofs is read-only; none for FSEXP_IMAGES_ONLY).
	for fs in $FSEXP_FS; do
		[ "$fs" = isofs ] && continue
		case " ${FSEXP_IMAGES_ONLY:-} " in
		*" $drv "*) continue ;;
		esac
		scratch=$SCRATCH/scratch-$drv-$fs.img
		make_scratch "$fs" "$scratch"
		dev=vd$(printf "\\x$(printf %x $((97 + disk)))")
		python3 "$SRC/userspace-test/fs/fsexp.py" writes "$IMAGES" "$drv" "$fs" "$dev"
		qemu_args="$qemu_args -drive file=$scratch,if=virtio,format=raw"
		disk=$((disk + 1))
	done
	echo "$drv" >>"$PAYLOAD/fs/drivers.txt"
done

vm_ok=$selftest_ok
if [ -s "$IMAGES/prepare.txt" ]; then
	section "fs-experiments: the VM: exFAT, JFS and UDF files made by the stock driver"
	# exfatprogs, jfsutils and udftools add no files: the guest makes them on the
	# blank images (vda, vdb, ... in the order of prepare-disks.txt), the
	# host then rewrites the names.
	prep_args=
	while read -r img; do
		prep_args="$prep_args -drive file=$IMAGES/$img,if=virtio,format=raw"
	done <"$IMAGES/prepare-disks.txt"
	UTFCONV_VM_PAYLOAD=$PAYLOAD VM_QEMU_ARGS=$prep_args \
		"$UTFCONV_ROOT/scripts/vm.sh" fs "$FS_KERNEL" || vm_ok=1
	cp "$SRC/build/vm/$rel-fs.log" "$OUT/prepare.log"
	python3 "$SRC/userspace-test/fs/fsexp.py" craft "$IMAGES" "$FSIMG"
fi

section "fs-experiments: the VM"
UTFCONV_VM_PAYLOAD=$PAYLOAD VM_QEMU_ARGS=$qemu_args \
	"$UTFCONV_ROOT/scripts/vm.sh" fs "$FS_KERNEL" || vm_ok=1
log=$SRC/build/vm/$rel-fs.log

section "fs-experiments: results"
for drv in $FS_DRIVERS; do
	for fs in $FSEXP_FS; do
		[ "$fs" = isofs ] && continue
		case " ${FSEXP_IMAGES_ONLY:-} " in
		*" $drv "*) continue ;;
		esac
		check_scratch "$fs" "$SCRATCH/scratch-$drv-$fs.img" ||
			{ log "fs-experiments: $fs: $drv's scratch disk is damaged"; vm_ok=1; }
	done
done
FSEXP_SCRATCH=$SCRATCH python3 "$SRC/userspace-test/fs/fsexp.py" report "$IMAGES" "$log" "$FSIMG" \
	"${depends[@]}" || vm_ok=1
[ "$vm_ok" = 0 ]
