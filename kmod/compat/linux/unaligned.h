/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernels before 6.12 have the unaligned access helpers in
 * <asm/unaligned.h> only. kmod/Kbuild puts this directory on the include
 * path after the kernel's own, so that it is found only where the kernel
 * being built against lacks <linux/unaligned.h>.
 */
#ifndef _UTFCONV_COMPAT_LINUX_UNALIGNED_H
#define _UTFCONV_COMPAT_LINUX_UNALIGNED_H

#include <asm/unaligned.h>

#endif
