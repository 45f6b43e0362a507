/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: userspace may always use the vector unit. */
#ifndef _UTFCONV_COMPAT_ASM_SIMD_H
#define _UTFCONV_COMPAT_ASM_SIMD_H

#include <stdbool.h>

static inline bool may_use_simd(void)
{
	return true;
}

#endif
