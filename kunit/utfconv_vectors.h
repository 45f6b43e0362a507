/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv test vectors: one named table shared by the KUnit suites
 * (kunit/utfconv_codec_test.c) and the host-native tests
 * (userspace-test/host/host_test.c), which include it after this header,
 * never copied.
 *
 * The table itself, utfconv_vectors_gen.h, is generated at build time by
 * scripts/gen_vectors.py from kunit/field-cases.tsv (the field cases of
 * ../shared/vectors),
 * userspace-test/dev/extra-cases.tsv (the device suite's cases) and
 * kunit/utfconv_cases.tsv (RFC 3629, Unicode ch. 3 Tables 3-7 and 3-8,
 * D91, RFC 2781, WTF-8, docs/semantics.md), with the mechanical variants
 * derived: skip rows from replace rows, both byte orders, the reverse
 * direction of error-free rows. It is never edited or checked in.
 *
 * Every row is one complete stream (the last call carries UTFCONV_END).
 * Under STRICT and WTF8, @out is what is written before the error.
 */
#ifndef _UTFCONV_VECTORS_H
#define _UTFCONV_VECTORS_H

#include <linux/errno.h>
#include <linux/types.h>
#include <linux/utfconv.h>

#include "utfconv_test_pairs.h"

/* Most write() boundaries a vector names. */
#define UTFCONV_VEC_MAX_SPLITS	4

/**
 * struct utfconv_vector - one stream conversion and its expected outcome
 * @name: unique description, used as the KUnit parameter name
 * @direction: source and target, numbered (enum utfconv_test_pair)
 * @policy: enum utfconv_policy
 * @flags: UTFCONV_STRIP_BOM, UTFCONV_EMIT_BOM
 * @in: input bytes
 * @in_bytes: length of @in
 * @out: expected output bytes (before the error under STRICT and WTF8)
 * @out_bytes: length of @out
 * @code_points: expected code point counter
 * @error_kind: expected first error (enum utfconv_error_kind), under any policy
 * @error_offset: its stream offset, when @error_kind is not NONE
 * @replacements: expected replacement counter (REPLACE, SKIP)
 * @splits: write() boundaries from the field report, as input offsets
 * @nsplits: number of entries in @splits
 */
struct utfconv_vector {
	const char *name;
	u32 direction;
	u32 policy;
	u32 flags;
	const u8 *in;
	size_t in_bytes;
	const u8 *out;
	size_t out_bytes;
	u64 code_points;
	u32 error_kind;
	u64 error_offset;
	u64 replacements;
	u8 splits[UTFCONV_VEC_MAX_SPLITS];
	u8 nsplits;
};

/**
 * utfconv_vector_errno() - what utfconv_convert() returns for a vector
 * @v: the vector
 *
 * Return: 0, -EILSEQ or -EINVAL: STRICT and WTF8 stop at the first error,
 * REPLACE and SKIP go on.
 */
static inline int utfconv_vector_errno(const struct utfconv_vector *v)
{
	if (v->error_kind == UTFCONV_NO_ERROR ||
	    v->policy == UTFCONV_REPLACE ||
	    v->policy == UTFCONV_SKIP)
		return 0;
	return v->error_kind == UTFCONV_ILLFORMED ? -EILSEQ : -EINVAL;
}

#endif /* _UTFCONV_VECTORS_H */
