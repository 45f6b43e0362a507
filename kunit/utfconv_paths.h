/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The codec path of each conversion the tests make, for the KUnit suites
 * and the host tests alike. The checks convert through
 * utfconv_test_convert(), utfconv_test_buf() and
 * utfconv_test_buf_to_nul(), which pass the path of the running test to
 * the library's KUnit-only entries (kmod/utfconv_codec.h); the library
 * keeps no path of its own. On %UTFCONV_PATH_AUTO, what users get, the
 * stream and one-shot calls go through utfconv_convert() and
 * utfconv_buf() themselves.
 *
 * utfconv_test_path() (utfconv_expect.h) gives the running test's path:
 * the KUnit suites take it from the case's parameter, the host programs
 * from their options.
 */
#ifndef _UTFCONV_PATHS_H
#define _UTFCONV_PATHS_H

#include <linux/array_size.h>
#include <linux/errno.h>
#include <linux/types.h>
#include <linux/utfconv.h>

#include "../kmod/utfconv_codec.h"
#include "../kmod/utfconv_simd.h"
#include "utfconv_expect.h"
#include "utfconv_test_pairs.h"

/* The name of @path in the tests' output ("avx512"), "?" if none. */
static inline const char *utfconv_path_name(enum utfconv_path path)
{
	static const char * const names[] = {
		[UTFCONV_PATH_SCALAR] = "scalar",
		[UTFCONV_PATH_AUTO] = "auto",
		[UTFCONV_PATH_SIMD] = "simd",
		[UTFCONV_PATH_SSE2] = "sse2",
		[UTFCONV_PATH_SSSE3] = "ssse3",
		[UTFCONV_PATH_GENERIC] = "generic",
		[UTFCONV_PATH_AVX2] = "avx2",
		[UTFCONV_PATH_AVX512] = "avx512",
	};

	return (unsigned int)path < ARRAY_SIZE(names) ? names[path] : "?";
}

/*
 * Why the library has no path for @want (a UTFCONV_LEVEL_*): none on
 * this architecture, or the hidden Kconfig symbol of its instruction set
 * off (a compiler without its flags, kmod/Kbuild).
 */
static inline const char *utfconv_path_unbuilt(unsigned int want)
{
	if (!IS_ENABLED(CONFIG_X86_64))
		return "no SIMD paths on this architecture";
	if (want == UTFCONV_LEVEL_AVX512)
		return "AVX-512 paths not built (CONFIG_UTFCONV_AVX512 off)";
	if (want == UTFCONV_LEVEL_AVX2)
		return "AVX2 paths not built (CONFIG_UTFCONV_AVX2 off)";
	return "SIMD paths not built (CONFIG_UTFCONV_SSE2 off)";
}

/*
 * Why a test on @path does not run here, for its skip message; NULL if
 * it runs. @level: what utfconv_path_level() gave for @path. A path the
 * CPU lacks is narrowed to a lower one by the library, and one this build
 * lacks is refused (-EOPNOTSUPP): a test that ran there would pass in
 * another path's name.
 */
static inline const char *utfconv_path_missing(enum utfconv_path path,
					       int level)
{
	unsigned int want = utfconv_path_want(path);

	if (level == -EOPNOTSUPP)
		return utfconv_path_unbuilt(want);
	if (level < 0)
		return "no such codec path";
	if ((unsigned int)level >= want)
		return NULL;
	if (want == UTFCONV_LEVEL_AVX512)
		return "no AVX-512 on this CPU";
	if (want == UTFCONV_LEVEL_AVX2)
		return "no AVX2 on this CPU";
	if (want == UTFCONV_LEVEL_SSSE3)
		return "no SSSE3 on this CPU";
	return "no SIMD paths in this context";
}

/* utfconv_convert() on the running test's path */
static inline int utfconv_test_convert(struct utfconv_state *st,
				       const void *src, size_t src_bytes,
				       size_t *src_used, void *dst,
				       size_t dst_bytes, size_t *dst_used,
				       unsigned int cflags)
{
	enum utfconv_path path = utfconv_test_path();

	if (path == UTFCONV_PATH_AUTO)
		return utfconv_convert(st, src, src_bytes, src_used, dst,
				       dst_bytes, dst_used, cflags);
	return utfconv_convert_path(path, st, src, src_bytes, src_used, dst,
				    dst_bytes, dst_used, cflags);
}

/* utfconv_buf() of the numbered pair @direction on the test's path */
static inline ssize_t utfconv_test_buf(u32 direction, u32 policy, u32 flags,
				       const void *src, size_t src_bytes,
				       void *dst, size_t dst_bytes,
				       u64 *error_offset)
{
	enum utfconv_encoding source = utfconv_test_source(direction);
	enum utfconv_encoding target = utfconv_test_target(direction);
	enum utfconv_path path = utfconv_test_path();

	if (path == UTFCONV_PATH_AUTO)
		return utfconv_buf(source, target, policy, flags, src,
				   src_bytes, dst, dst_bytes, error_offset);
	return utfconv_buf_path(path, source, target, policy, flags, src,
				src_bytes, dst, dst_bytes, error_offset);
}

/*
 * utfconv_buf_to_nul() on the running test's path: through its path entry
 * on every path, %UTFCONV_PATH_AUTO included (the same choice), since
 * only the library's file name functions call it and it is not exported.
 */
static inline ssize_t utfconv_test_buf_to_nul(u32 direction, u32 policy,
					      const void *src,
					      size_t src_bytes, void *dst,
					      size_t dst_bytes)
{
	return utfconv_buf_to_nul_path(utfconv_test_path(),
				       utfconv_test_source(direction),
				       utfconv_test_target(direction), policy,
				       src, src_bytes, dst, dst_bytes);
}

#endif /* _UTFCONV_PATHS_H */
