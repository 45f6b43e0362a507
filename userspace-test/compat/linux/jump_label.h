/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv userspace compat: static keys as plain flags, set by the
 * module's init function (run as a constructor, see linux/module.h).
 * Each key also gets a global pointer to its flag, compat_key_<name>, so
 * that the host tests can check which keys the module's init set and
 * that nothing writes them after (the keys themselves are declared in
 * the codec's headers only).
 */
#ifndef _UTFCONV_COMPAT_LINUX_JUMP_LABEL_H
#define _UTFCONV_COMPAT_LINUX_JUMP_LABEL_H

#include <stdbool.h>

struct static_key_false {
	bool enabled;
};

#define DEFINE_STATIC_KEY_FALSE(name) \
	struct static_key_false name = { false }; \
	const bool *const compat_key_##name = &name.enabled
#define DECLARE_STATIC_KEY_FALSE(name) \
	extern struct static_key_false name
#define static_branch_likely(key)	__builtin_expect((key)->enabled, 1)
#define static_branch_unlikely(key)	__builtin_expect((key)->enabled, 0)
#define static_branch_enable(key)	((key)->enabled = true)
#define static_branch_disable(key)	((key)->enabled = false)
#define static_key_enabled(key)	((key)->enabled)

#endif
