/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: module parameters are plain variables. */
#ifndef _UTFCONV_COMPAT_LINUX_MODULEPARAM_H
#define _UTFCONV_COMPAT_LINUX_MODULEPARAM_H

#define module_param_named(name, var, type, perm) \
	static const void *const utfconv_compat_param_##name \
		__attribute__((unused)) = &(var)
#define MODULE_PARM_DESC(name, desc) \
	extern int utfconv_compat_param_desc_##name

#endif
