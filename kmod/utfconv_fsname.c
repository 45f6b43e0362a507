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

#include <asm/byteorder.h>
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/nls.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/utfconv.h>

#include "utfconv_codec.h"
#include "utfconv_fsname.h"

/**
 * DOC: file name functions
 *
 * utfconv_fsname_utf8s_to_utf16s() and utfconv_fsname_utf16s_to_utf8s()
 * take the arguments of utf8s_to_utf16s() and utf16s_to_utf8s(): lengths
 * and capacities in the same units (bytes of UTF-8, 16-bit code units of
 * UTF-16), UTF-16 in the byte order @endian (%UTF16_HOST_ENDIAN is the
 * CPU's), and they return the number of units or bytes written. One more
 * argument says the policy: %UTFCONV_WTF8, under which a name on
 * disk that holds an unpaired surrogate (NTFS allows any 16-bit units)
 * gets a UTF-8 form of its own and comes back to the same units, or
 * %UTFCONV_STRICT (Unicode ch. 3, D92 and D91: only well-formed
 * names). The _off forms, which only the KUnit suites and the bench
 * reach, report where a name is bad. Where fs/nls truncates or drops,
 * they fail:
 *
 * * a VFS name whose UTF-16 form needs more than @maxout units:
 *   -ENAMETOOLONG, what a filesystem returns for a name it cannot store;
 * * a name on disk whose UTF-8 form needs more than @maxout bytes: -E2BIG,
 *   the caller's buffer is too small (a filesystem gives up on that entry,
 *   it does not hand out a shorter name that may be another file's);
 * * ill-formed input: -EILSEQ, and the _off forms give the offset of the
 *   first bad byte (UTF-8) or code unit (UTF-16); a VFS name gets fs/nls's
 *   -EINVAL from utfconv_fsname_utf8s_to_utf16s(), which a filesystem
 *   returns to userspace as it did;
 * * input that ends inside a character (UTF-8 cut short; under the strict
 *   policy, a lead surrogate as the last unit): -EINVAL, with its offset.
 *
 * The output a call returns never holds part of a character; the rest of
 * the buffer, up to its capacity, is scratch, and on -ENAMETOOLONG or
 * -E2BIG the whole buffer is (fs/nls truncates instead and leaves the
 * bytes past its output alone). utfconv_fsname_utf8s_to_utf16s() and
 * utfconv_fsname_utf16s_to_utf8s() stop at the first NUL byte or U+0000
 * unit, as fs/nls does, since vfat and exFAT hand them whole name
 * buffers, NUL-terminated and padded; the _off forms convert U+0000 like
 * any other character. The replace and skip policies are refused
 * (-EINVAL): they would map different names to one.
 *
 * The policy is the caller's: a filesystem takes it from a mount option
 * (``names=wtf8`` or ``names=strict``, beside ``iocharset=``) and keeps it
 * for the life of the mount, since a change under a mounted filesystem
 * would give names already in the dcache a different meaning from the
 * ones looked up next.
 */

/**
 * utfconv_fsname_utf8s_to_utf16s() - utf8s_to_utf16s() under a policy
 * @s: the name in UTF-8 (WTF-8 policy: unpaired surrogates in their
 *	three-byte form)
 * @inlen: length of @s in bytes; as in fs/nls, the name ends at its first
 *	NUL byte if one comes earlier
 * @endian: byte order of the units written to @pwcs
 * @pwcs: output buffer of UTF-16 code units
 * @maxout: capacity of @pwcs in code units
 * @policy: %UTFCONV_STRICT or %UTFCONV_WTF8, the caller's
 *	(a filesystem's names= mount option)
 *
 * The arguments of utf8s_to_utf16s() and the policy; fs/nls's errno for
 * ill-formed input, which a filesystem returns to userspace as it did.
 *
 * Context: Any context. Does not sleep.
 * Return:
 * * >= 0 - code units written to @pwcs; those past them, up to @maxout,
 *   are scratch (fs/nls leaves them alone)
 * * -ENAMETOOLONG - the name needs more than @maxout units
 * * -EINVAL - @s is ill-formed (Unicode Table 3-7; strict policy: also the
 *   three-byte form of a surrogate) or ends inside a character, or @inlen
 *   or @maxout is negative, or @policy is neither of the two
 */
int utfconv_fsname_utf8s_to_utf16s(const u8 *s, int inlen,
				   enum utf16_endian endian, wchar_t *pwcs,
				   int maxout, enum utfconv_policy policy)
{
	ssize_t ret;

	if (!utfconv_fsname_args_ok(inlen, maxout, policy))
		return -EINVAL;
	/* fs/nls ends a name at its first NUL byte, so callers pass buffers */
	ret = utfconv_buf_to_nul(UTFCONV_UTF8, utfconv_fsname_utf16(endian),
				 policy, s, inlen, pwcs,
				 (size_t)maxout * sizeof(*pwcs));
	if (ret == -E2BIG)
		return -ENAMETOOLONG;
	if (ret == -EILSEQ)
		return -EINVAL;
	return ret < 0 ? ret : ret / sizeof(*pwcs);
}
EXPORT_SYMBOL_GPL(utfconv_fsname_utf8s_to_utf16s);

/**
 * utfconv_fsname_utf16s_to_utf8s() - utf16s_to_utf8s() under a policy
 * @pwcs: the name on disk, UTF-16 code units in byte order @endian
 * @inlen: length of @pwcs in code units, at most; the name ends at the
 *	first U+0000 unit before that
 * @endian: byte order of @pwcs
 * @s: output buffer for UTF-8 (WTF-8 policy: unpaired surrogates in their
 *	three-byte form)
 * @maxout: capacity of @s in bytes
 * @policy: %UTFCONV_STRICT or %UTFCONV_WTF8, the caller's
 *	(a filesystem's names= mount option)
 *
 * The arguments of utf16s_to_utf8s() and the policy, on the units before
 * the first U+0000, as fs/nls reads them (vfat and exFAT pass name
 * buffers NUL-terminated and padded with 0xFFFF). Under the WTF-8 policy
 * every sequence of code units has a UTF-8 form, so that only a full
 * buffer makes it fail.
 *
 * Context: Any context. Does not sleep.
 * Return:
 * * >= 0 - bytes written to @s; those past them, up to @maxout, are
 *   scratch (fs/nls leaves them alone)
 * * -E2BIG - the UTF-8 form needs more than @maxout bytes; nothing is
 *   written past @maxout bytes, and what @s holds is unspecified
 * * -EILSEQ - strict policy: an unpaired surrogate (Unicode D91), also a
 *   lead surrogate as the last unit (the name is whole)
 * * -EINVAL - @inlen or @maxout is negative, or @policy is neither of the
 *   two
 */
int utfconv_fsname_utf16s_to_utf8s(const wchar_t *pwcs, int inlen,
				   enum utf16_endian endian, u8 *s, int maxout,
				   enum utfconv_policy policy)
{
	ssize_t ret;

	if (!utfconv_fsname_args_ok(inlen, maxout, policy))
		return -EINVAL;
	ret = utfconv_buf_to_nul(utfconv_fsname_utf16(endian), UTFCONV_UTF8,
				 policy, pwcs, (size_t)inlen * sizeof(*pwcs), s,
				 maxout);
	return ret == -EINVAL ? -EILSEQ : ret;
}
EXPORT_SYMBOL_GPL(utfconv_fsname_utf16s_to_utf8s);

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * The _off forms: the whole input, U+0000 included, and the offset of bad
 * input. No filesystem needs either; the KUnit suites check the other
 * forms against them and the bench measures them.
 */

/**
 * utfconv_fsname_utf8s_to_utf16s_off() - a VFS name to its UTF-16 form
 * @s: the name in UTF-8 (WTF-8 policy: unpaired surrogates in their
 *	three-byte form)
 * @inlen: length of @s in bytes
 * @endian: byte order of the units written to @pwcs
 * @pwcs: output buffer of UTF-16 code units
 * @maxout: capacity of @pwcs in code units
 * @policy: %UTFCONV_STRICT or %UTFCONV_WTF8
 * @error_offset: out, may be NULL: byte offset in @s of the bad input on
 *	-EILSEQ and -EINVAL; not written otherwise
 *
 * Context: Any context. Does not sleep.
 * Return:
 * * >= 0 - code units written to @pwcs; those past them, up to @maxout,
 *   are scratch (fs/nls leaves them alone)
 * * -ENAMETOOLONG - the name needs more than @maxout units; nothing is
 *   written past @maxout units, and what @pwcs holds is unspecified
 * * -EILSEQ - @s is ill-formed (Unicode Table 3-7) at *@error_offset
 * * -EINVAL - @s ends inside a character at *@error_offset, or @inlen or
 *   @maxout is negative, or @policy is neither of the two
 */
int utfconv_fsname_utf8s_to_utf16s_off(const u8 *s, int inlen,
				       enum utf16_endian endian,
				       wchar_t *pwcs, int maxout,
				       enum utfconv_policy policy,
				       u64 *error_offset)
{
	ssize_t ret;

	if (!utfconv_fsname_args_ok(inlen, maxout, policy))
		return -EINVAL;
	ret = utfconv_buf(UTFCONV_UTF8, utfconv_fsname_utf16(endian), policy, 0,
			  s, inlen, pwcs, (size_t)maxout * sizeof(*pwcs),
			  error_offset);
	if (ret == -E2BIG)
		return -ENAMETOOLONG;
	return ret < 0 ? ret : ret / sizeof(*pwcs);
}
EXPORT_SYMBOL_IF_KUNIT(utfconv_fsname_utf8s_to_utf16s_off);

/**
 * utfconv_fsname_utf16s_to_utf8s_off() - a name on disk to its UTF-8 form
 * @pwcs: the name on disk, UTF-16 code units in byte order @endian
 * @inlen: length of @pwcs in code units
 * @endian: byte order of @pwcs
 * @s: output buffer for UTF-8 (WTF-8 policy: unpaired surrogates in their
 *	three-byte form)
 * @maxout: capacity of @s in bytes
 * @policy: %UTFCONV_STRICT or %UTFCONV_WTF8
 * @error_offset: out, may be NULL: offset in @pwcs, in code units, of the
 *	unpaired surrogate on -EILSEQ and -EINVAL; not written otherwise
 *
 * Under the WTF-8 policy every sequence of code units has a UTF-8 form,
 * so that only a full buffer makes it fail.
 *
 * Context: Any context. Does not sleep.
 * Return:
 * * >= 0 - bytes written to @s; those past them, up to @maxout, are
 *   scratch (fs/nls leaves them alone)
 * * -E2BIG - the UTF-8 form needs more than @maxout bytes; nothing is
 *   written past @maxout bytes, and what @s holds is unspecified
 * * -EILSEQ - strict policy: an unpaired surrogate (Unicode D91) at
 *   *@error_offset
 * * -EINVAL - strict policy: a lead surrogate as the last unit, at
 *   *@error_offset; or @inlen or @maxout is negative, or @policy is
 *   neither of the two
 */
int utfconv_fsname_utf16s_to_utf8s_off(const wchar_t *pwcs, int inlen,
				       enum utf16_endian endian, u8 *s,
				       int maxout, enum utfconv_policy policy,
				       u64 *error_offset)
{
	/* utfconv_buf() writes it only for bad input */
	u64 off = U64_MAX;
	ssize_t ret;

	if (!utfconv_fsname_args_ok(inlen, maxout, policy))
		return -EINVAL;
	ret = utfconv_buf(utfconv_fsname_utf16(endian), UTFCONV_UTF8, policy, 0,
			  pwcs, (size_t)inlen * sizeof(*pwcs), s, maxout, &off);
	if (off != U64_MAX && error_offset)
		*error_offset = off / sizeof(*pwcs);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(utfconv_fsname_utf16s_to_utf8s_off);
#endif /* CONFIG_KUNIT */

/* Bytes of the UTF-8 sequence that @lead starts (Table 3-7), 0 if none. */
static int utfconv_fsname_seq_bytes(u8 lead)
{
	if (lead < 0x80)
		return 1;
	if (lead < 0xC2)
		return 0;
	if (lead < 0xE0)
		return 2;
	if (lead < 0xF0)
		return 3;
	return lead < 0xF5 ? 4 : 0;
}

/**
 * utfconv_fsname_utf8_to_utf32() - utf8_to_utf32() under a policy
 * @s: UTF-8, the first character of which is decoded (WTF-8 policy: an
 *	unpaired surrogate in its three-byte form too)
 * @inlen: bytes readable at @s
 * @pu: out: the code point (WTF-8 policy: or a surrogate code point);
 *	not written on error
 * @policy: %UTFCONV_STRICT or %UTFCONV_WTF8, the caller's
 *	(a filesystem's names= mount option)
 *
 * One character, for a filesystem that hashes and compares names a
 * character at a time (exFAT's d_hash and d_compare): the contract of
 * utf8_to_utf32(), its errnos included, under @policy, so that a name
 * utfconv_fsname_utf8s_to_utf16s() takes under it is decoded too. The
 * forms accepted are those of Unicode Table 3-7 (RFC 3629): no overlong
 * form, nothing above U+10FFFF. Under the WTF-8 policy ED A0 80..ED BF BF
 * decode to U+D800..U+DFFF, except a lead surrogate's form followed by a
 * trail surrogate's: a surrogate pair is written as one four-byte
 * character, as utfconv_fsname_utf8s_to_utf16s() wants it.
 *
 * Context: Any context. Does not sleep.
 * Return:
 * * 1..4 - bytes of the character decoded
 * * -EILSEQ - @s does not start with a well-formed character (strict
 *   policy: also a surrogate's three-byte form)
 * * -EOVERFLOW - @s ends inside a character (its first @inlen bytes are
 *   a well-formed beginning of one), as from utf8_to_utf32()
 * * -EINVAL - @inlen is not positive, or @policy is neither of the two
 */
int utfconv_fsname_utf8_to_utf32(const u8 *s, int inlen, unicode_t *pu,
				 enum utfconv_policy policy)
{
	__le16 u[2];
	ssize_t ret;
	int n;

	if (inlen <= 0 || !utfconv_fsname_policy_ok(policy))
		return -EINVAL;
	n = utfconv_fsname_seq_bytes(s[0]);
	if (!n)
		return -EILSEQ;
	ret = utfconv_buf(UTFCONV_UTF8, UTFCONV_UTF16LE, policy, 0, s,
			  min(n, inlen), u, sizeof(u), NULL);
	/* the arguments are good: -EINVAL is input that ends too soon */
	if (ret == -EINVAL)
		return -EOVERFLOW;
	if (ret < 0)
		return ret;
	if (ret == sizeof(u)) {
		*pu = 0x10000 + ((le16_to_cpu(u[0]) - 0xD800) << 10) +
		      (le16_to_cpu(u[1]) - 0xDC00);
		return n;
	}
	/* WTF-8: a lead surrogate's form next to a trail's is ill-formed. */
	if ((le16_to_cpu(u[0]) & 0xFC00) == 0xD800 && inlen >= n + 2 &&
	    s[n] == 0xED && s[n + 1] >= 0xB0)
		return -EILSEQ;
	*pu = le16_to_cpu(u[0]);
	return n;
}
EXPORT_SYMBOL_GPL(utfconv_fsname_utf8_to_utf32);
