// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: streaming UTF-8 <-> UTF-16 conversion: the stream API,
 * its errors and policies, and module set-up. The UTF-8 side is in
 * utfconv_utf8.c, the UTF-16 side in utfconv_utf16.c, the one-shot API in
 * utfconv_oneshot.c, the choice of paths on x86-64 (SIMD, BMI2) in
 * utfconv_x86.c.
 *
 * Exact per the Unicode Standard chapter 3 (D76 scalar value, D91 UTF-16,
 * D92 UTF-8, Table 3-7, section 3.9 "U+FFFD Substitution of Maximal
 * Subparts"), RFC 3629 (UTF-8) and RFC 2781 (UTF-16).
 */

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <linux/utfconv.h>
#include <kunit/visibility.h>

#include "utfconv_block.h"
#include "utfconv_codec.h"
#include "utfconv_internal.h"
#include "utfconv_x86.h"

/**
 * DOC: UTF-8 and UTF-16 forms
 *
 * A scalar value is a code point outside the surrogate range
 * U+D800..U+DFFF. UTF-8 (RFC 3629, Unicode D92) writes it in the shortest
 * of these forms::
 *
 *   U+0000..U+007F     0xxxxxxx
 *   U+0080..U+07FF     110xxxxx 10xxxxxx
 *   U+0800..U+FFFF     1110xxxx 10xxxxxx 10xxxxxx
 *   U+10000..U+10FFFF  11110xxx 10xxxxxx 10xxxxxx 10xxxxxx
 *
 * so that the well-formed byte sequences are exactly the rows of Unicode
 * Table 3-7::
 *
 *   first    second   third    fourth
 *   00..7F
 *   C2..DF   80..BF
 *   E0       A0..BF   80..BF
 *   E1..EC   80..BF   80..BF
 *   ED       80..9F   80..BF
 *   EE..EF   80..BF   80..BF
 *   F0       90..BF   80..BF   80..BF
 *   F1..F3   80..BF   80..BF   80..BF
 *   F4       80..8F   80..BF   80..BF
 *
 * C0, C1 and F5..FF never occur; the narrowed second-byte ranges after
 * E0, ED, F0 and F4 exclude overlong forms, surrogates and values above
 * U+10FFFF. A maximal subpart (Unicode 3.9, D93b) is the longest prefix
 * of an ill-formed sequence that is a prefix of some row above, or its
 * first byte alone; the REPLACE policy writes one U+FFFD for each.
 *
 * UTF-16 (D91) writes U+0000..U+FFFF less the surrogates as one code unit
 * and U+10000..U+10FFFF as a surrogate pair: a lead surrogate
 * 0xD800 + ((c - 0x10000) >> 10) then a trail surrogate
 * 0xDC00 + ((c - 0x10000) & 0x3FF). A lead without a trail after it and a
 * trail without a lead before it are unpaired surrogates: ill-formed,
 * except under the WTF-8 policy, which writes them in the three-byte form
 * ED A0..BF 80..BF and reads that form back.
 */

/**
 * DOC: Fast and careful paths
 *
 * Each direction has two paths. The fast path (utfconv_utf8_fast(),
 * utfconv_utf16_fast()) is the block path of utfconv_block.h, after the
 * SIMD paths where they may run, then ASCII eight bytes or code units at
 * a time: well-formed input only, and only while the buffers leave room
 * for its worst case, so that it needs no bounds checks. Everything else
 * is the careful path's, one character or one ill-formed or incomplete
 * sequence at a time: pending bytes, the first character where a BOM
 * may be dropped or tell the byte order, WTF-8 surrogate forms, the
 * policies, the end of the stream, and the last characters before the
 * end of either buffer. Its common case, a
 * scalar value on a stream with no state to mind, is decoded by the
 * class of its lead byte or first code unit and written on the spot; the
 * rest goes one item at a time through utfconv_utf8_item() and
 * utfconv_utf16_item(), which keep all the stream's state in &struct
 * utfconv_state.
 */

static void utfconv_note_error(struct utfconv_state *st, u32 kind, u64 off)
{
	if (st->error_kind == UTFCONV_NO_ERROR) {
		st->error_kind = kind;
		st->error_offset = off;
	}
}

/* Stop the stream at @off: nothing at or after it was accepted. */
int utfconv_halt(struct utfconv_state *st, u32 kind, u64 off)
{
	utfconv_note_error(st, kind, off);
	st->halt = kind == UTFCONV_ILLFORMED ? -EILSEQ : -EINVAL;
	st->bytes_in = off;
	st->npend = 0;
	st->bits &= ~(UTFCONV_BIT_LEAD | UTFCONV_BIT_LEAD_FORM);
	return st->halt;
}

/*
 * Deal with one ill-formed or incomplete sequence of the policy's kind:
 * halt (strict, wtf8), or write one U+FFFD (replace), or nothing (skip).
 * Returns 0 when the caller may consume the sequence, -E2BIG when U+FFFD
 * does not fit, or the halting errno.
 */
int utfconv_bad(struct utfconv_state *st, struct utfconv_cursor *c,
		u32 kind, u64 off)
{
	unsigned int n;

	switch (st->policy) {
	case UTFCONV_REPLACE:
		n = utfconv_utf8_in(st) ? 2 : 3;
		if (c->de - c->d < n)
			return -E2BIG;
		if (utfconv_utf8_in(st))
			utfconv_put16(c->d, UTFCONV_REPLACEMENT,
				      utfconv_be_out(st));
		else
			utfconv_put_utf8(c->d, UTFCONV_REPLACEMENT);
		c->d += n;
		st->code_points++;
		fallthrough;
	case UTFCONV_SKIP:
		st->replacements++;
		utfconv_note_error(st, kind, off);
		return 0;
	default:
		return utfconv_halt(st, kind, off);
	}
}

/*
 * Convert with the converter built for the stream's encodings. UTF-16
 * input of either byte order starts as big-endian and may learn from its
 * BOM that it is little-endian: the converter built for that order takes
 * over where the other stopped.
 */
int utfconv_run(struct utfconv_state *st, struct utfconv_cursor *c,
		bool end)
{
	bool le;
	int ret;

	if (st->target == UTFCONV_UTF16LE)
		return utfconv_utf8_to_le(st, c, end);
	if (st->target == UTFCONV_UTF16BE)
		return utfconv_utf8_to_be(st, c, end);
	do {
		le = st->bits & UTFCONV_BIT_LE_IN;
		if (le)
			ret = utfconv_le_to_utf8(st, c, end);
		else
			ret = utfconv_be_to_utf8(st, c, end);
	} while (!ret && le != !!(st->bits & UTFCONV_BIT_LE_IN));
	return ret;
}

static int utfconv_emit_bom(struct utfconv_state *st, struct utfconv_cursor *c)
{
	unsigned int n = utfconv_utf8_in(st) ? 2 : 3;

	if (c->de - c->d < n)
		return -E2BIG;
	if (utfconv_utf8_in(st))
		utfconv_put16(c->d, UTFCONV_BOM,
			      utfconv_be_out(st));
	else
		utfconv_put_utf8(c->d, UTFCONV_BOM);
	c->d += n;
	st->code_points++;
	st->bits |= UTFCONV_BIT_BOM_DONE;
	return 0;
}

/**
 * utfconv_init() - set up a conversion stream
 * @st: stream state, owned by the caller
 * @source: encoding of the input
 * @target: encoding of the output; one of @source and @target is
 *	%UTFCONV_UTF8 and the other UTF-16 (utfconv_encodings_valid())
 * @policy: what to do with ill-formed or incomplete input
 * @flags: zero or more of %UTFCONV_STRIP_BOM and %UTFCONV_EMIT_BOM
 *
 * Fills @st for a new stream at offset 0. Nothing is allocated: @st is
 * all the state a stream has.
 *
 * Context: Any context.
 * Return:
 * * 0 - @st is ready for utfconv_convert()
 * * -EINVAL - a @source and @target that do not go together (both UTF-8
 *   or both UTF-16, %UTFCONV_UTF16 as the target, an unknown value), an
 *   unknown @policy, or unknown bits in @flags;
 *   @st is not touched
 */
int utfconv_init(struct utfconv_state *st, enum utfconv_encoding source,
		 enum utfconv_encoding target, enum utfconv_policy policy,
		 u32 flags)
{
	if (!utfconv_valid_config(source, target, policy, flags))
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->source = source;
	st->target = target;
	st->policy = policy;
	st->flags = flags;
	utfconv_reset(st);
	return 0;
}
EXPORT_SYMBOL_GPL(utfconv_init);

/**
 * utfconv_reset() - start a stream again with the same configuration
 * @st: stream state set up by utfconv_init()
 *
 * Drops pending input, a halting error and all counters; the next byte
 * given is at stream offset 0.
 *
 * Context: Any context.
 */
void utfconv_reset(struct utfconv_state *st)
{
	u8 source = st->source, target = st->target;
	u8 policy = st->policy, flags = st->flags;

	memset(st, 0, sizeof(*st));
	utfconv_start(st, source, target, policy, flags);
}
EXPORT_SYMBOL_GPL(utfconv_reset);

/**
 * utfconv_convert() - convert the next piece of a stream
 * @st: stream state set up by utfconv_init()
 * @src: input bytes (UTF-8, or UTF-16 as bytes in the stream's byte order;
 *	no alignment needed)
 * @src_bytes: length of @src in bytes; may be 0
 * @src_used: out: bytes of @src accepted, pending ones included
 * @dst: output buffer
 * @dst_bytes: capacity of @dst in bytes
 * @dst_used: out: bytes written to @dst
 * @cflags: %UTFCONV_END if the input ends with @src
 *
 * Converts per Unicode chapter 3 (D91, D92, Table 3-7) under the stream's
 * policy. Any split of the input over calls gives the same output, errors
 * and counters as one call: an incomplete tail (at most 3 bytes: part of a
 * UTF-8 sequence, or an odd byte and/or a lead surrogate) is kept in @st
 * until more input or %UTFCONV_END resolves it. Never writes past
 * @dst_bytes, and *@dst_used never ends inside a character; the bytes
 * of @dst past *@dst_used are scratch (the block paths store whole words
 * and vectors ahead of the output) and hold nothing to read. Under
 * REPLACE each maximal subpart (Unicode 3.9) or unpaired surrogate
 * becomes one U+FFFD, and an incomplete tail at the end one U+FFFD.
 *
 * Context: Any context. Does not sleep or allocate; uses the FPU (SIMD
 * paths) only where may_use_simd() allows.
 * Return:
 * * 0 - all of @src accepted; with %UTFCONV_END the stream has ended
 * * -E2BIG - the next whole character does not fit in @dst; convert the
 *   rest of @src (after *@src_used bytes) into a new buffer
 * * -EILSEQ - ill-formed input (strict or wtf8 policy); *@src_used bytes
 *   before it were converted; @st->error_offset is its stream offset. The
 *   stream stays stopped with this error until utfconv_reset().
 * * -EINVAL - the input ended inside a character (strict or wtf8 policy;
 *   stream stopped as for -EILSEQ), or @st was not set up, or input was
 *   given after the stream ended, or @src or @dst wraps around the end
 *   of the address space (nothing is consumed or written)
 */
int utfconv_convert(struct utfconv_state *st, const void *src,
		    size_t src_bytes, size_t *src_used, void *dst,
		    size_t dst_bytes, size_t *dst_used, unsigned int cflags)
{
	struct utfconv_choice ch;

	utfconv_choose(&ch);
	return utfconv_convert_on(st, &ch, src, src_bytes, src_used, dst,
				  dst_bytes, dst_used, cflags);
}
EXPORT_SYMBOL_GPL(utfconv_convert);

/* utfconv_convert() on the paths @ch (utfconv_buf()'s too). */
int utfconv_convert_on(struct utfconv_state *st,
		       const struct utfconv_choice *ch, const void *src,
		       size_t src_bytes, size_t *src_used, void *dst,
		       size_t dst_bytes, size_t *dst_used, unsigned int cflags)
{
	struct utfconv_cursor c;
	bool end = cflags & UTFCONV_END;
	int ret = 0;

	*src_used = 0;
	*dst_used = 0;
	if (cflags & ~UTFCONV_END)
		return -EINVAL;
	if (!utfconv_valid_config(st->source, st->target, st->policy,
				  st->flags))
		return -EINVAL;
	if (!utfconv_cursor_set(&c, src, src_bytes, dst, dst_bytes,
				st->bytes_in, ch))
		return -EINVAL;
	if (st->halt)
		return st->halt;
	if (st->bits & UTFCONV_BIT_ENDED)
		return src_bytes ? -EINVAL : 0;

	if (!(st->bits & UTFCONV_BIT_BOM_DONE))
		ret = utfconv_emit_bom(st, &c);
	if (!ret)
		ret = utfconv_run(st, &c, end);

	*dst_used = c.d - (u8 *)dst;
	st->bytes_out += *dst_used;
	if (st->halt) {
		/* bytes_in was set back to the error offset */
		*src_used = st->bytes_in > c.base ? st->bytes_in - c.base : 0;
		return ret;
	}
	*src_used = c.s - c.start;
	st->bytes_in += *src_used;
	if (!ret && end)
		st->bits |= UTFCONV_BIT_ENDED;
	return ret;
}

#if IS_ENABLED(CONFIG_KUNIT)
/* For KUnit only (kernel-doc in utfconv_codec.h): a call on @path. */
VISIBLE_IF_KUNIT int utfconv_convert_path(enum utfconv_path path,
					  struct utfconv_state *st,
					  const void *src, size_t src_bytes,
					  size_t *src_used, void *dst,
					  size_t dst_bytes, size_t *dst_used,
					  unsigned int cflags)
{
	struct utfconv_choice ch;

	utfconv_path_choose(path, &ch);
	return utfconv_convert_on(st, &ch, src, src_bytes, src_used, dst,
				  dst_bytes, dst_used, cflags);
}
EXPORT_SYMBOL_IF_KUNIT(utfconv_convert_path);

/* For KUnit only (kernel-doc in utfconv_codec.h). */
VISIBLE_IF_KUNIT int utfconv_path_level(enum utfconv_path path)
{
	struct utfconv_choice ch;

	if (path > UTFCONV_PATH_AVX512)
		return -EINVAL;
	if (utfconv_path_want(path) > UTFCONV_LEVEL_BUILT)
		return -EOPNOTSUPP;
	utfconv_path_choose(path, &ch);
	return utfconv_simd_usable(&ch, SIZE_MAX, SIZE_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(utfconv_path_level);
#endif

/**
 * utfconv_pending_bytes() - input bytes a stream holds back
 * @st: stream state
 *
 * Context: Any context.
 * Return: bytes of an incomplete UTF-8 sequence, or an odd byte and/or a
 * lead surrogate of UTF-16 input, accepted but not yet converted (0 to
 * %UTFCONV_MAX_PENDING).
 */
unsigned int utfconv_pending_bytes(const struct utfconv_state *st)
{
	return st->npend + (st->bits & UTFCONV_BIT_LEAD ? 2 : 0);
}
EXPORT_SYMBOL_GPL(utfconv_pending_bytes);

/**
 * utfconv_ended() - whether a stream's input has ended
 * @st: stream state
 *
 * Context: Any context.
 * Return: true once utfconv_convert() with %UTFCONV_END returned 0.
 */
bool utfconv_ended(const struct utfconv_state *st)
{
	return st->bits & UTFCONV_BIT_ENDED;
}
EXPORT_SYMBOL_GPL(utfconv_ended);

/*
 * The paths are chosen once, here; the rest of the module (the
 * filesystem name functions of utfconv_fsname.c) needs no set-up.
 */
static int __init utfconv_codec_init(void)
{
	utfconv_simd_init();
	utfconv_bmi2_init();
	return 0;
}
module_init(utfconv_codec_init);

static void __exit utfconv_codec_exit(void)
{
}
module_exit(utfconv_codec_exit);

MODULE_DESCRIPTION("UTF-8 <-> UTF-16 conversion library (streaming codec, file name conversion)");
MODULE_AUTHOR("utfconv developers");
MODULE_LICENSE("GPL");
MODULE_VERSION("1.0");
