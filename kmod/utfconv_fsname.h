/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv file names: what the KUnit suites and the bench reach besides
 * the exported API (EXPORT_SYMBOL_IF_KUNIT; kernel-doc in
 * utfconv_fsname.c).
 */
#ifndef _UTFCONV_FSNAME_H
#define _UTFCONV_FSNAME_H

#include <linux/nls.h>
#include <linux/types.h>
#include <linux/utfconv.h>

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
