/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv userspace compat: unaligned access in a given byte order. As in
 * the kernel on x86, each access is one load or store of its width (a
 * packed struct or a memcpy() the compiler turns into one), with the bytes swapped where the
 * host's order is the other one, so that it is right on little- and
 * big-endian hosts and the benchmarks time the code the kernel runs.
 */
#ifndef _UTFCONV_COMPAT_LINUX_UNALIGNED_H
#define _UTFCONV_COMPAT_LINUX_UNALIGNED_H

#include <string.h>
#include <linux/types.h>

/* A packed struct as in the kernel: *(p)'s type may be const-qualified. */
#define get_unaligned(p)	({						\
	const struct { __typeof__(*(p)) v; } __attribute__((packed)) *_p =	\
		(const void *)(p);						\
	_p->v; })
#define put_unaligned(v, p)	do { __typeof__(*(p)) _v = (v); memcpy((p), &_v, sizeof(_v)); } while (0)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define utfconv_compat_le16(v)	((u16)(v))
#define utfconv_compat_le32(v)	((u32)(v))
#define utfconv_compat_le64(v)	((u64)(v))
#define utfconv_compat_be16(v)	__builtin_bswap16(v)
#define utfconv_compat_be32(v)	__builtin_bswap32(v)
#define utfconv_compat_be64(v)	__builtin_bswap64(v)
#else
#define utfconv_compat_le16(v)	__builtin_bswap16(v)
#define utfconv_compat_le32(v)	__builtin_bswap32(v)
#define utfconv_compat_le64(v)	__builtin_bswap64(v)
#define utfconv_compat_be16(v)	((u16)(v))
#define utfconv_compat_be32(v)	((u32)(v))
#define utfconv_compat_be64(v)	((u64)(v))
#endif

/* get_unaligned_le16() and the rest: host order to and from @order */
#define UTFCONV_COMPAT_UNALIGNED(order, bits)				\
static inline u##bits get_unaligned_##order##bits(const void *p)	\
{									\
	u##bits v;							\
									\
	memcpy(&v, p, sizeof(v));					\
	return utfconv_compat_##order##bits(v);				\
}									\
									\
static inline void put_unaligned_##order##bits(u##bits v, void *p)	\
{									\
	v = utfconv_compat_##order##bits(v);				\
	memcpy(p, &v, sizeof(v));					\
}

UTFCONV_COMPAT_UNALIGNED(le, 16)
UTFCONV_COMPAT_UNALIGNED(le, 32)
UTFCONV_COMPAT_UNALIGNED(le, 64)
UTFCONV_COMPAT_UNALIGNED(be, 16)
UTFCONV_COMPAT_UNALIGNED(be, 32)
UTFCONV_COMPAT_UNALIGNED(be, 64)

#endif
