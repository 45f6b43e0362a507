/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UTFCONV_COMPAT_LINUX_KERNEL_H
#define _UTFCONV_COMPAT_LINUX_KERNEL_H

#include <linux/array_size.h>
#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/stddef.h>
#include <linux/types.h>

#endif
