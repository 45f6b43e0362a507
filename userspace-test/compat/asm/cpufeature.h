/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: CPU features from the compiler's runtime. */
#ifndef _UTFCONV_COMPAT_ASM_CPUFEATURE_H
#define _UTFCONV_COMPAT_ASM_CPUFEATURE_H

#define X86_FEATURE_SSSE3	__builtin_cpu_supports("ssse3")
#define X86_FEATURE_AVX2	__builtin_cpu_supports("avx2")
#define X86_FEATURE_BMI2	__builtin_cpu_supports("bmi2")
#define boot_cpu_has(f)		(f)

#endif
