/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv userspace compat: unaligned access in a given byte order, built
 * from single bytes so that it is right on little- and big-endian hosts.
 */
#ifndef _UTFCONV_COMPAT_LINUX_UNALIGNED_H
#define _UTFCONV_COMPAT_LINUX_UNALIGNED_H

#include <string.h>
#include <linux/types.h>

#define get_unaligned(p)	({ __typeof__(*(p)) _v; memcpy(&_v, (p), sizeof(_v)); _v; })
#define put_unaligned(v, p)	do { __typeof__(*(p)) _v = (v); memcpy((p), &_v, sizeof(_v)); } while (0)

static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] | b[1] << 8);
}

static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] << 8 | b[1]);
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return get_unaligned_le16(b) | (u32)get_unaligned_le16(b + 2) << 16;
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)get_unaligned_be16(b) << 16 | get_unaligned_be16(b + 2);
}

static inline u64 get_unaligned_le64(const void *p)
{
	const u8 *b = p;

	return get_unaligned_le32(b) | (u64)get_unaligned_le32(b + 4) << 32;
}

static inline u64 get_unaligned_be64(const void *p)
{
	const u8 *b = p;

	return (u64)get_unaligned_be32(b) << 32 | get_unaligned_be32(b + 4);
}

static inline void put_unaligned_le16(u16 v, void *p)
{
	u8 *b = p;

	b[0] = v;
	b[1] = v >> 8;
}

static inline void put_unaligned_be16(u16 v, void *p)
{
	u8 *b = p;

	b[0] = v >> 8;
	b[1] = v;
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	put_unaligned_le16(v, p);
	put_unaligned_le16(v >> 16, (u8 *)p + 2);
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	put_unaligned_be16(v >> 16, p);
	put_unaligned_be16(v, (u8 *)p + 2);
}

static inline void put_unaligned_le64(u64 v, void *p)
{
	put_unaligned_le32(v, p);
	put_unaligned_le32(v >> 32, (u8 *)p + 4);
}

static inline void put_unaligned_be64(u64 v, void *p)
{
	put_unaligned_be32(v >> 32, p);
	put_unaligned_be32(v, (u8 *)p + 4);
}

#endif
