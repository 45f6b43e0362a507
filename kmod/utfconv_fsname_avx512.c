// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv file names: the AVX-512 scan of a name's units for a map
 *
 * Built and run as utfconv_avx512.h says.
 *
 * A map (utfconv_fsname_map.c) swaps a few characters, and most names
 * hold none of them: the scan tells, 32 code units a step, whether any
 * unit is one the map's scalar pass must look at. Each unit, clamped to
 * 0x80 (vpminuw), picks its byte of the map's filter (vpermt2b over its
 * 128 ASCII bytes, whose flag is bit 7); the clamp's own bit 7 keeps the
 * byte of a unit outside ASCII from counting. Each unit's distance above
 * the map's lowest unit outside ASCII is kept where it is the least so
 * far (vpminuw), and compared once with the width of that range.
 */

#include <linux/utfconv.h>

#include "utfconv_avx512.h"

/* The least of each 16-bit lane of @a and @b, as unsigned (vpminuw). */
static __always_inline UTFCONV_AVX512
utfconv_u16x32 utfconv_z_minu16(utfconv_u16x32 a, utfconv_u16x32 b)
{
	utfconv_u16x32 r;

	asm("vpminuw %2, %1, %0" : "=v" (r) : "v" (a), "v" (b));
	return r;
}

/* The 16-bit lanes of @a at most @b's, as unsigned (vpcmpuw). */
static __always_inline UTFCONV_AVX512
u32 utfconv_z_le16(utfconv_u16x32 a, utfconv_u16x32 b)
{
	u32 m;

	asm("vpcmpuw $2, %2, %1, %0" : "=k" (m) : "v" (a), "v" (b));
	return m;
}

/*
 * What one step of 32 units at @p adds to @seen (bit 7 of a lane: the
 * flag of its ASCII character in the filter @t0, @t1) and to @least (the
 * least distance of a unit above @lo).
 */
static __always_inline UTFCONV_AVX512
void utfconv_z_map_step(const u8 *p, bool le, utfconv_u8x64 t0,
			utfconv_u8x64 t1, utfconv_u16x32 lo,
			utfconv_u16x32 *seen, utfconv_u16x32 *least)
{
	utfconv_u16x32 u = utfconv_z_units(p, le);
	utfconv_u16x32 a = utfconv_z_minu16(u, utfconv_z_set16(0x80));
	utfconv_u16x32 f;

	f = (utfconv_u16x32)utfconv_z_permt2b(t0, (utfconv_u8x64)a, t1);
	*seen |= f & ~a;
	*least = utfconv_z_minu16(*least, u - lo);
}

/* Whether @seen and @least, of utfconv_z_map_step(), hold a unit. */
static __always_inline UTFCONV_AVX512
bool utfconv_z_map_seen(utfconv_u16x32 seen, utfconv_u16x32 least,
			utfconv_u16x32 span)
{
	return utfconv_z_test16(seen, utfconv_z_set16(0x80)) ||
	       utfconv_z_le16(least, span);
}

/*
 * utfconv_avx512_map_clear() for one byte order: four steps at a time,
 * and the steps of the four that saw a unit one at a time.
 */
static __always_inline UTFCONV_AVX512
size_t utfconv_z_map_clear(const u8 *p, size_t n, bool le,
			   const struct utfconv_charmap *map)
{
	utfconv_u8x64 t0 = utfconv_z_load(map->filter);
	utfconv_u8x64 t1 = utfconv_z_load(map->filter + 64);
	utfconv_u16x32 lo = utfconv_z_set16(map->scan_lo);
	utfconv_u16x32 span = utfconv_z_set16(map->scan_hi - map->scan_lo);
	utfconv_u16x32 seen, least;
	size_t i;

	for (i = 0; i + 128 <= n; i += 128) {
		seen = utfconv_z_set16(0);
		least = utfconv_z_set16(0xFFFF);
		/* written out: GCC at -O2 keeps a loop of four */
		utfconv_z_map_step(p + 2 * i, le, t0, t1, lo, &seen, &least);
		utfconv_z_map_step(p + 2 * i + 64, le, t0, t1, lo, &seen,
				   &least);
		utfconv_z_map_step(p + 2 * i + 128, le, t0, t1, lo, &seen,
				   &least);
		utfconv_z_map_step(p + 2 * i + 192, le, t0, t1, lo, &seen,
				   &least);
		if (utfconv_z_map_seen(seen, least, span))
			break;
	}
	for (; i < n; i += 32) {
		seen = utfconv_z_set16(0);
		least = utfconv_z_set16(0xFFFF);
		utfconv_z_map_step(p + 2 * i, le, t0, t1, lo, &seen, &least);
		if (utfconv_z_map_seen(seen, least, span))
			break;
	}
	return i;
}

/**
 * utfconv_avx512_map_clear() - the units a map's scan need not look at
 * @p: code units, UTF-16LE if @le, else UTF-16BE
 * @n: how many, a multiple of 32
 * @le: the byte order of @p
 * @map: the map of utfconv_charmap_init()
 *
 * Context: Between kernel_fpu_begin() and kernel_fpu_end(), on a CPU
 * with the instructions named in utfconv_avx512.h.
 * Return: how many units of @p come before the first step of 32 that
 * holds an ASCII character whose byte of @map->filter is set or a unit
 * from @map->scan_lo to @map->scan_hi: @n where none does.
 */
size_t utfconv_avx512_map_clear(const u8 *p, size_t n, bool le,
				const struct utfconv_charmap *map)
{
	/* one loop per byte order, each without a test of it */
	if (le)
		return utfconv_z_map_clear(p, n, true, map);
	return utfconv_z_map_clear(p, n, false, map);
}
