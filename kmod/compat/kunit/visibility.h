/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv compat: <kunit/visibility.h> for kernels before 6.2, as later
 * ones define it. Found only where the kernel has no such header.
 */
#ifndef _UTFCONV_COMPAT_KUNIT_VISIBILITY_H
#define _UTFCONV_COMPAT_KUNIT_VISIBILITY_H

#include <linux/export.h>

#if IS_ENABLED(CONFIG_KUNIT)
#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(symbol) \
	EXPORT_SYMBOL_NS(symbol, EXPORTED_FOR_KUNIT_TESTING)
#else
#define VISIBLE_IF_KUNIT static
#define EXPORT_SYMBOL_IF_KUNIT(symbol)
#endif

#endif
