/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv checks of the KUnit suites and the host tests (utfconv_checks.c):
 * each function runs one kind of check on one vector or input and reports
 * every broken expectation, with the values, through utfconv_expect.h.
 */
#ifndef _UTFCONV_CHECKS_H
#define _UTFCONV_CHECKS_H

#include <linux/types.h>

#include "utfconv_ref.h"
#include "utfconv_vectors.h"

/* Poison for output bytes that must not be written. */
#define UTFCONV_POISON	0xA5

/**
 * struct utfconv_expect - expected outcome of converting a whole stream
 * @out: output bytes
 * @out_bytes: length of @out
 * @err: 0, -EILSEQ or -EINVAL
 * @error_kind: enum utfconv_error_kind of the first error
 * @error_offset: its offset
 * @code_points: code point counter
 * @replacements: replacement counter
 * @bytes_in: bytes_in counter
 */
struct utfconv_expect {
	const u8 *out;
	size_t out_bytes;
	int err;
	u32 error_kind;
	u64 error_offset;
	u64 code_points;
	u64 replacements;
	u64 bytes_in;
};

static inline bool utfconv_utf16_out(u32 direction)
{
	return direction == UTFCONV_TEST_UTF8_TO_UTF16LE ||
	       direction == UTFCONV_TEST_UTF8_TO_UTF16BE;
}

static inline void utfconv_expect_ref(const struct utfconv_ref *r,
				      struct utfconv_expect *e)
{
	e->out = r->out;
	e->out_bytes = r->out_bytes;
	e->err = r->err;
	e->error_kind = r->error_kind;
	e->error_offset = r->error_offset;
	e->code_points = r->code_points;
	e->replacements = r->replacements;
	e->bytes_in = r->bytes_in;
}

void utfconv_check_bytes(void *ctx, const char *name, const char *how,
			 const u8 *got, size_t got_bytes,
			 const u8 *want, size_t want_bytes);
void utfconv_check_convert(void *ctx, const char *name,
			   const char *how, u32 direction, u32 policy,
			   u32 flags, const u8 *in, size_t in_bytes,
			   const size_t *cuts, unsigned int ncuts,
			   size_t cap, const struct utfconv_expect *e);
void utfconv_check_vector_reference(void *ctx,
				    const struct utfconv_vector *v);
void utfconv_check_vector_oneshot(void *ctx,
				  const struct utfconv_vector *v);
void utfconv_check_vector_oneshot_api(void *ctx,
				      const struct utfconv_vector *v);
u32 utfconv_reverse_direction(u32 direction);
void utfconv_check_vector_reverse(void *ctx,
				  const struct utfconv_vector *v);
void utfconv_check_vector_chunking(void *ctx,
				   const struct utfconv_vector *v);
void utfconv_check_vector_capacity(void *ctx,
				   const struct utfconv_vector *v);
bool utfconv_check_against_ref(void *ctx, const char *name,
			       u32 direction, u32 policy, u32 flags,
			       const u8 *in, size_t in_bytes, u8 *buf);

#endif /* _UTFCONV_CHECKS_H */
