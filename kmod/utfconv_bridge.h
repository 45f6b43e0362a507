/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TEMPORARY (branch codec-split): how utfconv_utf8.c and utfconv_utf16.c
 * reach the choice of paths, which is static to utfconv_codec.c until it
 * moves to a file and a header of its own (branch simd-split). That
 * header, giving utfconv_bmi2(), utfconv_simd_usable() and utfconv_simd()
 * under these names, replaces this one and the bridge after the choice
 * of paths in utfconv_codec.c.
 */
#ifndef _UTFCONV_BRIDGE_H
#define _UTFCONV_BRIDGE_H

#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/types.h>

#include "utfconv_bmi2.h"

unsigned int utfconv_bridge_simd_usable(size_t in_bytes, size_t out_bytes);
u64 utfconv_bridge_simd_utf8(const u8 **sp, const u8 *se, u8 **dp, u8 *de,
			     bool be, unsigned int level);
u64 utfconv_bridge_simd_utf16(const u8 **sp, const u8 *se, u8 **dp, u8 *de,
			      bool le, unsigned int level);

#ifdef UTFCONV_BRIDGE_OWNER
/* utfconv_codec.c: its static key, under a name the others link to */
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

static __always_inline u64 utfconv_simd(const u8 **sp, const u8 *se,
					u8 **dp, u8 *de, bool utf8, bool flag,
					unsigned int level)
{
	if (utf8)
		return utfconv_bridge_simd_utf8(sp, se, dp, de, flag, level);
	return utfconv_bridge_simd_utf16(sp, se, dp, de, flag, level);
}
#endif

#endif /* _UTFCONV_BRIDGE_H */
