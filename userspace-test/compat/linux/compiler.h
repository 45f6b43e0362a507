/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: compiler attributes the kernel provides. */
#ifndef _UTFCONV_COMPAT_LINUX_COMPILER_H
#define _UTFCONV_COMPAT_LINUX_COMPILER_H

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#ifndef noinline
#define noinline	__attribute__((__noinline__))
#endif
#ifndef fallthrough
#define fallthrough	__attribute__((__fallthrough__))
#endif
#ifndef __maybe_unused
#define __maybe_unused	__attribute__((__unused__))
#endif
#ifndef __must_check
#define __must_check	__attribute__((__warn_unused_result__))
#endif
#ifndef __printf
#define __printf(a, b)	__attribute__((__format__(printf, a, b)))
#endif
#ifndef __packed
#define __packed	__attribute__((__packed__))
#endif
#ifndef __alias
#define __alias(symbol)	__attribute__((__alias__(#symbol)))
#endif
#ifndef __aligned
#define __aligned(x)	__attribute__((__aligned__(x)))
#endif
#ifndef __force
#define __force
#endif
#ifndef __user
#define __user
#endif
#ifndef __iomem
#define __iomem
#endif
#ifndef READ_ONCE
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#endif
#ifndef WRITE_ONCE
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#endif
#ifndef barrier
#define barrier()	__asm__ __volatile__("" ::: "memory")
#endif

#endif
