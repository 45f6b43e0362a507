# SPDX-License-Identifier: GPL-2.0
#
# The codec built for userspace (host tests, fuzzer, hardening reference,
# benchmarks): kmod/*.c compiled in place through compat/ as kbuild
# compiles them, each file its own translation unit with linux/kconfig.h
# included first. Needs TOPDIR.

CODEC_COMPAT := $(TOPDIR)/userspace-test/compat
CODEC_INC := -include $(CODEC_COMPAT)/linux/kconfig.h -I$(CODEC_COMPAT) \
	-I$(TOPDIR)/include
# (kbuild's kmod/*.mod.c are not sources: a `make` must not rebuild these)
CODEC_DEPS := $(filter-out %.mod.c,$(wildcard $(TOPDIR)/kmod/*.[ch] \
	$(CODEC_COMPAT)/*/*.h $(CODEC_COMPAT)/*/*/*.h)) \
	$(TOPDIR)/include/linux/utfconv.h \
	$(TOPDIR)/include/uapi/linux/utfconv.h

# $(call codec_srcs,CC): the codec's sources for CC's target; the x86-64
# paths only where it is x86-64, all of them (compat/linux/kconfig.h sets
# the CONFIG_UTFCONV_* symbols of kmod/Kbuild there). The AVX2 and
# AVX-512 files' functions carry their target attribute themselves, so
# that one command line builds them all.
codec_srcs = $(addprefix $(TOPDIR)/kmod/,utfconv_codec.c utfconv_utf8.c \
	utfconv_utf16.c utfconv_oneshot.c) \
	$(if $(filter x86_64-%,$(shell $(1) -dumpmachine)), \
		$(addprefix $(TOPDIR)/kmod/,utfconv_x86.c utfconv_simd_tables.c \
			utfconv_sse2.c utfconv_avx2_utf8.c utfconv_avx2_utf16.c \
			utfconv_avx512_utf8.c utfconv_avx512_utf16.c))
