/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TEMPORARY (branch codec-split): how utfconv_utf8.c and utfconv_utf16.c
 * reach the choice of paths, which is static to utfconv_codec.c until it
 * moves to a file and a header of its own (branch simd-split). That
 * header, giving utfconv_bmi2(), utfconv_simd_usable() and utfconv_simd()
 * under these names, replaces this one.
 */
#ifndef _UTFCONV_BRIDGE_H
#define _UTFCONV_BRIDGE_H

#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/types.h>

#include "utfconv_block.h"
#include "utfconv_bmi2.h"
#include "utfconv_simd.h"

unsigned int utfconv_bridge_simd_usable(size_t in_bytes, size_t out_bytes);

#ifdef UTFCONV_BRIDGE_OWNER
/* utfconv_codec.c: its static key under a global name */
extern struct static_key_false utfconv_bridge_bmi2_key __alias(utfconv_bmi2_key);
#else
extern struct static_key_false utfconv_bridge_bmi2_key;

/* As utfconv_codec.c's: the same static key, so the same static branch. */
static __always_inline bool utfconv_bmi2(void)
{
	return UTFCONV_HAVE_BMI2 &&
	       static_branch_likely(&utfconv_bridge_bmi2_key);
}

static inline unsigned int utfconv_simd_usable(size_t in_bytes,
					       size_t out_bytes)
{
	return utfconv_bridge_simd_usable(in_bytes, out_bytes);
}

#if UTFCONV_HAVE_SIMD
#include <asm/fpu/api.h>

/*
 * As utfconv_codec.c's utfconv_simd() and utfconv_simd_section(), which
 * read no static key: inlined into each converter, as there.
 */
static __always_inline u64 utfconv_simd(const u8 **sp, const u8 *se,
					u8 **dp, u8 *de, bool utf8, bool flag,
					unsigned int level)
{
	bool (*room)(const u8 *s, const u8 *se, const u8 *d, const u8 *de) =
		utf8 ? utfconv_utf8_room : utfconv_utf16_room;
	u64 ncp = 0;

	while (room(*sp, se, *dp, de)) {
		const u8 *ce;

		kernel_fpu_begin();
		if (level >= UTFCONV_LEVEL_AVX512 && utf8)
			ncp += utfconv_avx512_from_utf8(sp, se, &ce, dp, de,
							flag);
		else if (level >= UTFCONV_LEVEL_AVX512)
			ncp += utfconv_avx512_from_utf16(sp, se, &ce, dp, de,
							 flag);
		else if (utf8)
			ncp += utfconv_sse2_from_utf8(sp, se, &ce, dp, de, flag,
						      level);
		else
			ncp += utfconv_sse2_from_utf16(sp, se, &ce, dp, de,
						       flag, level);
		kernel_fpu_end();
		if (room(*sp, ce, *dp, de))
			break;
	}
	return ncp;
}
#else
static inline u64 utfconv_simd(const u8 **sp, const u8 *se, u8 **dp, u8 *de,
			       bool utf8, bool flag, unsigned int level)
{
	return 0;
}
#endif
#endif

#endif /* _UTFCONV_BRIDGE_H */
