/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UTFCONV_COMPAT_LINUX_MODULE_H
#define _UTFCONV_COMPAT_LINUX_MODULE_H

#include <linux/export.h>

#define MODULE_LICENSE(x)	extern int utfconv_compat_module_license
#define MODULE_DESCRIPTION(x)	extern int utfconv_compat_module_description
#define MODULE_AUTHOR(x)	extern int utfconv_compat_module_author

#endif
