/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec: what the AVX-512 paths for x86-64, from UTF-8
 * (utfconv_avx512_utf8.c), from UTF-16 (utfconv_avx512_utf16.c) and the
 * scan of file names for a map (utfconv_fsname_avx512.c), share: the target,
 * the 512-bit vector types and the primitives on them.
 *
 * The files are built with the kernel's FPU flags and the AVX-512 ones
 * (kmod/Kbuild), their functions marked with the same target besides, so
 * that the host build of the codec compiles them too: everything in them
 * runs between kernel_fpu_begin() and kernel_fpu_end(), which the codec
 * puts around each call, only where may_use_simd() allows and only on
 * CPUs with every instruction used (AVX-512 F, BW, VL, VBMI, VBMI2, BMI2
 * and POPCNT) whose kernel saves the ZMM registers (utfconv_x86.c).
 * The kernel has no <immintrin.h> and GCC and clang name the AVX-512
 * builtins differently: the instructions that work on mask registers are
 * inline assembly, the rest GCC/clang vector extensions.
 *
 * As the other SIMD paths (utfconv_sse2.c, utfconv_avx2_utf8.c,
 * utfconv_avx2_utf16.c), these convert only whole, well-formed characters
 * while the input and output left cover a block's worst case, and stop at
 * anything else, which the codec's careful path then handles: the result
 * is byte for byte the scalar path's. They may write scratch bytes past
 * the output they report, never past the end of the output buffer.
 */
#ifndef _UTFCONV_AVX512_H
#define _UTFCONV_AVX512_H

#include <linux/bitops.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "utfconv_block.h"
#include "utfconv_simd.h"

#define UTFCONV_AVX512 __attribute__((__target__( \
	"avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt")))

/*
 * sparse reads vector types as their element types (utfconv_sse.h)
 * and has none of the builtins: for it, and only for it, BMI2's PDEP is
 * a value of the right type.
 */
#ifdef __CHECKER__
#define __builtin_ia32_pdep_si(a, b)	((void)sizeof(b), (a))
#define __builtin_ia32_pdep_di(a, b)	((void)sizeof(b), (a))
#endif

typedef u8 utfconv_u8x64 __attribute__((__vector_size__(64)));
typedef u16 utfconv_u16x32 __attribute__((__vector_size__(64)));
typedef u32 utfconv_u32x16 __attribute__((__vector_size__(64)));

/* @c in every byte, in every 16-bit lane */
static __always_inline UTFCONV_AVX512
utfconv_u8x64 utfconv_z_set8(u8 c)
{
	utfconv_u8x64 v = { 0 };

	return v + c;
}

static __always_inline UTFCONV_AVX512
utfconv_u16x32 utfconv_z_set16(u16 c)
{
	utfconv_u16x32 v = { 0 };

	return v + c;
}

static __always_inline UTFCONV_AVX512
utfconv_u8x64 utfconv_z_load(const u8 *s)
{
	utfconv_u8x64 v;

	__builtin_memcpy(&v, s, sizeof(v));
	return v;
}

static __always_inline UTFCONV_AVX512
void utfconv_z_store(u8 *d, utfconv_u8x64 v)
{
	__builtin_memcpy(d, &v, sizeof(v));
}

/* The 32 bytes at @s zero-extended to 16-bit lanes (vpmovzxbw). */
static __always_inline UTFCONV_AVX512
utfconv_u16x32 utfconv_z_zext8(const u8 *s)
{
	utfconv_u16x32 r;

	asm("vpmovzxbw %1, %0" : "=v" (r) : "m" (*(const u8 (*)[32])s));
	return r;
}

/* The 16 units at @s zero-extended to 32-bit lanes (vpmovzxwd). */
static __always_inline UTFCONV_AVX512
utfconv_u32x16 utfconv_z_zext16(const u8 *s)
{
	utfconv_u32x16 r;

	asm("vpmovzxwd %1, %0" : "=v" (r) : "m" (*(const u8 (*)[32])s));
	return r;
}

/* The top bit of each byte of @v, byte 0 in bit 0 (vpmovb2m). */
static __always_inline UTFCONV_AVX512
u64 utfconv_z_msb(utfconv_u8x64 v)
{
	u64 m;

	asm("vpmovb2m %1, %0" : "=k" (m) : "v" (v));
	return m;
}

/*
 * The bytes of @v in relation @p (0: equal, 1: less) to @c's, as
 * signed if @sgn (vpcmpb), else as unsigned (vpcmpub).
 */
static __always_inline UTFCONV_AVX512
u64 utfconv_z_cmp8(utfconv_u8x64 v, utfconv_u8x64 c, int p, bool sgn)
{
	u64 m;

	if (sgn)
		asm("vpcmpb %3, %2, %1, %0" : "=k" (m)
		    : "v" (v), "v" (c), "i" (p));
	else
		asm("vpcmpub %3, %2, %1, %0" : "=k" (m)
		    : "v" (v), "v" (c), "i" (p));
	return m;
}

/* The bytes of @v below @c, as unsigned. */
static __always_inline UTFCONV_AVX512
u64 utfconv_z_lt(utfconv_u8x64 v, utfconv_u8x64 c)
{
	return utfconv_z_cmp8(v, c, 1, false);
}

/* The bytes of @v and @c with a common bit (vptestmb). */
static __always_inline UTFCONV_AVX512
u64 utfconv_z_test8(utfconv_u8x64 v, utfconv_u8x64 c)
{
	u64 m;

	asm("vptestmb %2, %1, %0" : "=k" (m) : "v" (v), "v" (c));
	return m;
}

/* The 16-bit lanes of @v and @c with a common bit (vptestmw). */
static __always_inline UTFCONV_AVX512
u32 utfconv_z_test16(utfconv_u16x32 v, utfconv_u16x32 c)
{
	u32 m;

	asm("vptestmw %2, %1, %0" : "=k" (m) : "v" (v), "v" (c));
	return m;
}

/* The bytes of @t picked by the low six bits of @v's, where @m (vpermb). */
static __always_inline UTFCONV_AVX512
utfconv_u8x64 utfconv_z_permb(utfconv_u8x64 t, utfconv_u8x64 v, u64 m)
{
	utfconv_u8x64 r;

	asm("vpermb %2, %1, %0%{%3%}%{z%}" : "=v" (r)
	    : "v" (v), "v" (t), "Yk" (m));
	return r;
}

/* @t1's bytes and @t2's (from 64 on) picked by @idx (vpermt2b). */
static __always_inline UTFCONV_AVX512
utfconv_u8x64 utfconv_z_permt2b(utfconv_u8x64 t1, utfconv_u8x64 idx,
				utfconv_u8x64 t2)
{
	asm("vpermt2b %2, %1, %0" : "+v" (t1) : "v" (idx), "v" (t2));
	return t1;
}

/*
 * @t1's bytes and @t2's (from 64 on) picked by @idx where @m, zeros
 * elsewhere (vpermt2b, zero-masking).
 */
static __always_inline UTFCONV_AVX512
utfconv_u8x64 utfconv_z_permt2b_z(utfconv_u8x64 t1, utfconv_u8x64 idx,
				  utfconv_u8x64 t2, u64 m)
{
	asm("vpermt2b %2, %1, %0%{%3%}%{z%}" : "+v" (t1)
	    : "v" (idx), "v" (t2), "Yk" (m));
	return t1;
}

/*
 * @v at @d, which is 32-byte aligned, by two 256-bit stores (vmovdqa,
 * vextracti64x4).
 */
static __always_inline UTFCONV_AVX512
void utfconv_z_store_halves(u8 *d, utfconv_u8x64 v)
{
	asm volatile("vmovdqa %t1, %0" : "=m" (*(u8 (*)[32])d) : "v" (v));
	asm volatile("vextracti64x4 $1, %1, %0"
		     : "=m" (*(u8 (*)[32])(d + 32)) : "v" (v));
}

/* The 16-bit lanes of @b where @m, of @a elsewhere (vpblendmw). */
static __always_inline UTFCONV_AVX512
utfconv_u16x32 utfconv_z_blend16(utfconv_u16x32 a, utfconv_u16x32 b, u32 m)
{
	utfconv_u16x32 r;

	asm("vpblendmw %2, %1, %0%{%3%}" : "=v" (r)
	    : "v" (a), "v" (b), "Yk" (m));
	return r;
}

/* @a's 16-bit lanes, those of @m replaced by @b - @c (vpsubw, merging). */
static __always_inline UTFCONV_AVX512
utfconv_u16x32 utfconv_z_msub16(utfconv_u16x32 a, u32 m, utfconv_u16x32 b,
				utfconv_u16x32 c)
{
	asm("vpsubw %2, %1, %0%{%3%}" : "+v" (a) : "v" (b), "v" (c), "Yk" (m));
	return a;
}

/* The 16-bit lanes of @v where @m, one after the other (vpcompressw). */
static __always_inline UTFCONV_AVX512
utfconv_u16x32 utfconv_z_compress16(utfconv_u16x32 v, u32 m)
{
	utfconv_u16x32 r;

	asm("vpcompressw %1, %0%{%2%}%{z%}" : "=v" (r) : "v" (v), "Yk" (m));
	return r;
}

/* The index of the highest set bit of @x, which is not 0. */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_last(u64 x)
{
	return 63 - __builtin_clzll(x);
}

/* The 32 units at @s, UTF-16LE if @le, else UTF-16BE. */
static __always_inline UTFCONV_AVX512
utfconv_u16x32 utfconv_z_units(const u8 *s, bool le)
{
	utfconv_u16x32 a;

	__builtin_memcpy(&a, s, sizeof(a));
	return le ? a : a << 8 | a >> 8;
}

/* The 32-bit lanes of @b where @m, of @a elsewhere (vpblendmd). */
static __always_inline UTFCONV_AVX512
utfconv_u32x16 utfconv_z_blend32(utfconv_u32x16 a, utfconv_u32x16 b, u32 m)
{
	utfconv_u32x16 r;

	asm("vpblendmd %2, %1, %0%{%3%}" : "=v" (r)
	    : "v" (a), "v" (b), "Yk" (m));
	return r;
}

/*
 * The first @n (at most 32) bytes at @s, zeros after them: a masked load
 * (vmovdqu8), which reads no byte past them and takes no fault there.
 */
static __always_inline UTFCONV_AVX512
utfconv_u8x64 utfconv_z_load32(const u8 *s, unsigned int n)
{
	u32 m = n ? ~0U >> (32 - n) : 0;
	utfconv_u8x64 r;

	asm("vmovdqu8 %1, %t0%{%2%}%{z%}" : "=v" (r)
	    : "m" (*(const u8 (*)[32])s), "Yk" (m));
	return r;
}

/* Bytes 0-31 of @v zero-extended to 16-bit lanes (vpmovzxbw). */
static __always_inline UTFCONV_AVX512
utfconv_u16x32 utfconv_z_widen(utfconv_u8x64 v)
{
	utfconv_u16x32 r;

	asm("vpmovzxbw %t1, %0" : "=v" (r) : "v" (v));
	return r;
}

/* The first @n bytes of @v at @d, nothing after them. */
static __always_inline UTFCONV_AVX512
void utfconv_z_store8(u8 *d, utfconv_u8x64 v, unsigned int n)
{
	u64 m = n ? ~0ULL >> (64 - n) : 0;

	asm volatile("vmovdqu8 %1, %0%{%2%}" : "=m" (*(u8 (*)[64])d)
		     : "v" (v), "Yk" (m));
}

#endif /* _UTFCONV_AVX512_H */
