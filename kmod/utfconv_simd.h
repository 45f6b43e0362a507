/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec: the SIMD paths (utfconv_sse2.c, utfconv_avx2_*.c,
 * utfconv_avx512_*.c) and the names of the codec's paths that the KUnit
 * suites ask for.
 */
#ifndef _UTFCONV_SIMD_H
#define _UTFCONV_SIMD_H

#include <linux/init.h>
#include <linux/minmax.h>
#include <linux/types.h>

/**
 * enum utfconv_path - codec paths a KUnit suite can ask for
 * @UTFCONV_PATH_SCALAR: the scalar paths only, as the module chose them
 *	when it loaded (with the BMI2 steps where the CPU has them fast)
 * @UTFCONV_PATH_AUTO: what the module chose when it loaded, what users
 *	get: SIMD for large buffers where the CPU has it
 * @UTFCONV_PATH_SIMD: the SIMD paths whatever the size, with every
 *	instruction set the CPU has
 * @UTFCONV_PATH_SSE2: the same with SSE2 only (from UTF-16; from UTF-8,
 *	the scalar paths: SSE2 alone does not beat them there)
 * @UTFCONV_PATH_SSSE3: the same without AVX2
 * @UTFCONV_PATH_GENERIC: the scalar paths only, without the BMI2 steps:
 *	what other CPUs and architectures run
 * @UTFCONV_PATH_AVX2: the SIMD paths whatever the size, without AVX-512
 * @UTFCONV_PATH_AVX512: the AVX-512 paths whatever the size, in both
 *	directions
 *
 * The KUnit-only entries (utfconv_codec.h) take one per call; a path
 * the CPU lacks is narrowed to what it has (utfconv_path_want() says
 * what it asks for, utfconv_path_level() what it gets).
 */
enum utfconv_path {
	UTFCONV_PATH_SCALAR,
	UTFCONV_PATH_AUTO,
	UTFCONV_PATH_SIMD,
	UTFCONV_PATH_SSE2,
	UTFCONV_PATH_SSSE3,
	UTFCONV_PATH_GENERIC,
	UTFCONV_PATH_AVX2,
	UTFCONV_PATH_AVX512,
};

/* What utfconv_simd_usable() allows: the instruction sets to use */
#define UTFCONV_LEVEL_SSE2	1
#define UTFCONV_LEVEL_SSSE3	2
#define UTFCONV_LEVEL_AVX2	3
#define UTFCONV_LEVEL_AVX512	4

/*
 * The UTFCONV_LEVEL_* that @path asks for: the least a large call must
 * get for the path to be the one it names; 0 for the scalar paths and
 * for %UTFCONV_PATH_AUTO, which asks for nothing.
 */
static inline unsigned int utfconv_path_want(enum utfconv_path path)
{
	switch (path) {
	case UTFCONV_PATH_SIMD:
	case UTFCONV_PATH_SSE2:
		return UTFCONV_LEVEL_SSE2;
	case UTFCONV_PATH_SSSE3:
		return UTFCONV_LEVEL_SSSE3;
	case UTFCONV_PATH_AVX2:
		return UTFCONV_LEVEL_AVX2;
	case UTFCONV_PATH_AVX512:
		return UTFCONV_LEVEL_AVX512;
	default:
		return 0;
	}
}

/*
 * The instruction sets this build of the library has paths for: the
 * hidden Kconfig symbol of each (kmod/Kbuild; its patch in `make series`),
 * which the dispatch tests with IS_ENABLED() (utfconv_x86.h), so that a
 * path not built is no branch at run time either. UTFCONV_LEVEL_BUILT is
 * the highest UTFCONV_LEVEL_* built (the SSE2 paths bring SSSE3's), 0 on
 * the portable codec alone. The library's own view: a module built apart
 * from it asks utfconv_path_level() (utfconv_codec.h).
 */
#define UTFCONV_HAVE_SIMD	IS_ENABLED(CONFIG_UTFCONV_SSE2)
#define UTFCONV_LEVEL_BUILT \
	(IS_ENABLED(CONFIG_UTFCONV_AVX512) ? UTFCONV_LEVEL_AVX512 : \
	 IS_ENABLED(CONFIG_UTFCONV_AVX2) ? UTFCONV_LEVEL_AVX2 : \
	 IS_ENABLED(CONFIG_UTFCONV_SSE2) ? UTFCONV_LEVEL_SSSE3 : 0)

/*
 * The work of one FPU section. kernel_fpu_begin() disables preemption
 * until its kernel_fpu_end(), so, as the kernel's own users of the FPU
 * bound theirs, each section converts a bounded amount: a budget of
 * UTFCONV_SIMD_CHUNK input bytes of the slowest kind, so that the time
 * with preemption off is at most that of UTFCONV_SIMD_CHUNK bytes of
 * whatever the SIMD steps convert slowest (anything they do not convert
 * leaves the section for the careful path). Runs of ASCII, the fastest
 * kind, count 1 / 2^UTFCONV_SIMD_ASCII_SHIFT of a byte each where a
 * section starts with one (the AVX2 path from UTF-8): such a run may take
 * up to UTFCONV_SIMD_CHUNK << UTFCONV_SIMD_ASCII_SHIFT bytes, and the rest
 * of the section has the budget it leaves. That keeps the bound while
 * ASCII per byte takes at most that fraction of the slowest kind's time,
 * as it does whether the data comes from the cache or from memory
 * (Documentation/benchmarks.rst measures both). It saves ASCII text most
 * of the sections' entries and exits.
 */
#define UTFCONV_SIMD_CHUNK	4096
#define UTFCONV_SIMD_ASCII_SHIFT	4

/*
 * What a section's budget leaves after a leading ASCII run of @taken
 * bytes: never below 0 (a run longer than its cap would otherwise turn
 * it into a huge size_t and lift the bound).
 */
static inline size_t utfconv_simd_rest(size_t taken)
{
	return UTFCONV_SIMD_CHUNK -
	       min_t(size_t, taken >> UTFCONV_SIMD_ASCII_SHIFT,
		     UTFCONV_SIMD_CHUNK);
}

/* The end of a section's input at most @budget bytes from @s, @se's end. */
static inline const u8 *utfconv_simd_cut(const u8 *s, const u8 *se,
					 size_t budget)
{
	return se - s > budget ? s + budget : se;
}

/* Below this many bytes of input or output room, calls stay scalar. */
#define UTFCONV_SIMD_MIN	512

/*
 * One FPU section's worth of each SIMD path, from UTF-8 (@be: UTF-16BE
 * output) or from UTF-16 (@le: little-endian input); kernel-doc at each.
 * Each is built where its instruction set's symbol is (kmod/Kbuild);
 * utfconv_simd_section() calls none that is not.
 */
/* The SSE2 and AVX2 paths' pshufb masks (utfconv_simd_tables.c) */
void __init utfconv_simd_tables_init(void);

u64 utfconv_sse2_from_utf16(const u8 **sp, const u8 *se, const u8 **cep,
			    u8 **dp, u8 *de, bool le);
u64 utfconv_ssse3_from_utf8(const u8 **sp, const u8 *se, const u8 **cep,
			    u8 **dp, u8 *de, bool be);
u64 utfconv_ssse3_from_utf16(const u8 **sp, const u8 *se, const u8 **cep,
			     u8 **dp, u8 *de, bool le);
u64 utfconv_avx2_from_utf8(const u8 **sp, const u8 *se, const u8 **cep,
			   u8 **dp, u8 *de, bool be);
u64 utfconv_avx2_from_utf16(const u8 **sp, const u8 *se, const u8 **cep,
			    u8 **dp, u8 *de, bool le);
u64 utfconv_avx2_utf8_lead(const u8 **sp, const u8 *se, const u8 **cep,
			   u8 **dp, u8 *de, bool be);
u64 utfconv_avx512_from_utf8(const u8 **sp, const u8 *se, const u8 **cep,
			     u8 **dp, u8 *de, bool be);
u64 utfconv_avx512_from_utf16(const u8 **sp, const u8 *se, const u8 **cep,
			      u8 **dp, u8 *de, bool le);

/* The scan of a name's units for a map (utfconv_fsname_avx512.c) */
struct utfconv_charmap;
size_t utfconv_avx512_map_clear(const u8 *p, size_t n, bool le,
				const struct utfconv_charmap *map);

#endif /* _UTFCONV_SIMD_H */
