// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv: file name conversion for filesystems, next to fs/nls
 *
 * A filesystem that stores names as UTF-16 (NTFS, exFAT, FAT long names
 * little-endian, Joliet big-endian) translates every name between that
 * form on disk and UTF-8 in the VFS; in the kernel it calls
 * utf8s_to_utf16s() and utf16s_to_utf8s() of fs/nls. These functions
 * take the same arguments and never truncate or drop anything.
 */

#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/nls.h>
#include <linux/types.h>
#include <linux/utfconv.h>

/**
 * DOC: file name functions
 *
 * utfconv_fsname_utf8s_to_utf16s() and utfconv_fsname_utf16s_to_utf8s()
 * take the arguments of utf8s_to_utf16s() and utf16s_to_utf8s(): lengths
 * and capacities in the same units (bytes of UTF-8, 16-bit code units of
 * UTF-16), UTF-16 in the byte order @endian (%UTF16_HOST_ENDIAN is the
 * CPU's), and they return the number of units or bytes written. They
 * translate with the WTF-8 policy, so that a name on disk that holds an
 * unpaired surrogate (NTFS allows any 16-bit units) gets a UTF-8 form of
 * its own and comes back to the same units. The _off forms take the
 * policy, %UTFCONV_POLICY_STRICT (Unicode ch. 3, D92 and D91: only
 * well-formed names) or %UTFCONV_POLICY_WTF8, and report where a name is
 * bad. Where fs/nls truncates or drops, they fail:
 *
 * * a VFS name whose UTF-16 form needs more than @maxout units:
 *   -ENAMETOOLONG, what a filesystem returns for a name it cannot store;
 * * a name on disk whose UTF-8 form needs more than @maxout bytes: -E2BIG,
 *   the caller's buffer is too small (a filesystem gives up on that entry,
 *   it does not hand out a shorter name that may be another file's);
 * * ill-formed input: -EILSEQ, and the _off forms give the offset of the
 *   first bad byte (UTF-8) or code unit (UTF-16);
 * * input that ends inside a character (UTF-8 cut short; under the strict
 *   policy, a lead surrogate as the last unit): -EINVAL, with its offset.
 *
 * The output never holds part of a character. U+0000 is converted like any
 * other character (fs/nls stops there); the VFS never passes one in a name.
 * The replace and skip policies are refused (-EINVAL): they would map
 * different names to one.
 */

/* The utfconv direction for UTF-16 in byte order @endian. */
static u32 utfconv_fsname_dir(enum utf16_endian endian, bool to_utf16)
{
	bool be = endian == UTF16_BIG_ENDIAN ||
		  (endian == UTF16_HOST_ENDIAN &&
		   IS_ENABLED(CONFIG_CPU_BIG_ENDIAN));

	if (to_utf16)
		return be ? UTFCONV_DIR_UTF8_TO_UTF16BE :
			    UTFCONV_DIR_UTF8_TO_UTF16LE;
	return be ? UTFCONV_DIR_UTF16BE_TO_UTF8 : UTFCONV_DIR_UTF16LE_TO_UTF8;
}

/* Lengths as fs/nls takes them, and the two policies names may use. */
static bool utfconv_fsname_args_ok(int inlen, int maxout, u32 policy)
{
	return inlen >= 0 && maxout >= 0 &&
	       (policy == UTFCONV_POLICY_STRICT ||
		policy == UTFCONV_POLICY_WTF8);
}

/**
 * utfconv_fsname_utf8s_to_utf16s_off() - a VFS name to its UTF-16 form
 * @s: the name in UTF-8 (WTF-8 policy: unpaired surrogates in their
 *	three-byte form)
 * @inlen: length of @s in bytes
 * @endian: byte order of the units written to @pwcs
 * @pwcs: output buffer of UTF-16 code units
 * @maxout: capacity of @pwcs in code units
 * @policy: %UTFCONV_POLICY_STRICT or %UTFCONV_POLICY_WTF8
 * @error_offset: out, may be NULL: byte offset in @s of the bad input on
 *	-EILSEQ and -EINVAL; not written otherwise
 *
 * Context: Any context. Does not sleep.
 * Return:
 * * >= 0 - code units written to @pwcs
 * * -ENAMETOOLONG - the name needs more than @maxout units; the first
 *   whole characters that fit are in @pwcs, nothing past @maxout units
 * * -EILSEQ - @s is ill-formed (Unicode Table 3-7) at *@error_offset
 * * -EINVAL - @s ends inside a character at *@error_offset, or @inlen or
 *   @maxout is negative, or @policy is neither of the two
 */
int utfconv_fsname_utf8s_to_utf16s_off(const u8 *s, int inlen,
				       enum utf16_endian endian,
				       wchar_t *pwcs, int maxout, u32 policy,
				       u64 *error_offset)
{
	ssize_t ret;

	if (!utfconv_fsname_args_ok(inlen, maxout, policy))
		return -EINVAL;
	ret = utfconv_buf(utfconv_fsname_dir(endian, true), policy, 0, s,
			  inlen, pwcs, (size_t)maxout * sizeof(*pwcs),
			  error_offset);
	if (ret == -E2BIG)
		return -ENAMETOOLONG;
	return ret < 0 ? ret : ret / sizeof(*pwcs);
}
EXPORT_SYMBOL_GPL(utfconv_fsname_utf8s_to_utf16s_off);

/**
 * utfconv_fsname_utf8s_to_utf16s() - drop-in for utf8s_to_utf16s()
 * @s: the name in UTF-8 (WTF-8: unpaired surrogates in three-byte form)
 * @inlen: length of @s in bytes
 * @endian: byte order of the units written to @pwcs
 * @pwcs: output buffer of UTF-16 code units
 * @maxout: capacity of @pwcs in code units
 *
 * utfconv_fsname_utf8s_to_utf16s_off() with the WTF-8 policy, without the
 * error offset.
 *
 * Context: Any context. Does not sleep.
 * Return: as utfconv_fsname_utf8s_to_utf16s_off().
 */
int utfconv_fsname_utf8s_to_utf16s(const u8 *s, int inlen,
				   enum utf16_endian endian, wchar_t *pwcs,
				   int maxout)
{
	return utfconv_fsname_utf8s_to_utf16s_off(s, inlen, endian, pwcs,
						  maxout, UTFCONV_POLICY_WTF8,
						  NULL);
}
EXPORT_SYMBOL_GPL(utfconv_fsname_utf8s_to_utf16s);

/**
 * utfconv_fsname_utf16s_to_utf8s_off() - a name on disk to its UTF-8 form
 * @pwcs: the name on disk, UTF-16 code units in byte order @endian
 * @inlen: length of @pwcs in code units
 * @endian: byte order of @pwcs
 * @s: output buffer for UTF-8 (WTF-8 policy: unpaired surrogates in their
 *	three-byte form)
 * @maxout: capacity of @s in bytes
 * @policy: %UTFCONV_POLICY_STRICT or %UTFCONV_POLICY_WTF8
 * @error_offset: out, may be NULL: offset in @pwcs, in code units, of the
 *	unpaired surrogate on -EILSEQ and -EINVAL; not written otherwise
 *
 * Under the WTF-8 policy every sequence of code units has a UTF-8 form,
 * so that only a full buffer makes it fail.
 *
 * Context: Any context. Does not sleep.
 * Return:
 * * >= 0 - bytes written to @s
 * * -E2BIG - the UTF-8 form needs more than @maxout bytes; the first whole
 *   characters that fit are in @s, nothing past @maxout bytes
 * * -EILSEQ - strict policy: an unpaired surrogate (Unicode D91) at
 *   *@error_offset
 * * -EINVAL - strict policy: a lead surrogate as the last unit, at
 *   *@error_offset; or @inlen or @maxout is negative, or @policy is
 *   neither of the two
 */
int utfconv_fsname_utf16s_to_utf8s_off(const wchar_t *pwcs, int inlen,
				       enum utf16_endian endian, u8 *s,
				       int maxout, u32 policy,
				       u64 *error_offset)
{
	u64 off = 0;
	ssize_t ret;

	if (!utfconv_fsname_args_ok(inlen, maxout, policy))
		return -EINVAL;
	ret = utfconv_buf(utfconv_fsname_dir(endian, false), policy, 0, pwcs,
			  (size_t)inlen * sizeof(*pwcs), s, maxout, &off);
	if ((ret == -EILSEQ || ret == -EINVAL) && error_offset)
		*error_offset = off / sizeof(*pwcs);
	return ret;
}
EXPORT_SYMBOL_GPL(utfconv_fsname_utf16s_to_utf8s_off);

/**
 * utfconv_fsname_utf16s_to_utf8s() - drop-in for utf16s_to_utf8s()
 * @pwcs: the name on disk, UTF-16 code units in byte order @endian
 * @inlen: length of @pwcs in code units
 * @endian: byte order of @pwcs
 * @s: output buffer for UTF-8 (WTF-8 for unpaired surrogates)
 * @maxout: capacity of @s in bytes
 *
 * utfconv_fsname_utf16s_to_utf8s_off() with the WTF-8 policy: every
 * sequence of code units has a WTF-8 form, so this only fails when the
 * output does not fit.
 *
 * Context: Any context. Does not sleep.
 * Return:
 * * >= 0 - bytes written to @s
 * * -E2BIG - the UTF-8 form needs more than @maxout bytes
 * * -EINVAL - @inlen or @maxout is negative
 */
int utfconv_fsname_utf16s_to_utf8s(const wchar_t *pwcs, int inlen,
				   enum utf16_endian endian, u8 *s, int maxout)
{
	return utfconv_fsname_utf16s_to_utf8s_off(pwcs, inlen, endian, s,
						  maxout, UTFCONV_POLICY_WTF8,
						  NULL);
}
EXPORT_SYMBOL_GPL(utfconv_fsname_utf16s_to_utf8s);

/**
 * utfconv_fsname_utf16_len() - the UTF-16 length of a VFS name
 * @s: the name in UTF-8 (WTF-8 policy: unpaired surrogates in their
 *	three-byte form)
 * @inlen: length of @s in bytes
 * @policy: %UTFCONV_POLICY_STRICT or %UTFCONV_POLICY_WTF8
 * @error_offset: out, may be NULL: byte offset in @s of the bad input on
 *	-EILSEQ and -EINVAL; not written otherwise
 *
 * What a filesystem checks against its limit (255 units for NTFS, exFAT
 * and FAT long names) before it converts or creates anything: the number
 * of code units utfconv_fsname_utf8s_to_utf16s_off() would write, a
 * supplementary character counting two (a surrogate pair).
 *
 * Context: Any context. Does not sleep.
 * Return:
 * * >= 0 - code units of the name's UTF-16 form
 * * -EILSEQ - @s is ill-formed (Unicode Table 3-7) at *@error_offset
 * * -EINVAL - @s ends inside a character at *@error_offset, or @inlen is
 *   negative, or @policy is neither of the two
 */
int utfconv_fsname_utf16_len(const u8 *s, int inlen, u32 policy,
			     u64 *error_offset)
{
	ssize_t ret;

	if (!utfconv_fsname_args_ok(inlen, 0, policy))
		return -EINVAL;
	ret = utfconv_length(UTFCONV_DIR_UTF8_TO_UTF16LE, policy, 0, s, inlen,
			     error_offset);
	return ret < 0 ? ret : ret / sizeof(wchar_t);
}
EXPORT_SYMBOL_GPL(utfconv_fsname_utf16_len);
