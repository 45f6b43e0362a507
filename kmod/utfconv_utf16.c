// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: UTF-16 input (D91, RFC 2781) to UTF-8: the careful path
 * of one item at a time, the fast path (the block paths of
 * utfconv_block.h, after the SIMD paths where they may run, then ASCII
 * eight code units at a time) and the converters of each byte order.
 */

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <linux/utfconv.h>

#include "utfconv_block.h"
#include "utfconv_bmi2.h"
#include "utfconv_internal.h"
#include "utfconv_x86.h"

/*
 * Deal with an unpaired surrogate @unit at @off: halt (strict), write
 * U+FFFD (replace), nothing (skip) or its three-byte form (wtf8).
 */
static int utfconv_lone_surrogate(struct utfconv_state *st,
				  struct utfconv_cursor *c, u16 unit, u64 off)
{
	if (st->policy != UTFCONV_WTF8)
		return utfconv_bad(st, c, UTFCONV_ILLFORMED, off);
	if (c->de - c->d < 3)
		return -E2BIG;
	c->d += utfconv_put_utf8(c->d, unit);
	st->code_points++;
	return 0;
}

/* The input ended with a pending odd byte and/or lead surrogate. */
static int utfconv_utf16_tail(struct utfconv_state *st,
			      struct utfconv_cursor *c)
{
	u64 pos = utfconv_pos(c);
	int ret;

	if (st->bits & UTFCONV_BIT_LEAD) {
		u64 off = pos - st->npend - 2;

		if (st->npend || st->policy != UTFCONV_WTF8)
			ret = utfconv_bad(st, c, UTFCONV_INCOMPLETE, off);
		else
			ret = utfconv_lone_surrogate(st, c, st->lead, off);
	} else {
		ret = utfconv_bad(st, c, UTFCONV_INCOMPLETE, pos - 1);
	}
	if (!ret) {
		st->npend = 0;
		st->bits &= ~UTFCONV_BIT_LEAD;
	}
	return ret;
}

/*
 * Keep an odd byte: less than a code unit is left. At the end of the
 * stream, what is pending is resolved instead.
 */
static int utfconv_utf16_odd(struct utfconv_state *st,
			     struct utfconv_cursor *c, bool end)
{
	if (c->s < c->se) {
		st->pend[0] = *c->s;
		st->npend = 1;
		c->s++;
	}
	if (end && (st->npend || (st->bits & UTFCONV_BIT_LEAD)))
		return utfconv_utf16_tail(st, c);
	return 0;
}

/*
 * The first code unit, @unit, of a stream: whether it is a BOM to drop.
 * A %UTFCONV_UTF16 source reads big-endian until a BOM says otherwise
 * (RFC 2781 section 4.3) and always drops it; UTF-16LE and UTF-16BE know
 * their byte order and drop a BOM only when asked to.
 */
static bool utfconv_utf16_bom(struct utfconv_state *st, u16 unit)
{
	st->bits |= UTFCONV_BIT_STARTED;
	if (st->source != UTFCONV_UTF16)
		return unit == UTFCONV_BOM && (st->flags & UTFCONV_STRIP_BOM);
	if (unit == 0xFFFE)
		st->bits |= UTFCONV_BIT_LE_IN;
	return unit == UTFCONV_BOM || unit == 0xFFFE;
}

/* A BMP code unit that is no surrogate: the code point it is. */
static int utfconv_utf16_put_bmp(struct utfconv_state *st,
				 struct utfconv_cursor *c, u16 unit)
{
	if (c->de - c->d < utfconv_utf8_len(unit))
		return -E2BIG;
	c->d += utfconv_put_utf8(c->d, unit);
	st->code_points++;
	return 0;
}

/*
 * A trail surrogate @unit at @off: with the pending lead surrogate, the
 * pair's scalar value; without one, unpaired.
 */
static int utfconv_utf16_put_trail(struct utfconv_state *st,
				   struct utfconv_cursor *c, u16 unit, u64 off)
{
	if (!(st->bits & UTFCONV_BIT_LEAD))
		return utfconv_lone_surrogate(st, c, unit, off);
	if (c->de - c->d < 4)
		return -E2BIG;
	c->d += utfconv_put_utf8(c->d, utfconv_pair(st->lead, unit));
	st->code_points++;
	st->bits &= ~UTFCONV_BIT_LEAD;
	return 0;
}

static inline bool utfconv_utf16_is_trail(u16 unit)
{
	return (unit & 0xFC00) == 0xDC00;
}

/* A lead surrogate: it waits in the state for the trail after it. */
static void utfconv_utf16_keep_lead(struct utfconv_state *st, u16 unit)
{
	st->lead = unit;
	st->bits |= UTFCONV_BIT_LEAD;
}

/*
 * The careful path of UTF-16 input: one item, i.e. a code unit (with a
 * pending odd byte before it), the trail surrogate of a pending lead, a
 * BOM or an unpaired surrogate, or the end of the stream, under the
 * stream's policy. A lead surrogate waits in the state for its trail.
 * Returns 0 (item done, or the input is used up), -E2BIG with nothing
 * consumed, or the halting errno.
 */
static int utfconv_utf16_item(struct utfconv_state *st,
			      struct utfconv_cursor *c, bool end)
{
	bool le = st->bits & UTFCONV_BIT_LE_IN;
	unsigned int take = 2 - st->npend;
	u8 b[2];
	u16 unit;
	int ret = 0;

	if (c->se - c->s < take)
		return utfconv_utf16_odd(st, c, end);
	b[0] = st->npend ? st->pend[0] : c->s[0];
	b[1] = c->s[take - 1];
	unit = utfconv_get16(b, le);
	if ((st->bits & UTFCONV_BIT_LEAD) && !utfconv_utf16_is_trail(unit)) {
		/* the lead is unpaired; @unit comes next on its own */
		ret = utfconv_lone_surrogate(st, c, st->lead,
					     utfconv_pos(c) - st->npend - 2);
		if (!ret)
			st->bits &= ~UTFCONV_BIT_LEAD;
		return ret;
	}
	if (!(st->bits & UTFCONV_BIT_STARTED) && utfconv_utf16_bom(st, unit))
		ret = 0;
	else if ((unit & 0xF800) != 0xD800)
		ret = utfconv_utf16_put_bmp(st, c, unit);
	else if (utfconv_utf16_is_trail(unit))
		ret = utfconv_utf16_put_trail(st, c, unit,
					      utfconv_pos(c) - st->npend);
	else
		utfconv_utf16_keep_lead(st, unit);
	if (ret)
		return ret;
	c->s += take;
	st->npend = 0;
	return 0;
}

/*
 * A lead surrogate @unit at @s, @n bytes there: a scalar value only with
 * a trail surrogate right after it. Whether it has one further on, or is
 * unpaired, is the careful path's question.
 */
static __always_inline struct utfconv_seq
utfconv_utf16_lead(const u8 *s, size_t n, bool le, u16 unit)
{
	u16 trail;

	if (n < 4)
		return utfconv_seq_of(UTFCONV_SEQ_SURROGATE, 2, unit);
	trail = utfconv_get16(s + 2, le);
	if (!utfconv_utf16_is_trail(trail))
		return utfconv_seq_of(UTFCONV_SEQ_SURROGATE, 2, unit);
	return utfconv_seq_of(UTFCONV_SEQ_SCALAR, 4, utfconv_pair(unit, trail));
}

/* Decode the UTF-16 at @s, @n >= 2 bytes, by the class of its first unit. */
static __always_inline struct utfconv_seq
utfconv_utf16_decode(const u8 *s, size_t n, bool le)
{
	u16 unit = utfconv_get16(s, le);

	if ((unit & 0xF800) != 0xD800)
		return utfconv_seq_of(UTFCONV_SEQ_SCALAR, 2, unit);
	if (!utfconv_utf16_is_trail(unit))
		return utfconv_utf16_lead(s, n, le, unit);
	return utfconv_seq_of(UTFCONV_SEQ_SURROGATE, 2, unit);
}

/*
 * Nothing pending, no lead surrogate waiting, no first code unit to set
 * apart (UTFCONV_BIT_STARTED): the next one needs none of the stream's
 * state.
 */
static inline bool utfconv_utf16_plain(const struct utfconv_state *st)
{
	return !st->npend &&
	       (st->bits & (UTFCONV_BIT_LEAD | UTFCONV_BIT_STARTED)) ==
	       UTFCONV_BIT_STARTED;
}

/* Room for eight ASCII code units in and their eight bytes out. */
static __always_inline bool utfconv_utf16_ascii8_room(const u8 *s,
						      const u8 *se,
						      const u8 *d,
						      const u8 *de)
{
	return se - s >= 16 && de - d >= 8;
}

/*
 * The fast path of UTF-16 input: whole blocks while there is room for
 * one, then eight ASCII code units at a time while there is room for
 * those; as utfconv_utf8_fast().
 */
static __always_inline u64 utfconv_utf16_fast(const u8 **sp, const u8 *se,
					      u8 **dp, u8 *de, bool le,
					      bool nul, bool bmi2)
{
	const u64 nonascii = le ? 0xFF80FF80FF80FF80ULL : 0x80FF80FF80FF80FFULL;
	u64 ncp = utfconv_utf16_block(sp, se, dp, de, le, nul, bmi2);
	const u8 *s = *sp;
	u8 *d = *dp;

	while (utfconv_utf16_ascii8_room(s, se, d, de)) {
		u64 w0 = get_unaligned_le64(s);
		u64 w1 = get_unaligned_le64(s + 8);

		if (nul ? utfconv_ascii16_stop(w0, le, true) |
			  utfconv_ascii16_stop(w1, le, true) :
			  (w0 | w1) & nonascii)
			break;
		put_unaligned_le32(utfconv_ascii4(w0, le, bmi2), d);
		put_unaligned_le32(utfconv_ascii4(w1, le, bmi2), d + 4);
		s += 16;
		d += 8;
		ncp += 8;
	}
	*sp = s;
	*dp = d;
	return ncp;
}

/*
 * The careful path's common case for UTF-16 input, as
 * utfconv_utf8_scalars(): scalar values that fit, on a stream with no
 * state to mind (utfconv_utf16_plain()).
 */
static __always_inline enum utfconv_next
utfconv_utf16_scalars(const u8 **sp, const u8 *se, u8 **dp, u8 *de, bool le,
		      u64 *ncp)
{
	enum utfconv_next next = UTFCONV_NEXT_ITEM;
	const u8 *s = *sp;
	u8 *d = *dp;

	while (se - s >= 2) {
		struct utfconv_seq seq = utfconv_utf16_decode(s, se - s, le);

		if (seq.kind != UTFCONV_SEQ_SCALAR)
			break;
		if (de - d < utfconv_utf8_len(seq.cp)) {
			next = UTFCONV_NEXT_FULL;
			break;
		}
		d += utfconv_put_utf8(d, seq.cp);
		s += seq.len;
		(*ncp)++;
		if (se - s >= 2 && utfconv_get16(s, le) < 0x80 &&
		    utfconv_utf16_ascii8_room(s, se, d, de)) {
			next = UTFCONV_NEXT_FAST;
			break;
		}
	}
	*sp = s;
	*dp = d;
	return next;
}

/*
 * As utfconv_utf8_nul(), for UTF-16 input: its first U+0000 unit (the
 * 16-bit lanes of a word are its units in either byte order).
 */
static inline const u8 *utfconv_utf16_nul(const u8 *s, const u8 *se)
{
	size_t n = (se - s) & ~(size_t)1;
	size_t i = utfconv_zero_unit(s, n, 2);

	return i < n ? s + i : se;
}

/*
 * Returns 0 also, before the end of the input, when a BOM has just set
 * the byte order to the other one than @le: utfconv_run() goes on with
 * the converter built for it. @nul as for utfconv_from_utf8().
 */
static __always_inline int utfconv_from_utf16(struct utfconv_state *st,
					      struct utfconv_cursor *c,
					      bool end, bool le, bool nul)
{
	const u8 *s = c->s, *se = c->se;
	u8 *d = c->d, *de = c->de;
	bool plain = utfconv_utf16_plain(st), seek = nul;
	unsigned int simd = utfconv_simd_usable(&c->ch, se - s, de - d);
	enum utfconv_next next;
	u64 ncp = 0;
	int ret = 0;

	for (;;) {
		next = UTFCONV_NEXT_ITEM;
		if (likely(plain)) {
			if (seek && simd)
				se = utfconv_utf16_nul(s, se);
			if (simd)
				ncp += utfconv_simd(&s, se, &d, de, false, le,
						    simd);
			/* each kind of steps in a loop of its own */
			if (c->ch.bmi2)
				ncp += utfconv_utf16_fast(&s, se, &d, de, le,
							  nul, true);
			else
				ncp += utfconv_utf16_fast(&s, se, &d, de, le,
							  nul, false);
		}
		if (seek) {
			se = utfconv_utf16_nul(s, se);
			c->se = se;
			seek = false;
		}
		if (likely(plain))
			next = utfconv_utf16_scalars(&s, se, &d, de, le, &ncp);
		if (next == UTFCONV_NEXT_FAST)
			continue;
		if (next == UTFCONV_NEXT_FULL) {
			ret = -E2BIG;
			break;
		}
		if (s == se && !(end && (st->npend ||
					 (st->bits & UTFCONV_BIT_LEAD))))
			break;
		c->s = s;
		c->d = d;
		ret = utfconv_utf16_item(st, c, end);
		s = c->s;
		d = c->d;
		if (ret || le != !!(st->bits & UTFCONV_BIT_LE_IN))
			break;
		plain = utfconv_utf16_plain(st);
	}
	c->s = s;
	c->d = d;
	st->code_points += ncp;
	return ret;
}

noinline int utfconv_le_to_utf8(struct utfconv_state *st,
				struct utfconv_cursor *c, bool end)
{
	return utfconv_from_utf16(st, c, end, true, false);
}

noinline int utfconv_be_to_utf8(struct utfconv_state *st,
				struct utfconv_cursor *c, bool end)
{
	return utfconv_from_utf16(st, c, end, false, false);
}

/* The converters of UTF-16 that ends at its first NUL (file names). */
noinline int utfconv_le_to_utf8_nul(struct utfconv_state *st,
				    struct utfconv_cursor *c)
{
	return utfconv_from_utf16(st, c, true, true, true);
}

noinline int utfconv_be_to_utf8_nul(struct utfconv_state *st,
				    struct utfconv_cursor *c)
{
	return utfconv_from_utf16(st, c, true, false, true);
}
