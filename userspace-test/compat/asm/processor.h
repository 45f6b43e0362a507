/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv userspace compat: the one field of the boot CPU's data the codec
 * reads. The host tests do not look up the vendor: no vendor matches.
 */
#ifndef _UTFCONV_COMPAT_ASM_PROCESSOR_H
#define _UTFCONV_COMPAT_ASM_PROCESSOR_H

#define X86_VENDOR_HYGON	9

static const struct {
	unsigned char x86_vendor;
} boot_cpu_data = { 0xff };

#endif
