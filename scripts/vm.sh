#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot Debian's own kernels in QEMU (TCG) with utfconv.ko (the library)
# and utfconv_dev.ko (the device) and run the in-guest tests or the demo.
#
#   scripts/vm.sh test|demo|bench|fs [6.1] [6.12] [debug] [series]   (default: 6.1 6.12)
#   scripts/vm.sh run -- CMD [ARG...]
#   scripts/vm.sh shell
#
# run and shell boot Debian's 6.12 kernel (VM_KERNEL=6.1: the 6.1 one)
# with utfconv.ko and utfconv_dev.ko loaded and the current directory (VM_SHARE overrides it)
# shared read-write into the guest by virtio-9p (Debian's own 9p modules, loaded from the
# initramfs), mounted at the same path and made the working directory,
# the CLI utfconv on PATH. run runs CMD there (busybox sh userland),
# prints its standard output (exact bytes, when it has ended) on
# standard output and its standard error (as lines) on standard error,
# and exits with CMD's exit status; 125 when the VM did not run CMD to
# its end (kernel trouble, timeout) or when vm.sh's standard input is a
# pipe or a file (CMD gets none: give it a file in the shared directory),
# vm.sh's own messages on standard error. shell gives an interactive busybox sh on the serial console
# (leave it with `exit` or `poweroff -f`, or stop QEMU with Ctrl-A X).
#
# "fs" runs the file name experiments of scripts/fs-experiments.sh, which
# makes their payload (UTFCONV_VM_PAYLOAD) and their scratch disks
# (VM_QEMU_ARGS).
#
# "series" is the kernel of the patch series in SERIES_KERNEL_BUILD (an O=
# build directory of scripts/series-boot.sh), with the library, the
# device, its KUnit suites and the converted filesystems built in: no
# module is built or loaded, its command line gets VM_SERIES_APPEND, and
# the KTAP of the KUnit suites, which ran at boot, is taken from the
# kernel log and parsed by the tree's kunit.py, as for "debug".
#
# "debug" is the KASAN/UBSAN/kmemleak/lockdep kernel that
# scripts/debug-kernel.sh builds (cached): the module is built against
# its build tree, the VM gets at least 1536 MiB, the in-guest hardening
# tests (hardening/run.sh of the payload) run after the suite; after
# rmmod of utfconv_dev.ko the KUnit suites run in the guest as the module
# utfconv_kunit.ko (kunit/Kbuild, built out of tree against the debug
# kernel with the library, whose exports it calls) with their KTAP on the
# console, parsed
# on the host by the kernel's kunit.py; a kmemleak scan after that must
# report nothing. The fault sweep's "# fault site:" lines are matched
# with the module's own calls to allocators and user-copy functions
# (userspace-test/hardening/fault-sites.py): each must have failed once.
#
# VM_DEBUG_SLICE picks the sizes of the debug run: "full" (default, `make
# vm-debug`) or "check" (the shorter slice of `make check`):
#
#   slice  device suite    stress  fuzz  opens  KUnit sweep  runs  timeout
#   full   all             60 s    200k  2000   17           1     3600 s
#   check  see below       20 s    20k   1000   251          3     2400 s
#
# (The check slice leaves out the device suite's utfconv_stress_test, 64
# MiB per direction, as root and as a user: vm-test runs it on Debian's
# kernels and the hardening stress runs under KASAN in both slices. It
# runs utfconv_vectors_test as the unprivileged user only, not as root
# too: the same calls, half of the suite's time under KASAN; so does
# scripts/vm-debug.sh's race boot with utfconv_race_test. Nor does
# it run the CLI checks and module parameters (RUN_CLI=0): the
# CLI is userspace over the same calls, run on both of Debian's kernels
# by vm-test and under KASAN by the full slice. KUnit's
# runs_stride=3 puts the long runs' faults at every third position and
# the last 64, every offset within a block still met.)
# (KUnit's limit of 300 s per case under KASAN in TCG leaves no room for
# the exhaustive sweeps: sweep_stride=N visits every N-th value of their
# innermost loops.)
#
# For each kernel: build the module out of tree against that kernel's
# Debian headers in build/<release>/, put it with busybox and the payload
# of `make -C userspace-test vm` (userspace-test/build/vm/) into an
# initramfs, boot /boot/vmlinuz-<release>, insmod utfconv.ko and
# utfconv_dev.ko, check /dev/utfconv, run /utfconv/run-tests.sh (test) or
# /utfconv/demo.sh (demo), rmmod both, dump
# the kernel log and power off. The console log is kept in
# build/vm/<release>-<mode>.log.
#
# Fails on: no result marker (hang, panic, timeout), a non-zero result, a
# "N passed, N failed" line with failures, a kernel BUG/WARNING/Oops/...
# in the log, or a taint other than O (out-of-tree) and E (unsigned).
#
# Environment: VM_QEMU_ARGS (more arguments of qemu-system-x86_64, split
# at spaces), SHARED (../shared), VM_TIMEOUT (seconds per boot, 1200;
# for debug as in the table above), VM_DEBUG_SLICE (full),
# VM_MEM (MiB, 1024), VM_SMP (CPUs of the guest, 1),
# VM_TESTS (the device suite's programs to run instead of all of them;
# on the debug kernel these alone, without the hardening tests, KUnit and
# the fault-site check: scripts/vm-debug.sh's two-CPU race boot),
# VM_GUEST_ENV (more NAME=VALUE words for the guest's test runner, e.g.
# RUN_CLI=0 of userspace-test/dev/run-tests.sh), VM_DEBUG_PART (all:
# the debug kernel's device suite with the hardening tests and its KUnit
# suites in one boot; suite: the device suite, the hardening tests and
# the KUnit suites utfconv_[a-mv]*; kunit: the others; so that
# scripts/vm-debug.sh can boot both at once, each with its own log
# build/vm/debug-<version>-test-<part>.log),
# VM_MODULES (a directory with utfconv.ko and utfconv_dev.ko built for
# the one kernel booted, loaded instead of building them: scripts/
# install-test.sh's DKMS-built modules), VM_KERNEL (6.12: the kernel of
# run and shell),
# UTFCONV_VM_PAYLOAD (use this directory instead of
# building userspace-test/build/vm), DEBUG_KERNEL_BUILD (an O= build
# directory of a debug kernel to use instead of scripts/debug-kernel.sh's).

. "$(dirname "$0")/lib.sh"

MODE=${1:-test}
shift || true
case $MODE in
test) GUEST_CMD=/utfconv/run-tests.sh ;;
demo) GUEST_CMD=/utfconv/demo.sh ;;
# tools/bench/vm-bench.sh: 64 MiB of text, its UTF-16LE form and the outputs in tmpfs
bench) GUEST_CMD=/utfconv/bench/vm-bench.sh VM_MEM=${VM_MEM:-2048} ;;
# userspace-test/fs/run.sh, in the payload of scripts/fs-experiments.sh
fs) GUEST_CMD=/utfconv/fs/run.sh ;;
run|shell) GUEST_CMD=/utfconv/share.sh ;;
-h|--help)
	# the comment at the top of this file
	sed -n '3,/^[^#]/{/^#/s/^# \{0,1\}//p;}' "$0"
	exit 0 ;;
*) die "usage: $0 test|demo|bench|fs [6.1] [6.12] | run -- CMD... | shell | --help" ;;
esac
RUN_CMD=()
if [ "$MODE" = run ]; then
	[ "${1:-}" = -- ] && shift
	[ $# -gt 0 ] || die "usage: $0 run -- CMD [ARG...]"
	RUN_CMD=("$@")
	set -- "${VM_KERNEL:-6.12}"
	# Standard output is CMD's alone: vm.sh's own goes to stderr.
	exec 3>&1 1>&2
	# The guest's CMD reads no standard input: fail, rather than let
	# `... | vm.sh run -- utfconv ...` convert nothing and exit 0.
	if [ -p /dev/stdin ] || [ -f /dev/stdin ]; then
		printf '%s\n' "vm.sh: run: standard input is not passed to CMD: give CMD a file in the shared directory (sh -c 'CMD < FILE') and run vm.sh with standard input from /dev/null" >&2
		exit 125
	fi
fi
if [ "$MODE" = shell ]; then
	# The guest's shell reads the console: commands piped in would wait
	# there unread, and the guest with them, until a timeout.
	[ -t 0 ] || die "shell: standard input is not a terminal (for commands from a script: $0 run -- CMD)"
	set -- "${VM_KERNEL:-6.12}"
fi
KERNELS=${*:-6.1 6.12}
SHARED=${SHARED:-$(cd "$UTFCONV_ROOT/.." && pwd)/shared}
# the demo converts the corpus: say so before the payload is built
[ "$MODE" != demo ] || [ -d "$SHARED/corpus" ] ||
	die "demo: no corpus under $SHARED/corpus (set SHARED=)"
VM_MEM=${VM_MEM:-1024}
VM_DEBUG_SLICE=${VM_DEBUG_SLICE:-full}
case $VM_DEBUG_SLICE in
full)
	DEBUG_ENV="HARDENING_STRESS_SECONDS=60 HARDENING_FUZZ_COUNT=200000 HARDENING_OPENS=2000 KUNIT_SWEEP_STRIDE=17"
	DEBUG_TIMEOUT=3600 ;;
check)
	DEBUG_ENV="HARDENING_STRESS_SECONDS=20 HARDENING_FUZZ_COUNT=20000 HARDENING_OPENS=1000 KUNIT_SWEEP_STRIDE=251 KUNIT_RUNS_STRIDE=3 TESTS='utfconv_api_test utfconv_iter_test utfconv_vectors_test utfconv_block_test' USER_ONLY=utfconv_vectors_test RUN_CLI=0"
	DEBUG_TIMEOUT=2400 ;;
*) die "VM_DEBUG_SLICE=$VM_DEBUG_SLICE: want full or check" ;;
esac
OUT=$SRC/build/vm
mkdir -p "$OUT"

# One run at a time per tree: runs share build/ and build/vm/.
exec 8>"$OUT/.lock"
if ! flock -n 8; then
	log "vm: waiting for another vm.sh run in $SRC"
	flock 8
fi

# --- run and shell: the shared directory ----------------------------------
# shquote ARG...: each ARG quoted for sh, space-separated.
shquote() {
	local a sep=
	for a in "$@"; do
		printf "%s'%s'" "$sep" "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"
		sep=' '
	done
}

# share_script DIR: the guest's /utfconv/share.sh for MODE run or shell:
# load the 9p modules, mount the host's DIR at DIR, cd there, run.
share_script() {
	cat <<SCRIPT
#!/bin/sh
# Generated by utfconv's scripts/vm.sh ($MODE)
for m in \$(cat /utfconv/9p/order); do
	insmod "/utfconv/9p/\$m" || { echo "UTFCONV-VM: FAIL: insmod \$m"; exit 125; }
done
mkdir -p $(shquote "$1")
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 host0 $(shquote "$1") ||
	{ echo "UTFCONV-VM: FAIL: mount 9p"; exit 125; }
cd $(shquote "$1") || exit 125
export PATH=/utfconv:\$PATH
SCRIPT
	if [ "$MODE" = shell ]; then
		cat <<'SCRIPT'
echo "utfconv shell in $PWD (the host's, read-write; /dev/utfconv loaded)."
echo "Leave with 'exit' or 'poweroff -f' (or stop QEMU with Ctrl-A X)."
setsid cttyhack sh
d=$PWD
cd / && umount "$d" 2>/dev/null
exit 0
SCRIPT
		return
	fi
	cat <<SCRIPT
echo UTFCONV-RUN-BEGIN
# stderr through a pipe, not the console: a terminal would get the CLI's
# progress line, which has no newline and would hide the END marker.
{ $(shquote "${RUN_CMD[@]}") </dev/null 2>&1 >/tmp/run.stdout
echo \$? >/tmp/run.status; } | cat
st=\$(cat /tmp/run.status)
echo UTFCONV-RUN-END
echo UTFCONV-RUN-STDOUT-BEGIN
base64 /tmp/run.stdout
echo UTFCONV-RUN-STDOUT-END
cd /
umount $(shquote "$1") 2>/dev/null
echo "UTFCONV-RUN-EXIT \$st"
exit \$st
SCRIPT
}

# share_payload: the run/shell payload (the static CLI and share.sh);
# prints its directory.
share_payload() {
	local d=$OUT/$MODE-payload
	case $SHARE_DIR in
	/|/proc|/proc/*|/sys|/sys/*|/dev|/dev/*)
		die "cannot share $SHARE_DIR into the guest (set VM_SHARE)" ;;
	esac
	make -s -C "$SRC/userspace-test" "$SRC/userspace-test/build/vm/utfconv" >&2
	rm -rf "$d"
	mkdir -p "$d"
	cp "$SRC/userspace-test/build/vm/utfconv" "$d/utfconv"
	share_script "$SHARE_DIR" >"$d/share.sh"
	chmod 755 "$d/share.sh"
	printf '%s\n' "$d"
}

# add_9p_modules RELEASE DIR: Debian's 9p modules of RELEASE (9p and
# 9pnet_virtio, and virtio_pci where it is a module, with their
# dependencies from modules.dep, decompressed)
# into DIR, their load order in DIR/order.
add_9p_modules() {
	local md=/lib/modules/$1 m dep f b
	mkdir -p "$2"
	: >"$2/order"
	# virtio_pci: a module in 6.1, built in from 6.12 on.
	for m in kernel/drivers/virtio/virtio_pci kernel/net/9p/9pnet_virtio kernel/fs/9p/9p; do
		if ! dep=$(grep -E "^$m\.ko(\.xz)?:" "$md/modules.dep"); then
			[ "$m" != kernel/drivers/virtio/virtio_pci ] ||
				grep -qx CONFIG_VIRTIO_PCI=m "/boot/config-$1" || continue
			die "no $m in $md/modules.dep (linux-image-$1)"
		fi
		# modules.dep lists a module's dependencies last-needed first.
		for f in $(printf '%s\n' ${dep#*:} | tac) "${dep%%:*}"; do
			b=$(basename "$f" .xz)
			grep -qx "$b" "$2/order" && continue
			case $f in
			*.xz) xz -dc "$md/$f" >"$2/$b" ;;
			*) cp "$md/$f" "$2/$b" ;;
			esac
			echo "$b" >>"$2/order"
		done
	done
}

# run_status LOG: CMD's exit status from LOG; 125 (and why, on stderr)
# when the VM did not run it to its end or the kernel reported trouble.
run_status() {
	local st why
	st=$(sed -n 's/^UTFCONV-RUN-EXIT \([0-9]*\)$/\1/p' "$1" | tail -n1)
	why=$({ grep -a '^UTFCONV-VM: FAIL' "$1"; check_log "$1"; } |
		grep -v '^FAIL: guest rc=') || true
	[ -n "$st" ] || why="${why:+$why
}no exit status from the guest (timeout, hang or panic)"
	if [ -n "$why" ]; then
		printf 'vm: run: %s (log %s)\n' "$why" "$1" >&2
		echo 125
		return
	fi
	echo "$st"
}

# run_stdout LOG: CMD's standard output, decoded, to fd 3. Only whole
# base64 lines: a kernel message in between is not output.
run_stdout() {
	sed -n '/^UTFCONV-RUN-STDOUT-BEGIN$/,/^UTFCONV-RUN-STDOUT-END$/p' "$1" |
		{ grep -a -E '^[A-Za-z0-9+/=]{1,76}$' || true; } | base64 -d >&3
}

SHARE_DIR=${VM_SHARE:-$PWD}

# --- the guest payload (kernel independent) ------------------------------
if [ -n "${UTFCONV_VM_PAYLOAD:-}" ]; then
	PAYLOAD=$UTFCONV_VM_PAYLOAD
elif [ "$MODE" = run ] || [ "$MODE" = shell ]; then
	PAYLOAD=$(share_payload)
else
	[ -f "$SRC/userspace-test/Makefile" ] ||
		die "no userspace-test/Makefile: nothing to run in the VM"
	section "vm: building the guest payload (make -C userspace-test vm)"
	make -C "$SRC/userspace-test" vm SHARED="$SHARED"
	PAYLOAD=$SRC/userspace-test/build/vm
fi
[ -x "$PAYLOAD/${GUEST_CMD#/utfconv/}" ] ||
	die "$PAYLOAD${GUEST_CMD#/utfconv} is missing or not executable"
VM_DEBUG_PART=${VM_DEBUG_PART:-all}
case $VM_DEBUG_PART in
all|suite|kunit) ;;
*) die "VM_DEBUG_PART=$VM_DEBUG_PART: want all, suite or kunit" ;;
esac

# busybox-static's /bin/busybox: the guest has no shared libraries.
BUSYBOX=$(command -v busybox) || die "busybox missing (run scripts/deps.sh)"

# --- /init of the guest ---------------------------------------------------
write_init() {
	cat <<INIT
#!/bin/busybox sh
# Generated by utfconv's scripts/vm.sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root
export UTFCONV_LIB_KO=/utfconv/utfconv.ko UTFCONV_KO=/utfconv/utfconv_dev.ko
export UTFCONV_VM_MODE=$MODE $GUEST_ENV
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
chmod 1777 /tmp /dev/shm

say() { echo "UTFCONV-VM: \$*"; }
rc=0
say "kernel \$(uname -r), mode $MODE, taint before insmod \$(cat /proc/sys/kernel/tainted)"
if [ "$BOOT_CHECK" = 1 ] && [ "\$(cat /proc/sys/kernel/tainted)" != 0 ]; then
	# A report before the module was loaded: a fault of this boot.
	say "BAD-BOOT: the kernel is tainted before insmod"
	echo "UTFCONV-VM-RESULT rc=1 tainted=\$(cat /proc/sys/kernel/tainted)"
	$HALT -f
fi
# The series kernel (NOMOD=1) has the library and the device built in.
if [ "$NOMOD" = 1 ] || { insmod "\$UTFCONV_LIB_KO" && insmod "\$UTFCONV_KO"; }; then
	if [ -c /dev/utfconv ]; then
		m=\$(stat -c %A /dev/utfconv)
		say "/dev/utfconv \$m \$(stat -c '%t:%T' /dev/utfconv)"
		[ "\$m" = crw-rw-rw- ] || { say "FAIL: /dev/utfconv mode \$m, want crw-rw-rw-"; rc=1; }
	else
		say "FAIL: /dev/utfconv missing after insmod"
		rc=1
	fi
	echo UTFCONV-VM-OUTPUT-BEGIN
	if [ -n "$GUEST_RUN" ]; then
		t0=\$(date +%s)
		(cd /utfconv && ${GUEST_RUN:-:})
		r=\$?
		[ \$r = 0 ] || rc=\$r
		say "$GUEST_RUN: \$((\$(date +%s) - t0))s"
	fi
	if [ -n "$GUEST_EXTRA" ] && [ -x "$GUEST_EXTRA" ]; then
		t0=\$(date +%s)
		(cd /utfconv && "$GUEST_EXTRA")
		r=\$?
		[ \$r = 0 ] || rc=\$r
		say "$GUEST_EXTRA: \$((\$(date +%s) - t0))s"
	fi
	echo "UTFCONV-VM-OUTPUT-END rc=\$rc"
	if [ "$NOMOD" = 1 ]; then
		# The built-in KUnit suites ran at boot: their KTAP from the
		# kernel log (log_buf_len holds it all).
		echo UTFCONV-VM-KUNIT-BEGIN
		dmesg
		echo UTFCONV-VM-KUNIT-END
	elif rmmod utfconv_dev; then
		[ -e /dev/utfconv ] && { say "FAIL: /dev/utfconv left after rmmod"; rc=1; }
	else
		say "FAIL: rmmod utfconv_dev"
		rc=1
	fi
	# The KUnit suites (debug kernel), against the library loaded now:
	# they run while insmod loads them, KTAP at KERN_INFO, so the console
	# shows it with loglevel 7.
	if [ -f /utfconv/utfconv_kunit.ko ]; then
		t0=\$(date +%s)
		# kunit.filter_glob (root only) applies to a module's suites
		# when it loads; a charp parameter keeps a newline written to
		# it, which no suite name would match.
		if [ -n "\${KUNIT_FILTER:-}" ]; then
			say "kunit: filter_glob=\$KUNIT_FILTER"
			printf %s "\$KUNIT_FILTER" >/sys/module/kunit/parameters/filter_glob ||
				{ say "FAIL: kunit.filter_glob=\$KUNIT_FILTER"; rc=1; }
		fi
		say "kunit: insmod utfconv_kunit.ko sweep_stride=\${KUNIT_SWEEP_STRIDE:-1} runs_stride=\${KUNIT_RUNS_STRIDE:-1}"
		echo UTFCONV-VM-KUNIT-BEGIN
		dmesg -n 7
		insmod /utfconv/utfconv_kunit.ko sweep_stride=\${KUNIT_SWEEP_STRIDE:-1} \\
			runs_stride=\${KUNIT_RUNS_STRIDE:-1} ||
			{ say "FAIL: insmod utfconv_kunit.ko"; rc=1; }
		dmesg -n 4
		sleep 1
		echo UTFCONV-VM-KUNIT-END
		rmmod utfconv_kunit || { say "FAIL: rmmod utfconv_kunit"; rc=1; }
		say "kunit: \$((\$(date +%s) - t0))s"
	fi
	[ "$NOMOD" = 1 ] || rmmod utfconv || { say "FAIL: rmmod utfconv"; rc=1; }
else
	say "FAIL: insmod \$UTFCONV_LIB_KO \$UTFCONV_KO"
	rc=1
fi
if [ -w /sys/kernel/debug/kmemleak ]; then
	# Objects younger than 5 s are not reported: scan, wait, scan again.
	echo scan > /sys/kernel/debug/kmemleak
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	say "kmemleak scan: \$(grep -c 'unreferenced object' /sys/kernel/debug/kmemleak) leaks"
	cat /sys/kernel/debug/kmemleak
fi
if [ "$MODE" = shell ]; then
	# Nothing on the host reads a shell's log: only what concerns its user.
	dmesg | grep -a -E 'utfconv|WARNING|BUG|Oops|Call Trace'
else
	echo UTFCONV-VM-DMESG-BEGIN
	dmesg
	echo UTFCONV-VM-DMESG-END
fi
echo "UTFCONV-VM-RESULT rc=\$rc tainted=\$(cat /proc/sys/kernel/tainted)"
sync
# The debug kernel has no ACPI power-off; QEMU runs with -no-reboot.
$HALT -f
INIT
}

# Taint bits allowed: 12 (O, out-of-tree module), 13 (E, unsigned module);
# on the debug kernel also 18 (N, a KUnit test module was loaded).
ALLOWED_TAINT=$(( (1 << 12) | (1 << 13) ))
DEBUG_TAINT=$(( ALLOWED_TAINT | (1 << 18) ))

# check_log LOG [ALLOWED]: 0 when the run in LOG passed; says why not
# otherwise. ALLOWED: taint bits allowed (ALLOWED_TAINT).
check_log() {
	local log=$1 allowed=${2:-$ALLOWED_TAINT} ok=0 result rc tainted bad
	result=$(grep -a '^UTFCONV-VM-RESULT ' "$log" | tail -n1 | tr -d '\r')
	if [ -z "$result" ]; then
		echo "FAIL: no UTFCONV-VM-RESULT line (timeout, hang or panic)"
		# The log may be gone by the time anyone looks (a scratch
		# root, a later run): show how the guest ended.
		echo "FAIL: the last lines of $log:"
		tail -n 30 "$log" | sed 's/^/  | /'
		return 1
	fi
	rc=$(sed -n 's/.* rc=\([0-9]*\).*/\1/p' <<<"$result")
	tainted=$(sed -n 's/.* tainted=\([0-9]*\).*/\1/p' <<<"$result")
	[ "$rc" = 0 ] || { echo "FAIL: guest rc=$rc"; ok=1; }
	if [ -z "$tainted" ] || (( tainted & ~allowed )); then
		echo "FAIL: kernel tainted=$tainted (allowed: $allowed, O and E; N on the debug kernel)"
		ok=1
	fi
	# Failed test summaries in the guest output.
	if awk '/UTFCONV-VM-OUTPUT-BEGIN/{o=1} /UTFCONV-VM-OUTPUT-END/{o=0}
		o && match($0, /[0-9]+ passed, [0-9]+ failed/) {
			split(substr($0, RSTART, RLENGTH), f, " ")
			if (f[3] + 0 > 0) bad = 1
		} END { exit !bad }' "$log"; then
		echo "FAIL: failed tests in the guest output"
		ok=1
	fi
	# Kernel trouble anywhere outside the test programs' own output, and
	# kernel lines (with a printk time stamp) within it. The stack traces
	# that fault injection logs for each fault it injects (verbose=2, the
	# fault sweep) are skipped, from "FAULT_INJECTION: forcing a failure"
	# to the end of the trace, and so are those of the allocation failure
	# warnings the injected faults cause ("vmalloc error", "page
	# allocation failure").
	bad=$(awk '/UTFCONV-VM-OUTPUT-BEGIN/{o=1}
		/FAULT_INJECTION: forcing a failure|vmalloc error: |page allocation failure: /{fi=1}
		fi { if (/<\/TASK>/) fi=0; next }
		!o || /^\[ *[0-9]+\.[0-9]+\] /{print}
		/UTFCONV-VM-OUTPUT-END/{o=0}' "$log" |
		grep -a -E 'BUG:|WARNING:|Oops|KASAN|UBSAN|kmemleak|lockdep|Call Trace|Kernel panic|sleeping function called from invalid context|unreferenced object|possible (recursive|circular|irq lock)|INFO: task' |
		grep -a -v -E 'UTFCONV-VM|kmemleak: (Kernel memory leak detector|Automatic memory scanning)|rcu:[[:space:]]+RCU lockdep checking is enabled' || true)
	if [ -n "$bad" ]; then
		echo "FAIL: kernel log reports:"
		printf '%s\n' "$bad" | head -n 20
		ok=1
	fi
	return $ok
}

# debug_checks LOG KO KTEST KDIR: the debug kernel's own checks of a
# run: every allocation and user copy of KO (the library; the device
# module beside it too) failed by the fault sweep (not checked when KO
# is empty: no sweep ran), and the KUnit suites of KTEST passed (KTAP
# from the console of LOG, parsed by KDIR's kunit.py; none when KTEST is
# empty). 0 when both passed.
debug_checks() {
	local log=$1 ko=$2 ktest=$3 kdir=$4 ok=0 ktap summary ran p f c s e
	if [ -n "$ko" ]; then
		section "vm: debug: fault sites of $(basename "$ko") and utfconv_dev.ko"
		python3 "$SRC/userspace-test/hardening/fault-sites.py" "$ko" \
			"${ko%/*}/utfconv_dev.ko" "$log" || ok=1
	fi

	[ -n "$ktest" ] || return $ok
	section "vm: $k: KUnit in the $k kernel ($(basename "$ktest"))"
	ktap=${log%.log}-kunit.ktap
	# Kernel lines between the markers, without their time stamps.
	awk '/^UTFCONV-VM-KUNIT-BEGIN/{k=1; next} /^UTFCONV-VM-KUNIT-END/{k=0}
		k && /^\[ *[0-9]+\.[0-9]+\] /' "$log" |
		sed 's/^\[ *[0-9]*\.[0-9]*\] //' >"$ktap"
	summary=$(python3 "$kdir/source/tools/testing/kunit/kunit.py" parse "$ktap" 2>&1 |
		tee "${ktap%.ktap}-parsed.log" | grep -a 'Testing complete\. Ran' | tail -n1 |
		sed 's/^\[[0-9:]*\] //') || true
	grep -a -E '\[(FAILED|CRASHED)\]|ERROR' "${ktap%.ktap}-parsed.log" | head -n 20 || true
	ran=$(sed -n 's/.*Ran \([0-9]*\) tests\{0,1\}.*/\1/p' <<<"$summary")
	p=$(sed -n 's/.*passed: \([0-9]*\).*/\1/p' <<<"$summary")
	f=$(sed -n 's/.*failed: \([0-9]*\).*/\1/p' <<<"$summary")
	c=$(sed -n 's/.*crashed: \([0-9]*\).*/\1/p' <<<"$summary")
	s=$(sed -n 's/.*skipped: \([0-9]*\).*/\1/p' <<<"$summary")
	e=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' <<<"$summary")
	f=$(( ${f:-0} + ${c:-0} + ${e:-0} ))
	log "kunit-$k: ${summary:-no KTAP summary} (KTAP $ktap)"
	if [ -z "$ran" ] || [ "$ran" = 0 ]; then
		log "kunit-$k: FAIL: no test ran"
		f=$((f + 1))
	fi
	# counted by scripts/check.sh like the guest's totals
	echo "${p:-0} passed, $f failed (KUnit in the $k kernel, ${s:-0} skipped)"
	[ "$f" = 0 ] || ok=1
	return $ok
}

# console_view: what of the console a run shows: the guest's lines but
# the kernel log dump (run: CMD's standard error only).
console_view() {
	if [ "$MODE" = run ]; then
		# (a last stderr line without its newline ends in the marker)
		sed -u -n '/^UTFCONV-RUN-BEGIN$/,/UTFCONV-RUN-END$/ {
			/^UTFCONV-RUN-BEGIN$/d
			/UTFCONV-RUN-END$/ { s/UTFCONV-RUN-END$//; /^$/d; }
			p; }'
		return
	fi
	sed -u -n '/^UTFCONV-VM/,$ {
		/UTFCONV-VM-DMESG-BEGIN/,/UTFCONV-VM-DMESG-END/d
		/^UTFCONV-VM-OUTPUT-\(BEGIN\|END\)/d
		p
	}'
}

# --- per kernel -----------------------------------------------------------
fails=0
summary=
for k in $KERNELS; do
	GUEST_RUN=$GUEST_CMD GUEST_EXTRA= GUEST_ENV=${VM_TESTS:+"TESTS='$VM_TESTS'"}
	GUEST_ENV="$GUEST_ENV${VM_GUEST_ENV:+ $VM_GUEST_ENV}" HALT=poweroff part=
	mem=$VM_MEM smp=${VM_SMP:-1} BOOT_CHECK=0
	timeout=${VM_TIMEOUT:-1200} append= allowed=$ALLOWED_TAINT ktest= kunit_mod=
	dchecks=
	NOMOD=
	if [ "$k" = series ]; then
		section "vm: the series kernel ($SERIES_KERNEL_BUILD)"
		kdir=$SERIES_KERNEL_BUILD
		rel=series-$(linux_source_version)
		vmlinuz=$kdir/arch/x86/boot/bzImage
		HALT=reboot NOMOD=1 dchecks=1 ktest=built-in
		allowed=$DEBUG_TAINT
		append=" log_buf_len=16M${VM_SERIES_APPEND:+ $VM_SERIES_APPEND}"
	elif [ "$k" = debug ]; then
		section "vm: the debug kernel (scripts/debug-kernel.sh), slice $VM_DEBUG_SLICE"
		kdir=${DEBUG_KERNEL_BUILD:-$("$UTFCONV_ROOT/scripts/debug-kernel.sh")}
		rel=debug-$(linux_source_version)
		vmlinuz=$kdir/arch/x86/boot/bzImage
		kmake=(make -s -C "$kdir/source" O="$kdir")
		HALT=reboot
		[ "$mem" -ge 1536 ] || mem=1536
		timeout=${VM_TIMEOUT:-$DEBUG_TIMEOUT}
		# Room for the fault sweep's stack traces in the kernel log.
		append=" log_buf_len=16M"
		allowed=$DEBUG_TAINT
		# Seen once in TCG under load: a KASAN report in an interrupt at
		# 0.136 s, while the kernel identified the CPU, long before the
		# module. Such a boot is retried (twice at most).
		BOOT_CHECK=1
		if [ "$MODE" = test ] && [ -z "${VM_TESTS:-}" ]; then
			GUEST_ENV="$DEBUG_ENV${VM_GUEST_ENV:+ $VM_GUEST_ENV}"
			dchecks=1
			# The device suite with the hardening tests, and the
			# KUnit suites as a module too (kunit/Kbuild, in the
			# same build as the library they call): both in one
			# boot, or the one VM_DEBUG_PART names.
			# Split in two boots, the KUnit suites are split too,
			# by kunit.filter_glob: the vector suites and the
			# short ones (utfconv_[a-mv]*: api, capacity,
			# chunking, fsname, vectors; a third of KUnit's time
			# in the check slice) after the device suite and the
			# hardening tests, the nls, codec path and sweep
			# suites (utfconv_[!a-mv]*) alone, so that the boots
			# take about as long and every suite runs in one of
			# them. The hardening tests stay after the device
			# suite: in a guest just booted, the fault sweep's
			# count of an ioctl's fault points varies with the
			# slab caches and missed the last one (5 of 8 passes).
			case $VM_DEBUG_PART in
			kunit)
				GUEST_RUN=
				GUEST_ENV="$GUEST_ENV KUNIT_FILTER='utfconv_[!a-mv]*'" ;;
			suite)
				GUEST_EXTRA=/utfconv/hardening/run.sh
				GUEST_ENV="$GUEST_ENV KUNIT_FILTER='utfconv_[a-mv]*'" ;;
			*)
				GUEST_EXTRA=/utfconv/hardening/run.sh ;;
			esac
			kunit_mod=1
			[ "$VM_DEBUG_PART" = all ] || part=-$VM_DEBUG_PART
		fi
		log "vm: debug slice $VM_DEBUG_SLICE: $GUEST_ENV, timeout ${timeout}s"
	else
		rel=$(kernel_release "$k")
		kdir=$(kernel_headers "$k")
		vmlinuz=/boot/vmlinuz-$rel
		kmake=(make -s -C "$kdir")
	fi
	[ -f "$vmlinuz" ] || die "missing $vmlinuz (run scripts/deps.sh)"

	section "vm: $MODE on Linux $rel"
	[ -z "$NOMOD" ] || VM_MODULES=
	bdir=$SRC/build/$rel
	ko=$bdir/kmod/utfconv.ko devko=$bdir/kmod/utfconv_dev.ko
	if [ -n "${VM_MODULES:-}" ]; then
		ko=$VM_MODULES/utfconv.ko devko=$VM_MODULES/utfconv_dev.ko
		log "vm: loading $ko and $devko (VM_MODULES)"
		[ -f "$ko" ] && [ -f "$devko" ] || die "no $ko and $devko"
	fi
	mkdir -p "$bdir"
	[ -n "${VM_MODULES:-}" ] || [ -n "$NOMOD" ] || copy_module_tree "$bdir"
	kopt=()
	if [ -n "$kunit_mod" ]; then
		mkdir -p "$bdir/kunit"
		# the generated vector table (never checked in) first
		python3 "$SRC/scripts/gen_vectors.py" --kunit \
			"$SRC/kunit/utfconv_vectors_gen.h"
		rsync --checksum "$SRC"/kunit/*.[ch] "$SRC/kunit/Kbuild" "$bdir/kunit/"
		kopt=(CONFIG_UTFCONV_KUNIT_TEST=m)
		ktest=$bdir/kunit/utfconv_kunit.ko
	fi
	if [ -n "$NOMOD" ]; then
		ko='' devko=''
	elif [ -z "${VM_MODULES:-}" ]; then
		log "vm: building utfconv.ko, utfconv_dev.ko${ktest:+, utfconv_kunit.ko} against $kdir"
		"${kmake[@]}" M="$bdir" "${kopt[@]}" modules
	fi
	for f in "$ko" "$devko" ${kunit_mod:+"$ktest"}; do
		[ -n "$NOMOD" ] || [ -f "$f" ] || die "no $f"
	done

	# Boots of one tree may run at once (scripts/vm-debug.sh), each
	# with its own files: the tree's lock is held until QEMU starts,
	# the boot's own until its checks are done.
	boot=$rel-$MODE$part
	exec 9>"$OUT/$boot.lock"
	flock 9
	root=$OUT/$boot-root
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,root,utfconv}
	cp "$BUSYBOX" "$root/bin/busybox"
	cp -a "$PAYLOAD/." "$root/utfconv/"
	[ "$GUEST_CMD" != /utfconv/share.sh ] || add_9p_modules "$rel" "$root/utfconv/9p"
	[ -n "$NOMOD" ] || cp "$ko" "$devko" "$root/utfconv/"
	[ -z "$kunit_mod" ] || cp "$ktest" "$root/utfconv/utfconv_kunit.ko"
	# The module's allocation and user-copy call sites, for the fault sweep.
	if [ "$k" = debug ] && [ -d "$root/utfconv/hardening" ]; then
		python3 "$SRC/userspace-test/hardening/fault-sites.py" --list "$ko" \
			"$devko" >"$root/utfconv/hardening/fault-sites.txt"
	fi
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/tmp:/bin/sh\n' >"$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
	write_init >"$root/init"
	chmod 755 "$root/init"
	initrd=$OUT/$boot.cpio.gz
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd"

	vmlog=$OUT/$boot.log
	qemu=(qemu-system-x86_64 -accel tcg -cpu max -m "$mem" -smp "$smp"
		-nographic -no-reboot -nic none -kernel "$vmlinuz" -initrd "$initrd"
		-append "console=ttyS0 quiet panic=-1$append")
	# VM_QEMU_ARGS is split on blanks on purpose: several arguments.
	# shellcheck disable=SC2206
	qemu+=(${VM_QEMU_ARGS:-})
	[ "$GUEST_CMD" != /utfconv/share.sh ] ||
		qemu+=(-virtfs "local,path=${SHARE_DIR//,/,,},mount_tag=host0,security_model=none,id=host0")
	if [ "$MODE" = shell ]; then
		log "vm: shell on Linux $rel in $SHARE_DIR; leave with 'exit' or 'poweroff -f' (Ctrl-A X stops QEMU)"
		"${qemu[@]}"
		exit
	fi
	flock -u 8
	attempt=1
	while :; do
	log "vm: booting $vmlinuz (log $vmlog)"
	start=$(date +%s)
	set +e
	# Line-buffered all the way (sed -u and tee; not tr, nor mawk, which
	# reads its input in blocks), so that the console and the log show at
	# once where a hang stopped.
	timeout -k 10 "$timeout" "${qemu[@]}" \
		</dev/null 2>&1 | sed -u 's/\r//g; s/\x1b[[0-9;?]*[a-zA-Z]//g; s/\x1bc//g' |
		tee "$vmlog" | console_view
	qrc=${PIPESTATUS[0]}
	set -e
	secs=$(( $(date +%s) - start ))
	if grep -a -q '^UTFCONV-VM: BAD-BOOT' "$vmlog" && [ "$attempt" -lt 3 ]; then
		mv "$vmlog" "$vmlog.bad-boot-$attempt"
		log "vm: the kernel reported trouble before insmod (log $vmlog.bad-boot-$attempt): booting again"
		attempt=$((attempt + 1))
		continue
	fi
	break
	done
	[ "$attempt" = 1 ] || log "vm: boot $attempt of $rel"
	[ "$qrc" = 124 ] && log "vm: QEMU timed out after ${timeout}s"
	[ "$qrc" = 0 ] || [ "$qrc" = 124 ] || log "vm: QEMU exited with status $qrc"
	if [ "$MODE" = run ]; then
		run_stdout "$vmlog"
		exit "$(run_status "$vmlog")"
	fi
	log "vm: kernel log lines mentioning utfconv (not KTAP, not fault traces):"
	awk '/UTFCONV-VM-DMESG-BEGIN/{d=1; next} /UTFCONV-VM-DMESG-END/{d=0}
		/FAULT_INJECTION: forcing a failure|vmalloc error: /{t=1}
		t { if (/<\/TASK>/) t=0; next }
		d && !/^\[ *[0-9.]+\] +(KTAP|TAP|1\.\.[0-9]|#|ok |not ok |utfconv_hardening: case )/' "$vmlog" |
		grep -a -i utfconv | sed 's/^/  /' || true
	vm_ok=0
	check_log "$vmlog" "$allowed" || vm_ok=1
	if [ -n "$dchecks" ]; then
		debug_checks "$vmlog" "${GUEST_EXTRA:+$ko}" "$ktest" "$kdir" ||
			vm_ok=1
	fi
	if [ "$vm_ok" = 0 ]; then
		log "vm: Linux $rel $MODE: PASS (${secs}s)"
		summary="$summary  $rel $MODE: PASS (${secs}s)\n"
	else
		log "vm: Linux $rel $MODE: FAIL (${secs}s, log $vmlog)"
		summary="$summary  $rel $MODE: FAIL (${secs}s, log $vmlog)\n"
		fails=$((fails + 1))
	fi
	flock -u 9
	flock 8
done

section "vm: summary"
printf "$summary"
[ "$fails" = 0 ]
