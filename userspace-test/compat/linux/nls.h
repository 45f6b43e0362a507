/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv userspace compat: what <linux/utfconv.h> takes from fs/nls for
 * the prototypes of the file name functions. Those are not built in
 * userspace, so that wchar_t stays the C library's.
 */
#ifndef _UTFCONV_COMPAT_LINUX_NLS_H
#define _UTFCONV_COMPAT_LINUX_NLS_H

#include <stddef.h>

enum utf16_endian {
	UTF16_HOST_ENDIAN,
	UTF16_LITTLE_ENDIAN,
	UTF16_BIG_ENDIAN
};

#endif
