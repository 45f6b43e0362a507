/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv tests: the one encoder of test texts, for every test: the KUnit
 * suites and the host tests (the sweeps, the reference model of
 * utfconv_ref.h, userspace-test/host/guard_test.c) and the hardening tests
 * (through userspace-test/hardening/ref.c). The vector tables take their
 * bytes from the case files (scripts/gen_vectors.py), not from here.
 */
#ifndef _UTFCONV_ENCODE_H
#define _UTFCONV_ENCODE_H

#include <linux/types.h>

/*
 * Written separately from the codec: RFC 3629 forms (a surrogate code
 * point as the three bytes WTF-8 gives it), and UTF-16 units in either
 * byte order.
 */
static inline size_t utfconv_sweep_utf8(u8 *d, u32 c)
{
	if (c < 0x80) {
		d[0] = c;
		return 1;
	}
	if (c < 0x800) {
		d[0] = 0xC0 | c >> 6;
		d[1] = 0x80 | (c & 0x3F);
		return 2;
	}
	if (c < 0x10000) {
		d[0] = 0xE0 | c >> 12;
		d[1] = 0x80 | (c >> 6 & 0x3F);
		d[2] = 0x80 | (c & 0x3F);
		return 3;
	}
	d[0] = 0xF0 | c >> 18;
	d[1] = 0x80 | (c >> 12 & 0x3F);
	d[2] = 0x80 | (c >> 6 & 0x3F);
	d[3] = 0x80 | (c & 0x3F);
	return 4;
}

static inline void utfconv_sweep_unit(u8 *d, u16 u, bool be)
{
	d[!be] = u >> 8;
	d[be] = u & 0xFF;
}

static inline size_t utfconv_sweep_utf16(u8 *d, u32 c, bool be)
{
	if (c < 0x10000) {
		utfconv_sweep_unit(d, c, be);
		return 2;
	}
	utfconv_sweep_unit(d, 0xD800 + ((c - 0x10000) >> 10), be);
	utfconv_sweep_unit(d + 2, 0xDC00 + ((c - 0x10000) & 0x3FF), be);
	return 4;
}

#endif /* _UTFCONV_ENCODE_H */
