/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: a WARN or BUG in a host test is a failure. */
#ifndef _UTFCONV_COMPAT_LINUX_BUG_H
#define _UTFCONV_COMPAT_LINUX_BUG_H

#include <stdio.h>
#include <stdlib.h>
#include <linux/build_bug.h>

#define BUG()		do { fprintf(stderr, "BUG at %s:%d\n", __FILE__, __LINE__); abort(); } while (0)
#define BUG_ON(c)	do { if (c) BUG(); } while (0)
#define WARN_ON(c)	({ int _c = !!(c); if (_c) BUG(); _c; })
#define WARN_ON_ONCE(c)	WARN_ON(c)

#endif
