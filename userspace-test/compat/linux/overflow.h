/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UTFCONV_COMPAT_LINUX_OVERFLOW_H
#define _UTFCONV_COMPAT_LINUX_OVERFLOW_H

#include <stddef.h>
#include <stdint.h>
#include <linux/limits.h>

#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d)	__builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

static inline size_t size_add(size_t a, size_t b)
{
	size_t r;

	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}

static inline size_t size_mul(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}

#endif
