/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv userspace compat: CPU features from the compiler's runtime. The
 * kernel's synthetic flags of AMD's Zen 1 and Zen 2 are its CPU models.
 */
#ifndef _UTFCONV_COMPAT_ASM_CPUFEATURE_H
#define _UTFCONV_COMPAT_ASM_CPUFEATURE_H

#define X86_FEATURE_SSSE3	__builtin_cpu_supports("ssse3")
#define X86_FEATURE_AVX2	__builtin_cpu_supports("avx2")
#define X86_FEATURE_BMI2	__builtin_cpu_supports("bmi2")
#define X86_FEATURE_ZEN1	__builtin_cpu_is("znver1")
#define X86_FEATURE_ZEN2	__builtin_cpu_is("znver2")
#define boot_cpu_has(f)		(f)

#endif
