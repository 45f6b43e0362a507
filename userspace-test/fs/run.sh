#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the VM guest (scripts/vm.sh fs): the file name experiments. For each
# driver of drivers.txt, load its modules (modules/<driver>/order), then
# for each "image" line of images/plan.txt attach the image read-only to a
# loop device, mount it and print what fsprobe sees (FSX-BEGIN ... FSX-END
# blocks); for each "create"/"rename" line of each
# images/writes-<driver>-<fs>.txt do it on the scratch disk named there (a QEMU virtio disk the host reads
# back afterwards). The host (fsexp.py report) judges the output.
#
# With a non-empty images/prepare.txt, only make the files of images that
# no tool of the host can fill (exFAT, JFS, UDF): for each "put DEV FS HEX TEXT"
# line, create the file HEX on the scratch disk DEV with the stock driver.

cd /utfconv/fs || exit 1
say() { echo "FSX: $*"; }

mount_opts() {
	case $1 in
	vfat) echo "-t vfat -o utf8" ;;
	exfat) echo "-t exfat -o iocharset=utf8" ;;
	isofs) echo "-t iso9660 -o utf8" ;;
	ntfs3) echo "-t ntfs3 -o iocharset=utf8" ;;
	jfs) echo "-t jfs -o iocharset=utf8" ;;
	udf) echo "-t udf -o iocharset=utf8" ;;
	esac
}

# policy NAME: utfconv.ko again with fsname_policy=NAME (the parameter is
# read at load only, so that names never change meaning under a mount);
# the drivers that depend on it are not loaded yet.
policy() {
	rmmod utfconv_dev utfconv || say "ERROR rmmod utfconv"
	if insmod "$UTFCONV_LIB_KO" fsname_policy=bogus 2>/dev/null; then
		say "ERROR fsname_policy took bogus"
		rmmod utfconv
	fi
	insmod "$UTFCONV_LIB_KO" "fsname_policy=$1" || say "ERROR fsname_policy $1"
	insmod "$UTFCONV_KO" || say "ERROR insmod utfconv_dev"
	say "utfconv fsname_policy $(cat /sys/module/utfconv/parameters/fsname_policy)"
}

# builtin_policy NAME: the library is built into the kernel (the series
# kernel): its fsname_policy, from the kernel's command line, is NAME.
builtin_policy() {
	p=$(cat /sys/module/utfconv/parameters/fsname_policy)
	say "utfconv fsname_policy $p (built in)"
	[ "$p" = "$1" ] || say "ERROR fsname_policy $p, want $1"
}

load() {
	[ -f "modules/$1/policy" ] && policy "$(cat "modules/$1/policy")"
	[ -f "modules/$1/builtin-policy" ] &&
		builtin_policy "$(cat "modules/$1/builtin-policy")"
	for ko in $(cat "modules/$1/order"); do
		insmod "modules/$1/$ko" || say "ERROR insmod $1/$ko"
	done
}

unload() {
	for ko in $(sed -n '1!G;h;$p' "modules/$1/order"); do
		rmmod "${ko%.ko}" || say "ERROR rmmod $1/$ko"
	done
}

images() {
	while read -r kw name fs probes; do
		[ "$kw" = image ] || continue
		dev=$(losetup -f)
		losetup -r "$dev" "images/$name.img" || { say "ERROR losetup $name"; continue; }
		mkdir -p "/mnt/$name"
		# shellcheck disable=SC2046
		mount -r $(mount_opts "$fs") "$dev" "/mnt/$name"
		echo "FSX-BEGIN $1 $name mount=$?"
		./fsprobe list "/mnt/$name"
		# shellcheck disable=SC2086
		./fsprobe open "/mnt/$name" $probes
		echo "FSX-END $1 $name"
		umount "/mnt/$name"
		losetup -d "$dev"
	done <images/plan.txt
}

writes() {
	for f in images/writes-"$1"-*.txt; do
		[ -f "$f" ] || continue
		read -r _ fs dev <"$f"
		mkdir -p /mnt/w
		# shellcheck disable=SC2046
		mount $(mount_opts "$fs") "/dev/$dev" /mnt/w
		echo "FSX-BEGIN $1 write-$fs mount=$?"
		while read -r kw a b; do
			case $kw in
			create) ./fsprobe create /mnt/w "$a" ;;
			rename) ./fsprobe rename /mnt/w "$a" "$b" ;;
			esac
		done <"$f"
		./fsprobe list /mnt/w
		echo "FSX-END $1 write-$fs"
		umount /mnt/w
	done
}

prepare() {
	load stock
	while read -r kw dev fs hex text; do
		[ "$kw" = put ] || continue
		if [ ! -d "/mnt/$dev" ]; then
			mkdir -p "/mnt/$dev"
			# shellcheck disable=SC2046
			mount $(mount_opts "$fs") "/dev/$dev" "/mnt/$dev" ||
				say "ERROR mount $dev"
		fi
		./fsprobe put "/mnt/$dev" "$hex" "$text"
	done <images/prepare.txt
	for m in /mnt/vd*; do
		umount "$m"
	done
	unload stock
}

load base
if [ -s images/prepare.txt ]; then
	echo "FSX-BEGIN stock prepare mount=0"
	prepare
	echo "FSX-END stock prepare"
	sync
	exit 0
fi
for drv in $(cat drivers.txt); do
	load "$drv"
	images "$drv"
	writes "$drv"
	unload "$drv"
done
sync
exit 0
