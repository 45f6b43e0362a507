/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: module parameters are plain variables. */
#ifndef _UTFCONV_COMPAT_LINUX_MODULEPARAM_H
#define _UTFCONV_COMPAT_LINUX_MODULEPARAM_H

#define module_param_named(name, var, type, perm) \
	extern int utfconv_compat_param_##name
#define module_param_cb(name, ops, arg, perm) \
	static const void *const utfconv_compat_param_##name \
		__attribute__((unused)) = (ops)
#define __MODULE_PARM_TYPE(name, type) \
	extern int utfconv_compat_param_type_##name
#define MODULE_PARM_DESC(name, desc) \
	extern int utfconv_compat_param_desc_##name

struct kernel_param;

struct kernel_param_ops {
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
};

/* Only referenced from the ops table, which userspace never uses. */
#define param_set_uint_minmax(val, kp, min, max) \
	((void)(val), (void)(kp), (void)(min), (void)(max), -1)

static inline int param_get_int(char *buffer, const struct kernel_param *kp)
{
	(void)buffer;
	(void)kp;
	return -1;
}

#endif
