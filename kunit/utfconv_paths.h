/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every suite on every codec path in one boot: a suite is defined once
 * per path, and its suite_init pins that path in the library with the
 * KUnit-only utfconv_force_path() (kmod/utfconv_simd.h), its suite_exit
 * gives the default back. KUnit runs suites one after the other, so that
 * each sees only its own path. The hooks are in utfconv_codec_test.c.
 */
#ifndef _UTFCONV_PATHS_H
#define _UTFCONV_PATHS_H

#include <kunit/test.h>

#include "../kmod/utfconv_simd.h"

/* the path the running suite pinned */
extern enum utfconv_path utfconv_test_path;

int utfconv_test_pin_scalar(struct kunit_suite *suite);
int utfconv_test_pin_simd(struct kunit_suite *suite);
int utfconv_test_pin_sse2(struct kunit_suite *suite);
int utfconv_test_pin_ssse3(struct kunit_suite *suite);
int utfconv_test_pin_generic(struct kunit_suite *suite);
int utfconv_test_pin_avx2(struct kunit_suite *suite);
int utfconv_test_pin_avx512(struct kunit_suite *suite);
void utfconv_test_unpin(struct kunit_suite *suite);
int utfconv_test_init(struct kunit *test, int (*init)(struct kunit *test));

/*
 * UTFCONV_DEFINE_PATH_SUITE(base, tag, cases, init): the suite
 * "<base>_<tag>" of @cases (per-test @init, may be NULL) on the path
 * utfconv_test_pin_<tag>() pins: scalar, simd (the SIMD paths whatever
 * the size, what the default takes for large buffers), sse2 (SSE2 only),
 * ssse3 (no AVX2), generic (scalar, without the BMI2 steps), avx2 (no
 * AVX-512) or avx512 (the AVX-512 paths both ways; on a CPU without them
 * every test of the suite is skipped, "skipped: no AVX-512 on this CPU").
 */
#define UTFCONV_DEFINE_PATH_SUITE(base, tag, cases, test_init) \
	static int base##_##tag##_init(struct kunit *test) \
	{ \
		return utfconv_test_init(test, test_init); \
	} \
	static struct kunit_suite base##_##tag##_suite = { \
		.name = #base "_" #tag, \
		.suite_init = utfconv_test_pin_##tag, \
		.suite_exit = utfconv_test_unpin, \
		.init = base##_##tag##_init, \
		.test_cases = cases, \
	}

#endif /* _UTFCONV_PATHS_H */
