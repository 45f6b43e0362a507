# SPDX-License-Identifier: GPL-2.0
#
# Hardening tests of /dev/utfconv for the debug-kernel VM
# (scripts/vm.sh test debug): stress against the userspace build of the
# codec, fail-nth fault injection sweeps, info-leak checks, syscall fuzz
# and per-open memory. Included by userspace-test/Makefile; `make vm`
# puts hardening/utfconv_hardening and hardening/run.sh into build/vm/.
#
#   make -C userspace-test hardening   only the program

HARD_SRC := $(CURDIR)/hardening
HARD_BUILD := $(BUILD)/hardening
HARD_VM := $(BUILD)/vm/hardening
HARD_CC ?= $(CC)
# The test is compiled against the UAPI header; the reference codec
# (codec.mk) and the test-text encoder (kunit/utfconv_encode.h) through
# compat/, as in host.mk, the codec into one relocatable object.
HARD_CFLAGS := -O2 -g -Wall -Wextra -Wno-sign-compare -Wno-unused-result \
	-std=gnu11 -pthread
include $(CURDIR)/codec.mk
HARD_REF_INC := $(CODEC_INC) -I$(TOPDIR)/kunit

hardening: $(HARD_VM)/utfconv_hardening $(HARD_VM)/run.sh

vm: $(HARD_VM)/utfconv_hardening $(HARD_VM)/run.sh

$(HARD_BUILD)/ref.o: $(HARD_SRC)/ref.c $(HARD_SRC)/ref.h \
		$(TOPDIR)/kunit/utfconv_encode.h \
		$(TOPDIR)/kunit/utfconv_test_pairs.h \
		$(TOPDIR)/include/linux/utfconv.h
	@mkdir -p $(HARD_BUILD)
	$(HARD_CC) -O2 -g -std=gnu11 -Wall -Wno-unused-parameter $(HARD_REF_INC) -c -o $@ $<

$(HARD_BUILD)/codec.o: $(CODEC_DEPS)
	@mkdir -p $(HARD_BUILD)
	$(HARD_CC) -O2 -g -std=gnu11 -w $(HARD_REF_INC) -r -nostdlib -o $@ \
		$(call codec_srcs,$(HARD_CC))

$(HARD_VM)/utfconv_hardening: $(HARD_SRC)/hardening.c $(HARD_SRC)/ref.h \
		$(HARD_BUILD)/ref.o $(HARD_BUILD)/codec.o \
		$(TOPDIR)/include/uapi/linux/utfconv.h
	@mkdir -p $(HARD_VM)
	$(HARD_CC) $(HARD_CFLAGS) -I$(TOPDIR)/include/uapi -o $@ $< \
		$(HARD_BUILD)/ref.o $(HARD_BUILD)/codec.o -static -pthread

$(HARD_VM)/run.sh: $(HARD_SRC)/run.sh
	@mkdir -p $(HARD_VM)
	cp $< $@
	chmod 0755 $@

.PHONY: hardening
