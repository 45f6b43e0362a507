/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: min()/max() without the kernel's type checks. */
#ifndef _UTFCONV_COMPAT_LINUX_MINMAX_H
#define _UTFCONV_COMPAT_LINUX_MINMAX_H

#define min(a, b)	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b)	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(t, a, b)	({ t _a = (a); t _b = (b); _a < _b ? _a : _b; })
#define max_t(t, a, b)	({ t _a = (a); t _b = (b); _a > _b ? _a : _b; })
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi)	min_t(t, max_t(t, v, lo), hi)
#define umin(a, b)	min_t(unsigned long long, a, b)
#define umax(a, b)	max_t(unsigned long long, a, b)

#endif
