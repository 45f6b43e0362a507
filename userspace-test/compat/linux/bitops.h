/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UTFCONV_COMPAT_LINUX_BITOPS_H
#define _UTFCONV_COMPAT_LINUX_BITOPS_H

#include <linux/types.h>

/* As the kernel's: the index of the lowest set bit; undefined for 0. */
static inline unsigned int __ffs64(u64 word)
{
	return __builtin_ctzll(word);
}

#endif
