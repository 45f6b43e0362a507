/* SPDX-License-Identifier: GPL-2.0 */
/* utfconv userspace compat: the kernel's cpu_to_le16() family. */
#ifndef _UTFCONV_COMPAT_ASM_BYTEORDER_H
#define _UTFCONV_COMPAT_ASM_BYTEORDER_H

#include_next <asm/byteorder.h>

#define cpu_to_le16	__cpu_to_le16
#define cpu_to_be16	__cpu_to_be16
#define le16_to_cpu	__le16_to_cpu
#define be16_to_cpu	__be16_to_cpu
#define cpu_to_le32	__cpu_to_le32
#define cpu_to_be32	__cpu_to_be32
#define le32_to_cpu	__le32_to_cpu
#define be32_to_cpu	__be32_to_cpu

#endif
