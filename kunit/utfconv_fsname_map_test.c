// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite utfconv_fsname_map: the per-character mapping of file names
 * (kmod/utfconv_fsname_map.c) with the tables of the kernel's filesystems
 * that map characters: SMB's Services for Mac and Services for Unix
 * ranges (fs/smb/client/cifs_unicode.h), HFS+'s two swaps
 * (fs/hfsplus/unicode.c) and the end at the first C0 control of USB
 * string descriptors.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/nls.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <linux/utfconv.h>

#include "../kmod/utfconv_codec.h"

/* ---- the tables ---------------------------------------------------------- */

/*
 * Services for Mac, as cifs_unicode.h and convert_to_sfm_char() have it:
 * the C0 controls at U+F001..U+F01F, seven characters Windows refuses,
 * and a space or period that ends a component.
 */
static void utfconv_map_sfm_pairs(struct utfconv_charpair *p, unsigned int *n)
{
	static const u16 rsvd[][2] = {
		{ '"', 0xF020 }, { '*', 0xF021 }, { ':', 0xF022 },
		{ '<', 0xF023 }, { '>', 0xF024 }, { '?', 0xF025 },
		{ '|', 0xF027 },
	};
	unsigned int i, k = 0;

	for (i = 0x01; i <= 0x1F; i++)
		p[k++] = (struct utfconv_charpair){ i, 0xF000 + i, 0 };
	for (i = 0; i < ARRAY_SIZE(rsvd); i++)
		p[k++] = (struct utfconv_charpair){ rsvd[i][0], rsvd[i][1], 0 };
	p[k++] = (struct utfconv_charpair){ ' ', 0xF028, UTFCONV_PAIR_LAST };
	p[k++] = (struct utfconv_charpair){ '.', 0xF029, UTFCONV_PAIR_LAST };
	*n = k;
}

/* Services for Unix: : * ? | > < at U+F000 plus the character. */
static const struct utfconv_charpair utfconv_map_sfu[] = {
	{ ':', 0xF03A }, { '*', 0xF02A }, { '?', 0xF03F },
	{ '|', 0xF07C }, { '>', 0xF03E }, { '<', 0xF03C },
};

/* HFS+: a ':' of the VFS is a '/' on disk, U+2400 there a U+0000. */
static const struct utfconv_charpair utfconv_map_hfsplus[] = {
	{ ':', '/' }, { 0x2400, 0x0000 },
};

/* A kunit-managed map of @n pairs under @flags, which must be accepted. */
static struct utfconv_charmap *
utfconv_map_new(struct kunit *test, const struct utfconv_charpair *pairs,
		unsigned int n, u32 flags)
{
	struct utfconv_charmap *map = kunit_kzalloc(test, sizeof(*map),
						    GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, map);
	KUNIT_ASSERT_EQ(test, utfconv_charmap_init(map, pairs, n, flags), 0);
	return map;
}

static struct utfconv_charmap *utfconv_map_sfm(struct kunit *test)
{
	struct utfconv_charpair p[UTFCONV_CHARMAP_PAIRS];
	unsigned int n;

	utfconv_map_sfm_pairs(p, &n);
	KUNIT_ASSERT_EQ(test, n, 40);
	return utfconv_map_new(test, p, n, UTFCONV_MAP_PATH);
}

/* ---- helpers ------------------------------------------------------------- */

#define UNITS_MAX	16

/* One name both ways: its UTF-8 (VFS) form and its UTF-16 (disk) units. */
struct utfconv_map_case {
	const char *desc;
	const char *vfs;
	u16 disk[UNITS_MAX];
	int units;
};

/* @vfs to disk under @map: exactly @disk's @units units, little-endian. */
static void utfconv_map_expect_to16(struct kunit *test,
				    const struct utfconv_charmap *map,
				    const struct utfconv_map_case *c)
{
	wchar_t out[UNITS_MAX];
	int ret, i;

	ret = utfconv_fsname_utf8s_to_utf16s_map((const u8 *)c->vfs,
						 strlen(c->vfs),
						 UTF16_LITTLE_ENDIAN, out,
						 UNITS_MAX, UTFCONV_WTF8, map);
	KUNIT_ASSERT_EQ_MSG(test, ret, c->units, "%s: to disk", c->desc);
	for (i = 0; i < c->units; i++)
		KUNIT_EXPECT_EQ_MSG(test, get_unaligned_le16(&out[i]),
				    c->disk[i], "%s: to disk, unit %d",
				    c->desc, i);
}

/* @disk to the VFS under @map: exactly @vfs. */
static void utfconv_map_expect_to8(struct kunit *test,
				   const struct utfconv_charmap *map,
				   const struct utfconv_map_case *c)
{
	wchar_t in[UNITS_MAX];
	u8 out[4 * UNITS_MAX];
	int ret, i, len = strlen(c->vfs);

	for (i = 0; i < c->units; i++)
		put_unaligned_le16(c->disk[i], &in[i]);
	ret = utfconv_fsname_utf16s_to_utf8s_map(in, c->units,
						 UTF16_LITTLE_ENDIAN, out,
						 sizeof(out), UTFCONV_WTF8,
						 map);
	KUNIT_ASSERT_EQ_MSG(test, ret, len, "%s: to the VFS", c->desc);
	KUNIT_EXPECT_MEMEQ_MSG(test, out, c->vfs, len, "%s: to the VFS",
			       c->desc);
}

static void utfconv_map_expect_both(struct kunit *test,
				    const struct utfconv_charmap *map,
				    const struct utfconv_map_case *c)
{
	utfconv_map_expect_to16(test, map, c);
	utfconv_map_expect_to8(test, map, c);
}

/* ---- the tests ----------------------------------------------------------- */

/*
 * Services for Mac, with the forms convert_to_sfm_char() gives the VFS
 * names, and the swap back of each: the end-of-component rule for space
 * and period, "." and ".." left alone, and a Private Use character in a
 * VFS name given the reserved one (SMB's own converter makes it the same
 * Private Use character as the reserved one, an alias).
 */
static const struct utfconv_map_case utfconv_map_sfm_cases[] = {
	{ "reserved", "a:b*c?", { 'a', 0xF022, 'b', 0xF021, 'c', 0xF025 }, 6 },
	{ "quote pipe angles", "\"|<>", { 0xF020, 0xF027, 0xF023, 0xF024 }, 4 },
	{ "C0 controls", "\x01x\x1f", { 0xF001, 'x', 0xF01F }, 3 },
	{ "inner space and period", "a b.c", { 'a', ' ', 'b', '.', 'c' }, 5 },
	{ "trailing space", "ab ", { 'a', 'b', 0xF028 }, 3 },
	{ "trailing period", "ab.", { 'a', 'b', 0xF029 }, 3 },
	{ "two trailing periods", "a..", { 'a', '.', 0xF029 }, 3 },
	{ "dot", ".", { '.' }, 1 },
	{ "dot dot", "..", { '.', '.' }, 2 },
	{ "three dots", "...", { '.', '.', 0xF029 }, 3 },
	{ "dot's swapped form", "\xef\x80\xa9", { 0xF029 }, 1 },
	{ "dot dot's swapped form", ".\xef\x80\xa9", { '.', 0xF029 }, 2 },
	{ "path components", "a.\\b \\.\\..\\c",
	  { 'a', 0xF029, '\\', 'b', 0xF028, '\\', '.', '\\', '.', '.', '\\',
	    'c' }, 12 },
	{ "Private Use in the VFS", "\xef\x80\xa2x", { ':', 'x' }, 2 },
	{ "swapped space inside", "a\xef\x80\xa8\x62", { 'a', 0xF028, 'b' }, 3 },
	/* the filter sees U+F028 with U+F001..U+F027: swapped once only */
	{ "swapped space at the end", "a\xef\x80\xa8", { 'a', ' ' }, 2 },
	{ "swapped period ending a component", "a\xef\x80\xa9\\b",
	  { 'a', '.', '\\', 'b' }, 4 },
	{ "emoji", "\xf0\x9f\x98\x80?", { 0xD83D, 0xDE00, 0xF025 }, 3 },
};

static void utfconv_map_case_desc(const struct utfconv_map_case *c,
				  char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(utfconv_map_sfm, utfconv_map_sfm_cases,
		  utfconv_map_case_desc);

static void utfconv_map_sfm_test(struct kunit *test)
{
	utfconv_map_expect_both(test, utfconv_map_sfm(test), test->param_value);
}

static const struct utfconv_map_case utfconv_map_sfu_cases[] = {
	{ "all six", ":*?|><", { 0xF03A, 0xF02A, 0xF03F, 0xF07C, 0xF03E,
				 0xF03C }, 6 },
	{ "no end rule", "a. ", { 'a', '.', ' ' }, 3 },
	{ "Private Use in the VFS", "\xef\x80\xba", { ':' }, 1 },
};

KUNIT_ARRAY_PARAM(utfconv_map_sfu, utfconv_map_sfu_cases,
		  utfconv_map_case_desc);

static void utfconv_map_sfu_test(struct kunit *test)
{
	const struct utfconv_charmap *map;

	map = utfconv_map_new(test, utfconv_map_sfu,
			      ARRAY_SIZE(utfconv_map_sfu), 0);
	utfconv_map_expect_both(test, map, test->param_value);
}

/*
 * HFS+: a '/' on disk is a ':' in the VFS and back, U+0000 on disk is
 * U+2400 (so it does not end the name); a ':' or U+2400 on disk would be
 * '/' or U+0000 in the VFS, which no name holds: -EILSEQ.
 */
static void utfconv_map_hfsplus_test(struct kunit *test)
{
	static const struct utfconv_map_case cases[] = {
		{ "colon", "a:b", { 'a', '/', 'b' }, 3 },
		{ "U+2400", "x\xe2\x90\x80y", { 'x', 0, 'y' }, 3 },
	};
	static const u16 bad[][2] = { { 'a', ':' }, { 0x2400, 'b' } };
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	const struct utfconv_charmap *map;
	wchar_t in[2];
	u8 out[8];
	int i, ret;

	map = utfconv_map_new(test, utfconv_map_hfsplus,
			      ARRAY_SIZE(utfconv_map_hfsplus), 0);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		utfconv_map_expect_both(test, map, &cases[i]);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		put_unaligned_le16(bad[i][0], &in[0]);
		put_unaligned_le16(bad[i][1], &in[1]);
		ret = utfconv_fsname_utf16s_to_utf8s_map(in, 2, le, out,
							 sizeof(out),
							 UTFCONV_WTF8, map);
		KUNIT_EXPECT_EQ_MSG(test, ret, -EILSEQ, "disk name %d", i);
	}
}

/* USB string descriptors: the name ends at its first C0 control. */
static void utfconv_map_stop_c0_test(struct kunit *test)
{
	static const struct utfconv_map_case cases[] = {
		{ "ends at U+0001", "ab", { 'a', 'b', 0x01, 'c' }, 4 },
		{ "ends at U+001F", "", { 0x1F, 'c' }, 2 },
		{ "no control", "a b", { 'a', ' ', 'b' }, 3 },
	};
	const struct utfconv_charmap *map;
	wchar_t out[UNITS_MAX];
	u8 in[] = { 'a', 'b', 0x1F, 'c', 'd' };
	int i, ret;

	map = utfconv_map_new(test, NULL, 0, UTFCONV_MAP_STOP_C0);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		utfconv_map_expect_to8(test, map, &cases[i]);
	ret = utfconv_fsname_utf8s_to_utf16s_map(in, 5, UTF16_LITTLE_ENDIAN,
						 out, UNITS_MAX, UTFCONV_WTF8,
						 map);
	KUNIT_EXPECT_EQ(test, ret, 2);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(&out[1]), 'b');
}

/* Tables utfconv_charmap_init() refuses, and a good one beside them. */
struct utfconv_map_bad {
	const char *desc;
	struct utfconv_charpair pairs[2];
	unsigned int n;
	u32 flags;
	int ret;
};

static const struct utfconv_map_bad utfconv_map_bad_tables[] = {
	{ "two to one", { { ':', 0xF022 }, { '*', 0xF022 } }, 2, 0, -EINVAL },
	{ "one to two", { { ':', 0xF022 }, { ':', 0xF021 } }, 2, 0, -EINVAL },
	{ "chained", { { ':', 0xF022 }, { 0xF022, 'x' } }, 2, 0, -EINVAL },
	{ "to itself", { { ':', ':' } }, 1, 0, -EINVAL },
	{ "to a lead surrogate", { { ':', 0xD800 } }, 1, 0, -EINVAL },
	{ "from a trail surrogate", { { 0xDFFF, 'x' } }, 1, 0, -EINVAL },
	{ "slash in the VFS", { { '/', 0xF026 } }, 1, 0, -EINVAL },
	{ "U+0000 in the VFS", { { 0, 0x2400 } }, 1, 0, -EINVAL },
	{ "unknown pair flag", { { ':', 0xF022, 2 } }, 1, 0, -EINVAL },
	{ "unknown flag", { { ':', 0xF022 } }, 1, 4, -EINVAL },
	{ "C0 with the C0 stop", { { 0x01, 0xF001 } }, 1,
	  UTFCONV_MAP_STOP_C0, -EINVAL },
	{ "backslash in a path", { { '\\', 0xF05C } }, 1, UTFCONV_MAP_PATH,
	  -EINVAL },
	{ "good", { { ':', 0xF022 }, { 0xF023, '<' } }, 2, UTFCONV_MAP_PATH,
	  0 },
	{ "backslash in a name", { { '\\', 0xF05C } }, 1, 0, 0 },
	{ "U+0000 on disk", { { 0x2400, 0 } }, 1, 0, 0 },
};

static void utfconv_map_bad_desc(const struct utfconv_map_bad *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(utfconv_map_bad, utfconv_map_bad_tables,
		  utfconv_map_bad_desc);

/* A refused table leaves a map that maps nothing: ':' stays ':'. */
static void utfconv_map_bad_table_test(struct kunit *test)
{
	const struct utfconv_map_bad *c = test->param_value;
	struct utfconv_charmap *map;
	wchar_t out[2];
	int ret;

	map = kunit_kzalloc(test, sizeof(*map), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, map);
	memset(map, 0xA5, sizeof(*map));
	ret = utfconv_charmap_init(map, c->pairs, c->n, c->flags);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (!ret)
		return;
	ret = utfconv_fsname_utf8s_to_utf16s_map((const u8 *)":", 1,
						 UTF16_LITTLE_ENDIAN, out, 2,
						 UTFCONV_WTF8, map);
	KUNIT_EXPECT_EQ(test, ret, 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(&out[0]), ':');
}

/* More pairs than a map holds; as many as it holds. */
static void utfconv_map_too_many_test(struct kunit *test)
{
	struct utfconv_charpair *p;
	struct utfconv_charmap *map;
	int i, ret;

	p = kunit_kcalloc(test, UTFCONV_CHARMAP_PAIRS + 1, sizeof(*p),
			  GFP_KERNEL);
	map = kunit_kzalloc(test, sizeof(*map), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, map);
	for (i = 0; i <= UTFCONV_CHARMAP_PAIRS; i++)
		p[i] = (struct utfconv_charpair){ 0x100 + i, 0xF100 + i, 0 };
	ret = utfconv_charmap_init(map, p, UTFCONV_CHARMAP_PAIRS + 1, 0);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	ret = utfconv_charmap_init(map, p, UTFCONV_CHARMAP_PAIRS, 0);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, map->nunits, 2 * UTFCONV_CHARMAP_PAIRS);
}

/*
 * The @n units at @disk to the VFS and back, and the VFS name to disk
 * and to the VFS again: true when both come back the same.
 */
static bool utfconv_map_round_trip(const struct utfconv_charmap *map,
				   const wchar_t *disk, int n, int *n8,
				   int *n16)
{
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	u8 vfs[8], vfs2[8];
	wchar_t back[3];

	*n16 = -1;
	*n8 = utfconv_fsname_utf16s_to_utf8s_map(disk, n, le, vfs, sizeof(vfs),
						 UTFCONV_WTF8, map);
	if (*n8 < 0)
		return false;
	*n16 = utfconv_fsname_utf8s_to_utf16s_map(vfs, *n8, le, back, 3,
						  UTFCONV_WTF8, map);
	if (*n16 != n || memcmp(back, disk, 2 * n))
		return false;
	return utfconv_fsname_utf16s_to_utf8s_map(back, n, le, vfs2,
						  sizeof(vfs2), UTFCONV_WTF8,
						  map) == *n8 &&
	       !memcmp(vfs, vfs2, *n8);
}

/*
 * Every BMP code point c, alone, after 'a' and before it, as units on
 * disk: to the VFS and back under Services for Mac gives the same units
 * (WTF-8 policy, so lone surrogates too), and the VFS name back to disk
 * and to the VFS again gives the same bytes.
 */
static void utfconv_map_round_trip_test(struct kunit *test)
{
	const struct utfconv_charmap *map = utfconv_map_sfm(test);
	int c, shape, n8, n16, fails = 0;
	wchar_t disk[2];

	for (c = 1; c <= 0xFFFF && fails < 8; c++) {
		for (shape = 0; shape < 3; shape++) {
			put_unaligned_le16(shape == 2 ? 'a' : c, &disk[0]);
			put_unaligned_le16(shape == 1 ? 'a' : c, &disk[1]);
			if (utfconv_map_round_trip(map, disk, shape ? 2 : 1,
						   &n8, &n16))
				continue;
			KUNIT_FAIL(test, "U+%04X shape %d: %d bytes, %d units",
				   c, shape, n8, n16);
			fails++;
		}
	}
}

/*
 * Output room: a ':' on disk is U+F022 in the VFS, three bytes, so the
 * VFS form of a name can be longer than the unmapped one; an unpaired
 * lead surrogate before a swapped character is ill-formed (strict) or
 * kept (WTF-8).
 */
static void utfconv_map_room_and_policy_test(struct kunit *test)
{
	const struct utfconv_charmap *map = utfconv_map_sfm(test);
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	wchar_t in[3];
	u8 out[8];
	int ret;

	put_unaligned_le16('a', &in[0]);
	put_unaligned_le16(':', &in[1]);
	ret = utfconv_fsname_utf16s_to_utf8s_map(in, 2, le, out, 3,
						 UTFCONV_WTF8, map);
	KUNIT_EXPECT_EQ(test, ret, -E2BIG);
	ret = utfconv_fsname_utf16s_to_utf8s_map(in, 2, le, out, 4,
						 UTFCONV_WTF8, map);
	KUNIT_EXPECT_EQ(test, ret, 4);
	KUNIT_EXPECT_MEMEQ(test, out, "a\xef\x80\xa2", 4);

	put_unaligned_le16(0xD800, &in[0]);
	put_unaligned_le16(0xF022, &in[1]);
	ret = utfconv_fsname_utf16s_to_utf8s_map(in, 2, le, out, 8,
						 UTFCONV_STRICT, map);
	KUNIT_EXPECT_EQ(test, ret, -EILSEQ);
	ret = utfconv_fsname_utf16s_to_utf8s_map(in, 2, le, out, 8,
						 UTFCONV_WTF8, map);
	KUNIT_EXPECT_EQ(test, ret, 4);
	KUNIT_EXPECT_MEMEQ(test, out, "\xed\xa0\x80:", 4);

	/* a name that fits unmapped fits mapped: one unit per unit */
	ret = utfconv_fsname_utf8s_to_utf16s_map((const u8 *)"a:b", 3, le, in,
						 2, UTFCONV_WTF8, map);
	KUNIT_EXPECT_EQ(test, ret, -ENAMETOOLONG);
	ret = utfconv_fsname_utf8s_to_utf16s_map((const u8 *)"a:\xff", 3, le,
						 in, 3, UTFCONV_WTF8, map);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
}

/* Big-endian units (Joliet's order) are swapped the same way. */
static void utfconv_map_big_endian_test(struct kunit *test)
{
	const struct utfconv_charmap *map = utfconv_map_sfm(test);
	const enum utf16_endian be = UTF16_BIG_ENDIAN;
	wchar_t units[3];
	u8 out[8];
	int ret;

	ret = utfconv_fsname_utf8s_to_utf16s_map((const u8 *)"a:.", 3, be,
						 units, 3, UTFCONV_WTF8, map);
	KUNIT_ASSERT_EQ(test, ret, 3);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&units[1]), 0xF022);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&units[2]), 0xF029);
	ret = utfconv_fsname_utf16s_to_utf8s_map(units, 3, be, out, 8,
						 UTFCONV_WTF8, map);
	KUNIT_EXPECT_EQ(test, ret, 3);
	KUNIT_EXPECT_MEMEQ(test, out, "a:.", 3);
}

/*
 * Names long enough for the SIMD scan (512 bytes of units and more, on a
 * CPU with AVX-512), 32 units a step and the scalar filter after the last
 * whole step: a name of 'a's with one mapped character at each position,
 * both ways and in both byte orders. The markers are the lowest and the
 * highest Private Use forms the scan looks for anywhere, a reserved
 * character, a space that ends a component, and a U+0000 on disk, where
 * the name ends.
 */
#define LONG_UNITS	333

struct utfconv_map_marker {
	const char *vfs;	/* in the VFS, at the position */
	u16 disk[2];		/* on disk, at the position */
	int len;		/* units of @disk, bytes of @vfs's ASCII */
};

static const struct utfconv_map_marker utfconv_map_markers[] = {
	{ ":", { 0xF022 }, 1 },
	{ "\x01", { 0xF001 }, 1 },
	{ "|", { 0xF027 }, 1 },
	{ " \\", { 0xF028, '\\' }, 2 },
};

/* The name of @m at @at, @n units, on disk (@disk) and in the VFS (@vfs). */
static void utfconv_map_long_name(const struct utfconv_map_marker *m, int at,
				  int n, u16 *disk, u8 *vfs)
{
	int i;

	for (i = 0; i < n; i++) {
		disk[i] = 'a';
		vfs[i] = 'a';
	}
	for (i = 0; i < m->len; i++) {
		disk[at + i] = m->disk[i];
		vfs[at + i] = m->vfs[i];
	}
}

/* @disk and @vfs, @n units, both ways under @map in byte order @e. */
static bool utfconv_map_long_check(struct kunit *test,
				   const struct utfconv_charmap *map,
				   const u16 *disk, const u8 *vfs, int n,
				   enum utf16_endian e, const char *what)
{
	static wchar_t units[LONG_UNITS];
	static u8 bytes[3 * LONG_UNITS];
	int ret, i;

	ret = utfconv_fsname_utf8s_to_utf16s_map(vfs, n, e, units, n,
						 UTFCONV_WTF8, map);
	KUNIT_EXPECT_EQ_MSG(test, ret, n, "%s: to disk", what);
	for (i = 0; i < n && ret == n; i++) {
		ret = e == UTF16_BIG_ENDIAN ? get_unaligned_be16(&units[i]) :
					      get_unaligned_le16(&units[i]);
		KUNIT_EXPECT_EQ_MSG(test, ret, disk[i], "%s: to disk, unit %d",
				    what, i);
		ret = ret == disk[i] ? n : 0;
	}
	for (i = 0; i < n; i++) {
		if (e == UTF16_BIG_ENDIAN)
			put_unaligned_be16(disk[i], &units[i]);
		else
			put_unaligned_le16(disk[i], &units[i]);
	}
	ret = utfconv_fsname_utf16s_to_utf8s_map(units, n, e, bytes,
						 sizeof(bytes), UTFCONV_WTF8,
						 map);
	KUNIT_EXPECT_EQ_MSG(test, ret, n, "%s: to the VFS", what);
	KUNIT_EXPECT_MEMEQ_MSG(test, bytes, vfs, n, "%s: to the VFS", what);
	return ret == n && !memcmp(bytes, vfs, n);
}

static void utfconv_map_long_test(struct kunit *test)
{
	static u16 disk[LONG_UNITS];
	static u8 vfs[LONG_UNITS], out[LONG_UNITS];
	const struct utfconv_charmap *map = utfconv_map_sfm(test);
	const struct utfconv_map_marker *m;
	char what[48];
	int k, at, e, ret, fails = 0;

	if (utfconv_path_level(UTFCONV_PATH_AVX512) < UTFCONV_LEVEL_AVX512)
		kunit_info(test, "no AVX-512 on this CPU: the scalar scan only\n");
	for (k = 0; k < ARRAY_SIZE(utfconv_map_markers) && fails < 4; k++) {
		m = &utfconv_map_markers[k];
		/* the space's pair holds at the end of a component: at 1 on */
		for (at = m->len - 1; at + m->len <= LONG_UNITS; at++) {
			utfconv_map_long_name(m, at - (m->len - 1), LONG_UNITS,
					      disk, vfs);
			for (e = 0; e < 2; e++) {
				snprintf(what, sizeof(what), "marker %d at %d%s",
					 k, at, e ? " BE" : "");
				fails += !utfconv_map_long_check(test, map, disk,
					vfs, LONG_UNITS,
					e ? UTF16_BIG_ENDIAN : UTF16_LITTLE_ENDIAN,
					what);
			}
		}
	}
	/* a U+0000 on disk ends the name */
	for (at = 0; at < LONG_UNITS && fails < 4; at++) {
		for (k = 0; k < LONG_UNITS; k++)
			put_unaligned_le16(k == at ? 0 : 'a', &disk[k]);
		ret = utfconv_fsname_utf16s_to_utf8s_map((wchar_t *)disk,
							 LONG_UNITS,
							 UTF16_LITTLE_ENDIAN,
							 out, sizeof(out),
							 UTFCONV_WTF8, map);
		KUNIT_EXPECT_EQ_MSG(test, ret, at, "U+0000 at %d", at);
		fails += ret != at;
	}
}

/*
 * Without a map, or with one that maps nothing, the functions are the
 * unmapped ones: the same result for names with ill-formed input, a NUL,
 * and room too small.
 */
static void utfconv_map_none_test(struct kunit *test)
{
	static const char *const names[] = { "a:b", "a\0b", "\xc0\x80", "abcd" };
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	struct utfconv_charmap *empty;
	wchar_t u1[3], u2[3], u3[3];
	u8 b1[4], b2[4], b3[4];
	int i, r1, r2, r3, n16;

	empty = utfconv_map_new(test, NULL, 0, 0);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		const u8 *s = (const u8 *)names[i];

		r1 = utfconv_fsname_utf8s_to_utf16s(s, 3, le, u1, 3,
						    UTFCONV_STRICT);
		r2 = utfconv_fsname_utf8s_to_utf16s_map(s, 3, le, u2, 3,
							UTFCONV_STRICT, NULL);
		r3 = utfconv_fsname_utf8s_to_utf16s_map(s, 3, le, u3, 3,
							UTFCONV_STRICT, empty);
		KUNIT_EXPECT_EQ_MSG(test, r2, r1, "name %d", i);
		KUNIT_EXPECT_EQ_MSG(test, r3, r1, "name %d", i);
		if (r1 > 0) {
			KUNIT_EXPECT_MEMEQ(test, u2, u1, 2 * r1);
			KUNIT_EXPECT_MEMEQ(test, u3, u1, 2 * r1);
		}
		if (r1 <= 0)
			continue;
		n16 = r1;
		r1 = utfconv_fsname_utf16s_to_utf8s(u1, n16, le, b1, 2,
						    UTFCONV_STRICT);
		r2 = utfconv_fsname_utf16s_to_utf8s_map(u1, n16, le, b2, 2,
							UTFCONV_STRICT, NULL);
		r3 = utfconv_fsname_utf16s_to_utf8s_map(u1, n16, le, b3, 2,
							UTFCONV_STRICT, empty);
		KUNIT_EXPECT_EQ_MSG(test, r2, r1, "name %d back", i);
		KUNIT_EXPECT_EQ_MSG(test, r3, r1, "name %d back", i);
		if (r1 > 0) {
			KUNIT_EXPECT_MEMEQ(test, b2, b1, r1);
			KUNIT_EXPECT_MEMEQ(test, b3, b1, r1);
		}
	}
}

/* The arguments the unmapped functions refuse are refused mapped too. */
static void utfconv_map_bad_arguments_test(struct kunit *test)
{
	static const struct {
		int inlen, maxout;
		u32 policy;
	} bad[] = {
		{ -1, 4, UTFCONV_WTF8 }, { 1, -1, UTFCONV_WTF8 },
		{ 1, 4, UTFCONV_REPLACE }, { 1, 4, UTFCONV_SKIP },
	};
	const struct utfconv_charmap *map = utfconv_map_sfm(test);
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	wchar_t units[4] = { 0 };
	u8 out[4] = "a";
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = utfconv_fsname_utf16s_to_utf8s_map(units, bad[i].inlen,
							 le, out,
							 bad[i].maxout,
							 bad[i].policy, map);
		KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "to UTF-8, case %d", i);
		ret = utfconv_fsname_utf8s_to_utf16s_map(out, bad[i].inlen,
							 le, units,
							 bad[i].maxout,
							 bad[i].policy, map);
		KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "to UTF-16, case %d",
				    i);
	}
}

static struct kunit_case utfconv_fsname_map_cases[] = {
	KUNIT_CASE_PARAM(utfconv_map_sfm_test, utfconv_map_sfm_gen_params),
	KUNIT_CASE_PARAM(utfconv_map_sfu_test, utfconv_map_sfu_gen_params),
	KUNIT_CASE(utfconv_map_hfsplus_test),
	KUNIT_CASE(utfconv_map_stop_c0_test),
	KUNIT_CASE_PARAM(utfconv_map_bad_table_test,
			 utfconv_map_bad_gen_params),
	KUNIT_CASE(utfconv_map_too_many_test),
	KUNIT_CASE(utfconv_map_round_trip_test),
	KUNIT_CASE(utfconv_map_room_and_policy_test),
	KUNIT_CASE(utfconv_map_big_endian_test),
	KUNIT_CASE(utfconv_map_long_test),
	KUNIT_CASE(utfconv_map_none_test),
	KUNIT_CASE(utfconv_map_bad_arguments_test),
	{}
};

static struct kunit_suite utfconv_fsname_map_suite = {
	.name = "utfconv_fsname_map",
	.test_cases = utfconv_fsname_map_cases,
};

kunit_test_suite(utfconv_fsname_map_suite);
