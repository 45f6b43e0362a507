# SPDX-License-Identifier: GPL-2.0
#
# /dev/utfconv device suite, CLI checks and in-guest scripts. Included by
# userspace-test/Makefile (which sets SHARED, TOPDIR and BUILD).
#
#   make -C userspace-test vm SHARED=<abs path>
#       fills build/vm/ with everything the VM rig places at /utfconv/:
#       static test programs, the static CLI, run-tests.sh, demo.sh,
#       cli-test.sh and data/ (the corpus with glibc iconv's UTF-16LE and
#       UTF-16BE forms of every file, computed here on the host)
#   make -C userspace-test dev        only the programs
#   make -C userspace-test cli-check  CLI checks that need no device
#
# The kselftest harness comes from the kernel source: KSELFTEST_DIR (a
# tools/testing/selftests directory) if set, else it is extracted from
# KSRC_TAR into build/dev/ksft/ (never committed).

KSRC_TAR ?= /usr/src/linux-source-6.12.tar.xz
KSELFTEST_DIR ?=
CC ?= cc
ICONV ?= iconv

DEV_SRC := $(CURDIR)/dev
DEV_BUILD := $(BUILD)/dev
VM_DIR := $(BUILD)/vm
VM_DATA := $(VM_DIR)/data

DEV_CFLAGS := -O2 -g -Wall -Wextra -Wno-sign-compare -std=gnu11 -pthread \
	-I$(DEV_BUILD) -isystem $(DEV_BUILD)/ksft -I$(DEV_SRC) \
	-I$(TOPDIR)/include/uapi
DEV_LDFLAGS := -static -pthread

DEV_TESTS := utfconv_vectors_test utfconv_api_test utfconv_block_test \
	utfconv_stress_test utfconv_race_test utfconv_iter_test
DEV_PROGS := $(addprefix $(VM_DIR)/,$(DEV_TESTS) utfconv ptyrun)
DEV_SCRIPTS := $(addprefix $(VM_DIR)/,run-tests.sh demo.sh cli-test.sh)
KSFT_HDRS := $(DEV_BUILD)/ksft/kselftest_harness.h $(DEV_BUILD)/ksft/kselftest.h
UAPI_HDR := $(TOPDIR)/include/uapi/linux/utfconv.h

CORPUS_FILES := $(patsubst $(SHARED)/corpus/%,%,\
	$(sort $(wildcard $(SHARED)/corpus/*/*.utf8.txt)))
VM_CORPUS := $(addprefix $(VM_DATA)/corpus/,$(CORPUS_FILES))
VM_REFS := $(VM_CORPUS:.utf8.txt=.utf16le) $(VM_CORPUS:.utf8.txt=.utf16be)

all:: dev

dev: $(DEV_PROGS)

vm: $(DEV_PROGS) $(DEV_SCRIPTS) $(VM_CORPUS) $(VM_REFS) $(VM_DATA)/corpus.list

# The VM bench (scripts/vm.sh bench) in bench/, built by tools/bench.
vm: vm-bench
vm-bench:
	$(MAKE) -C $(TOPDIR)/tools/bench vm BUILD=$(BUILD)/bench VM_DEST=$(VM_DIR)/bench

$(VM_DIR) $(DEV_BUILD) $(DEV_BUILD)/ksft:
	mkdir -p $@

$(DEV_BUILD)/ksft/kselftest_harness.h: | $(DEV_BUILD)/ksft
	@if [ -n "$(KSELFTEST_DIR)" ]; then \
		cp $(KSELFTEST_DIR)/kselftest_harness.h \
		   $(KSELFTEST_DIR)/kselftest.h $(DEV_BUILD)/ksft/; \
	else \
		test -r $(KSRC_TAR) || { echo "need $(KSRC_TAR) (apt-get install linux-source-6.12) or KSELFTEST_DIR=" >&2; exit 1; }; \
		echo "  EXTRACT kselftest harness from $(KSRC_TAR)"; \
		tar -xJf $(KSRC_TAR) -C $(DEV_BUILD)/ksft --strip-components=4 \
			--wildcards '*/tools/testing/selftests/kselftest_harness.h' \
			'*/tools/testing/selftests/kselftest.h'; \
	fi
	test -r $(DEV_BUILD)/ksft/kselftest.h
	touch $@

$(DEV_BUILD)/ksft/kselftest.h: $(DEV_BUILD)/ksft/kselftest_harness.h

# The device suite's table, from the same generator as the KUnit table.
$(DEV_BUILD)/vectors.h: $(VEC_GEN) $(VEC_DEV_TSV) | $(DEV_BUILD)
	$(PYTHON) $(VEC_GEN) --device $@ $(VEC_DEV_TSV)

$(VM_DIR)/utfconv_vectors_test: $(DEV_BUILD)/vectors.h
$(VM_DIR)/utfconv_%_test: $(DEV_SRC)/%_test.c $(DEV_SRC)/utfconv_test.h $(DEV_SRC)/utfconv_dirs.h \
		$(KSFT_HDRS) $(UAPI_HDR) | $(VM_DIR)
	$(CC) $(DEV_CFLAGS) -o $@ $< $(DEV_LDFLAGS) $(DEV_LIBS_$*)

# io_uring through liburing (Debian's liburing-dev), linked statically.
DEV_LIBS_iter := -luring

$(VM_DIR)/utfconv: $(TOPDIR)/tools/utfconv.c $(UAPI_HDR) | $(VM_DIR)
	$(CC) -O2 -Wall -Wextra -std=gnu11 -I$(TOPDIR)/include/uapi -o $@ $< -static

# cli-test.sh runs the CLI with its stderr on a pty (the progress line).
$(VM_DIR)/ptyrun: $(DEV_SRC)/ptyrun.c | $(VM_DIR)
	$(CC) -O2 -Wall -Wextra -std=gnu11 -o $@ $< -static

$(VM_DIR)/%.sh: $(DEV_SRC)/%.sh | $(VM_DIR)
	cp $< $@
	chmod 0755 $@

$(VM_DATA)/corpus/%.utf8.txt: $(SHARED)/corpus/%.utf8.txt
	@mkdir -p $(dir $@)
	cp $< $@

$(VM_DATA)/corpus/%.utf16le: $(SHARED)/corpus/%.utf8.txt
	@mkdir -p $(dir $@)
	$(ICONV) -f UTF-8 -t UTF-16LE $< > $@.tmp && mv $@.tmp $@

$(VM_DATA)/corpus/%.utf16be: $(SHARED)/corpus/%.utf8.txt
	@mkdir -p $(dir $@)
	$(ICONV) -f UTF-8 -t UTF-16BE $< > $@.tmp && mv $@.tmp $@

$(VM_DATA)/corpus.list: $(VM_CORPUS)
	@mkdir -p $(dir $@)
	test -n "$(CORPUS_FILES)" || { echo "no corpus under $(SHARED)/corpus (set SHARED=)" >&2; exit 1; }
	printf '%s\n' $(CORPUS_FILES:.utf8.txt=) > $@

# Host checks of the CLI that need no device (usage, exit codes, help).
cli-check: $(VM_DIR)/utfconv
	UTFCONV_DEVICE=/nonexistent/utfconv sh $(DEV_SRC)/cli-test.sh $(VM_DIR)/utfconv

check:: cli-check

.PHONY: dev vm vm-bench cli-check check
