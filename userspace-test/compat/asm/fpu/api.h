/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv userspace compat: no FPU state to save around vector code. The
 * sections are counted, so that the host tests can check how the codec
 * cuts its input into them (the bound on time with preemption off).
 */
#ifndef _UTFCONV_COMPAT_ASM_FPU_API_H
#define _UTFCONV_COMPAT_ASM_FPU_API_H

/* one counter for the whole program, whichever file includes this */
__attribute__((weak)) unsigned long utfconv_compat_fpu_sections;
#define kernel_fpu_begin()	do { utfconv_compat_fpu_sections++; } while (0)
#define kernel_fpu_end()	do { } while (0)

/* __builtin_cpu_supports() checks what the OS saves, too */
#define XFEATURE_MASK_SSE	(1 << 1)
#define XFEATURE_MASK_YMM	(1 << 2)
#define XFEATURE_MASK_AVX512	(7 << 5)
#define cpu_has_xfeatures(mask, name)	1

#endif
