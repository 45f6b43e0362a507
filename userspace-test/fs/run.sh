#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the VM guest (scripts/vm.sh fs): the file name experiments. For each
# driver of drivers.txt, load its modules (modules/<driver>/order), then
# for each "image" line of images/plan.txt attach the image read-only to a
# loop device, mount it and print what fsprobe sees (FSX-BEGIN ... FSX-END
# blocks); for each "create"/"rename" line of each
# images/writes-<driver>-<fs>.txt do it on the scratch disk named there (a QEMU virtio disk the host reads
# back afterwards); smb() runs SMB over the loopback interface, the
# share on NTFS. The host (fsexp.py report) judges the output. A driver
# with modules/<driver>/names (utfconv's) mounts with the names= option it
# holds, "default" for none, and the guest checks what /proc/mounts shows
# and that names=bogus is refused.
#
# With a non-empty images/prepare.txt, only make the files of images that
# no tool of the host can fill (exFAT, JFS, UDF): for each "put DEV FS HEX TEXT"
# line, create the file HEX on the scratch disk DEV with the stock driver.

cd /utfconv/fs || exit 1
say() { echo "FSX: $*"; }

# mount_opts FS [NAMES]: the options of FS, and names=NAMES unless NAMES
# is empty or "default".
mount_opts() {
	case $2 in
	''|default) n= ;;
	*) n=,names=$2 ;;
	esac
	case $1 in
	vfat) echo "-t vfat -o utf8$n" ;;
	exfat) echo "-t exfat -o iocharset=utf8$n" ;;
	isofs) echo "-t iso9660 -o utf8$n" ;;
	ntfs3) echo "-t ntfs3 -o iocharset=utf8$n" ;;
	jfs) echo "-t jfs -o iocharset=utf8$n" ;;
	udf) echo "-t udf -o iocharset=utf8$n" ;;
	esac
}

# names DRIVER: the names= option DRIVER mounts with ("" for none: stock).
names() {
	cat "modules/$1/names" 2>/dev/null
}

# names_shown DIR NAMES: /proc/mounts shows names=strict for a mount with
# it and no names= for the default (show_options() leaves the default out).
names_shown() {
	[ -n "$2" ] || return 0
	o=$(awk -v d="$1" '$2 == d { print $4 }' /proc/mounts)
	case ,$o, in
	*,names=*) shown=${o#*names=}; shown=${shown%%,*} ;;
	*) shown=default ;;
	esac
	[ "$shown" = "$2" ] || say "ERROR $1: /proc/mounts shows names=$shown, want $2 ($o)"
}

# names_remount DIR NAMES: names= holds for the life of a mount: a remount
# of a names=strict mount that asks for wtf8 is refused (ntfs3, JFS) or
# leaves strict as it was (the others ignore names= on a remount).
names_remount() {
	[ "$2" = strict ] || return 0
	mount -o remount,ro,names=wtf8 "$1" 2>/dev/null
	names_shown "$1" "$2"
}

# names_bogus DEV FS DIR: a names= value other than the two is refused.
names_bogus() {
	# shellcheck disable=SC2046
	if mount -r $(mount_opts "$2" bogus) "$1" "$3" 2>/dev/null; then
		say "ERROR $2: mounted with names=bogus"
		umount "$3"
	fi
}

# load DRIVER, unload DRIVER: its modules, in order; none where the
# filesystems are built into the kernel (the series kernel's "intree", and
# its "stock" of the first boot, which makes files with them).
load() {
	[ -f "modules/$1/order" ] || return 0
	for ko in $(cat "modules/$1/order"); do
		insmod "modules/$1/$ko" || say "ERROR insmod $1/$ko"
	done
}

unload() {
	[ -f "modules/$1/order" ] || return 0
	for ko in $(sed -n '1!G;h;$p' "modules/$1/order"); do
		# cifs lets go of its last reference a moment after umount
		for _ in 1 2 3 4 5; do
			rmmod "${ko%.ko}" 2>/dev/null && continue 2
			sleep 1
		done
		say "ERROR rmmod $1/$ko"
	done
}

images() {
	while read -r kw name fs probes; do
		[ "$kw" = image ] || continue
		dev=$(losetup -f)
		losetup -r "$dev" "images/$name.img" || { say "ERROR losetup $name"; continue; }
		mkdir -p "/mnt/$name"
		[ -n "$(names "$1")" ] && names_bogus "$dev" "$fs" "/mnt/$name"
		# shellcheck disable=SC2046
		mount -r $(mount_opts "$fs" "$(names "$1")") "$dev" "/mnt/$name"
		echo "FSX-BEGIN $1 $name mount=$?"
		names_shown "/mnt/$name" "$(names "$1")"
		./fsprobe list "/mnt/$name"
		# shellcheck disable=SC2086
		./fsprobe open "/mnt/$name" $probes
		names_remount "/mnt/$name" "$(names "$1")"
		echo "FSX-END $1 $name"
		umount "/mnt/$name"
		losetup -d "$dev"
	done <images/plan.txt
}

# write_ops FILE DIR: the creates and renames of FILE in DIR, then what
# DIR lists.
write_ops() {
	while read -r kw a b; do
		case $kw in
		create) ./fsprobe create "$2" "$a" ;;
		rename) ./fsprobe rename "$2" "$a" "$b" ;;
		esac
	done <"$1"
	./fsprobe list "$2"
}

writes() {
	for f in images/writes-"$1"-*.txt; do
		[ -f "$f" ] || continue
		read -r _ fs dev <"$f"
		[ "$fs" = smb ] && continue	# smb() shares it
		mkdir -p /mnt/w
		# shellcheck disable=SC2046
		mount $(mount_opts "$fs" "$(names "$1")") "/dev/$dev" /mnt/w
		echo "FSX-BEGIN $1 write-$fs mount=$?"
		names_shown /mnt/w "$(names "$1")"
		write_ops "$f" /mnt/w
		echo "FSX-END $1 write-$fs"
		umount /mnt/w
	done
}

# ksm NAME ARG...: the ksmbd-tools program NAME (one binary for all of
# them, which looks at its name), with the libraries it came with.
ksm() {
	n=$1
	shift
	smb/lib/ld-linux-x86-64.so.2 --library-path smb/lib --argv0 "$n" \
		smb/ksmbd.tools "$@"
}

# smb DRIVER: SMB over the loopback interface, ksmbd serving two NTFS
# disks mounted with DRIVER's ntfs3: "names", the image of names
# (images/smb-names.img, read-only), once per mount option of
# smb/options.txt, and "w", its scratch disk, where the client creates
# and renames (images/writes-DRIVER-smb.txt; none for a driver that only
# mounts images). Both ends are DRIVER's cifs and ksmbd. The disks take
# ntfs3's default, so that every name reaches the wire; the client takes
# DRIVER's names=.
smb() {
	grep -qx cifs.ko "modules/$1/order" 2>/dev/null || return 0
	wdev=
	if [ -f "images/writes-$1-smb.txt" ]; then
		read -r _ _ wdev <"images/writes-$1-smb.txt"
	fi
	ip link set lo up
	# The shares are directories of the disks: ksmbd lists nothing in
	# a share that is a mount point.
	mkdir -p /srv/m /srv/wm /mnt/c
	# ksmbd wants write access to the mount of a share it only reads
	# (ksmbd_vfs_path_lookup_locked()): a copy of the image, per driver
	cp images/smb-names.img /tmp/smb-names.img
	dev=$(losetup -f)
	losetup "$dev" /tmp/smb-names.img || say "ERROR losetup smb-names"
	# shellcheck disable=SC2046
	mount $(mount_opts ntfs3) "$dev" /srv/m
	echo "FSX-BEGIN $1 smb-server mount=$?"
	./fsprobe list /srv/m/names
	echo "FSX-END $1 smb-server"
	# shellcheck disable=SC2046
	if [ -z "$wdev" ]; then
		:
	elif mount $(mount_opts ntfs3) "/dev/$wdev" /srv/wm; then
		mkdir /srv/wm/w || say "ERROR mkdir /srv/wm/w"
	else
		say "ERROR mount /dev/$wdev"
	fi
	ksm ksmbd.mountd -c smb/ksmbd.conf -u smb/ksmbdpwd.db ||
		say "ERROR ksmbd.mountd"
	# the server listens once mountd has started it
	i=0
	until [ $i -ge 20 ] || awk '$2 ~ /:01BD$/ && $4 == "0A" { l = 1 }
	    END { exit !l }' /proc/net/tcp /proc/net/tcp6 2>/dev/null; do
		sleep 1
		i=$((i + 1))
	done
	cifs="-t cifs -o ip=127.0.0.1,username=utfconv,password=utfconv,iocharset=utf8"
	n=$(names "$1")
	case $n in
	''|default) ;;
	*) cifs=$cifs,names=$n ;;
	esac
	while read -r opt; do
		o=
		[ "$opt" = default ] || o=,$opt
		# the names on the wire, from the server (smbwire); the last
		# option's file goes first, or its "started" could be read
		# before this capture has its socket and the mount's SYN lost
		rm -f /tmp/wire.txt
		./smbwire 120 >/tmp/wire.txt &
		wire=$!
		i=0
		until grep -q started /tmp/wire.txt 2>/dev/null; do
			if [ $i -ge 20 ] || ! kill -0 "$wire" 2>/dev/null; then
				say "ERROR smbwire did not start"
				break
			fi
			sleep 1
			i=$((i + 1))
		done
		# shellcheck disable=SC2086
		mount $cifs$o //127.0.0.1/names /mnt/c
		echo "FSX-BEGIN $1 smb-names-$opt mount=$?"
		names_shown /mnt/c "$n"
		./fsprobe list /mnt/c
		[ "$opt" = default ] && names_remount /mnt/c "$n"
		umount /mnt/c
		kill "$wire"
		wait "$wire"
		grep -v started /tmp/wire.txt
		echo "FSX-END $1 smb-names-$opt"
	done <smb/options.txt
	# shellcheck disable=SC2086
	if [ -n "$n" ] && mount $cifs,names=bogus //127.0.0.1/names /mnt/c 2>/dev/null; then
		say "ERROR cifs: mounted with names=bogus"
		umount /mnt/c
	fi
	if [ -n "$wdev" ]; then
		# shellcheck disable=SC2086
		mount $cifs //127.0.0.1/w /mnt/c
		echo "FSX-BEGIN $1 write-smb mount=$?"
		write_ops "images/writes-$1-smb.txt" /mnt/c
		echo "FSX-END $1 write-smb"
		umount /mnt/c
	fi
	ksm ksmbd.control -s || say "ERROR ksmbd.control -s"
	# the server's threads let go of the disks before they go
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		umount /srv/m 2>/dev/null && break
		sleep 1
	done
	[ -z "$wdev" ] || umount /srv/wm || say "ERROR umount /srv/wm"
	losetup -d "$dev"
	rm -f /tmp/smb-names.img
}

prepare() {
	load stock
	while read -r kw dev fs hex text; do
		case $kw in put|mkdir) ;; *) continue ;; esac
		if [ ! -d "/mnt/$dev" ]; then
			mkdir -p "/mnt/$dev"
			# shellcheck disable=SC2046
			mount $(mount_opts "$fs") "/dev/$dev" "/mnt/$dev" ||
				say "ERROR mount $dev"
		fi
		case $kw in
		put) ./fsprobe put "/mnt/$dev" "$hex" "$text" ;;
		mkdir) mkdir "/mnt/$dev/$hex" || say "ERROR mkdir $dev $hex" ;;
		esac
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
	smb "$drv"
	unload "$drv"
done
sync
exit 0
