// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: UTF-8 input (D92, Table 3-7, RFC 3629) to UTF-16: the
 * decoder, the careful path of one item at a time, the fast path (the
 * block paths of utfconv_block.h, after the SIMD paths where they may
 * run, then ASCII eight bytes at a time) and the converters of each byte
 * order.
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
 * The trail bytes of a @len-byte sequence whose lead byte carries the bits
 * @v, with @n bytes at @s: Table 3-7 narrows only the second byte, to
 * @lo..@hi, which is what keeps out overlong forms, surrogates and values
 * above U+10FFFF; the others are 80..BF.
 */
static __always_inline struct utfconv_seq
utfconv_utf8_trail(const u8 *s, size_t n, unsigned int len, u32 v, u8 lo,
		   u8 hi)
{
	unsigned int i;

	if (n < 2)
		return utfconv_seq_of(UTFCONV_SEQ_INCOMPLETE, n, 0);
	if (s[1] < lo || s[1] > hi)
		return utfconv_seq_of(UTFCONV_SEQ_ILLFORMED, 1, 0);
	v = v << 6 | (s[1] & 0x3F);
	for (i = 2; i < len; i++) {
		if (n <= i)
			return utfconv_seq_of(UTFCONV_SEQ_INCOMPLETE, n, 0);
		if ((s[i] & 0xC0) != 0x80)
			return utfconv_seq_of(UTFCONV_SEQ_ILLFORMED, i, 0);
		v = v << 6 | (s[i] & 0x3F);
	}
	return utfconv_seq_of(UTFCONV_SEQ_SCALAR, len, v);
}

/* 00..7F: the code point is the byte. */
static __always_inline struct utfconv_seq utfconv_utf8_ascii(u8 lead)
{
	return utfconv_seq_of(UTFCONV_SEQ_SCALAR, 1, lead);
}

/*
 * 80..BF (a trail byte without a lead), C0, C1 (only ever overlong) and
 * F5..FF (above U+10FFFF, or no UTF-8 at all): a maximal subpart alone.
 */
static __always_inline struct utfconv_seq utfconv_utf8_invalid_lead(void)
{
	return utfconv_seq_of(UTFCONV_SEQ_ILLFORMED, 1, 0);
}

/* C2..DF: any trail byte; the overlong forms started with C0 or C1. */
static __always_inline struct utfconv_seq
utfconv_utf8_two(const u8 *s, size_t n)
{
	return utfconv_utf8_trail(s, n, 2, s[0] & 0x1F, 0x80, 0xBF);
}

/*
 * E0..EF: after E0 a second byte below A0 would be overlong; after ED one
 * above 9F would be a surrogate, which only WTF-8 reads (as a surrogate
 * form: the caller pairs or rejects it, not the decoder).
 */
static __always_inline struct utfconv_seq
utfconv_utf8_three(const u8 *s, size_t n, bool wtf8)
{
	u8 lo = s[0] == 0xE0 ? 0xA0 : 0x80;
	u8 hi = s[0] == 0xED && !wtf8 ? 0x9F : 0xBF;
	struct utfconv_seq seq = utfconv_utf8_trail(s, n, 3, s[0] & 0x0F, lo,
						    hi);

	if (wtf8 && seq.kind == UTFCONV_SEQ_SCALAR &&
	    (seq.cp & 0xF800) == 0xD800)
		seq.kind = UTFCONV_SEQ_SURROGATE;
	return seq;
}

/*
 * F0..F4: after F0 a second byte below 90 would be overlong; after F4 one
 * above 8F would be above U+10FFFF.
 */
static __always_inline struct utfconv_seq
utfconv_utf8_four(const u8 *s, size_t n)
{
	u8 lo = s[0] == 0xF0 ? 0x90 : 0x80;
	u8 hi = s[0] == 0xF4 ? 0x8F : 0xBF;

	return utfconv_utf8_trail(s, n, 4, s[0] & 0x07, lo, hi);
}

/*
 * Decode the UTF-8 sequence at @s, @n > 0 bytes available, by the class of
 * its lead byte. With @wtf8, ED A0..BF 80..BF is a surrogate form.
 */
static __always_inline struct utfconv_seq
utfconv_utf8_decode(const u8 *s, size_t n, bool wtf8)
{
	u8 lead = s[0];

	if (lead < 0x80)
		return utfconv_utf8_ascii(lead);
	if (lead < 0xC2)
		return utfconv_utf8_invalid_lead();
	if (lead < 0xE0)
		return utfconv_utf8_two(s, n);
	if (lead < 0xF0)
		return utfconv_utf8_three(s, n, wtf8);
	if (lead < 0xF5)
		return utfconv_utf8_four(s, n);
	return utfconv_utf8_invalid_lead();
}

/*
 * Nothing pending, no first character to set apart (UTFCONV_BIT_STARTED),
 * no WTF-8 lead surrogate form just before: the next character needs none
 * of the stream's state.
 */
static inline bool utfconv_utf8_plain(const struct utfconv_state *st)
{
	return !st->npend &&
	       (st->bits & (UTFCONV_BIT_STARTED | UTFCONV_BIT_LEAD_FORM)) ==
	       UTFCONV_BIT_STARTED;
}

/*
 * An incomplete sequence used up the input (not its end): keep its @n
 * bytes at @p, the pending ones among them, for the next call.
 */
static void utfconv_utf8_keep(struct utfconv_state *st,
			      struct utfconv_cursor *c, const u8 *p, size_t n)
{
	memcpy(st->pend, p, n);
	c->s += n - st->npend;
	st->npend = n;
}

/*
 * A WTF-8 surrogate form @cp at @off, written as the code unit it stands
 * for. A trail form right after a lead form is CESU-8's way to write a
 * supplementary character, which WTF-8 forbids: the pair would read back
 * as a different string.
 */
static int utfconv_utf8_surrogate(struct utfconv_state *st,
				  struct utfconv_cursor *c, u32 cp, u64 off)
{
	if (cp >= 0xDC00 && (st->bits & UTFCONV_BIT_LEAD_FORM))
		return utfconv_halt(st, UTFCONV_ILLFORMED, off);
	if (c->de - c->d < 2)
		return -E2BIG;
	utfconv_put16(c->d, cp, utfconv_be_out(st));
	c->d += 2;
	if (cp < 0xDC00)
		st->bits |= UTFCONV_BIT_LEAD_FORM;
	else
		st->bits &= ~UTFCONV_BIT_LEAD_FORM;
	st->code_points++;
	return 0;
}

/*
 * A character of UTF-8 input at @off on the careful path: a leading BOM
 * the caller asked to strip, a surrogate form, or a scalar value. Returns
 * 0 when the caller may consume it, -E2BIG with nothing written, or the
 * halting errno.
 */
static int utfconv_utf8_char(struct utfconv_state *st,
			     struct utfconv_cursor *c,
			     const struct utfconv_seq *seq, u64 off)
{
	if (!(st->bits & UTFCONV_BIT_STARTED)) {
		st->bits |= UTFCONV_BIT_STARTED;
		if (seq->cp == UTFCONV_BOM &&
		    (st->flags & UTFCONV_STRIP_BOM))
			return 0;
	}
	if (seq->kind == UTFCONV_SEQ_SURROGATE)
		return utfconv_utf8_surrogate(st, c, seq->cp, off);
	if (c->de - c->d < utfconv_utf16_len(seq->cp))
		return -E2BIG;
	c->d += utfconv_put_utf16(c->d, seq->cp,
				  utfconv_be_out(st));
	st->bits &= ~UTFCONV_BIT_LEAD_FORM;
	st->code_points++;
	return 0;
}

/*
 * The careful path of UTF-8 input: one item, i.e. a character, one
 * maximal subpart or an incomplete tail, starting with any pending bytes,
 * under the stream's policy. Everything the fast path leaves out is
 * checked here. Returns 0 (item done, or the input is used up), -E2BIG
 * with nothing consumed, or the halting errno.
 */
static int utfconv_utf8_item(struct utfconv_state *st,
			     struct utfconv_cursor *c, bool end)
{
	unsigned int np = st->npend;
	u64 off = utfconv_pos(c) - np;
	size_t n = c->se - c->s;
	struct utfconv_seq seq;
	const u8 *p = c->s;
	u8 joined[4];
	int ret;

	if (np) {
		/* no sequence is longer than 4 bytes */
		n = min_t(size_t, n, sizeof(joined) - np);
		memcpy(joined, st->pend, np);
		memcpy(joined + np, c->s, n);
		n += np;
		p = joined;
	}
	if (!n)
		return 0;
	seq = utfconv_utf8_decode(p, n, st->policy == UTFCONV_WTF8);
	switch (seq.kind) {
	case UTFCONV_SEQ_INCOMPLETE:
		if (!end) {
			utfconv_utf8_keep(st, c, p, n);
			return 0;
		}
		st->bits |= UTFCONV_BIT_STARTED;
		ret = utfconv_bad(st, c, UTFCONV_INCOMPLETE, off);
		break;
	case UTFCONV_SEQ_ILLFORMED:
		st->bits |= UTFCONV_BIT_STARTED;
		ret = utfconv_bad(st, c, UTFCONV_ILLFORMED, off);
		break;
	default:
		ret = utfconv_utf8_char(st, c, &seq, off);
		break;
	}
	if (ret)
		return ret;
	/* a maximal subpart or character always covers the pending bytes */
	c->s += seq.len - np;
	st->npend = 0;
	return 0;
}

/* Room for eight ASCII bytes in and their eight code units out. */
static __always_inline bool utfconv_utf8_ascii8_room(const u8 *s, const u8 *se,
						     const u8 *d, const u8 *de)
{
	return se - s >= 8 && de - d >= 16;
}

/*
 * The scalar path's run of blocks out of line, one function per byte
 * order, end and kind of steps (@bmi2: the BMI2 ones): its loop then has
 * the registers to itself rather than sharing them with the stream's
 * state around it (x86-64 spilled its output pointer once the run of
 * three-byte sequences took two at a time), and is built for one kind of
 * steps.
 */
static noinline u64 utfconv_utf8_block_le(const u8 **sp, const u8 *se,
					  u8 **dp, u8 *de, bool bmi2)
{
	if (bmi2)
		return utfconv_utf8_block(sp, se, dp, de, false, false, true);
	return utfconv_utf8_block(sp, se, dp, de, false, false, false);
}

static noinline u64 utfconv_utf8_block_be(const u8 **sp, const u8 *se,
					  u8 **dp, u8 *de, bool bmi2)
{
	if (bmi2)
		return utfconv_utf8_block(sp, se, dp, de, true, false, true);
	return utfconv_utf8_block(sp, se, dp, de, true, false, false);
}

static noinline u64 utfconv_utf8_block_le_nul(const u8 **sp, const u8 *se,
					      u8 **dp, u8 *de, bool bmi2)
{
	if (bmi2)
		return utfconv_utf8_block(sp, se, dp, de, false, true, true);
	return utfconv_utf8_block(sp, se, dp, de, false, true, false);
}

static noinline u64 utfconv_utf8_block_be_nul(const u8 **sp, const u8 *se,
					      u8 **dp, u8 *de, bool bmi2)
{
	if (bmi2)
		return utfconv_utf8_block(sp, se, dp, de, true, true, true);
	return utfconv_utf8_block(sp, se, dp, de, true, true, false);
}

static __always_inline u64 utfconv_utf8_blocks(const u8 **sp, const u8 *se,
					       u8 **dp, u8 *de, bool be,
					       bool nul, bool bmi2)
{
	if (nul)
		return be ? utfconv_utf8_block_be_nul(sp, se, dp, de, bmi2) :
			    utfconv_utf8_block_le_nul(sp, se, dp, de, bmi2);
	return be ? utfconv_utf8_block_be(sp, se, dp, de, bmi2) :
		    utfconv_utf8_block_le(sp, se, dp, de, bmi2);
}

/*
 * The last @n (1..7) bytes of the input at @s, where the eight that end
 * it are ASCII (no NUL with @nul) and @back (8 - @n) of them are before
 * @s, converted by this call: one step over all eight, which writes the
 * code units of those @back again, as they are, rather than a character
 * at a time on the careful path (the end of a file name). False, and
 * nothing written, otherwise.
 */
static __always_inline bool utfconv_utf8_ascii_tail(const u8 *s, size_t n,
						    size_t back, u8 *d,
						    const u8 *de, bool be,
						    bool nul, bool bmi2)
{
	u64 w;

	if (n + back != 8 || de - d < 2 * n)
		return false;
	w = get_unaligned_le64(s - back);
	if (utfconv_ascii8_stop(w, nul))
		return false;
	utfconv_put_ascii8(d - 2 * back, w, be, bmi2);
	return true;
}

/*
 * The fast path of UTF-8 input: whole blocks while there is room for one,
 * then eight ASCII bytes at a time while there is room for those, since
 * the end of a buffer of mostly ASCII text is seldom a whole block, and
 * the last of them in one more step that ends where the input does.
 * @start: the first input byte of this call; @bmi2: the BMI2 steps.
 */
static __always_inline u64 utfconv_utf8_fast(const u8 **sp, const u8 *se,
					     u8 **dp, u8 *de,
					     const u8 *start, bool be, bool nul,
					     bool bmi2)
{
	u64 ncp = utfconv_utf8_blocks(sp, se, dp, de, be, nul, bmi2);
	const u8 *s = *sp;
	u8 *d = *dp;

	while (utfconv_utf8_ascii8_room(s, se, d, de) && *s < 0x80) {
		u64 w = get_unaligned_le64(s);

		if (utfconv_ascii8_stop(w, nul))
			break;
		utfconv_put_ascii8(d, w, be, bmi2);
		s += 8;
		d += 16;
		ncp += 8;
	}
	if (se - s < 8 && s != se &&
	    utfconv_utf8_ascii_tail(s, se - s, min_t(size_t, s - start, 8 - (se - s)),
				    d, de, be, nul, bmi2)) {
		ncp += se - s;
		d += 2 * (se - s);
		s = se;
	}
	*sp = s;
	*dp = d;
	return ncp;
}

/*
 * The careful path's common case, kept out of utfconv_utf8_item() so that
 * it needs no cursor in memory: on a stream with no state to mind
 * (utfconv_utf8_plain()), scalar values that fit, one at a time, until
 * the fast path can take over again at an ASCII byte, or until the next
 * item is something else: the end of the input, no room for it, or one
 * for utfconv_utf8_item(); with @nul also a NUL byte, where a file name
 * ends (no other character holds a zero byte, so that the end need not
 * be known for those before it). Adds the code points converted to
 * *@ncp.
 */
static __always_inline enum utfconv_next
utfconv_utf8_scalars(const u8 **sp, const u8 *se, u8 **dp, u8 *de, bool be,
		     bool nul, u64 *ncp)
{
	enum utfconv_next next = UTFCONV_NEXT_ITEM;
	const u8 *s = *sp;
	u8 *d = *dp;

	while (s < se) {
		struct utfconv_seq seq = utfconv_utf8_decode(s, se - s, false);

		if (seq.kind != UTFCONV_SEQ_SCALAR || (nul && !seq.cp))
			break;
		if (de - d < utfconv_utf16_len(seq.cp)) {
			next = UTFCONV_NEXT_FULL;
			break;
		}
		d += utfconv_put_utf16(d, seq.cp, be);
		s += seq.len;
		(*ncp)++;
		if (s < se && *s < 0x80 &&
		    utfconv_utf8_ascii8_room(s, se, d, de)) {
			next = UTFCONV_NEXT_FAST;
			break;
		}
	}
	*sp = s;
	*dp = d;
	return next;
}

/*
 * Where input that ends at its first NUL byte ends, from @s on. The fast
 * path and the careful path's common case with @nul have stopped at that
 * NUL or before: where the output's room or the input's characters ended
 * their run. What is left (the whole name before the SIMD paths, which do
 * not look for a NUL) is searched a word at a time: a byte loop would
 * cost as much as converting it.
 */
static inline const u8 *utfconv_utf8_nul(const u8 *s, const u8 *se)
{
	return s + utfconv_zero_unit(s, se - s, 1);
}

/*
 * @nul: the input ends at its first NUL byte (utfconv_buf_to_nul()): the
 * fast path and the careful path's common case stop there, and the end
 * of the input is looked for only where they stop at something else,
 * for the rest of the careful path (a name that ends at the end of its
 * buffer is not searched at all). The SIMD paths do not look for a NUL:
 * before them the end is found at once.
 */
static __always_inline int utfconv_from_utf8(struct utfconv_state *st,
					     struct utfconv_cursor *c,
					     bool end, bool be, bool nul)
{
	const u8 *s = c->s, *se = c->se;
	u8 *d = c->d, *de = c->de;
	bool plain = utfconv_utf8_plain(st), seek = nul;
	unsigned int simd = utfconv_simd_usable(&c->ch, se - s, de - d);
	enum utfconv_next next;
	u64 ncp = 0;
	int ret = 0;

	/* from UTF-8, SSE2 alone is no faster than the scalar paths */
	if (simd < UTFCONV_LEVEL_SSSE3)
		simd = 0;
	for (;;) {
		next = UTFCONV_NEXT_ITEM;
		if (likely(plain)) {
			if (seek && simd)
				se = utfconv_utf8_nul(s, se);
			if (simd)
				ncp += utfconv_simd(&s, se, &d, de, true, be,
						    simd);
			/* each kind of steps in a loop of its own */
			if (c->ch.bmi2)
				ncp += utfconv_utf8_fast(&s, se, &d, de,
							 c->start, be, nul,
							 true);
			else
				ncp += utfconv_utf8_fast(&s, se, &d, de,
							 c->start, be, nul,
							 false);
		}
		if (likely(plain))
			next = utfconv_utf8_scalars(&s, se, &d, de, be, seek,
						    &ncp);
		if (next == UTFCONV_NEXT_FAST)
			continue;
		if (seek && s != se) {
			se = utfconv_utf8_nul(s, se);
			c->se = se;
			seek = false;
		}
		if (next == UTFCONV_NEXT_FULL) {
			ret = -E2BIG;
			break;
		}
		if (s == se && !(end && st->npend))
			break;
		c->s = s;
		c->d = d;
		ret = utfconv_utf8_item(st, c, end);
		s = c->s;
		d = c->d;
		if (ret)
			break;
		plain = utfconv_utf8_plain(st);
	}
	c->s = s;
	c->d = d;
	st->code_points += ncp;
	return ret;
}

noinline int utfconv_utf8_to_le(struct utfconv_state *st,
				struct utfconv_cursor *c, bool end)
{
	return utfconv_from_utf8(st, c, end, false, false);
}

noinline int utfconv_utf8_to_be(struct utfconv_state *st,
				struct utfconv_cursor *c, bool end)
{
	return utfconv_from_utf8(st, c, end, true, false);
}

/* The converters of UTF-8 that ends at its first NUL (file names). */
noinline int utfconv_utf8_to_le_nul(struct utfconv_state *st,
				    struct utfconv_cursor *c)
{
	return utfconv_from_utf8(st, c, true, false, true);
}

noinline int utfconv_utf8_to_be_nul(struct utfconv_state *st,
				    struct utfconv_cursor *c)
{
	return utfconv_from_utf8(st, c, true, true, true);
}
