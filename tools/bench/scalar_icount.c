// SPDX-License-Identifier: GPL-2.0
/*
 * scalar_icount: one conversion of FILE on the codec's scalar paths, for
 * counting instructions (repeatable on a shared machine, unlike time):
 *
 *   scalar_icount FILE MODE
 *
 * MODE 0/1: utfconv_buf() of the whole file, UTF-8 -> UTF-16LE / back;
 * 2/3: utfconv_convert() into a 128-byte output window, counting, the
 * same two directions; 4/5: utfconv_convert() over 13-byte input pieces into a
 * 4096-byte buffer. The UTF-16LE input is the file converted first. Prints
 * the output length and an FNV-1a hash of the output (modes 0, 1), so
 * that two builds can be checked for the same bytes. Count with
 *
 *   valgrind --tool=callgrind --collect-atstart=no \
 *	--toggle-collect=scalar_icount_run build/bench/scalar_icount FILE MODE
 *
 * and read the "summary:" line of the callgrind.out file it writes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/utfconv.h>

#include "../../kmod/utfconv_codec.h"

static u8 in8[1 << 21], in16[1 << 22], out[1 << 22];

static long scalar_icount_stream(enum utfconv_encoding source,
				 enum utfconv_encoding target, const u8 *s,
				 size_t n)
{
	struct utfconv_state st;
	size_t used, wrote, total = 0, k;
	int ret;

	utfconv_init(&st, source, target, UTFCONV_STRICT, 0);
	while (n) {
		k = n < 13 ? n : 13;
		ret = utfconv_convert(&st, s, k, &used, out, 4096, &wrote,
				      k == n ? UTFCONV_END : 0);
		if (ret)
			return ret;
		s += used;
		n -= used;
		total += wrote;
	}
	return total;
}

/* The output length of a caller that sizes its buffer first. */
static long scalar_icount_window(enum utfconv_encoding source,
				 enum utfconv_encoding target, const u8 *s,
				 size_t n)
{
	struct utfconv_state st;
	size_t used, wrote, total = 0;
	u8 win[128];
	int ret;

	utfconv_init(&st, source, target, UTFCONV_STRICT, 0);
	do {
		ret = utfconv_convert(&st, s, n, &used, win, sizeof(win),
				      &wrote, UTFCONV_END);
		s += used;
		n -= used;
		total += wrote;
	} while (ret == -E2BIG && (used || wrote));
	return ret ? ret : (long)total;
}

/* The part callgrind counts. */
__attribute__((__noinline__)) long scalar_icount_run(int mode, size_t n,
						     size_t m)
{
	enum utfconv_encoding source = mode & 1 ? UTFCONV_UTF16LE : UTFCONV_UTF8;
	enum utfconv_encoding target = mode & 1 ? UTFCONV_UTF8 : UTFCONV_UTF16LE;
	const u8 *src = mode & 1 ? in16 : in8;
	size_t len = mode & 1 ? m : n;

	if (mode < 2)
		return utfconv_buf(source, target, UTFCONV_STRICT, 0, src, len,
				   out, sizeof(out), NULL);
	if (mode < 4)
		return scalar_icount_window(source, target, src, len);
	return scalar_icount_stream(source, target, src, len);
}

int main(int argc, char **argv)
{
	uint64_t hash = 0xcbf29ce484222325ULL;
	FILE *f;
	size_t n;
	long m, r, i;
	int mode;

	if (argc != 3 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: scalar_icount FILE MODE(0-5)\n");
		return 2;
	}
	mode = atoi(argv[2]);
	n = fread(in8, 1, sizeof(in8), f);
	fclose(f);
	m = utfconv_buf_path(UTFCONV_PATH_SCALAR, UTFCONV_UTF8, UTFCONV_UTF16LE,
			     UTFCONV_STRICT, 0, in8, n, in16, sizeof(in16),
			     NULL);
	if (m < 0 || mode < 0 || mode > 5) {
		fprintf(stderr, "scalar_icount: bad input or mode\n");
		return 2;
	}
	r = scalar_icount_run(mode, n, m);
	for (i = 0; mode < 2 && i < r; i++)
		hash = (hash ^ out[i]) * 0x100000001b3ULL;
	printf("%ld %016llx\n", r, (unsigned long long)hash);
	return r < 0;
}
