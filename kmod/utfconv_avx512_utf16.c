// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: AVX-512 path from UTF-16 to UTF-8 for x86-64
 *
 * Built and run as utfconv_avx512.h says.
 *
 * UTF-16 to UTF-8, 32 units a step: ASCII narrowed with vpmovwb, its
 * runs 64 units a trip; units below 0x800 as one or two bytes in their
 * 16-bit lanes, packed with vpcompressb; without surrogates, each unit's
 * first two bytes in its 16-bit lane and its third in another vector,
 * laid out three bytes a unit by two vpermt2b and packed; 16 surrogate
 * pairs (emoji) encoded in place in 32-bit lanes; otherwise each unit's
 * one to three bytes, or a surrogate pair's four, in 32-bit lanes, 16
 * units at a time, packed.
 * The step ends before a lone surrogate (the careful path's turn) or a
 * lead surrogate in its last unit.
 */

#include "utfconv_avx512.h"

/* The 16-bit lanes of @v equal to @c's (vpcmpeqw). */
static __always_inline UTFCONV_AVX512
u32 utfconv_z_eq16(utfconv_u16x32 v, utfconv_u16x32 c)
{
	u32 m;

	asm("vpcmpeqw %2, %1, %0" : "=k" (m) : "v" (v), "v" (c));
	return m;
}

/* The bytes of @v where @m, one after the other (vpcompressb). */
static __always_inline UTFCONV_AVX512
utfconv_u8x64 utfconv_z_compress8(utfconv_u8x64 v, u64 m)
{
	utfconv_u8x64 r;

	asm("vpcompressb %1, %0%{%2%}%{z%}" : "=v" (r) : "v" (v), "Yk" (m));
	return r;
}

/* The 32 ASCII units @a narrowed to bytes at @d (vpmovwb, 32 bytes). */
static __always_inline UTFCONV_AVX512
void utfconv_z_narrow(u8 *d, utfconv_u16x32 a)
{
	asm volatile("vpmovwb %1, %0" : "=m" (*(u8 (*)[32])d) : "v" (a));
}

/* The 16 units at @s in 32-bit lanes, UTF-16LE if @le, else UTF-16BE. */
static __always_inline UTFCONV_AVX512
utfconv_u32x16 utfconv_z_units32(const u8 *s, bool le)
{
	utfconv_u32x16 x = utfconv_z_zext16(s);

	return le ? x : x >> 8 | (x & 0xFF) << 8;
}

/* The classes of the 32 units of a step, unit 0 in bit 0. */
struct utfconv_z_utf16 {
	u32 two;	/* 0x80 and up */
	u32 three;	/* 0x800 and up */
	u32 high;	/* lead surrogates that start a pair the step takes */
	u32 low;	/* the trail surrogates of those */
};

/*
 * Half @h (0: units 0-15, 16: units 16-31) of a step at @s, the units
 * below @end: each unit in a 32-bit lane as its UTF-8 form, a lead
 * surrogate of @c->high with the unit after it as the pair's four bytes,
 * the bytes of the forms packed at @d (64 bytes written, or only those of
 * the forms if @exact). Returns the bytes written.
 */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_utf16_half(const u8 *s, u8 *d,
				  const struct utfconv_z_utf16 *c,
				  unsigned int h, u32 below, bool exact,
				  bool le)
{
	utfconv_u32x16 x = utfconv_z_units32(s + 2 * h, le), r, y;
	u32 high = c->high >> h & 0xFFFF;
	u32 lanes = (below & ~c->low) >> h & 0xFFFF;
	u64 keep;

	r = utfconv_z_blend32(x, 0x80C0 | x >> 6 | (x & 0x3F) << 8,
			      c->two >> h);
	r = utfconv_z_blend32(r, 0x8080E0 | x >> 12 | (x << 2 & 0x3F00) |
				 (x << 16 & 0x3F0000), c->three >> h);
	if (high) {
		y = utfconv_z_units32(s + 2 * h + 2, le);
		y = (x << 10) + y - ((0xD800 << 10) + 0xDC00 - 0x10000);
		r = utfconv_z_blend32(r, 0x808080F0 | y >> 18 |
					 (y >> 4 & 0x3F00) |
					 (y << 10 & 0x3F0000) |
					 (y << 24 & 0x3F000000), high);
	}
	/* every byte of a form is nonzero but a one-byte form's */
	keep = utfconv_z_test8((utfconv_u8x64)r, (utfconv_u8x64)r);
	keep = (keep | 0x1111111111111111ULL) &
	       (__builtin_ia32_pdep_di(lanes, 0x1111111111111111ULL) * 0xF);
	r = (utfconv_u32x16)utfconv_z_compress8((utfconv_u8x64)r, keep);
	if (exact)
		utfconv_z_store8(d, (utfconv_u8x64)r,
				 __builtin_popcountll(keep));
	else
		__builtin_memcpy(d, &r, sizeof(r));
	return __builtin_popcountll(keep);
}

/*
 * The 32 units @a, none of them above 0x7FF, at @d as UTF-8 (64 bytes
 * written): each unit's one or two bytes in its 16-bit lane, the bytes
 * of the forms packed. Returns the bytes written.
 */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_utf16_two(u8 *d, utfconv_u16x32 a, u32 two)
{
	utfconv_u16x32 t = 0x80C0 | a >> 6 | (a & 0x3F) << 8;
	utfconv_u8x64 r;
	u64 keep;

	t = utfconv_z_blend16(a, t, two);
	keep = 0x5555555555555555ULL |
	       __builtin_ia32_pdep_di(two, 0xAAAAAAAAAAAAAAAAULL);
	r = utfconv_z_compress8((utfconv_u8x64)t, keep);
	__builtin_memcpy(d, &r, sizeof(r));
	return __builtin_popcountll(keep);
}

/*
 * The surrogate pairs of a step into @c->high and @c->low, from its lead
 * and trail surrogates @hs and @ls: those before the first lone
 * surrogate, or before a lead at unit 31, whose trail the next step
 * loads. Returns where the step ends: 32, or before that lone surrogate
 * (*@stop set: the careful path's turn) or that lead.
 */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_pairs(struct utfconv_z_utf16 *c, u32 hs, u32 ls,
			     bool *stop)
{
	/* bit j: a lead surrogate at j - 1 or a trail one at j, not both */
	u64 bad = (u64)hs << 1 ^ ls;
	unsigned int end = 32;

	if (bad) {
		end = __builtin_ctzll(bad);
		*stop = end < 32;
		if (!((u64)ls >> end & 1))
			end--;
	}
	c->high = hs & (u32)((1ULL << end) - 1);
	c->low = c->high << 1;
	return end;
}

/* Constants the loops keep in registers. */
struct utfconv_z_k16 {
	utfconv_u16x32 xff80, xf800, xfc00, xd800, xdc00;
	utfconv_u8x64 lay_lo, lay_hi;
};

/*
 * vpermt2b's picks that lay out 32 units' forms one after the other, from
 * their first two bytes (16-bit lanes of the first table) and their third
 * (low bytes of the second's, at 64 on): output bytes 0-63, then 64-95.
 */
static const u8 utfconv_z_lay_lo[64] __aligned(64) = {
	0, 1, 64, 2, 3, 66, 4, 5, 68, 6, 7, 70,
	8, 9, 72, 10, 11, 74, 12, 13, 76, 14, 15, 78,
	16, 17, 80, 18, 19, 82, 20, 21, 84, 22, 23, 86,
	24, 25, 88, 26, 27, 90, 28, 29, 92, 30, 31, 94,
	32, 33, 96, 34, 35, 98, 36, 37, 100, 38, 39, 102,
	40, 41, 104, 42,
};

static const u8 utfconv_z_lay_hi[64] __aligned(64) = {
	43, 106, 44, 45, 108, 46, 47, 110, 48, 49, 112, 50,
	51, 114, 52, 53, 116, 54, 55, 118, 56, 57, 120, 58,
	59, 122, 60, 61, 124, 62, 63, 126, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0,
};

/*
 * The 32 units @a, none of them a surrogate, at @d as UTF-8 (96 bytes
 * written at most, none past the forms): each unit's first two bytes in
 * its 16-bit lane and its third in another vector, laid out three bytes
 * a unit by two vpermt2b, the bytes of the forms packed (@two: units of
 * two bytes and more, @three: of three). Returns the bytes written.
 */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_utf16_bmp(const struct utfconv_z_k16 *k, u8 *d,
				 utfconv_u16x32 a, u32 two, u32 three)
{
	utfconv_u16x32 w, z = { 0 };
	utfconv_u8x64 r;
	u64 keep;
	unsigned int n;

	w = utfconv_z_blend16(a, 0x80C0 | a >> 6 | (a & 0x3F) << 8, two);
	w = utfconv_z_blend16(w, 0x80E0 | a >> 12 | (a << 2 & 0x3F00), three);
	z = utfconv_z_blend16(z, 0x80 | (a & 0x3F), three);
	r = utfconv_z_permt2b((utfconv_u8x64)w, k->lay_lo, (utfconv_u8x64)z);
	keep = 0x9249249249249249ULL |
	       __builtin_ia32_pdep_di(two, 0x2492492492492492ULL) |
	       __builtin_ia32_pdep_di(three, 0x4924924924924924ULL);
	r = utfconv_z_compress8(r, keep);
	__builtin_memcpy(d, &r, sizeof(r));
	n = __builtin_popcountll(keep);
	r = utfconv_z_permt2b((utfconv_u8x64)w, k->lay_hi, (utfconv_u8x64)z);
	keep = 0x24924924 | __builtin_ia32_pdep_di(two >> 21, 0x49249249) |
	       __builtin_ia32_pdep_di(three >> 21, 0x92492492);
	r = utfconv_z_compress8(r, keep);
	utfconv_z_store8(d + n, r, __builtin_popcountll(keep));
	return n + __builtin_popcountll(keep);
}

/*
 * The 32 units @a, 16 surrogate pairs each in its 32-bit lane (emoji), at
 * @d as their four-byte forms (64 bytes), without a compress.
 */
static __always_inline UTFCONV_AVX512
void utfconv_z_utf16_pairs(u8 *d, utfconv_u16x32 a)
{
	utfconv_u32x16 x = (utfconv_u32x16)a, y;

	/* lead surrogate in the low half, trail in the high half */
	y = ((x & 0x3FF) << 10 | (x >> 16 & 0x3FF)) + 0x10000;
	x = 0x808080F0 | y >> 18 | (y >> 4 & 0x3F00) | (y << 10 & 0x3F0000) |
	    (y << 24 & 0x3F000000);
	__builtin_memcpy(d, &x, sizeof(x));
}

/*
 * One step at *@sp: the 32 units @a, not all ASCII, at *@dp as UTF-8, up
 * to a lone surrogate or a pair the 32 cut (96 bytes written at most).
 * Returns the code points converted; *@sp and *@dp advanced; *@stop as
 * utfconv_z_pairs().
 */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_utf16_step(const struct utfconv_z_k16 *k, const u8 **sp,
				  u8 **dp, utfconv_u16x32 a, u32 two, bool le,
				  bool *stop)
{
	struct utfconv_z_utf16 c = { .two = two };
	unsigned int end = 32, n;
	utfconv_u16x32 f;
	u32 hs, ls;

	c.three = utfconv_z_test16(a, k->xf800);
	if (!c.three) {
		*dp += utfconv_z_utf16_two(*dp, a, two);
		*sp += 64;
		return 32;
	}
	f = a & k->xfc00;
	hs = utfconv_z_eq16(f, k->xd800);
	ls = utfconv_z_eq16(f, k->xdc00);
	c.high = 0;
	c.low = 0;
	if (!(hs | ls)) {
		*dp += utfconv_z_utf16_bmp(k, *dp, a, two, c.three);
		*sp += 64;
		return 32;
	}
	if (hs == 0x55555555 && ls == 0xAAAAAAAA) {
		utfconv_z_utf16_pairs(*dp, a);
		*sp += 64;
		*dp += 64;
		return 16;
	}
	end = utfconv_z_pairs(&c, hs, ls, stop);
	n = utfconv_z_utf16_half(*sp, *dp, &c, 0, (1ULL << end) - 1, false,
				 le);
	n += utfconv_z_utf16_half(*sp, *dp + n, &c, 16, (1ULL << end) - 1,
				  true, le);
	*sp += 2 * end;
	*dp += n;
	return end - __builtin_popcount(c.low);
}

/*
 * The last input position at which a step of utfconv_avx512_utf16() may
 * start, for the steps from @s and @d on, where utfconv_utf16_room()
 * holds: UTF-8 is never longer than 3/2 of the UTF-16 it comes from, and
 * a step reads at most 66 bytes and writes at most 96.
 */
static __always_inline UTFCONV_AVX512
const u8 *utfconv_z_utf16_lim(const u8 *s, const u8 *se, const u8 *d,
			      const u8 *de)
{
	size_t in = se - s - (2 * UTFCONV_UTF16_BLOCK + 8);
	size_t out = de - d - (3 * UTFCONV_UTF16_BLOCK + 12);

	return s + min_t(size_t, in, out / 3 * 2);
}

/*
 * The 32 ASCII units @a at *@sp and the ones after them while they are
 * ASCII, 64 a trip while a trip starts at or before @lim, narrowed to
 * bytes at *@dp. Returns the units taken; *@sp and *@dp advanced. Why
 * 64 a trip: with 32 a trip, one ASCII step per vector in the main loop,
 * some placements of the code in the module ran text that mixes ASCII
 * with other scripts at about half the speed of the others on AMD Zen 5
 * (Documentation/benchmarks.rst, "Where the code lands"); with 64 no
 * placement measured slow.
 */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_utf16_ascii(const struct utfconv_z_k16 *k,
				   const u8 **sp, u8 **dp, utfconv_u16x32 a,
				   const u8 *lim, bool le)
{
	const u8 *s = *sp, *s0 = s;
	u8 *d = *dp;

	utfconv_z_narrow(d, a);
	s += 64;
	d += 32;
	while (s + 64 <= lim) {
		utfconv_u16x32 b;

		a = utfconv_z_units(s, le);
		b = utfconv_z_units(s + 64, le);
		if (utfconv_z_test16(a | b, k->xff80))
			break;
		utfconv_z_narrow(d, a);
		utfconv_z_narrow(d + 32, b);
		s += 128;
		d += 64;
	}
	*sp = s;
	*dp = d;
	return (s - s0) / 2;
}

static __always_inline UTFCONV_AVX512
u64 utfconv_avx512_utf16(const u8 **sp, const u8 *se, u8 **dp, u8 *de, bool le)
{
	const struct utfconv_z_k16 k = {
		.xff80 = utfconv_z_set16(0xFF80),
		.xf800 = utfconv_z_set16(0xF800),
		.xfc00 = utfconv_z_set16(0xFC00),
		.xd800 = utfconv_z_set16(0xD800),
		.xdc00 = utfconv_z_set16(0xDC00),
		.lay_lo = utfconv_z_load(utfconv_z_lay_lo),
		.lay_hi = utfconv_z_load(utfconv_z_lay_hi),
	};
	const u8 *s = *sp, *lim;
	u8 *d = *dp;
	bool stop = false;
	u64 ncp = 0;

	while (!stop && utfconv_utf16_room(s, se, d, de)) {
		lim = utfconv_z_utf16_lim(s, se, d, de);
		do {
			utfconv_u16x32 a = utfconv_z_units(s, le);
			u32 two = utfconv_z_test16(a, k.xff80);

			if (!two) {
				ncp += utfconv_z_utf16_ascii(&k, &s, &d, a, lim, le);
				continue;
			}
			ncp += utfconv_z_utf16_step(&k, &s, &d, a, two, le,
						    &stop);
		} while (!stop && s <= lim);
	}
	*sp = s;
	*dp = d;
	return ncp;
}

/* The path from UTF-16, each instance with its @le constant. */
static noinline UTFCONV_AVX512 u64 utfconv_avx512_utf16_all(const u8 **sp,
							    const u8 *se,
							    u8 **dp, u8 *de,
							    bool le)
{
	return le ? utfconv_avx512_utf16(sp, se, dp, de, true) :
		    utfconv_avx512_utf16(sp, se, dp, de, false);
}

/**
 * utfconv_avx512_from_utf16() - convert well-formed UTF-16 to UTF-8, AVX-512
 * @sp: in/out: next input byte
 * @se: end of the input
 * @cep: out: end of the input this call's budget allowed, as for
 *	utfconv_avx512_from_utf8(): %UTFCONV_SIMD_CHUNK bytes on
 * @dp: in/out: next output byte
 * @de: end of the output buffer
 * @le: UTF-16LE input, else UTF-16BE
 *
 * Converts whole characters (surrogate pairs included, unpaired
 * surrogates left for the careful path) while the input and output left
 * cover a block's worst case, one FPU section's worth.
 *
 * Context: Between kernel_fpu_begin() and kernel_fpu_end(), on a CPU
 * with the instructions named at the top of this file.
 * Return: the number of code points converted; *@sp and *@dp advanced.
 */
u64 utfconv_avx512_from_utf16(const u8 **sp, const u8 *se, const u8 **cep,
			      u8 **dp, u8 *de, bool le)
{
	const u8 *ce = utfconv_simd_cut(*sp, se, UTFCONV_SIMD_CHUNK);

	*cep = ce;
	return utfconv_avx512_utf16_all(sp, ce, dp, de, le);
}
