// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: AVX2 paths for x86-64
 *
 * Built with the kernel's FPU flags and -mavx2 (kmod/Kbuild), its
 * functions marked with the same target besides, so that the host build
 * of the codec, one command line for every file, compiles them too:
 * everything in this file runs between kernel_fpu_begin() and
 * kernel_fpu_end(), which the codec puts around each call
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
 *
 * UTF-16 to UTF-8: each 128-bit half of a 256-bit vector does what one
 * SSSE3 vector does (pshufb stays within its half), for each vector of 16
 * units: ASCII, all below 0x800, all three bytes long, or any mix of one
 * to three bytes (every byte a unit may need worked out in two vectors,
 * the ones of each unit's form picked by the shuffle); runs of 32 ASCII
 * units and more loop on their own. Each trip takes two vectors, each by
 * its own kind, which keeps text that changes between ASCII and a script
 * every few words from paying for a kind a vector does not hold.
 * Vectors with surrogates take a step for surrogate pairs, or the SSSE3
 * steps a few vectors at a time.
 */

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

static const struct utfconv_avx2_k utfconv_avx2_k = {
	.x7f.lane = { [0 ... 15] = 0x7F },
	.x3f.lane = { [0 ... 15] = 0x3F },
	.x7ff.lane = { [0 ... 15] = 0x7FF },
	.xf800.lane = { [0 ... 15] = 0xF800 },
	.xd800.lane = { [0 ... 15] = 0xD800 },
	.xff80.lane = { [0 ... 15] = 0xFF80 },
	.x80c0.lane = { [0 ... 15] = 0x80C0 },
	.x80e0.lane = { [0 ... 15] = 0x80E0 },
	.x3fff.lane = { [0 ... 15] = 0x3FFF },
	.x8000.lane = { [0 ... 15] = 0x8000 },
	.x3f00.lane = { [0 ... 15] = 0x3F00 },
	.x4000.lane = { [0 ... 15] = 0x4000 },
	.x1f.lane = { [0 ... 15] = 0x1F },
	.x0f.lane = { [0 ... 15] = 0x0F },
	.xf000.lane = { [0 ... 15] = 0xF000 },
	.b3f.lane = { [0 ... 31] = 0x3F },
	.b80.lane = { [0 ... 31] = 0x80 },
	.b9f.lane = { [0 ... 31] = 0x9F },
	.ba0.lane = { [0 ... 31] = 0xA0 },
	.bc0.lane = { [0 ... 31] = 0xC0 },
	.bc2.lane = { [0 ... 31] = 0xC2 },
	.bdf.lane = { [0 ... 31] = 0xDF },
	.be0.lane = { [0 ... 31] = 0xE0 },
	.bed.lane = { [0 ... 31] = 0xED },
	.bf0.lane = { [0 ... 31] = 0xF0 },
};

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

/*
 * The constants of the steps from UTF-16 that run on every vector, read
 * through UTFCONV_K() once per call, before the loop: values that GCC
 * cannot build again from their lanes, so that it keeps them in vector
 * registers (or in stack slots of its own where it runs short) instead
 * of taking a memory operand of utfconv_avx2_k at every use, a 256-bit
 * load each: the CPU takes two of those a cycle, and the mixed step with
 * the checks before it took more loads than units. The rarer steps
 * (three-byte and surrogate vectors) keep their memory operands.
 */
struct utfconv_avx2_kv {
	utfconv_u16x16 x3f, x3f00, x3fff, x4000, x7f, x8000, x80c0, x80e0,
		       xd800, xf800, xff80;
};

/*
 * The 16 units of @a, all below 0x800, as one or two bytes of UTF-8 each
 * at @d, encoded in their 16-bit lanes and packed with vpshufb, one
 * 128-bit half at a time: at most 32 bytes written; returns the end of
 * the output.
 */
static __always_inline UTFCONV_AVX2 u8 *
utfconv_avx2_utf16_two(const struct utfconv_avx2_kv *kv, u8 *d,
		       utfconv_u16x16 a)
{
	/* a signed compare: one instruction, right for units below 0x8000 */
	utfconv_u16x16 big = (utfconv_u16x16)((utfconv_s16x16)a >
					      (utfconv_s16x16)kv->x7f);
	unsigned int k7f = utfconv_unitmask(big);
	utfconv_u8x32 e, r;

	e = (utfconv_u8x32)((a & ~big) |
			    ((kv->x80c0 | a >> 6 |
			      (a & kv->x3f) << 8) & big));
	r = utfconv_rows(utfconv_pack8[k7f & 0xFF], utfconv_pack8[k7f >> 16]);
	r = utfconv_pshufb32(e, r);
	utfconv_store_lo(d, r);
	d += utfconv_pack8_bytes[k7f & 0xFF];
	utfconv_store_hi(d, r);
	return d + utfconv_pack8_bytes[k7f >> 16];
}

/* Whether the 16 units of @a hold a surrogate. */
static __always_inline UTFCONV_AVX2 bool
utfconv_avx2_surrogates(const struct utfconv_avx2_kv *kv, utfconv_u16x16 a)
{
	return utfconv_movemask32((utfconv_u16x16)((a & kv->xf800) ==
						   kv->xd800));
}

/*
 * The number of surrogate pairs (lead, then trail) that the 16 units of
 * @a start with, up to 8, written at @d as four-byte sequences, as
 * utfconv_utf16_run4() does (32 bytes written whatever the number).
 */
static __always_inline UTFCONV_AVX2 unsigned int
utfconv_avx2_utf16_run4(u8 *d, utfconv_u16x16 a)
{
	utfconv_u32x8 x = (utfconv_u32x8)a;
	u32 ok;

	ok = utfconv_movemask32((utfconv_u16x16)((x & 0xFC00FC00) ==
						 0xDC00D800));
	x = ((x & 0x3FF) << 10 | (x >> 16 & 0x3FF)) + 0x10000;
	x = 0x808080F0 | x >> 18 | (x >> 4 & 0x3F00) | (x << 10 & 0x3F0000) |
	    (x & 0x3F) << 24;
	__builtin_memcpy(d, &x, sizeof(x));
	return __builtin_ctzll((u64)~ok | 1ULL << 32) / 4;
}

/*
 * utfconv_ssse3_utf16_mixed() for the 16 units of @a (no surrogates), one
 * 128-bit half each for units 0-7 and 8-15: at most 64 bytes written at
 * @d; returns the end of the output.
 */
static __always_inline UTFCONV_AVX2 u8 *
utfconv_avx2_utf16_mixed(const struct utfconv_avx2_kv *kv, u8 *d,
			 utfconv_u16x16 a)
{
	const utfconv_u8x32 dup = UTFCONV_VEC(0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10,
					      10, 12, 12, 14, 14, 0, 0, 2, 2, 4,
					      4, 6, 6, 8, 8, 10, 10, 12, 12, 14,
					      14);
	utfconv_u16x16 one = (utfconv_u16x16)((a & kv->xff80) == 0);
	utfconv_u16x16 two = (utfconv_u16x16)((a & kv->xf800) == 0);
	utfconv_u16x16 p = ((utfconv_u16x16)utfconv_pshufb32((utfconv_u8x32)a,
							     dup) &
			    kv->x3fff) | kv->x8000;
	utfconv_u16x16 q = a >> 12 | (a << 2 & kv->x3f00) |
			   kv->x80e0 | (two & kv->x4000);
	utfconv_u8x32 lo, hi;
	unsigned int n;

	/* per half: units 0-3 (lo) and 4-7 (hi), each in its 32-bit lane */
	lo = (utfconv_u8x32)__builtin_shufflevector(p, q, 0, 16, 1, 17,
						    2, 18, 3, 19, 8, 24, 9,
						    25, 10, 26, 11, 27);
	hi = (utfconv_u8x32)__builtin_shufflevector(p, q, 4, 20, 5, 21,
						    6, 22, 7, 23, 12, 28, 13,
						    29, 14, 30, 15, 31);
	n = (utfconv_movemask32(one) & 0x55555555) |
	    (utfconv_movemask32(two) & 0xAAAAAAAA);
	lo = utfconv_pshufb32(lo, utfconv_rows(utfconv_utf8_form[n & 0xFF],
					       utfconv_utf8_form[n >> 16 & 0xFF]));
	hi = utfconv_pshufb32(hi, utfconv_rows(utfconv_utf8_form[n >> 8 & 0xFF],
					       utfconv_utf8_form[n >> 24]));
	utfconv_store_lo(d, lo);
	d += utfconv_utf8_form_bytes[n & 0xFF];
	utfconv_store_lo(d, hi);
	d += utfconv_utf8_form_bytes[n >> 8 & 0xFF];
	utfconv_store_hi(d, lo);
	d += utfconv_utf8_form_bytes[n >> 16 & 0xFF];
	utfconv_store_hi(d, hi);
	return d + utfconv_utf8_form_bytes[n >> 24];
}

/* Whether no unit of @a has a bit of @m set (vptest). */
static __always_inline UTFCONV_AVX2 bool utfconv_avx2_none(utfconv_u16x16 a,
							   utfconv_u16x16 m)
{
	return __builtin_ia32_ptestz256((utfconv_s64x4)a, (utfconv_s64x4)m);
}

/* Whether the 32 units @a, then @b, are ASCII. */
static __always_inline UTFCONV_AVX2 bool
utfconv_avx2_ascii16(const struct utfconv_avx2_kv *kv, utfconv_u16x16 a,
		     utfconv_u16x16 b)
{
	return utfconv_avx2_none(a | b, kv->xff80);
}

/*
 * The 32 ASCII units *@a, then *@b, at *@sp narrowed at *@dp, and the
 * next 32 while they are ASCII too, in a loop of its own (long runs of
 * Latin-script text), up to @lim (utfconv_avx2_utf16_lim()); returns the
 * units converted. Where it stops before @lim, *@a and *@b hold the
 * units at *@sp, for the caller to go on with them without loading them
 * again.
 */
static __always_inline UTFCONV_AVX2 u64
utfconv_avx2_utf16_ascii(const struct utfconv_avx2_kv *kv, const u8 **sp,
			 u8 **dp, const u8 *lim, bool le, utfconv_u16x16 *a,
			 utfconv_u16x16 *b)
{
	const u8 *s = *sp;
	u8 *d = *dp;
	u64 ncp;

	do {
		/* pack, then the quarters in order */
		utfconv_u64x4 p = (utfconv_u64x4)
			__builtin_ia32_packuswb256((utfconv_s16x16)*a,
						   (utfconv_s16x16)*b);

		p = __builtin_shufflevector(p, p, 0, 2, 1, 3);
		__builtin_memcpy(d, &p, 32);
		s += 64;
		d += 32;
		if (s > lim)
			break;
		*a = utfconv_load16x16(s, le);
		*b = utfconv_load16x16(s + 32, le);
	} while (utfconv_avx2_ascii16(kv, *a, *b));
	ncp = (s - *sp) / 2;
	*sp = s;
	*dp = d;
	return ncp;
}

/* Whether each of the 16 units of @a is 0x800 or more. */
static __always_inline UTFCONV_AVX2 bool
utfconv_avx2_all_three(const struct utfconv_avx2_kv *kv, utfconv_u16x16 a)
{
	return !utfconv_movemask32((utfconv_u16x16)((a & kv->xf800) ==
						    0));
}

/*
 * The 16 units @a (no surrogates), all three bytes long (CJK), at @d:
 * the first two bytes of each in its 16-bit lane of x, the third in y,
 * merged in order by constant shuffles, as the SSSE3 step does, in each
 * half: 48 bytes.
 */
static __always_inline UTFCONV_AVX2 void utfconv_avx2_utf16_three(u8 *d,
								  utfconv_u16x16 a)
{
	const utfconv_u8x32 x0 = UTFCONV_VEC(0, 1, 128, 2, 3, 128, 4, 5, 128, 6,
					     7, 128, 8, 9, 128, 10, 0, 1, 128,
					     2, 3, 128, 4, 5, 128, 6, 7, 128, 8,
					     9, 128, 10);
	const utfconv_u8x32 y0 = UTFCONV_VEC(128, 128, 0, 128, 128, 2, 128, 128,
					     4, 128, 128, 6, 128, 128, 8, 128,
					     128, 128, 0, 128, 128, 2, 128, 128,
					     4, 128, 128, 6, 128, 128, 8, 128);
	const utfconv_u8x32 x1 = UTFCONV_VEC(11, 128, 12, 13, 128, 14, 15, 128,
					     128, 128, 128, 128, 128, 128, 128,
					     128, 11, 128, 12, 13, 128, 14, 15,
					     128, 128, 128, 128, 128, 128, 128,
					     128, 128);
	const utfconv_u8x32 y1 = UTFCONV_VEC(128, 10, 128, 128, 12, 128, 128,
					     14, 128, 128, 128, 128, 128, 128,
					     128, 128, 128, 10, 128, 128, 12,
					     128, 128, 14, 128, 128, 128, 128,
					     128, 128, 128, 128);
	utfconv_u8x32 x = (utfconv_u8x32)(0x80E0 | a >> 12 | (a & 0xFC0) << 2);
	utfconv_u8x32 y = (utfconv_u8x32)(0x80 | (a & 0x3F));
	utfconv_u8x32 o0 = utfconv_pshufb32(x, x0) | utfconv_pshufb32(y, y0);
	utfconv_u8x32 o1 = utfconv_pshufb32(x, x1) | utfconv_pshufb32(y, y1);

	utfconv_store_lo(d, o0);
	utfconv_store_lo(d + 16, o1);
	utfconv_store_hi(d + 24, o0);
	utfconv_store_hi(d + 40, o1);
}

/*
 * The 16 units @a at *@sp, with surrogates: eight surrogate pairs (emoji)
 * as four-byte sequences, advancing by a constant, or the ones that lead.
 * Returns the code points taken, 0 for anything else, which the SSSE3
 * steps take (utfconv_avx2_from_utf16()); *@sp and *@dp advanced.
 */
static __always_inline UTFCONV_AVX2 u64
utfconv_avx2_utf16_surrogates(const u8 **sp, u8 **dp, utfconv_u16x16 a,
			      bool le)
{
	const u8 *s = *sp;
	unsigned int k;

	if ((utfconv_get16(s, le) & 0xFC00) == 0xD800) {
		k = utfconv_avx2_utf16_run4(*dp, a);
		if (k == 8) {
			*sp += 32;
			*dp += 32;
			return 8;
		}
		if (k) {
			*sp += 4 * k;
			*dp += 4 * k;
			return k;
		}
	}
	return 0;
}

/* The 32 units @a, then @b, ASCII, narrowed at @d (32 bytes). */
static __always_inline UTFCONV_AVX2 void
utfconv_avx2_utf16_ascii_step(u8 *d, utfconv_u16x16 a, utfconv_u16x16 b)
{
	/* pack, then the quarters in order */
	utfconv_u64x4 p = (utfconv_u64x4)
		__builtin_ia32_packuswb256((utfconv_s16x16)a,
					   (utfconv_s16x16)b);

	p = __builtin_shufflevector(p, p, 0, 2, 1, 3);
	__builtin_memcpy(d, &p, 32);
}

/*
 * The last input position at which a step of utfconv_avx2_utf16() may
 * start, for the steps from @s and @d on, where utfconv_utf16_room()
 * holds: UTF-8 is never longer than 3/2 of the UTF-16 it comes from, so
 * every step that starts at or before it still has that room, in the
 * input and in the output. One compare per step then keeps the loop in
 * bounds, not utfconv_utf16_room()'s two subtractions and compares.
 */
static __always_inline const u8 *utfconv_avx2_utf16_lim(const u8 *s,
							const u8 *se,
							const u8 *d,
							const u8 *de)
{
	size_t in = se - s - (2 * UTFCONV_UTF16_BLOCK + 8);
	size_t out = de - d - (3 * UTFCONV_UTF16_BLOCK + 12);

	return s + min_t(size_t, in, out / 3 * 2);
}

/*
 * The 16 units @a at *@dp as UTF-8 if they hold no surrogate: below 0x800
 * (with ASCII), all three bytes long, or any mix. Returns whether it
 * converted them; *@dp advanced.
 */
static __always_inline UTFCONV_AVX2 bool
utfconv_avx2_utf16_bmp(const struct utfconv_avx2_kv *kv, u8 **dp,
		       utfconv_u16x16 a)
{
	if (utfconv_avx2_none(a, kv->xf800)) {
		*dp = utfconv_avx2_utf16_two(kv, *dp, a);
		return true;
	}
	if (utfconv_avx2_surrogates(kv, a))
		return false;
	if (utfconv_avx2_all_three(kv, a)) {
		utfconv_avx2_utf16_three(*dp, a);
		*dp += 48;
		return true;
	}
	*dp = utfconv_avx2_utf16_mixed(kv, *dp, a);
	return true;
}

/*
 * The 16 units @v at *@dp as UTF-8 if they hold no surrogate, ASCII ones
 * packed; returns whether it converted them; *@dp advanced.
 */
static __always_inline UTFCONV_AVX2 bool
utfconv_avx2_utf16_vec(const struct utfconv_avx2_kv *kv, u8 **dp,
		       utfconv_u16x16 v)
{
	if (utfconv_avx2_none(v, kv->xff80)) {
		utfconv_avx2_utf16_ascii_step(*dp, v, v);
		*dp += 16;
		return true;
	}
	return utfconv_avx2_utf16_bmp(kv, dp, v);
}

/*
 * One step of utfconv_avx2_utf16() at *@sp, with utfconv_utf16_room():
 * a run of 32 or more ASCII units in a loop of its own, else the 16 units
 * of @a and then the 16 of @b, each vector by its own kind (ASCII, below
 * 0x800, all three bytes long or a mix), or as many as lead up to a
 * vector with surrogates. Two vectors per trip, each by its own kind,
 * halve the trips through the loop's checks on text that changes kind
 * every few words (markup in ASCII between the words of a script) without
 * making a vector pay for its neighbour's kind. The room at the start
 * covers both vectors: @a advances the output by at most 48 bytes, and
 * @b's step writes at most 56 after that, scratch bytes included.
 * Returns the code points converted, 0 where the careful path must take
 * over; *@sp and *@dp advanced.
 */
static __always_inline UTFCONV_AVX2 u64
utfconv_avx2_utf16_step(const struct utfconv_avx2_kv *kv, const u8 **sp,
			const u8 *se, u8 **dp, u8 *de, const u8 *lim, bool le)
{
	const u8 *s = *sp;
	/* both loads within the room's lookahead */
	utfconv_u16x16 a = utfconv_load16x16(s, le);
	utfconv_u16x16 b = utfconv_load16x16(s + 32, le);
	u64 ncp = 0;

	if (utfconv_avx2_ascii16(kv, a, b)) {
		ncp = utfconv_avx2_utf16_ascii(kv, sp, dp, lim, le, &a, &b);
		if (*sp > lim)
			return ncp;
		s = *sp;
	}
	if (!utfconv_avx2_utf16_vec(kv, dp, a))
		return ncp + utfconv_avx2_utf16_surrogates(sp, dp, a, le);
	*sp = s + 32;
	if (!utfconv_avx2_utf16_vec(kv, dp, b))
		return ncp + 16;
	*sp = s + 64;
	return ncp + 32;
}

static __always_inline UTFCONV_AVX2 u64 utfconv_avx2_utf16(const u8 **sp,
							   const u8 *se,
							   u8 **dp, u8 *de,
							   bool le)
{
	const u8 *s = *sp, *lim;
	u8 *d = *dp;
	u64 ncp = 0, k;
	struct utfconv_avx2_kv kc = {
		.x3f = UTFCONV_K(x3f),
		.x3f00 = UTFCONV_K(x3f00),
		.x3fff = UTFCONV_K(x3fff),
		.x4000 = UTFCONV_K(x4000),
		.x7f = UTFCONV_K(x7f),
		.x8000 = UTFCONV_K(x8000),
		.x80c0 = UTFCONV_K(x80c0),
		.x80e0 = UTFCONV_K(x80e0),
		.xd800 = UTFCONV_K(xd800),
		.xf800 = UTFCONV_K(xf800),
		.xff80 = UTFCONV_K(xff80),
	};
	const struct utfconv_avx2_kv *kv = &kc;

	while (utfconv_utf16_room(s, se, d, de)) {
		lim = utfconv_avx2_utf16_lim(s, se, d, de);
		do {
			k = utfconv_avx2_utf16_step(kv, &s, se, &d, de, lim,
						    le);
			ncp += k;
		} while (k && s <= lim);
		if (!k)
			break;
	}
	*sp = s;
	*dp = d;
	return ncp;
}

/*
 * The 16 bytes @h zero-extended to 16-bit lanes: one vpmovzxbw. GCC
 * splits __builtin_convertvector() into two 128-bit halves here; clang
 * has no builtin for the instruction and compiles the conversion into it.
 */
static __always_inline UTFCONV_AVX2 utfconv_u16x16
utfconv_avx2_extend(utfconv_u8x16 h)
{
#ifdef __clang__
	return __builtin_convertvector(h, utfconv_u16x16);
#else
	return (utfconv_u16x16)__builtin_ia32_pmovzxbw256((UTFCONV_C8X16)h);
#endif
}

/* Bytes 0-15 (@hi false) or 16-31 of @v, zero-extended to 16-bit lanes. */
static __always_inline UTFCONV_AVX2 utfconv_u16x16
utfconv_avx2_widen(utfconv_u8x32 v, bool hi)
{
	utfconv_u8x16 h;

	if (hi)
		h = __builtin_shufflevector(v, v, 16, 17, 18, 19, 20, 21, 22, 23,
					    24, 25, 26, 27, 28, 29, 30, 31);
	else
		h = __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
					    10, 11, 12, 13, 14, 15);
	return utfconv_avx2_extend(h);
}

/* The same for a 0/0xFF mask, to 0/0xFFFF lanes. */
static __always_inline UTFCONV_AVX2 utfconv_u16x16
utfconv_avx2_widen_mask(utfconv_u8x32 m, bool hi)
{
	utfconv_u16x16 w = utfconv_avx2_widen(m, hi);

	return w | w << 8;
}

static __always_inline UTFCONV_AVX2 unsigned int
utfconv_movemask8x32(utfconv_u8x32 v)
{
	return __builtin_ia32_pmovmskb256((UTFCONV_C8X32)v);
}

/*
 * AVX2: utfconv_utf8_mixed32() with the 32 bytes at @s in one vector: the
 * prefix utfconv_utf8_cut() allows, decoded in 16-bit lanes, one vector
 * per 16 bytes, and packed with vpshufb, one 128-bit half (eight bytes of
 * input) at a time, at @d: at most 64 bytes written. Returns the length
 * of the prefix in bytes, 0 if none; *@units: the code units written.
 */
static __always_inline UTFCONV_AVX2 unsigned int
utfconv_avx2_utf8_mixed(const u8 *s, u8 *d, bool be, unsigned int *units)
{
	utfconv_u8x32 v, n1, n2, l2, l3;
	unsigned int i, k, pos = 0;
	u32 first;

	__builtin_memcpy(&v, s, sizeof(v));
	__builtin_memcpy(&n1, s + 1, sizeof(n1));
	__builtin_memcpy(&n2, s + 2, sizeof(n2));
	l2 = (utfconv_u8x32)(v >= UTFCONV_K(bc2)) &
	     (utfconv_u8x32)(v <= UTFCONV_K(bdf));
	l3 = (utfconv_u8x32)((v & UTFCONV_K(bf0)) == UTFCONV_K(be0));
	k = utfconv_utf8_cut(utfconv_movemask8x32(l2), utfconv_movemask8x32(l3),
			     utfconv_movemask8x32((utfconv_u8x32)((v & UTFCONV_K(bc0)) ==
								  UTFCONV_K(b80))),
			     utfconv_movemask8x32(v),
			     utfconv_movemask8x32(((utfconv_u8x32)(v == UTFCONV_K(be0)) &
						   (utfconv_u8x32)(n1 < UTFCONV_K(ba0))) |
						  ((utfconv_u8x32)(v == UTFCONV_K(bed)) &
						   (utfconv_u8x32)(n1 > UTFCONV_K(b9f)))),
			     32, &first);
	if (!k)
		return 0;
#pragma GCC unroll 2
	for (i = 0; i < 2; i++) {
		utfconv_u16x16 b = utfconv_avx2_widen(v, i);
		utfconv_u16x16 c1 = utfconv_avx2_widen(n1, i) & UTFCONV_K(x3f);
		utfconv_u16x16 c2 = utfconv_avx2_widen(n2, i) & UTFCONV_K(x3f);
		utfconv_u16x16 m2 = utfconv_avx2_widen_mask(l2, i);
		utfconv_u16x16 m3 = utfconv_avx2_widen_mask(l3, i);
		utfconv_u16x16 u = (b & ~(m2 | m3)) |
				   (m2 & ((b & UTFCONV_K(x1f)) << 6 | c1)) |
				   (m3 & ((b & UTFCONV_K(x0f)) << 12 | c1 << 6 |
					  c2));
		unsigned int lo = first >> 16 * i & 0xFF;
		unsigned int hi = first >> (16 * i + 8) & 0xFF;
		utfconv_u8x32 r;

		if (be)
			u = u << 8 | u >> 8;
		r = utfconv_pshufb32((utfconv_u8x32)u,
				     utfconv_rows(utfconv_pack16[lo],
						  utfconv_pack16[hi]));
		utfconv_store_lo(d + pos, r);
		pos += utfconv_pack16_bytes[lo];
		utfconv_store_hi(d + pos, r);
		pos += utfconv_pack16_bytes[hi];
	}
	*units = pos / 2;
	return k;
}

/*
 * AVX2: whether the 30 bytes at @s are ten whole three-byte sequences (no
 * overlong forms, no surrogates), checked and decoded as
 * utfconv_utf8_run3() does, five in each 128-bit half (bytes 0-14 and
 * 15-29); their code units are written at @d either way (20 bytes, at
 * most 32 written).
 */
static __always_inline UTFCONV_AVX2 bool utfconv_avx2_utf8_run3(const u8 *s,
								u8 *d,
								bool be)
{
	/* as in utfconv_utf8_run3(), in each half */
	const utfconv_u8x32 first = UTFCONV_VEC(1, 0, 4, 3, 7, 6, 10, 9, 13, 12,
						128, 128, 128, 128, 128, 128,
						1, 0, 4, 3, 7, 6, 10, 9, 13, 12,
						128, 128, 128, 128, 128, 128);
	const utfconv_u8x32 last = UTFCONV_VEC(2, 128, 5, 128, 8, 128, 11, 128,
					       14, 128, 128, 128, 128, 128, 128,
					       128, 2, 128, 5, 128, 8, 128, 11,
					       128, 14, 128, 128, 128, 128, 128,
					       128, 128);
	const utfconv_u8x32 zero = { 0 };
	utfconv_u8x32 v = utfconv_rows(s, s + 15);
	/* each byte's next one within its half: byte 15 is not looked at */
	utfconv_u8x32 n1 = __builtin_shufflevector(v, zero, 1, 2, 3, 4, 5, 6,
						   7, 8, 9, 10, 11, 12, 13, 14,
						   15, 32, 17, 18, 19, 20, 21,
						   22, 23, 24, 25, 26, 27, 28,
						   29, 30, 31, 32);
	utfconv_u16x16 a = (utfconv_u16x16)utfconv_pshufb32(v, first);
	utfconv_u16x16 b = (utfconv_u16x16)utfconv_pshufb32(v, last);
	utfconv_u16x16 u = (a << 4 & UTFCONV_K(xf000)) |
			   (a & UTFCONV_K(x3f)) << 6 | (b & UTFCONV_K(x3f));
	unsigned int lead, cont, form;

	lead = utfconv_movemask8x32((utfconv_u8x32)((v & UTFCONV_K(bf0)) ==
						    UTFCONV_K(be0)));
	cont = utfconv_movemask8x32((utfconv_u8x32)((v & UTFCONV_K(bc0)) ==
						    UTFCONV_K(b80)));
	form = utfconv_movemask8x32(((utfconv_u8x32)(v == UTFCONV_K(be0)) &
				     (utfconv_u8x32)(n1 < UTFCONV_K(ba0))) |
				    ((utfconv_u8x32)(v == UTFCONV_K(bed)) &
				     (utfconv_u8x32)(n1 > UTFCONV_K(b9f))));
	if (be)
		u = u << 8 | u >> 8;
	utfconv_store_lo(d, (utfconv_u8x32)u);
	utfconv_store_hi(d + 10, (utfconv_u8x32)u);
	return !(((lead ^ 0x12491249) | (cont ^ 0x6DB66DB6) | form) &
		 0x7FFF7FFF);
}

/*
 * AVX2: the number of whole four-byte sequences (no overlong forms, none
 * above U+10FFFF) that the 32 bytes @v at @s start with, up to 8, written
 * at @d as surrogate pairs, as utfconv_utf8_run4() does in each 128-bit
 * half (32 bytes written whatever the number).
 */
static __always_inline UTFCONV_AVX2 unsigned int
utfconv_avx2_utf8_run4(const u8 *s, utfconv_u8x32 v, u8 *d, bool be)
{
	/* each 32-bit lane's four bytes, first byte highest */
	const utfconv_u8x32 rev = UTFCONV_VEC(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9,
					      8, 15, 14, 13, 12, 3, 2, 1, 0, 7,
					      6, 5, 4, 11, 10, 9, 8, 15, 14, 13,
					      12);
	utfconv_u32x8 x = (utfconv_u32x8)utfconv_pshufb32(v, rev);
	utfconv_u8x32 n1;
	u64 lead, cont, form;

	__builtin_memcpy(&n1, s + 1, sizeof(n1));
	lead = utfconv_movemask8x32((utfconv_u8x32)(v >= 0xF0) &
				    (utfconv_u8x32)(v <= 0xF4));
	cont = utfconv_movemask8x32((utfconv_u8x32)((v & 0xC0) == 0x80));
	/* overlong forms (F0 80..8F) and beyond U+10FFFF (F4 90..BF) */
	form = utfconv_movemask8x32(((utfconv_u8x32)(v == 0xF0) &
				     (utfconv_u8x32)(n1 < 0x90)) |
				    ((utfconv_u8x32)(v == 0xF4) &
				     (utfconv_u8x32)(n1 > 0x8F)));
	x = UTFCONV_UTF8_PAIR(x, be);
	__builtin_memcpy(d, &x, sizeof(x));
	return __builtin_ctzll((lead ^ 0x11111111) | (cont ^ 0xEEEEEEEE) |
			       form | 1ULL << 32) / 4;
}

/* AVX2: the 32 ASCII bytes @v widened to code units at @d (64 bytes). */
static __always_inline UTFCONV_AVX2 void
utfconv_avx2_utf8_ascii(u8 *d, utfconv_u8x32 v, bool be)
{
	utfconv_u16x16 u0 = utfconv_avx2_widen(v, false);
	utfconv_u16x16 u1 = utfconv_avx2_widen(v, true);

	if (be) {
		u0 <<= 8;
		u1 <<= 8;
	}
	__builtin_memcpy(d, &u0, sizeof(u0));
	__builtin_memcpy(d + 32, &u1, sizeof(u1));
}

/*
 * AVX2: the 32 ASCII bytes at *@sp and the ones after them while they are
 * ASCII, 64 bytes per trip while the buffers leave room for that many,
 * widened to code units at *@dp; returns the bytes taken. The loop's end
 * is worked out once: the last input byte that leaves room for a block
 * (utfconv_utf8_room()) after it. @align: where the output is at an even
 * address, the first step takes 17 to 32 bytes, so that the trips store
 * at 32-byte aligned addresses, none split across two cache lines. Only
 * for runs that tend to be long: the short first step costs a trip's
 * worth of stores on a short run.
 */
static __always_inline UTFCONV_AVX2 u64
utfconv_avx2_utf8_ascii_run(const u8 **sp, const u8 *se, u8 **dp, u8 *de,
			    bool be, bool align)
{
	const u8 *s = *sp, *s0 = s;
	u8 *d = *dp;
	size_t last = min_t(size_t, se - s - (UTFCONV_UTF8_BLOCK + 8),
			    (de - d - (2 * UTFCONV_UTF8_BLOCK + 16)) / 2);
	const u8 *lim = s + last;
	utfconv_u8x32 v, w;
	unsigned int k;

	__builtin_memcpy(&v, s, sizeof(v));
	utfconv_avx2_utf8_ascii(d, v, be);
	k = align && !((uintptr_t)d & 1) ? 32 - ((uintptr_t)d & 31) / 2 : 32;
	s += k;
	d += 2 * k;
	while (s + 32 <= lim) {
		__builtin_memcpy(&v, s, sizeof(v));
		__builtin_memcpy(&w, s + 32, sizeof(w));
		if (utfconv_movemask8x32(v | w))
			break;
		utfconv_avx2_utf8_ascii(d, v, be);
		utfconv_avx2_utf8_ascii(d + 64, w, be);
		s += 64;
		d += 128;
	}
	*sp = s;
	*dp = d;
	return s - s0;
}

/*
 * AVX2: whether the 32 bytes @v are 16 whole two-byte sequences (no
 * overlong forms), decoded as utfconv_utf8_run2() does into *@u.
 */
static __always_inline UTFCONV_AVX2 bool utfconv_avx2_utf8_run2(utfconv_u8x32 v,
								utfconv_u16x16 *u)
{
	utfconv_u16x16 w = (utfconv_u16x16)v;
	unsigned int lead, cont;

	lead = utfconv_movemask8x32((utfconv_u8x32)(v >= UTFCONV_K(bc2)) &
				    (utfconv_u8x32)(v <= UTFCONV_K(bdf)));
	cont = utfconv_movemask8x32((utfconv_u8x32)((v & UTFCONV_K(bc0)) ==
						    UTFCONV_K(b80)));
	*u = (w & UTFCONV_K(x1f)) << 6 | (w >> 8 & UTFCONV_K(x3f));
	return lead == 0x55555555 && cont == 0xAAAAAAAA;
}

/*
 * AVX2, UTF-8 to UTF-16: 32 ASCII bytes per step, widened to code units,
 * in a loop of their own while they last; 32 bytes without ASCII that
 * are 16 two-byte or ten three-byte sequences, decoded in place; else
 * the longest prefix of whole one- to three-byte sequences of the 32
 * bytes, decoded and packed; anything else (four-byte sequences,
 * trouble) goes through the SSSE3 steps, some 32 to 64 bytes at a time.
 */
static __always_inline UTFCONV_AVX2 u64 utfconv_avx2_utf8(const u8 **sp,
							  const u8 *se,
							  u8 **dp, u8 *de,
							  bool be)
{
	const u8 *s = *sp;
	u8 *d = *dp;
	u64 ncp = 0;

	while (utfconv_utf8_room(s, se, d, de)) {
		unsigned int k, m, units;
		utfconv_u16x16 u;
		utfconv_u8x32 v;

		__builtin_memcpy(&v, s, sizeof(v));
		m = utfconv_movemask8x32(v);
		if (!m) {
			ncp += utfconv_avx2_utf8_ascii_run(&s, se, &d, de, be,
							    false);
			continue;
		}
		/*
		 * Without ASCII, runs of one script advance by a constant:
		 * 16 two-byte characters (Cyrillic, Greek, Hebrew, Arabic)
		 * or ten three-byte ones (CJK, Indic, Thai).
		 */
		if (m == ~0U && (*s & 0xE0) == 0xC0 &&
		    utfconv_avx2_utf8_run2(v, &u)) {
			if (be)
				u = u << 8 | u >> 8;
			__builtin_memcpy(d, &u, sizeof(u));
			s += 32;
			d += 32;
			ncp += 16;
			continue;
		}
		if (m == ~0U && (*s & 0xF0) == 0xE0 &&
		    utfconv_avx2_utf8_run3(s, d, be)) {
			s += 30;
			d += 20;
			ncp += 10;
			continue;
		}
		if (m == ~0U && (*s & 0xF8) == 0xF0) {
			/* emoji and other supplementary characters */
			k = utfconv_avx2_utf8_run4(s, v, d, be);
			if (k == 8) {
				s += 32;
				d += 32;
				ncp += 8;
				continue;
			}
			if (k) {
				s += 4 * k;
				d += 4 * k;
				ncp += k;
				continue;
			}
		}
		k = utfconv_avx2_utf8_mixed(s, d, be, &units);
		if (k) {
			s += k;
			d += 2 * units;
			ncp += units;
			continue;
		}
		/* the SSSE3 steps' turn (utfconv_avx2_from_utf8()) */
		break;
	}
	*sp = s;
	*dp = d;
	return ncp;
}

/*
 * AVX2, UTF-8 to UTF-16: the ASCII runs a call starts with, outside
 * utfconv_avx2(), whose entry and exit (registers saved, a frame for its
 * spills, constants loaded) cost more: a section of ASCII text (up to
 * UTFCONV_SIMD_CHUNK << UTFCONV_SIMD_ASCII_SHIFT bytes, utfconv_simd.h)
 * never enters it. Their stores are aligned: such runs tend to fill the
 * section.
 */
static __always_inline UTFCONV_AVX2 u64
utfconv_avx2_utf8_lead_runs(const u8 **sp, const u8 *se, u8 **dp, u8 *de,
			    bool be)
{
	u64 ncp = 0;

	while (utfconv_utf8_room(*sp, se, *dp, de)) {
		utfconv_u8x32 v;

		__builtin_memcpy(&v, *sp, sizeof(v));
		if (utfconv_movemask8x32(v))
			break;
		ncp += utfconv_avx2_utf8_ascii_run(sp, se, dp, de, be, true);
	}
	return ncp;
}

/*
 * The start of a section from UTF-8: its leading ASCII runs, each byte
 * 1 / 2^UTFCONV_SIMD_ASCII_SHIFT of the budget, and in *@cep the end of
 * the budget they leave for the rest of the section. Not static: the
 * AVX-512 path from UTF-8 (utfconv_avx512_utf8.c) starts with it too, whose
 * 512-bit widening of ASCII measures no faster.
 */
noinline UTFCONV_AVX2 u64
utfconv_avx2_utf8_lead(const u8 **sp, const u8 *se, const u8 **cep, u8 **dp,
		       u8 *de, bool be)
{
	const u8 *s0 = *sp;
	const u8 *ce = utfconv_simd_cut(s0, se, (size_t)UTFCONV_SIMD_CHUNK <<
					       UTFCONV_SIMD_ASCII_SHIFT);
	u64 ncp = be ? utfconv_avx2_utf8_lead_runs(sp, ce, dp, de, true) :
		       utfconv_avx2_utf8_lead_runs(sp, ce, dp, de, false);

	*cep = utfconv_simd_cut(*sp, se, utfconv_simd_rest(*sp - s0));
	return ncp;
}

/*
 * The AVX2 steps from UTF-8 and from UTF-16, each instance with its flag
 * constant: they return where the input needs a step of another kind,
 * which their callers below take through the SSSE3 steps (utfconv_sse2.c)
 * a few vectors at a time before they call them again. The SSSE3 steps
 * are legacy SSE code, entered with the upper halves cleared (as every
 * return from AVX code does), and a call of them from within these loops
 * would clobber the vector registers that hold the loops' constants.
 */
static noinline UTFCONV_AVX2 u64
utfconv_avx2_utf8_all(const u8 **sp, const u8 *se, u8 **dp, u8 *de, bool be)
{
	return be ? utfconv_avx2_utf8(sp, se, dp, de, true) :
		    utfconv_avx2_utf8(sp, se, dp, de, false);
}

static noinline UTFCONV_AVX2 u64
utfconv_avx2_utf16_all(const u8 **sp, const u8 *se, u8 **dp, u8 *de, bool le)
{
	return le ? utfconv_avx2_utf16(sp, se, dp, de, true) :
		    utfconv_avx2_utf16(sp, se, dp, de, false);
}

/**
 * utfconv_avx2_from_utf8() - convert well-formed UTF-8 to UTF-16 with AVX2
 * @sp: in/out: next input byte
 * @se: end of the input
 * @cep: out: end of the input this call's budget allowed (see
 *	%UTFCONV_SIMD_CHUNK): the ASCII run the call starts with counts
 *	1 / 2^%UTFCONV_SIMD_ASCII_SHIFT of a byte each; the call stops up
 *	to a block short of it, and the caller tells that from a stop for
 *	the careful path by the room left before it
 * @dp: in/out: next output byte
 * @de: end of the output buffer
 * @be: UTF-16BE output, else UTF-16LE
 *
 * Converts whole characters (no surrogates: those are for the careful
 * path) while the input and output left cover a block's worst case, one
 * FPU section's worth.
 *
 * Context: Between kernel_fpu_begin() and kernel_fpu_end(), on a CPU with
 * AVX2 whose kernel saves the YMM registers.
 * Return: the number of code points converted; *@sp and *@dp advanced.
 */
UTFCONV_AVX2 u64 utfconv_avx2_from_utf8(const u8 **sp, const u8 *se,
					const u8 **cep, u8 **dp, u8 *de,
					bool be)
{
	u64 ncp = utfconv_avx2_utf8_lead(sp, se, cep, dp, de, be);
	const u8 *s0, *ce = *cep, *unused;

	while (utfconv_utf8_room(*sp, ce, *dp, de)) {
		ncp += utfconv_avx2_utf8_all(sp, ce, dp, de, be);
		if (!utfconv_utf8_room(*sp, ce, *dp, de))
			break;
		s0 = *sp;
		ncp += utfconv_ssse3_from_utf8(sp, utfconv_simd_cut(s0, ce, 136),
					       &unused, dp, de, be);
		if (*sp == s0)
			break;
	}
	return ncp;
}

/**
 * utfconv_avx2_from_utf16() - convert well-formed UTF-16 to UTF-8 with AVX2
 * @sp: in/out: next input byte
 * @se: end of the input
 * @cep: out: end of the input this call's budget allowed,
 *	%UTFCONV_SIMD_CHUNK bytes on, as for utfconv_avx2_from_utf8()
 * @dp: in/out: next output byte
 * @de: end of the output buffer
 * @le: UTF-16LE input, else UTF-16BE
 *
 * Converts whole characters (surrogate pairs included, unpaired
 * surrogates left for the careful path) while the input and output left
 * cover a block's worst case, one FPU section's worth.
 *
 * Context: Between kernel_fpu_begin() and kernel_fpu_end(), on a CPU with
 * AVX2 whose kernel saves the YMM registers.
 * Return: the number of code points converted; *@sp and *@dp advanced.
 */
UTFCONV_AVX2 u64 utfconv_avx2_from_utf16(const u8 **sp, const u8 *se,
					 const u8 **cep, u8 **dp, u8 *de,
					 bool le)
{
	const u8 *ce = utfconv_simd_cut(*sp, se, UTFCONV_SIMD_CHUNK);
	const u8 *s0, *unused;
	u64 ncp = 0;

	*cep = ce;
	while (utfconv_utf16_room(*sp, ce, *dp, de)) {
		ncp += utfconv_avx2_utf16_all(sp, ce, dp, de, le);
		if (!utfconv_utf16_room(*sp, ce, *dp, de))
			break;
		s0 = *sp;
		ncp += utfconv_ssse3_from_utf16(sp, utfconv_simd_cut(s0, ce, 104),
						&unused, dp, de, le);
		if (*sp == s0)
			break;
	}
	return ncp;
}
