/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: errno values (Linux's, plus kernel-only ones). */
#ifndef _UTFCONV_COMPAT_LINUX_ERRNO_H
#define _UTFCONV_COMPAT_LINUX_ERRNO_H

#include_next <linux/errno.h>

#ifndef ERESTARTSYS
#define ERESTARTSYS	512
#endif
#ifndef ENOIOCTLCMD
#define ENOIOCTLCMD	515
#endif
#ifndef ENOTSUPP
#define ENOTSUPP	524
#endif

#endif
