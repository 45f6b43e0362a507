/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UTFCONV_COMPAT_LINUX_SWAB_H
#define _UTFCONV_COMPAT_LINUX_SWAB_H

#define swab64(x)	__builtin_bswap64(x)

#endif
