// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: the pshufb masks of the SSE2/SSSE3 (utfconv_sse2.c) and
 * AVX2 (utfconv_avx2.h) paths, one copy for all, filled in once when the
 * module loads (utfconv_simd_init()) and read-only after that: 12 KiB of
 * numbers that are a few lines of rules, so that no one writes, checks in
 * or reviews the numbers themselves, and a build (DKMS on a machine
 * without libc headers included) needs no host program to make them.
 * utfconv_simd_tables.h says what each row holds.
 */
#include <linux/cache.h>
#include <linux/init.h>
#include <linux/string.h>
#include <linux/types.h>

#include "utfconv_simd.h"
#include "utfconv_simd_tables.h"

u8 utfconv_pack16[256][16] __aligned(16) __ro_after_init;
u8 utfconv_pack16_bytes[256] __ro_after_init;
u8 utfconv_pack8[256][16] __aligned(16) __ro_after_init;
u8 utfconv_pack8_bytes[256] __ro_after_init;
u8 utfconv_utf8_form[256][16] __aligned(16) __ro_after_init;
u8 utfconv_utf8_form_bytes[256] __ro_after_init;

/* Row @m of utfconv_pack16 in @row; returns its length. */
static unsigned int __init utfconv_pack16_row(unsigned int m, u8 *row)
{
	unsigned int i, n = 0;

	for (i = 0; i < 8; i++) {
		if (m >> i & 1) {
			row[n++] = 2 * i;
			row[n++] = 2 * i + 1;
		}
	}
	return n;
}

/* Row @m of utfconv_pack8 in @row; returns its length. */
static unsigned int __init utfconv_pack8_row(unsigned int m, u8 *row)
{
	unsigned int i, n = 0;

	for (i = 0; i < 8; i++) {
		row[n++] = 2 * i;
		if (m >> i & 1)
			row[n++] = 2 * i + 1;
	}
	return n;
}

/*
 * Row @m of utfconv_utf8_form in @row; returns its length. The bytes of
 * a unit's form, by its two bits of @m (bit 0: ASCII, bit 1: below
 * 0x800): its low byte; the lead of its two-byte form, then its last
 * byte; or the lead of its three-byte form, the middle byte and the last.
 */
static unsigned int __init utfconv_utf8_form_row(unsigned int m, u8 *row)
{
	static const u8 pick[4][3] __initconst = {
		{ 2, 3, 1 }, { 2, 3, 1 }, { 3, 1 }, { 0 },
	};
	static const u8 pick_len[4] __initconst = { 3, 3, 2, 1 };
	unsigned int i, j, n = 0;

	for (i = 0; i < 4; i++) {
		unsigned int k = m >> 2 * i & 3;

		for (j = 0; j < pick_len[k]; j++)
			row[n++] = 4 * i + pick[k][j];
	}
	return n;
}

/* Every row of @table from @fill, the bytes after each row's zeroing. */
static void __init utfconv_fill(u8 table[256][16], u8 *bytes,
				unsigned int (*fill)(unsigned int m, u8 *row))
{
	unsigned int m;

	for (m = 0; m < 256; m++) {
		/* 0x80 in a pshufb mask: a zero byte */
		memset(table[m], 0x80, 16);
		bytes[m] = fill(m, table[m]);
	}
}

/**
 * utfconv_simd_tables_init() - fill in the pshufb masks
 *
 * Context: Module init, before the SIMD paths' static keys are enabled
 * (utfconv_simd_init()); never again.
 */
void __init utfconv_simd_tables_init(void)
{
	utfconv_fill(utfconv_pack16, utfconv_pack16_bytes, utfconv_pack16_row);
	utfconv_fill(utfconv_pack8, utfconv_pack8_bytes, utfconv_pack8_row);
	utfconv_fill(utfconv_utf8_form, utfconv_utf8_form_bytes,
		     utfconv_utf8_form_row);
}
