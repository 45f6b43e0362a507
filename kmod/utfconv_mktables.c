// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv_mktables: writes utfconv_simd_tables.c, the pshufb masks of the
 * SSE2/SSSE3 (utfconv_sse2.c) and AVX2 (utfconv_avx2.h) paths, to standard
 * output. A host program that the build runs (kmod/Kbuild's hostprogs, and
 * userspace-test/codec.mk for the host tests), so that the 6 KiB of masks
 * are never edited, or checked in, by hand; utfconv_simd_tables.h says
 * what each row holds and is the masks' only declaration.
 *
 * Every row is 16 byte indices for pshufb, ending in 128 (a zero byte)
 * after the last byte it keeps, and its length (the bytes it keeps) is in
 * the table of the same name with _bytes.
 */
#include <stdio.h>

#define ROWS 256
#define ROW_BYTES 16
#define ZERO_BYTE 128

/* row(m, out): fill out with row m's indices; returns how many it wrote */
typedef int (*row_fn)(unsigned int m, unsigned char *out);

/* Each kept 16-bit lane (bit i of m: lane i), packed. */
static int pack16(unsigned int m, unsigned char *out)
{
	int i, n = 0;

	for (i = 0; i < 8; i++) {
		if (m >> i & 1) {
			out[n++] = 2 * i;
			out[n++] = 2 * i + 1;
		}
	}
	return n;
}

/* Each lane's low byte, and its high byte too where bit i of m is set. */
static int pack8(unsigned int m, unsigned char *out)
{
	int i, n = 0;

	for (i = 0; i < 8; i++) {
		out[n++] = 2 * i;
		if (m >> i & 1)
			out[n++] = 2 * i + 1;
	}
	return n;
}

/*
 * Of each 32-bit lane i, the bytes of one unit's UTF-8 form, in order. A
 * lane holds: byte 0 the unit's low byte (its form if ASCII), byte 1 its
 * last byte if longer, byte 2 the lead of a three-byte form, byte 3 the
 * lead of a two-byte form or the middle byte of a three-byte one. Bit 2i
 * of m: unit i is ASCII; bit 2i + 1: it is below 0x800.
 */
static int utf8_form(unsigned int m, unsigned char *out)
{
	static const unsigned char pick[4][4] = {
		{ 2, 3, 1 }, { 2, 3, 1 }, { 3, 1 }, { 0 },
	};
	static const int pick_len[4] = { 3, 3, 2, 1 };
	int i, j, n = 0;

	for (i = 0; i < 4; i++) {
		unsigned int k = m >> 2 * i & 3;

		for (j = 0; j < pick_len[k]; j++)
			out[n++] = 4 * i + pick[k][j];
	}
	return n;
}

static void table(const char *name, row_fn row)
{
	unsigned char b[ROW_BYTES];
	int len[ROWS];
	unsigned int m;
	int i;

	printf("\nconst u8 %s[%d][%d] __aligned(16) = {\n", name, ROWS,
	       ROW_BYTES);
	for (m = 0; m < ROWS; m++) {
		len[m] = row(m, b);
		for (i = len[m]; i < ROW_BYTES; i++)
			b[i] = ZERO_BYTE;
		printf("\t{ ");
		for (i = 0; i < ROW_BYTES; i++)
			printf("%d%s", b[i], i + 1 < ROW_BYTES ? ", " : " },\n");
	}
	printf("};\n\nconst u8 %s_bytes[%d] = {\n", name, ROWS);
	for (m = 0; m < ROWS; m++)
		printf("%s%d%s", m % 16 ? "" : "\t", len[m],
		       m % 16 == 15 ? ",\n" : ", ");
	printf("};\n");
}

int main(void)
{
	/* (%s, so that checkpatch does not take the tag for this file's) */
	printf("// SPDX-%s\n", "License-Identifier: GPL-2.0");
	printf("/*\n"
	       " * utfconv codec: pshufb masks for the SSE2/SSSE3 and AVX2 paths\n"
	       " * (utfconv_simd_tables.h says what each row holds).\n"
	       " *\n"
	       " * Written by utfconv_mktables (utfconv_mktables.c) at build time.\n"
	       " */\n"
	       "#include \"utfconv_simd_tables.h\"\n");
	table("utfconv_pack16", pack16);
	table("utfconv_pack8", pack8);
	table("utfconv_utf8_form", utf8_form);
	return fflush(stdout) || ferror(stdout);
}
