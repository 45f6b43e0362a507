/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec: what the AVX2 paths for x86-64, from UTF-8
 * (utfconv_avx2_utf8.c) and from UTF-16 (utfconv_avx2_utf16.c), share:
 * the target, the 256-bit vector types, the constants and the shuffles.
 *
 * Both files are built with the kernel's FPU flags and -mavx2
 * (kmod/Kbuild), their functions marked with the same target besides, so
 * that the host build of the codec, one command line for every file,
 * compiles them too: everything in them runs between kernel_fpu_begin()
 * and kernel_fpu_end(), which the codec puts around each call
 * (utfconv_x86.h), only where may_use_simd() allows and only on CPUs
 * with AVX2 whose kernel saves the YMM registers (utfconv_x86.c).
 *
 * As the SSE2 and SSSE3 paths (utfconv_sse2.c), these convert only whole,
 * well-formed characters while the input and output left cover a block's
 * worst case, and stop at anything else, which the codec's careful path
 * then handles: the result is byte for byte the scalar path's. They may
 * write scratch bytes past the output they report, never past the end of
 * the output buffer.
 *
 * Each step takes 32 bytes of UTF-8 or two vectors of 16 units of UTF-16,
 * each by its own kind (ASCII: 64 bytes or 32 units and more) in 256-bit
 * vectors, the ways the SSSE3 paths do, per 128-bit half where pshufb is
 * involved, runs of four-byte sequences and of surrogate pairs included;
 * only other four-byte sequences and surrogates go through the SSSE3
 * steps (utfconv_ssse3_from_utf8(), utfconv_ssse3_from_utf16()).
 */
#ifndef _UTFCONV_AVX2_H
#define _UTFCONV_AVX2_H

#include <linux/minmax.h>
#include <linux/types.h>

#include "utfconv_block.h"
#include "utfconv_simd.h"
#include "utfconv_simd_tables.h"
#include "utfconv_sse.h"

/*
 * sparse reads vector types as their element types (utfconv_sse.h) and
 * has none of the builtins: for it, and only for it, the 256-bit ones
 * are values of the right type.
 */
#ifdef __CHECKER__
#define __builtin_ia32_pmovmskb256(v)		((int)(v))
#define __builtin_ia32_pmovzxbw256(v)		((int)(v))
#define __builtin_ia32_ptestz256(a, b)		((void)(b), (int)(a))
#define __builtin_ia32_packuswb256(a, b)	((void)(b), (a))
#define __builtin_ia32_packsswb256(a, b)	((void)(b), (a))
#define __builtin_ia32_pshufb256(a, b)		((void)(b), (a))
#endif

/* the target of every function here (see above) */
#define UTFCONV_AVX2	__attribute__((__target__("avx2")))

typedef u8 utfconv_u8x32 __attribute__((__vector_size__(32)));
typedef u32 utfconv_u32x8 __attribute__((__vector_size__(32)));
typedef u16 utfconv_u16x16 __attribute__((__vector_size__(32)));
typedef s16 utfconv_s16x16 __attribute__((__vector_size__(32)));
typedef u64 utfconv_u64x4 __attribute__((__vector_size__(32)));
typedef s64 utfconv_s64x4 __attribute__((__vector_size__(32)));
/* a constant of the AVX2 steps: the value repeated in each lane */
union utfconv_k16 {
	u16 lane[16];
	utfconv_u16x16 v;
};

union utfconv_k8 {
	u8 lane[32];
	utfconv_u8x32 v;
};

/*
 * Constants of the AVX2 steps, read from memory through UTFCONV_K():
 * GCC builds a splat constant from a general register (mov, vmovd and a
 * vpbroadcastw on the shuffle port) at every use in a loop short of
 * vector registers; read through a pointer it cannot follow, each is a
 * memory operand instead, which costs a load. The common steps from
 * UTF-16 read theirs once per call (struct utfconv_avx2_kv).
 */
struct utfconv_avx2_k {
	union utfconv_k16 x7f, x3f, x7ff, xf800, xd800, xff80, x80c0, x80e0,
			  x3fff, x8000, x3f00, x4000, x1f, x0f, xf000;
	union utfconv_k8 b3f, b80, b9f, ba0, bc0, bc2, bdf, be0, bed, bf0;
};

/* defined in utfconv_avx2_utf8.c, read by both files */
extern const struct utfconv_avx2_k utfconv_avx2_k;

#ifdef __CHECKER__
#define UTFCONV_K(name)	(utfconv_avx2_k.name.v)
#else
#define UTFCONV_K(name) ({						\
	const struct utfconv_avx2_k *k_ = &utfconv_avx2_k;		\
									\
	asm("" : "+r" (k_));						\
	(*k_).name.v;							\
})
#endif
/* the byte builtins take vectors of plain char */
#define UTFCONV_C8X32	char __attribute__((__vector_size__(32)))
#define UTFCONV_C8X16	char __attribute__((__vector_size__(16)))

static __always_inline UTFCONV_AVX2 utfconv_u16x16
utfconv_load16x16(const u8 *s, bool le)
{
	utfconv_u16x16 v;

	__builtin_memcpy(&v, s, sizeof(v));
	return le ? v : v << 8 | v >> 8;
}

/* The top bit of each byte, byte 0 in bit 0. */
static __always_inline UTFCONV_AVX2 unsigned int
utfconv_movemask32(utfconv_u16x16 v)
{
	return __builtin_ia32_pmovmskb256((UTFCONV_C8X32)v);
}

/*
 * One bit per unit of a 0/0xFFFF mask: units 0-7 in bits 0-7, units 8-15
 * in bits 16-23.
 */
static __always_inline UTFCONV_AVX2 unsigned int
utfconv_unitmask(utfconv_u16x16 m)
{
	const utfconv_s16x16 zero = { 0 };

	return utfconv_movemask32((utfconv_u16x16)
		__builtin_ia32_packsswb256((utfconv_s16x16)m, zero));
}

/* Per 128-bit half, the bytes of @v picked by @m (vpshufb). */
static __always_inline UTFCONV_AVX2 utfconv_u8x32
utfconv_pshufb32(utfconv_u8x32 v, utfconv_u8x32 m)
{
	return (utfconv_u8x32)__builtin_ia32_pshufb256((UTFCONV_C8X32)v,
						       (UTFCONV_C8X32)m);
}

/* The 16-byte rows @lo and @hi as one 256-bit vector. */
static __always_inline UTFCONV_AVX2 utfconv_u8x32
utfconv_rows(const u8 *lo, const u8 *hi)
{
	utfconv_u8x16 a = utfconv_load(lo), b = utfconv_load(hi);

	return __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
				       11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
				       21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
				       31);
}

static __always_inline UTFCONV_AVX2 void utfconv_store_lo(u8 *d,
							  utfconv_u8x32 v)
{
	__builtin_memcpy(d, &v, 16);
}

static __always_inline UTFCONV_AVX2 void utfconv_store_hi(u8 *d,
							  utfconv_u8x32 v)
{
	__builtin_memcpy(d, (u8 *)&v + 16, 16);
}

#endif /* _UTFCONV_AVX2_H */
