// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: AVX2 path from UTF-8 to UTF-16 for x86-64
 *
 * Built and run as utfconv_avx2.h says.
 */

#include "utfconv_avx2.h"

/*
 * The constants of both AVX2 paths (utfconv_avx2.h), one table: they
 * share some, and each reads them through UTFCONV_K().
 */
const struct utfconv_avx2_k utfconv_avx2_k = {
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
 * address, the first step takes 1 to 32 bytes, so that the trips store
 * whole cache lines, two aligned stores each, and, where twice the
 * input's address and the output's agree mod 64, load aligned too (Latin
 * lipsum: 71,000 MB/s on Zen 5, else 55,000). Only for runs that tend to
 * be long: the short first step costs a trip's worth of stores on a
 * short run.
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
	k = align && !((uintptr_t)d & 1) ? 32 - ((uintptr_t)d & 63) / 2 : 32;
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
 * AVX-512 path from UTF-8 (utfconv_avx512_utf8.c) starts with it where
 * its own loop of aligned loads and stores cannot start.
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
 * The AVX2 steps from UTF-8, each instance with its flag constant: they
 * return where the input needs a step of another kind, which the caller
 * below takes through the SSSE3 steps (utfconv_sse2.c) a few vectors at
 * a time before it calls them again. The SSSE3 steps are legacy SSE
 * code, entered with the upper halves cleared (as every return from AVX
 * code does), and a call of them from within these loops would clobber
 * the vector registers that hold the loops' constants.
 */
static noinline UTFCONV_AVX2 u64
utfconv_avx2_utf8_all(const u8 **sp, const u8 *se, u8 **dp, u8 *de, bool be)
{
	return be ? utfconv_avx2_utf8(sp, se, dp, de, true) :
		    utfconv_avx2_utf8(sp, se, dp, de, false);
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
