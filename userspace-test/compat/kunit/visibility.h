/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: KUnit-visible symbols are ordinary ones. */
#ifndef _UTFCONV_COMPAT_KUNIT_VISIBILITY_H
#define _UTFCONV_COMPAT_KUNIT_VISIBILITY_H

#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(sym)	extern int utfconv_compat_kunit_##sym

#endif
