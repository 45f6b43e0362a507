/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UTFCONV_COMPAT_LINUX_STRING_H
#define _UTFCONV_COMPAT_LINUX_STRING_H

#include <stdbool.h>
#include <string.h>
#include <sys/types.h>

static inline bool mem_is_zero(const void *s, size_t n)
{
	const unsigned char *p = s;

	while (n--)
		if (*p++)
			return false;
	return true;
}

static inline ssize_t strscpy(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(src, size);

	if (!size)
		return -7; /* -E2BIG */
	if (len == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = 0;
		return -7;
	}
	memcpy(dst, src, len + 1);
	return len;
}

#endif
