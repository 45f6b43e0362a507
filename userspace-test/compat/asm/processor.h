/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv userspace compat: the fields of the boot CPU's data the codec
 * reads, the vendor and the family, from CPUID as the kernel reads them,
 * or from UTFCONV_COMPAT_CPU="VENDOR-ID FAMILY [MODEL]" (e.g.
 * "AuthenticAMD 21", "GenuineIntel 6 0x55"),
 * so that the host tests can check the choices made for other CPUs.
 */
#ifndef _UTFCONV_COMPAT_ASM_PROCESSOR_H
#define _UTFCONV_COMPAT_ASM_PROCESSOR_H

#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X86_VENDOR_INTEL	0
#define X86_VENDOR_AMD		2
#define X86_VENDOR_HYGON	9
#define X86_VENDOR_UNKNOWN	0xff

struct compat_cpuinfo_x86 {
	unsigned char x86;		/* family */
	unsigned char x86_model;
	unsigned char x86_vendor;
};

static inline struct compat_cpuinfo_x86 compat_boot_cpu_data(void)
{
	struct compat_cpuinfo_x86 c = { 0, 0, X86_VENDOR_UNKNOWN };
	const char *fake = getenv("UTFCONV_COMPAT_CPU");
	unsigned int a, b, cx, d, family, model = 0;
	char id[13] = "";

	if (fake && sscanf(fake, "%12s %u %i", id, &family, &model) >= 2) {
		a = (family > 15 ? 15 | (family - 15) << 12 : family) << 8 |
		    (model & 0xf) << 4 | (model >> 4) << 16;
	} else {
		if (!__get_cpuid(0, &a, &b, &cx, &d))
			return c;
		memcpy(id, &b, 4);
		memcpy(id + 4, &d, 4);
		memcpy(id + 8, &cx, 4);
		__get_cpuid(1, &a, &b, &cx, &d);
	}
	if (!memcmp(id, "GenuineIntel", 12))
		c.x86_vendor = X86_VENDOR_INTEL;
	else if (!memcmp(id, "AuthenticAMD", 12))
		c.x86_vendor = X86_VENDOR_AMD;
	else if (!memcmp(id, "HygonGenuine", 12))
		c.x86_vendor = X86_VENDOR_HYGON;
	c.x86 = a >> 8 & 0xf;
	c.x86_model = a >> 4 & 0xf;
	if (c.x86 == 6 || c.x86 == 0xf)
		c.x86_model |= (a >> 16 & 0xf) << 4;
	if (c.x86 == 0xf)
		c.x86 += a >> 20 & 0xff;
	return c;
}

#define boot_cpu_data	(compat_boot_cpu_data())

#endif
