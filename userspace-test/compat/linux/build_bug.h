/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UTFCONV_COMPAT_LINUX_BUILD_BUG_H
#define _UTFCONV_COMPAT_LINUX_BUILD_BUG_H

#define BUILD_BUG_ON(c)		_Static_assert(!(c), "BUILD_BUG_ON(" #c ")")
#define static_assert(c, ...)	_Static_assert(c, #c)

#endif
