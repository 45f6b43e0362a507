/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec: the x86 CPU dispatch the portable code calls
 * (utfconv_x86.c): which paths a call may take (utfconv_choose(), from
 * the static keys that utfconv_simd_init() and utfconv_bmi2_init() set
 * when the module loads), whether a converter takes the SIMD paths
 * (utfconv_simd_usable()) and the SIMD paths in their FPU sections
 * (utfconv_simd(), and for the file names' maps utfconv_simd_map_runs() and
 * utfconv_simd_map_clear()),
 * and the choice of a path a KUnit suite asks for
 * (utfconv_path_choose()).
 * Without the x86-64 dispatch (CONFIG_UTFCONV_X86: other architectures,
 * and the portable codec alone) these are constants and empty functions,
 * which the compiler drops with the code they guard; so are the SIMD
 * paths of an instruction set whose symbol is off (utfconv_simd.h).
 */
#ifndef _UTFCONV_X86_H
#define _UTFCONV_X86_H

#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "utfconv_block.h"
#include "utfconv_simd.h"

/**
 * struct utfconv_choice - the codec paths one call may take
 * @level: the UTFCONV_LEVEL_* of the highest instruction sets the SIMD
 *	paths may use; 0: the scalar paths only
 * @min: bytes of input and of output room below which a converter stays
 *	on the scalar paths
 * @bmi2: whether the scalar paths take the BMI2 steps (utfconv_bmi2.h)
 *
 * Decided once per call, when its cursor is set (utfconv_choose()), and
 * passed down to the converters, which read it once per run: the hot
 * loops are built for one choice each and never look at global state.
 */
struct utfconv_choice {
	unsigned int level;
	size_t min;
	bool bmi2;
};

#if IS_ENABLED(CONFIG_UTFCONV_X86)
#include <asm/fpu/api.h>
#include <asm/simd.h>

/*
 * What the CPU allows, set once by utfconv_simd_init() and
 * utfconv_bmi2_init() and read-only after init.
 */
DECLARE_STATIC_KEY_FALSE(utfconv_bmi2_key);
DECLARE_STATIC_KEY_FALSE(utfconv_ssse3_key);
DECLARE_STATIC_KEY_FALSE(utfconv_avx2_key);
DECLARE_STATIC_KEY_FALSE(utfconv_avx512_key);

void __init utfconv_bmi2_init(void);
void __init utfconv_simd_init(void);

/*
 * What a call takes: what the module chose when it loaded, among the
 * paths this build has (IS_ENABLED(), decided when it was compiled).
 */
static __always_inline void utfconv_choose(struct utfconv_choice *ch)
{
	ch->min = UTFCONV_SIMD_MIN;
	ch->bmi2 = static_branch_likely(&utfconv_bmi2_key);
	if (IS_ENABLED(CONFIG_UTFCONV_AVX512) &&
	    static_branch_likely(&utfconv_avx512_key))
		ch->level = UTFCONV_LEVEL_AVX512;
	else if (IS_ENABLED(CONFIG_UTFCONV_AVX2) &&
		 static_branch_likely(&utfconv_avx2_key))
		ch->level = UTFCONV_LEVEL_AVX2;
	else if (IS_ENABLED(CONFIG_UTFCONV_SSE2) &&
		 static_branch_likely(&utfconv_ssse3_key))
		ch->level = UTFCONV_LEVEL_SSSE3;
	else if (IS_ENABLED(CONFIG_UTFCONV_SSE2))
		ch->level = UTFCONV_LEVEL_SSE2;
	else
		ch->level = 0;
}

/*
 * What a call on @path takes (the KUnit-only entries of utfconv_codec.h):
 * what the module chose, narrowed to at most the instruction sets @path
 * names, whatever the size for every path but %UTFCONV_PATH_AUTO, without
 * the BMI2 steps for %UTFCONV_PATH_GENERIC. A path the CPU lacks gives a
 * lower level, which the caller compares with utfconv_path_want().
 */
static inline void utfconv_path_choose(enum utfconv_path path,
				       struct utfconv_choice *ch)
{
	utfconv_choose(ch);
	if (path == UTFCONV_PATH_AUTO)
		return;
	ch->min = 0;
	if (path == UTFCONV_PATH_GENERIC)
		ch->bmi2 = false;
	if (path == UTFCONV_PATH_SCALAR || path == UTFCONV_PATH_GENERIC)
		ch->level = 0;
	else if (path != UTFCONV_PATH_SIMD)
		ch->level = min(ch->level, utfconv_path_want(path));
}

/*
 * Whether a converter with @in_bytes of input and @out_bytes of output
 * room takes the SIMD paths: by default both must be large, since a small
 * output window (a caller that counts the output of a stream through a
 * 128-byte buffer) would pay for an FPU section every few dozen
 * characters. 0 for the scalar paths (also where may_use_simd() is
 * false, and always, at compile time, where no SIMD path is built), else
 * the UTFCONV_LEVEL_* for utfconv_simd().
 */
static __always_inline unsigned int
utfconv_simd_usable(const struct utfconv_choice *ch, size_t in_bytes,
		    size_t out_bytes)
{
	if (!UTFCONV_HAVE_SIMD || !ch->level || in_bytes < ch->min ||
	    out_bytes < ch->min || !may_use_simd())
		return 0;
	return ch->level;
}

/*
 * One FPU section's worth of the SIMD path from UTF-8 (@utf8; @flag:
 * UTF-16BE output) or from UTF-16 (@flag: little-endian input): the
 * AVX-512 one where @level allows it (`make bench` measures it at or
 * above the AVX2 one on every file both ways, Documentation/
 * benchmarks.rst), else the one of the highest instruction set @level
 * allows. *@cep: the end its budget allowed. A path not built is never
 * called: IS_ENABLED() drops the call at compile time, and @level
 * (utfconv_choose()) never names one.
 */
static __always_inline u64 utfconv_simd_section(const u8 **sp, const u8 *se,
						const u8 **cep, u8 **dp,
						u8 *de, bool utf8, bool flag,
						unsigned int level)
{
	bool avx512 = IS_ENABLED(CONFIG_UTFCONV_AVX512) &&
		      level >= UTFCONV_LEVEL_AVX512;
	bool avx2 = IS_ENABLED(CONFIG_UTFCONV_AVX2) &&
		    level >= UTFCONV_LEVEL_AVX2;

	if (!UTFCONV_HAVE_SIMD)
		return 0;
	if (avx512 && utf8)
		return utfconv_avx512_from_utf8(sp, se, cep, dp, de, flag);
	if (avx512)
		return utfconv_avx512_from_utf16(sp, se, cep, dp, de, flag);
	if (avx2 && utf8)
		return utfconv_avx2_from_utf8(sp, se, cep, dp, de, flag);
	if (avx2)
		return utfconv_avx2_from_utf16(sp, se, cep, dp, de, flag);
	/* from UTF-8, utfconv_simd_usable() gives SSSE3 or more */
	if (utf8)
		return utfconv_ssse3_from_utf8(sp, se, cep, dp, de, flag);
	if (level >= UTFCONV_LEVEL_SSSE3)
		return utfconv_ssse3_from_utf16(sp, se, cep, dp, de, flag);
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

/*
 * Whether the SIMD scan of file names for a map (utfconv_fsname_map.c)
 * runs on a name of @n code units: as the converters do, for a large one
 * only, and where may_use_simd() allows.
 */
static inline bool utfconv_simd_map_runs(size_t n)
{
	struct utfconv_choice ch;

	/* a name (255 units at most) stays scalar before anything is read */
	if (!IS_ENABLED(CONFIG_UTFCONV_AVX512) || 2 * n < UTFCONV_SIMD_MIN)
		return false;
	utfconv_choose(&ch);
	return utfconv_simd_usable(&ch, 2 * n, 2 * n) >= UTFCONV_LEVEL_AVX512;
}

/*
 * How many of the @n code units at @p (UTF-16LE if @le) come before the
 * first step of 32 that holds one @map's scalar pass looks at, or before
 * the last step, of fewer than 32, which the SIMD scan leaves to it; only
 * where utfconv_simd_map_runs(). A scan is no conversion: like a run of
 * ASCII, it takes UTFCONV_SIMD_CHUNK << UTFCONV_SIMD_ASCII_SHIFT bytes an
 * FPU section.
 */
static inline size_t utfconv_simd_map_clear(const struct utfconv_charmap *map,
					    const u8 *p, size_t n, bool le)
{
	const size_t step = UTFCONV_SIMD_CHUNK << UTFCONV_SIMD_ASCII_SHIFT >> 1;
	size_t i, k, clear;

	n &= ~(size_t)31;
	for (i = 0; i < n; i += k) {
		k = min(n - i, step);
		kernel_fpu_begin();
		clear = utfconv_avx512_map_clear(p + 2 * i, k, le, map);
		kernel_fpu_end();
		if (clear < k)
			return i + clear;
	}
	return n;
}
#else
static inline void utfconv_bmi2_init(void)
{
}

static inline void utfconv_simd_init(void)
{
}

static __always_inline void utfconv_choose(struct utfconv_choice *ch)
{
	ch->level = 0;
	ch->min = 0;
	ch->bmi2 = false;
}

/* The scalar paths without the BMI2 steps are the only ones here. */
static inline void utfconv_path_choose(enum utfconv_path path,
				       struct utfconv_choice *ch)
{
	utfconv_choose(ch);
}

static __always_inline unsigned int
utfconv_simd_usable(const struct utfconv_choice *ch, size_t in_bytes,
		    size_t out_bytes)
{
	return 0;
}

static inline u64 utfconv_simd(const u8 **sp, const u8 *se, u8 **dp, u8 *de,
			       bool utf8, bool flag, unsigned int level)
{
	return 0;
}

static inline bool utfconv_simd_map_runs(size_t n)
{
	return false;
}

static inline size_t utfconv_simd_map_clear(const struct utfconv_charmap *map,
					    const u8 *p, size_t n, bool le)
{
	return 0;
}
#endif

#endif /* _UTFCONV_X86_H */
