// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace build of the codec (../codec.mk, through ../compat/) as the
 * reference of the hardening tests: the whole input as one stream; and
 * the tests' one encoder of test texts (kunit/utfconv_encode.h).
 */
#include <stdlib.h>

#include <linux/types.h>
#include <linux/utfconv.h>

#include "ref.h"
#include "utfconv_encode.h"
#include "utfconv_test_pairs.h"

size_t ref_put_utf8(unsigned char *d, unsigned int c)
{
	return utfconv_sweep_utf8(d, c);
}

size_t ref_put_utf16(unsigned char *d, unsigned int c, bool be)
{
	return utfconv_sweep_utf16(d, c, be);
}

int ref_convert(unsigned int dir, unsigned int policy, unsigned int flags,
		const void *in, size_t len, unsigned char **out, size_t *outlen)
{
	struct utfconv_state st;
	size_t used = 0, cap;
	int ret;

	cap = utfconv_test_pair_max_length(dir, flags, len) + 8;
	*out = malloc(cap);
	*outlen = 0;
	if (!*out)
		return -12;
	ret = utfconv_test_pair_init(&st, dir, policy, flags);
	if (ret)
		return ret;
	return utfconv_convert(&st, in, len, &used, *out, cap, outlen,
			       UTFCONV_END);
}
