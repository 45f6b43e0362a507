/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UTFCONV_COMPAT_LINUX_PRINTK_H
#define _UTFCONV_COMPAT_LINUX_PRINTK_H

#include <stdio.h>

#define pr_debug(...)	do { if (0) fprintf(stderr, __VA_ARGS__); } while (0)
#define pr_info(...)	fprintf(stderr, __VA_ARGS__)
#define pr_warn(...)	fprintf(stderr, __VA_ARGS__)
#define pr_err(...)	fprintf(stderr, __VA_ARGS__)

#endif
