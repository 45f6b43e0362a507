/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv file names: the checks utfconv_fsname.c and utfconv_fsname_map.c
 * share, and what the KUnit suites and the bench reach besides the
 * exported API (EXPORT_SYMBOL_IF_KUNIT; kernel-doc in utfconv_fsname.c).
 */
#ifndef _UTFCONV_FSNAME_H
#define _UTFCONV_FSNAME_H

#include <linux/nls.h>
#include <linux/types.h>
#include <linux/utfconv.h>

/* The utfconv encoding of UTF-16 in byte order @endian. */
static inline enum utfconv_encoding
utfconv_fsname_utf16(enum utf16_endian endian)
{
	bool be = endian == UTF16_BIG_ENDIAN ||
		  (endian == UTF16_HOST_ENDIAN &&
		   IS_ENABLED(CONFIG_CPU_BIG_ENDIAN));

	return be ? UTFCONV_UTF16BE : UTFCONV_UTF16LE;
}

/* The two policies names may use. */
static inline bool utfconv_fsname_policy_ok(u32 policy)
{
	return policy == UTFCONV_STRICT || policy == UTFCONV_WTF8;
}

/* Lengths as fs/nls takes them, and a policy names may use. */
static inline bool utfconv_fsname_args_ok(int inlen, int maxout, u32 policy)
{
	return inlen >= 0 && maxout >= 0 && utfconv_fsname_policy_ok(policy);
}

#if IS_ENABLED(CONFIG_KUNIT)
int utfconv_fsname_utf8s_to_utf16s_off(const u8 *s, int inlen,
				       enum utf16_endian endian,
				       wchar_t *pwcs, int maxout,
				       enum utfconv_policy policy,
				       u64 *error_offset);
int utfconv_fsname_utf16s_to_utf8s_off(const wchar_t *pwcs, int inlen,
				       enum utf16_endian endian, u8 *s,
				       int maxout, enum utfconv_policy policy,
				       u64 *error_offset);
#endif

#endif /* _UTFCONV_FSNAME_H */
