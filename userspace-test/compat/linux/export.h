/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: exports become plain redeclarations. */
#ifndef _UTFCONV_COMPAT_LINUX_EXPORT_H
#define _UTFCONV_COMPAT_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)		extern __typeof__(sym) sym
#define EXPORT_SYMBOL_GPL(sym)		extern __typeof__(sym) sym
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	extern __typeof__(sym) sym

#endif
