/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UTFCONV_COMPAT_LINUX_INIT_H
#define _UTFCONV_COMPAT_LINUX_INIT_H

#define __init
#define __initconst
#define __exit

#endif
