// SPDX-License-Identifier: GPL-2.0
/*
 * Batch front end of the utfconv codec for pydiff.py: reads records
 * (u8 direction, u8 policy, u8 flags, u32le length, bytes) from stdin and
 * writes for each (s32le errno, u32le error kind, u64le error offset,
 * u64le replacements, u32le output length, output bytes) to stdout,
 * converting each record as one complete stream in one call. The
 * environment variable UTFCONV_SIMD names the codec path of every call
 * (enum utfconv_path, as host_test -s does).
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/types.h>
#include <linux/unaligned.h>
#include <linux/utfconv.h>

#include "../../kmod/utfconv_simd.h"

/* UTFCONV_SIMD: the path of every call (kunit/utfconv_paths.h) */
static enum utfconv_path cli_path = UTFCONV_PATH_AUTO;
#include "utfconv_paths.h"

/* What the test units (kunit/utfconv_expect.h) ask of a program */
enum utfconv_path utfconv_test_path(void)
{
	return cli_path;
}

int main(void)
{
	struct utfconv_state st;
	u8 hdr[7], res[28], *in = NULL, *out = NULL;
	size_t used, wrote, cap;
	u32 len;
	int ret;

	if (getenv("UTFCONV_SIMD"))
		cli_path = atoi(getenv("UTFCONV_SIMD"));
	while (fread(hdr, 1, 7, stdin) == 7) {
		len = get_unaligned_le32(hdr + 3);
		in = realloc(in, len + 1);
		cap = utfconv_test_pair_max_length(hdr[0], hdr[2], len);
		out = realloc(out, cap + 1);
		if (!in || !out || fread(in, 1, len, stdin) != len)
			return 2;
		ret = utfconv_test_pair_init(&st, hdr[0], hdr[1], hdr[2]);
		if (!ret)
			ret = utfconv_test_convert(&st, in, len, &used, out, cap, &wrote,
						   UTFCONV_END);
		else
			wrote = 0;
		put_unaligned_le32(ret, res);
		put_unaligned_le32(st.error_kind, res + 4);
		put_unaligned_le64(st.error_offset, res + 8);
		put_unaligned_le64(st.replacements, res + 16);
		put_unaligned_le32(wrote, res + 24);
		fwrite(res, 1, 28, stdout);
		fwrite(out, 1, wrote, stdout);
	}
	free(in);
	free(out);
	return 0;
}
