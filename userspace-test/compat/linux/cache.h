/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: no read-only-after-init section here. */
#ifndef _UTFCONV_COMPAT_LINUX_CACHE_H
#define _UTFCONV_COMPAT_LINUX_CACHE_H

#define __ro_after_init

#endif
