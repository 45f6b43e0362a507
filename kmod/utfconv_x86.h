/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec: the x86 CPU dispatch the portable code calls
 * (utfconv_x86.c): whether the BMI2 steps run (utfconv_bmi2()), whether
 * a call takes the SIMD paths (utfconv_simd_usable()) and the SIMD paths
 * in their FPU sections (utfconv_simd()), with the static keys that
 * utfconv_simd_init() and utfconv_bmi2_init() set when the module loads.
 * On other architectures these are constants and empty functions, which
 * the compiler drops with the code they guard.
 */
#ifndef _UTFCONV_X86_H
#define _UTFCONV_X86_H

#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/types.h>

#include "utfconv_block.h"
#include "utfconv_simd.h"

#if IS_ENABLED(CONFIG_X86_64)
#include <asm/fpu/api.h>

/*
 * Whether the BMI2 steps run (the DOC: BMI2 steps in utfconv_x86.c):
 * utfconv_force_path() switches it in kernels with KUnit, where it stays
 * writable.
 */
DECLARE_STATIC_KEY_FALSE(utfconv_bmi2_key);

static __always_inline bool utfconv_bmi2(void)
{
	return static_branch_likely(&utfconv_bmi2_key);
}

void __init utfconv_bmi2_init(void);
void __init utfconv_simd_init(void);
unsigned int utfconv_simd_usable(size_t in_bytes, size_t out_bytes);

/*
 * One FPU section's worth of the SIMD path from UTF-8 (@utf8; @flag:
 * UTF-16BE output) or from UTF-16 (@flag: little-endian input): the
 * AVX-512 one where @level allows it (`make bench` measures it at or
 * above the AVX2 one on every file both ways, Documentation/
 * benchmarks.rst), else the one of the highest instruction set @level
 * allows. *@cep: the end its budget allowed.
 */
static __always_inline u64 utfconv_simd_section(const u8 **sp, const u8 *se,
						const u8 **cep, u8 **dp,
						u8 *de, bool utf8, bool flag,
						unsigned int level)
{
	if (level >= UTFCONV_LEVEL_AVX512 && utf8)
		return utfconv_avx512_from_utf8(sp, se, cep, dp, de, flag);
	if (level >= UTFCONV_LEVEL_AVX512)
		return utfconv_avx512_from_utf16(sp, se, cep, dp, de, flag);
	if (level >= UTFCONV_LEVEL_AVX2 && utf8)
		return utfconv_avx2_from_utf8(sp, se, cep, dp, de, flag);
	if (level >= UTFCONV_LEVEL_AVX2)
		return utfconv_avx2_from_utf16(sp, se, cep, dp, de, flag);
	if (level >= UTFCONV_LEVEL_SSSE3 && utf8)
		return utfconv_ssse3_from_utf8(sp, se, cep, dp, de, flag);
	if (level >= UTFCONV_LEVEL_SSSE3)
		return utfconv_ssse3_from_utf16(sp, se, cep, dp, de, flag);
	if (utf8)
		return utfconv_sse2_from_utf8(sp, se, cep, dp, de, flag);
	return utfconv_sse2_from_utf16(sp, se, cep, dp, de, flag);
}

/*
 * The SIMD path from UTF-8 (@utf8; @flag: UTF-16BE output) or from UTF-16
 * (@flag: little-endian input), one FPU section per budget of work
 * (%UTFCONV_SIMD_CHUNK); @level from utfconv_simd_usable().
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
		ncp += utfconv_simd_section(sp, se, &ce, dp, de, utf8, flag,
					    level);
		kernel_fpu_end();
		/* stopped short of its budget: the careful path's turn */
		if (room(*sp, ce, *dp, de))
			break;
	}
	return ncp;
}
#else
static __always_inline bool utfconv_bmi2(void)
{
	return false;
}

static inline void utfconv_bmi2_init(void)
{
}

static inline void utfconv_simd_init(void)
{
}

static inline unsigned int utfconv_simd_usable(size_t in_bytes,
					       size_t out_bytes)
{
	return 0;
}

static inline u64 utfconv_simd(const u8 **sp, const u8 *se, u8 **dp, u8 *de,
			       bool utf8, bool flag, unsigned int level)
{
	return 0;
}
#endif

#endif /* _UTFCONV_X86_H */
