/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec: pshufb masks for the SSE2/SSSE3 paths (utfconv_sse2.c)
 * and the AVX2 ones (utfconv_avx2.h), defined in utfconv_simd_tables.c,
 * whose utfconv_simd_tables_init() fills in the rows described here when
 * the module loads; read-only after init.
 */
#ifndef _UTFCONV_SIMD_TABLES_H
#define _UTFCONV_SIMD_TABLES_H

#include <linux/cache.h>
#include <linux/types.h>

/*
 * The kept 16-bit lanes of a vector, packed. Row m: for each set bit i of
 * m, lowest first, the bytes 2i and 2i + 1, then 128 (0x80: a zero byte);
 * its length in utfconv_pack16_bytes[m], twice the number of set bits.
 */
extern u8 utfconv_pack16[256][16] __aligned(16);
extern u8 utfconv_pack16_bytes[256];

/*
 * Row m: for each i from 0 to 7, the byte 2i, then the byte 2i + 1 if bit i
 * of m is set; then 128. Its length in utfconv_pack8_bytes[m].
 */
extern u8 utfconv_pack8[256][16] __aligned(16);
extern u8 utfconv_pack8_bytes[256];

/*
 * UTF-8 from four code units (no surrogates), each in a 32-bit lane i
 * holding its low byte, then 0x80 | its low six bits, then the lead byte
 * of its three-byte form, then the lead of its two-byte form or the middle
 * byte of its three-byte one. Row m: for each i from 0 to 3, the bytes of
 * unit i's form: byte 4i if bit 2i of m is set (ASCII), else 4i + 3 and
 * 4i + 1 if bit 2i + 1 is (below 0x800), else 4i + 2, 4i + 3 and 4i + 1;
 * then 128. Its length in utfconv_utf8_form_bytes[m].
 */
extern u8 utfconv_utf8_form[256][16] __aligned(16);
extern u8 utfconv_utf8_form_bytes[256];

#endif /* _UTFCONV_SIMD_TABLES_H */
