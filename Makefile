# SPDX-License-Identifier: GPL-2.0
#
# utfconv: wrapper Makefile (the kbuild side is in Kbuild, kmod/Kbuild and
# kunit/Kbuild, with Kconfig for in-tree builds).
#
#   make            build only (installs nothing): kmod/utfconv.ko (library)
#                   and kmod/utfconv_dev.ko (device) against the running
#                   kernel's headers, else Debian 12's 6.1 headers, and
#                   the CLI tools/utfconv
#   make cli        the CLI tools/utfconv alone (needs only a C compiler
#                   and libc's headers)
#   make deps       install the Debian packages of every other target
#                   (scripts/deps.sh, as root or with sudo)
#   make demo       boot Debian's kernel in QEMU and convert ../shared/corpus
#   make shell      a shell in QEMU with utfconv loaded, this directory shared
#   make check      every test: host-check, kunit, style, docs, install-test,
#                   series, vm-test, vm-debug and fs-experiments (their
#                   check slices)
#   make kunit | host-check | fuzz | style | docs | vm-test | install-test
#   make deb        the Debian packages utfconv-dkms and utfconv in build/deb/
#   make install | uninstall | clean
#   make fuzz-long  the libFuzzer target for 10 minutes
#   make fresh-check  make demo and make check in a new debootstrap chroot
#   make vm-debug   the debug-kernel VM run in full (make check: a slice)
#   make bench      benchmarks vs iconv, ICU, fs/nls (not part of check)
#   make fs-experiments  file names of vfat, exFAT, NTFS, Joliet, JFS and
#                   UDF images, stock and utfconv drivers
#   make series     the git format-patch series against linux-source-6.12
#                   in build/series/ (scripts/series.sh)
#   make series-test  that series applied, checkpatch'ed and built after
#                   every patch, then kunit.py run on it and its kernel
#                   booted (built-in KUnit, fs experiments in tree)
#
# make, install, uninstall, clean and help install no packages; every other
# target first runs `make deps`, which installs the missing Debian
# packages (needs root or sudo). Caches: ~/.cache/utfconv.

# Kernel to build against. This machine's own kernel may have no headers
# (a container, a CI host): then `make` says so and builds against the
# headers of Debian 12's stock 6.1 kernel (linux-headers-amd64, which
# `make deps` installs), which the module is tested with.
KDIR ?= /lib/modules/$(shell uname -r)/build
SHARED ?= $(abspath ../shared)

# Resolved when a recipe runs: empty when there are no headers at all.
KDIR_BUILD = $(if $(wildcard $(KDIR)/Makefile),$(KDIR),$(shell scripts/kernels.sh headers 6.1 2>/dev/null))

.PHONY: all modules deps kunit host-check fuzz style vm-test demo check \
	install clean help bench vm-debug fuzz-long fresh-check shell \
	fs-experiments deb cli series series-test

all: modules cli

cli:
	$(MAKE) -C tools

deps:
	@scripts/deps.sh

modules:
	@if [ -z "$(KDIR_BUILD)" ]; then \
		echo "make: no kernel headers: none for the running kernel at" \
		     "$(KDIR), nor Debian 12's 6.1 headers." >&2; \
		echo "make: install linux-headers-$$(uname -r) (or" \
		     "linux-headers-amd64), set KDIR=, or run 'make deps'." >&2; \
		exit 1; \
	fi
	@if [ "$(KDIR_BUILD)" != "$(KDIR)" ]; then \
		echo "make: no kernel headers at $(KDIR);" \
		     "building against Debian 12's 6.1 headers $(KDIR_BUILD)" \
		     "(for the VM tests, not for this machine's kernel)"; \
	fi
	$(MAKE) -C $(KDIR_BUILD) M=$(CURDIR) modules

# The Debian packages utfconv-dkms and utfconv (debian/), built by
# dpkg-buildpackage in a copy of the tracked files under build/deb/, so
# that the tree stays clean; the .debs and lintian's report land in
# build/deb/ (scripts/deb.sh).
deb: deps
	scripts/deb.sh

kunit: deps
	scripts/uml-halt-test.sh
	scripts/kunit.sh

host-check: deps
	$(MAKE) -C userspace-test host-check SHARED=$(SHARED)

fuzz: deps
	$(MAKE) -C userspace-test fuzz SHARED=$(SHARED)

# The same for 10 minutes (FUZZ_LONG_SECONDS), printing the exec count.
fuzz-long: deps
	$(MAKE) -C userspace-test fuzz-long SHARED=$(SHARED)

style: deps
	scripts/style.sh

docs: deps
	scripts/docs.sh

# The packages of `make deb` installed in a scratch Debian 12 root (DKMS
# builds the modules for Debian's 6.1 and 6.12 kernels), those modules
# booted in QEMU with the packaged CLI, the packages purged; make
# install/uninstall into a staging root (scripts/install-test.sh).
install-test: deps
	scripts/install-test.sh

# The suites in QEMU, utfconv_race_test in a two-CPU guest (calls on one
# file racing), then scripts/vm.sh run on files of this tree (the CLI's
# iconv cases, compared with glibc iconv here).
vm-test: deps
	SHARED=$(SHARED) scripts/vm-test.sh

# An interactive busybox sh in QEMU (Debian's 6.12 kernel, utfconv.ko
# loaded, this directory shared read-write by 9p): scripts/vm.sh shell.
shell: deps
	scripts/vm.sh shell

demo: deps
	SHARED=$(SHARED) scripts/vm.sh demo 6.1

# The device suite, the hardening tests and the KUnit suites on the debug
# kernel (KASAN, UBSAN, kmemleak, lockdep, fault injection;
# scripts/debug-kernel.sh), full sizes; make check runs the shorter
# VM_DEBUG_SLICE=check.
vm-debug: deps
	SHARED=$(SHARED) VM_DEBUG_SLICE=full scripts/vm-debug.sh

check: deps
	SHARED=$(SHARED) scripts/check.sh

# File names of real vfat, exFAT and Joliet images under the stock and the
# converted drivers in QEMU on Debian's 6.12 kernel: the table and
# "fs-experiments: N passed, N failed" (scripts/fs-experiments.sh,
# Documentation/fsname.rst).
fs-experiments: deps
	SHARED=$(SHARED) scripts/fs-experiments.sh

# The README's two commands in a fresh Debian 12 chroot with empty caches
# (scripts/fresh-check.sh; as long as a first make check on a new machine).
fresh-check:
	SHARED=$(SHARED) scripts/fresh-check.sh

# The series a kernel developer would send (Documentation/series.rst).
series: deps
	scripts/series.sh

series-test: deps
	SERIES_KUNIT=1 SERIES_BOOT=1 scripts/series-test.sh

# Prints ratios and writes results/ (git-ignored); never a test.
bench: deps
	SHARED=$(SHARED) scripts/bench.sh all

# Installs into the kernel that KDIR belongs to (this machine's by default):
# the module into /lib/modules/<release>/$(INSTALL_MOD_DIR) (updates/, so
# it wins over an in-tree module of the same name) and depmod; the CLI,
# the man pages and the udev rule under $(DESTDIR)$(PREFIX). A staging
# root: INSTALL_MOD_PATH=/tmp/root DESTDIR=/tmp/root.
INSTALL_MOD_DIR ?= updates
PREFIX ?= /usr/local
UDEVDIR ?= /etc/udev/rules.d
# The release the modules are built for: UTS_RELEASE of KDIR's headers, as
# modules_install and the vermagic take it (Debian's 6.1 headers answer
# `make kernelrelease` with the upstream version, 6.1.N, and give the
# real release only in UTS_RELEASE and .kernelvariables).
KRELEASE = $(or $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null), \
	$(shell $(MAKE) -s -C $(KDIR) kernelrelease 2>/dev/null))
DEPMOD = depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KRELEASE)

.PHONY: docs install-check uninstall install-test

install-check:
	@[ -f "$(KDIR)/Makefile" ] || { echo "make install: no headers for" \
		"the running kernel at $(KDIR); install them or set KDIR"; exit 1; }

install: install-check modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) \
		$(if $(INSTALL_MOD_PATH),INSTALL_MOD_PATH=$(INSTALL_MOD_PATH)) \
		modules_install
	$(DEPMOD)
	install -D -m 0644 man/utfconv.1 $(DESTDIR)$(PREFIX)/share/man/man1/utfconv.1
	install -D -m 0644 man/utfconv.4 $(DESTDIR)$(PREFIX)/share/man/man4/utfconv.4
	install -D -m 0644 udev/60-utfconv.rules $(DESTDIR)$(UDEVDIR)/60-utfconv.rules
	@if [ -f tools/Makefile ]; then $(MAKE) -C tools install PREFIX=$(PREFIX); fi

uninstall: install-check
	rm -f $(INSTALL_MOD_PATH)/lib/modules/$(KRELEASE)/$(INSTALL_MOD_DIR)/kmod/utfconv.ko* \
		$(INSTALL_MOD_PATH)/lib/modules/$(KRELEASE)/$(INSTALL_MOD_DIR)/kmod/utfconv_dev.ko*
	$(DEPMOD)
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/utfconv.1 \
		$(DESTDIR)$(PREFIX)/share/man/man4/utfconv.4 \
		$(DESTDIR)$(UDEVDIR)/60-utfconv.rules $(DESTDIR)$(PREFIX)/bin/utfconv

clean:
	rm -rf build
	rm -f kmod/*.o kmod/*.ko kmod/*.mod kmod/*.mod.c kmod/.*.cmd \
		kmod/.*.d kmod/modules.order kunit/*.o kunit/*.ko kunit/*.mod \
		kunit/*.mod.c kunit/.*.cmd kunit/modules.order .*.cmd *.o .*.o \
		modules.order Module.symvers .checkpatch-camelcase.*
	@if [ -f userspace-test/Makefile ]; then $(MAKE) -C userspace-test clean; fi
	@if [ -f tools/Makefile ]; then $(MAKE) -C tools clean; fi
	@if [ -f tools/fsimg/Makefile ]; then $(MAKE) -C tools/fsimg clean; fi

help:
	@sed -n '3,/^$$/{/^#  /s/^#  //p}' Makefile
