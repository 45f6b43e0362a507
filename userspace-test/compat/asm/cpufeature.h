/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: CPU features from the compiler's runtime. */
#ifndef _UTFCONV_COMPAT_ASM_CPUFEATURE_H
#define _UTFCONV_COMPAT_ASM_CPUFEATURE_H

#include <stdlib.h>

/*
 * UTFCONV_COMPAT_NO_AVX512=1 hides AVX-512 from the codec, so that the
 * tests can show what a CPU without it runs (and prints).
 */
#define compat_avx512(f) \
	(!getenv("UTFCONV_COMPAT_NO_AVX512") && __builtin_cpu_supports(f))

#define X86_FEATURE_SSSE3	__builtin_cpu_supports("ssse3")
#define X86_FEATURE_POPCNT	__builtin_cpu_supports("popcnt")
#define X86_FEATURE_BMI1	__builtin_cpu_supports("bmi")
#define X86_FEATURE_AVX512F	compat_avx512("avx512f")
#define X86_FEATURE_AVX512BW	compat_avx512("avx512bw")
#define X86_FEATURE_AVX512VL	compat_avx512("avx512vl")
#define X86_FEATURE_AVX512VBMI	compat_avx512("avx512vbmi")
#define X86_FEATURE_AVX512_VBMI2	compat_avx512("avx512vbmi2")
#define X86_FEATURE_AVX2	__builtin_cpu_supports("avx2")
#define X86_FEATURE_BMI2	__builtin_cpu_supports("bmi2")
#define boot_cpu_has(f)		(f)

#endif
