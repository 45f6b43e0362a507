/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec: what the library's other parts (the file name functions
 * of utfconv_fsname.c) use besides the exported API; utfconv_buf() is
 * exported to the KUnit suites too, and so are, in kernels with KUnit,
 * the entries with which they run each call on the codec path they ask
 * for (EXPORT_SYMBOL_IF_KUNIT).
 */
#ifndef _UTFCONV_CODEC_H
#define _UTFCONV_CODEC_H

#include <linux/types.h>
#include <linux/utfconv.h>

#include "utfconv_simd.h"

/* kernel-doc at the definition in utfconv_oneshot.c */
ssize_t utfconv_buf(enum utfconv_encoding source,
		    enum utfconv_encoding target, enum utfconv_policy policy,
		    u32 flags, const void *src, size_t src_bytes, void *dst,
		    size_t dst_bytes, u64 *error_offset);

/**
 * utfconv_buf_to_nul() - convert a buffer up to its first NUL
 * @source: encoding of the input, one that names the byte order of
 *	UTF-16 (not %UTFCONV_UTF16)
 * @target: encoding of the output, as for utfconv_init()
 * @policy: what to do with ill-formed or incomplete input
 * @src: input bytes; the input ends at its first NUL byte (UTF-8) or
 *	U+0000 code unit (UTF-16, at an even offset), or after @src_bytes
 * @src_bytes: length of @src in bytes
 * @dst: output buffer
 * @dst_bytes: capacity of @dst in bytes
 *
 * utfconv_buf() with no flags and no error offset on the input before its
 * first NUL, as fs/nls reads a name; the converter's ASCII steps find the
 * NUL as they go, so that a short name is read once, and the input left
 * where they stop (and all of it before the SIMD paths, which do not look
 * for it) is searched 16 bytes a step.
 *
 * Context: Any context.
 * Return: as utfconv_buf(): bytes written, -E2BIG, -EILSEQ, or -EINVAL
 * (input that ends inside a character, or a @source, @target or @policy
 * that utfconv_init() refuses, or %UTFCONV_UTF16 as @source).
 */
ssize_t utfconv_buf_to_nul(enum utfconv_encoding source,
			   enum utfconv_encoding target,
			   enum utfconv_policy policy, const void *src,
			   size_t src_bytes, void *dst, size_t dst_bytes);

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * utfconv_convert_path() - utfconv_convert() on a codec path
 * @path: the paths the call may take: %UTFCONV_PATH_AUTO, what
 *	utfconv_convert() takes; %UTFCONV_PATH_SCALAR or
 *	%UTFCONV_PATH_GENERIC, the scalar paths with or without the BMI2
 *	steps; the others, the SIMD paths whatever the size of the buffers,
 *	with at most the instruction sets named (enum utfconv_path)
 * @st: stream state set up by utfconv_init()
 * @src: input bytes
 * @src_bytes: length of @src in bytes
 * @src_used: out: bytes of @src accepted
 * @dst: output buffer
 * @dst_bytes: capacity of @dst in bytes
 * @dst_used: out: bytes written to @dst
 * @cflags: %UTFCONV_END if the input ends with @src
 *
 * For KUnit only: with it the suites run every case on every path in one
 * boot. @path is narrowed to what the module chose when it loaded (the
 * CPU's features): on a CPU without AVX2, %UTFCONV_PATH_AVX2 takes the
 * SSSE3 paths, and %UTFCONV_PATH_SCALAR the BMI2 steps only where the CPU
 * runs them fast; utfconv_path_level() says what it takes. Nothing
 * outside the call changes.
 *
 * Context: Any context.
 * Return: as utfconv_convert().
 */
int utfconv_convert_path(enum utfconv_path path, struct utfconv_state *st,
			 const void *src, size_t src_bytes, size_t *src_used,
			 void *dst, size_t dst_bytes, size_t *dst_used,
			 unsigned int cflags);

/**
 * utfconv_buf_path() - utfconv_buf() on a codec path
 * @path: as for utfconv_convert_path()
 * @source: as for utfconv_buf()
 * @target: as for utfconv_buf()
 * @policy: as for utfconv_buf()
 * @flags: as for utfconv_buf()
 * @src: input bytes; the whole stream
 * @src_bytes: length of @src in bytes
 * @dst: output buffer
 * @dst_bytes: capacity of @dst in bytes
 * @error_offset: out, may be NULL: as for utfconv_buf()
 *
 * For KUnit only, as utfconv_convert_path().
 *
 * Context: Any context.
 * Return: as utfconv_buf().
 */
ssize_t utfconv_buf_path(enum utfconv_path path,
			 enum utfconv_encoding source,
			 enum utfconv_encoding target,
			 enum utfconv_policy policy, u32 flags,
			 const void *src, size_t src_bytes, void *dst,
			 size_t dst_bytes, u64 *error_offset);

/**
 * utfconv_buf_to_nul_path() - utfconv_buf_to_nul() on a codec path
 * @path: as for utfconv_convert_path()
 * @source: as for utfconv_buf_to_nul()
 * @target: as for utfconv_buf_to_nul()
 * @policy: as for utfconv_buf_to_nul()
 * @src: input bytes, up to the first NUL
 * @src_bytes: length of @src in bytes
 * @dst: output buffer
 * @dst_bytes: capacity of @dst in bytes
 *
 * For KUnit only, as utfconv_convert_path().
 *
 * Context: Any context.
 * Return: as utfconv_buf_to_nul().
 */
ssize_t utfconv_buf_to_nul_path(enum utfconv_path path,
				enum utfconv_encoding source,
				enum utfconv_encoding target,
				enum utfconv_policy policy, const void *src,
				size_t src_bytes, void *dst, size_t dst_bytes);

/**
 * utfconv_path_level() - the SIMD level a call on a codec path takes
 * @path: as for utfconv_convert_path()
 *
 * For KUnit only: what a suite compares with utfconv_path_want() to skip
 * a path the CPU lacks rather than run another in its name.
 *
 * Context: Any context; the answer is that of the calling context
 * (may_use_simd()).
 * Return: the UTFCONV_LEVEL_* of the instruction sets a large call from
 * this context takes on @path, 0 for the scalar paths only;
 * -EOPNOTSUPP where @path asks for instruction sets this build of the
 * library has no paths for (other architectures, or the hidden Kconfig
 * symbol of that instruction set off, kmod/Kbuild); -EINVAL for an
 * unknown @path.
 */
int utfconv_path_level(enum utfconv_path path);
#endif

#endif /* _UTFCONV_CODEC_H */
