/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv file names: what the KUnit suites reach besides the exported
 * API (EXPORT_SYMBOL_IF_KUNIT).
 */
#ifndef _UTFCONV_FSNAME_H
#define _UTFCONV_FSNAME_H

#include <linux/types.h>

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * utfconv_fsname_set_policy() - set what ``fsname_policy`` says
 * @policy: %UTFCONV_POLICY_STRICT or %UTFCONV_POLICY_WTF8
 *
 * For KUnit only (the module parameter's setter calls it too): the
 * policy of the drop-in forms, for every caller from now on.
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for any other @policy (nothing changes).
 */
int utfconv_fsname_set_policy(u32 policy);
#endif

#endif /* _UTFCONV_FSNAME_H */
