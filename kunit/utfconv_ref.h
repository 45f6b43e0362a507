/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv reference model for the tests (utfconv_ref.c): a plain,
 * one-shot converter written from the rules, which the checks compare
 * the codec with.
 */
#ifndef _UTFCONV_REF_H
#define _UTFCONV_REF_H

#include <linux/types.h>

#include "utfconv_test_pairs.h"

/**
 * struct utfconv_ref - outcome of utfconv_ref_convert()
 * @out: output buffer given by the caller
 * @out_bytes: bytes written to @out
 * @bytes_in: input bytes accepted (the error offset after a stop)
 * @code_points: code points written
 * @replacements: sequences replaced or skipped
 * @error_offset: offset of the first error, if @error_kind is set
 * @error_kind: enum utfconv_error_kind of the first error
 * @err: 0, or -EILSEQ / -EINVAL when STRICT or WTF8 stopped
 * @utf16_out: output is UTF-16
 * @be_out: UTF-16 output is big-endian
 * @policy: enum utfconv_policy
 */
struct utfconv_ref {
	u8 *out;
	size_t out_bytes;
	u64 bytes_in;
	u64 code_points;
	u64 replacements;
	u64 error_offset;
	u32 error_kind;
	int err;
	bool utf16_out;
	bool be_out;
	u32 policy;
};

/* Output capacity the reference needs for @in_bytes of input. */
static inline size_t utfconv_ref_out_max(u32 direction, size_t in_bytes)
{
	if (direction == UTFCONV_TEST_UTF8_TO_UTF16LE ||
	    direction == UTFCONV_TEST_UTF8_TO_UTF16BE)
		return 2 * in_bytes + 2;
	return 3 * (in_bytes / 2 + 1) + 3;
}

void utfconv_ref_convert(u32 direction, u32 policy, u32 flags,
			 const u8 *in, size_t in_bytes, u8 *out,
			 struct utfconv_ref *r);

#endif /* _UTFCONV_REF_H */
