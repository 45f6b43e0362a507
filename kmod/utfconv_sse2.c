// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: SSE2 and SSSE3 paths for x86-64
 *
 * Built with the kernel's FPU flags (kmod/Kbuild): everything in this file
 * runs between kernel_fpu_begin() and kernel_fpu_end(), which the codec
 * puts around each call (utfconv_x86.h), and only when may_use_simd()
 * allows. The SSSE3 paths are the SSE2 loops with pshufb steps switched
 * in by a constant, one instance each: pshufb is inline assembly, so that
 * the whole file builds for SSE2 and the SSSE3 instances run only where
 * the CPU has it.
 *
 * Like the scalar block paths (utfconv_block.h), these convert only whole,
 * well-formed characters while the input and output left cover the worst
 * case, and stop at anything else, which the codec's careful path then
 * handles: the result is byte for byte the scalar path's. They may write
 * scratch bytes past the output they report, never past the end of the
 * output buffer.
 *
 * UTF-8 to UTF-16, with SSSE3 only, 16 input bytes at a time: ASCII bytes
 * are widened with two unpacks; otherwise the longest prefix of whole one-
 * to three-byte sequences (any script of the BMP, with its spaces and
 * punctuation) in 32 bytes is validated with byte masks and decoded in
 * 16-bit lanes, each lane from its byte and the two after it, and the
 * lanes of the characters' first bytes are packed with pshufb and a table
 * of masks.
 * Sixteen bytes without ASCII that start a run of two-, three- or
 * four-byte sequences (Cyrillic, Greek, Hebrew, Arabic; CJK, Indic, Thai;
 * emoji) are checked against the run's fixed pattern of lead and
 * continuation bytes and decoded in place, eight or five characters, or
 * four surrogate pairs, at a time; a whole vector's worth advances by a
 * constant, so that the next load does not wait on the count (the loop is
 * otherwise bound by the latency from one load through the checks to the
 * next address). Other four-byte sequences and surrogates go through one
 * scalar block.
 * Without SSSE3 the scalar paths convert UTF-8: the same steps with the
 * lanes stored one after the other instead of packed were no faster than
 * the scalar block (Documentation/benchmarks.rst, the tier table).
 *
 * UTF-16 to UTF-8: 16 ASCII units are narrowed with one saturating pack;
 * 8 units below 0x800 are encoded in their 16-bit lanes and packed with
 * pshufb where the CPU has SSSE3; otherwise 8 units below the surrogates
 * are encoded in 32-bit lanes (one, two or three bytes each; even and odd
 * units in two vectors) and stored one after the other, each store
 * advancing by its lane's length; with SSSE3, every byte a unit's form
 * may need (its low byte, a last byte, two kinds of lead and a middle
 * byte) is worked out for all units in two vectors, interleaved into
 * 32-bit lanes, and pshufb picks the bytes of each unit's form, four
 * units at a time, without a blend.
 * With SSSE3, eight units of three bytes each (CJK) are merged from two
 * vectors by constant shuffles. Four surrogate pairs in a row (emoji) are
 * encoded in 32-bit lanes; unpaired surrogates, and pairs across vectors,
 * go through one scalar block.
 */

#include <linux/types.h>

#include "utfconv_block.h"
#include "utfconv_simd.h"
#include "utfconv_simd_tables.h"
#include "utfconv_sse.h"

static __always_inline void utfconv_store(u8 *d, utfconv_u8x16 v)
{
	__builtin_memcpy(d, &v, sizeof(v));
}

/* The top bit of each byte, byte 0 in bit 0. */
static __always_inline unsigned int utfconv_movemask(utfconv_u8x16 v)
{
	/* the builtin takes a vector of plain char */
	return __builtin_ia32_pmovmskb128((char __attribute__((__vector_size__(16))))v);
}

/*
 * The bytes of @v picked by @m (SSSE3 pshufb: 128 picks a zero), in
 * inline assembly because the builtin needs the SSSE3 target in the whole
 * function; the callers run it only where the CPU has SSSE3.
 */
static __always_inline utfconv_u8x16 utfconv_pshufb(utfconv_u8x16 v,
						    utfconv_u8x16 m)
{
	asm("pshufb %1, %0" : "+x" (v) : "xm" (m));
	return v;
}

/* Bits 0-7 of @x to bits 0, 2, 4, ..., 14. */
static __always_inline unsigned int utfconv_spread2(unsigned int x)
{
	x = (x | x << 4) & 0x0F0F;
	x = (x | x << 2) & 0x3333;
	return (x | x << 1) & 0x5555;
}

/* Eight 16-bit lanes of @a, then of @b, narrowed with unsigned saturation. */
static __always_inline utfconv_u8x16 utfconv_packus(utfconv_u16x8 a,
						    utfconv_u16x8 b)
{
	return (utfconv_u8x16)__builtin_ia32_packuswb128((utfconv_s16x8)a,
							 (utfconv_s16x8)b);
}

/* Eight 16-bit lanes of @a, then of @b, narrowed with signed saturation. */
static __always_inline utfconv_u8x16 utfconv_packs(utfconv_s16x8 a,
						   utfconv_s16x8 b)
{
	return (utfconv_u8x16)__builtin_ia32_packsswb128(a, b);
}

/* Each byte to a 16-bit lane: bytes 0-7 (@hi false) or 8-15. */
static __always_inline utfconv_u16x8 utfconv_widen(utfconv_u8x16 v, bool hi)
{
	const utfconv_u8x16 z = { 0 };

	if (hi)
		return (utfconv_u16x8)__builtin_shufflevector(v, z,
							      8, 24, 9, 25,
							      10, 26, 11, 27,
							      12, 28, 13, 29,
							      14, 30, 15, 31);
	return (utfconv_u16x8)__builtin_shufflevector(v, z,
						      0, 16, 1, 17, 2, 18,
						      3, 19, 4, 20, 5, 21,
						      6, 22, 7, 23);
}

/* Each byte of a 0/0xFF mask to a 0/0xFFFF lane, as utfconv_widen(). */
static __always_inline utfconv_u16x8 utfconv_widen_mask(utfconv_u8x16 m,
							bool hi)
{
	utfconv_u16x8 w = utfconv_widen(m, hi);

	return w | w << 8;
}

/*
 * In 16-bit lanes, of any width: the code unit of the character that the
 * byte @b starts with the next bytes' low six bits @c1 and @c2, if @m2
 * (0xFFFF: a two-byte lead) or @m3 (a three-byte lead), else @b.
 */
#define UTFCONV_UTF8_DECODE(b, c1, c2, m2, m3) ({			\
	typeof(b) b_ = (b), c1_ = (c1), c2_ = (c2), m2_ = (m2), m3_ = (m3); \
									\
	(b_ & ~(m2_ | m3_)) | (m2_ & ((b_ & 0x1F) << 6 | c1_)) |	\
	(m3_ & ((b_ & 0x0F) << 12 | c1_ << 6 | c2_));			\
})

/*
 * Bytes 0-7 (@hi false) or 8-15 of @v decoded in 16-bit lanes: each
 * lane its ASCII byte, or the character its two- (@l2) or three-byte
 * (@l3) lead starts with the next bytes @n1 and @n2; junk elsewhere.
 */
static __always_inline utfconv_u16x8 utfconv_utf8_lanes(utfconv_u8x16 v,
							utfconv_u8x16 n1,
							utfconv_u8x16 n2,
							utfconv_u8x16 l2,
							utfconv_u8x16 l3,
							bool hi)
{
	utfconv_u16x8 b = utfconv_widen(v, hi);
	utfconv_u16x8 c1 = utfconv_widen(n1, hi) & 0x3F;
	utfconv_u16x8 c2 = utfconv_widen(n2, hi) & 0x3F;
	utfconv_u16x8 m2 = utfconv_widen_mask(l2, hi);
	utfconv_u16x8 m3 = utfconv_widen_mask(l3, hi);

	return UTFCONV_UTF8_DECODE(b, c1, c2, m2, m3);
}

/*
 * Check the @nv (1 or 2) vectors of 16 bytes at @s, the caller having
 * checked room for them and two bytes more: returns the length of their
 * longest prefix made of whole, well-formed one- to three-byte sequences
 * other than surrogates (0 when the first byte starts a four-byte
 * sequence, a surrogate or trouble). For each vector, v[] its bytes,
 * n1[] and n2[] each byte's next byte and the one after, l2[] and l3[]
 * 0xFF for the leads of two- and three-byte sequences; *@first: the first
 * bytes of the characters in the prefix, byte 0 in bit 0.
 */
static __always_inline unsigned int utfconv_utf8_whole(const u8 *s,
						       unsigned int nv,
						       utfconv_u8x16 *v,
						       utfconv_u8x16 *n1,
						       utfconv_u8x16 *n2,
						       utfconv_u8x16 *l2,
						       utfconv_u8x16 *l3,
						       u32 *first)
{
	u32 lead2 = 0, lead3 = 0, c = 0, m = 0, form = 0;
	unsigned int i, all = 16 * nv;

#pragma GCC unroll 2
	for (i = 0; i < nv; i++) {
		v[i] = utfconv_load(s + 16 * i);
		n1[i] = utfconv_load(s + 16 * i + 1);
		n2[i] = utfconv_load(s + 16 * i + 2);
		l2[i] = (utfconv_u8x16)(v[i] >= 0xC2) &
			(utfconv_u8x16)(v[i] <= 0xDF);
		l3[i] = (utfconv_u8x16)((v[i] & 0xF0) == 0xE0);
		lead2 |= utfconv_movemask(l2[i]) << 16 * i;
		lead3 |= utfconv_movemask(l3[i]) << 16 * i;
		c |= utfconv_movemask((utfconv_u8x16)((v[i] & 0xC0) == 0x80)) <<
		     16 * i;
		m |= utfconv_movemask(v[i]) << 16 * i;
		form |= utfconv_movemask(((utfconv_u8x16)(v[i] == 0xE0) &
					  (utfconv_u8x16)(n1[i] < 0xA0)) |
					 ((utfconv_u8x16)(v[i] == 0xED) &
					  (utfconv_u8x16)(n1[i] > 0x9F))) <<
			16 * i;
	}
	return utfconv_utf8_cut(lead2, lead3, c, m, form, all, first);
}

/*
 * The number of whole two-byte sequences (no overlong forms) that @v
 * starts with, up to 8, decoded in *@u: one code unit per 16-bit lane.
 */
static __always_inline unsigned int utfconv_utf8_run2(utfconv_u8x16 v,
						      utfconv_u16x8 *u)
{
	utfconv_u16x8 w = (utfconv_u16x8)v;
	unsigned int lead, cont;

	lead = utfconv_movemask((utfconv_u8x16)(v >= 0xC2) &
				(utfconv_u8x16)(v <= 0xDF));
	cont = utfconv_movemask((utfconv_u8x16)((v & 0xC0) == 0x80));
	/* lead in the low byte of each lane, continuation in the high */
	*u = (w & 0x1F) << 6 | (w >> 8 & 0x3F);
	return __builtin_ctz((lead ^ 0x5555) | (cont ^ 0xAAAA) | 0x10000) / 2;
}

/*
 * SSSE3: the number of whole three-byte sequences (no overlong forms, no
 * surrogates) that @v starts with, up to 5, decoded in *@u: one code unit
 * per 16-bit lane.
 */
static __always_inline unsigned int utfconv_utf8_run3(utfconv_u8x16 v,
						      utfconv_u16x8 *u)
{
	/* lane i: bytes 3i + 1 and 3i (high), then byte 3i + 2 */
	const utfconv_u8x16 first = UTFCONV_VEC(1, 0, 4, 3, 7, 6, 10, 9, 13, 12,
						128, 128, 128, 128, 128, 128);
	const utfconv_u8x16 last = UTFCONV_VEC(2, 128, 5, 128, 8, 128, 11, 128,
					       14, 128, 128, 128, 128, 128, 128,
					       128);
	const utfconv_u8x16 zero = { 0 };
	utfconv_u8x16 n1 = __builtin_shufflevector(v, zero, 1, 2, 3, 4, 5, 6,
						   7, 8, 9, 10, 11, 12, 13,
						   14, 15, 16);
	utfconv_u16x8 a = (utfconv_u16x8)utfconv_pshufb(v, first);
	utfconv_u16x8 b = (utfconv_u16x8)utfconv_pshufb(v, last);
	unsigned int lead, cont, form;

	lead = utfconv_movemask((utfconv_u8x16)((v & 0xF0) == 0xE0));
	cont = utfconv_movemask((utfconv_u8x16)((v & 0xC0) == 0x80));
	/* overlong forms (E0 80..9F) and surrogates (ED A0..BF) */
	form = utfconv_movemask(((utfconv_u8x16)(v == 0xE0) &
				 (utfconv_u8x16)(n1 < 0xA0)) |
				((utfconv_u8x16)(v == 0xED) &
				 (utfconv_u8x16)(n1 > 0x9F)));
	*u = (a << 4 & 0xF000) | (a & 0x3F) << 6 | (b & 0x3F);
	return __builtin_ctz((lead ^ 0x1249) | (cont ^ 0x6DB6) | form |
			     0x8000) / 3;
}

/*
 * SSSE3: the prefix utfconv_utf8_whole() allows in the 32 bytes at @s (32
 * rather than 16 for twice the work per trip through the loop's chain of
 * latencies), decoded in 16-bit lanes and packed with pshufb at @d: at
 * most 64 bytes written. Returns the length of the prefix in bytes, 0 if
 * none; *@units: the code units written.
 */
static __always_inline unsigned int utfconv_utf8_mixed32(const u8 *s, u8 *d,
							 bool be,
							 unsigned int *units)
{
	utfconv_u8x16 v[2], n1[2], n2[2], l2[2], l3[2];
	unsigned int i, k, pos = 0;
	u32 first;

	k = utfconv_utf8_whole(s, 2, v, n1, n2, l2, l3, &first);
	if (!k)
		return 0;
#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		utfconv_u16x8 u = utfconv_utf8_lanes(v[i / 2], n1[i / 2],
						     n2[i / 2], l2[i / 2],
						     l3[i / 2], i & 1);
		unsigned int keep = first >> 8 * i & 0xFF;

		if (be)
			u = u << 8 | u >> 8;
		utfconv_store(d + pos,
			      utfconv_pshufb((utfconv_u8x16)u,
					     utfconv_load(utfconv_pack16[keep])));
		pos += utfconv_pack16_bytes[keep];
	}
	*units = pos / 2;
	return k;
}

/*
 * SSSE3: the number of whole four-byte sequences (no overlong forms, none
 * above U+10FFFF) that @v starts with, up to 4, as surrogate pairs in *@w:
 * one pair per 32-bit lane, lead surrogate first, in UTF-16LE, or in
 * UTF-16BE if @be.
 */
static __always_inline unsigned int utfconv_utf8_run4(utfconv_u8x16 v,
						      utfconv_u8x16 *w, bool be)
{
	/* each lane's four bytes, first byte highest */
	const utfconv_u8x16 rev = UTFCONV_VEC(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9,
					      8, 15, 14, 13, 12);
	const utfconv_u8x16 zero = { 0 };
	utfconv_u8x16 n1 = __builtin_shufflevector(v, zero, 1, 2, 3, 4, 5, 6,
						   7, 8, 9, 10, 11, 12, 13,
						   14, 15, 16);
	utfconv_u32x4 x = (utfconv_u32x4)utfconv_pshufb(v, rev);
	unsigned int lead, cont, form;

	lead = utfconv_movemask((utfconv_u8x16)(v >= 0xF0) &
				(utfconv_u8x16)(v <= 0xF4));
	cont = utfconv_movemask((utfconv_u8x16)((v & 0xC0) == 0x80));
	/* overlong forms (F0 80..8F) and beyond U+10FFFF (F4 90..BF) */
	form = utfconv_movemask(((utfconv_u8x16)(v == 0xF0) &
				 (utfconv_u8x16)(n1 < 0x90)) |
				((utfconv_u8x16)(v == 0xF4) &
				 (utfconv_u8x16)(n1 > 0x8F)));
	x = UTFCONV_UTF8_PAIR(x, be);
	*w = (utfconv_u8x16)x;
	return __builtin_ctz((lead ^ 0x1111) | (cont ^ 0xEEEE) | form |
			     0x10000) / 4;
}

/*
 * The number of surrogate pairs (lead, then trail) that the eight units
 * of @a start with, up to 4, as four-byte UTF-8 sequences in *@w, one per
 * 32-bit lane.
 */
static __always_inline unsigned int utfconv_utf16_run4(utfconv_u16x8 a,
						       utfconv_u8x16 *w)
{
	utfconv_u32x4 x = (utfconv_u32x4)a;
	unsigned int ok;

	ok = utfconv_movemask((utfconv_u8x16)((x & 0xFC00FC00) ==
					      0xDC00D800));
	x = ((x & 0x3FF) << 10 | (x >> 16 & 0x3FF)) + 0x10000;
	*w = (utfconv_u8x16)(0x808080F0 | x >> 18 | (x >> 4 & 0x3F00) |
			     (x << 10 & 0x3F0000) | (x & 0x3F) << 24);
	return __builtin_ctz(~ok | 0x10000) / 4;
}

/*
 * Store @k (1 to 4) supplementary characters converted in @w, four bytes
 * each on both sides, at *@dp and advance *@sp and *@dp past them; four
 * (a whole vector) by a constant, so that the next load need not wait for
 * @k. Returns @k.
 */
static __always_inline unsigned int utfconv_take4(const u8 **sp, u8 **dp,
						  utfconv_u8x16 w,
						  unsigned int k)
{
	utfconv_store(*dp, w);
	if (k == 4) {
		*sp += 16;
		*dp += 16;
		return 4;
	}
	*sp += 4 * k;
	*dp += 4 * k;
	return k;
}

/*
 * ASCII: the 16 bytes @v at @d widened to code units (32 bytes written);
 * with other bytes after four or more ASCII ones (@m: the non-ASCII
 * bytes), the ASCII ones only: an accented letter now and then in
 * Latin-script text costs a short step, not a whole decoded vector.
 * Returns the bytes taken.
 */
static __always_inline unsigned int utfconv_sse2_utf8_ascii(u8 *d,
							    utfconv_u8x16 v,
							    unsigned int m,
							    bool be)
{
	utfconv_u16x8 u0 = utfconv_widen(v, false);
	utfconv_u16x8 u1 = utfconv_widen(v, true);

	if (be) {
		u0 <<= 8;
		u1 <<= 8;
	}
	utfconv_store(d, (utfconv_u8x16)u0);
	utfconv_store(d + 16, (utfconv_u8x16)u1);
	return m ? __builtin_ctz(m) : 16;
}

/*
 * Sixteen bytes @v at *@sp without ASCII: runs of two-, three- or
 * four-byte sequences (Cyrillic, Greek, Hebrew, Arabic words; CJK, Indic,
 * Thai; emoji), decoded in place at *@dp, no packing; a whole vector's
 * worth advances by a constant, so that the next load need not wait for
 * the count. Returns the code points taken, 0 where @v starts no such
 * run; *@sp and *@dp advanced.
 */
static __always_inline unsigned int utfconv_ssse3_utf8_runs(const u8 **sp,
							    u8 **dp,
							    utfconv_u8x16 v,
							    bool be)
{
	const u8 *s = *sp;
	utfconv_u16x8 u;
	utfconv_u8x16 w;
	unsigned int k;

	if ((*s & 0xE0) == 0xC0) {
		if (utfconv_utf8_run2(v, &u) != 8)
			return 0;
		if (be)
			u = u << 8 | u >> 8;
		utfconv_store(*dp, (utfconv_u8x16)u);
		*sp += 16;
		*dp += 16;
		return 8;
	}
	if ((*s & 0xF8) == 0xF0) {
		k = utfconv_utf8_run4(v, &w, be);
		return k ? utfconv_take4(sp, dp, w, k) : 0;
	}
	if ((*s & 0xF0) != 0xE0)
		return 0;
	k = utfconv_utf8_run3(v, &u);
	if (!k)
		return 0;
	if (be)
		u = u << 8 | u >> 8;
	utfconv_store(*dp, (utfconv_u8x16)u);
	if (k == 5) {
		*sp += 15;
		*dp += 10;
		return 5;
	}
	*sp += 3 * k;
	*dp += 2 * k;
	return k;
}

static __always_inline u64 utfconv_ssse3_utf8(const u8 **sp, const u8 *se,
					      u8 **dp, u8 *de, bool be)
{
	const u8 *s = *sp, *s0;
	u8 *d = *dp;
	u64 ncp = 0;

	while (utfconv_utf8_room(s, se, d, de)) {
		utfconv_u8x16 v = utfconv_load(s);
		unsigned int m = utfconv_movemask(v), k, units;

		if (!(m & 0xF)) {
			/* a whole vector by a constant, as above */
			k = utfconv_sse2_utf8_ascii(d, v, m, be);
			if (!m) {
				s += 16;
				d += 32;
				ncp += 16;
				continue;
			}
			s += k;
			d += 2 * k;
			ncp += k;
			continue;
		}
		if (m == 0xFFFF) {
			k = utfconv_ssse3_utf8_runs(&s, &d, v, be);
			ncp += k;
			if (k)
				continue;
		}
		/*
		 * Sixteen bytes without ASCII are most likely a run of one
		 * script that the scalar block converts as fast, branches
		 * well predicted, unless it is a two-byte script and
		 * pshufb packs the lanes; else the prefix, unless it is
		 * empty: a four-byte sequence, a surrogate or trouble.
		 */
		k = 0;
		if (m != 0xFFFF ||
		    !utfconv_movemask((utfconv_u8x16)(v >= 0xE0)))
			k = utfconv_utf8_mixed32(s, d, be, &units);
		if (k) {
			s += k;
			d += 2 * units;
			ncp += units;
			continue;
		}
		s0 = s;
		ncp += utfconv_utf8_block1(&s, &d, be);
		if (s == s0)
			break;
	}
	*sp = s;
	*dp = d;
	return ncp;
}

/*
 * SSSE3: the eight units of @a (no surrogates) as one to three bytes of
 * UTF-8 each at @d, at most 32 bytes written; returns the end of the
 * output. Every byte a unit's form may need is worked out for all units
 * without choosing: in one 16-bit lane its low byte (the form of ASCII)
 * and its last byte, in another the lead of a three-byte form and the
 * lead of a two-byte form or the middle byte of a three-byte one (these
 * two differ by 0x40 only). Interleaving the two gives each unit a 32-bit
 * lane, from which pshufb picks, four units at a time, the bytes of each
 * unit's form in order: the choice is in utfconv_utf8_form[], indexed by
 * the byte masks of the ASCII units and of the units below 0x800, two
 * bits per unit.
 */
static __always_inline u8 *utfconv_ssse3_utf16_mixed(u8 *d, utfconv_u16x8 a)
{
	/* each lane's low byte twice */
	const utfconv_u8x16 dup = UTFCONV_VEC(0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10,
					      10, 12, 12, 14, 14);
	utfconv_u16x8 one = (utfconv_u16x8)((a & 0xFF80) == 0);
	utfconv_u16x8 two = (utfconv_u16x8)((a & 0xF800) == 0);
	utfconv_u16x8 p = ((utfconv_u16x8)utfconv_pshufb((utfconv_u8x16)a, dup) &
			   0x3FFF) | 0x8000;
	utfconv_u16x8 q = a >> 12 | (a << 2 & 0x3F00) | 0x80E0 | (two & 0x4000);
	utfconv_u8x16 lo = (utfconv_u8x16)__builtin_shufflevector(p, q, 0, 8,
								  1, 9, 2, 10,
								  3, 11);
	utfconv_u8x16 hi = (utfconv_u8x16)__builtin_shufflevector(p, q, 4, 12,
								  5, 13, 6, 14,
								  7, 15);
	unsigned int n = (utfconv_movemask((utfconv_u8x16)one) & 0x5555) |
			 (utfconv_movemask((utfconv_u8x16)two) & 0xAAAA);

	utfconv_store(d, utfconv_pshufb(lo, utfconv_load(utfconv_utf8_form[n & 0xFF])));
	d += utfconv_utf8_form_bytes[n & 0xFF];
	utfconv_store(d, utfconv_pshufb(hi, utfconv_load(utfconv_utf8_form[n >> 8])));
	return d + utfconv_utf8_form_bytes[n >> 8];
}

/*
 * SSSE3: the eight units of @a, all below 0x800 (Greek, Cyrillic, Hebrew,
 * Arabic with ASCII), each one or two bytes in its 16-bit lane, packed
 * with pshufb at @d: at most 16 bytes written; returns the end of the
 * output.
 */
static __always_inline u8 *utfconv_ssse3_utf16_two(u8 *d, utfconv_u16x8 a)
{
	const utfconv_s16x8 zero = { 0 };
	unsigned int k = utfconv_movemask(utfconv_packs((utfconv_s16x8)(a > 0x7F),
							zero));
	utfconv_u16x8 e = (a & (utfconv_u16x8)(a < 0x80)) |
			  ((0x80C0 | a >> 6 | (a & 0x3F) << 8) &
			   (utfconv_u16x8)(a > 0x7F));

	utfconv_store(d, utfconv_pshufb((utfconv_u8x16)e,
					utfconv_load(utfconv_pack8[k])));
	return d + utfconv_pack8_bytes[k];
}

/*
 * SSSE3: eight units of @a of three bytes each (CJK, Indic, Thai) at @d
 * (24 bytes): the first two bytes of each in its 16-bit lane of x, the
 * third in y, merged in order by constant shuffles. Returns the end of
 * the output.
 */
static __always_inline u8 *utfconv_ssse3_utf16_three(u8 *d, utfconv_u16x8 a)
{
	const utfconv_u8x16 x0 = UTFCONV_VEC(0, 1, 128, 2, 3, 128, 4, 5, 128, 6,
					     7, 128, 8, 9, 128, 10);
	const utfconv_u8x16 y0 = UTFCONV_VEC(128, 128, 0, 128, 128, 2, 128, 128,
					     4, 128, 128, 6, 128, 128, 8, 128);
	const utfconv_u8x16 x1 = UTFCONV_VEC(11, 128, 12, 13, 128, 14, 15, 128,
					     128, 128, 128, 128, 128, 128, 128,
					     128);
	const utfconv_u8x16 y1 = UTFCONV_VEC(128, 10, 128, 128, 12, 128, 128,
					     14, 128, 128, 128, 128, 128, 128,
					     128, 128);
	utfconv_u8x16 x = (utfconv_u8x16)(0x80E0 | a >> 12 | (a & 0xFC0) << 2);
	utfconv_u8x16 y = (utfconv_u8x16)(0x80 | (a & 0x3F));

	utfconv_store(d, utfconv_pshufb(x, x0) | utfconv_pshufb(y, y0));
	utfconv_store(d + 16, utfconv_pshufb(x, x1) | utfconv_pshufb(y, y1));
	return d + 24;
}

/*
 * SSE2: the first @k (1 to 8) units of @a (no surrogates) as one to three
 * bytes of UTF-8 each at @d, at most 32 bytes written: units 0, 2, 4, 6
 * and units 1, 3, 5, 7 encoded in the 32-bit lanes of two vectors and
 * stored one after the other, each store advancing by its unit's length.
 * Returns the end of the output.
 */
static __always_inline u8 *utfconv_sse2_utf16_lanes(u8 *d, utfconv_u16x8 a,
						    unsigned int k)
{
	const utfconv_s16x8 zero = { 0 };
	const utfconv_s16x8 idx = UTFCONV_VEC(0, 1, 2, 3, 4, 5, 6, 7);
	utfconv_s32x4 x0 = (utfconv_s32x4)a & 0xFFFF;
	utfconv_s32x4 x1 = (utfconv_s32x4)((utfconv_u32x4)a >> 16);
	utfconv_s32x4 m0 = x0 < 0x80, m1 = x1 < 0x80;
	utfconv_s32x4 t0 = x0 < 0x800, t1 = x1 < 0x800;
	utfconv_s32x4 w0, w1;
	utfconv_s16x8 len;
	utfconv_u8x16 p;
	u32 even[4], odd[4];
	unsigned int i, pos = 0;
	u8 lens[16];

	/* one, two or three bytes, little-endian in the lane */
	w0 = (x0 & m0) | (~m0 & t0 & (0x80C0 | x0 >> 6 | (x0 & 0x3F) << 8)) |
	     (~t0 & (0x8080E0 | x0 >> 12 | (x0 & 0xFC0) << 2 |
		     (x0 & 0x3F) << 16));
	w1 = (x1 & m1) | (~m1 & t1 & (0x80C0 | x1 >> 6 | (x1 & 0x3F) << 8)) |
	     (~t1 & (0x8080E0 | x1 >> 12 | (x1 & 0xFC0) << 2 |
		     (x1 & 0x3F) << 16));
	/* 1 + (unit >= 0x80) + (unit >= 0x800); 0 past the prefix */
	len = 1 - (utfconv_s16x8)(a > 0x7F) - (utfconv_s16x8)(a > 0x7FF);
	len &= (utfconv_s16x8)(idx < (s16)k);
	p = utfconv_packs(len, zero);
	__builtin_memcpy(even, &w0, 16);
	__builtin_memcpy(odd, &w1, 16);
	__builtin_memcpy(lens, &p, 16);
#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		__builtin_memcpy(d + pos, &even[i], 4);
		pos += lens[2 * i];
		__builtin_memcpy(d + pos, &odd[i], 4);
		pos += lens[2 * i + 1];
	}
	return d + pos;
}

/*
 * The eight units @a at *@sp starting with a surrogate: surrogate pairs
 * (emoji) as four-byte sequences, else an unpaired surrogate or a pair
 * across vectors through one scalar block. Returns the code points taken,
 * 0 where the careful path must take over; *@sp and *@dp advanced.
 */
static __always_inline unsigned int utfconv_sse2_utf16_pairs(const u8 **sp,
							     u8 **dp,
							     utfconv_u16x8 a,
							     bool le)
{
	utfconv_u8x16 w;
	unsigned int k = utfconv_utf16_run4(a, &w);

	if (k)
		return utfconv_take4(sp, dp, w, k);
	return utfconv_utf16_block1(sp, dp, le);
}

static __always_inline u64 utfconv_sse2_utf16(const u8 **sp, const u8 *se,
					      u8 **dp, u8 *de, bool le,
					      bool ssse3)
{
	const utfconv_s16x8 zero = { 0 };
	const u8 *s = *sp, *s0;
	u8 *d = *dp;
	u64 ncp = 0;

	while (utfconv_utf16_room(s, se, d, de)) {
		utfconv_u16x8 a = (utfconv_u16x8)utfconv_load(s);
		utfconv_u16x8 b = (utfconv_u16x8)utfconv_load(s + 16);
		unsigned int k, big;

		if (!le) {
			a = a << 8 | a >> 8;
			b = b << 8 | b >> 8;
		}
		/*
		 * ASCII: 16 units, advancing by a constant so that the next
		 * load need not wait for a count, or four or more before
		 * others
		 */
		if (utfconv_movemask((utfconv_u8x16)(((a | b) & 0xFF80) == 0)) ==
		    0xFFFF) {
			utfconv_store(d, utfconv_packus(a, b));
			s += 32;
			d += 16;
			ncp += 16;
			continue;
		}
		k = utfconv_movemask(utfconv_packs((utfconv_s16x8)(a > 0x7F),
						   (utfconv_s16x8)(b > 0x7F)));
		if (!(k & 0xF)) {
			k = __builtin_ctz(k);
			utfconv_store(d, utfconv_packus(a, b));
			s += 2 * k;
			d += k;
			ncp += k;
			continue;
		}
		big = utfconv_movemask(utfconv_packs((utfconv_s16x8)(a > 0x7FF),
						     zero));
		if (ssse3 && !big) {
			d = utfconv_ssse3_utf16_two(d, a);
			s += 16;
			ncp += 8;
			continue;
		}
		k = utfconv_movemask(utfconv_packs((utfconv_s16x8)((a & 0xF800) ==
								   0xD800),
						   zero));
		k = k ? __builtin_ctz(k) : 8;
		if (!k) {
			s0 = s;
			ncp += utfconv_sse2_utf16_pairs(&s, &d, a, le);
			if (s == s0)
				break;
			continue;
		}
		if (ssse3 && k == 8 && big == 0xFF)
			d = utfconv_ssse3_utf16_three(d, a);
		else if (ssse3 && k == 8)
			d = utfconv_ssse3_utf16_mixed(d, a);
		else
			d = utfconv_sse2_utf16_lanes(d, a, k);
		s += 2 * k;
		ncp += k;
	}
	*sp = s;
	*dp = d;
	return ncp;
}

/* One FPU section's worth from UTF-16, an instance per flag. */
static __always_inline u64 utfconv_sse_from_utf16(const u8 **sp,
						  const u8 *se,
						  const u8 **cep, u8 **dp,
						  u8 *de, bool le, bool ssse3)
{
	const u8 *ce = utfconv_simd_cut(*sp, se, UTFCONV_SIMD_CHUNK);

	*cep = ce;
	return le ? utfconv_sse2_utf16(sp, ce, dp, de, true, ssse3) :
		    utfconv_sse2_utf16(sp, ce, dp, de, false, ssse3);
}

/**
 * utfconv_ssse3_from_utf8() - convert well-formed UTF-8 to UTF-16 with SSSE3
 * @sp: in/out: next input byte
 * @se: end of the input
 * @cep: out: end of the input this call's budget allowed,
 *	%UTFCONV_SIMD_CHUNK bytes on; the call stops up to a block short of
 *	it, and the caller tells that from a stop for the careful path by
 *	the room left before it
 * @dp: in/out: next output byte
 * @de: end of the output buffer
 * @be: UTF-16BE output, else UTF-16LE
 *
 * Converts whole characters (no surrogates: those are for the careful
 * path) while the input and output left cover a block's worst case, one
 * FPU section's worth. The AVX2 path also calls it for what its own steps
 * do not take, with @se at most a few vectors on.
 *
 * Context: Between kernel_fpu_begin() and kernel_fpu_end(), on a CPU with
 * SSSE3.
 * Return: the number of code points converted; *@sp and *@dp advanced.
 */
u64 utfconv_ssse3_from_utf8(const u8 **sp, const u8 *se, const u8 **cep,
			    u8 **dp, u8 *de, bool be)
{
	const u8 *ce = utfconv_simd_cut(*sp, se, UTFCONV_SIMD_CHUNK);

	*cep = ce;
	return be ? utfconv_ssse3_utf8(sp, ce, dp, de, true) :
		    utfconv_ssse3_utf8(sp, ce, dp, de, false);
}

/**
 * utfconv_sse2_from_utf16() - convert well-formed UTF-16 to UTF-8 with SSE2
 * @sp: in/out: next input byte
 * @se: end of the input
 * @cep: out: end of the input this call's budget allowed, as for
 *	utfconv_ssse3_from_utf8()
 * @dp: in/out: next output byte
 * @de: end of the output buffer
 * @le: UTF-16LE input, else UTF-16BE
 *
 * Converts whole characters (surrogate pairs included, unpaired
 * surrogates left for the careful path) while the input and output left
 * cover a block's worst case, one FPU section's worth.
 *
 * Context: Between kernel_fpu_begin() and kernel_fpu_end().
 * Return: the number of code points converted; *@sp and *@dp advanced.
 */
u64 utfconv_sse2_from_utf16(const u8 **sp, const u8 *se, const u8 **cep,
			    u8 **dp, u8 *de, bool le)
{
	return utfconv_sse_from_utf16(sp, se, cep, dp, de, le, false);
}

/*
 * utfconv_sse2_from_utf16() on a CPU with SSSE3: the encoded lanes packed
 * by pshufb, runs of three-byte forms and of surrogate pairs encoded in
 * place. The AVX2 path also calls it for vectors with surrogates its own
 * steps do not take, with @se at most a few vectors on.
 */
u64 utfconv_ssse3_from_utf16(const u8 **sp, const u8 *se, const u8 **cep,
			     u8 **dp, u8 *de, bool le)
{
	return utfconv_sse_from_utf16(sp, se, cep, dp, de, le, true);
}
