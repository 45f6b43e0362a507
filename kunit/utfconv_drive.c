// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv stream driver for the tests: feeds a complete input through
 * utfconv_convert() in given chunks with a given output capacity per
 * call, resumes after -E2BIG, and checks the calling contract on every
 * call (never more consumed or written than offered, a halted stream
 * stays halted, input after the end is refused, counters add up).
 * Linked into the KUnit module and the host tests.
 */

#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/utfconv.h>

#include "utfconv_drive.h"
#include "utfconv_paths.h"

static void utfconv_drive_fail(struct utfconv_drive_result *run,
			       const char *why)
{
	if (!run->fail)
		run->fail = why;
}

/**
 * utfconv_drive() - convert a complete input as a stream
 * @direction: source and target, numbered (enum utfconv_test_pair)
 * @policy: enum utfconv_policy
 * @flags: UTFCONV_STRIP_BOM, UTFCONV_EMIT_BOM
 * @in: input bytes
 * @in_bytes: length of @in
 * @cuts: ascending offsets in @in where a call's input ends (repeats
 *	give empty calls); the last call ends at @in_bytes with UTFCONV_END
 * @ncuts: entries in @cuts
 * @cap: output capacity offered per call; 0 for all of @out that is left
 * @out: output buffer
 * @out_cap: size of @out
 * @run: out: the outcome
 */
void utfconv_drive(u32 direction, u32 policy, u32 flags,
		   const u8 *in, size_t in_bytes, const size_t *cuts,
		   unsigned int ncuts, size_t cap, u8 *out,
		   size_t out_cap, struct utfconv_drive_result *run)
{
	struct utfconv_state *st = &run->st;
	size_t pos = 0, stop, room, used, wrote;
	unsigned int c, cflags;
	bool stalled = false;
	u64 sum_in = 0;
	int ret = 0, again;

	memset(run, 0, sizeof(*run));
	if (utfconv_test_pair_init(st, direction, policy, flags)) {
		utfconv_drive_fail(run, "utfconv_init() refused a valid config");
		return;
	}
	for (c = 0; c <= ncuts; c++) {
		stop = c < ncuts ? cuts[c] : in_bytes;
		cflags = c < ncuts ? 0 : UTFCONV_END;
		if (stop < pos || stop > in_bytes) {
			utfconv_drive_fail(run, "bad cut list");
			return;
		}
		for (;;) {
			room = out_cap - run->out_bytes;
			if (cap && cap < room && !stalled)
				room = cap;
			ret = utfconv_test_convert(st, in + pos, stop - pos, &used,
						   out + run->out_bytes, room, &wrote,
						   cflags);
			run->calls++;
			if (used > stop - pos)
				utfconv_drive_fail(run, "src_used beyond src_bytes");
			if (wrote > room)
				utfconv_drive_fail(run, "dst_used beyond dst_bytes");
			if (utfconv_pending_bytes(st) > UTFCONV_MAX_PENDING)
				utfconv_drive_fail(run, "more than 3 bytes pending");
			if (run->fail)
				return;
			pos += used;
			sum_in += used;
			run->out_bytes += wrote;
			stalled = false;
			if (ret != -E2BIG)
				break;
			if (used || wrote)
				continue;
			if (room >= UTFCONV_DRIVE_MAX_CHAR) {
				utfconv_drive_fail(run, "-E2BIG with room for any character");
				return;
			}
			/* give the next call all the room that is left */
			run->stalls++;
			stalled = true;
		}
		if (ret)
			break;
		if (pos != stop) {
			utfconv_drive_fail(run, "returned 0 with input left");
			return;
		}
	}
	run->err = ret;
	if (ret == -EILSEQ || ret == -EINVAL) {
		/* halted: the same errno again, nothing taken, nothing written */
		again = utfconv_test_convert(st, in + pos, in_bytes - pos, &used, out +
					     run->out_bytes, out_cap - run->out_bytes,
					     &wrote, UTFCONV_END);
		if (again != ret || used || wrote)
			utfconv_drive_fail(run, "halted stream did not stay halted");
		if (st->bytes_in != st->error_offset)
			utfconv_drive_fail(run, "bytes_in is not the error offset");
		if (st->error_kind != (ret == -EILSEQ ? UTFCONV_ILLFORMED :
				       UTFCONV_INCOMPLETE))
			utfconv_drive_fail(run, "error_kind does not match errno");
	} else if (ret) {
		utfconv_drive_fail(run, "unexpected errno");
	} else {
		if (!utfconv_ended(st))
			utfconv_drive_fail(run, "not ended after UTFCONV_END");
		if (utfconv_pending_bytes(st))
			utfconv_drive_fail(run, "bytes pending after the end");
		if (st->bytes_in != in_bytes || sum_in != in_bytes)
			utfconv_drive_fail(run, "bytes_in is not the input size");
		again = utfconv_test_convert(st, in, in_bytes ? 1 : 0, &used,
					     out + run->out_bytes,
					     out_cap - run->out_bytes, &wrote,
					     UTFCONV_END);
		if (in_bytes && (again != -EINVAL || used || wrote))
			utfconv_drive_fail(run, "input after the end not refused");
	}
	if (st->bytes_out != run->out_bytes)
		utfconv_drive_fail(run, "bytes_out is not the output size");
}

/**
 * utfconv_char_boundary() - whether @pos of an output is between characters
 * @utf16: the output is UTF-16
 * @be: UTF-16 output is big-endian
 * @out: the output
 * @len: its length
 * @pos: an offset in 0..@len
 *
 * Return: true at 0, at @len, and before any byte or unit that does not
 * continue a character (a UTF-8 continuation byte, or a trail surrogate
 * right after a lead).
 */
bool utfconv_char_boundary(bool utf16, bool be, const u8 *out,
			   size_t len, size_t pos)
{
	u16 prev, unit;

	if (pos == 0 || pos == len)
		return true;
	if (pos > len)
		return false;
	if (!utf16)
		return (out[pos] & 0xC0) != 0x80;
	if (pos % 2)
		return false;
	prev = be ? out[pos - 2] << 8 | out[pos - 1] :
		    out[pos - 1] << 8 | out[pos - 2];
	unit = be ? out[pos] << 8 | out[pos + 1] :
		    out[pos + 1] << 8 | out[pos];
	return !(prev >= 0xD800 && prev <= 0xDBFF &&
		 unit >= 0xDC00 && unit <= 0xDFFF);
}

/**
 * utfconv_drive_length() - output length of a complete input, counted
 * @direction: source and target, numbered (enum utfconv_test_pair)
 * @policy: enum utfconv_policy
 * @flags: UTFCONV_STRIP_BOM, UTFCONV_EMIT_BOM
 * @in: input bytes, the whole stream
 * @in_bytes: length of @in
 * @error_offset: out, may be NULL: the stream's error offset when it
 *	halted on bad input; not written otherwise
 *
 * A caller that sizes its buffer first: one stream through a 128-byte
 * window, so that the codec runs with a small output room on every call
 * (the SIMD paths stay out of such calls), its counts added up.
 *
 * Return: the output bytes, or the errno that stopped the stream.
 */
ssize_t utfconv_drive_length(u32 direction, u32 policy, u32 flags,
			     const void *in, size_t in_bytes,
			     u64 *error_offset)
{
	struct utfconv_state st;
	size_t total = 0, used, wrote;
	u8 win[128];
	int ret;

	ret = utfconv_test_pair_init(&st, direction, policy, flags);
	if (ret)
		return ret;
	do {
		ret = utfconv_test_convert(&st, in, in_bytes, &used, win,
					   sizeof(win), &wrote, UTFCONV_END);
		in = (const u8 *)in + used;
		in_bytes -= used;
		total += wrote;
	} while (ret == -E2BIG && (used || wrote));
	if (error_offset && utfconv_error(&st))
		*error_offset = st.error_offset;
	return ret ? ret : total;
}
