/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec internals shared by its files: the stream's state bits,
 * the cursor of a call, the decoded sequence, the converters from UTF-8
 * and from UTF-16 in each byte order (utfconv_utf8.c, utfconv_utf16.c),
 * the error and policy steps and the run loop (utfconv_codec.c).
 */
#ifndef _UTFCONV_INTERNAL_H
#define _UTFCONV_INTERNAL_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/types.h>
#include <linux/utfconv.h>

#include "utfconv_x86.h"

/* utfconv_state.bits */
#define UTFCONV_BIT_STARTED	BIT(0)	/* first input item processed or plain */
#define UTFCONV_BIT_BOM_DONE	BIT(1)	/* output BOM written */
#define UTFCONV_BIT_LEAD	BIT(2)	/* lead surrogate pending in ->lead */
#define UTFCONV_BIT_LEAD_FORM	BIT(3)	/* WTF-8 input: last item a lead form */
#define UTFCONV_BIT_ENDED	BIT(4)	/* input ended */
#define UTFCONV_BIT_LE_IN	BIT(5)	/* UTF-16 input is little-endian */

#define UTFCONV_REPLACEMENT	0xFFFD
#define UTFCONV_BOM		0xFEFF

struct utfconv_cursor {
	const u8 *start;	/* input of this call */
	const u8 *s;		/* next input byte */
	const u8 *se;		/* end of input */
	u8 *d;			/* next output byte */
	u8 *de;			/* end of output */
	u64 base;		/* stream offset of @start */
	struct utfconv_choice ch;	/* the paths this call may take */
};

static inline bool utfconv_utf8_in(const struct utfconv_state *st)
{
	return st->source == UTFCONV_UTF8;
}

static inline u64 utfconv_pos(const struct utfconv_cursor *c)
{
	return c->base + (c->s - c->start);
}

/*
 * What the UTF-8 bytes or UTF-16 code units at the input start with: per
 * Table 3-7 and D93b for UTF-8, where each ill-formed sequence is one
 * maximal subpart, so that REPLACE writes one U+FFFD per subpart and the
 * next one starts where it ends; per D91 for UTF-16. A surrogate is, in
 * UTF-8, its WTF-8 form; in UTF-16, a lead surrogate without a trail
 * after it, or a trail surrogate: the careful path pairs or rejects it.
 */
enum utfconv_seq_kind {
	UTFCONV_SEQ_SCALAR,	/* a scalar value */
	UTFCONV_SEQ_SURROGATE,	/* a surrogate code point */
	UTFCONV_SEQ_ILLFORMED,	/* UTF-8: a maximal subpart */
	UTFCONV_SEQ_INCOMPLETE,	/* UTF-8: a proper prefix of a sequence */
};

/**
 * struct utfconv_seq - one decoded UTF-8 or UTF-16 sequence
 * @kind: what it is
 * @len: its length in bytes: of the character, of the maximal subpart, or
 *	(incomplete) of all the bytes there were
 * @cp: the code point of a scalar value or a surrogate
 */
struct utfconv_seq {
	enum utfconv_seq_kind kind;
	unsigned int len;
	u32 cp;
};

static __always_inline struct utfconv_seq
utfconv_seq_of(enum utfconv_seq_kind kind, unsigned int len, u32 cp)
{
	struct utfconv_seq seq = { .kind = kind, .len = len, .cp = cp };

	return seq;
}

/* Where the careful path's common case hands over. */
enum utfconv_next {
	UTFCONV_NEXT_FAST,	/* back to the fast path */
	UTFCONV_NEXT_ITEM,	/* an item for utfconv_*_item(), or the end */
	UTFCONV_NEXT_FULL,	/* the next character does not fit: -E2BIG */
};

/*
 * The cursor of a call at stream offset @base, with the paths @ch it may
 * take; false, and nothing to convert, where a buffer wraps around the
 * end of the address space.
 */
static inline bool utfconv_cursor_set(struct utfconv_cursor *c,
				      const void *src, size_t src_bytes,
				      void *dst, size_t dst_bytes, u64 base,
				      const struct utfconv_choice *ch)
{
	if (src_bytes > UINTPTR_MAX - (uintptr_t)src ||
	    dst_bytes > UINTPTR_MAX - (uintptr_t)dst)
		return false;
	c->start = src;
	c->s = src;
	c->se = (const u8 *)src + src_bytes;
	c->d = dst;
	c->de = (u8 *)dst + dst_bytes;
	c->base = base;
	c->ch = *ch;
	return true;
}

/* UTF-16 output in big-endian byte order (UTF-8 input). */
static inline bool utfconv_be_out(const struct utfconv_state *st)
{
	return st->target == UTFCONV_UTF16BE;
}

/* A configuration utfconv_init() takes; UTFCONV_WTF8 is the last policy. */
static inline bool utfconv_valid_config(u32 source, u32 target, u32 policy,
					u32 flags)
{
	return utfconv_encodings_valid(source, target) &&
	       policy <= UTFCONV_WTF8 && !(flags & ~UTFCONV_FLAGS_ALL);
}

/*
 * A new stream in the zeroed state @st: the one place that says how a
 * stream starts, for utfconv_reset() and utfconv_buf()'s direct path.
 */
static inline void utfconv_start(struct utfconv_state *st, u8 source,
				 u8 target, u8 policy, u8 flags)
{
	st->source = source;
	st->target = target;
	st->policy = policy;
	st->flags = flags;
	if (source == UTFCONV_UTF16LE)
		st->bits |= UTFCONV_BIT_LE_IN;
	if (!(flags & UTFCONV_EMIT_BOM))
		st->bits |= UTFCONV_BIT_BOM_DONE;
	/*
	 * Only a BOM to strip or a byte order to learn from it sets the first
	 * character apart; without them the fast path may take it, which is
	 * what a short buffer such as a file name wants.
	 */
	if (!(flags & UTFCONV_STRIP_BOM) && source != UTFCONV_UTF16)
		st->bits |= UTFCONV_BIT_STARTED;
}

/* utfconv_codec.c */
int utfconv_halt(struct utfconv_state *st, u32 kind, u64 off);
int utfconv_bad(struct utfconv_state *st, struct utfconv_cursor *c,
		u32 kind, u64 off);
int utfconv_run(struct utfconv_state *st, struct utfconv_cursor *c, bool end);
int utfconv_convert_on(struct utfconv_state *st,
		       const struct utfconv_choice *ch, const void *src,
		       size_t src_bytes, size_t *src_used, void *dst,
		       size_t dst_bytes, size_t *dst_used, unsigned int cflags);

/* utfconv_oneshot.c */
size_t utfconv_zero_unit(const u8 *s, size_t n, unsigned int unit);

/* utfconv_utf8.c */
int utfconv_utf8_to_le(struct utfconv_state *st, struct utfconv_cursor *c,
		       bool end);
int utfconv_utf8_to_be(struct utfconv_state *st, struct utfconv_cursor *c,
		       bool end);
int utfconv_utf8_to_le_nul(struct utfconv_state *st, struct utfconv_cursor *c);
int utfconv_utf8_to_be_nul(struct utfconv_state *st, struct utfconv_cursor *c);

/* utfconv_utf16.c */
int utfconv_le_to_utf8(struct utfconv_state *st, struct utfconv_cursor *c,
		       bool end);
int utfconv_be_to_utf8(struct utfconv_state *st, struct utfconv_cursor *c,
		       bool end);
int utfconv_le_to_utf8_nul(struct utfconv_state *st, struct utfconv_cursor *c);
int utfconv_be_to_utf8_nul(struct utfconv_state *st, struct utfconv_cursor *c);

#endif /* _UTFCONV_INTERNAL_H */
