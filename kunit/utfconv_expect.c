// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv KUnit suites: what the shared test units (utfconv_expect.h)
 * need from the program that links them. A broken expectation fails the
 * running case; scratch memory is the case's, freed when it ends; the
 * codec path is that of the case's parameter.
 */

#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/kernel.h>

#include "utfconv_expect.h"
#include "utfconv_test_param.h"

void utfconv_test_fail(void *ctx, const char *file, int line,
		       const char *fmt, ...)
{
	struct kunit *test = ctx;
	va_list args;
	char *msg;

	va_start(args, fmt);
	msg = kvasprintf(GFP_KERNEL, fmt, args);
	va_end(args);
	KUNIT_FAIL(test, "%s:%d: %s", file, line, msg ?: fmt);
	kfree(msg);
}

void *utfconv_test_alloc(void *ctx, size_t bytes)
{
	struct kunit *test = ctx;
	void *p = kunit_kmalloc(test, max_t(size_t, bytes, 1), GFP_KERNEL);

	/* the checks return where they get none: the case must not pass */
	if (!p)
		KUNIT_FAIL(test, "no memory for %zu bytes", bytes);
	return p;
}

void utfconv_test_yield(void)
{
	cond_resched();
}

enum utfconv_path utfconv_test_path(void)
{
	struct kunit *test = kunit_get_current_test();
	const struct utfconv_test_param *p = test ? test->param_value : NULL;

	return p ? p->path : UTFCONV_PATH_AUTO;
}
