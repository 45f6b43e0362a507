/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec: what the SSE2/SSSE3 paths (utfconv_sse2.c) and the AVX2
 * paths (utfconv_avx2.h) share: 128-bit vector types, a load, the
 * surrogate pair of a four-byte sequence in lanes of any width and the
 * longest well-formed prefix of a vector's masks. Only those files
 * include it, each built with the FPU flags (kmod/Kbuild); the vectors
 * are GCC/clang vector extensions and __builtin_ia32_* builtins: the
 * kernel has no <immintrin.h>.
 */
#ifndef _UTFCONV_SSE_H
#define _UTFCONV_SSE_H

#include <linux/types.h>

/*
 * sparse has no vector types (it takes these typedefs for their element
 * types) and none of the vector builtins: for it, and only for it, the
 * builtins and vector constants of those files are values of the right
 * type, so that it reads all of the code around them.
 */
#ifdef __CHECKER__
#define UTFCONV_VEC(...)			0
#define __builtin_shufflevector(a, b, ...)	((void)(b), (a))
#define __builtin_ia32_pmovmskb128(v)		((int)(v))
#define __builtin_ia32_packuswb128(a, b)	((void)(b), (a))
#define __builtin_ia32_packsswb128(a, b)	((void)(b), (a))
#else
/* a vector constant, one initializer per lane */
#define UTFCONV_VEC(...)			{ __VA_ARGS__ }
#endif

typedef u8 utfconv_u8x16 __attribute__((__vector_size__(16)));
typedef u16 utfconv_u16x8 __attribute__((__vector_size__(16)));
typedef s16 utfconv_s16x8 __attribute__((__vector_size__(16)));
typedef s32 utfconv_s32x4 __attribute__((__vector_size__(16)));
typedef u32 utfconv_u32x4 __attribute__((__vector_size__(16)));

static __always_inline utfconv_u8x16 utfconv_load(const u8 *s)
{
	utfconv_u8x16 v;

	__builtin_memcpy(&v, s, sizeof(v));
	return v;
}

/*
 * In 32-bit lanes, of any width: the four bytes of a four-byte sequence
 * in each lane, first byte highest, as its surrogate pair, the lead
 * surrogate in the low half; in UTF-16BE if @be, else UTF-16LE.
 */
#define UTFCONV_UTF8_PAIR(x, be) ({					\
	/* the scalar value minus 0x10000, then the pair */		\
	typeof(x) x_ = (x);						\
	typeof(x) v_ = ((x_ >> 6 & 0x1C0000) | (x_ >> 4 & 0x3F000) |	\
			(x_ >> 2 & 0xFC0) | (x_ & 0x3F)) - 0x10000;	\
									\
	v_ = (0xD800 | v_ >> 10) | (0xDC00 | (v_ & 0x3FF)) << 16;	\
	if (be)								\
		v_ = (v_ & 0x00FF00FF) << 8 | (v_ >> 8 & 0x00FF00FF);	\
	v_;								\
})

/*
 * The longest prefix of whole, well-formed one- to three-byte sequences
 * other than surrogates in the @all (16 or 32) bytes whose masks (byte 0
 * in bit 0) are @lead2 and @lead3 (leads of two- and three-byte
 * sequences), @c (continuation bytes), @m (non-ASCII bytes) and @form
 * (three-byte leads whose next byte makes an overlong form or a
 * surrogate): returns its length, *@first the first bytes of the
 * characters in it.
 */
static __always_inline unsigned int utfconv_utf8_cut(u32 lead2, u32 lead3,
						     u32 c, u32 m, u32 form,
						     unsigned int all,
						     u32 *first)
{
	u32 bad, before, part;
	unsigned int k;

	/*
	 * Trouble: other non-ASCII bytes (C0, C1, F0..FF), continuation
	 * bytes other than the ones the leads call for (those of the last
	 * two bytes' leads land on bit @all, so k stays at most @all, or shift
	 * out; the check below stops before such leads), overlong three-byte
	 * forms (E0 80..9F) and surrogates (ED A0..BF).
	 */
	bad = (m & ~(lead2 | lead3 | c)) |
	      (c ^ (lead2 << 1 | lead3 << 1 | lead3 << 2)) | form;
	k = bad ? __builtin_ctz(bad) : all;
	/* and no character that does not end before byte k */
	before = k < 32 ? (1U << k) - 1 : ~0U;
	part = (lead2 & ~(before >> 1)) | (lead3 & ~(before >> 2));
	if (part && __builtin_ctz(part) < k) {
		k = __builtin_ctz(part);
		before = (1U << k) - 1;
	}
	*first = ~c & before;
	return k;
}
#endif /* _UTFCONV_SSE_H */
