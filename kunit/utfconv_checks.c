// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv checks shared by the KUnit suites and the host tests: each
 * function runs one kind of check on one vector or input (against the
 * vector's expected outcome and the reference model, whole, split at every
 * point, at every output capacity) and reports every broken expectation,
 * with the values, through utfconv_expect.h; scratch memory comes from
 * utfconv_test_alloc(), freed by the program after the test.
 */

#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/utfconv.h>

#include "../kmod/utfconv_codec.h"
#include "utfconv_checks.h"
#include "utfconv_drive.h"
#include "utfconv_encode.h"
#include "utfconv_expect.h"
#include "utfconv_paths.h"
#include "utfconv_ref.h"

static inline void utfconv_expect_vector(const struct utfconv_vector *v,
					 struct utfconv_expect *e)
{
	e->out = v->out;
	e->out_bytes = v->out_bytes;
	e->err = utfconv_vector_errno(v);
	e->error_kind = v->error_kind;
	e->error_offset = e->error_kind ? v->error_offset : 0;
	e->code_points = v->code_points;
	e->replacements = v->replacements;
	e->bytes_in = e->err ? v->error_offset : v->in_bytes;
}

/* Output bytes: their length, and the bytes both have; @how names the run. */
void utfconv_check_bytes(void *ctx, const char *name, const char *how,
			 const u8 *got, size_t got_bytes,
			 const u8 *want, size_t want_bytes)
{
	size_t both = min(got_bytes, want_bytes);

	UTFCONV_EXPECT_EQ(ctx, got_bytes, want_bytes,
			  "%s (%s): output bytes", name, how);
	if (both)
		UTFCONV_EXPECT_MEMEQ(ctx, got, want, both, "%s (%s): output",
				     name, how);
}

/* Output room for any stream of @in_bytes, with slack for the poison. */
static inline size_t utfconv_room(const struct utfconv_vector *v)
{
	return utfconv_ref_out_max(v->direction, v->in_bytes) + 16;
}

/* Every field of an outcome against the expected one; @how names the run. */
static void utfconv_check_expect(void *ctx, const char *name, const char *how,
				 const struct utfconv_expect *got,
				 const struct utfconv_expect *want)
{
	UTFCONV_EXPECT_EQ(ctx, got->err, want->err, "%s (%s): errno", name,
			  how);
	utfconv_check_bytes(ctx, name, how, got->out, got->out_bytes,
			    want->out, want->out_bytes);
	UTFCONV_EXPECT_EQ(ctx, got->error_kind, want->error_kind,
			  "%s (%s): error_kind", name, how);
	if (got->error_kind || want->error_kind)
		UTFCONV_EXPECT_EQ(ctx, got->error_offset, want->error_offset,
				  "%s (%s): error_offset", name, how);
	UTFCONV_EXPECT_EQ(ctx, got->bytes_in, want->bytes_in,
			  "%s (%s): bytes_in", name, how);
	UTFCONV_EXPECT_EQ(ctx, got->code_points, want->code_points,
			  "%s (%s): code_points", name, how);
	UTFCONV_EXPECT_EQ(ctx, got->replacements, want->replacements,
			  "%s (%s): replacements", name, how);
}

/* The outcome of a stream: @out_bytes of @out, and the counters of @st. */
static inline void utfconv_expect_state(const struct utfconv_state *st,
					int err, const u8 *out,
					size_t out_bytes,
					struct utfconv_expect *e)
{
	e->out = out;
	e->out_bytes = out_bytes;
	e->err = err;
	e->error_kind = st->error_kind;
	e->error_offset = st->error_offset;
	e->code_points = st->code_points;
	e->replacements = st->replacements;
	e->bytes_in = st->bytes_in;
}

/* Compare a driven run with what was expected; @how names the run. */
static void utfconv_check_run(void *ctx, const char *name, const char *how,
			      const struct utfconv_drive_result *run,
			      const u8 *out, const struct utfconv_expect *e)
{
	struct utfconv_expect got;

	UTFCONV_CHECK(ctx, !run->fail, "%s (%s): %s", name, how,
		      run->fail ? run->fail : "");
	utfconv_expect_state(&run->st, run->err, out, run->out_bytes, &got);
	utfconv_check_expect(ctx, name, how, &got, e);
	UTFCONV_EXPECT_EQ(ctx, run->st.bytes_out, e->out_bytes,
			  "%s (%s): bytes_out", name, how);
}

/**
 * utfconv_check_convert() - one input under a given chunking and capacity
 * @ctx: test context
 * @name: what is converted
 * @how: how it is chunked
 * @direction: source and target, numbered (enum utfconv_test_pair)
 * @policy: enum utfconv_policy
 * @flags: UTFCONV_STRIP_BOM, UTFCONV_EMIT_BOM
 * @in: input
 * @in_bytes: its length
 * @cuts: call boundaries, see utfconv_drive()
 * @ncuts: entries in @cuts
 * @cap: output capacity per call, 0 for unlimited
 * @e: expected outcome
 */
void utfconv_check_convert(void *ctx, const char *name,
			   const char *how, u32 direction, u32 policy,
			   u32 flags, const u8 *in, size_t in_bytes,
			   const size_t *cuts, unsigned int ncuts,
			   size_t cap, const struct utfconv_expect *e)
{
	size_t room = utfconv_ref_out_max(direction, in_bytes) + 16;
	u8 *out = UTFCONV_ALLOC(ctx, room);
	struct utfconv_drive_result run;

	if (!out)
		return;
	utfconv_drive(direction, policy, flags, in, in_bytes, cuts, ncuts,
		      cap, out, room, &run);
	utfconv_check_run(ctx, name, how, &run, out, e);
}

/* The table row agrees with the reference model (checks the test itself). */
void utfconv_check_vector_reference(void *ctx,
				    const struct utfconv_vector *v)
{
	u8 *out = UTFCONV_ALLOC(ctx, utfconv_room(v));
	struct utfconv_expect e, got;
	struct utfconv_ref r;

	if (!out)
		return;
	utfconv_ref_convert(v->direction, v->policy, v->flags, v->in,
			    v->in_bytes, out, &r);
	utfconv_expect_vector(v, &e);
	utfconv_expect_ref(&r, &got);
	utfconv_check_expect(ctx, v->name, "reference model vs the table",
			     &got, &e);
}

/* One call with UTFCONV_END, then the field report's write() boundaries. */
void utfconv_check_vector_oneshot(void *ctx,
				  const struct utfconv_vector *v)
{
	size_t cuts[UTFCONV_VEC_MAX_SPLITS];
	struct utfconv_expect e;
	unsigned int i;

	utfconv_expect_vector(v, &e);
	utfconv_check_convert(ctx, v->name, "one call", v->direction,
			      v->policy, v->flags, v->in, v->in_bytes, NULL,
			      0, 0, &e);
	for (i = 0; i < v->nsplits; i++)
		cuts[i] = v->splits[i];
	if (v->nsplits)
		utfconv_check_convert(ctx, v->name, "reported writes",
				      v->direction, v->policy, v->flags, v->in,
				      v->in_bytes, cuts, v->nsplits, 0, &e);
}

/*
 * utfconv_buf(), a stream through a 128-byte window and
 * utfconv_max_length() agree.
 */
void utfconv_check_vector_oneshot_api(void *ctx,
				      const struct utfconv_vector *v)
{
	size_t room = utfconv_room(v), bound;
	u8 *out = UTFCONV_ALLOC(ctx, room);
	int err = utfconv_vector_errno(v);
	u64 off = ~0ULL;
	ssize_t ret;

	if (!out)
		return;
	ret = utfconv_test_buf(v->direction, v->policy, v->flags, v->in,
			       v->in_bytes, out, room, &off);
	if (err) {
		UTFCONV_EXPECT_EQ(ctx, ret, err, "%s: utfconv_buf()", v->name);
		UTFCONV_EXPECT_EQ(ctx, off, v->error_offset,
				  "%s: utfconv_buf() error offset", v->name);
	} else {
		UTFCONV_EXPECT_EQ(ctx, ret, (ssize_t)v->out_bytes,
				  "%s: utfconv_buf()", v->name);
		if (ret == v->out_bytes && ret)
			UTFCONV_EXPECT_MEMEQ(ctx, out, v->out, v->out_bytes,
					     "%s: utfconv_buf() output",
					     v->name);
		if (v->out_bytes) {
			ret = utfconv_test_buf(v->direction, v->policy, v->flags,
					       v->in, v->in_bytes, out,
					       v->out_bytes - 1, NULL);
			UTFCONV_EXPECT_EQ(ctx, ret, -E2BIG,
					  "%s: utfconv_buf() one byte short",
					  v->name);
		}
	}
	off = ~0ULL;
	ret = utfconv_drive_length(v->direction, v->policy, v->flags, v->in,
				   v->in_bytes, &off);
	UTFCONV_EXPECT_EQ(ctx, ret, err ? err : (ssize_t)v->out_bytes,
			  "%s: length through a 128-byte window", v->name);
	if (err)
		UTFCONV_EXPECT_EQ(ctx, off, v->error_offset,
				  "%s: error offset through a 128-byte window",
				  v->name);
	bound = utfconv_test_pair_max_length(v->direction, v->flags, v->in_bytes);
	UTFCONV_CHECK(ctx, bound >= v->out_bytes,
		      "%s: utfconv_max_length() %zu below %zu", v->name, bound,
		      v->out_bytes);
}

u32 utfconv_reverse_direction(u32 direction)
{
	switch (direction) {
	case UTFCONV_TEST_UTF8_TO_UTF16LE:
		return UTFCONV_TEST_UTF16LE_TO_UTF8;
	case UTFCONV_TEST_UTF8_TO_UTF16BE:
		return UTFCONV_TEST_UTF16BE_TO_UTF8;
	case UTFCONV_TEST_UTF16LE_TO_UTF8:
		return UTFCONV_TEST_UTF8_TO_UTF16LE;
	case UTFCONV_TEST_UTF16BE_TO_UTF8:
		return UTFCONV_TEST_UTF8_TO_UTF16BE;
	default:
		return 0;
	}
}

/*
 * A row without errors or BOM flags: every policy gives the same output,
 * the reverse direction gives the input back, and so does the trip
 * through the other byte order.
 */
void utfconv_check_vector_reverse(void *ctx,
				  const struct utfconv_vector *v)
{
	u32 back = utfconv_reverse_direction(v->direction);
	u32 other, policy, p;
	struct utfconv_expect e;
	struct utfconv_ref r;
	size_t room;
	u8 *mid;
	ssize_t n;

	if (v->error_kind || v->flags || !back)
		return;
	utfconv_expect_vector(v, &e);
	for (p = UTFCONV_STRICT; p <= UTFCONV_TEST_POLICY_LAST; p++) {
		/* lone surrogates are data only under WTF-8 */
		if (p != v->policy && v->policy == UTFCONV_WTF8)
			continue;
		utfconv_check_convert(ctx, v->name, "other policy",
				      v->direction, p, 0, v->in, v->in_bytes,
				      NULL, 0, 0, &e);
	}
	policy = v->policy;
	memset(&e, 0, sizeof(e));
	e.out = v->in;
	e.out_bytes = v->in_bytes;
	e.code_points = v->code_points;
	e.bytes_in = v->out_bytes;
	utfconv_check_convert(ctx, v->name, "reverse", back, policy, 0,
			      v->out, v->out_bytes, NULL, 0, 0, &e);

	/* UTF-8 -> UTF-16LE -> UTF-16BE (via UTF-8) and back */
	room = utfconv_ref_out_max(v->direction, v->in_bytes) +
	       utfconv_ref_out_max(back, v->out_bytes) + 16;
	mid = UTFCONV_ALLOC(ctx, room);
	if (!mid)
		return;
	if (utfconv_utf16_out(v->direction)) {
		other = v->direction == UTFCONV_TEST_UTF8_TO_UTF16LE ?
			UTFCONV_TEST_UTF8_TO_UTF16BE :
			UTFCONV_TEST_UTF8_TO_UTF16LE;
		n = utfconv_test_buf(other, policy, 0, v->in, v->in_bytes, mid, room,
				     NULL);
		UTFCONV_CHECK(ctx, n >= 0, "%s: other byte order: %zd",
			      v->name, n);
		if (n < 0)
			return;
		utfconv_check_convert(ctx, v->name, "other byte order back",
				      utfconv_reverse_direction(other), policy,
				      0, mid, n, NULL, 0, 0, &e);
	} else {
		/* UTF-16 -> UTF-8 -> UTF-16 in the other order, and back */
		other = v->direction == UTFCONV_TEST_UTF16LE_TO_UTF8 ?
			UTFCONV_TEST_UTF8_TO_UTF16BE :
			UTFCONV_TEST_UTF8_TO_UTF16LE;
		n = utfconv_test_buf(other, policy, 0, v->out, v->out_bytes, mid,
				     room, NULL);
		UTFCONV_EXPECT_EQ(ctx, n, (ssize_t)v->in_bytes,
				  "%s: other byte order", v->name);
		if (n != v->in_bytes)
			return;
		utfconv_ref_convert(utfconv_reverse_direction(other), policy,
				    0, mid, n, mid + n, &r);
		UTFCONV_EXPECT_EQ(ctx, r.err, 0,
				  "%s: other byte order decoded back", v->name);
		utfconv_check_bytes(ctx, v->name, "other byte order decoded back",
				    r.out, r.out_bytes, v->out, v->out_bytes);
	}
}

/* Every single split point, empty calls, byte by byte, every split pair. */
void utfconv_check_vector_chunking(void *ctx,
				   const struct utfconv_vector *v)
{
	size_t *cuts = UTFCONV_ALLOC(ctx, (2 * v->in_bytes + 4) *
				     sizeof(*cuts));
	struct utfconv_expect e;
	size_t i, j, n;

	if (!cuts)
		return;
	utfconv_expect_vector(v, &e);
	for (i = 0; i <= v->in_bytes; i++) {
		cuts[0] = i;
		utfconv_check_convert(ctx, v->name, "one split", v->direction,
				      v->policy, v->flags, v->in, v->in_bytes,
				      cuts, 1, 0, &e);
		cuts[1] = i;
		utfconv_check_convert(ctx, v->name, "one split, empty call",
				      v->direction, v->policy, v->flags, v->in,
				      v->in_bytes, cuts, 2, 0, &e);
	}
	for (i = 0, n = 0; i < v->in_bytes; i++) {
		cuts[n++] = i;
		cuts[n++] = i;
	}
	utfconv_check_convert(ctx, v->name, "byte by byte, empty calls",
			      v->direction, v->policy, v->flags, v->in,
			      v->in_bytes, cuts, n, 0, &e);
	for (i = 0; i < v->in_bytes; i++)
		cuts[i] = i + 1;
	utfconv_check_convert(ctx, v->name, "byte by byte", v->direction,
			      v->policy, v->flags, v->in, v->in_bytes, cuts,
			      v->in_bytes, 0, &e);
	if (v->in_bytes > 16)
		return;
	for (i = 1; i < v->in_bytes; i++) {
		for (j = i + 1; j < v->in_bytes; j++) {
			cuts[0] = i;
			cuts[1] = j;
			utfconv_check_convert(ctx, v->name, "two splits",
					      v->direction, v->policy,
					      v->flags, v->in, v->in_bytes,
					      cuts, 2, 0, &e);
		}
	}
}

/*
 * One call with output capacity @cap: never past it (poison intact),
 * whole characters only, as many as fit; resuming gives the same stream.
 */
static void utfconv_check_capacity_one(void *ctx,
				       const struct utfconv_vector *v,
				       size_t cap, u8 *out, size_t room,
				       const struct utfconv_expect *e)
{
	bool utf16 = utfconv_utf16_out(v->direction);
	bool be = v->direction == UTFCONV_TEST_UTF8_TO_UTF16BE;
	size_t used, wrote, i, next, u2, w2;
	struct utfconv_expect got;
	struct utfconv_state st;
	int ret;

	memset(out, UTFCONV_POISON, room);
	utfconv_test_pair_init(&st, v->direction, v->policy, v->flags);
	ret = utfconv_test_convert(&st, v->in, v->in_bytes, &used, out, cap, &wrote,
				   UTFCONV_END);
	UTFCONV_EXPECT_EQ(ctx, ret, cap >= v->out_bytes ? e->err : -E2BIG,
			  "%s: capacity %zu: returned", v->name, cap);
	UTFCONV_CHECK(ctx, wrote <= cap && used <= v->in_bytes,
		      "%s: capacity %zu: wrote %zu, used %zu", v->name, cap,
		      wrote, used);
	for (i = cap; i < room; i++)
		if (out[i] != UTFCONV_POISON)
			break;
	UTFCONV_EXPECT_EQ(ctx, i, room,
			  "%s: capacity %zu: first byte past it written",
			  v->name, cap);
	if (wrote > cap)
		return;
	UTFCONV_CHECK(ctx, wrote <= v->out_bytes &&
		      utfconv_char_boundary(utf16, be, v->out, v->out_bytes,
					    wrote),
		      "%s: capacity %zu: %zu bytes are not whole characters of the %zu-byte output",
		      v->name, cap, wrote, v->out_bytes);
	if (wrote && wrote <= v->out_bytes)
		UTFCONV_EXPECT_MEMEQ(ctx, out, v->out, wrote,
				     "%s: capacity %zu: output", v->name, cap);
	if (ret == -E2BIG) {
		for (next = wrote + 1; next < v->out_bytes; next++)
			if (utfconv_char_boundary(utf16, be, v->out,
						  v->out_bytes, next))
				break;
		UTFCONV_CHECK(ctx, next > cap,
			      "%s: capacity %zu: stopped at %zu, next character ends at %zu",
			      v->name, cap, wrote, next);
		/* resume with the rest and all the room */
		ret = utfconv_test_convert(&st, v->in + used, v->in_bytes - used,
					   &u2, out + wrote, room - wrote, &w2,
					   UTFCONV_END);
		wrote += w2;
	}
	utfconv_expect_state(&st, ret, out, wrote, &got);
	utfconv_check_expect(ctx, v->name, "resumed after a capacity", &got, e);
	UTFCONV_EXPECT_EQ(ctx, st.bytes_out, v->out_bytes,
			  "%s: capacity %zu: resumed bytes_out", v->name, cap);
}

/*
 * Every output capacity from 0 up (utfconv_check_capacity_one()), then
 * every small capacity per call for the whole stream.
 */
void utfconv_check_vector_capacity(void *ctx,
				   const struct utfconv_vector *v)
{
	size_t room = utfconv_room(v), cap;
	u8 *out = UTFCONV_ALLOC(ctx, room);
	struct utfconv_expect e;

	if (!out)
		return;
	utfconv_expect_vector(v, &e);
	for (cap = 0; cap <= v->out_bytes + UTFCONV_DRIVE_MAX_CHAR; cap++)
		utfconv_check_capacity_one(ctx, v, cap, out, room, &e);
	for (cap = 1; cap <= 2 * UTFCONV_DRIVE_MAX_CHAR; cap++)
		utfconv_check_convert(ctx, v->name, "small capacity per call",
				      v->direction, v->policy, v->flags, v->in,
				      v->in_bytes, NULL, 0, cap, &e);
}

/**
 * utfconv_check_against_ref() - the codec agrees with the reference model
 * @ctx: test context
 * @name: what is converted
 * @direction: source and target, numbered (enum utfconv_test_pair)
 * @policy: enum utfconv_policy
 * @flags: UTFCONV_STRIP_BOM, UTFCONV_EMIT_BOM
 * @in: input
 * @in_bytes: its length
 * @buf: scratch of at least 2 * utfconv_ref_out_max(@direction, @in_bytes)
 *
 * Return: true if they agree (one call through utfconv_buf() and the
 * stream counters of one utfconv_convert() call).
 */
bool utfconv_check_against_ref(void *ctx, const char *name,
			       u32 direction, u32 policy, u32 flags,
			       const u8 *in, size_t in_bytes, u8 *buf)
{
	size_t room = utfconv_ref_out_max(direction, in_bytes);
	u8 *out = buf + room;
	struct utfconv_expect got, want;
	struct utfconv_state st;
	struct utfconv_ref r;
	size_t used, wrote;
	int ret;
	bool ok;

	utfconv_ref_convert(direction, policy, flags, in, in_bytes, buf, &r);
	utfconv_test_pair_init(&st, direction, policy, flags);
	ret = utfconv_test_convert(&st, in, in_bytes, &used, out, room, &wrote,
				   UTFCONV_END);
	ok = ret == r.err && wrote == r.out_bytes &&
	     !memcmp(out, r.out, wrote) && st.error_kind == r.error_kind &&
	     (!r.error_kind || st.error_offset == r.error_offset) &&
	     st.code_points == r.code_points &&
	     st.replacements == r.replacements && st.bytes_in == r.bytes_in;
	if (ok)
		return true;
	/* which input, then each value that differs */
	UTFCONV_CHECK(ctx, ok, "%s: dir %u policy %u flags %u, %zu bytes %*ph",
		      name, direction, policy, flags, in_bytes,
		      (int)min_t(size_t, in_bytes, 16), in);
	utfconv_expect_state(&st, ret, out, wrote, &got);
	utfconv_expect_ref(&r, &want);
	utfconv_check_expect(ctx, name, "codec vs reference", &got, &want);
	return false;
}
