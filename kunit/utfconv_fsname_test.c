// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite utfconv_fsname: the library's file name functions
 * (kmod/utfconv_fsname.c) as a filesystem's name translator.
 *
 * A filesystem that stores names as UTF-16LE (NTFS, exFAT, FAT long names,
 * Joliet is big-endian) translates every name between that form on disk
 * and UTF-8 in the VFS. In the kernel it calls utf8s_to_utf16s() and
 * utf16s_to_utf8s() of fs/nls. utfconv's functions take the same
 * arguments, but never truncate and never drop anything, and the tests
 * show, next to fs/nls, where that matters.
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

#include "../kmod/utfconv_fsname.h"

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
					     NAME_MAX, UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, NAME_MAX);
	ret = utfconv_fsname_utf16s_to_utf8s(disk, NAME_MAX, le, back,
					     NAME_MAX, UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, NAME_MAX);
	KUNIT_EXPECT_MEMEQ(test, back, name, NAME_MAX);

	/* NAME_MAX + 1 bytes into NAME_MAX units */
#if IS_ENABLED(CONFIG_NLS)
	ret = utf8s_to_utf16s(name, NAME_MAX + 1, le, disk, NAME_MAX);
	KUNIT_EXPECT_EQ(test, ret, NAME_MAX);
#endif
	ret = utfconv_fsname_utf8s_to_utf16s(name, NAME_MAX + 1, le, disk,
					     NAME_MAX, UTFCONV_WTF8);
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
							     sizeof(ours[i]),
							     UTFCONV_WTF8);

		/* utfconv: the WTF-8 form, and back to the same units */
		KUNIT_ASSERT_EQ_MSG(test, ours_len[i], (int)strlen(wtf8[i]),
				    "name %d", i);
		KUNIT_EXPECT_MEMEQ_MSG(test, ours[i], wtf8[i], ours_len[i],
				       "name %d", i);
		ret = utfconv_fsname_utf8s_to_utf16s(ours[i], ours_len[i], le,
						     again, ARRAY_SIZE(again),
						     UTFCONV_WTF8);
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
					     NAME_MAX, UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, -ENAMETOOLONG);
	KUNIT_EXPECT_MEMEQ(test, (u8 *)disk + 2 * NAME_MAX, &poison,
			   sizeof(poison));
	ret = utfconv_fsname_utf8s_to_utf16s(name, NAME_MAX + 3, le, disk,
					     NAME_MAX + 1, UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, NAME_MAX + 1);

	/* disk -> VFS: 64 x U+1F600 is 256 bytes of UTF-8 */
	for (i = 0; i < n; i++)
		memcpy(name + 4 * i, emoji, 4);
	ret = utfconv_fsname_utf8s_to_utf16s(name, 4 * n, le, disk, 2 * n,
					     UTFCONV_WTF8);
	KUNIT_ASSERT_EQ(test, ret, 2 * n);

#if IS_ENABLED(CONFIG_NLS)
	ret = utf16s_to_utf8s(disk, 2 * n, le, back, NAME_MAX);
	KUNIT_EXPECT_EQ(test, ret, 4 * (n - 1));
#endif
	back[NAME_MAX] = 0xA5;
	ret = utfconv_fsname_utf16s_to_utf8s(disk, 2 * n, le, back, NAME_MAX,
					     UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, -E2BIG);
	KUNIT_EXPECT_EQ(test, back[NAME_MAX], 0xA5);
	ret = utfconv_fsname_utf16s_to_utf8s(disk, 2 * n, le, back, 4 * n,
					     UTFCONV_WTF8);
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

KUNIT_ARRAY_PARAM_DESC(utfconv_fsname_bad, utfconv_fsname_bad_names, desc);

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
						 UTFCONV_WTF8, &off);
	KUNIT_EXPECT_EQ(test, ret, t->ret);
	KUNIT_EXPECT_EQ(test, off, t->offset);
	/* the drop-in: fs/nls's errno, whatever the fault */
	ret = utfconv_fsname_utf8s_to_utf16s(name, len, le, disk, NAME_MAX,
					     UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
}

/*
 * The strict policy: a name on disk with an unpaired surrogate is refused
 * with its offset in code units (a trail without lead is ill-formed, a
 * lead as the last unit incomplete), and so is the WTF-8 form of one
 * from the VFS; the WTF-8 policy converts both.
 */
static void utfconv_fsname_strict_test(struct kunit *test)
{
	static const u16 trail[] = { 'a', 0xDC00, 'b' };
	static const u16 lead_last[] = { 'a', 'b', 0xD800 };
	static const u8 wtf8[] = "a\xed\xa0\x80\x62";
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	wchar_t disk[3], units[4];
	u64 off = ~0ULL;
	u8 out[8];
	int ret;

	utfconv_fsname_put_le(disk, trail, 3);
	ret = utfconv_fsname_utf16s_to_utf8s_off(disk, 3, le, out, sizeof(out),
						 UTFCONV_STRICT, &off);
	KUNIT_EXPECT_EQ(test, ret, -EILSEQ);
	KUNIT_EXPECT_EQ(test, off, 1);
	ret = utfconv_fsname_utf16s_to_utf8s_off(disk, 3, le, out, sizeof(out),
						 UTFCONV_WTF8, &off);
	KUNIT_EXPECT_EQ(test, ret, 5);
	KUNIT_EXPECT_MEMEQ(test, out, "a\xed\xb0\x80\x62", 5);

	off = ~0ULL;
	utfconv_fsname_put_le(disk, lead_last, 3);
	ret = utfconv_fsname_utf16s_to_utf8s_off(disk, 3, le, out, sizeof(out),
						 UTFCONV_STRICT, &off);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, off, 2);

	off = ~0ULL;
	ret = utfconv_fsname_utf8s_to_utf16s_off(wtf8, 5, le, units, 4,
						 UTFCONV_STRICT, &off);
	KUNIT_EXPECT_EQ(test, ret, -EILSEQ);
	KUNIT_EXPECT_EQ(test, off, 1);
	ret = utfconv_fsname_utf8s_to_utf16s_off(wtf8, 5, le, units, 4,
						 UTFCONV_WTF8, &off);
	KUNIT_EXPECT_EQ(test, ret, 3);
}

/* Replace and skip would give two names one form; bad lengths. */
static void utfconv_fsname_bad_arguments_test(struct kunit *test)
{
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	wchar_t disk[4] = { 0 };
	u64 off = 7;
	u8 out[8];
	const u8 *ab = (const u8 *)"ab";
	/* the last byte and unit of the address space */
	const u8 *wrap8 = (const u8 *)UINTPTR_MAX;
	const wchar_t *wrap16 = (const wchar_t *)(UINTPTR_MAX - 1);
	int ret;

	ret = utfconv_fsname_utf8s_to_utf16s_off(ab, 2, le, disk, 4,
						 UTFCONV_REPLACE, &off);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	ret = utfconv_fsname_utf16s_to_utf8s_off(disk, 2, le, out, 8,
						 UTFCONV_SKIP, &off);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	ret = utfconv_fsname_utf8s_to_utf16s(ab, -1, le, disk, 4,
					     UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	ret = utfconv_fsname_utf8s_to_utf16s(ab, 2, le, disk, -1,
					     UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	ret = utfconv_fsname_utf16s_to_utf8s(disk, -1, le, out, 8,
					     UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	/*
	 * Names that wrap around the address space, refused before a byte
	 * is read: not bad input either (the UTF-16 form wrote 0 here).
	 */
	ret = utfconv_fsname_utf16s_to_utf8s_off(wrap16, 2, le, out, 8,
						 UTFCONV_STRICT, &off);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	ret = utfconv_fsname_utf8s_to_utf16s_off(wrap8, 2, le, disk, 4,
						 UTFCONV_STRICT, &off);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	/* the offset is only written for bad input */
	KUNIT_EXPECT_EQ(test, off, 7);
}

/* The units written: a supplementary character counts two (a pair). */
struct utfconv_fsname_len_case {
	const char *desc;
	const char *name;
	u32 policy;
	int ret;
	u64 offset;
};

static const struct utfconv_fsname_len_case utfconv_fsname_len_cases[] = {
	{ "ascii", "README.txt", UTFCONV_STRICT, 10, ~0ULL },
	{ "two- and three-byte", "r\xc3\xa9\xe6\xb1\x89", UTFCONV_STRICT,
	  3, ~0ULL },
	{ "supplementary", "a\xf0\x9f\x98\x80", UTFCONV_STRICT, 3,
	  ~0ULL },
	{ "empty", "", UTFCONV_STRICT, 0, ~0ULL },
	{ "overlong", "ab\xc0\xaf", UTFCONV_STRICT, -EILSEQ, 2 },
	{ "truncated", "caf\xc3", UTFCONV_WTF8, -EINVAL, 3 },
	{ "surrogate strict", "x\xed\xa0\x80", UTFCONV_STRICT, -EILSEQ,
	  1 },
	{ "surrogate wtf8", "x\xed\xa0\x80", UTFCONV_WTF8, 2, ~0ULL },
};

KUNIT_ARRAY_PARAM_DESC(utfconv_fsname_len, utfconv_fsname_len_cases, desc);

static void utfconv_fsname_units_test(struct kunit *test)
{
	const struct utfconv_fsname_len_case *t = test->param_value;
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	int len = strlen(t->name);
	wchar_t *disk = utfconv_fsname_alloc(test, 2 * (len + 1));
	u64 off = ~0ULL;
	int ret;

	ret = utfconv_fsname_utf8s_to_utf16s_off((const u8 *)t->name, len, le,
						 disk, len + 1, t->policy,
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
						   NAME_MAX,
						   UTFCONV_WTF8);
		KUNIT_ASSERT_GT_MSG(test, n, 0, "endian %d", endians[i]);
		KUNIT_ASSERT_EQ_MSG(test, m, n, "endian %d", endians[i]);
		KUNIT_EXPECT_MEMEQ_MSG(test, ours, nls, 2 * n, "endian %d",
				       endians[i]);

		n = utf16s_to_utf8s(nls, n, endians[i], nls8, NAME_MAX);
		m = utfconv_fsname_utf16s_to_utf8s(ours, m, endians[i], ours8,
						   NAME_MAX,
						   UTFCONV_WTF8);
		KUNIT_ASSERT_EQ_MSG(test, n, len, "endian %d", endians[i]);
		KUNIT_ASSERT_EQ_MSG(test, m, len, "endian %d", endians[i]);
		KUNIT_EXPECT_MEMEQ_MSG(test, ours8, name, len, "endian %d",
				       endians[i]);
	}
}
#endif /* IS_ENABLED(CONFIG_NLS) */

/*
 * vfat and exFAT pass whole name buffers, NUL-terminated and padded with
 * 0xFFFF: the drop-in stops at the first U+0000 as fs/nls does; the _off
 * form converts U+0000 like any other character.
 */
static void utfconv_fsname_nul_stop_test(struct kunit *test)
{
	static const u16 padded[] = { 'a', 0xD800, 'b', 0, 0xFFFF, 0xFFFF };
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	wchar_t disk[ARRAY_SIZE(padded)];
	u8 out[16];
	int ret;

	utfconv_fsname_put_le(disk, padded, ARRAY_SIZE(padded));
	memset(out, 0xA5, sizeof(out));
	ret = utfconv_fsname_utf16s_to_utf8s(disk, ARRAY_SIZE(padded), le,
					     out, sizeof(out),
					     UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, 5);
	KUNIT_EXPECT_MEMEQ(test, out, "a\xed\xa0\x80\x62", 5);
	KUNIT_EXPECT_EQ(test, out[5], 0xA5);
	/* a name of U+0000 only, and one without any */
	ret = utfconv_fsname_utf16s_to_utf8s(&disk[3], 3, le, out, sizeof(out),
					     UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, 0);
	ret = utfconv_fsname_utf16s_to_utf8s(disk, 3, le, out, sizeof(out),
					     UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, 5);
	ret = utfconv_fsname_utf16s_to_utf8s_off(disk, 4, le, out, sizeof(out),
						 UTFCONV_WTF8, NULL);
	KUNIT_EXPECT_EQ(test, ret, 6);
	KUNIT_EXPECT_MEMEQ(test, out, "a\xed\xa0\x80\x62\0", 6);
#if IS_ENABLED(CONFIG_NLS)
	/* fs/nls stops there too (and drops the surrogate) */
	ret = utf16s_to_utf8s(disk, ARRAY_SIZE(padded), le, out, sizeof(out));
	KUNIT_EXPECT_EQ(test, ret, 2);
#endif
}

/* A VFS name in a NUL-padded buffer: the UTF-8 drop-in ends at the NUL. */
static void utfconv_fsname_nul_stop_utf8_test(struct kunit *test)
{
	static const u8 padded[] = "a\xc3\xa9\0zz";
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	wchar_t disk[8];
	wchar_t want[2];
	int ret;

	utfconv_fsname_put_le(want, (const u16 []){ 'a', 0xE9 }, 2);
	memset(disk, 0xA5, sizeof(disk));
	ret = utfconv_fsname_utf8s_to_utf16s(padded, sizeof(padded), le, disk,
					     ARRAY_SIZE(disk),
					     UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, 2);
	KUNIT_EXPECT_MEMEQ(test, disk, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, disk[2], (wchar_t)0xA5A5);
	/* a NUL first: the empty name */
	ret = utfconv_fsname_utf8s_to_utf16s(&padded[3], 3, le, disk,
					     ARRAY_SIZE(disk),
					     UTFCONV_WTF8);
	KUNIT_EXPECT_EQ(test, ret, 0);
	/* the _off form converts U+0000 like any other character */
	ret = utfconv_fsname_utf8s_to_utf16s_off(padded, 6, le, disk,
						 ARRAY_SIZE(disk),
						 UTFCONV_WTF8, NULL);
	KUNIT_EXPECT_EQ(test, ret, 5);
#if IS_ENABLED(CONFIG_NLS)
	ret = utf8s_to_utf16s(padded, sizeof(padded), le, disk,
			      ARRAY_SIZE(disk));
	KUNIT_EXPECT_EQ(test, ret, 2);
#endif
}

/*
 * The drop-ins find the NUL in the ASCII steps of the fast path, eight or
 * sixteen bytes (four or eight units) at a time, and in the last few
 * characters, which the careful path takes: a NUL at each place of an
 * ASCII name of a few steps, or none, with each length given and each
 * alignment of the name; the name ends at the NUL or at the length.
 */
static void utfconv_fsname_nul_each_place_test(struct kunit *test)
{
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	enum { N = 37, BASES = 4 };
	u8 name[BASES + N], out[4 * N];
	wchar_t disk[BASES + N], units[N];
	int base, nul, len, i, ret, want;

	for (nul = 0; nul <= N; nul++) {
		for (i = 0; i < ARRAY_SIZE(name); i++)
			name[i] = 'a' + i % 26;
		for (base = 0; base < BASES; base++) {
			if (nul < N)
				name[base + nul] = 0;
			for (i = 0; i < N; i++)
				put_unaligned_le16(name[base + i],
						   &disk[base + i]);
			for (len = 0; len <= N; len++) {
				want = min(nul, len);
				ret = utfconv_fsname_utf8s_to_utf16s(name + base,
								     len, le,
								     units, N,
								     UTFCONV_WTF8);
				KUNIT_EXPECT_EQ_MSG(test, ret, want,
						    "UTF-8: NUL at %d, length %d, base %d",
						    nul, len, base);
				ret = utfconv_fsname_utf16s_to_utf8s(disk + base,
								     len, le,
								     out,
								     sizeof(out),
								     UTFCONV_WTF8);
				KUNIT_EXPECT_EQ_MSG(test, ret, want,
						    "UTF-16: NUL at %d, length %d, base %d",
						    nul, len, base);
				KUNIT_EXPECT_MEMEQ_MSG(test, out, name + base,
						       max(ret, 0),
						       "NUL at %d, length %d",
						       nul, len);
			}
			name[base + nul] = 'a' + (base + nul) % 26;
		}
	}
}

/*
 * A name of every kind of character the converters take in steps of
 * their own: ASCII runs, one ASCII byte between others, two-, three- and
 * four-byte characters, runs of each and a lone surrogate's WTF-8 form.
 */
static const char utfconv_fsname_mixed[] =
	"Readme of the 2nd draft.txt \xc3\xa9t\xc3\xa9 \xd0\x96\xd1\x83\xd0\xba"
	"\xd0\xb8 \xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97 x \xf0\x9f\x98\x80"
	"\xf0\x9f\x98\x81 \xed\x95\x9c\xea\xb5\xad\xec\x96\xb4-\xe0\xa4\xb9"
	"\xe0\xa4\xbf\xe0\xa4\x82 \xed\xa0\x80 long ASCII run, long ASCII run\xce\xb1"
	"\xce\xb2\xce\xb3\xce\xb4\xce\xb5 \xe3\x81\x82\xe3\x81\x84 \xf0\x90\x8d\x88"
	".tar.gz \xc3\xbc\xc3\xb6\xc3\xa4 end of the name";

/*
 * What utfconv_fsname_utf8s_to_utf16s() must give for @s, @len bytes: the
 * _off form under the same policy on the bytes before the first NUL, its
 * errno for ill-formed input -EINVAL as fs/nls's.
 */
static int utfconv_fsname_u8_ref(const u8 *s, int len, enum utf16_endian e,
				 wchar_t *out, int maxout, u32 policy)
{
	int ret = utfconv_fsname_utf8s_to_utf16s_off(s, strnlen((const char *)s, len), e,
						     out, maxout, policy, NULL);

	return ret == -EILSEQ ? -EINVAL : ret;
}

/* As utfconv_fsname_u8_ref(), UTF-16 input: up to the first U+0000. */
static int utfconv_fsname_u16_ref(const wchar_t *p, int len,
				  enum utf16_endian e, u8 *out, int maxout,
				  u32 policy)
{
	int n = 0, ret;

	while (n < len && p[n])
		n++;
	ret = utfconv_fsname_utf16s_to_utf8s_off(p, n, e, out, maxout, policy,
						 NULL);
	return ret == -EINVAL ? -EILSEQ : ret;
}

/*
 * One round of utfconv_fsname_nul_mixed_test(): byte order, room and
 * policy, and two buffers of %UTFCONV_FSNAME_MIXED_ROOM bytes for the
 * drop-in's output and the reference's (off the stack: either form of
 * the name is too large for a kernel stack frame).
 */
struct utfconv_fsname_nul_case {
	struct kunit *test;
	enum utf16_endian e;
	int maxout;
	u32 policy;
	void *got, *want;
};

/* Either form of utfconv_fsname_mixed, with room to spare, in bytes. */
#define UTFCONV_FSNAME_MIXED_ROOM	(4 * sizeof(utfconv_fsname_mixed))

/* The UTF-8 drop-in on @name with a NUL at each byte (or none). */
static void utfconv_fsname_nul_mixed_u8(const struct utfconv_fsname_nul_case *c,
					u8 *name, int len)
{
	int nul, ret, ref;
	u8 keep;

	for (nul = 0; nul <= len; nul++) {
		keep = nul < len ? name[nul] : 0;
		if (nul < len)
			name[nul] = 0;
		ref = utfconv_fsname_u8_ref(name, len, c->e, c->want, c->maxout,
					    c->policy);
		ret = utfconv_fsname_utf8s_to_utf16s(name, len, c->e, c->got,
						     c->maxout, c->policy);
		KUNIT_EXPECT_EQ_MSG(c->test, ret, ref,
				    "NUL at %d of %d, endian %d, maxout %d, policy %u",
				    nul, len, c->e, c->maxout, c->policy);
		if (ret > 0 && ret == ref)
			KUNIT_EXPECT_MEMEQ_MSG(c->test, c->got, c->want, 2 * ret,
					       "NUL at %d of %d, maxout %d",
					       nul, len, c->maxout);
		if (nul < len)
			name[nul] = keep;
	}
}

/* The UTF-16 drop-in on @units with a U+0000 at each unit (or none). */
static void
utfconv_fsname_nul_mixed_u16(const struct utfconv_fsname_nul_case *c,
			     wchar_t *units, int len)
{
	int nul, ret, ref;
	wchar_t keep;

	for (nul = 0; nul <= len; nul++) {
		keep = nul < len ? units[nul] : 0;
		if (nul < len)
			units[nul] = 0;
		ref = utfconv_fsname_u16_ref(units, len, c->e, c->want,
					     c->maxout, c->policy);
		ret = utfconv_fsname_utf16s_to_utf8s(units, len, c->e, c->got,
						     c->maxout, c->policy);
		KUNIT_EXPECT_EQ_MSG(c->test, ret, ref,
				    "U+0000 at %d of %d, endian %d, maxout %d, policy %u",
				    nul, len, c->e, c->maxout, c->policy);
		if (ret > 0 && ret == ref)
			KUNIT_EXPECT_MEMEQ_MSG(c->test, c->got, c->want, ret,
					       "U+0000 at %d of %d, maxout %d",
					       nul, len, c->maxout);
		if (nul < len)
			units[nul] = keep;
	}
}

/*
 * One byte order and policy of utfconv_fsname_nul_mixed_test() (in @c;
 * the room is set here): the name at @name, its UTF-16 form at @units,
 * each at two alignments.
 */
static void utfconv_fsname_nul_mixed_one(struct utfconv_fsname_nul_case *c,
					 u8 *name, wchar_t *units)
{
	const u8 *mixed = (const u8 *)utfconv_fsname_mixed;
	const int len8 = sizeof(utfconv_fsname_mixed) - 1;
	const int rooms[] = { 2 * len8, 100, 37 };
	int r, base, len16;

	len16 = utfconv_fsname_utf8s_to_utf16s_off(mixed, len8, c->e,
						   units + 1, len8,
						   UTFCONV_WTF8, NULL);
	KUNIT_ASSERT_GT(c->test, len16, 0);
	for (base = 0; base < 2; base++) {
		u8 *n8 = name + base;
		wchar_t *n16 = units + 1 - base;

		memcpy(n8, mixed, len8 - base);
		for (r = 0; r < ARRAY_SIZE(rooms); r++) {
			c->maxout = rooms[r];
			utfconv_fsname_nul_mixed_u8(c, n8, len8 - base);
			utfconv_fsname_nul_mixed_u16(c, n16, len16);
		}
		memmove(units, units + 1, 2 * len16);
	}
}

/*
 * The drop-ins find the NUL as they convert, in the steps that take
 * ASCII: a NUL at each place of a long name of every kind of character,
 * inside a character too (what is before it then ends inside one), at
 * two alignments, with room for the whole name and for less, in both
 * byte orders and under both policies; the result is that of the _off
 * form on what comes before the NUL.
 */
static void utfconv_fsname_nul_mixed_test(struct kunit *test)
{
	static const enum utf16_endian endians[] = {
		UTF16_LITTLE_ENDIAN, UTF16_BIG_ENDIAN
	};
	static const u32 policies[] = {
		UTFCONV_WTF8, UTFCONV_STRICT
	};
	const int len8 = sizeof(utfconv_fsname_mixed) - 1;
	u8 *name = utfconv_fsname_alloc(test, len8 + 1);
	wchar_t *units = utfconv_fsname_alloc(test, 2 * (len8 + 1));
	struct utfconv_fsname_nul_case c = {
		.test = test,
		.got = utfconv_fsname_alloc(test, UTFCONV_FSNAME_MIXED_ROOM),
		.want = utfconv_fsname_alloc(test, UTFCONV_FSNAME_MIXED_ROOM),
	};
	int p, e;

	for (p = 0; p < ARRAY_SIZE(policies); p++) {
		c.policy = policies[p];
		for (e = 0; e < ARRAY_SIZE(endians); e++) {
			c.e = endians[e];
			utfconv_fsname_nul_mixed_one(&c, name, units);
		}
	}
}

/* utfconv_fsname_utf8_to_utf32() on one input, under both policies. */
struct utfconv_fsname_u32 {
	const char *desc;
	const char *s;
	int inlen;
	int wtf8;		/* return under wtf8 */
	int strict;		/* return under strict */
	int nls;		/* return of fs/nls's utf8_to_utf32() */
	unicode_t cp;		/* *pu when the return is positive */
};

static const struct utfconv_fsname_u32 utfconv_fsname_u32_cases[] = {
	{ "ASCII", "A", 1, 1, 1, 1, 0x41 },
	{ "two bytes", "\xc3\xa9", 2, 2, 2, 2, 0xE9 },
	{ "three bytes", "\xe2\x82\xac", 3, 3, 3, 3, 0x20AC },
	{ "first character only", "\xe2\x82\xac\x41", 4, 3, 3, 3, 0x20AC },
	{ "U+D7FF", "\xed\x9f\xbf", 3, 3, 3, 3, 0xD7FF },
	{ "U+E000", "\xee\x80\x80", 3, 3, 3, 3, 0xE000 },
	{ "four bytes", "\xf0\x9f\x98\x80", 4, 4, 4, 4, 0x1F600 },
	{ "U+10FFFF", "\xf4\x8f\xbf\xbf", 4, 4, 4, 4, 0x10FFFF },
	{ "lead surrogate ED A0 80", "\xed\xa0\x80", 3, 3, -EILSEQ, -EILSEQ,
	  0xD800 },
	{ "lead surrogate, then A", "\xed\xaf\xbf\x41", 4, 3, -EILSEQ, -EILSEQ,
	  0xDBFF },
	{ "trail surrogate ED BF BF", "\xed\xbf\xbf", 3, 3, -EILSEQ, -EILSEQ,
	  0xDFFF },
	{ "CESU-8 pair", "\xed\xa0\xbd\xed\xb8\x80", 6, -EILSEQ, -EILSEQ,
	  -EILSEQ, 0 },
	{ "overlong 2", "\xc0\xaf", 2, -EILSEQ, -EILSEQ, -EILSEQ, 0 },
	{ "overlong 3", "\xe0\x80\xaf", 3, -EILSEQ, -EILSEQ, -EILSEQ, 0 },
	{ "overlong 4", "\xf0\x80\x80\xaf", 4, -EILSEQ, -EILSEQ, -EILSEQ, 0 },
	{ "above U+10FFFF", "\xf4\x90\x80\x80", 4, -EILSEQ, -EILSEQ, -EILSEQ,
	  0 },
	{ "lead byte F5", "\xf5\x80\x80\x80", 4, -EILSEQ, -EILSEQ, -EILSEQ, 0 },
	/* fs/nls wants a second byte before it looks at the first */
	{ "continuation byte", "\x80", 1, -EILSEQ, -EILSEQ, -EOVERFLOW, 0 },
	{ "lead without trail", "\xc3\x28", 2, -EILSEQ, -EILSEQ, -EILSEQ, 0 },
	{ "cut short", "\xe2\x82", 2, -EOVERFLOW, -EOVERFLOW, -EOVERFLOW, 0 },
	/* strict: ED A0 begins no scalar value (Table 3-7) */
	{ "surrogate cut short", "\xed\xa0", 2, -EOVERFLOW, -EILSEQ,
	  -EOVERFLOW, 0 },
	{ "empty", "", 0, -EINVAL, -EINVAL, 0, 0 },
};

KUNIT_ARRAY_PARAM_DESC(utfconv_fsname_u32, utfconv_fsname_u32_cases, desc);

static void utfconv_fsname_utf8_to_utf32_one(struct kunit *test,
					     const struct utfconv_fsname_u32 *t,
					     u32 policy, int want)
{
	unicode_t cp = 0xA5A5A5A5;
	int ret;

	ret = utfconv_fsname_utf8_to_utf32((const u8 *)t->s, t->inlen, &cp, policy);
	KUNIT_EXPECT_EQ_MSG(test, ret, want, "policy %u", policy);
	KUNIT_EXPECT_EQ_MSG(test, cp, want > 0 ? t->cp : 0xA5A5A5A5,
			    "policy %u", policy);
}

static void utfconv_fsname_utf8_to_utf32_test(struct kunit *test)
{
	const struct utfconv_fsname_u32 *t = test->param_value;

	utfconv_fsname_utf8_to_utf32_one(test, t, UTFCONV_STRICT,
					 t->strict);
	utfconv_fsname_utf8_to_utf32_one(test, t, UTFCONV_WTF8, t->wtf8);
#if IS_ENABLED(CONFIG_NLS)
	/* fs/nls: the same as strict on scalar values */
	if (t->inlen > 0) {
		unicode_t cp = 0;
		int ret = utf8_to_utf32((const u8 *)t->s, t->inlen, &cp);

		KUNIT_EXPECT_EQ(test, ret, t->nls);
		if (ret > 0)
			KUNIT_EXPECT_EQ(test, cp, t->cp);
	}
#endif
}

/*
 * The policy is each call's own: strict and WTF-8 calls in turn give each
 * their own result, so that two mounts with different names= options do
 * not see each other's; a policy other than the two is refused.
 */
static void utfconv_fsname_policy_test(struct kunit *test)
{
	static const u16 lone[] = { 'a', 0xD800, 'b' };
	static const u16 lead_last[] = { 'a', 0xD800 };
	static const u8 wtf8[] = "a\xed\xa0\x80\x62";
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	const u32 strict = UTFCONV_STRICT, wtf = UTFCONV_WTF8;
	wchar_t disk[3], units[4];
	unicode_t cp = 0;
	u8 out[8];
	int ret;

	utfconv_fsname_put_le(disk, lone, 3);
	ret = utfconv_fsname_utf16s_to_utf8s(disk, 3, le, out, sizeof(out),
					     strict);
	KUNIT_EXPECT_EQ(test, ret, -EILSEQ);
	memset(out, 0, sizeof(out));
	ret = utfconv_fsname_utf16s_to_utf8s(disk, 3, le, out, sizeof(out), wtf);
	KUNIT_EXPECT_EQ(test, ret, 5);
	KUNIT_EXPECT_MEMEQ(test, out, wtf8, 5);
	ret = utfconv_fsname_utf16s_to_utf8s(disk, 3, le, out, sizeof(out),
					     strict);
	KUNIT_EXPECT_EQ(test, ret, -EILSEQ);

	ret = utfconv_fsname_utf8s_to_utf16s(wtf8, 5, le, units, 4, strict);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	ret = utfconv_fsname_utf8s_to_utf16s(wtf8, 5, le, units, 4, wtf);
	KUNIT_EXPECT_EQ(test, ret, 3);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(&units[1]), 0xD800);
	ret = utfconv_fsname_utf8_to_utf32(wtf8 + 1, 3, &cp, strict);
	KUNIT_EXPECT_EQ(test, ret, -EILSEQ);
	ret = utfconv_fsname_utf8_to_utf32(wtf8 + 1, 3, &cp, wtf);
	KUNIT_EXPECT_EQ(test, ret, 3);
	KUNIT_EXPECT_EQ(test, cp, 0xD800);

	utfconv_fsname_put_le(units, lead_last, 2);
	ret = utfconv_fsname_utf16s_to_utf8s(units, 2, le, out, sizeof(out),
					     strict);
	KUNIT_EXPECT_EQ(test, ret, -EILSEQ);

	/* only the two: replace and skip would give two names one form */
	ret = utfconv_fsname_utf16s_to_utf8s(disk, 3, le, out, sizeof(out),
					     UTFCONV_REPLACE);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	ret = utfconv_fsname_utf8s_to_utf16s(wtf8, 5, le, units, 4,
					     UTFCONV_REPLACE);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	ret = utfconv_fsname_utf8_to_utf32(wtf8, 1, &cp,
					   UTFCONV_WTF8 + 1);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, cp, 0xD800);
}

static struct kunit_case utfconv_fsname_cases[] = {
	KUNIT_CASE(utfconv_fsname_name_max_test),
	KUNIT_CASE(utfconv_fsname_lone_surrogate_test),
	KUNIT_CASE(utfconv_fsname_supplementary_test),
	KUNIT_CASE_PARAM(utfconv_fsname_bad_utf8_test,
			 utfconv_fsname_bad_gen_params),
	KUNIT_CASE(utfconv_fsname_strict_test),
	KUNIT_CASE(utfconv_fsname_bad_arguments_test),
	KUNIT_CASE_PARAM(utfconv_fsname_units_test,
			 utfconv_fsname_len_gen_params),
	KUNIT_CASE(utfconv_fsname_nul_stop_test),
	KUNIT_CASE(utfconv_fsname_nul_stop_utf8_test),
	KUNIT_CASE(utfconv_fsname_nul_each_place_test),
	KUNIT_CASE(utfconv_fsname_nul_mixed_test),
	KUNIT_CASE_PARAM(utfconv_fsname_utf8_to_utf32_test,
			 utfconv_fsname_u32_gen_params),
	KUNIT_CASE(utfconv_fsname_policy_test),
#if IS_ENABLED(CONFIG_NLS)
	KUNIT_CASE_PARAM(utfconv_fsname_same_as_nls_test,
			 utfconv_fsname_good_gen_params),
#endif
	{}
};

/*
 * The default path: the file name functions take no path. The converters
 * they use are the codec's, which the codec's suites run on every path,
 * utfconv_buf_to_nul() in utfconv_paths.
 */
static struct kunit_suite utfconv_fsname_suite = {
	.name = "utfconv_fsname",
	.test_cases = utfconv_fsname_cases,
};

kunit_test_suite(utfconv_fsname_suite);
