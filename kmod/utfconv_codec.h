/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec: what the library's other parts (the file name functions
 * of utfconv_fsname.c) use besides the exported API; utfconv_buf() is
 * exported to the KUnit suites too (EXPORT_SYMBOL_IF_KUNIT).
 */
#ifndef _UTFCONV_CODEC_H
#define _UTFCONV_CODEC_H

#include <linux/types.h>

/* kernel-doc at the definition in utfconv_oneshot.c */
ssize_t utfconv_buf(u32 direction, u32 policy, u32 flags, const void *src,
		    size_t src_bytes, void *dst, size_t dst_bytes,
		    u64 *error_offset);

/**
 * utfconv_buf_to_nul() - convert a buffer up to its first NUL
 * @direction: UTFCONV_DIR_*, one that names the byte order of UTF-16
 *	(not %UTFCONV_DIR_UTF16_TO_UTF8)
 * @policy: UTFCONV_POLICY_*
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
 * (input that ends inside a character, or a bad @direction or @policy).
 */
ssize_t utfconv_buf_to_nul(u32 direction, u32 policy, const void *src,
			   size_t src_bytes, void *dst, size_t dst_bytes);

#endif /* _UTFCONV_CODEC_H */
