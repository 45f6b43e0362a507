/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv userspace compat: the module's init function runs before main()
 * (it only sets the static keys), its exit function never.
 */
#ifndef _UTFCONV_COMPAT_LINUX_MODULE_H
#define _UTFCONV_COMPAT_LINUX_MODULE_H

#include <linux/export.h>
#include <linux/moduleparam.h>

#define module_init(fn) \
	static void __attribute__((constructor)) utfconv_compat_init_##fn(void) \
	{ \
		(void)fn(); \
	}
#define module_exit(fn) \
	static void (*const utfconv_compat_exit_##fn)(void) \
		__attribute__((unused)) = fn

#define MODULE_LICENSE(x)	extern int utfconv_compat_module_license
#define MODULE_DESCRIPTION(x)	extern int utfconv_compat_module_description
#define MODULE_AUTHOR(x)	extern int utfconv_compat_module_author
#define MODULE_VERSION(x)	extern int utfconv_compat_module_version

#endif
