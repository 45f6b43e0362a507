/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UTFCONV_COMPAT_LINUX_STDDEF_H
#define _UTFCONV_COMPAT_LINUX_STDDEF_H

#include_next <linux/stddef.h>
#include <stdbool.h>
#include <stddef.h>

#ifndef sizeof_field
#define sizeof_field(t, m)	sizeof(((t *)0)->m)
#endif

#endif
