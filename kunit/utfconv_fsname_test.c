// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite utfconv_fsname: utfconv as a filesystem's name translator.
 *
 * A filesystem that stores names as UTF-16LE (NTFS, exFAT, FAT long names,
 * Joliet is big-endian) translates every name between that form on disk
 * and UTF-8 in the VFS. In the kernel it calls utf8s_to_utf16s() and
 * utf16s_to_utf8s() of fs/nls. The wrappers below have the same signatures,
 * so a filesystem can switch to utfconv for an experiment, but they never
 * truncate and never drop anything, and the tests show, next to fs/nls,
 * where that matters.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/nls.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <linux/utfconv.h>

#include "utfconv_paths.h"

/**
 * DOC: utfconv_fsname wrappers
 *
 * utfconv_fsname_utf8s_to_utf16s() and utfconv_fsname_utf16s_to_utf8s()
 * take the arguments of utf8s_to_utf16s() and utf16s_to_utf8s(): lengths
 * and capacities in the same units (bytes of UTF-8, code units of UTF-16),
 * UTF-16 in the byte order @endian (%UTF16_HOST_ENDIAN is the CPU's), and
 * they return the number of units or bytes written. They translate with the
 * WTF-8 policy, so that a name on disk that holds an unpaired surrogate (NTFS
 * allows any 16-bit units) gets a UTF-8 form of its own and comes back to
 * the same units. Where fs/nls truncates or drops, they fail:
 *
 * * a VFS name whose UTF-16 form needs more than @maxout units:
 *   -ENAMETOOLONG, what a filesystem returns for a name it cannot store;
 * * a name on disk whose UTF-8 form needs more than @maxout bytes: -E2BIG,
 *   the caller's buffer is too small (a filesystem gives up on that entry,
 *   it does not hand out a shorter name that may be another file's);
 * * ill-formed UTF-8 from userspace: -EILSEQ, and the _off forms give the
 *   byte offset of the first bad byte;
 * * UTF-8 that ends inside a character: -EINVAL, with its offset.
 *
 * The output never holds part of a character. U+0000 is converted like any
 * other character (fs/nls stops there); the VFS never passes one in a name.
 */

/* utfconv direction for UTF-16 in byte order @endian. */
static u32 utfconv_fsname_dir(enum utf16_endian endian, bool to_utf16)
{
	bool be = endian == UTF16_BIG_ENDIAN ||
		  (endian == UTF16_HOST_ENDIAN &&
		   IS_ENABLED(CONFIG_CPU_BIG_ENDIAN));

	if (to_utf16)
		return be ? UTFCONV_DIR_UTF8_TO_UTF16BE :
			    UTFCONV_DIR_UTF8_TO_UTF16LE;
	return be ? UTFCONV_DIR_UTF16BE_TO_UTF8 : UTFCONV_DIR_UTF16LE_TO_UTF8;
}

/**
 * utfconv_fsname_utf8s_to_utf16s_off() - a VFS name to its UTF-16 form
 * @s: the name in UTF-8 (WTF-8: unpaired surrogates in three-byte form)
 * @inlen: length of @s in bytes
 * @endian: byte order of the units written to @pwcs
 * @pwcs: output buffer of UTF-16 code units
 * @maxout: capacity of @pwcs in code units
 * @error_offset: out, may be NULL: byte offset in @s of the bad input on
 *	-EILSEQ and -EINVAL
 *
 * Context: Any context.
 * Return:
 * * >= 0 - code units written to @pwcs
 * * -ENAMETOOLONG - the name needs more than @maxout units
 * * -EILSEQ - @s is ill-formed at *@error_offset
 * * -EINVAL - @s ends inside a character at *@error_offset, or @inlen or
 *   @maxout is negative
 */
static int utfconv_fsname_utf8s_to_utf16s_off(const u8 *s, int inlen,
					      enum utf16_endian endian,
					      wchar_t *pwcs, int maxout,
					      u64 *error_offset)
{
	ssize_t ret;

	if (inlen < 0 || maxout < 0)
		return -EINVAL;
	ret = utfconv_buf(utfconv_fsname_dir(endian, true),
			  UTFCONV_POLICY_WTF8, 0, s, inlen, pwcs,
			  (size_t)maxout * sizeof(*pwcs), error_offset);
	if (ret == -E2BIG)
		return -ENAMETOOLONG;
	return ret < 0 ? ret : ret / sizeof(*pwcs);
}

/**
 * utfconv_fsname_utf8s_to_utf16s() - drop-in for utf8s_to_utf16s()
 * @s: the name in UTF-8 (WTF-8: unpaired surrogates in three-byte form)
 * @inlen: length of @s in bytes
 * @endian: byte order of the units written to @pwcs
 * @pwcs: output buffer of UTF-16 code units
 * @maxout: capacity of @pwcs in code units
 *
 * Context: Any context.
 * Return: as utfconv_fsname_utf8s_to_utf16s_off().
 */
static int utfconv_fsname_utf8s_to_utf16s(const u8 *s, int inlen,
					  enum utf16_endian endian,
					  wchar_t *pwcs, int maxout)
{
	return utfconv_fsname_utf8s_to_utf16s_off(s, inlen, endian, pwcs,
						  maxout, NULL);
}

/**
 * utfconv_fsname_utf16s_to_utf8s() - drop-in for utf16s_to_utf8s()
 * @pwcs: the name on disk, UTF-16 code units in byte order @endian
 * @inlen: length of @pwcs in code units
 * @endian: byte order of @pwcs
 * @s: output buffer for UTF-8 (WTF-8 for unpaired surrogates)
 * @maxout: capacity of @s in bytes
 *
 * Every sequence of code units has a WTF-8 form, so this only fails when
 * the output does not fit.
 *
 * Context: Any context.
 * Return:
 * * >= 0 - bytes written to @s
 * * -E2BIG - the UTF-8 form needs more than @maxout bytes
 * * -EINVAL - @inlen or @maxout is negative
 */
static int utfconv_fsname_utf16s_to_utf8s(const wchar_t *pwcs, int inlen,
					  enum utf16_endian endian, u8 *s,
					  int maxout)
{
	if (inlen < 0 || maxout < 0)
		return -EINVAL;
	return utfconv_buf(utfconv_fsname_dir(endian, false),
			   UTFCONV_POLICY_WTF8, 0, pwcs,
			   (size_t)inlen * sizeof(*pwcs), s, maxout, NULL);
}

/* ---- helpers of the tests ------------------------------------------------ */

/* Store @n code units of @units into @d as UTF-16LE, as on an NTFS disk. */
static void utfconv_fsname_put_le(wchar_t *d, const u16 *units, int n)
{
	int i;

	for (i = 0; i < n; i++)
		put_unaligned_le16(units[i], &d[i]);
}

/* A kunit-managed buffer of @bytes bytes filled with 0xA5. */
static void *utfconv_fsname_alloc(struct kunit *test, size_t bytes)
{
	void *p = kunit_kmalloc(test, bytes, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	memset(p, 0xA5, bytes);
	return p;
}

/* ---- the tests ----------------------------------------------------------- */

/*
 * A NAME_MAX name fits; one byte more: fs/nls returns the first NAME_MAX
 * characters, which name another file; utfconv says -ENAMETOOLONG.
 */
static void utfconv_fsname_name_max_test(struct kunit *test)
{
	u8 *name = utfconv_fsname_alloc(test, NAME_MAX + 1);
	wchar_t *disk = utfconv_fsname_alloc(test, 2 * (NAME_MAX + 1));
	u8 *back = utfconv_fsname_alloc(test, NAME_MAX + 1);

	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	int ret;

	memset(name, 'a', NAME_MAX + 1);

	ret = utfconv_fsname_utf8s_to_utf16s(name, NAME_MAX, le, disk,
					     NAME_MAX);
	KUNIT_EXPECT_EQ(test, ret, NAME_MAX);
	ret = utfconv_fsname_utf16s_to_utf8s(disk, NAME_MAX, le, back,
					     NAME_MAX);
	KUNIT_EXPECT_EQ(test, ret, NAME_MAX);
	KUNIT_EXPECT_MEMEQ(test, back, name, NAME_MAX);

	/* NAME_MAX + 1 bytes into NAME_MAX units */
#if IS_ENABLED(CONFIG_NLS)
	ret = utf8s_to_utf16s(name, NAME_MAX + 1, le, disk, NAME_MAX);
	KUNIT_EXPECT_EQ(test, ret, NAME_MAX);
#endif
	ret = utfconv_fsname_utf8s_to_utf16s(name, NAME_MAX + 1, le, disk,
					     NAME_MAX);
	KUNIT_EXPECT_EQ(test, ret, -ENAMETOOLONG);
}

/*
 * NTFS names are any 16-bit units. Three names that differ only in an
 * unpaired surrogate: fs/nls drops it and gives all three the VFS name
 * "ab", so two of them cannot be opened; with WTF-8 each has its own
 * name, and it translates back to the same units on disk.
 */
static void utfconv_fsname_lone_surrogate_test(struct kunit *test)
{
	static const u16 names[][3] = {
		{ 'a', 0xD800, 'b' },	/* lone lead */
		{ 'a', 0xDC00, 'b' },	/* lone trail */
		{ 'a', 'b' },
	};
	static const int units[] = { 3, 3, 2 };
	static const char *const wtf8[] = {
		"a\xed\xa0\x80\x62", "a\xed\xb0\x80\x62", "ab",
	};
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	wchar_t disk[3], again[3];
#if IS_ENABLED(CONFIG_NLS)
	u8 nls[3][8];
	int nls_len[3];
#endif
	u8 ours[3][8];
	int ours_len[3];
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		utfconv_fsname_put_le(disk, names[i], units[i]);
#if IS_ENABLED(CONFIG_NLS)
		nls_len[i] = utf16s_to_utf8s(disk, units[i], le, nls[i],
					     sizeof(nls[i]));
		/* fs/nls: "ab" for all three */
		KUNIT_EXPECT_EQ_MSG(test, nls_len[i], 2, "name %d", i);
		KUNIT_EXPECT_MEMEQ_MSG(test, nls[i], "ab", 2, "name %d", i);
#endif
		ours_len[i] = utfconv_fsname_utf16s_to_utf8s(disk, units[i], le,
							     ours[i],
							     sizeof(ours[i]));

		/* utfconv: the WTF-8 form, and back to the same units */
		KUNIT_ASSERT_EQ_MSG(test, ours_len[i], (int)strlen(wtf8[i]),
				    "name %d", i);
		KUNIT_EXPECT_MEMEQ_MSG(test, ours[i], wtf8[i], ours_len[i],
				       "name %d", i);
		ret = utfconv_fsname_utf8s_to_utf16s(ours[i], ours_len[i], le,
						     again, ARRAY_SIZE(again));
		KUNIT_EXPECT_EQ_MSG(test, ret, units[i], "name %d", i);
		KUNIT_EXPECT_MEMEQ_MSG(test, again, disk, 2 * units[i],
				       "name %d", i);
	}

	/* Collision under fs/nls, none under utfconv. */
#if IS_ENABLED(CONFIG_NLS)
	KUNIT_EXPECT_MEMEQ(test, nls[0], nls[1], 2);
	KUNIT_EXPECT_MEMEQ(test, nls[0], nls[2], 2);
#endif
	KUNIT_EXPECT_MEMNEQ(test, ours[0], ours[1], 5);
	KUNIT_EXPECT_NE(test, ours_len[0], ours_len[2]);

	/* fs/nls cannot even create the first name from its WTF-8 form. */
#if IS_ENABLED(CONFIG_NLS)
	ret = utf8s_to_utf16s(ours[0], ours_len[0], le, again,
			      ARRAY_SIZE(again));
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
#endif
}

/*
 * A supplementary character (a surrogate pair on disk) that does not fit:
 * fs/nls stops before it and returns the shorter name without a word;
 * utfconv fails, and writes nothing past the limit.
 */
static void utfconv_fsname_supplementary_test(struct kunit *test)
{
	static const u8 emoji[] = "\xf0\x9f\x98\x80";	/* U+1F600 */
	const int n = 64;	/* U+1F600 * 64: 128 units, 256 bytes */
	u8 *name = utfconv_fsname_alloc(test, NAME_MAX + 4);
	wchar_t *disk = utfconv_fsname_alloc(test, 2 * (NAME_MAX + 2));
	u8 *back = utfconv_fsname_alloc(test, 4 * n + 1);
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	wchar_t poison;
	int i, ret;

	/* VFS -> disk: 254 'a' + U+1F600 needs 256 units, NAME_MAX is 255 */
	memset(name, 'a', NAME_MAX - 1);
	memcpy(name + NAME_MAX - 1, emoji, 4);
	memcpy(&poison, (u8 *)disk + 2 * NAME_MAX, sizeof(poison));

#if IS_ENABLED(CONFIG_NLS)
	ret = utf8s_to_utf16s(name, NAME_MAX + 3, le, disk, NAME_MAX);
	KUNIT_EXPECT_EQ(test, ret, NAME_MAX - 1);
#endif
	ret = utfconv_fsname_utf8s_to_utf16s(name, NAME_MAX + 3, le, disk,
					     NAME_MAX);
	KUNIT_EXPECT_EQ(test, ret, -ENAMETOOLONG);
	KUNIT_EXPECT_MEMEQ(test, (u8 *)disk + 2 * NAME_MAX, &poison,
			   sizeof(poison));
	ret = utfconv_fsname_utf8s_to_utf16s(name, NAME_MAX + 3, le, disk,
					     NAME_MAX + 1);
	KUNIT_EXPECT_EQ(test, ret, NAME_MAX + 1);

	/* disk -> VFS: 64 x U+1F600 is 256 bytes of UTF-8 */
	for (i = 0; i < n; i++)
		memcpy(name + 4 * i, emoji, 4);
	ret = utfconv_fsname_utf8s_to_utf16s(name, 4 * n, le, disk, 2 * n);
	KUNIT_ASSERT_EQ(test, ret, 2 * n);

#if IS_ENABLED(CONFIG_NLS)
	ret = utf16s_to_utf8s(disk, 2 * n, le, back, NAME_MAX);
	KUNIT_EXPECT_EQ(test, ret, 4 * (n - 1));
#endif
	back[NAME_MAX] = 0xA5;
	ret = utfconv_fsname_utf16s_to_utf8s(disk, 2 * n, le, back, NAME_MAX);
	KUNIT_EXPECT_EQ(test, ret, -E2BIG);
	KUNIT_EXPECT_EQ(test, back[NAME_MAX], 0xA5);
	ret = utfconv_fsname_utf16s_to_utf8s(disk, 2 * n, le, back, 4 * n);
	KUNIT_EXPECT_EQ(test, ret, 4 * n);
	KUNIT_EXPECT_MEMEQ(test, back, name, 4 * n);
}

/* Bad UTF-8 from userspace: fs/nls says -EINVAL; utfconv says where. */
struct utfconv_fsname_bad {
	const char *desc;
	const char *name;
	int ret;
	u64 offset;
};

static const struct utfconv_fsname_bad utfconv_fsname_bad_names[] = {
	{ "stray lead byte", "report\xc3(2024).txt", -EILSEQ, 6 },
	{ "overlong slash", "..\xc0\xafpasswd", -EILSEQ, 2 },
	{ "continuation without lead", "na\x80me", -EILSEQ, 2 },
	{ "CESU-8 pair", "x\xed\xa0\xbd\xed\xb8\x80", -EILSEQ, 4 },
	{ "above U+10FFFF", "ab\xf4\x90\x80\x80", -EILSEQ, 2 },
	{ "truncated at the end", "caf\xc3", -EINVAL, 3 },
};

static void utfconv_fsname_bad_desc(const struct utfconv_fsname_bad *t,
				    char *desc)
{
	strscpy(desc, t->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(utfconv_fsname_bad, utfconv_fsname_bad_names,
		  utfconv_fsname_bad_desc);

static void utfconv_fsname_bad_utf8_test(struct kunit *test)
{
	const struct utfconv_fsname_bad *t = test->param_value;
	const u8 *name = (const u8 *)t->name;
	wchar_t *disk = utfconv_fsname_alloc(test, 2 * NAME_MAX);
	int len = strlen(t->name);
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	u64 off = ~0ULL;
	int ret;

#if IS_ENABLED(CONFIG_NLS)
	ret = utf8s_to_utf16s(name, len, le, disk, NAME_MAX);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
#endif
	ret = utfconv_fsname_utf8s_to_utf16s_off(name, len, le, disk, NAME_MAX,
						 &off);
	KUNIT_EXPECT_EQ(test, ret, t->ret);
	KUNIT_EXPECT_EQ(test, off, t->offset);
}

#if IS_ENABLED(CONFIG_NLS)
/*
 * On valid names that fit, the wrappers are drop-ins: the same units in
 * each byte order and the same UTF-8 as fs/nls.
 */
static const char *const utfconv_fsname_good_names[] = {
	"README.txt",
	"r\xc3\xa9sum\xc3\xa9.pdf",			/* résumé.pdf */
	"\xe6\xb1\x89\xe5\xad\x97.doc",			/* 汉字.doc */
	"\xf0\x9f\x98\x80 smile \xf0\xa0\xae\xb7",	/* U+1F600, U+20BB7 */
	"\xef\xbf\xbe\xef\xbb\xbf",			/* U+FFFE, U+FEFF */
};

static void utfconv_fsname_good_desc(const char *const *name, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", *name);
}

KUNIT_ARRAY_PARAM(utfconv_fsname_good, utfconv_fsname_good_names,
		  utfconv_fsname_good_desc);

static void utfconv_fsname_same_as_nls_test(struct kunit *test)
{
	static const enum utf16_endian endians[] = {
		UTF16_HOST_ENDIAN, UTF16_LITTLE_ENDIAN, UTF16_BIG_ENDIAN,
	};
	const char *const *param = test->param_value;
	const u8 *name = (const u8 *)*param;
	wchar_t *nls = utfconv_fsname_alloc(test, 2 * NAME_MAX);
	wchar_t *ours = utfconv_fsname_alloc(test, 2 * NAME_MAX);
	u8 *nls8 = utfconv_fsname_alloc(test, NAME_MAX);
	u8 *ours8 = utfconv_fsname_alloc(test, NAME_MAX);
	int len = strlen(*param);
	int i, n, m;

	for (i = 0; i < ARRAY_SIZE(endians); i++) {
		n = utf8s_to_utf16s(name, len, endians[i], nls, NAME_MAX);
		m = utfconv_fsname_utf8s_to_utf16s(name, len, endians[i], ours,
						   NAME_MAX);
		KUNIT_ASSERT_GT_MSG(test, n, 0, "endian %d", endians[i]);
		KUNIT_ASSERT_EQ_MSG(test, m, n, "endian %d", endians[i]);
		KUNIT_EXPECT_MEMEQ_MSG(test, ours, nls, 2 * n, "endian %d",
				       endians[i]);

		n = utf16s_to_utf8s(nls, n, endians[i], nls8, NAME_MAX);
		m = utfconv_fsname_utf16s_to_utf8s(ours, m, endians[i], ours8,
						   NAME_MAX);
		KUNIT_ASSERT_EQ_MSG(test, n, len, "endian %d", endians[i]);
		KUNIT_ASSERT_EQ_MSG(test, m, len, "endian %d", endians[i]);
		KUNIT_EXPECT_MEMEQ_MSG(test, ours8, name, len, "endian %d",
				       endians[i]);
	}
}
#endif /* IS_ENABLED(CONFIG_NLS) */

static struct kunit_case utfconv_fsname_cases[] = {
	KUNIT_CASE(utfconv_fsname_name_max_test),
	KUNIT_CASE(utfconv_fsname_lone_surrogate_test),
	KUNIT_CASE(utfconv_fsname_supplementary_test),
	KUNIT_CASE_PARAM(utfconv_fsname_bad_utf8_test,
			 utfconv_fsname_bad_gen_params),
#if IS_ENABLED(CONFIG_NLS)
	KUNIT_CASE_PARAM(utfconv_fsname_same_as_nls_test,
			 utfconv_fsname_good_gen_params),
#endif
	{}
};

UTFCONV_DEFINE_PATH_SUITE(utfconv_fsname, scalar, utfconv_fsname_cases, NULL);
UTFCONV_DEFINE_PATH_SUITE(utfconv_fsname, simd, utfconv_fsname_cases, NULL);

kunit_test_suites(&utfconv_fsname_scalar_suite, &utfconv_fsname_simd_suite);

