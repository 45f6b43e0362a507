/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv userspace compat: what kbuild's -include linux/kconfig.h and
 * the kernel's configuration give the codec. The host builds pass
 * "-include linux/kconfig.h" as kbuild does.
 */
#ifndef _UTFCONV_COMPAT_LINUX_KCONFIG_H
#define _UTFCONV_COMPAT_LINUX_KCONFIG_H

/*
 * The SIMD paths where the host is x86-64, as the kernel's CONFIG_X86_64
 * and the hidden symbols of kmod/Kbuild's instruction sets give them: all
 * of them (the AVX2 and AVX-512 files carry their target attributes, so a
 * compiler that builds the host tests takes them).
 */
#ifdef __x86_64__
#define CONFIG_X86_64 1
#define CONFIG_UTFCONV_X86 1
#define CONFIG_UTFCONV_SSE2 1
#define CONFIG_UTFCONV_AVX2 1
#define CONFIG_UTFCONV_AVX512 1
#endif

/*
 * The host tests run each codec path through the library's KUnit-only
 * path entries (kmod/utfconv_codec.h);
 * -DUTFCONV_COMPAT_NO_KUNIT builds the codec as kernels without KUnit do.
 */
#ifndef UTFCONV_COMPAT_NO_KUNIT
#define CONFIG_KUNIT 1
#endif

#define IS_ENABLED(option)	utfconv_compat_is_enabled(option)
#define utfconv_compat_is_enabled(option) \
	utfconv_compat_defined(utfconv_compat_probe_##option)
#define utfconv_compat_probe_1	0,
#define utfconv_compat_defined(x)	utfconv_compat_second(x 1, 0, 0)
#define utfconv_compat_second(a, b, ...)	b

#endif
