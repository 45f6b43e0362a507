/* SPDX-License-Identifier: GPL-2.0 */
/* Linux 6.1 spelling of <linux/unaligned.h>. */
#include <linux/unaligned.h>
