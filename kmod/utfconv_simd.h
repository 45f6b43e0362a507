/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec: the SIMD paths (utfconv_simd_x86.c) and the knob that
 * chooses between them and the scalar paths.
 */
#ifndef _UTFCONV_SIMD_H
#define _UTFCONV_SIMD_H

#include <linux/types.h>

/* utfconv_simd_mode, the module parameter "simd" */
#define UTFCONV_SIMD_OFF	0	/* scalar paths only */
#define UTFCONV_SIMD_AUTO	1	/* SIMD for large buffers (default) */
#define UTFCONV_SIMD_ALWAYS	2	/* SIMD whatever the size (tests) */
#define UTFCONV_SIMD_SSE2	3	/* as 2, SSE2 only: no SSSE3 (tests) */
#define UTFCONV_SIMD_SSSE3	4	/* as 2, no AVX2 (tests) */

/* What utfconv_simd_usable() allows: the instruction sets to use */
#define UTFCONV_LEVEL_SSE2	1
#define UTFCONV_LEVEL_SSSE3	2
#define UTFCONV_LEVEL_AVX2	3

extern int utfconv_simd_mode;

#if defined(CONFIG_X86_64) || (!defined(__KERNEL__) && defined(__x86_64__))
#define UTFCONV_HAVE_SIMD	1

/*
 * Input per FPU section: at most this many bytes are converted between one
 * kernel_fpu_begin() and its kernel_fpu_end(), to bound the time with
 * preemption off (a few microseconds).
 */
#define UTFCONV_SIMD_CHUNK	4096

/* Below this many bytes of input or output room, SIMD_AUTO stays scalar. */
#define UTFCONV_SIMD_MIN	512

u64 utfconv_sse2_from_utf8(const u8 **sp, const u8 *se, u8 **dp, u8 *de,
			   bool be, unsigned int level);
u64 utfconv_sse2_from_utf16(const u8 **sp, const u8 *se, u8 **dp, u8 *de,
			    bool le, unsigned int level);
#else
#define UTFCONV_HAVE_SIMD	0
#endif

#endif /* _UTFCONV_SIMD_H */
