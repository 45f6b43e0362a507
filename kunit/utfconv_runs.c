// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv checks of the fast paths, shared by the KUnit suite
 * utfconv_paths and the host tests (part "runs"), reporting through
 * utfconv_expect.h as utfconv_checks.c does.
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
 * Long runs for the block and SIMD paths: texts of a few hundred bytes in
 * one script each, so that the fast paths engage, and the same texts with
 * a fault written at every position (ill-formed, incomplete, surrogate
 * forms, BOMs) or cut short, and converted at every output capacity
 * around the fast paths' room checks: each outcome must be the reference
 * model's, whichever path the codec takes (the suites run once per path).
 */
#define UTFCONV_RUNS_CHARS	160

/* Character @i of long-run text @text. */
static u32 utfconv_runs_char(unsigned int text, unsigned int i)
{
	static const u32 picks[] = { 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xFEFF,
				     0xFFFD, 0xFFFF, 0x10000, 0x1F600,
				     0x10FFFF, 0xD7FF, 0xE000, 0x20 };

	switch (text) {
	case 0:		/* ASCII */
		return 0x20 + (i * 7) % 0x5F;
	case 1:		/* Cyrillic words and spaces */
		return i % 7 == 6 ? 0x20 : 0x430 + (i * 5) % 32;
	case 2:		/* two-byte only, both ends of the range */
		return i % 5 == 4 ? 0x7FF - i % 3 : 0x80 + (i * 37) % 0x780;
	case 3:		/* CJK and spaces */
		return i % 4 == 3 ? 0x20 : 0x4E00 + (i * 13) % 0x5000;
	case 4:		/* everything, four-byte included */
		return picks[(i * 5) % ARRAY_SIZE(picks)];
	case 5:		/* ASCII, a two-byte character every 17 */
		return i % 17 == 16 ? 0xE9 : 0x61 + i % 26;
	case 6:		/* ASCII words, a three- or four-byte character after */
		return i % 9 < 8 ? 0x61 + i % 26 : i % 2 ? 0x4E2D : 0x1F600;
	case 7:		/* three-byte only, both ends of the range */
		return i % 5 == 4 ? (i % 2 ? 0xD7FF : 0xE000 + i % 3) :
		       0x800 + (i * 97) % 0xD000;
	case 8:		/* no ASCII: CJK, a Cyrillic letter every third */
		return i % 3 ? 0x4E00 + (i * 11) % 0x5000 : 0x430 + i % 32;
	case 9:		/* four-byte only (emoji), both ends of the range */
		return i % 5 == 4 ? (i % 2 ? 0x10FFFF : 0x10000) :
		       0x1F300 + (i * 7) % 0x300;
	default:
		/*
		 * ASCII runs of 43 (markup: the AVX2 path from UTF-16 loops
		 * on 32 ASCII units and more, then goes on in the same
		 * trip), each followed by 14 characters of a script,
		 * Cyrillic, CJK or emoji in turn: the runs end in different
		 * lanes of a vector, before vectors of each kind
		 */
		if (i % 57 < 43)
			return 0x61 + i % 26;
		return (i / 57) % 3 == 0 ? 0x430 + i % 32 :
		       (i / 57) % 3 == 1 ? 0x4E00 + i : 0x1F600 + i % 80;
	}
}

/* Long-run text @text as UTF-8 in @d; returns its length. */
size_t utfconv_runs_text(unsigned int text, u8 *d)
{
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < 2 * UTFCONV_RUNS_CHARS; i++)
		n += utfconv_sweep_utf8(d + n, utfconv_runs_char(text, i));
	return n;
}

/* Long-run text @text as UTF-16 in @d; returns its length in bytes. */
size_t utfconv_runs_text16(unsigned int text, u8 *d, bool be)
{
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < UTFCONV_RUNS_CHARS; i++)
		n += utfconv_sweep_utf16(d + n, utfconv_runs_char(text, i), be);
	return n;
}

/* Faults written over UTF-8 input: length, then bytes. */
static const u8 utfconv_runs_faults8[][4] = {
	{ 1, 0xFF }, { 1, 0x80 }, { 1, 0xC0 }, { 2, 0xC1, 0xBF },
	{ 1, 0xC2 }, { 1, 0xDF }, { 2, 0xE0, 0x9F }, { 2, 0xE1, 0x80 },
	{ 3, 0xED, 0xA0, 0x80 }, { 3, 0xED, 0xBF, 0xBF }, { 2, 0xF4, 0x90 },
	{ 3, 0xF0, 0x9F, 0x98 }, { 3, 0xEF, 0xBB, 0xBF }, { 2, 0xF0, 0x8F },
	{ 1, 0xF5 }, { 1, 0xF7 },
};

/* Code units written over UTF-16 input. */
static const u16 utfconv_runs_faults16[] = {
	0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xFFFE, 0xFEFF, 0x7F, 0x80, 0x7FF,
	0x800,
};

/* One faulty input, every policy; false after the first disagreement. */
static bool utfconv_runs_one(void *ctx, const char *name, u32 direction,
			     const u8 *in, size_t n, u8 *buf)
{
	u32 policy;

	for (policy = 0; policy <= UTFCONV_TEST_POLICY_LAST; policy++)
		if (!utfconv_check_against_ref(ctx, name, direction, policy, 0,
					       in, n, buf))
			return false;
	return true;
}

/*
 * Every output capacity per call from below a block's room to the whole,
 * and input calls of every size around a block's room (64 to 95 bytes).
 */
static void utfconv_runs_capacities(void *ctx, const char *name,
				    u32 direction, const u8 *in, size_t n,
				    u8 *buf)
{
	size_t cap, chunk, cuts[32];
	struct utfconv_expect e;
	struct utfconv_ref r;
	unsigned int nc;

	utfconv_ref_convert(direction, UTFCONV_STRICT, 0, in, n, buf,
			    &r);
	utfconv_expect_ref(&r, &e);
	for (cap = 100; cap <= r.out_bytes + 1; cap++)
		utfconv_check_convert(ctx, name, "capacity per call", direction,
				      UTFCONV_STRICT, 0, in, n, NULL, 0,
				      cap, &e);
	for (chunk = 64; chunk < 96; chunk++) {
		for (nc = 0; nc < ARRAY_SIZE(cuts) && (nc + 1) * chunk < n; nc++)
			cuts[nc] = (nc + 1) * chunk;
		utfconv_check_convert(ctx, name, "input calls of one size",
				      direction, UTFCONV_STRICT, 0, in, n,
				      cuts, nc, 0, &e);
	}
}

/*
 * The positions of a long run's faults and cuts: with @step 1 every one;
 * with an odd @step every @step-th, which still meets every offset
 * modulo any power of two up to the text's length over @step (the
 * blocks' and vectors' widths), and every one of the last
 * %UTFCONV_RUNS_TAIL, where the paths hand over to what ends the input.
 */
#define UTFCONV_RUNS_TAIL	64

bool utfconv_runs_at(size_t pos, size_t n, unsigned int step)
{
	return pos % step == 0 || pos + UTFCONV_RUNS_TAIL > n;
}

/**
 * utfconv_check_long_runs() - long runs with a fault at every position
 * @ctx: test context
 * @text: which text, below %UTFCONV_RUNS_TEXTS
 * @step: 1 for every position, else an odd stride (utfconv_runs_at())
 */
void utfconv_check_long_runs(void *ctx, unsigned int text,
			     unsigned int step)
{
	size_t n8, n16, max8 = 8 * UTFCONV_RUNS_CHARS, pos, k;
	u8 *u8in = UTFCONV_ALLOC(ctx, max8);
	u8 *in = UTFCONV_ALLOC(ctx, max8);
	size_t room = utfconv_ref_out_max(UTFCONV_TEST_UTF16LE_TO_UTF8, max8);
	u8 *buf = UTFCONV_ALLOC(ctx, 2 * room);
	unsigned int f;
	int be;

	if (!u8in || !in || !buf)
		return;
	n8 = utfconv_runs_text(text, u8in);
	for (pos = 0; pos <= n8; pos++) {
		if (!utfconv_runs_at(pos, n8, step))
			continue;
		/* cut short at @pos, then each fault written at @pos */
		if (!utfconv_runs_one(ctx, "long run cut", UTFCONV_TEST_UTF8_TO_UTF16LE,
				      u8in, pos, buf))
			return;
		for (f = 0; f < ARRAY_SIZE(utfconv_runs_faults8); f++) {
			k = utfconv_runs_faults8[f][0];
			if (pos + k > n8)
				continue;
			memcpy(in, u8in, n8);
			memcpy(in + pos, utfconv_runs_faults8[f] + 1, k);
			if (!utfconv_runs_one(ctx, "long run fault",
					      UTFCONV_TEST_UTF8_TO_UTF16LE +
					      (pos & 1), in, n8, buf))
				return;
		}
	}
	utfconv_runs_capacities(ctx, "long run", UTFCONV_TEST_UTF8_TO_UTF16LE,
				u8in, n8, buf);
	utfconv_runs_capacities(ctx, "long run", UTFCONV_TEST_UTF8_TO_UTF16BE,
				u8in, n8, buf);

	for (be = 0; be < 2; be++) {
		u32 dir = be ? UTFCONV_TEST_UTF16BE_TO_UTF8 :
			       UTFCONV_TEST_UTF16LE_TO_UTF8;

		n16 = utfconv_runs_text16(text, u8in, be);
		for (pos = 0; pos <= n16; pos++) {
			if (!utfconv_runs_at(pos, n16, step))
				continue;
			if (!utfconv_runs_one(ctx, "long run cut", dir, u8in,
					      pos, buf))
				return;
			if (pos & 1 || pos + 2 > n16)
				continue;
			for (f = 0; f < ARRAY_SIZE(utfconv_runs_faults16); f++) {
				memcpy(in, u8in, n16);
				utfconv_sweep_unit(in + pos,
						   utfconv_runs_faults16[f], be);
				if (!utfconv_runs_one(ctx, "long run fault", dir,
						      in, n16, buf))
					return;
			}
		}
		utfconv_runs_capacities(ctx, "long run", dir, u8in, n16, buf);
	}
}

/* utfconv_buf_to_nul() on @in with a NUL at @pos: utfconv_buf() on @pos */
static bool utfconv_nul_one(void *ctx, u32 dir, u8 *in, size_t n, size_t pos,
			    unsigned int unit, u8 *buf, size_t room)
{
	ssize_t want, got;
	u8 saved[2];

	want = utfconv_test_buf(dir, UTFCONV_STRICT, 0, in, pos, buf,
				room, NULL);
	memcpy(saved, in + pos, unit);
	memset(in + pos, 0, unit);
	got = utfconv_test_buf_to_nul(dir, UTFCONV_STRICT, in, n,
				      buf + room, room);
	memcpy(in + pos, saved, unit);
	UTFCONV_EXPECT_EQ(ctx, got, want,
			  "to NUL: direction %u, NUL at %zu of %zu", dir, pos, n);
	if (got != want)
		return false;
	if (want > 0)
		UTFCONV_EXPECT_MEMEQ(ctx, buf + room, buf, want,
				     "to NUL: direction %u, NUL at %zu of %zu",
				     dir, pos, n);
	return true;
}

/**
 * utfconv_check_nul_runs() - long runs ended by a NUL at every position
 * @ctx: test context
 * @text: which text, below %UTFCONV_RUNS_TEXTS
 * @step: 1 for every position, else an odd stride (utfconv_runs_at())
 *
 * utfconv_buf_to_nul(), the file name functions' converter, finds the NUL
 * in its ASCII steps and searches the input that the SIMD paths took
 * (which do not look for it): it gives what utfconv_buf() gives for the
 * input before the NUL, in each direction and byte order.
 */
void utfconv_check_nul_runs(void *ctx, unsigned int text,
			    unsigned int step)
{
	size_t max8 = 8 * UTFCONV_RUNS_CHARS, n, pos;
	size_t room = utfconv_ref_out_max(UTFCONV_TEST_UTF16LE_TO_UTF8, max8);
	u8 *in = UTFCONV_ALLOC(ctx, max8);
	u8 *buf = UTFCONV_ALLOC(ctx, 2 * room);
	u32 dir;

	if (!in || !buf)
		return;
	for (dir = UTFCONV_TEST_UTF8_TO_UTF16LE;
	     dir <= UTFCONV_TEST_UTF16BE_TO_UTF8; dir++) {
		bool utf8 = dir <= UTFCONV_TEST_UTF8_TO_UTF16BE;
		unsigned int unit = utf8 ? 1 : 2;

		n = utf8 ? utfconv_runs_text(text, in) :
		    utfconv_runs_text16(text, in,
					dir == UTFCONV_TEST_UTF16BE_TO_UTF8);
		for (pos = 0; pos + unit <= n; pos += unit) {
			if (!utfconv_runs_at(pos, n, step))
				continue;
			if (!utfconv_nul_one(ctx, dir, in, n, pos, unit, buf,
					     room))
				return;
		}
	}
}

/*
 * Runs of two-byte characters for the block paths' steps of four (two-byte
 * sequences in 8 bytes of UTF-8, units below 0x800 in 4 UTF-16 units):
 * after every length of ASCII, a run of 1 to 9 such characters, then
 * what must end or continue the step, then more text, so that each ending
 * falls in each lane of a step and at each offset of a block.
 */
#define UTFCONV_TWOS_PREFIX	72	/* ASCII bytes or units before a run */

#define UTFCONV_TWOS_RUN	9	/* longest run */

/*
 * Character @i of a run: both ends of the range, the bits between, and
 * units whose bytes swapped are below 0x800 too (a UTF-16BE unit read in
 * the wrong byte order would pass for one).
 */
static u32 utfconv_twos_char(unsigned int i)
{
	static const u32 twos[] = { 0x80, 0x7FF, 0x3B1, 0x5D0, 0x627, 0x430,
				    0x100, 0x401, 0x702, 0x207, 0x600, 0x7C0,
				    0xBF, 0x43F, 0x5EA, 0x0FF };

	return twos[i % ARRAY_SIZE(twos)];
}

/* What follows a run in UTF-8: length, then bytes. */
static const u8 utfconv_twos_ends8[][5] = {
	{ 1, 0x41 }, { 1, 0x7F }, { 1, 0x00 },
	{ 2, 0xC2, 0x80 }, { 2, 0xDF, 0xBF },		/* the run goes on */
	{ 3, 0xE0, 0xA0, 0x80 }, { 3, 0xE4, 0xB8, 0xAD },
	{ 3, 0xED, 0xA0, 0x80 },			/* a surrogate */
	{ 4, 0xF0, 0x9F, 0x98, 0x80 }, { 4, 0xF4, 0x8F, 0xBF, 0xBF },
	{ 2, 0xC0, 0x80 }, { 2, 0xC1, 0xBF },		/* overlong */
	{ 1, 0x80 }, { 1, 0xBF },			/* lone continuation */
	{ 2, 0xC2, 0x41 }, { 2, 0xC3, 0x20 }, { 2, 0xDF, 0x00 },
	{ 2, 0xDF, 0xC2 },				/* truncated lead */
	{ 2, 0xD0, 0xC0 }, { 2, 0xD7, 0x7F }, { 1, 0xE4 },
	{ 2, 0xF8, 0x80 }, { 1, 0xFF },
};

/* What follows a run in UTF-16: up to two units (0 for none). */
static const u16 utfconv_twos_ends16[][2] = {
	{ 0x7F }, { 0x00 }, { 0x80 }, { 0x7FF }, { 0x800 }, { 0xFFFF },
	{ 0x87FF }, { 0xF880 }, { 0x1080 }, { 0xFF80 },
	{ 0xD800 }, { 0xDBFF }, { 0xDC00 }, { 0xDFFF },	/* lone surrogates */
	{ 0xD83D, 0xDE00 }, { 0xDBFF, 0xDFFF },		/* pairs */
	{ 0xD800, 0x80 }, { 0xDC00, 0xD800 },
};

/*
 * Text after the run: ASCII and two-byte characters mixed, then two-byte
 * characters only, enough for a block's room (the codec must go back to
 * its fast paths after the careful path has dealt with an ending, and
 * fill the output buffer up to its end).
 */
static u32 utfconv_twos_tail(unsigned int i)
{
	if (i >= 48)
		return 0x3B1 + i % 24;
	return i % 3 == 2 ? 0x20 + i : 0x80 + (i * 29) % 0x780;
}

#define UTFCONV_TWOS_TAIL	96	/* characters after the ending */

#define UTFCONV_TWOS_MAX	(2 * UTFCONV_TWOS_PREFIX + \
				 4 * UTFCONV_TWOS_RUN + 8 + \
				 4 * UTFCONV_TWOS_TAIL)	/* input bytes */

#define UTFCONV_TWOS_BUF	(2 * utfconv_ref_out_max(UTFCONV_TEST_UTF8_TO_UTF16LE, \
							 UTFCONV_TWOS_MAX))

/*
 * One input, every policy; then once more into an output buffer of just
 * the output's size, followed by poison that must stay intact (the block
 * paths' scratch bytes never go past the end of the buffer).
 */
static bool utfconv_twos_one(void *ctx, const char *name, u32 direction,
			     const u8 *in, size_t n, u8 *buf)
{
	size_t room = utfconv_ref_out_max(direction, n), used, wrote, i;
	u8 *out = buf + room;
	struct utfconv_state st;
	struct utfconv_ref r;
	int ret;

	if (!utfconv_runs_one(ctx, name, direction, in, n, buf))
		return false;
	utfconv_ref_convert(direction, UTFCONV_STRICT, 0, in, n, buf,
			    &r);
	memset(out, UTFCONV_POISON, UTFCONV_TWOS_BUF - room);
	utfconv_test_pair_init(&st, direction, UTFCONV_STRICT, 0);
	ret = utfconv_test_convert(&st, in, n, &used, out, r.out_bytes, &wrote,
				   UTFCONV_END);
	for (i = r.out_bytes; room + i < UTFCONV_TWOS_BUF; i++)
		if (out[i] != UTFCONV_POISON)
			break;
	UTFCONV_EXPECT_EQ(ctx, ret, r.err,
			  "%s: dir %u, %zu bytes, output buffer of %zu",
			  name, direction, n, r.out_bytes);
	utfconv_check_bytes(ctx, name, "output buffer of its size",
			    out, wrote, r.out, r.out_bytes);
	UTFCONV_EXPECT_EQ(ctx, room + i, UTFCONV_TWOS_BUF,
			  "%s: dir %u, %zu bytes: first poison byte overwritten",
			  name, direction, n);
	return ret == r.err && wrote == r.out_bytes &&
	       room + i == UTFCONV_TWOS_BUF;
}

/* @pre ASCII bytes, a run of @run, ending @end, the tail; its length. */
static size_t utfconv_twos_input8(u8 *in, unsigned int pre, unsigned int run,
				  unsigned int end)
{
	const u8 *e = utfconv_twos_ends8[end];
	unsigned int i;
	size_t n = 0;

	for (i = 0; i < pre; i++)
		in[n++] = 0x61 + i % 26;
	for (i = 0; i < run; i++)
		n += utfconv_sweep_utf8(in + n, utfconv_twos_char(i + run + pre));
	memcpy(in + n, e + 1, e[0]);
	n += e[0];
	for (i = 0; i < UTFCONV_TWOS_TAIL; i++)
		n += utfconv_sweep_utf8(in + n, utfconv_twos_tail(i));
	return n;
}

/* The same in UTF-16: @pre ASCII units, the run, the ending, the tail. */
static size_t utfconv_twos_input16(u8 *in, unsigned int pre,
				   unsigned int run, unsigned int end, bool be)
{
	const u16 *e = utfconv_twos_ends16[end];
	unsigned int i;
	size_t n = 0;

	for (i = 0; i < pre; i++)
		n += utfconv_sweep_utf16(in + n, 0x61 + i % 26, be);
	for (i = 0; i < run; i++)
		n += utfconv_sweep_utf16(in + n,
					 utfconv_twos_char(i + run + pre), be);
	for (i = 0; i < 2 && (!i || e[i]); i++, n += 2)
		utfconv_sweep_unit(in + n, e[i], be);
	for (i = 0; i < UTFCONV_TWOS_TAIL; i++)
		n += utfconv_sweep_utf16(in + n, utfconv_twos_tail(i), be);
	return n;
}

/* Every run in UTF-8 (both byte orders out); false after a disagreement. */
static bool utfconv_check_twos8(void *ctx, u8 *in, u8 *buf)
{
	unsigned int pre, run, end;
	size_t n;

	for (pre = 0; pre < UTFCONV_TWOS_PREFIX; pre++)
		for (run = 1; run <= UTFCONV_TWOS_RUN; run++)
			for (end = 0; end < ARRAY_SIZE(utfconv_twos_ends8);
			     end++) {
				n = utfconv_twos_input8(in, pre, run, end);
				if (!utfconv_twos_one(ctx, "two-byte run",
						      UTFCONV_TEST_UTF8_TO_UTF16LE,
						      in, n, buf) ||
				    !utfconv_twos_one(ctx, "two-byte run",
						      UTFCONV_TEST_UTF8_TO_UTF16BE,
						      in, n, buf))
					return false;
			}
	return true;
}

/* Every run in UTF-16 of both byte orders; false after a disagreement. */
static bool utfconv_check_twos16(void *ctx, u8 *in, u8 *buf)
{
	unsigned int pre, run, end;
	size_t n;
	int be;

	for (be = 0; be < 2; be++)
		for (pre = 0; pre < UTFCONV_TWOS_PREFIX / 2; pre++)
			for (run = 1; run <= UTFCONV_TWOS_RUN; run++)
				for (end = 0;
				     end < ARRAY_SIZE(utfconv_twos_ends16);
				     end++) {
					n = utfconv_twos_input16(in, pre, run,
								 end, be);
					if (!utfconv_twos_one(ctx, "two-byte run",
							      be ?
							      UTFCONV_TEST_UTF16BE_TO_UTF8 :
							      UTFCONV_TEST_UTF16LE_TO_UTF8,
							      in, n, buf))
						return false;
				}
	return true;
}

/**
 * utfconv_check_two_byte_runs() - runs of two-byte characters, every ending
 * @ctx: test context
 * @utf16: UTF-16 input (both byte orders), else UTF-8 input
 */
void utfconv_check_two_byte_runs(void *ctx, bool utf16)
{
	u8 *in = UTFCONV_ALLOC(ctx, UTFCONV_TWOS_MAX);
	u8 *buf = UTFCONV_ALLOC(ctx, UTFCONV_TWOS_BUF);

	if (!in || !buf)
		return;
	if (utf16)
		utfconv_check_twos16(ctx, in, buf);
	else
		utfconv_check_twos8(ctx, in, buf);
}

/*
 * Runs of three- and four-byte characters for the scalar path's steps
 * of two three-byte sequences from one load and its run of four-byte
 * ones: after every length of ASCII, a run of 1 to 9 such characters,
 * then an ending (the run going on, or each kind of ill-formed sequence
 * with the bad byte at each of its places), then the tail, so that each
 * ending falls at each place of a step of two, first or second, at each
 * offset of a block. Each input is also cut right after its ending, so
 * that the ending is the end of the input too.
 */
struct utfconv_long_seqs {
	const char *name;
	const u32 *chars;	/* characters of the runs */
	unsigned int nchars;
	const u8 (*ends)[5];	/* what follows a run: length, then bytes */
	unsigned int nends;
};

/* Both ends of the range, each side of the surrogates, scripts' blocks. */
static const u32 utfconv_threes_chars[] = {
	0x800, 0xFFFF, 0xD7FF, 0xE000, 0x4E2D, 0xAC00, 0x905, 0xFFFD, 0x1000,
	0xCFFF, 0x3042, 0xE5A,
};

static const u8 utfconv_threes_ends8[][5] = {
	{ 1, 0x41 }, { 1, 0x20 }, { 1, 0x00 }, { 2, 0xC2, 0x80 },
	{ 3, 0xE0, 0xA0, 0x80 }, { 3, 0xEF, 0xBF, 0xBF },	/* it goes on */
	{ 3, 0xE0, 0x9F, 0xBF }, { 3, 0xE0, 0x80, 0x80 },	/* overlong */
	{ 3, 0xED, 0xA0, 0x80 }, { 3, 0xED, 0xBF, 0xBF },	/* surrogates */
	{ 1, 0xE4 }, { 2, 0xE4, 0xB8 }, { 2, 0xED, 0xA0 },	/* truncated */
	{ 3, 0xE4, 0x41, 0x80 }, { 3, 0xE4, 0xB8, 0x41 },	/* bad trail */
	{ 3, 0xE4, 0xC0, 0x80 }, { 3, 0xE4, 0xB8, 0xC0 },
	{ 3, 0xE4, 0xB8, 0x00 }, { 4, 0xF0, 0x9F, 0x98, 0x80 },
	{ 1, 0x80 }, { 1, 0xFF },
};

static const u32 utfconv_fours_chars[] = {
	0x10000, 0x10FFFF, 0x1F600, 0x1F3FE, 0x20000, 0xFFFFF, 0x100000,
	0x1F9FF, 0x3FFFF, 0x40000,
};

static const u8 utfconv_fours_ends8[][5] = {
	{ 1, 0x41 }, { 1, 0x00 }, { 3, 0xE4, 0xB8, 0xAD },
	{ 4, 0xF0, 0x90, 0x80, 0x80 }, { 4, 0xF4, 0x8F, 0xBF, 0xBF },
	{ 4, 0xF0, 0x8F, 0xBF, 0xBF }, { 4, 0xF0, 0x80, 0x80, 0x80 },
	{ 4, 0xF4, 0x90, 0x80, 0x80 }, { 4, 0xF7, 0xBF, 0xBF, 0xBF },
	{ 4, 0xF5, 0x80, 0x80, 0x80 }, { 4, 0xF8, 0x88, 0x80, 0x80 },
	{ 1, 0xF0 }, { 2, 0xF0, 0x9F }, { 3, 0xF0, 0x9F, 0x98 },
	{ 4, 0xF0, 0x41, 0x98, 0x80 }, { 4, 0xF0, 0x9F, 0x41, 0x80 },
	{ 4, 0xF0, 0x9F, 0x98, 0x41 }, { 4, 0xF0, 0x9F, 0x98, 0xC0 },
	{ 4, 0xF0, 0x9F, 0xC0, 0x80 }, { 4, 0xF0, 0xC0, 0x98, 0x80 },
	{ 3, 0xED, 0xA0, 0x80 }, { 1, 0xFF },
};

static const struct utfconv_long_seqs utfconv_long_seqs[] = {
	{ "three-byte run", utfconv_threes_chars,
	  ARRAY_SIZE(utfconv_threes_chars), utfconv_threes_ends8,
	  ARRAY_SIZE(utfconv_threes_ends8) },
	{ "four-byte run", utfconv_fours_chars,
	  ARRAY_SIZE(utfconv_fours_chars), utfconv_fours_ends8,
	  ARRAY_SIZE(utfconv_fours_ends8) },
};

#define UTFCONV_SEQS_MAX	(UTFCONV_TWOS_PREFIX + \
				 4 * UTFCONV_TWOS_RUN + 4 + \
				 4 * UTFCONV_TWOS_TAIL)	/* input bytes */

/*
 * @pre ASCII bytes, a run of @run characters of @k, ending @end, the
 * tail; its length, and in *@cut where the ending ends.
 */
static size_t utfconv_seqs_input8(const struct utfconv_long_seqs *k, u8 *in,
				  unsigned int pre, unsigned int run,
				  unsigned int end, size_t *cut)
{
	const u8 *e = k->ends[end];
	unsigned int i;
	size_t n = 0;

	for (i = 0; i < pre; i++)
		in[n++] = 0x61 + i % 26;
	for (i = 0; i < run; i++)
		n += utfconv_sweep_utf8(in + n,
					k->chars[(i + run + pre) % k->nchars]);
	memcpy(in + n, e + 1, e[0]);
	n += e[0];
	*cut = n;
	for (i = 0; i < UTFCONV_TWOS_TAIL; i++)
		n += utfconv_sweep_utf8(in + n, utfconv_twos_tail(i));
	return n;
}

/* One input of @k, whole and cut, both byte orders out. */
static bool utfconv_seqs_one(void *ctx, const struct utfconv_long_seqs *k,
			     const u8 *in, size_t n, size_t cut, u8 *buf)
{
	return utfconv_twos_one(ctx, k->name, UTFCONV_TEST_UTF8_TO_UTF16LE,
				in, n, buf) &&
	       utfconv_twos_one(ctx, k->name, UTFCONV_TEST_UTF8_TO_UTF16BE,
				in, n, buf) &&
	       utfconv_twos_one(ctx, k->name, UTFCONV_TEST_UTF8_TO_UTF16LE,
				in, cut, buf);
}

/* Every prefix, run length and ending of @k; false after a disagreement. */
static bool utfconv_seqs_kind(void *ctx, const struct utfconv_long_seqs *k,
			      u8 *in, u8 *buf)
{
	unsigned int i, pre, run, end;
	size_t n, cut;

	for (i = 0; i < UTFCONV_TWOS_PREFIX * UTFCONV_TWOS_RUN * k->nends; i++) {
		end = i % k->nends;
		run = 1 + i / k->nends % UTFCONV_TWOS_RUN;
		pre = i / k->nends / UTFCONV_TWOS_RUN;
		n = utfconv_seqs_input8(k, in, pre, run, end, &cut);
		if (!utfconv_seqs_one(ctx, k, in, n, cut, buf))
			return false;
	}
	return true;
}

/**
 * utfconv_check_long_seq_runs() - runs of three- and four-byte characters
 * @ctx: test context
 *
 * Every prefix, run length and ending of each kind, against the
 * reference model: output, errno, error offset and counters under every
 * policy, and an output buffer of just the output's size.
 */
void utfconv_check_long_seq_runs(void *ctx)
{
	u8 *in = UTFCONV_ALLOC(ctx, UTFCONV_SEQS_MAX);
	u8 *buf = UTFCONV_ALLOC(ctx, UTFCONV_TWOS_BUF);
	unsigned int k;

	if (!in || !buf)
		return;
	for (k = 0; k < ARRAY_SIZE(utfconv_long_seqs); k++)
		if (!utfconv_seqs_kind(ctx, &utfconv_long_seqs[k], in, buf))
			return;
}
