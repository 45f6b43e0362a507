// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: the one-shot API, a whole buffer in one call
 * (utfconv_buf()) or a buffer up to its first NUL (utfconv_buf_to_nul(),
 * the file name functions' form), and the NUL search it needs.
 */

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <linux/utfconv.h>
#include <kunit/visibility.h>

#include "utfconv_codec.h"
#include "utfconv_internal.h"

/*
 * Whether the 16 bytes at @s hold a zero unit of @unit bytes (1 or 2,
 * at even offsets). In each word the subtraction sets the top bit of the
 * lowest zero lane, which borrows from nothing below it, and of no lane
 * when none is zero; it may set bits above a zero lane, which a yes-or-no
 * answer does not mind.
 */
static inline bool utfconv_zero_lane16(const u8 *s, unsigned int unit)
{
	u64 lanes = unit == 1 ? 0x0101010101010101ULL : 0x0001000100010001ULL;
	u64 top = lanes << (8 * unit - 1);
	u64 a = get_unaligned((const u64 *)s);
	u64 b = get_unaligned((const u64 *)s + 1);

	return (((a - lanes) & ~a) | ((b - lanes) & ~b)) & top;
}

/*
 * The first of the @n bytes at @s (@n a multiple of @unit) that starts a
 * zero unit of @unit bytes, or @n: 16 bytes a step, then the last 16,
 * which may overlap bytes already seen, so that input without one (the
 * common case) ends without a loop of units.
 */
size_t utfconv_zero_unit(const u8 *s, size_t n, unsigned int unit)
{
	size_t i;

	for (i = 0; n - i >= 16; i += 16)
		if (utfconv_zero_lane16(s + i, unit))
			break;
	if (n - i < 16 && n >= 16 && !utfconv_zero_lane16(s + n - 16, unit))
		return n;
	while (i < n && (s[i] | s[i + unit - 1]))
		i += unit;
	return i;
}

/*
 * One whole input that ends at its first NUL, in encodings that know
 * their byte order (utfconv_buf_to_nul()).
 */
static int utfconv_run_nul(struct utfconv_state *st, struct utfconv_cursor *c)
{
	if (st->target == UTFCONV_UTF16LE)
		return utfconv_utf8_to_le_nul(st, c);
	if (st->target == UTFCONV_UTF16BE)
		return utfconv_utf8_to_be_nul(st, c);
	if (st->source == UTFCONV_UTF16LE)
		return utfconv_le_to_utf8_nul(st, c);
	return utfconv_be_to_utf8_nul(st, c);
}

/*
 * The error offset of utfconv_buf(), written only for bad input: a
 * halting error, never the -EINVAL of a bad argument or of a buffer that
 * wraps the address space, which has no offset in the input.
 */
static void utfconv_put_offset(const struct utfconv_state *st, int ret,
			       u64 *error_offset)
{
	if (error_offset && (ret == -EILSEQ || (ret == -EINVAL && st->halt)))
		*error_offset = st->error_offset;
}

/*
 * utfconv_buf() on the paths @ch; inlined into each entry, so that the
 * API's calls are the same whether the KUnit entries exist or not.
 */
static __always_inline ssize_t
utfconv_buf_on(const struct utfconv_choice *ch, u32 source, u32 target,
	       u32 policy, u32 flags, const void *src, size_t src_bytes,
	       void *dst, size_t dst_bytes, u64 *error_offset)
{
	struct utfconv_state st = { };
	struct utfconv_cursor c;
	size_t in, out;
	int ret;

	if (!utfconv_valid_config(source, target, policy, flags))
		return -EINVAL;
	if (flags || source == UTFCONV_UTF16) {
		ret = utfconv_init(&st, source, target, policy, flags);
		if (!ret)
			ret = utfconv_convert_on(&st, ch, src, src_bytes, &in,
						 dst, dst_bytes, &out,
						 UTFCONV_END);
	} else {
		/*
		 * No BOM to write, strip or learn a byte order from, and no
		 * next call: for a short buffer such as a file name,
		 * utfconv_init() and utfconv_convert()'s checks and counters
		 * for a stream are a good part of the work, so the new
		 * stream's state goes to the converter at once.
		 */
		utfconv_start(&st, source, target, policy, flags);
		if (!utfconv_cursor_set(&c, src, src_bytes, dst, dst_bytes, 0,
					ch))
			return -EINVAL;
		ret = utfconv_run(&st, &c, true);
		out = c.d - (u8 *)dst;
	}
	utfconv_put_offset(&st, ret, error_offset);
	return ret ? ret : out;
}

/**
 * utfconv_buf() - convert one complete buffer
 * @source: encoding of the input
 * @target: encoding of the output, as for utfconv_init()
 * @policy: what to do with ill-formed or incomplete input
 * @flags: zero or more of %UTFCONV_STRIP_BOM and %UTFCONV_EMIT_BOM
 * @src: input bytes; the whole stream
 * @src_bytes: length of @src in bytes
 * @dst: output buffer
 * @dst_bytes: capacity of @dst in bytes
 * @error_offset: out, may be NULL: byte offset in @src of the error when
 *	-EILSEQ or -EINVAL is returned for bad input; not written otherwise
 *
 * One-shot form of utfconv_convert(), inside the library: what the file
 * name functions of utfconv_fsname.c build on, and what the KUnit suites
 * check the stream against (exported to them alone). Filesystem names
 * want %UTFCONV_STRICT or %UTFCONV_WTF8: replace and skip
 * map different names to one.
 *
 * Context: Any context.
 * Return:
 * * >= 0 - bytes of output in @dst; the bytes past them are scratch, as
 *   for utfconv_convert()
 * * -E2BIG - the output does not fit in @dst_bytes (never truncated
 *   silently); what @dst then holds is unspecified: utfconv_convert()
 *   says how much of the input fits
 * * -EILSEQ - ill-formed input (strict, wtf8), at *@error_offset
 * * -EINVAL - input ends inside a character (strict, wtf8), at
 *   *@error_offset; or a @source, @target, @policy or @flags that
 *   utfconv_init() refuses
 */
ssize_t utfconv_buf(enum utfconv_encoding source,
		    enum utfconv_encoding target, enum utfconv_policy policy,
		    u32 flags, const void *src, size_t src_bytes, void *dst,
		    size_t dst_bytes, u64 *error_offset)
{
	struct utfconv_choice ch;

	utfconv_choose(&ch);
	return utfconv_buf_on(&ch, source, target, policy, flags, src,
			      src_bytes, dst, dst_bytes, error_offset);
}
EXPORT_SYMBOL_IF_KUNIT(utfconv_buf);

/* utfconv_buf_to_nul() on the paths @ch; inlined as utfconv_buf_on() */
static __always_inline ssize_t
utfconv_buf_to_nul_on(const struct utfconv_choice *ch, u32 source,
		      u32 target, u32 policy, const void *src, size_t src_bytes,
		      void *dst, size_t dst_bytes)
{
	struct utfconv_state st = { };
	struct utfconv_cursor c;
	int ret;

	if (!utfconv_valid_config(source, target, policy, 0) ||
	    source == UTFCONV_UTF16)
		return -EINVAL;
	utfconv_start(&st, source, target, policy, 0);
	if (!utfconv_cursor_set(&c, src, src_bytes, dst, dst_bytes, 0, ch))
		return -EINVAL;
	ret = utfconv_run_nul(&st, &c);
	return ret ? ret : c.d - (u8 *)dst;
}

/*
 * For the fs/nls drop-ins (kernel-doc in utfconv_codec.h): as utfconv_buf()
 * with no flags, on the input before its first NUL.
 */
ssize_t utfconv_buf_to_nul(enum utfconv_encoding source,
			   enum utfconv_encoding target,
			   enum utfconv_policy policy, const void *src,
			   size_t src_bytes, void *dst, size_t dst_bytes)
{
	struct utfconv_choice ch;

	utfconv_choose(&ch);
	return utfconv_buf_to_nul_on(&ch, source, target, policy, src,
				     src_bytes, dst, dst_bytes);
}

#if IS_ENABLED(CONFIG_KUNIT)
/* For KUnit only (kernel-doc in utfconv_codec.h): a call on @path. */
VISIBLE_IF_KUNIT ssize_t utfconv_buf_path(enum utfconv_path path,
					  enum utfconv_encoding source,
					  enum utfconv_encoding target,
					  enum utfconv_policy policy,
					  u32 flags, const void *src,
					  size_t src_bytes, void *dst,
					  size_t dst_bytes, u64 *error_offset)
{
	struct utfconv_choice ch;

	utfconv_path_choose(path, &ch);
	return utfconv_buf_on(&ch, source, target, policy, flags, src,
			      src_bytes, dst, dst_bytes, error_offset);
}
EXPORT_SYMBOL_IF_KUNIT(utfconv_buf_path);

/* For KUnit only (kernel-doc in utfconv_codec.h): a call on @path. */
VISIBLE_IF_KUNIT ssize_t utfconv_buf_to_nul_path(enum utfconv_path path,
						 enum utfconv_encoding source,
						 enum utfconv_encoding target,
						 enum utfconv_policy policy,
						 const void *src,
						 size_t src_bytes, void *dst,
						 size_t dst_bytes)
{
	struct utfconv_choice ch;

	utfconv_path_choose(path, &ch);
	return utfconv_buf_to_nul_on(&ch, source, target, policy, src,
				     src_bytes, dst, dst_bytes);
}
EXPORT_SYMBOL_IF_KUNIT(utfconv_buf_to_nul_path);
#endif
