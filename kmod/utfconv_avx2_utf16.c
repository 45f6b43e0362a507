// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: AVX2 path from UTF-16 to UTF-8 for x86-64
 *
 * Built and run as utfconv_avx2.h says.
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

#include "utfconv_avx2.h"

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
			__builtin_ia32_packuswb256((utfconv_s16x16)(*a),
						   (utfconv_s16x16)(*b));

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
 * The AVX2 steps from UTF-16, each instance with its flag constant: they
 * return where the input needs a step of another kind, which the caller
 * below takes through the SSSE3 steps (utfconv_sse2.c) a few vectors at
 * a time before it calls them again. The SSSE3 steps are legacy SSE
 * code, entered with the upper halves cleared (as every return from AVX
 * code does), and a call of them from within these loops would clobber
 * the vector registers that hold the loops' constants.
 */
static noinline UTFCONV_AVX2 u64
utfconv_avx2_utf16_all(const u8 **sp, const u8 *se, u8 **dp, u8 *de, bool le)
{
	return le ? utfconv_avx2_utf16(sp, se, dp, de, true) :
		    utfconv_avx2_utf16(sp, se, dp, de, false);
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
