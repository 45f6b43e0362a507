// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv: file names with some characters in another form on disk
 *
 * SMB gives the characters Windows refuses in a name (" * : < > ? | and
 * the C0 controls) a form from the Private Use Area on the wire, HFS+
 * swaps '/' and ':', and USB string descriptors end at a C0 control. The
 * caller declares such a mapping once (utfconv_charmap_init()); the
 * functions here apply it while they convert a name, in both directions.
 */

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/nls.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <linux/utfconv.h>

#include "utfconv_codec.h"
#include "utfconv_fsname.h"
#include "utfconv_x86.h"

/**
 * DOC: per-character mapping
 *
 * A map is a set of swaps: each &struct utfconv_charpair makes its VFS
 * character the disk character and its disk character the VFS one, the
 * same way in both directions. A swap is its own inverse, so that a name
 * converted to disk and back, or from disk and back, comes back to the
 * same code units, and no two names share a form: where SMB's own
 * converter makes both ':' and U+F022 in a VFS name U+F022 on the wire,
 * a map makes U+F022 ':'. A pair with %UTFCONV_PAIR_LAST swaps only the
 * last character of a name (Services for Mac's trailing space and
 * period), with %UTFCONV_MAP_PATH of each component between backslashes,
 * in both directions too, and never that of "." or ".." or of their
 * swapped forms.
 *
 * A VFS name never holds '/' or U+0000: the name on disk whose mapped
 * form would hold one (a ':' on an HFS+ disk, whose map swaps ':' and
 * '/') has none, and the conversion fails with -EILSEQ.
 *
 * The pairs are BMP scalar values, one UTF-16 code unit each, so that a
 * name keeps its length in code units and a mapped name fits wherever the
 * unmapped one does. The conversion itself is that of the unmapped
 * functions: the UTF-16 side is mapped a code unit at a time, after the
 * conversion to disk and before the conversion from it, and a name with
 * nothing to map is converted in one call. On a name as long as the
 * converters take the SIMD paths for, an AVX-512 scan
 * (utfconv_fsname_avx512.c) passes over the steps of 32 units that hold
 * nothing the map looks at, so that text pays for a mapping where it has
 * something to map.
 */

/*
 * The byte of map->filter for @u: its own for an ASCII character, one per
 * block of 128 code points for the others, so that the filter is exact
 * where names spend most of their characters and small elsewhere. The
 * filter holds the characters a pair swaps anywhere, the units a name
 * ends at, and with %UTFCONV_MAP_PATH the backslash, after which a
 * component ends; the last character of a component is looked up
 * whatever the filter says, so that a trailing-only pair (a space, a
 * period) costs nothing where it is not last. A byte that holds one is
 * UTFCONV_CHARMAP_SEEN, the flag the SIMD scan tests (utfconv_x86.h).
 */
#define UTFCONV_CHARMAP_SEEN	0x80

static inline unsigned int utfconv_charmap_bit(u16 u)
{
	unsigned int block = u >> 7;

	/* written so that it compiles to a conditional move, not a branch */
	return block ? 0x80 + block : u;
}

/*
 * Whether the filter sees @u (utfconv_charmap_find() knows): a byte of
 * the table a unit, a load and no branch in the loops that scan names.
 */
static inline bool utfconv_charmap_hit(const struct utfconv_charmap *map,
				       u16 u)
{
	return map->filter[utfconv_charmap_bit(u)];
}

/* The index in map->unit of @u, or where it would go. */
static unsigned int utfconv_charmap_find(const struct utfconv_charmap *map,
					 u16 u)
{
	unsigned int lo = 0, hi = map->nunits, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (map->unit[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index in map->unit of @u, or map->nunits if no pair names it. */
static unsigned int utfconv_charmap_index(const struct utfconv_charmap *map,
					  u16 u)
{
	unsigned int i = utfconv_charmap_find(map, u);

	return i < map->nunits && map->unit[i] == u ? i : map->nunits;
}

/* Make the filter see @u. */
static void utfconv_charmap_see(struct utfconv_charmap *map, u16 u)
{
	map->filter[utfconv_charmap_bit(u)] = UTFCONV_CHARMAP_SEEN;
}

/*
 * The units a name ends at: those below this one (U+0000; with
 * %UTFCONV_MAP_STOP_C0 the C0 controls; none where a pair names U+0000).
 */
static u16 utfconv_charmap_stop(const struct utfconv_charmap *map)
{
	if (utfconv_charmap_index(map, 0) < map->nunits)
		return 0;
	return map->flags & UTFCONV_MAP_STOP_C0 ? 0x20 : 1;
}

/*
 * The filter's last entries: the units a name ends at, which a scan stops
 * at, and the range of units outside ASCII that the SIMD scan looks for,
 * those of the pairs that hold anywhere (the others count only at the
 * end of a component: at the end of a name, or before a backslash, which
 * the filter sees).
 */
static void utfconv_charmap_scan(struct utfconv_charmap *map)
{
	unsigned int k;
	u16 u;

	for (u = 0; u < utfconv_charmap_stop(map); u++)
		utfconv_charmap_see(map, u);
	for (k = 0; k < map->nunits; k++) {
		if (map->last[k] || map->unit[k] < 0x80)
			continue;
		if (!map->scan_lo)
			map->scan_lo = map->unit[k];
		map->scan_hi = map->unit[k];
	}
}

/* Add @u -> @image; -EINVAL if a pair names @u already. */
static int utfconv_charmap_add(struct utfconv_charmap *map, u16 u, u16 image,
			       bool last)
{
	unsigned int i = utfconv_charmap_find(map, u);
	unsigned int n = map->nunits - i;

	if (i < map->nunits && map->unit[i] == u)
		return -EINVAL;
	memmove(&map->unit[i + 1], &map->unit[i], n * sizeof(map->unit[0]));
	memmove(&map->image[i + 1], &map->image[i], n * sizeof(map->image[0]));
	memmove(&map->last[i + 1], &map->last[i], n * sizeof(map->last[0]));
	map->unit[i] = u;
	map->image[i] = image;
	map->last[i] = last;
	map->nunits++;
	if (!last)
		utfconv_charmap_see(map, u);
	return 0;
}

/* A pair as utfconv_charmap_init() takes it under @flags. */
static bool utfconv_charpair_ok(const struct utfconv_charpair *p, u32 flags)
{
	u16 lo = flags & UTFCONV_MAP_STOP_C0 ? 0x20 : 0;
	bool path = flags & UTFCONV_MAP_PATH;

	return p->vfs != p->disk && !(p->flags & ~UTFCONV_PAIR_LAST) &&
	       p->vfs != '/' && p->vfs && p->vfs >= lo && p->disk >= lo &&
	       !(path && (p->vfs == '\\' || p->disk == '\\')) &&
	       (p->vfs < 0xD800 || p->vfs > 0xDFFF) &&
	       (p->disk < 0xD800 || p->disk > 0xDFFF);
}

/**
 * utfconv_charmap_init() - declare a per-character mapping of file names
 * @map: the map to fill, the caller's (a filesystem's, static or in its
 *	superblock), read by every call that is given it
 * @pairs: the characters and their forms on disk, swapped both ways
 * @npairs: entries of @pairs, at most %UTFCONV_CHARMAP_PAIRS
 * @flags: 0 or more of %UTFCONV_MAP_STOP_C0 (a name ends at its first C0
 *	control, U+0000..U+001F, in both directions, as it ends at U+0000
 *	without the flag: USB string descriptors) and %UTFCONV_MAP_PATH (a
 *	%UTFCONV_PAIR_LAST pair swaps the last character of each component
 *	of a path that backslashes separate: SMB's paths)
 *
 * Checks the pairs once, so that no conversion fails for a table's sake:
 * every character a pair names, on either side, is named once (a table
 * that maps two characters to one is refused), is a BMP scalar value (no
 * surrogate code point), and the VFS side is neither '/' nor U+0000,
 * which no VFS name holds.
 *
 * Context: Any context. Does not sleep.
 * Return:
 * * 0 - @map holds the pairs
 * * -EINVAL - a pair names a character twice, names a surrogate code
 *   point, maps a character to itself, has '/' or U+0000 as its VFS side
 *   or an unknown flag, names a C0 control where @flags has
 *   %UTFCONV_MAP_STOP_C0 or a backslash where it has %UTFCONV_MAP_PATH;
 *   or @npairs is above %UTFCONV_CHARMAP_PAIRS, or @flags has an unknown
 *   bit. @map then maps nothing.
 */
int utfconv_charmap_init(struct utfconv_charmap *map,
			 const struct utfconv_charpair *pairs,
			 unsigned int npairs, u32 flags)
{
	const struct utfconv_charpair *p;
	unsigned int i;
	bool last;

	memset(map, 0, sizeof(*map));
	if ((flags & ~UTFCONV_MAP_FLAGS_ALL) || npairs > UTFCONV_CHARMAP_PAIRS)
		return -EINVAL;
	for (i = 0; i < npairs; i++) {
		p = &pairs[i];
		last = p->flags & UTFCONV_PAIR_LAST;
		if (!utfconv_charpair_ok(p, flags) ||
		    utfconv_charmap_add(map, p->vfs, p->disk, last) ||
		    utfconv_charmap_add(map, p->disk, p->vfs, last)) {
			memset(map, 0, sizeof(*map));
			return -EINVAL;
		}
	}
	map->flags = flags;
	if (flags & UTFCONV_MAP_PATH)
		utfconv_charmap_see(map, '\\');
	utfconv_charmap_scan(map);
	return 0;
}
EXPORT_SYMBOL_GPL(utfconv_charmap_init);

/*
 * A code unit of @p in byte order @e, as a number. Names come from
 * packets and directory blocks, where a unit need not be aligned (SMB).
 */
static inline u16 utfconv_fsname_unit(const wchar_t *p, enum utfconv_encoding e)
{
	return e == UTFCONV_UTF16BE ? get_unaligned_be16(p) :
				      get_unaligned_le16(p);
}

/* Store @u at @p in byte order @e. */
static inline void utfconv_fsname_put_unit(wchar_t *p, u16 u,
					   enum utfconv_encoding e)
{
	if (e == UTFCONV_UTF16BE)
		put_unaligned_be16(u, p);
	else
		put_unaligned_le16(u, p);
}

/* A name's units in byte order @e, and the map that swaps some. */
struct utfconv_fsname_units {
	wchar_t *p;
	int n;
	enum utfconv_encoding e;
	const struct utfconv_charmap *map;
};

/* Whether unit @i starts a component of @nm: the first, or after a '\'. */
static bool utfconv_fsname_starts(const struct utfconv_fsname_units *nm,
				  int i)
{
	return !i || ((nm->map->flags & UTFCONV_MAP_PATH) &&
		      utfconv_fsname_unit(&nm->p[i - 1], nm->e) == '\\');
}

/* Whether unit @i ends a component of @nm: the last, or before a '\'. */
static bool utfconv_fsname_ends(const struct utfconv_fsname_units *nm, int i)
{
	return i + 1 == nm->n ||
	       ((nm->map->flags & UTFCONV_MAP_PATH) &&
		utfconv_fsname_unit(&nm->p[i + 1], nm->e) == '\\');
}

/*
 * Whether a %UTFCONV_PAIR_LAST pair swaps unit @i of @nm, @u, into @v:
 * only at the end of a component, and not where the component is "." or
 * "..", or would be after the swap, so that the directory entries keep
 * their meaning and the swap stays its own inverse. The units before @i
 * are read on their disk side (utfconv_fsname_map_units() has swapped
 * them), and the unit after it is a backslash on both.
 */
static bool utfconv_fsname_last_swaps(const struct utfconv_fsname_units *nm,
				      int i, u16 u, u16 v)
{
	if (!utfconv_fsname_ends(nm, i))
		return false;
	if (u != '.' && v != '.')
		return true;
	if (utfconv_fsname_starts(nm, i))
		return false;
	return utfconv_fsname_unit(&nm->p[i - 1], nm->e) != '.' ||
	       !utfconv_fsname_starts(nm, i - 1);
}

/* What unit @i of @nm becomes. */
static u16 utfconv_fsname_image(const struct utfconv_fsname_units *nm, int i)
{
	const struct utfconv_charmap *map = nm->map;
	u16 u = utfconv_fsname_unit(&nm->p[i], nm->e);
	unsigned int k;

	if (!utfconv_charmap_hit(map, u) && !utfconv_fsname_ends(nm, i))
		return u;
	k = utfconv_charmap_index(map, u);
	if (k == map->nunits)
		return u;
	if (map->last[k] && !utfconv_fsname_last_swaps(nm, i, u, map->image[k]))
		return u;
	return map->image[k];
}

/*
 * Unit @i of @nm swapped in place by a pair that holds anywhere (the
 * filter sees a whole block of units outside ASCII, trailing-only ones
 * among them).
 */
static void utfconv_fsname_swap(const struct utfconv_fsname_units *nm, int i)
{
	const struct utfconv_charmap *map = nm->map;
	unsigned int k;

	k = utfconv_charmap_index(map, utfconv_fsname_unit(&nm->p[i], nm->e));
	if (k < map->nunits && !map->last[k])
		utfconv_fsname_put_unit(&nm->p[i], map->image[k], nm->e);
}

/* Unit @i of @nm, the last of a component, swapped by a trailing pair. */
static void utfconv_fsname_swap_last(const struct utfconv_fsname_units *nm,
				     int i)
{
	const struct utfconv_charmap *map = nm->map;
	u16 u = utfconv_fsname_unit(&nm->p[i], nm->e);
	unsigned int k = utfconv_charmap_index(map, u);

	if (k < map->nunits && map->last[k] &&
	    utfconv_fsname_last_swaps(nm, i, u, map->image[k]))
		utfconv_fsname_put_unit(&nm->p[i], map->image[k], nm->e);
}

/*
 * Units @from to @to of @nm, on their VFS side, swapped in place to the
 * disk side: the filter's units as they come, and the last unit of each
 * component but the name's.
 */
static __always_inline void
utfconv_fsname_map_units(const struct utfconv_fsname_units *nm,
			 enum utfconv_encoding e, int from, int to)
{
	bool path = nm->map->flags & UTFCONV_MAP_PATH;
	u16 u;
	int i;

	for (i = from; i < to; i++) {
		u = utfconv_fsname_unit(&nm->p[i], e);
		if (likely(!utfconv_charmap_hit(nm->map, u)))
			continue;
		if (path && u == '\\') {
			if (i)
				utfconv_fsname_swap_last(nm, i - 1);
			continue;
		}
		utfconv_fsname_swap(nm, i);
	}
}

/*
 * The units of @nm swapped to the disk side, the SIMD scan passing over
 * the steps of 32 that hold none of the filter's, and the name's last
 * unit.
 */
static void utfconv_fsname_map_simd(const struct utfconv_fsname_units *nm)
{
	bool le = nm->e == UTFCONV_UTF16LE;
	int i, to;

	for (i = 0; i < nm->n; i = to) {
		i += utfconv_simd_map_clear(nm->map, (const u8 *)&nm->p[i],
					    nm->n - i, le);
		to = min(i + 32, nm->n);
		utfconv_fsname_map_units(nm, nm->e, i, to);
	}
	utfconv_fsname_swap_last(nm, nm->n - 1);
}

/* Bytes of @s before its first C0 control, at most @n. */
static int utfconv_fsname_c0_stop(const u8 *s, int n)
{
	int i;

	for (i = 0; i < n && s[i] >= 0x20; i++)
		;
	return i;
}

/**
 * utfconv_fsname_utf8s_to_utf16s_map() - a VFS name to disk, mapped
 * @s: the name in UTF-8 (WTF-8 policy: unpaired surrogates in their
 *	three-byte form)
 * @inlen: length of @s in bytes; the name ends at its first NUL byte (with
 *	%UTFCONV_MAP_STOP_C0, its first C0 control) if one comes earlier
 * @endian: byte order of the units written to @pwcs
 * @pwcs: output buffer of UTF-16 code units
 * @maxout: capacity of @pwcs in code units
 * @policy: %UTFCONV_STRICT or %UTFCONV_WTF8, the caller's
 * @map: the mapping of utfconv_charmap_init(), or NULL for none
 *
 * utfconv_fsname_utf8s_to_utf16s() with the characters of @map's pairs
 * swapped, the last character's (of each component) where a pair says so.
 *
 * Context: Any context. Does not sleep.
 * Return: as utfconv_fsname_utf8s_to_utf16s(): code units written,
 * -ENAMETOOLONG, or -EINVAL (ill-formed input, or bad arguments).
 */
int utfconv_fsname_utf8s_to_utf16s_map(const u8 *s, int inlen,
				       enum utf16_endian endian,
				       wchar_t *pwcs, int maxout,
				       enum utfconv_policy policy,
				       const struct utfconv_charmap *map)
{
	struct utfconv_fsname_units nm = {
		.p = pwcs, .e = utfconv_fsname_utf16(endian), .map = map,
	};

	if (map && (map->flags & UTFCONV_MAP_STOP_C0) && inlen > 0)
		inlen = utfconv_fsname_c0_stop(s, inlen);
	nm.n = utfconv_fsname_utf8s_to_utf16s(s, inlen, endian, pwcs, maxout,
					      policy);
	if (nm.n <= 0 || !map || !map->nunits)
		return nm.n;
	if (utfconv_simd_map_runs(nm.n)) {
		utfconv_fsname_map_simd(&nm);
		return nm.n;
	}
	/* one loop per byte order, each without a test of it */
	if (nm.e == UTFCONV_UTF16BE)
		utfconv_fsname_map_units(&nm, UTFCONV_UTF16BE, 0, nm.n);
	else
		utfconv_fsname_map_units(&nm, UTFCONV_UTF16LE, 0, nm.n);
	utfconv_fsname_swap_last(&nm, nm.n - 1);
	return nm.n;
}
EXPORT_SYMBOL_GPL(utfconv_fsname_utf8s_to_utf16s_map);

/*
 * Code units of the name at @p before its end (U+0000, or a C0 control
 * with %UTFCONV_MAP_STOP_C0; none where a pair names U+0000), at most @n;
 * *@hit says whether the filter sees a unit a pair may name. With @simd
 * the SIMD scan passes over the steps of 32 units that hold none of the
 * filter's, and so no end either.
 */
static __always_inline int
utfconv_fsname_map_scan(const wchar_t *p, int n, enum utfconv_encoding e,
			const struct utfconv_charmap *map, bool simd,
			bool *hit)
{
	u16 stop = utfconv_charmap_stop(map);
	unsigned int any = 0;
	int i = 0, to;
	u16 u;

	while (i < n) {
		if (simd)
			i += utfconv_simd_map_clear(map, (const u8 *)&p[i],
						    n - i,
						    e == UTFCONV_UTF16LE);
		to = simd ? min(i + 32, n) : n;
		for (; i < to; i++) {
			u = utfconv_fsname_unit(&p[i], e);
			if (u < stop)
				goto end;
			any |= map->filter[utfconv_charmap_bit(u)];
		}
	}
end:
	/* the last unit, which a trailing-only pair may name */
	u = i ? utfconv_fsname_unit(&p[i - 1], e) : 0;
	if (i && utfconv_charmap_index(map, u) < map->nunits)
		any = true;
	*hit = any;
	return i;
}

/*
 * @n code units at @p to UTF-8 at @s, room @room: the part of a name
 * between two mapped characters. A lead surrogate at its end is unpaired,
 * since a mapped character or the end of the name comes next.
 */
static int utfconv_fsname_to8_part(const wchar_t *p, int n,
				   enum utfconv_encoding e, u8 *s, int room,
				   enum utfconv_policy policy)
{
	ssize_t ret;

	ret = utfconv_buf(e, UTFCONV_UTF8, policy, 0, p, n * sizeof(*p), s,
			  room, NULL);
	return ret == -EINVAL ? -EILSEQ : ret;
}

/* @v, a BMP scalar value, as UTF-8 at @s, room @room; bytes or -E2BIG. */
static int utfconv_fsname_put_utf8(u16 v, u8 *s, int room)
{
	int n = v < 0x80 ? 1 : v < 0x800 ? 2 : 3;

	if (n > room)
		return -E2BIG;
	if (n == 1) {
		s[0] = v;
	} else if (n == 2) {
		s[0] = 0xC0 | v >> 6;
		s[1] = 0x80 | (v & 0x3F);
	} else {
		s[0] = 0xE0 | v >> 12;
		s[1] = 0x80 | (v >> 6 & 0x3F);
		s[2] = 0x80 | (v & 0x3F);
	}
	return n;
}

/*
 * The first unit of @nm from @i on that a swap changes, or @nm->n. With
 * @simd the SIMD scan passes over the steps of 32 units that hold none
 * of the filter's but their last unit, which a trailing-only pair may
 * change whatever the filter says where a backslash or the name's end
 * comes next.
 */
static int utfconv_fsname_next(const struct utfconv_fsname_units *nm, int i,
			       bool simd)
{
	int to, clear;

	while (i < nm->n) {
		if (simd) {
			clear = utfconv_simd_map_clear(nm->map,
						       (const u8 *)&nm->p[i],
						       nm->n - i,
						       nm->e == UTFCONV_UTF16LE);
			i += clear ? clear - 1 : 0;
		}
		to = simd ? min(i + 32, nm->n) : nm->n;
		for (; i < to; i++)
			if (utfconv_fsname_image(nm, i) !=
			    utfconv_fsname_unit(&nm->p[i], nm->e))
				return i;
	}
	return nm->n;
}

/*
 * The units of @nm, on their disk side, to UTF-8 with their swaps: the
 * parts between the swapped characters through the converter, each
 * swapped one written here.
 */
static int utfconv_fsname_to8_mapped(const struct utfconv_fsname_units *nm,
				     u8 *s, int maxout,
				     enum utfconv_policy policy, bool simd)
{
	int i, start = 0, out = 0, ret;
	u16 v = 0;

	for (i = utfconv_fsname_next(nm, 0, simd); i <= nm->n;
	     i = utfconv_fsname_next(nm, i + 1, simd)) {
		if (i < nm->n)
			v = utfconv_fsname_image(nm, i);
		ret = utfconv_fsname_to8_part(nm->p + start, i - start, nm->e,
					      s + out, maxout - out, policy);
		if (ret < 0)
			return ret;
		out += ret;
		if (i == nm->n)
			break;
		/* no VFS name holds them */
		if (v == '/' || !v)
			return -EILSEQ;
		ret = utfconv_fsname_put_utf8(v, s + out, maxout - out);
		if (ret < 0)
			return ret;
		out += ret;
		start = i + 1;
	}
	return out;
}

/**
 * utfconv_fsname_utf16s_to_utf8s_map() - a name on disk to the VFS, mapped
 * @pwcs: the name on disk, UTF-16 code units in byte order @endian
 * @inlen: length of @pwcs in code units, at most; the name ends at the
 *	first U+0000 unit before that (with %UTFCONV_MAP_STOP_C0, at the
 *	first C0 control; where a pair names U+0000, at neither)
 * @endian: byte order of @pwcs
 * @s: output buffer for UTF-8 (WTF-8 policy: unpaired surrogates in their
 *	three-byte form)
 * @maxout: capacity of @s in bytes
 * @policy: %UTFCONV_STRICT or %UTFCONV_WTF8, the caller's
 * @map: the mapping of utfconv_charmap_init(), or NULL for none
 *
 * utfconv_fsname_utf16s_to_utf8s() with the characters of @map's pairs
 * swapped, the last character's (of each component) where a pair says so.
 *
 * Context: Any context. Does not sleep.
 * Return: as utfconv_fsname_utf16s_to_utf8s(): bytes written, -E2BIG,
 * -EINVAL (bad arguments), or -EILSEQ (strict policy: an unpaired
 * surrogate; any policy: a character whose swapped form is '/' or U+0000,
 * which no VFS name holds).
 */
int utfconv_fsname_utf16s_to_utf8s_map(const wchar_t *pwcs, int inlen,
				       enum utf16_endian endian, u8 *s,
				       int maxout, enum utfconv_policy policy,
				       const struct utfconv_charmap *map)
{
	struct utfconv_fsname_units nm = {
		/* only read: the cast is for the type the map pass shares */
		.p = (wchar_t *)pwcs, .e = utfconv_fsname_utf16(endian),
		.map = map,
	};
	bool hit, simd;

	if (!map || (!map->nunits && !map->flags))
		return utfconv_fsname_utf16s_to_utf8s(pwcs, inlen, endian, s,
						      maxout, policy);
	if (!utfconv_fsname_args_ok(inlen, maxout, policy))
		return -EINVAL;
	simd = utfconv_simd_map_runs(inlen);
	/* one loop per byte order, each without a test of it */
	if (nm.e == UTFCONV_UTF16BE)
		nm.n = utfconv_fsname_map_scan(pwcs, inlen, UTFCONV_UTF16BE,
					       map, simd, &hit);
	else
		nm.n = utfconv_fsname_map_scan(pwcs, inlen, UTFCONV_UTF16LE,
					       map, simd, &hit);
	if (hit)
		return utfconv_fsname_to8_mapped(&nm, s, maxout, policy, simd);
	return utfconv_fsname_to8_part(pwcs, nm.n, nm.e, s, maxout, policy);
}
EXPORT_SYMBOL_GPL(utfconv_fsname_utf16s_to_utf8s_map);
