/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: kernel integer types over the UAPI ones. */
#ifndef _UTFCONV_COMPAT_LINUX_TYPES_H
#define _UTFCONV_COMPAT_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/compiler.h>

typedef __u8 u8;
typedef __s8 s8;
typedef __u16 u16;
typedef __s16 s16;
typedef __u32 u32;
typedef __s32 s32;
typedef __u64 u64;
typedef __s64 s64;
typedef unsigned long ulong;
typedef u64 phys_addr_t;
typedef unsigned int gfp_t;

#endif
