/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The expectations of kunit/utfconv_checks.h for the userspace tests
 * (host_test.c, fuzz_utfconv.c): what KUNIT_EXPECT_TRUE_MSG,
 * KUNIT_EXPECT_EQ_MSG and KUNIT_EXPECT_MEMEQ_MSG are in the kernel, each
 * failure printed with the values (integers in decimal and hex, bytes in
 * hex from the first difference). The includer defines
 * UTFCONV_FAIL(ctx, fmt, ...) to report one failure.
 */
#ifndef _UTFCONV_HOST_EXPECT_H
#define _UTFCONV_HOST_EXPECT_H

#include <stddef.h>
#include <stdio.h>

/* Bytes shown of each side of a failed byte comparison. */
#define UTFCONV_HEX_SHOWN	24

/*
 * Bytes @from.. of the @n of @p as hex into @buf (3 * UTFCONV_HEX_SHOWN +
 * 8); the comparison shows them from 8 before the first difference.
 */
static inline const char *utfconv_hex(char *buf, const void *p, size_t n,
				      size_t from)
{
	const unsigned char *b = p;
	size_t i, o = 0;

	o += sprintf(buf, "%s", from ? "..." : "");
	for (i = from; i < n && i < from + UTFCONV_HEX_SHOWN; i++)
		o += sprintf(buf + o, "%s%02x", i == from ? "" : " ", b[i]);
	sprintf(buf + o, "%s", i < n ? " ..." : "");
	return buf;
}

#define UTFCONV_CHECK(ctx, cond, fmt, ...)				\
	do {								\
		if (!(cond))						\
			UTFCONV_FAIL(ctx, fmt, ##__VA_ARGS__);		\
	} while (0)

#define UTFCONV_EXPECT_EQ(ctx, got, want, fmt, ...)			\
	do {								\
		long long got_ = (long long)(got);			\
		long long want_ = (long long)(want);			\
		if (got_ != want_)					\
			UTFCONV_FAIL(ctx, fmt ": %s is %lld (0x%llx), want %s = %lld (0x%llx)", \
				     ##__VA_ARGS__, #got, got_,		\
				     (unsigned long long)got_, #want,	\
				     want_, (unsigned long long)want_);	\
	} while (0)

#define UTFCONV_EXPECT_MEMEQ(ctx, got, want, len, fmt, ...)		\
	do {								\
		const unsigned char *got_ = (const void *)(got);	\
		const unsigned char *want_ = (const void *)(want);	\
		char ghex_[3 * UTFCONV_HEX_SHOWN + 8];			\
		char whex_[3 * UTFCONV_HEX_SHOWN + 8];			\
		size_t len_ = (len), at_ = 0;				\
		while (at_ < len_ && got_[at_] == want_[at_])		\
			at_++;						\
		if (at_ < len_)						\
			UTFCONV_FAIL(ctx, fmt ": %s differs from %s at byte %zu of %zu: got %s, want %s", \
				     ##__VA_ARGS__, #got, #want, at_,	\
				     len_,				\
				     utfconv_hex(ghex_, got_, len_,	\
						 at_ > 8 ? at_ - 8 : 0),	\
				     utfconv_hex(whex_, want_, len_,	\
						 at_ > 8 ? at_ - 8 : 0));	\
	} while (0)

#endif /* _UTFCONV_HOST_EXPECT_H */
