/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The five conversions the tests name, and the (source, target) of the
 * ioctl ABI that select each. The numbers are the tests' own: those of
 * kunit/utfconv_test_pairs.h and scripts/gen_vectors.py, so that tables
 * of test vectors mean the same on both sides.
 */
#ifndef UTFCONV_DIRS_H
#define UTFCONV_DIRS_H

#include <linux/utfconv.h>

#define TEST_DIR_UTF8_TO_UTF16LE	1
#define TEST_DIR_UTF8_TO_UTF16BE	2
#define TEST_DIR_UTF16LE_TO_UTF8	3
#define TEST_DIR_UTF16BE_TO_UTF8	4
#define TEST_DIR_UTF16_TO_UTF8		5	/* byte order from a BOM */
#define TEST_DIR_COUNT			5

/* The last UTFCONV_POLICY_* the tests know. */
#define TEST_POLICY_LAST		UTFCONV_POLICY_WTF8
/* The UTFCONV_FLAG_* bits. */
#define TEST_FLAG_OPTIONS		(UTFCONV_FLAG_STRIP_BOM | \
					 UTFCONV_FLAG_EMIT_BOM)

/* Source and target encodings of @dir. */
static inline void test_dir_encodings(unsigned int dir, __u32 *source,
				      __u32 *target)
{
	static const unsigned char enc[TEST_DIR_COUNT + 1][2] = {
		[TEST_DIR_UTF8_TO_UTF16LE] = { UTFCONV_ENC_UTF8, UTFCONV_ENC_UTF16LE },
		[TEST_DIR_UTF8_TO_UTF16BE] = { UTFCONV_ENC_UTF8, UTFCONV_ENC_UTF16BE },
		[TEST_DIR_UTF16LE_TO_UTF8] = { UTFCONV_ENC_UTF16LE, UTFCONV_ENC_UTF8 },
		[TEST_DIR_UTF16BE_TO_UTF8] = { UTFCONV_ENC_UTF16BE, UTFCONV_ENC_UTF8 },
		[TEST_DIR_UTF16_TO_UTF8] = { UTFCONV_ENC_UTF16, UTFCONV_ENC_UTF8 },
	};

	*source = dir <= TEST_DIR_COUNT ? enc[dir][0] : 0;
	*target = dir <= TEST_DIR_COUNT ? enc[dir][1] : 0;
}

#endif /* UTFCONV_DIRS_H */
