/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv KUnit suites: the parameter of a case, which carries the codec
 * path its conversions take (utfconv_test_path(), utfconv_expect.c).
 */
#ifndef _UTFCONV_TEST_PARAM_H
#define _UTFCONV_TEST_PARAM_H

#include "../kmod/utfconv_simd.h"
#include "utfconv_vectors.h"

/**
 * struct utfconv_test_param - the parameter of a case
 * @path: the codec path its conversions take
 * @v: its vector, in the cases that take one
 * @text: its long text (utfconv_runs.c), in the cases that take one
 * @what: the name of its vector or text, NULL if none
 */
struct utfconv_test_param {
	enum utfconv_path path;
	const struct utfconv_vector *v;
	unsigned int text;
	const char *what;
};

#endif /* _UTFCONV_TEST_PARAM_H */
