/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec internals shared by the scalar code (utfconv_utf8.c,
 * utfconv_utf16.c) and the SIMD code (utfconv_sse2.c, utfconv_avx2_*.c,
 * utfconv_avx512_*.c, which run the block paths below inside their FPU
 * sections): byte helpers and the unchecked block paths, portable C; the
 * BMI2 steps they may take are in utfconv_bmi2.h.
 */
#ifndef _UTFCONV_BLOCK_H
#define _UTFCONV_BLOCK_H

#include <linux/bitops.h>
#include <linux/minmax.h>
#include <linux/swab.h>
#include <linux/types.h>
#include <linux/unaligned.h>

#include "utfconv_bmi2.h"

static inline void utfconv_put16(u8 *d, u16 unit, bool be)
{
	if (be)
		put_unaligned_be16(unit, d);
	else
		put_unaligned_le16(unit, d);
}

static inline u16 utfconv_get16(const u8 *s, bool le)
{
	return le ? get_unaligned_le16(s) : get_unaligned_be16(s);
}

/* Write @cp (a scalar value, or a surrogate under WTF-8) as 1-4 bytes. */
static inline unsigned int utfconv_put_utf8(u8 *d, u32 cp)
{
	/* the masks only keep sparse quiet where @cp is a constant */
	if (cp < 0x80) {
		d[0] = cp & 0x7F;
		return 1;
	}
	if (cp < 0x800) {
		d[0] = 0xC0 | ((cp >> 6) & 0x1F);
		d[1] = 0x80 | (cp & 0x3F);
		return 2;
	}
	if (cp < 0x10000) {
		d[0] = 0xE0 | ((cp >> 12) & 0x0F);
		d[1] = 0x80 | ((cp >> 6) & 0x3F);
		d[2] = 0x80 | (cp & 0x3F);
		return 3;
	}
	d[0] = 0xF0 | ((cp >> 18) & 0x07);
	d[1] = 0x80 | ((cp >> 12) & 0x3F);
	d[2] = 0x80 | ((cp >> 6) & 0x3F);
	d[3] = 0x80 | (cp & 0x3F);
	return 4;
}

static inline unsigned int utfconv_utf8_len(u32 cp)
{
	return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* Bytes of UTF-16 for @cp: one code unit or a surrogate pair. */
static inline unsigned int utfconv_utf16_len(u32 cp)
{
	return cp < 0x10000 ? 2 : 4;
}

/* The scalar value of the surrogate pair @lead, @trail. */
static inline u32 utfconv_pair(u16 lead, u16 trail)
{
	return 0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00);
}

/* Write @cp as one code unit or a surrogate pair. */
static inline unsigned int utfconv_put_utf16(u8 *d, u32 cp, bool be)
{
	if (cp < 0x10000) {
		utfconv_put16(d, cp, be);
		return 2;
	}
	cp -= 0x10000;
	utfconv_put16(d, 0xD800 | (cp >> 10), be);
	utfconv_put16(d + 2, 0xDC00 | (cp & 0x3FF), be);
	return 4;
}

/* The low four bytes of @w, each widened to a 16-bit lane. */
static inline u64 utfconv_spread4(u64 w)
{
	w &= 0xFFFFFFFF;
	w = (w | w << 16) & 0x0000FFFF0000FFFFULL;
	return (w | w << 8) & 0x00FF00FF00FF00FFULL;
}

/*
 * Eight ASCII bytes, little-endian in @w, as eight code units at @d; with
 * @bmi2 each four of them in one PDEP into the byte of the unit that
 * holds its value.
 */
static __always_inline void utfconv_put_ascii8(u8 *d, u64 w, bool be,
					       bool bmi2)
{
	const u64 lanes = be ? 0xFF00FF00FF00FF00ULL : 0x00FF00FF00FF00FFULL;
	u64 lo, hi;

	if (UTFCONV_HAVE_BMI2 && bmi2) {
		lo = utfconv_pdep(w, lanes);
		hi = utfconv_pdep(w >> 32, lanes);
	} else {
		lo = utfconv_spread4(w);
		hi = utfconv_spread4(w >> 32);
		if (be) {
			lo <<= 8;
			hi <<= 8;
		}
	}
	put_unaligned_le64(lo, d);
	put_unaligned_le64(hi, d + 8);
}

/* The bytes of each 16-bit lane of @w swapped. */
static inline u64 utfconv_swab16x4(u64 w)
{
	return ((w >> 8) & 0x00FF00FF00FF00FFULL) |
	       ((w & 0x00FF00FF00FF00FFULL) << 8);
}

/* Bit 15 of each 16-bit lane of @w set where that lane is not zero. */
static inline u64 utfconv_nonzero16x4(u64 w)
{
	return (((w & 0x7FFF7FFF7FFF7FFFULL) + 0x7FFF7FFF7FFF7FFFULL) | w) &
	       0x8000800080008000ULL;
}

/*
 * Bit 7 of each byte of @w (little-endian) that ends a run of ASCII: a
 * byte of 0x80 or more, and with @nul a NUL byte too (fs/nls's end of a
 * name). 0 where no byte does; else the lowest bit set is exact, which is
 * all a run's end needs (a NUL borrows from the byte above it, which may
 * be marked too).
 */
static __always_inline u64 utfconv_ascii8_stop(u64 w, bool nul)
{
	if (nul)
		w |= w - 0x0101010101010101ULL;
	return w & 0x8080808080808080ULL;
}

/*
 * As utfconv_ascii8_stop() for four code units in the 16-bit lanes of @w,
 * @le: little-endian ones: bits 7 to 15 of each unit of 0x80 or more, and
 * with @nul bit 15 of a U+0000 unit (little-endian: what is left of the
 * borrow's 0xFFFF under those bits) too.
 */
static __always_inline u64 utfconv_ascii16_stop(u64 w, bool le, bool nul)
{
	const u64 nonascii = le ? 0xFF80FF80FF80FF80ULL : 0x80FF80FF80FF80FFULL;

	if (nul && le)
		return (w | (w - 0x0001000100010001ULL)) & nonascii;
	if (nul)
		return (w & nonascii) |
		       ((w - 0x0001000100010001ULL) & 0x8000800080008000ULL);
	return w & nonascii;
}

/*
 * Bits 11 to 15 of each 16-bit lane of @w of 0x800 or more, and with @nul
 * of a zero lane too (its borrow leaves 0xFFFF; lanes below 0x800 borrow
 * nothing): 0 where all four are 0x1..0x7FF (0x0..0x7FF without @nul).
 */
static __always_inline u64 utfconv_short4_stop(u64 w, bool nul)
{
	if (nul)
		w |= w - 0x0001000100010001ULL;
	return w & 0xF800F800F800F800ULL;
}

/* How many lanes lead before the first with bit 15 set in @bad. */
static inline unsigned int utfconv_lanes16x4(u64 bad)
{
	return bad ? (unsigned int)__ffs64(bad) >> 4 : 4;
}

/*
 * Eight bytes of UTF-8, little-endian in @w, as four 16-bit lanes of a
 * lead byte and the byte after it: how many lanes lead with a well-formed
 * two-byte sequence (110xxxxx 10xxxxxx, the lead not C0 or C1).
 */
static inline unsigned int utfconv_utf8_twos(u64 w)
{
	u64 form = (w & 0xC0E0C0E0C0E0C0E0ULL) ^ 0x80C080C080C080C0ULL;
	u64 bits = (w & 0x001E001E001E001EULL) + 0x7FFF7FFF7FFF7FFFULL;

	return utfconv_lanes16x4(utfconv_nonzero16x4(form) |
				 (~bits & 0x8000800080008000ULL));
}

/* Those four two-byte sequences decoded, each in its lane. */
static inline u64 utfconv_utf8_decode_twos(u64 w)
{
	return ((w & 0x001F001F001F001FULL) << 6) |
	       ((w >> 8) & 0x003F003F003F003FULL);
}

/*
 * Four UTF-16 code units below 0x800 in the 16-bit lanes of @w as UTF-8 at
 * @d, one or two bytes each, in four two-byte stores (an ASCII unit's
 * second byte is scratch, overwritten by the next store or left past the
 * output); returns the bytes of UTF-8.
 */
static inline unsigned int utfconv_utf16_put_short4(u8 *d, u64 w)
{
	/* bit 0 of each lane: the unit is 0x80 or more */
	u64 two = (((w & 0x07FF07FF07FF07FFULL) + 0x7F807F807F807F80ULL) >> 15) &
		  0x0001000100010001ULL;
	u64 enc = 0x80C080C080C080C0ULL | ((w >> 6) & 0x001F001F001F001FULL) |
		  ((w & 0x003F003F003F003FULL) << 8);
	unsigned int i, n = 0;

	/* four two-byte sequences (Cyrillic, Greek, Arabic): one store */
	if (two == 0x0001000100010001ULL) {
		put_unaligned_le64(enc, d);
		return 8;
	}
	w ^= (w ^ enc) & (two * 0xFFFF);
	for (i = 0; i < 64; i += 16) {
		put_unaligned_le16((u16)(w >> i), d + n);
		n += 1 + ((two >> i) & 1);
	}
	return n;
}

/*
 * The block paths convert whole, well-formed characters while the input
 * and output left cover a block's worst case, so that they need no bounds
 * checks; they stop at anything else (ill-formed input, a surrogate, the
 * end of a block too near the end of a buffer) and leave it to the
 * careful per-character path. The SIMD paths hand them one block at a
 * time; the scalar path runs them up to the end the room at its start
 * allows (utfconv_utf8_block()), which is the same check made once. They
 * may write scratch bytes past the output they report, never past the
 * end of the output buffer.
 */
#define UTFCONV_UTF8_BLOCK	64	/* input bytes */
#define UTFCONV_UTF16_BLOCK	32	/* input code units */

/* Room for a UTF-8 block: 2 output bytes per input byte, 8 of lookahead. */
static inline bool utfconv_utf8_room(const u8 *s, const u8 *se, const u8 *d,
				     const u8 *de)
{
	return se - s >= UTFCONV_UTF8_BLOCK + 8 &&
	       de - d >= 2 * UTFCONV_UTF8_BLOCK + 16;
}

/* Room for a UTF-16 block: 3 output bytes per unit, 4 units of lookahead. */
static inline bool utfconv_utf16_room(const u8 *s, const u8 *se, const u8 *d,
				      const u8 *de)
{
	return se - s >= 2 * UTFCONV_UTF16_BLOCK + 8 &&
	       de - d >= 3 * UTFCONV_UTF16_BLOCK + 12;
}

/*
 * The block paths' steps each convert what their kind of input allows at
 * *@sp and advance *@sp and *@dp; those that may meet something for the
 * careful path return 0 there (else the code points converted), the
 * others return nothing. @wide: the scalar path's own call, ASCII sixteen
 * bytes (eight code units) a step; the SIMD paths convert ASCII
 * themselves and keep their one-block calls (utfconv_utf8_block1()),
 * which they inline, small. @nul: the input ends at its first NUL byte
 * or U+0000 unit (fs/nls's end of a name), which only an ASCII step can
 * meet: those steps stop there and return false, so that a name is read
 * once rather than searched for its NUL first. @bmi2: the scalar path's
 * own call where the CPU runs BMI2 fast (utfconv_bmi2_init()): ASCII
 * widened or narrowed and pairs of three-byte sequences decoded with PDEP
 * and PEXT.
 */

/*
 * A run of ASCII bytes up to the first other byte, sixteen at a time
 * while such a step stays within the lookahead after @bend, then eight at
 * a time up to the last eight-byte step that starts before @bend (@wide
 * false: eight at a time only). Takes the bytes by their offset from *@sp,
 * so that the loop keeps one count. False where it stopped at a NUL.
 */
static __always_inline bool
utfconv_utf8_block_ascii(const u8 **sp, u8 **dp, const u8 *bend, bool be,
			 bool wide, bool nul, bool bmi2)
{
	const u8 *s = *sp;
	u8 *d = *dp;
	size_t i = 0, n = bend - s;
	u64 w, top = 0;

	while (wide && i + 8 <= n) {
		u64 w0 = get_unaligned_le64(s + i);
		u64 w1 = get_unaligned_le64(s + i + 8);

		if (nul ? utfconv_ascii8_stop(w0, true) |
			  utfconv_ascii8_stop(w1, true) :
			  utfconv_ascii8_stop(w0 | w1, false))
			break;
		utfconv_put_ascii8(d + 2 * i, w0, be, bmi2);
		utfconv_put_ascii8(d + 2 * i + 16, w1, be, bmi2);
		i += 16;
	}
	for (; i < n; i += 8) {
		w = get_unaligned_le64(s + i);
		top = utfconv_ascii8_stop(w, nul);
		utfconv_put_ascii8(d + 2 * i, w, be, bmi2);
		if (top) {
			/* the ASCII bytes before the first other one */
			i += (unsigned int)__ffs64(top) >> 3;
			break;
		}
	}
	/*
	 * a last step may end past @bend, within the lookahead, and a wide
	 * one at the end of the input: only a byte that stopped the run
	 * may be read
	 */
	*sp = s + i;
	*dp = d + 2 * i;
	return !nul || !top || s[i];
}

/* Up to four two-byte sequences in one step. */
static __always_inline unsigned int utfconv_utf8_block_twos(const u8 **sp,
							    u8 **dp, bool be)
{
	u64 w = get_unaligned_le64(*sp);
	unsigned int n = utfconv_utf8_twos(w);

	if (!n)
		return 0;
	w = utfconv_utf8_decode_twos(w);
	put_unaligned_le64(be ? utfconv_swab16x4(w) : w, *dp);
	*sp += 2 * n;
	*dp += 2 * n;
	return n;
}

/* One two-byte sequence: C2..DF 80..BF. */
static __always_inline unsigned int utfconv_utf8_block_two(const u8 **sp,
							   u8 **dp, bool be)
{
	const u8 *s = *sp;

	if (s[0] < 0xC2 || (s[1] & 0xC0) != 0x80)
		return 0;
	utfconv_put16(*dp, (s[0] & 0x1F) << 6 | (s[1] & 0x3F), be);
	*sp += 2;
	*dp += 2;
	return 1;
}

/*
 * Two three-byte sequences, little-endian in the low six bytes of @w, as
 * two code units in the 16-bit halves of the result: 0 unless both are
 * well-formed (1110xxxx 10xxxxxx 10xxxxxx), not overlong and not
 * surrogate forms, i.e. the top five bits of neither unit are 00000 or
 * 11011 (bits 0 and 27 of the mask, one shift per unit). With @bmi2 one
 * PEXT takes the value bits of both: after a byte swap the first lead
 * byte is the highest, so that both units come out in the order of
 * their bits, the first above the second.
 */
static __always_inline u32 utfconv_utf8_threes(u64 w, bool bmi2)
{
	u32 lo, hi;

	if ((w & 0xC0C0F0C0C0F0ULL) != 0x8080E08080E0ULL)
		return 0;
	if (UTFCONV_HAVE_BMI2 && bmi2) {
		hi = utfconv_pext(swab64(w), 0x0F3F3F0F3F3F0000ULL);
		lo = hi >> 16;
		hi &= 0xFFFF;
	} else {
		lo = (w & 0x0F) << 12 | (w >> 2 & 0xFC0) | (w >> 16 & 0x3F);
		hi = (w >> 12 & 0xF000) | (w >> 26 & 0xFC0) | (w >> 40 & 0x3F);
	}
	if ((0x08000001U >> (lo >> 11) | 0x08000001U >> (hi >> 11)) & 1)
		return 0;
	return lo | hi << 16;
}

/* The three-byte sequence at @s as its code unit, as there; else 0. */
static __always_inline u32 utfconv_utf8_three1(const u8 *s)
{
	u32 cp;

	if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
		return 0;
	cp = (s[0] & 0x0F) << 12 | (s[1] & 0x3F) << 6 | (s[2] & 0x3F);
	if (cp < 0x800 || (cp & 0xF800) == 0xD800)
		return 0;
	return cp;
}

/*
 * A run of three-byte sequences, not overlong, not surrogate forms, up to
 * @bend: a loop of its own, so that its branches predict a run of one
 * script (Devanagari, CJK, Hangul) apart from the way into it; with
 * @wide two at a time from one load while they follow each other. Stops
 * at anything else, 0 where that is its first sequence.
 */
static __always_inline unsigned int
utfconv_utf8_block_three(const u8 **sp, u8 **dp, const u8 *bend, bool be,
			 bool wide, bool bmi2)
{
	const u8 *s = *sp;
	u8 *d = *dp;
	u32 cp;

	do {
		cp = wide ? utfconv_utf8_threes(get_unaligned_le64(s), bmi2) :
			    0;
		if (cp) {
			put_unaligned_le32(be ? (u32)utfconv_swab16x4(cp) : cp,
					   d);
			s += 6;
			d += 4;
		} else {
			cp = utfconv_utf8_three1(s);
			if (!cp)
				break;
			utfconv_put16(d, cp, be);
			s += 3;
			d += 2;
		}
		/*
		 * a space between words of the script: no way out and back
		 * (the scalar path's own call: the SIMD paths' CJK blocks do
		 * better without the test)
		 */
		if (wide && s[0] == ' ' && (s[1] & 0xF0) == 0xE0 &&
		    s + 1 < bend) {
			utfconv_put16(d, ' ', be);
			s++;
			d += 2;
		}
	} while (s < bend && (s[0] & 0xF0) == 0xE0);
	cp = s != *sp;
	*sp = s;
	*dp = d;
	return cp;
}

/* One four-byte sequence, not overlong, not above U+10FFFF. */
static __always_inline unsigned int
utfconv_utf8_block_four(const u8 **sp, u8 **dp, bool be)
{
	const u8 *s = *sp;
	u32 cp;

	if (s[0] > 0xF4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
	    (s[3] & 0xC0) != 0x80)
		return 0;
	cp = (s[0] & 0x07) << 18 | (s[1] & 0x3F) << 12 | (s[2] & 0x3F) << 6 |
	     (s[3] & 0x3F);
	if (cp < 0x10000 || cp > 0x10FFFF)
		return 0;
	utfconv_put_utf16(*dp, cp, be);
	*sp += 4;
	*dp += 4;
	return 1;
}

/*
 * A run of four-byte sequences (emoji), not overlong, not above
 * U+10FFFF, each from one load, as surrogate pairs, up to @bend: the
 * scalar path's own (@wide), as utfconv_utf8_block_three(). Returns the
 * sequences taken, 0 where the first is something else.
 */
static __always_inline unsigned int
utfconv_utf8_block_fours(const u8 **sp, u8 **dp, const u8 *bend, bool be)
{
	const u8 *s = *sp;
	u8 *d = *dp;
	u32 w, cp;

	do {
		w = get_unaligned_le32(s);
		cp = (w & 0x07) << 18 | (w & 0x3F00) << 4 | (w >> 10 & 0xFC0) |
		     (w >> 24 & 0x3F);
		if ((w & 0xC0C0C0F8) != 0x808080F0 || cp - 0x10000 > 0xFFFFF)
			break;
		cp = (0xD7C0 + (cp >> 10)) | (0xDC00 | (cp & 0x3FF)) << 16;
		put_unaligned_le32(be ? (u32)utfconv_swab16x4(cp) : cp, d);
		s += 4;
		d += 4;
	} while (s < bend && s[0] >= 0xF0);
	cp = (s - *sp) / 4;
	*sp = s;
	*dp = d;
	return cp;
}

/*
 * UTF-8 input from *@sp up to @bend, a block or less (a shorter one where
 * the caller has checked utfconv_utf8_room_end()). Returns the code points
 * converted; *@sp before @bend means it stopped at something for the
 * careful path. The count is worked out at the end from the code units
 * written less the surrogate pairs among them (the scalar path's run of
 * four-byte sequences moves @start instead), so that the loop carries no
 * count a register-starved build would keep in memory.
 */
static __always_inline u64
utfconv_utf8_block_to(const u8 **sp, u8 **dp, const u8 *bend, bool be,
		      bool wide, bool nul, bool bmi2)
{
	/* copies the steps can keep in registers: *@sp may be in memory */
	const u8 *s = *sp;
	u8 *d = *dp, *start = d;
	unsigned int n;
	u64 pairs = 0;
	bool ok = true;

	do {
		if (s[0] < 0x80 && s[1] >= 0x80 && (!nul || s[0])) {
			/* one ASCII byte between others: a space, a digit */
			utfconv_put16(d, s[0], be);
			s++;
			d += 2;
		} else if (s[0] < 0x80) {
			ok &= utfconv_utf8_block_ascii(&s, &d, bend, be, wide,
						       nul, bmi2);
		} else if (s[0] < 0xE0 && (s[2] & 0xE0) == 0xC0) {
			ok = utfconv_utf8_block_twos(&s, &d, be);
		} else if (s[0] < 0xE0) {
			ok = utfconv_utf8_block_two(&s, &d, be);
		} else if (s[0] < 0xF0) {
			ok = utfconv_utf8_block_three(&s, &d, bend, be, wide,
						      bmi2);
		} else if (wide) {
			/* a pair per sequence: the count sees one unit */
			n = utfconv_utf8_block_fours(&s, &d, bend, be);
			start += 2 * n;
			ok = n;
		} else {
			ok = utfconv_utf8_block_four(&s, &d, be);
			pairs += ok;
		}
	} while (ok && s < bend);
	*sp = s;
	*dp = d;
	return (d - start) / 2 - pairs;
}

/* One block of UTF-8 input: the caller has checked utfconv_utf8_room(). */
static __always_inline unsigned int utfconv_utf8_block1(const u8 **sp,
							u8 **dp, bool be)
{
	return utfconv_utf8_block_to(sp, dp, *sp + UTFCONV_UTF8_BLOCK, be,
				     false, false, false);
}

/*
 * Four ASCII code units, little-endian in the 16-bit lanes of @w (their
 * high bytes zero), as four bytes.
 */
static inline u32 utfconv_gather4(u64 w)
{
	w = (w | w >> 8) & 0x0000FFFF0000FFFFULL;
	return (u32)(w | w >> 16);
}

/*
 * Four ASCII code units in the 16-bit lanes of @w, byte order @le, as
 * four bytes; with @bmi2 one PEXT of the bytes that hold their values.
 */
static __always_inline u32 utfconv_ascii4(u64 w, bool le, bool bmi2)
{
	const u64 values = le ? 0x00FF00FF00FF00FFULL : 0xFF00FF00FF00FF00ULL;

	if (UTFCONV_HAVE_BMI2 && bmi2)
		return utfconv_pext(w, values);
	return utfconv_gather4(le ? w : w >> 8);
}

/*
 * A run of ASCII code units, four at a time, and after each four of them
 * eight at a time while such a step stays within the lookahead after
 * @bend (a short run between accented letters then fails on no more than
 * four); the four where it ends as well when none of them needs three
 * bytes (accented letters in Latin-script text), else up to the first
 * other unit (@wide false: four at a time only, up to the first other
 * unit). As utfconv_utf8_block_ascii().
 */
static __always_inline bool
utfconv_utf16_block_ascii(const u8 **sp, u8 **dp, const u8 *bend, bool le,
			  bool wide, bool nul, bool bmi2)
{
	const u64 nonascii = le ? 0xFF80FF80FF80FF80ULL : 0x80FF80FF80FF80FFULL;
	const u8 *s = *sp;
	u8 *d = *dp;
	size_t i = 0, n = bend - s;
	u64 w = 0, top = 0;

	for (; i < n; i += 8) {
		w = get_unaligned_le64(s + i);
		top = utfconv_ascii16_stop(w, le, nul);
		if (top)
			break;
		put_unaligned_le32(utfconv_ascii4(w, le, bmi2), d + i / 2);
		while (wide && i + 16 <= n) {
			u64 w0 = get_unaligned_le64(s + i + 8);
			u64 w1 = get_unaligned_le64(s + i + 16);

			if (nul ? utfconv_ascii16_stop(w0, le, true) |
				  utfconv_ascii16_stop(w1, le, true) :
				  (w0 | w1) & nonascii)
				break;
			put_unaligned_le32(utfconv_ascii4(w0, le, bmi2),
					   d + i / 2 + 4);
			put_unaligned_le32(utfconv_ascii4(w1, le, bmi2),
					   d + i / 2 + 8);
			i += 16;
		}
	}
	d += i / 2;
	if (top) {
		w = le ? w : utfconv_swab16x4(w);
		if (wide && !utfconv_short4_stop(w, nul)) {
			d += utfconv_utf16_put_short4(d, w);
			i += 8;
		} else {
			/* scratch past the ASCII units before the other one */
			w &= 0x00FF00FF00FF00FFULL;
			put_unaligned_le32(utfconv_gather4(w), d);
			/* @top stays set: it says the run stopped */
			w = (unsigned int)__ffs64(top) >> 4;
			d += w;
			i += 2 * w;
		}
	}
	*sp = s + i;
	*dp = d;
	return !nul || !top || utfconv_get16(s + i, le);
}

/*
 * A run of code units of 0x800 or more, no surrogates, up to @bend, the
 * first @unit: three bytes each, one store; a loop of its own, as
 * utfconv_utf8_block_three().
 */
static __always_inline void utfconv_utf16_block_three(const u8 **sp, u8 **dp,
						      const u8 *bend,
						      u16 unit, bool le)
{
	const u8 *s = *sp;
	u8 *d = *dp;

	do {
		put_unaligned_le32(0x8080E0 | unit >> 12 | (unit & 0xFC0) << 2 |
				   (unit & 0x3F) << 16, d);
		s += 2;
		d += 3;
		if (s >= bend)
			break;
		unit = utfconv_get16(s, le);
	} while (unit >= 0x800 && (unit & 0xF800) != 0xD800);
	*sp = s;
	*dp = d;
}

/*
 * A code unit of 0x80..0x7FF, @unit: four units below 0x800 (ASCII among
 * them) in one step where they follow each other, else that one.
 */
static __always_inline unsigned int
utfconv_utf16_block_short(const u8 **sp, u8 **dp, u16 unit, bool le,
			  bool nul)
{
	u64 w = get_unaligned_le64(*sp);

	if (!le)
		w = utfconv_swab16x4(w);
	if (!utfconv_short4_stop(w, nul)) {
		*dp += utfconv_utf16_put_short4(*dp, w);
		*sp += 8;
		return 4;
	}
	put_unaligned_le16(0x80C0 | unit >> 6 | (unit & 0x3F) << 8, *dp);
	*sp += 2;
	*dp += 2;
	return 1;
}

/* A surrogate pair, four bytes; 0 for an unpaired surrogate @unit. */
static __always_inline unsigned int
utfconv_utf16_block_pair(const u8 **sp, u8 **dp, u16 unit, bool le)
{
	u16 trail = utfconv_get16(*sp + 2, le);
	u32 cp;

	if (unit >= 0xDC00 || (trail & 0xFC00) != 0xDC00)
		return 0;
	cp = utfconv_pair(unit, trail);
	put_unaligned_le32(0x808080F0 | cp >> 18 | (cp & 0x3F000) >> 4 |
			   (cp & 0xFC0) << 10 | (cp & 0x3F) << 24, *dp);
	*sp += 4;
	*dp += 4;
	return 1;
}

/*
 * UTF-16 input up to @bend; as utfconv_utf8_block_to(), the count from
 * the code units taken less the surrogate pairs among them.
 */
static __always_inline u64
utfconv_utf16_block_to(const u8 **sp, u8 **dp, const u8 *bend, bool le,
		       bool wide, bool nul, bool bmi2)
{
	const u8 *s = *sp, *start = s;
	u8 *d = *dp;
	u64 pairs = 0;
	bool ok = true;

	do {
		u16 unit = utfconv_get16(s, le);

		if (unit < 0x80 && utfconv_get16(s + 2, le) >= 0x80 &&
		    (!nul || unit)) {
			/* one ASCII unit between others: a space, a digit */
			*d = unit;
			s += 2;
			d++;
		} else if (unit < 0x80) {
			ok &= utfconv_utf16_block_ascii(&s, &d, bend, le,
							wide, nul, bmi2);
		} else if (unit >= 0x800 && (unit & 0xF800) != 0xD800) {
			utfconv_utf16_block_three(&s, &d, bend, unit, le);
		} else if (unit < 0x800) {
			utfconv_utf16_block_short(&s, &d, unit, le, nul);
		} else {
			ok = utfconv_utf16_block_pair(&s, &d, unit, le);
			pairs += ok;
		}
	} while (ok && s < bend);
	*sp = s;
	*dp = d;
	return (s - start) / 2 - pairs;
}

/* One block of UTF-16 input: the caller has checked utfconv_utf16_room(). */
static __always_inline unsigned int utfconv_utf16_block1(const u8 **sp,
							 u8 **dp, bool le)
{
	return utfconv_utf16_block_to(sp, dp, *sp + 2 * UTFCONV_UTF16_BLOCK,
				      le, false, false, false);
}

/*
 * Where the scalar path's run of UTF-8 input at @s may end (a whole block
 * at least where utfconv_utf8_room() holds): as far as the room for the
 * lookahead in the input and for the worst case in the output goes, two
 * output bytes per input byte and 16 more; @s if not at all.
 */
static inline const u8 *utfconv_utf8_room_end(const u8 *s, const u8 *se,
					      const u8 *d, const u8 *de)
{
	ptrdiff_t n = min(se - s - 8, (de - d - 16) / 2);

	return n > 0 ? s + n : s;
}

/* As utfconv_utf8_room_end(), for UTF-16 input: whole code units. */
static inline const u8 *utfconv_utf16_room_end(const u8 *s, const u8 *se,
					       const u8 *d, const u8 *de)
{
	ptrdiff_t units = min((se - s - 8) / 2, (de - d - 12) / 3);

	return units > 0 ? s + 2 * units : s;
}

/*
 * As far as the room for the lookahead in the input and for the worst
 * case in the output goes, worked out once: output grows by at most two
 * bytes per input byte, so the room left at the start covers each step
 * before that end. Short buffers (file names) and the ends of long ones
 * leave only their last few characters to the careful path; as
 * utfconv_utf8_block_to().
 */
static __always_inline u64 utfconv_utf8_block(const u8 **sp, const u8 *se,
					      u8 **dp, u8 *de, bool be,
					      bool nul, bool bmi2)
{
	const u8 *bend = utfconv_utf8_room_end(*sp, se, *dp, de);

	return bend == *sp ? 0 : utfconv_utf8_block_to(sp, dp, bend, be, true,
						       nul, bmi2);
}

/*
 * As utfconv_utf8_block(), for UTF-16 input: output grows by at most
 * three bytes per code unit.
 */
static __always_inline u64 utfconv_utf16_block(const u8 **sp, const u8 *se,
					       u8 **dp, u8 *de, bool le,
					       bool nul, bool bmi2)
{
	const u8 *bend = utfconv_utf16_room_end(*sp, se, *dp, de);

	return bend == *sp ? 0 : utfconv_utf16_block_to(sp, dp, bend, le,
							true, nul, bmi2);
}

#endif /* _UTFCONV_BLOCK_H */
