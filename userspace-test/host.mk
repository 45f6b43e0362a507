# SPDX-License-Identifier: GPL-2.0
#
# Host-native tests of the utfconv codec. Included by
# userspace-test/Makefile (which sets SHARED, TOPDIR and BUILD).
#
#   make -C userspace-test host-check   vector table, chunking, capacity,
#       sweeps, iconv and Python differentials, all under ASan+UBSan;
#       ends with "N passed, N failed"
#   make -C userspace-test host-sweep   the exhaustive UTF-16 pair sweep
#       in both byte orders (slow)
#   make -C userspace-test host-guard   the guard-page test of every codec
#       path with GUARD_LONG_CASES cases (host-check runs GUARD_CASES)
#   make -C userspace-test host-names-diff  the scalar path's steps for
#       names and utfconv_buf_to_nul() against the reference model
#   make -C userspace-test fuzz         libFuzzer target for FUZZ_SECONDS
#   make -C userspace-test fuzz-long    the same for FUZZ_LONG_SECONDS (600)
#
# The codec's sources (codec.mk) are compiled in place through compat/,
# never copied.

HOST_CC ?= gcc
FUZZ_CC ?= clang
PYTHON ?= python3
FUZZ_SECONDS ?= 60
PYDIFF_CASES ?= 20000
GUARD_CASES ?= 20000
GUARD_LONG_CASES ?= 2000000
NAMES_DIFF_CASES ?= 100000

HOST_SRC := $(CURDIR)/host
HOST_BUILD := $(BUILD)/host
include $(CURDIR)/codec.mk
HOST_CODEC := $(call codec_srcs,$(HOST_CC))
HOST_INC := $(CODEC_INC) -I$(TOPDIR)/kunit
# The KUnit suites' test units, linked into the programs that use them:
# the reference model into every one, the checks and the long runs into
# host_test and the fuzzer (each program provides what utfconv_expect.h
# asks of it).
TEST_REF := $(TOPDIR)/kunit/utfconv_ref.c
TEST_UNITS := $(TEST_REF) $(addprefix $(TOPDIR)/kunit/,utfconv_checks.c \
	utfconv_runs.c utfconv_edges.c utfconv_drive.c)
HOST_DEPS := $(CODEC_DEPS) $(VEC_KUNIT) $(wildcard $(TOPDIR)/kunit/*.h) \
	$(TEST_UNITS) $(wildcard $(HOST_SRC)/*.h)
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Wno-sign-compare \
	-Wno-unused-parameter -Wno-missing-field-initializers \
	-fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined $(HOST_INC)
FUZZ_CFLAGS := -O1 -g -Wall -Wno-unused-function \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	$(HOST_INC)

# The vector table of the KUnit suites and these tests, generated (never
# checked in) from the case files by scripts/gen_vectors.py; kunit.sh and
# vm.sh run the same command.
$(VEC_KUNIT): $(VEC_GEN) $(VEC_KUNIT_TSV)
	$(PYTHON) $(VEC_GEN) --kunit $@ $(VEC_KUNIT_TSV)

all:: $(HOST_BUILD)/host_test $(HOST_BUILD)/host_cli $(HOST_BUILD)/guard_test

# The same with plain char unsigned, as the kernel builds since 6.2
# (-funsigned-char; the x86 default, and 6.1, have it signed): GCC folds
# some vector builtins that take plain char vectors by the sign of char.
$(HOST_BUILD)/host_test-uchar: $(HOST_SRC)/host_test.c $(HOST_DEPS)
	@mkdir -p $(HOST_BUILD)
	$(HOST_CC) $(HOST_CFLAGS) -funsigned-char -o $@ $< $(TEST_UNITS) \
		$(HOST_CODEC)

$(HOST_BUILD)/host_test: $(HOST_SRC)/host_test.c $(HOST_DEPS)
	@mkdir -p $(HOST_BUILD)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $< $(TEST_UNITS) $(HOST_CODEC)

$(HOST_BUILD)/host_cli: $(HOST_SRC)/host_cli.c $(HOST_DEPS)
	@mkdir -p $(HOST_BUILD)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $< $(HOST_CODEC)

$(HOST_BUILD)/guard_test: $(HOST_SRC)/guard_test.c $(HOST_DEPS)
	@mkdir -p $(HOST_BUILD)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $< $(TEST_REF) $(HOST_CODEC)

$(HOST_BUILD)/fuzz_utfconv: $(HOST_SRC)/fuzz_utfconv.c $(HOST_DEPS)
	@mkdir -p $(HOST_BUILD)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(TEST_UNITS) \
		$(call codec_srcs,$(FUZZ_CC))

# Once per codec path, which host_test -s (host_cli: UTFCONV_SIMD) passes
# to the library's path entries (enum utfconv_path): the scalar
# paths only (0), then the SIMD paths whatever the size (2, with SSSE3
# and AVX2 where the CPU has them; a machine without SIMD paths, or
# without the instruction sets a path names, skips that run, saying so),
# then the parts with long inputs again with
# SSE2 only (3), without AVX2 (4) and on the scalar paths without the
# BMI2 steps (5; the run with 0 takes them where the CPU has BMI2) and
# without AVX-512 (6: the AVX2 paths, unchanged by it); the AVX-512 paths
# both ways (7) run every part but the sweeps. The SIMD runs leave out the
# exhaustive sweeps: their inputs (one character or pair, at most 8 bytes)
# are below the SIMD paths' minimum of 72 bytes, so every run would
# execute the same code. Then the parts with long inputs on the SIMD paths
# built with -funsigned-char, and the guard-page test, which runs every
# case on every codec path (0..7) itself.
#
# Each of these runs is a target of its own (HOST_CHECK_RUNS), so that
# host-check runs them side by side, HOST_JOBS at a time (the machine's
# CPUs; -O keeps each run's output together, -k runs all of them).
HOST_JOBS ?= $(shell nproc)
HOST_PATH_RUNS := $(foreach s,3 4 5 6,$(foreach p,runs random iconv,host-check-s$(s)-$(p)))
HOST_UCHAR_RUNS := host-check-uchar-runs host-check-uchar-random
HOST_CHECK_RUNS := host-check-s0 host-check-s2 host-check-s7 $(HOST_PATH_RUNS) \
	$(HOST_UCHAR_RUNS) host-check-guard host-check-bmi2 \
	host-be host-check-field-cases

host-check: $(HOST_BUILD)/host_test $(HOST_BUILD)/host_cli \
		$(HOST_BUILD)/guard_test $(HOST_BUILD)/host_test-uchar \
		$(HOST_BUILD)/host_test-s390x
	@$(MAKE) --no-print-directory -k -O -j$(HOST_JOBS) $(HOST_CHECK_RUNS)

# The tree's copy of the field cases (kunit/field-cases.tsv, what every
# vector table is built from) against ../shared's, when that is there: a
# case added there and not here would go untested.
FIELD_CASES := $(SHARED)/vectors/field-cases.tsv
host-check-field-cases:
	@if [ ! -f $(FIELD_CASES) ]; then \
		echo "host-check: field cases: no $(FIELD_CASES), the tree's copy alone"; \
	elif grep -v '^#' $(TOPDIR)/kunit/field-cases.tsv | \
			diff -u - $(FIELD_CASES); then \
		echo "host-check: field cases: kunit/field-cases.tsv has the rows of $(FIELD_CASES)"; \
	else \
		echo "host-check: FAIL: kunit/field-cases.tsv differs from $(FIELD_CASES) (diff above)"; \
		exit 1; \
	fi

host-check-s0:
	$(HOST_BUILD)/host_test -q -s 0 $(SHARED) \
		"UTFCONV_SIMD=0 $(PYTHON) $(HOST_SRC)/pydiff.py $(HOST_BUILD)/host_cli $(SHARED) $(PYDIFF_CASES)"

host-check-s2:
	$(HOST_BUILD)/host_test -q -s 2 -X sweep $(SHARED) \
		"UTFCONV_SIMD=2 $(PYTHON) $(HOST_SRC)/pydiff.py $(HOST_BUILD)/host_cli $(SHARED) $(PYDIFF_CASES)"

# The AVX-512 paths pinned both ways (-s 7), every part but the sweeps,
# with the Python differential; on a CPU without AVX-512 host_test says
# "skipped: no AVX-512 on this CPU" and runs nothing.
host-check-s7:
	$(HOST_BUILD)/host_test -q -s 7 -X sweep $(SHARED) \
		"UTFCONV_SIMD=7 $(PYTHON) $(HOST_SRC)/pydiff.py $(HOST_BUILD)/host_cli $(SHARED) $(PYDIFF_CASES)"

# host-check-bmi2: whether the module's init takes the BMI2 steps, on
# this CPU's BMI2 flag with the vendors and families of others (compat
# asm/processor.h): AMD's Excavator (21), Zen 1 and 2 (23), Hygon (24),
# Zen 3 (25), Zen 5 (26), Intel.
HOST_BMI2_CPUS := "AuthenticAMD 21" "AuthenticAMD 23" "HygonGenuine 24" \
	"AuthenticAMD 25" "AuthenticAMD 26" "GenuineIntel 6"
host-check-bmi2:
	@for c in $(HOST_BMI2_CPUS); do \
		echo "host-check: part bmi2 as $$c"; \
		UTFCONV_COMPAT_CPU="$$c" $(HOST_BUILD)/host_test -q -x bmi2 \
			$(SHARED) || exit 1; \
	done

# host-check-sS-PART: part PART with path S (3: SSE2 only, 4: no AVX2,
# 5: scalar without BMI2, 6: no AVX-512, the AVX2 paths where the CPU has
# them)
HOST_PATH_NAME = $(if $(filter 3-%,$*),SIMD paths SSE2 only (from UTF-16),$(if $(filter 4-%,$*),SIMD paths without AVX2,$(if $(filter 6-%,$*),SIMD paths without AVX-512,scalar paths without BMI2)))
$(HOST_PATH_RUNS): host-check-s%:
	@echo "host-check: part $(lastword $(subst -, ,$*)), $(HOST_PATH_NAME) (-s $(firstword $(subst -, ,$*)))"
	@$(HOST_BUILD)/host_test -q -s $(firstword $(subst -, ,$*)) \
		-x $(lastword $(subst -, ,$*)) $(SHARED)

$(HOST_UCHAR_RUNS): host-check-uchar-%:
	@echo "host-check: part $*, SIMD paths, char unsigned (-s 2)"
	@$(HOST_BUILD)/host_test-uchar -q -s 2 -x $* $(SHARED)

host-check-guard:
	$(HOST_BUILD)/guard_test -n $(GUARD_CASES)

host-guard: $(HOST_BUILD)/guard_test
	$(HOST_BUILD)/guard_test -n $(GUARD_LONG_CASES)

$(HOST_BUILD)/names_diff: $(HOST_SRC)/names_diff.c $(HOST_DEPS)
	@mkdir -p $(HOST_BUILD)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $< $(TEST_REF) $(HOST_CODEC)

# The scalar path's steps for names and utfconv_buf_to_nul() against the
# reference model, NAMES_DIFF_CASES texts, then the same on the SIMD paths.
host-names-diff: $(HOST_BUILD)/names_diff
	$(HOST_BUILD)/names_diff -n $(NAMES_DIFF_CASES) -p 0
	$(HOST_BUILD)/names_diff -n $(NAMES_DIFF_CASES) -p 2

# The same source on a big-endian machine: built for s390x and run under
# qemu-user. The parts that need no host library (glibc's iconv and
# Python are the little-endian run's); the exhaustive sweeps take minutes
# under emulation and run in host-sweep only.
BE_CC ?= s390x-linux-gnu-gcc
BE_RUN ?= qemu-s390x
BE_PARTS := vectors api random runs

$(HOST_BUILD)/host_test-s390x: $(HOST_SRC)/host_test.c $(HOST_DEPS)
	@mkdir -p $(HOST_BUILD)
	$(BE_CC) -std=gnu11 -O2 -static -Wall -Wextra -Wno-sign-compare \
		-Wno-unused-parameter -Wno-missing-field-initializers \
		$(HOST_INC) -o $@ $< $(TEST_UNITS) $(call codec_srcs,$(BE_CC))
	@# the codec as a kernel without KUnit and without BMI2 builds it
	for f in $(call codec_srcs,$(BE_CC)); do \
		$(BE_CC) -std=gnu11 -O2 -c -o /dev/null -Wall -Werror \
			-DUTFCONV_COMPAT_NO_KUNIT $(HOST_INC) $$f || exit 1; \
	done

host-be: $(HOST_BUILD)/host_test-s390x
	@for p in $(BE_PARTS); do \
		echo "host-be: s390x (big-endian) part $$p"; \
		$(BE_RUN) $(HOST_BUILD)/host_test-s390x -q -x $$p $(SHARED) || exit 1; \
	done

host-sweep: $(HOST_BUILD)/host_test
	$(HOST_BUILD)/host_test -f -x sweep $(SHARED)

# The fuzzer's corpus is kept in build/host/fuzz-corpus across runs; the
# checked-in seeds (host/fuzz-seeds/, written by host/fuzz_seeds.py from
# the field cases and edge cases) are read as a second corpus.
# $(call fuzz_run,NAME,SECONDS): run for SECONDS, log in NAME.log.
FUZZ_LONG_SECONDS ?= 600
FUZZ_SEEDS := $(HOST_SRC)/fuzz-seeds
define fuzz_run
	@mkdir -p $(HOST_BUILD)/fuzz-corpus
	cd $(HOST_BUILD) && { ./fuzz_utfconv -max_total_time=$(2) \
		-print_final_stats=1 fuzz-corpus $(FUZZ_SEEDS) >$(1).log 2>&1; rc=$$?; \
		grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|==[0-9]+==|SUMMARY|Done |fuzz_utfconv: )' $(1).log; \
		echo "$(1): $$(sed -n 's/^stat::number_of_executed_units: *//p' $(1).log) execs in $(2) s, exit $$rc (log $(HOST_BUILD)/$(1).log)"; \
		exit $$rc; }
endef

fuzz: $(HOST_BUILD)/fuzz_utfconv
	$(call fuzz_run,fuzz,$(FUZZ_SECONDS))

fuzz-long: $(HOST_BUILD)/fuzz_utfconv
	$(call fuzz_run,fuzz-long,$(FUZZ_LONG_SECONDS))

.PHONY: host-check $(HOST_CHECK_RUNS) host-sweep host-guard host-names-diff fuzz fuzz-long
