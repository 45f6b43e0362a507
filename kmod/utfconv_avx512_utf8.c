// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: AVX-512 path from UTF-8 to UTF-16 for x86-64
 *
 * Built and run as utfconv_avx512.h says.
 *
 * UTF-8 to UTF-16, 64 bytes a block, in runs of blocks of ASCII and of
 * well-formed one- to three-byte sequences (every script of the BMP,
 * utfconv_z_utf8_run()): each block moves on by 64 bytes whatever its
 * bytes, so that where the next one starts never waits on this one's
 * (a block decodes a character its end cuts from the bytes after it,
 * and the next block checks those as the continuation bytes it must
 * start with, or the run ends and undoes that character). A block is
 * classified in a few compares into 64-bit masks; a block of ASCII is
 * widened by two zero-extending loads, one of 21 three-byte sequences
 * (CJK) gathered into its lanes by two vpermb (and moves on by 63);
 * otherwise each byte is decoded in a 16-bit lane as if a character
 * started there, from itself and the one or two bytes after it (two or
 * three zero-extending loads per 32 lanes, the leads' bits taken off by
 * merge-masked subtractions), and vpcompressw keeps the lanes where
 * characters start, in order. A block that is not such (four-byte
 * sequences, anything ill-formed) goes to the steps, until one without
 * a four-byte lead (utfconv_z_utf8_steps()): each byte is classified in
 * one compare per kind into 64-bit masks (continuation bytes, leads of
 * three bytes and more, and, through a 64-byte vpermb table indexed by
 * the low six bits of the leads, the leads that need a look at the byte
 * after them: C0, C1, E0, ED and F0 on), and the masks, in
 * general-purpose registers, say where the characters start, whether
 * every lead has exactly its continuation bytes and where the step must
 * end: at the last character that starts in the 64 bytes (whose bytes
 * the next step loads), or before the first byte that is not part of a
 * well-formed sequence; the characters are decoded in 16-bit lanes as in
 * a run, or, with four-byte sequences, in 32-bit lanes, a quarter at a
 * time (utfconv_z_utf8_four()), 16 four-byte ones (emoji) in place. The
 * ASCII run a call starts with goes through a loop whose loads and
 * stores are aligned (utfconv_z_utf8_ascii_aligned()), or where that
 * cannot start, through the AVX2 path's (utfconv_avx2_utf8_lead());
 * ASCII the input ends with, too short for the loops, goes through
 * masked loads and stores (utfconv_z_utf8_tail()) rather than the
 * careful path.
 */

#include <linux/build_bug.h>

#include "utfconv_avx512.h"

/*
 * vpermb's table for the leads (the low six bits of C0..FF): bit 0 a lead
 * that no well-formed sequence has (C0, C1, F5..FF); the leads whose
 * second byte has a narrower range: bit 1 E0 (A0..BF), bit 2 ED (80..9F),
 * bit 3 F0 (90..BF), bit 4 F4 (80..8F); bit 5 the four-byte leads.
 */
#define UTFCONV_Z_BAD	0x01
#define UTFCONV_Z_E0	0x02
#define UTFCONV_Z_ED	0x04
#define UTFCONV_Z_F0	0x08
#define UTFCONV_Z_F4	0x10
#define UTFCONV_Z_FOUR	0x20

static const u8 utfconv_z_leads[64] __aligned(64) = {
	[0x00] = UTFCONV_Z_BAD, [0x01] = UTFCONV_Z_BAD,
	[0x20] = UTFCONV_Z_E0, [0x2D] = UTFCONV_Z_ED,
	[0x30] = UTFCONV_Z_FOUR | UTFCONV_Z_F0,
	[0x31 ... 0x33] = UTFCONV_Z_FOUR,
	[0x34] = UTFCONV_Z_FOUR | UTFCONV_Z_F4,
	[0x35 ... 0x3F] = UTFCONV_Z_BAD,
};

/* The classes of the 64 bytes of a step, as masks, byte 0 in bit 0. */
struct utfconv_z_utf8 {
	u64 cont;	/* 80..BF */
	u64 lead;	/* C0..FF */
	u64 three;	/* E0..FF */
	u64 four;	/* F0..F4 */
	u64 odd;	/* leads of no well-formed sequence, see below */
	u64 expect;	/* where the leads want continuation bytes */
};

/* Constants the loops keep in registers. */
struct utfconv_z_k8 {
	utfconv_u8x64 leads, c0, e0, a0, x90, any, bad, xe0, xed, xf0, xf4,
		      four, run3_tail, run3_lead;
	utfconv_u16x32 x3f, x3080, x2080;
};

/*
 * The classes of @v's bytes into @c. @c->odd: the leads of no well-formed
 * sequence: bad ones, or E0, ED, F0 or F4 followed by a byte outside the
 * range of their second bytes (overlong forms, surrogates, beyond
 * U+10FFFF, or a lead without continuation bytes). A lead at byte 63 is
 * never decoded by a step (it ends before it), so that the byte after
 * it, beyond the 64, does not matter.
 */
static __always_inline UTFCONV_AVX512
void utfconv_z_classify(const struct utfconv_z_k8 *k, utfconv_u8x64 v,
			struct utfconv_z_utf8 *c)
{
	u64 hi = utfconv_z_msb(v), lt_c0 = utfconv_z_lt(v, k->c0);
	u64 lt_a0, lt_90, odd = 0, four = 0;
	utfconv_u8x64 t;

	c->cont = hi & lt_c0;
	c->lead = hi & ~lt_c0;
	c->three = c->lead & ~utfconv_z_lt(v, k->e0);
	c->expect = c->lead << 1 | c->three << 2;
	t = utfconv_z_permb(k->leads, v, c->lead);
	if (utfconv_z_test8(t, k->any)) {
		/* bit p: the byte after p is below A0 */
		lt_a0 = utfconv_z_lt(v, k->a0) >> 1;
		odd = utfconv_z_test8(t, k->bad) |
		      (utfconv_z_test8(t, k->xe0) & lt_a0) |
		      (utfconv_z_test8(t, k->xed) & ~lt_a0);
		four = utfconv_z_test8(t, k->four);
	}
	if (unlikely(four)) {
		/* bit p: the byte after p is below 90 */
		lt_90 = utfconv_z_lt(v, k->x90) >> 1;
		odd |= (utfconv_z_test8(t, k->xf0) & lt_90) |
		       (utfconv_z_test8(t, k->xf4) & ~lt_90);
		c->expect |= four << 3;
	}
	c->odd = odd;
	c->four = four;
}

/*
 * Where a step that found @c in its 64 bytes ends: before the last
 * character that starts in them, or, where a byte before that is not
 * part of a well-formed sequence the step decodes, before the first
 * such byte or before the sequence it cuts short; 0 where the first
 * character is such. *@stop: the step ends at such a byte, which the
 * careful path must look at.
 */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_utf8_end(const struct utfconv_z_utf8 *c, bool *stop)
{
	u64 starts = ~c->cont & ~1ULL, err;
	unsigned int end, e;

	if (!starts) {
		*stop = true;
		return 0;
	}
	end = utfconv_z_last(starts);
	/* a mismatch at @end itself: the sequence before it is short */
	err = ((c->cont ^ c->expect) & ((2ULL << end) - 1)) |
	      (c->odd & ((1ULL << end) - 1));
	*stop = err;
	if (!err)
		return end;
	e = __builtin_ctzll(err);
	if (!(c->expect >> e & 1))
		return e;
	/* a lead without its continuation bytes: end before it */
	starts &= (1ULL << e) - 1;
	return starts ? utfconv_z_last(starts) : 0;
}

/* The classes of a block of utfconv_z_utf8_run(), byte 0 in bit 0. */
struct utfconv_z_run {
	u64 hi;		/* 80..FF */
	u64 cont;	/* 80..BF */
	u64 two;	/* C2..DF */
	u64 three;	/* E0..EF */
	u64 carry;	/* continuation bytes of the block before's last lead */
};

/*
 * Half @h (0: bytes 0-31, 32: bytes 32-63) of 64 bytes at @s of one- to
 * three-byte sequences (three-byte ones only if @three): each byte
 * decoded in a 16-bit lane as the character that would start there, from
 * it and the bytes after it (@b->two: the two-byte leads, @b->three: the
 * three-byte ones), the lanes of @keep packed at @d in UTF-16BE if @be,
 * else in UTF-16LE (64 bytes written). @x3080 and @x2080: those values
 * in every lane. Returns the units written.
 */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_utf8_half(const u8 *s, u8 *d,
				 const struct utfconv_z_run *b, u64 keep,
				 utfconv_u16x32 x3080, utfconv_u16x32 x2080,
				 unsigned int h, bool three, bool be)
{
	utfconv_u16x32 b0 = utfconv_z_zext8(s + h), t, u;
	u32 m = keep >> h;

	/*
	 * (b0 << 6) + c1 and (b0 << 12) + (c1 << 6) + c2, in 16 bits, less
	 * the lead's and the continuation bytes' fixed bits, are the code
	 * points of two- and three-byte sequences
	 */
	t = (b0 << 6) + utfconv_z_zext8(s + h + 1);
	u = utfconv_z_msub16(b0, b->two >> h, t, x3080);
	if (three)
		u = utfconv_z_msub16(u, b->three >> h,
				     (t << 6) + utfconv_z_zext8(s + h + 2),
				     x2080);
	if (be)
		u = u << 8 | u >> 8;
	u = utfconv_z_compress16(u, m);
	__builtin_memcpy(d, &u, sizeof(u));
	return __builtin_popcount(m);
}

/* The 16 bytes at @s zero-extended to 32-bit lanes (vpmovzxbd). */
static __always_inline UTFCONV_AVX512
utfconv_u32x16 utfconv_z_zext8x4(const u8 *s)
{
	utfconv_u32x16 r;

	asm("vpmovzxbd %1, %0" : "=v" (r) : "m" (*(const u8 (*)[16])s));
	return r;
}

/*
 * A quarter @q (bytes 16q to 16q + 15) of a step with four-byte
 * sequences: each byte decoded in a 32-bit lane as the character that
 * would start there, from it and the three bytes after it, a four-byte
 * one as its surrogate pair (lead surrogate in the low half), and the
 * units of the lanes of @keep stored at @d, nothing after them. Returns
 * the units written.
 */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_utf8_quarter(const u8 *s, u8 *d,
				    const struct utfconv_z_utf8 *c, u64 keep,
				    unsigned int q, bool be)
{
	const u8 *p = s + 16 * q;
	utfconv_u32x16 b0 = utfconv_z_zext8x4(p);
	utfconv_u32x16 t = b0 << 6 | (utfconv_z_zext8x4(p + 1) & 0x3F), u, x;
	utfconv_u16x32 r;
	u32 m = keep >> 16 * q & 0xFFFF, four = c->four >> 16 * q & m;
	u32 words = __builtin_ia32_pdep_si(m, 0x55555555) |
		    __builtin_ia32_pdep_si(four, 0xAAAAAAAA);

	u = utfconv_z_blend32(b0, t & 0x7FF, c->lead >> 16 * q);
	t = t << 6 | (utfconv_z_zext8x4(p + 2) & 0x3F);
	u = utfconv_z_blend32(u, t & 0xFFFF, c->three >> 16 * q);
	t = (t << 6 | (utfconv_z_zext8x4(p + 3) & 0x3F)) - 0x10000;
	x = (0xD800 | (t >> 10 & 0x3FF)) | (0xDC00 | (t & 0x3FF)) << 16;
	u = utfconv_z_blend32(u, x, four);
	if (be)
		u = (u << 8 & 0xFF00FF00) | (u >> 8 & 0x00FF00FF);
	r = utfconv_z_compress16((utfconv_u16x32)u, words);
	utfconv_z_store8(d, (utfconv_u8x64)r, 2 * __builtin_popcount(words));
	return __builtin_popcount(words);
}

/*
 * A step with four-byte sequences: the characters of @keep, which end
 * at @end, in four quarters. Returns the code points converted, *@sp and
 * *@dp advanced.
 */
static noinline UTFCONV_AVX512 unsigned int
utfconv_z_utf8_four(const u8 **sp, u8 **dp, utfconv_u8x64 v,
		    const struct utfconv_z_utf8 *c, u64 keep, unsigned int end,
		    bool be)
{
	unsigned int q, n = 0;

	/* 16 four-byte sequences, each in its 32-bit lane (emoji) */
	if (c->four == 0x1111111111111111ULL && c->cont == ~c->four &&
	    !c->odd) {
		utfconv_u32x16 x = (utfconv_u32x16)v, t;

		t = ((x & 0x07) << 18 | (x & 0x3F00) << 4 |
		     (x >> 10 & 0xFC0) | (x >> 24 & 0x3F)) - 0x10000;
		x = (0xD800 | t >> 10) | (0xDC00 | (t & 0x3FF)) << 16;
		if (be)
			x = (x << 8 & 0xFF00FF00) | (x >> 8 & 0x00FF00FF);
		__builtin_memcpy(*dp, &x, sizeof(x));
		*sp += 64;
		*dp += 64;
		return 16;
	}
	for (q = 0; q < 4; q++)
		n += utfconv_z_utf8_quarter(*sp, *dp + 2 * n, c, keep, q, be);
	*sp += end;
	*dp += 2 * n;
	return __builtin_popcountll(keep);
}

/* Lead bytes at 0, 3, ..., 60: a run of 21 three-byte sequences. */
#define UTFCONV_Z_RUN3	0x1249249249249249ULL

/*
 * vpermb's picks for such a run: in 16-bit lane i the third and second
 * bytes of sequence i (utfconv_z_run3_tail), its first byte
 * (utfconv_z_run3_lead); lanes 21 to 31 are scratch.
 */
static const u8 utfconv_z_run3_tail[64] __aligned(64) = {
	2, 1, 5, 4, 8, 7, 11, 10, 14, 13, 17, 16,
	20, 19, 23, 22, 26, 25, 29, 28, 32, 31, 35, 34,
	38, 37, 41, 40, 44, 43, 47, 46, 50, 49, 53, 52,
	56, 55, 59, 58, 62, 61,
};

static const u8 utfconv_z_run3_lead[64] __aligned(64) = {
	0, 0, 3, 0, 6, 0, 9, 0, 12, 0, 15, 0,
	18, 0, 21, 0, 24, 0, 27, 0, 30, 0, 33, 0,
	36, 0, 39, 0, 42, 0, 45, 0, 48, 0, 51, 0,
	54, 0, 57, 0, 60, 0,
};

/*
 * Whether the 63 bytes of a step that found @c are 21 well-formed
 * three-byte sequences (CJK, Indic, Thai) and byte 63 starts the next
 * character.
 */
static __always_inline UTFCONV_AVX512
bool utfconv_z_is_run3(const struct utfconv_z_utf8 *c)
{
	const u64 m63 = ~0ULL >> 1;

	return (c->lead & m63) == UTFCONV_Z_RUN3 &&
	       (c->three & m63) == UTFCONV_Z_RUN3 && !(c->four & m63) &&
	       c->cont == (~UTFCONV_Z_RUN3 & m63) && !(c->odd & m63);
}

/*
 * Such a run @v decoded at @d (64 bytes written, 42 of them the units):
 * each sequence's bytes gathered into its 16-bit lane by two vpermb, no
 * compress. Returns the code points converted.
 */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_utf8_run3(utfconv_u8x64 tail, utfconv_u8x64 lead,
				 utfconv_u16x32 x3f, utfconv_u8x64 v, u8 *d,
				 bool be)
{
	utfconv_u16x32 w, l, u;

	w = (utfconv_u16x32)utfconv_z_permb(v, tail, ~0ULL);
	l = (utfconv_u16x32)utfconv_z_permb(v, lead, ~0ULL);
	u = l << 12 | (w >> 2 & 0xFC0) | (w & x3f);
	if (be)
		u = u << 8 | u >> 8;
	__builtin_memcpy(d, &u, sizeof(u));
	return 21;
}

/*
 * One step at *@sp of at most 64 bytes, not all ASCII: the characters
 * that start in them up to utfconv_z_utf8_end()'s end, decoded at *@dp
 * (128 bytes written). Returns the code points converted, *@sp and *@dp
 * advanced; *@stop as utfconv_z_utf8_end(); *@run: no four-byte lead
 * among the 64, so that the next block is likely one of
 * utfconv_z_utf8_run().
 */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_utf8_step(const struct utfconv_z_k8 *k, const u8 **sp,
				 u8 **dp, utfconv_u8x64 v, bool be, bool *run,
				 bool *stop)
{
	struct utfconv_z_run r;
	struct utfconv_z_utf8 c;
	unsigned int end, n;
	bool three;
	u64 keep;

	utfconv_z_classify(k, v, &c);
	*run = !c.four;
	if (utfconv_z_is_run3(&c)) {
		*sp += 63;
		*dp += 42;
		return utfconv_z_utf8_run3(k->run3_tail, k->run3_lead, k->x3f,
					   v, *dp - 42, be);
	}
	end = utfconv_z_utf8_end(&c, stop);
	keep = ~c.cont & ((1ULL << end) - 1);
	if (unlikely(c.four & keep))
		return utfconv_z_utf8_four(sp, dp, v, &c, keep, end, be);
	r.two = c.lead & ~c.three;
	r.three = c.three;
	three = c.three & keep;
	n = utfconv_z_utf8_half(*sp, *dp, &r, keep, k->x3080, k->x2080, 0,
				three, be);
	n += utfconv_z_utf8_half(*sp, *dp + 2 * n, &r, keep, k->x3080,
				 k->x2080, 32, three, be);
	*sp += end;
	*dp += 2 * n;
	return n;
}

/* The 64 ASCII bytes at @s as code units at @d (128 bytes). */
static __always_inline UTFCONV_AVX512
void utfconv_z_utf8_ascii(const u8 *s, u8 *d, bool be)
{
	utfconv_u16x32 lo = utfconv_z_zext8(s), hi = utfconv_z_zext8(s + 32);

	if (be) {
		lo <<= 8;
		hi <<= 8;
	}
	__builtin_memcpy(d, &lo, sizeof(lo));
	__builtin_memcpy(d + 64, &hi, sizeof(hi));
}

/* Constants of utfconv_z_utf8_run(). */
struct utfconv_z_k2 {
	utfconv_u8x64 c0, x3e, x1e, x20, x10, a0, e0, ed, run3_tail,
		      run3_lead;
	utfconv_u16x32 x3f, x3080, x2080;
};

/*
 * Whether the block @v, whose bytes from 0x80 up are @b->hi, holds
 * only ASCII and well-formed two-byte sequences, its first bytes
 * continuation bytes exactly where @b->carry says, a lead at byte 63
 * allowed (its continuation byte is the next block's byte 0). Sets
 * @b->cont, @b->two and @b->three.
 */
static __always_inline UTFCONV_AVX512
bool utfconv_z_run_two(const struct utfconv_z_k2 *k, utfconv_u8x64 v,
		       struct utfconv_z_run *b)
{
	/* 80..BF are the bytes below C0 as signed, C2..DF the leads */
	b->cont = utfconv_z_cmp8(v, k->c0, 1, true);
	b->two = utfconv_z_lt(v + k->x3e, k->x1e);
	b->three = 0;
	return b->cont == (b->two << 1 | b->carry) &&
	       b->hi == (b->cont | b->two);
}

/*
 * As utfconv_z_run_two(), for one- to three-byte sequences, the byte
 * after each lead (@s + 1 on, byte 64 included) in the range of its
 * second bytes: no overlong form, no surrogate.
 */
static __always_inline UTFCONV_AVX512
bool utfconv_z_run_three(const struct utfconv_z_k2 *k, const u8 *s,
			 utfconv_u8x64 v, struct utfconv_z_run *b)
{
	u64 lt_a0;

	b->three = utfconv_z_lt(v + k->x20, k->x10);
	if (b->hi != (b->cont | b->two | b->three) ||
	    b->cont != ((b->two | b->three) << 1 | b->three << 2 | b->carry))
		return false;
	/* bit p: the byte after p is below A0 */
	lt_a0 = utfconv_z_lt(utfconv_z_load(s + 1), k->a0);
	return !((utfconv_z_cmp8(v, k->e0, 0, false) & lt_a0) |
		 (utfconv_z_cmp8(v, k->ed, 0, false) & ~lt_a0));
}

/*
 * One block of utfconv_z_utf8_run() at *@sp, decoded at @d: its
 * characters, one of them cut by its end included, whose continuation
 * bytes go to @b->carry for the next block to check (*@back: how far
 * before the next block that character starts). Returns the units
 * written, 0 where the block is not such (nothing done then); *@sp
 * advanced: by 64 bytes, or by 63 for 21 three-byte sequences.
 */
static __always_inline UTFCONV_AVX512
unsigned int utfconv_z_run_block(const struct utfconv_z_k2 *k, const u8 **sp,
				 u8 *d, struct utfconv_z_run *b,
				 unsigned int *back, bool be)
{
	const u8 *s = *sp;
	utfconv_u8x64 v = utfconv_z_load(s);
	const u64 m63 = ~0ULL >> 1;
	unsigned int n;

	b->hi = utfconv_z_msb(v);
	if (!(b->hi | b->carry)) {
		utfconv_z_utf8_ascii(s, d, be);
		*sp = s + 64;
		return 64;
	}
	if (utfconv_z_run_two(k, v, b)) {
		n = utfconv_z_utf8_half(s, d, b, ~b->cont, k->x3080, k->x2080, 0,
					false, be);
		n += utfconv_z_utf8_half(s, d + 2 * n, b, ~b->cont, k->x3080,
					 k->x2080, 32, false, be);
	} else if (!utfconv_z_run_three(k, s, v, b)) {
		return 0;
	} else if (!b->carry && (b->three & m63) == UTFCONV_Z_RUN3 &&
		   !(b->two & m63)) {
		/* the character at 63 is the next block's */
		*sp = s + 63;
		return utfconv_z_utf8_run3(k->run3_tail, k->run3_lead, k->x3f,
					   v, d, be);
	} else {
		n = utfconv_z_utf8_half(s, d, b, ~b->cont, k->x3080, k->x2080, 0,
					true, be);
		n += utfconv_z_utf8_half(s, d + 2 * n, b, ~b->cont, k->x3080,
					 k->x2080, 32, true, be);
	}
	*back = (b->two | b->three) >> 63 ? 1 : 2;
	b->carry = (b->two | b->three) >> 63 | b->three >> 62;
	*sp = s + 64;
	return n;
}

/*
 * A run of blocks of ASCII and well-formed one- to three-byte sequences
 * from *@sp (all scripts of the BMP), up to the first block that is not
 * such or past @lim. A block moves on by 64 bytes (63 for 21 three-byte
 * sequences), so that where the next one starts does not wait for this
 * one's bytes: it decodes the characters that start in it, one cut by
 * its end too, whose continuation bytes the next block checks and
 * skips. Returns the code points converted, *@sp and *@dp advanced to
 * the start of a character.
 */
static __always_inline UTFCONV_AVX512
u64 utfconv_z_utf8_run(const u8 **sp, u8 **dp, const u8 *lim, bool be)
{
	const struct utfconv_z_k2 k = {
		.c0 = utfconv_z_set8(0xC0),
		.x3e = utfconv_z_set8(0x3E),
		.x1e = utfconv_z_set8(0x1E),
		.x20 = utfconv_z_set8(0x20),
		.x10 = utfconv_z_set8(0x10),
		.a0 = utfconv_z_set8(0xA0),
		.e0 = utfconv_z_set8(0xE0),
		.ed = utfconv_z_set8(0xED),
		.run3_tail = utfconv_z_load(utfconv_z_run3_tail),
		.run3_lead = utfconv_z_load(utfconv_z_run3_lead),
		.x3f = utfconv_z_set16(0x3F),
		.x3080 = utfconv_z_set16(0x3080),
		.x2080 = utfconv_z_set16(0x2080),
	};
	struct utfconv_z_run b = { .carry = 0 };
	const u8 *s = *sp;
	u8 *d = *dp;
	unsigned int n, back = 0;
	u64 ncp = 0;

	do {
		n = utfconv_z_run_block(&k, &s, d, &b, &back, be);
		d += 2 * n;
		ncp += n;
	} while (n && s <= lim);
	/* the last block's cut character: its unit is written */
	if (b.carry) {
		if ((s8)s[0] < -64 && (b.carry == 1 || (s8)s[1] < -64)) {
			s += b.carry == 1 ? 1 : 2;
		} else {
			s -= back;
			d -= 2;
			ncp--;
		}
	}
	*sp = s;
	*dp = d;
	return ncp;
}

/*
 * The last input position at which a step of utfconv_avx512_utf8() may
 * start, for the steps from @s and @d on, where utfconv_utf8_room()
 * holds: a step never writes more than two output bytes per input byte
 * it takes, nor more than 128 bytes, nor reads past 72 bytes from where
 * it starts, so every step that starts at or before it has the room.
 */
static __always_inline UTFCONV_AVX512
const u8 *utfconv_z_utf8_lim(const u8 *s, const u8 *se, const u8 *d,
			     const u8 *de)
{
	size_t in = se - s - (UTFCONV_UTF8_BLOCK + 8);
	size_t out = de - d - (2 * UTFCONV_UTF8_BLOCK + 16);

	return s + min_t(size_t, in, out / 2);
}

/*
 * Steps of utfconv_z_utf8_step() from *@sp, up to @lim, up to where one
 * finds no four-byte lead, or up to where one sets *@stop.
 * Returns the code points converted, *@sp and *@dp advanced.
 */
static __always_inline UTFCONV_AVX512
u64 utfconv_z_utf8_steps(const u8 **sp, u8 **dp, const u8 *lim, bool be,
			 bool *stop)
{
	const struct utfconv_z_k8 k = {
		.leads = utfconv_z_load(utfconv_z_leads),
		.run3_tail = utfconv_z_load(utfconv_z_run3_tail),
		.run3_lead = utfconv_z_load(utfconv_z_run3_lead),
		.c0 = utfconv_z_set8(0xC0),
		.e0 = utfconv_z_set8(0xE0),
		.a0 = utfconv_z_set8(0xA0),
		.x90 = utfconv_z_set8(0x90),
		.any = utfconv_z_set8(0x3F),
		.bad = utfconv_z_set8(UTFCONV_Z_BAD),
		.xe0 = utfconv_z_set8(UTFCONV_Z_E0),
		.xed = utfconv_z_set8(UTFCONV_Z_ED),
		.xf0 = utfconv_z_set8(UTFCONV_Z_F0),
		.xf4 = utfconv_z_set8(UTFCONV_Z_F4),
		.four = utfconv_z_set8(UTFCONV_Z_FOUR),
		.x3f = utfconv_z_set16(0x3F),
		.x3080 = utfconv_z_set16(0x3080),
		.x2080 = utfconv_z_set16(0x2080),
	};
	const u8 *s = *sp;
	u8 *d = *dp;
	bool run = false, halt = false;
	u64 ncp = 0;

	/* a local @halt: *@stop might alias the output */
	do {
		utfconv_u8x64 v = utfconv_z_load(s);

		if (!utfconv_z_msb(v)) {
			utfconv_z_utf8_ascii(s, d, be);
			s += 64;
			d += 128;
			ncp += 64;
			continue;
		}
		ncp += utfconv_z_utf8_step(&k, &s, &d, v, be, &run, &halt);
	} while (!halt && !run && s <= lim);
	*stop = halt;
	*sp = s;
	*dp = d;
	return ncp;
}

/*
 * utfconv_z_utf8_run() if @run, else utfconv_z_utf8_steps(), each loop
 * with its constants in its own registers.
 */
static noinline UTFCONV_AVX512
u64 utfconv_z_utf8_loop(const u8 **sp, u8 **dp, const u8 *lim, bool run,
			bool be, bool *stop)
{
	if (run)
		return be ? utfconv_z_utf8_run(sp, dp, lim, true) :
			    utfconv_z_utf8_run(sp, dp, lim, false);
	return be ? utfconv_z_utf8_steps(sp, dp, lim, true, stop) :
		    utfconv_z_utf8_steps(sp, dp, lim, false, stop);
}

static __always_inline UTFCONV_AVX512
u64 utfconv_avx512_utf8(const u8 **sp, const u8 *se, u8 **dp, u8 *de, bool be)
{
	const u8 *s = *sp, *lim;
	u8 *d = *dp;
	bool stop = false, run = true;
	u64 ncp = 0;

	/*
	 * Where a run of blocks of one- to three-byte sequences ends, steps
	 * take the next blocks, up to one without a four-byte lead, where
	 * a run is likely to follow.
	 */
	while (!stop && utfconv_utf8_room(s, se, d, de)) {
		lim = utfconv_z_utf8_lim(s, se, d, de);
		ncp += utfconv_z_utf8_loop(&s, &d, lim, run, be, &stop);
		run = !run;
	}
	*sp = s;
	*dp = d;
	return ncp;
}

/* The path from UTF-8, each instance with its @be constant. */
static noinline UTFCONV_AVX512 u64 utfconv_avx512_utf8_all(const u8 **sp,
							   const u8 *se,
							   u8 **dp, u8 *de,
							   bool be)
{
	return be ? utfconv_avx512_utf8(sp, se, dp, de, true) :
		    utfconv_avx512_utf8(sp, se, dp, de, false);
}

/* The @n (at most 32) ASCII bytes @v widened to code units at @d. */
static __always_inline UTFCONV_AVX512
void utfconv_z_utf8_tail32(u8 *d, utfconv_u8x64 v, unsigned int n, bool be)
{
	utfconv_u16x32 u = utfconv_z_widen(v);

	if (be)
		u <<= 8;
	utfconv_z_store8(d, (utfconv_u8x64)u, 2 * n);
}

/*
 * vpermt2b's indices for a run of ASCII read by aligned loads: byte i in
 * both bytes of 16-bit lane i, the one that takes it chosen by a mask.
 */
static const u8 utfconv_z_ascii_idx[64] __aligned(64) = {
	0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7,
	8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15,
	16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22, 22, 23, 23,
	24, 24, 25, 25, 26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31,
};

/*
 * A run of ASCII at *@sp whose loop loads only whole aligned 64-byte
 * blocks and stores only whole cache lines, two aligned 256-bit stores
 * each: where loads or stores cross cache lines, wherever the caller's
 * buffers put them, a run as long as a section is bound by that (as
 * simdutf's kernels are), and 512-bit stores are slower than 256-bit
 * ones on Zen 5. The first 128 bytes are widened by loads and stores as
 * they fall, up to where the output is aligned; from there each 64 bytes
 * of input, which span two aligned blocks, are picked from both into
 * 16-bit lanes by two vpermt2b, zeros in the other byte of each lane.
 * Every load stays within [*@sp, @lim), which is at least 256 bytes
 * past *@sp: an aligned block is loaded only where the run has reached
 * it. Returns the bytes converted (0 where the output is not at an even
 * address, or the run is not 128 bytes of ASCII); *@sp and *@dp
 * advanced.
 */
static __always_inline UTFCONV_AVX512
size_t utfconv_z_utf8_ascii_aligned(const u8 **sp, const u8 *lim, u8 **dp,
				    bool be)
{
	const u8 *s = *sp, *a;
	u8 *d = *dp;
	/* in each lane the low byte: the first of LE, the second of BE */
	const u64 keep = be ? 0xAAAAAAAAAAAAAAAAULL : 0x5555555555555555ULL;
	utfconv_u8x64 cur, nxt, lo, hi;
	size_t k;

	/*
	 * odd output; or input and output that align together, which the
	 * AVX2 path's loop, with fewer instructions, takes faster
	 */
	if (((uintptr_t)d & 1) || !((2 * (uintptr_t)s - (uintptr_t)d) & 63) ||
	    utfconv_z_msb(utfconv_z_load(s) | utfconv_z_load(s + 64)))
		return 0;
	utfconv_z_utf8_ascii(s, d, be);
	utfconv_z_utf8_ascii(s + 64, d + 128, be);
	/* 64 to 95 bytes on: the output aligned, the block at s past *@sp */
	k = 64 + (-(uintptr_t)d & 63) / 2;
	s += k;
	d += 2 * k;
	a = s - ((uintptr_t)s & 63);
	lo = utfconv_z_load(utfconv_z_ascii_idx) + (u8)(s - a);
	hi = lo + 32;
	cur = utfconv_z_load(a);
	if (!utfconv_z_msb(cur)) {
		while (a + 128 <= lim) {
			nxt = utfconv_z_load(a + 64);
			if (utfconv_z_msb(nxt))
				break;
			utfconv_z_store_halves(d, utfconv_z_permt2b_z(cur, lo, nxt,
								      keep));
			utfconv_z_store_halves(d + 64,
					       utfconv_z_permt2b_z(cur, hi, nxt,
								   keep));
			cur = nxt;
			a += 64;
			s += 64;
			d += 128;
		}
	}
	k = s - *sp;
	*sp = s;
	*dp = d;
	return k;
}

/*
 * The start of a section from UTF-8 where it is ASCII: as
 * utfconv_avx2_utf8_lead(), by utfconv_z_utf8_ascii_aligned(). Returns
 * the code points converted, 0 where it converts none (*@cep not set
 * then).
 */
static noinline UTFCONV_AVX512 u64 utfconv_z_utf8_lead(const u8 **sp,
						       const u8 *se,
						       const u8 **cep,
						       u8 **dp, u8 *de,
						       bool be)
{
	const u8 *s0 = *sp;
	const u8 *ce = utfconv_simd_cut(s0, se, (size_t)UTFCONV_SIMD_CHUNK <<
					       UTFCONV_SIMD_ASCII_SHIFT);
	/* the room utfconv_utf8_room() keeps, as the AVX2 path's run */
	size_t last = min_t(size_t, ce - s0, (de - *dp) / 2);
	size_t n;

	/* the aligned loop's 256 bytes, and the room after them */
	if (last < UTFCONV_UTF8_BLOCK + 8 + 256)
		return 0;
	last -= UTFCONV_UTF8_BLOCK + 8;
	n = be ? utfconv_z_utf8_ascii_aligned(sp, s0 + last, dp, true) :
		 utfconv_z_utf8_ascii_aligned(sp, s0 + last, dp, false);
	if (n)
		*cep = utfconv_simd_cut(*sp, se, utfconv_simd_rest(n));
	return n;
}

/*
 * The ASCII bytes the input ends with, where they are fewer than the
 * loops need room for (utfconv_utf8_room()): by masked loads and stores,
 * which touch no byte past @se nor past @de, the three loads of 32 bytes
 * before the one test. Returns the code points converted, 0 where a byte
 * is not ASCII or the output has no room for them all; *@sp and *@dp
 * advanced.
 */
static noinline UTFCONV_AVX512 u64 utfconv_z_utf8_tail(const u8 **sp,
						       const u8 *se, u8 **dp,
						       u8 *de, bool be)
{
	const u8 *s = *sp;
	u8 *d = *dp;
	size_t n = se - s;
	unsigned int k0, k1, k2;
	utfconv_u8x64 v0, v1, v2;

	if (n > UTFCONV_UTF8_BLOCK + 8 || de - d < 2 * n)
		return 0;
	BUILD_BUG_ON(UTFCONV_UTF8_BLOCK + 8 > 3 * 32);
	k0 = min_t(size_t, n, 32);
	k1 = min_t(size_t, n - k0, 32);
	k2 = n - k0 - k1;
	v0 = utfconv_z_load32(s, k0);
	v1 = utfconv_z_load32(s + 32, k1);
	v2 = utfconv_z_load32(s + 64, k2);
	if (utfconv_z_msb(v0 | v1 | v2))
		return 0;
	utfconv_z_utf8_tail32(d, v0, k0, be);
	utfconv_z_utf8_tail32(d + 64, v1, k1, be);
	utfconv_z_utf8_tail32(d + 128, v2, k2, be);
	*sp = se;
	*dp = d + 2 * n;
	return n;
}

/**
 * utfconv_avx512_from_utf8() - convert well-formed UTF-8 to UTF-16, AVX-512
 * @sp: in/out: next input byte
 * @se: end of the input
 * @cep: out: end of the input this call's budget allowed (see
 *	%UTFCONV_SIMD_CHUNK); the call stops up to a block short of it, and
 *	the caller tells that from a stop for the careful path by the room
 *	left before it
 * @dp: in/out: next output byte
 * @de: end of the output buffer
 * @be: UTF-16BE output, else UTF-16LE
 *
 * Converts whole characters (no surrogates: those are for the careful
 * path) while the input and output left cover a block's worst case, and
 * ASCII up to the end of the input where the budget reaches it, one
 * FPU section's worth: %UTFCONV_SIMD_CHUNK bytes, the ASCII run the call
 * starts with at 1 / 2^%UTFCONV_SIMD_ASCII_SHIFT of a byte each (the
 * AVX2 path's budget), widened with aligned loads and stores.
 *
 * Context: Between kernel_fpu_begin() and kernel_fpu_end(), on a CPU
 * with the instructions named at the top of this file.
 * Return: the number of code points converted; *@sp and *@dp advanced.
 */
u64 utfconv_avx512_from_utf8(const u8 **sp, const u8 *se, const u8 **cep,
			     u8 **dp, u8 *de, bool be)
{
	u64 ncp = utfconv_z_utf8_lead(sp, se, cep, dp, de, be);

	if (!ncp)
		ncp = utfconv_avx2_utf8_lead(sp, se, cep, dp, de, be);
	if (utfconv_utf8_room(*sp, *cep, *dp, de))
		ncp += utfconv_avx512_utf8_all(sp, *cep, dp, de, be);
	/* the end of the input within the budget, too short for the loops */
	if (*cep == se && !utfconv_utf8_room(*sp, se, *dp, de))
		ncp += utfconv_z_utf8_tail(sp, se, dp, de, be);
	return ncp;
}
