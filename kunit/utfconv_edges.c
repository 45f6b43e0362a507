// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv checks of where the fast paths end, shared by the KUnit suite
 * utfconv_paths and the host tests (part "runs"): the ASCII bytes that end
 * an input, the ends of an FPU section's budget, and every alignment of
 * the output, each outcome the reference model's (utfconv_ref.c).
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/utfconv.h>

#include "../kmod/utfconv_simd.h"
#include "utfconv_checks.h"
#include "utfconv_encode.h"
#include "utfconv_expect.h"
#include "utfconv_paths.h"
#include "utfconv_ref.h"
#include "utfconv_runs.h"

/*
 * The last ASCII bytes of UTF-8 input, fewer than eight after the fast
 * path, go in one step over the eight bytes that end the input, which
 * writes the code units of the bytes before them again
 * (utfconv_utf8_fast()): only where those were ASCII and converted by the
 * same call into the same buffer. The inputs: up to %UTFCONV_TAILS_PRE
 * characters of one kind (ASCII, two-, three- or four-byte, or ASCII with
 * lone trail bytes), then up to %UTFCONV_TAILS_TAIL ASCII bytes, so that
 * the eight bytes meet the input's start, other characters, and the bytes
 * of the call before at each of their places.
 */
#define UTFCONV_TAILS_PRE	24	/* characters before the ASCII tail */

#define UTFCONV_TAILS_TAIL	16	/* ASCII bytes that end the input */

#define UTFCONV_TAILS_KINDS	5

#define UTFCONV_TAILS_MAX	(4 * UTFCONV_TAILS_PRE + UTFCONV_TAILS_TAIL)

#define UTFCONV_TAILS_GAP	16	/* poison bytes around each buffer */

#define UTFCONV_TAILS_BUF	(3 * utfconv_ref_out_max(UTFCONV_TEST_UTF8_TO_UTF16LE, \
							 UTFCONV_TAILS_MAX) + \
				 3 * UTFCONV_TAILS_GAP)

/* @pre characters of @kind, then @tail ASCII bytes; the input's length. */
static size_t utfconv_tails_input(u8 *in, unsigned int kind, unsigned int pre,
				  unsigned int tail)
{
	static const u32 firsts[] = { 0x61, 0xE9, 0x4E2D, 0x1F600 };
	unsigned int i;
	size_t n = 0;

	for (i = 0; i < pre; i++) {
		if (kind < ARRAY_SIZE(firsts))
			n += utfconv_sweep_utf8(in + n, firsts[kind] + i % 7);
		else
			in[n++] = i % 3 == 2 ? 0x80 + i : 0x41 + i;
	}
	for (i = 0; i < tail; i++)
		in[n++] = 0x30 + (i * 7) % 0x4F;
	return n;
}

/* Whether the @n bytes at @p are all poison. */
static bool utfconv_tails_poison(const u8 *p, size_t n)
{
	while (n--)
		if (*p++ != UTFCONV_POISON)
			return false;
	return true;
}

/*
 * @in converted in two calls, the second one the last @k bytes (the whole
 * input with @k = @n), each into a buffer of its own with poison before
 * and after it, the second's of just the rest of the output's size less
 * @less bytes: the outcome of the reference model (with @less, -E2BIG
 * after the whole characters that fit), and the poison intact.
 */
static bool utfconv_tails_one(void *ctx, u32 dir, u32 policy, const u8 *in,
			      size_t n, size_t k, size_t less, u8 *buf)
{
	size_t room = utfconv_ref_out_max(dir, n), used, wrote1 = 0;
	size_t wrote2 = 0, cap = 0;
	u8 *out1 = buf + room + UTFCONV_TAILS_GAP;
	u8 *out2 = out1 + room + UTFCONV_TAILS_GAP;
	struct utfconv_state st;
	struct utfconv_ref r;
	int ret = 0, want;
	bool ok;

	utfconv_ref_convert(dir, policy, 0, in, n, buf, &r);
	if (less > r.out_bytes)
		return true;
	memset(buf + room, UTFCONV_POISON, 2 * room + 3 * UTFCONV_TAILS_GAP);
	utfconv_test_pair_init(&st, dir, policy, 0);
	if (k < n)
		ret = utfconv_test_convert(&st, in, n - k, &used, out1, room,
					   &wrote1, 0);
	if (!ret && wrote1 <= r.out_bytes - less) {
		cap = r.out_bytes - wrote1 - less;
		ret = utfconv_test_convert(&st, in + n - k, k, &used, out2, cap,
					   &wrote2, UTFCONV_END);
	}
	want = less && r.out_bytes ? -E2BIG : r.err;
	ok = ret == want && wrote2 <= cap && wrote1 + wrote2 <= r.out_bytes &&
	     !memcmp(out1, r.out, wrote1) &&
	     !memcmp(out2, r.out + wrote1, wrote2) &&
	     utfconv_tails_poison(buf + room, UTFCONV_TAILS_GAP) &&
	     utfconv_tails_poison(out1 + room, UTFCONV_TAILS_GAP) &&
	     utfconv_tails_poison(out2 + cap, UTFCONV_TAILS_GAP);
	if (ok && !less)
		ok = wrote1 + wrote2 == r.out_bytes &&
		     st.code_points == r.code_points &&
		     st.replacements == r.replacements &&
		     st.error_kind == r.error_kind &&
		     (!r.error_kind || st.error_offset == r.error_offset);
	else if (ok)
		/* all but the last character, of at most four bytes */
		ok = wrote1 + wrote2 + 4 >= r.out_bytes;
	UTFCONV_CHECK(ctx, ok,
		      "ASCII tail: dir %u policy %u, %zu bytes %*ph, last call %zu bytes, room %zu: ret %d (want %d), wrote %zu + %zu of %zu, poison %d %d %d",
		      dir, policy, n, (int)min_t(size_t, n, 64), in, k, cap,
		      ret, want, wrote1, wrote2, r.out_bytes,
		      utfconv_tails_poison(buf + room, UTFCONV_TAILS_GAP),
		      utfconv_tails_poison(out1 + room, UTFCONV_TAILS_GAP),
		      utfconv_tails_poison(out2 + cap, UTFCONV_TAILS_GAP));
	return ok;
}

/* Every split of @in in its last bytes, every policy, both byte orders. */
static bool utfconv_tails_splits(void *ctx, const u8 *in, size_t n, u8 *buf)
{
	u32 dir, policy;
	size_t k;

	for (dir = UTFCONV_TEST_UTF8_TO_UTF16LE;
	     dir <= UTFCONV_TEST_UTF8_TO_UTF16BE; dir++) {
		for (policy = 0; policy <= UTFCONV_TEST_POLICY_LAST; policy++) {
			if (!utfconv_tails_one(ctx, dir, policy, in, n, n, 1,
					       buf))
				return false;
			for (k = 0; k <= min_t(size_t, n, UTFCONV_TAILS_TAIL);
			     k++)
				if (!utfconv_tails_one(ctx, dir, policy, in, n,
						       n - k, 0, buf) ||
				    !utfconv_tails_one(ctx, dir, policy, in, n,
						       k, 0, buf))
					return false;
		}
	}
	return true;
}

/**
 * utfconv_check_ascii_tails() - the ASCII bytes that end UTF-8 input
 * @ctx: test context
 *
 * Every kind, length before and length of the tail, converted whole into
 * a buffer of just its output's size and one byte less, and in two calls
 * split at each of the first and last %UTFCONV_TAILS_TAIL bytes, each
 * call's output in a buffer of its own: against the reference model, no
 * byte written outside the buffer of the call.
 */
void utfconv_check_ascii_tails(void *ctx)
{
	u8 *in = UTFCONV_ALLOC(ctx, UTFCONV_TAILS_MAX);
	u8 *buf = UTFCONV_ALLOC(ctx, UTFCONV_TAILS_BUF);
	unsigned int kind, pre, tail;
	size_t n;

	if (!in || !buf)
		return;
	for (kind = 0; kind < UTFCONV_TAILS_KINDS; kind++) {
		for (pre = 0; pre <= UTFCONV_TAILS_PRE; pre++) {
			for (tail = 0; tail <= UTFCONV_TAILS_TAIL; tail++) {
				n = utfconv_tails_input(in, kind, pre, tail);
				if (!utfconv_tails_splits(ctx, in, n, buf))
					return;
			}
		}
	}
}

/*
 * Output at every address modulo 64, odd ones included: the SIMD paths
 * store whole vectors wherever the output falls, and the AVX2 path from
 * UTF-8 first stores up to an alignment in the ASCII run a call starts
 * with. The long text is ASCII over more than one SIMD chunk (the input
 * of one FPU section), with a two-byte character in its second chunk and
 * one near its end.
 */
#define UTFCONV_ALIGN_LONG	(2 * UTFCONV_SIMD_CHUNK + 100)

/* @in converted in @direction into output at every alignment */
static bool utfconv_align_one(void *ctx, u32 direction, const u8 *in,
			      size_t n, u8 *buf)
{
	unsigned int off;

	for (off = 0; off < 64; off++)
		if (!utfconv_check_against_ref(ctx, "output alignment",
					       direction, UTFCONV_STRICT,
					       0, in, n, buf + off))
			return false;
	return true;
}

/* UTF-8 @in to UTF-16LE and to UTF-16BE at every output alignment */
static bool utfconv_align_utf8(void *ctx, const u8 *in, size_t n, u8 *buf)
{
	return utfconv_align_one(ctx, UTFCONV_TEST_UTF8_TO_UTF16LE, in, n,
				 buf) &&
	       utfconv_align_one(ctx, UTFCONV_TEST_UTF8_TO_UTF16BE, in, n, buf);
}

/*
 * The ends of an FPU section's budget (utfconv_simd.h): on the AVX2 path
 * from UTF-8 a section that starts with ASCII takes up to
 * UTFCONV_SECTION_ASCII bytes of it, and after a shorter run the rest of
 * the budget, about UTFCONV_SECTION_REST bytes from the start after
 * UTFCONV_SECTION_PRE bytes of ASCII (how far the run goes depends on the
 * output's alignment: the positions cover it); other paths and UTF-16
 * input end a section every UTFCONV_SIMD_CHUNK bytes. A character, an
 * ill-formed sequence or a surrogate at each position around each end,
 * straddling it, in UTF-8 text that is ASCII or two-byte characters
 * after the run. The same numbers where no SIMD path is built.
 */
#define UTFCONV_SECTION_PRE	(UTFCONV_SECTION_CHUNK / 2)
#define UTFCONV_SECTION_REST	(UTFCONV_SECTION_PRE + UTFCONV_SECTION_CHUNK - \
				 (UTFCONV_SECTION_PRE >> UTFCONV_SECTION_SHIFT))
#define UTFCONV_SECTION_LONG	(UTFCONV_SECTION_ASCII + 160)

/* What goes at each position: its bytes (length first), its error. */
static const struct utfconv_section_item {
	u8 bytes[5];
	bool bad;
} utfconv_section_items[] = {
	{ { 2, 0xC3, 0xA9 } },			/* U+00E9 */
	{ { 3, 0xE2, 0x82, 0xAC } },		/* U+20AC */
	{ { 4, 0xF0, 0x9F, 0x98, 0x80 } },	/* U+1F600 */
	{ { 1, 0x80 }, true },			/* lone continuation */
	{ { 2, 0xE2, 0x82 }, true },		/* truncated before ASCII */
	{ { 3, 0xED, 0xA0, 0x80 }, true },	/* surrogate */
};

/* @in[@from..@to): ASCII letters, else two-byte characters, odd end 'x' */
static void utfconv_section_fill(u8 *in, size_t from, size_t to, bool two)
{
	size_t i;

	for (i = from; i < to; i++)
		in[i] = two ? ((i - from) & 1 ? 0x96 : 0xD0) : 0x61 + i % 26;
	if (two && (to - from) & 1)
		in[to - 1] = 'x';
}

/*
 * @n bytes of UTF-8: ASCII up to @ascii, two-byte characters after it,
 * @item at @at; returns the offset of the first error, @n if none.
 */
static size_t utfconv_section_text(u8 *in, size_t n, size_t ascii, size_t at,
				   const struct utfconv_section_item *item)
{
	size_t end = at + item->bytes[0];

	if (at <= ascii) {
		utfconv_section_fill(in, 0, at, false);
		utfconv_section_fill(in, end, max(end, ascii), false);
		utfconv_section_fill(in, max(end, ascii), n, true);
	} else {
		utfconv_section_fill(in, 0, ascii, false);
		utfconv_section_fill(in, ascii, at, true);
		utfconv_section_fill(in, end, n, true);
	}
	memcpy(in + at, item->bytes + 1, item->bytes[0]);
	return item->bad ? at : n;
}

/*
 * @in converted into output at an even address (the AVX2 run's first step
 * short of an alignment) and at an odd one, one byte order each.
 */
static bool utfconv_section_check(void *ctx, u32 le, u32 be, const u8 *in,
				  size_t n, u8 *buf)
{
	return utfconv_check_against_ref(ctx, "section end", le,
					 UTFCONV_STRICT, 0, in, n,
					 buf) &&
	       utfconv_check_against_ref(ctx, "section end", be,
					 UTFCONV_STRICT, 0, in, n,
					 buf + 1);
}

/* utfconv_buf()'s errno and error offset for @in: @bad, or @n if none */
static void utfconv_section_errno(void *ctx, u32 dir, const u8 *in, size_t n,
				  size_t bad, u8 *buf, size_t at, size_t p)
{
	ssize_t ret;
	u64 off = U64_MAX;

	ret = utfconv_test_buf(dir, UTFCONV_STRICT, 0, in, n, buf, 3 * n,
			       &off);
	UTFCONV_EXPECT_EQ(ctx, bad < n ? ret : 0, bad < n ? -EILSEQ : 0,
			  "section end %zu, item at %zu: errno", at, p);
	UTFCONV_EXPECT_EQ(ctx, bad < n ? off : 0, bad < n ? bad : 0,
			  "section end %zu, item at %zu: error offset", at, p);
}

/*
 * Items at @at - @before .. @at + 8 in @n bytes of UTF-8: each item at
 * each position, or where @one, one item per position in turn (for the
 * long input of the ASCII run's end).
 */
static bool utfconv_section_utf8(void *ctx, u8 *in, size_t n, size_t ascii,
				 size_t at, size_t before, bool one, u8 *buf)
{
	const size_t ni = ARRAY_SIZE(utfconv_section_items);
	size_t i, p, bad;

	for (i = 0; i < (one ? 1 : ni); i++)
		for (p = at - before; p <= at + 8; p++) {
			const struct utfconv_section_item *item =
				&utfconv_section_items[one ? p % ni : i];

			bad = utfconv_section_text(in, n, ascii, p, item);
			utfconv_section_errno(ctx, UTFCONV_TEST_UTF8_TO_UTF16LE,
					      in, n, bad, buf, at, p);
			if (!utfconv_section_check(ctx,
						   UTFCONV_TEST_UTF8_TO_UTF16LE,
						   UTFCONV_TEST_UTF8_TO_UTF16BE,
						   in, n, buf))
				return false;
		}
	return true;
}

/*
 * @n bytes of ASCII UTF-16 with a surrogate pair (@item 0), a lone lead
 * surrogate (1) or a lone trail surrogate (2) at byte @at, @n and @at
 * even, in each byte order.
 */
static bool utfconv_section_utf16(void *ctx, u8 *in, size_t n, size_t at,
				  unsigned int item, u8 *buf)
{
	static const u16 units[3][2] = {
		{ 0xD83D, 0xDE00 }, { 0xD800, 'a' }, { 0xDC00, 'a' },
	};
	size_t i, bad = item ? at : n;
	int be;

	for (be = 0; be < 2; be++) {
		u32 dir = be ? UTFCONV_TEST_UTF16BE_TO_UTF8 :
			       UTFCONV_TEST_UTF16LE_TO_UTF8;

		for (i = 0; i < n; i += 2)
			utfconv_sweep_unit(in + i, 0x61 + i / 2 % 26, be);
		utfconv_sweep_unit(in + at, units[item][0], be);
		utfconv_sweep_unit(in + at + 2, units[item][1], be);
		utfconv_section_errno(ctx, dir, in, n, bad, buf, at, at);
		if (!utfconv_check_against_ref(ctx, "section end", dir,
					       UTFCONV_STRICT, 0, in, n,
					       buf + be))
			return false;
	}
	return true;
}

/**
 * utfconv_check_section_ends() - input across the end of an FPU section
 * @ctx: test context
 *
 * Around each end of a section's budget (UTFCONV_SECTION_* above): the
 * ASCII run's end, the rest of the budget after a shorter run, the end
 * of UTFCONV_SIMD_CHUNK bytes (SSE2, SSSE3; UTF-16 input); utfconv_buf()'s
 * errno and error offset, and output, errors and counters as the
 * reference model's.
 */
void utfconv_check_section_ends(void *ctx)
{
	size_t room = utfconv_ref_out_max(UTFCONV_TEST_UTF8_TO_UTF16LE,
					  UTFCONV_SECTION_LONG);
	size_t chunk = UTFCONV_SECTION_CHUNK + 160, at;
	u8 *in = UTFCONV_ALLOC(ctx, UTFCONV_SECTION_LONG);
	u8 *buf = UTFCONV_ALLOC(ctx, 2 * room + 64);
	unsigned int item;

	if (!in || !buf)
		return;
	if (!utfconv_section_utf8(ctx, in, UTFCONV_SECTION_LONG,
				  UTFCONV_SECTION_LONG, UTFCONV_SECTION_ASCII,
				  200, true, buf) ||
	    !utfconv_section_utf8(ctx, in, UTFCONV_SECTION_REST + 160,
				  UTFCONV_SECTION_PRE, UTFCONV_SECTION_REST,
				  240, false, buf) ||
	    !utfconv_section_utf8(ctx, in, chunk, chunk, UTFCONV_SECTION_CHUNK,
				  120, false, buf))
		return;
	for (item = 0; item < 3; item++)
		for (at = UTFCONV_SECTION_CHUNK - 120;
		     at <= UTFCONV_SECTION_CHUNK + 8; at += 2)
			if (!utfconv_section_utf16(ctx, in, chunk, at, item,
						   buf))
				return;
}

/*
 * A run of ASCII from UTF-8 at every input address modulo 64, against
 * output addresses where the AVX-512 path's run loads its input aligned
 * as it falls (twice the input's modulo 64: the AVX2 loop), where it
 * picks each 64 bytes from two aligned blocks (the others), and where
 * it cannot start (odd): UTFCONV_ALIGN_RUN bytes of ASCII, a two-byte
 * character after them. @in: 127 bytes more than that; @buf: 63 more
 * than twice its output's room (utfconv_check_against_ref() puts the
 * codec's output after the reference's).
 */
#define UTFCONV_ALIGN_RUN	1000

static bool utfconv_align_in_utf8(void *ctx, u8 *in, u8 *buf)
{
	static const unsigned int outs[] = { 1, 2, 16, 32, 62 };
	u8 *s0 = in + (-(uintptr_t)in & 63), *d0 = buf + (-(uintptr_t)buf & 63);
	/* the codec's output: after the reference's, this far on */
	size_t room = utfconv_ref_out_max(UTFCONV_TEST_UTF8_TO_UTF16LE,
					  UTFCONV_ALIGN_RUN + 2);
	unsigned int off, k, o;
	size_t n;
	u8 *s, *d;

	for (off = 0; off < 64; off++) {
		s = s0 + off;
		for (n = 0; n < UTFCONV_ALIGN_RUN; n++)
			s[n] = 0x61 + n % 26;
		s[n++] = 0xC3;
		s[n++] = 0xA9;
		for (k = 0; k <= ARRAY_SIZE(outs); k++) {
			o = k < ARRAY_SIZE(outs) ? outs[k] : 2 * off % 64;
			d = d0 + ((o - room) & 63);
			if (!utfconv_check_against_ref(ctx, "input alignment",
						       UTFCONV_TEST_UTF8_TO_UTF16LE,
						       UTFCONV_STRICT, 0, s, n,
						       d) ||
			    !utfconv_check_against_ref(ctx, "input alignment",
						       UTFCONV_TEST_UTF8_TO_UTF16BE,
						       UTFCONV_STRICT, 0, s, n,
						       d))
				return false;
		}
	}
	return true;
}

/**
 * utfconv_check_out_alignment() - every output alignment, every direction
 * @ctx: test context
 *
 * From UTF-8, a run of ASCII at every input alignment too
 * (utfconv_align_in_utf8()).
 */
void utfconv_check_out_alignment(void *ctx)
{
	static const unsigned int texts[] = { 0, 5, 10 };
	size_t n, room = utfconv_ref_out_max(UTFCONV_TEST_UTF8_TO_UTF16LE,
					     UTFCONV_ALIGN_LONG);
	u8 *in = UTFCONV_ALLOC(ctx, UTFCONV_ALIGN_LONG);
	u8 *buf = UTFCONV_ALLOC(ctx, 2 * room + 64);
	unsigned int t;
	int be;

	if (!in || !buf)
		return;
	BUILD_BUG_ON(UTFCONV_ALIGN_RUN + 2 + 127 > UTFCONV_ALIGN_LONG);
	if (!utfconv_align_in_utf8(ctx, in, buf))
		return;
	for (n = 0; n < UTFCONV_ALIGN_LONG; n++)
		in[n] = 0x61 + n % 26;
	utfconv_sweep_utf8(in + UTFCONV_ALIGN_LONG / 2 + 37, 0xE9);
	utfconv_sweep_utf8(in + UTFCONV_ALIGN_LONG - 5, 0xE9);
	if (!utfconv_align_utf8(ctx, in, UTFCONV_ALIGN_LONG, buf))
		return;
	for (t = 0; t < ARRAY_SIZE(texts); t++) {
		n = utfconv_runs_text(texts[t], in);
		if (!utfconv_align_utf8(ctx, in, n, buf))
			return;
		for (be = 0; be < 2; be++) {
			n = utfconv_runs_text16(texts[t], in, be);
			if (!utfconv_align_one(ctx, be ?
					       UTFCONV_TEST_UTF16BE_TO_UTF8 :
					       UTFCONV_TEST_UTF16LE_TO_UTF8,
					       in, n, buf))
				return;
		}
	}
}
