/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv test units: what a program that links them provides
 *
 * The checks (utfconv_checks.c), long runs (utfconv_runs.c), reference
 * model (utfconv_ref.c) and stream driver (utfconv_drive.c) are linked
 * into the KUnit module and into the host-native tests of
 * userspace-test/host/. Each program provides the four functions below:
 * the KUnit module in utfconv_expect.c, where a broken expectation fails
 * the running case, each host program its own (a counter per test, or an
 * abort under the fuzzer). The expectations print the values they
 * compare, so that a failure says what was got and what was wanted.
 */
#ifndef _UTFCONV_EXPECT_H
#define _UTFCONV_EXPECT_H

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/types.h>

#include "../kmod/utfconv_simd.h"

/**
 * utfconv_test_fail() - report a broken expectation of the running test
 * @ctx: the test: the &struct kunit in the kernel, the program's own
 *	context in userspace
 * @file: source file of the expectation
 * @line: its line
 * @fmt: printf format of the message, which carries the values
 */
void utfconv_test_fail(void *ctx, const char *file, int line,
		       const char *fmt, ...) __printf(4, 5);

/**
 * utfconv_test_alloc() - scratch memory for the running test
 * @ctx: the test, as for utfconv_test_fail()
 * @bytes: size; 0 gets a valid pointer too
 *
 * Freed by the program after the test.
 *
 * Return: the memory, or NULL, the test then failed: the checks return
 * where they get none.
 */
void *utfconv_test_alloc(void *ctx, size_t bytes);

/**
 * utfconv_test_yield() - a point where the kernel may schedule
 *
 * The suites convert thousands of inputs in a row, and in a one-CPU
 * kernel without preemption a case of tens of seconds (a debug kernel
 * under QEMU's emulation) would otherwise keep RCU's kthread from the CPU
 * long enough for a stall warning. Userspace needs none.
 */
void utfconv_test_yield(void);

/**
 * utfconv_test_path() - the codec path of the running test's conversions
 *
 * Return: the path of the KUnit case's parameter, or the one a host
 * program was told to test (utfconv_paths.h passes it to the library's
 * path entries).
 */
enum utfconv_path utfconv_test_path(void);

/* Bytes shown of each side of a failed byte comparison. */
#define UTFCONV_HEX_SHOWN	24
#define UTFCONV_HEX_BUF		(3 * UTFCONV_HEX_SHOWN + 8)

/*
 * Bytes @from.. of the @n of @p as hex into @buf (UTFCONV_HEX_BUF bytes);
 * the comparison shows them from 8 before the first difference.
 */
static inline const char *utfconv_hex(char *buf, const void *p, size_t n,
				      size_t from)
{
	const unsigned char *b = p;
	size_t i, o = 0;

	o += snprintf(buf, UTFCONV_HEX_BUF, "%s", from ? "..." : "");
	for (i = from; i < n && i < from + UTFCONV_HEX_SHOWN; i++)
		o += snprintf(buf + o, UTFCONV_HEX_BUF - o, "%s%02x",
			      i == from ? "" : " ", b[i]);
	snprintf(buf + o, UTFCONV_HEX_BUF - o, "%s", i < n ? " ..." : "");
	return buf;
}

#define UTFCONV_FAIL(ctx, fmt, ...) \
	utfconv_test_fail(ctx, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

/* @cond holds; @fmt prints the values it tests. */
#define UTFCONV_CHECK(ctx, cond, fmt, ...)				\
	do {								\
		if (!(cond))						\
			UTFCONV_FAIL(ctx, fmt, ##__VA_ARGS__);		\
	} while (0)

/* Two integers are equal; a failure prints both in decimal and hex. */
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

/* @len bytes are equal; a failure shows both from the first difference. */
#define UTFCONV_MEMEQ_FMT ": %s differs from %s at byte %zu of %zu: got %s, want %s"
#define UTFCONV_EXPECT_MEMEQ(ctx, got, want, len, fmt, ...)		\
	do {								\
		const unsigned char *got_ = (const void *)(got);	\
		const unsigned char *want_ = (const void *)(want);	\
		char ghex_[UTFCONV_HEX_BUF], whex_[UTFCONV_HEX_BUF];	\
		size_t len_ = (len), at_ = 0;				\
		while (at_ < len_ && got_[at_] == want_[at_])		\
			at_++;						\
		if (at_ < len_)						\
			UTFCONV_FAIL(ctx, fmt UTFCONV_MEMEQ_FMT,		\
				     ##__VA_ARGS__, #got, #want, at_,	\
				     len_,				\
				     utfconv_hex(ghex_, got_, len_,	\
						 at_ > 8 ? at_ - 8 : 0),	\
				     utfconv_hex(whex_, want_, len_,	\
						 at_ > 8 ? at_ - 8 : 0));	\
	} while (0)

#define UTFCONV_ALLOC(ctx, bytes)	utfconv_test_alloc(ctx, bytes)

#endif /* _UTFCONV_EXPECT_H */
