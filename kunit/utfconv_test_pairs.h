/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv tests: the (source, target) encoding pairs the tests iterate
 * over, numbered, so that a vector row, a loop or a record of pydiff.py
 * names one by a small integer. Test-local: the library speaks source
 * and target encodings (enum utfconv_encoding); these numbers are those
 * of scripts/gen_vectors.py and of the device suite's TEST_DIR_*
 * (userspace-test/dev/utfconv_dirs.h), and mean nothing to the library.
 */
#ifndef _UTFCONV_TEST_PAIRS_H
#define _UTFCONV_TEST_PAIRS_H

#include <linux/types.h>
#include <linux/utfconv.h>

enum utfconv_test_pair {
	UTFCONV_TEST_UTF8_TO_UTF16LE = 1,
	UTFCONV_TEST_UTF8_TO_UTF16BE,
	UTFCONV_TEST_UTF16LE_TO_UTF8,
	UTFCONV_TEST_UTF16BE_TO_UTF8,
	UTFCONV_TEST_UTF16_TO_UTF8,	/* byte order from a BOM */
	UTFCONV_TEST_PAIR_MAX = UTFCONV_TEST_UTF16_TO_UTF8,
};

/* The policies are numbered from UTFCONV_STRICT up to this one. */
#define UTFCONV_TEST_POLICY_LAST	UTFCONV_WTF8

/* The source (@target false) or target encoding of @pair; 0 if none. */
static inline enum utfconv_encoding utfconv_test_encoding(u32 pair,
							  bool target)
{
	static const u8 utfconv_test_pairs[UTFCONV_TEST_PAIR_MAX + 1][2] = {
		[UTFCONV_TEST_UTF8_TO_UTF16LE] = { UTFCONV_UTF8,
						   UTFCONV_UTF16LE },
		[UTFCONV_TEST_UTF8_TO_UTF16BE] = { UTFCONV_UTF8,
						   UTFCONV_UTF16BE },
		[UTFCONV_TEST_UTF16LE_TO_UTF8] = { UTFCONV_UTF16LE,
						   UTFCONV_UTF8 },
		[UTFCONV_TEST_UTF16BE_TO_UTF8] = { UTFCONV_UTF16BE,
						   UTFCONV_UTF8 },
		[UTFCONV_TEST_UTF16_TO_UTF8] = { UTFCONV_UTF16, UTFCONV_UTF8 },
	};

	return pair <= UTFCONV_TEST_PAIR_MAX ?
	       utfconv_test_pairs[pair][target] : 0;
}

static inline enum utfconv_encoding utfconv_test_source(u32 pair)
{
	return utfconv_test_encoding(pair, false);
}

static inline enum utfconv_encoding utfconv_test_target(u32 pair)
{
	return utfconv_test_encoding(pair, true);
}

/* utfconv_init() from and to the encodings of @pair */
static inline int utfconv_test_pair_init(struct utfconv_state *st,
					 u32 pair, u32 policy, u32 flags)
{
	return utfconv_init(st, utfconv_test_source(pair),
			    utfconv_test_target(pair), policy, flags);
}

/* utfconv_max_length() from and to the encodings of @pair */
static inline size_t utfconv_test_pair_max_length(u32 pair, u32 flags,
						  size_t src_bytes)
{
	return utfconv_max_length(utfconv_test_source(pair),
				  utfconv_test_target(pair), flags, src_bytes);
}

#endif /* _UTFCONV_TEST_PAIRS_H */
