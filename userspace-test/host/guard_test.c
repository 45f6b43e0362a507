// SPDX-License-Identifier: GPL-2.0
/*
 * Guard-page differential test of the utfconv codec paths: every input is
 * placed so that it ends exactly at a PROT_NONE page, and every output
 * buffer ends exactly at one, so that a read past the input or a write
 * past the output buffer faults at once (the block and SIMD paths may
 * look and write ahead, never beyond the ends). Each case runs under
 * every codec path (enum utfconv_path 0 to 7, passed to the library's
 * path entries; the AVX-512 paths, 7, only where the CPU has them, and
 * the run says so where it does not) and must give, call for call, the same status,
 * bytes used, output and counters as the scalar path (0); the scalar path
 * must agree with the reference model
 * (kunit/utfconv_ref.h).
 *
 * The texts are runs of characters of one UTF-8 length (1, 2, 3 or 4
 * bytes, the edges U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF
 * often), or characters of one to three (or four) bytes mixed, with
 * faults injected: C0/C1 and F5..FF leads, overlong and
 * out-of-range second bytes (E0 80..9F, F0 80..8F, F4 90..BF), encoded
 * surrogates (ED A0..BF), lone and missing continuation bytes; in UTF-16,
 * lone and swapped surrogates and a dropped byte. Lengths 0..300, around
 * 512 and 4096, and up to about 9000 bytes. Output capacities: exact fit,
 * exact fit minus 1..4, random; the stream API with random chunks and a
 * random capacity per call.
 *
 * Usage: guard_test [-n CASES] [-S SEED] [-v]
 * Default: 20000 cases, about 7 s under ASan on one core (host.mk's
 * host-check, GUARD_CASES=N for more; host-guard runs GUARD_LONG_CASES).
 * Exits 1 on any difference or on a fault at a guard page, printing the
 * case (direction, policy, flags, path, seed, input in hex).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/types.h>
#include <linux/utfconv.h>

#include "utfconv_encode.h"
#include "utfconv_ref.h"
#include "../../kmod/utfconv_codec.h"
#include "../../kmod/utfconv_simd.h"

/* the path of the case's conversions (kunit/utfconv_paths.h) */
static enum utfconv_path guard_path;
#include "utfconv_paths.h"

/* What the test units (kunit/utfconv_expect.h) ask of a program */
enum utfconv_path utfconv_test_path(void)
{
	return guard_path;
}

void utfconv_test_yield(void)
{
}

#define GUARD_MAX_IN	9200
#define GUARD_MAX_OUT	(2 * GUARD_MAX_IN + 64)
#define GUARD_MODES	8
#define GUARD_CANARY	64

static u64 guard_rng_state;
static int verbose;
/* the codec paths to run: the AVX-512 one (7) only where the CPU has it */
static int guard_modes = GUARD_MODES;

static u64 guard_rng(void)
{
	u64 x = guard_rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	guard_rng_state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static u32 guard_below(u32 n)
{
	return n ? (u32)(guard_rng() % n) : 0;
}

/**
 * struct guard_area - a buffer whose end is followed by a PROT_NONE page
 * @base: start of the mapping
 * @end: first byte of the PROT_NONE page
 */
struct guard_area {
	u8 *base;
	u8 *end;
};

static void guard_map(struct guard_area *g, size_t bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (bytes + GUARD_CANARY + page - 1) / page * page;

	g->base = mmap(NULL, len + page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->base == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	g->end = g->base + len;
	if (mprotect(g->end, page, PROT_NONE)) {
		perror("mprotect");
		exit(2);
	}
}

static struct guard_area guard_in, guard_out;

/* @n bytes of @src placed to end at the input guard page. */
static const u8 *guard_place(const u8 *src, size_t n)
{
	u8 *p = guard_in.end - n;

	memcpy(p, src, n);
	return p;
}

/* An output buffer of @cap bytes ending at the guard page, canary before. */
static u8 *guard_outbuf(size_t cap)
{
	u8 *p = guard_out.end - cap;

	memset(p - GUARD_CANARY, 0x5A, GUARD_CANARY);
	return p;
}

static bool guard_canary_ok(const u8 *p)
{
	unsigned int i;

	for (i = 1; i <= GUARD_CANARY; i++)
		if (p[-(int)i] != 0x5A)
			return false;
	return true;
}

/* A code point of UTF-8 length @len, the edges of its range often. */
static u32 guard_cp(unsigned int len)
{
	static const u32 edge[4][6] = {
		{ 0x00, 0x7F, 0x41, 0x20, 0x0A, 0x7E },
		{ 0x80, 0x7FF, 0xFF, 0x100, 0x430, 0x5D0 },
		{ 0x800, 0xD7FF, 0xE000, 0xFFFF, 0xFEFF, 0x4E2D },
		{ 0x10000, 0x10FFFF, 0x1F600, 0xFFFFF, 0x100000, 0x1FFFF },
	};
	static const u32 lo[4] = { 0, 0x80, 0x800, 0x10000 };
	static const u32 span[4] = { 0x80, 0x780, 0xF800, 0x100000 };
	u32 cp;

	if (!guard_below(4))
		return edge[len - 1][guard_below(6)];
	cp = lo[len - 1] + guard_below(span[len - 1]);
	if (len == 3 && cp >= 0xD800 && cp < 0xE000)
		cp += 0x800;
	return cp;
}

/*
 * An ill-formed UTF-8 piece at @d (1 to 3 bytes); returns its length.
 * Each piece: a lead byte from @lead to @lead + @leads - 1, a second byte
 * from @lo to @lo + @span - 1 (none if @span is 0), then a continuation
 * byte if @third.
 */
static size_t guard_fault8(u8 *d)
{
	static const struct {
		u8 lead, leads, lo, span;
		bool third;
	} pieces[] = {
		{ 0xC0, 2, 0x80, 0x40, false },	/* overlong two-byte lead */
		{ 0xE0, 1, 0x80, 0x20, true },	/* overlong three-byte form */
		{ 0xED, 1, 0xA0, 0x20, true },	/* surrogate */
		{ 0xF0, 1, 0x80, 0x10, true },	/* overlong four-byte form */
		{ 0xF4, 1, 0x90, 0x30, true },	/* above U+10FFFF */
		{ 0xF5, 11, 0, 0, false },	/* never a lead */
		{ 0x80, 0x40, 0, 0, false },	/* lone continuation byte */
		{ 0xE1, 12, 0x80, 0x40, false },	/* last byte missing */
		{ 0xC2, 30, 0, 0, false },	/* continuation missing */
	};
	unsigned int i = guard_below(ARRAY_SIZE(pieces));
	size_t n = 1;

	d[0] = pieces[i].lead + guard_below(pieces[i].leads);
	if (pieces[i].span)
		d[n++] = pieces[i].lo + guard_below(pieces[i].span);
	if (pieces[i].third)
		d[n++] = 0x80 + guard_below(0x40);
	return n;
}

/* An ill-formed UTF-16 piece at @d (1 to 4 bytes); returns its length. */
static size_t guard_fault16(u8 *d, bool be)
{
	switch (guard_below(4)) {
	case 0:
		utfconv_sweep_unit(d, 0xD800 + guard_below(0x400), be);
		return 2;
	case 1:
		utfconv_sweep_unit(d, 0xDC00 + guard_below(0x400), be);
		return 2;
	case 2:	/* a pair in the wrong order */
		utfconv_sweep_unit(d, 0xDC00 + guard_below(0x400), be);
		utfconv_sweep_unit(d + 2, 0xD800 + guard_below(0x400), be);
		return 4;
	default:	/* one byte: what follows is out of step */
		d[0] = guard_rng();
		return 1;
	}
}

/*
 * A text of exactly @n bytes at @d for input of direction @dir: runs of
 * one UTF-8 length (one run for the whole text half the time), a fault
 * now and then when @faults; the last character may be cut short.
 */
static void guard_text(u8 *d, size_t n, u32 dir, bool faults)
{
	bool utf8 = dir <= UTFCONV_TEST_UTF8_TO_UTF16BE;
	bool be = dir == UTFCONV_TEST_UTF16BE_TO_UTF8 ||
		  (dir == UTFCONV_TEST_UTF16_TO_UTF8 && guard_below(2));
	unsigned int len = 1 + guard_below(4), run = guard_below(2) ?
			   ~0U : 1 + guard_below(80);
	/* a quarter of the texts: each character of any length but the last */
	unsigned int mix = guard_below(4) ? 0 : 3 + guard_below(2);
	u32 rate = faults ? 1 + guard_below(3000) : 0;
	u8 tmp[GUARD_MAX_IN + 8];
	size_t o = 0;

	while (o < n) {
		if (mix) {
			len = 1 + guard_below(mix);
		} else if (!run--) {
			len = 1 + guard_below(4);
			run = guard_below(80);
		}
		if (rate && guard_below(rate) < 4)
			o += utf8 ? guard_fault8(tmp + o) :
			     guard_fault16(tmp + o, be);
		else if (utf8)
			o += utfconv_sweep_utf8(tmp + o, guard_cp(len));
		else
			o += utfconv_sweep_utf16(tmp + o, guard_cp(len), be);
	}
	memcpy(d, tmp, n);
}

/**
 * struct guard_run - what one codec path made of a case
 * @hash: FNV-1a of every call's status, bytes used and output
 * @out: the output of all calls, in order
 * @out_bytes: its length
 * @st: the stream state after the last call
 * @buf_ret: utfconv_buf() results at the case's capacities
 * @buf_off: their error offsets
 * @buf_hash: FNV-1a of their output
 */
struct guard_run {
	u64 hash;
	u8 out[GUARD_MAX_OUT];
	size_t out_bytes;
	struct utfconv_state st;
	ssize_t buf_ret[8];
	u64 buf_off[8];
	u64 buf_hash[8];
};

static u64 guard_fnv(u64 h, const void *p, size_t n)
{
	const u8 *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001B3ULL;
	return h;
}

/**
 * struct guard_case - one input and the way it is fed to the codec
 * @dir: enum utfconv_test_pair
 * @pol: enum utfconv_policy
 * @flags: UTFCONV_STRIP_BOM, UTFCONV_EMIT_BOM
 * @in: the input
 * @n: its length
 * @seed: seed of the chunk and capacity choices, the same for every path
 * @caps: utfconv_buf() capacities
 */
struct guard_case {
	u32 dir, pol, flags;
	u8 in[GUARD_MAX_IN];
	size_t n;
	u64 seed;
	size_t caps[8];
};

static const char *guard_fail_why;

static void guard_stream(const struct guard_case *c, struct guard_run *r)
{
	size_t pos = 0, chunk, cap, in_used, out_used, full = GUARD_MAX_OUT;
	unsigned int style;
	int ret = 0;

	utfconv_test_pair_init(&r->st, c->dir, c->pol, c->flags);
	r->hash = 0xCBF29CE484222325ULL;
	r->out_bytes = 0;
	guard_rng_state = c->seed;
	style = guard_below(4);
	do {
		const u8 *src;
		u8 *dst;
		bool end;

		chunk = c->n - pos;
		if (style == 1)
			chunk = guard_below(17);
		else if (style == 2)
			chunk = guard_below(700);
		else if (style == 3)
			chunk = guard_below(5000);
		if (chunk > c->n - pos)
			chunk = c->n - pos;
		end = pos + chunk == c->n;
		switch (guard_below(4)) {
		case 0:
			cap = guard_below(40);
			break;
		case 1:
			cap = guard_below(1200);
			break;
		case 2:
			cap = 500 + guard_below(30);
			break;
		default:
			cap = full;
		}
		/* after a call that made no room: enough for the next one */
		if (ret == -E2BIG)
			cap = full;
		src = guard_place(c->in + pos, chunk);
		dst = guard_outbuf(cap);
		ret = utfconv_test_convert(&r->st, src, chunk, &in_used, dst, cap,
					   &out_used, end ? UTFCONV_END : 0);
		if (!guard_canary_ok(dst)) {
			guard_fail_why = "write before the output buffer";
			return;
		}
		r->hash = guard_fnv(r->hash, &ret, sizeof(ret));
		r->hash = guard_fnv(r->hash, &in_used, sizeof(in_used));
		r->hash = guard_fnv(r->hash, &out_used, sizeof(out_used));
		r->hash = guard_fnv(r->hash, dst, out_used);
		if (out_used > cap || in_used > chunk ||
		    r->out_bytes + out_used > GUARD_MAX_OUT) {
			guard_fail_why = "used more than given";
			return;
		}
		memcpy(r->out + r->out_bytes, dst, out_used);
		r->out_bytes += out_used;
		pos += in_used;
		if (ret == -E2BIG && !out_used && cap == full) {
			guard_fail_why = "-E2BIG with the whole output free";
			return;
		}
	} while ((ret == 0 && pos < c->n) || ret == -E2BIG ||
		 (ret == 0 && pos == c->n && !utfconv_ended(&r->st)));
	r->hash = guard_fnv(r->hash, &r->st, sizeof(r->st));
}

static void guard_bufs(const struct guard_case *c, struct guard_run *r)
{
	const u8 *src = guard_place(c->in, c->n);
	unsigned int i;

	for (i = 0; i < 8; i++) {
		u8 *dst = guard_outbuf(c->caps[i]);
		ssize_t ret;

		r->buf_off[i] = ~0ULL;
		ret = utfconv_test_buf(c->dir, c->pol, c->flags, src, c->n, dst,
				       c->caps[i], &r->buf_off[i]);
		r->buf_ret[i] = ret;
		r->buf_hash[i] = guard_fnv(0, dst, ret > 0 ? ret : 0);
		if (!guard_canary_ok(dst))
			guard_fail_why = "utfconv_buf() wrote before the buffer";
	}
	/* the drop-ins' converter, which reads up to a NUL as it goes */
	if (c->dir != UTFCONV_TEST_UTF16_TO_UTF8) {
		u8 *dst = guard_outbuf(c->caps[7]);
		ssize_t ret = utfconv_test_buf_to_nul(c->dir, c->pol, src, c->n,
						      dst, c->caps[7]);

		r->hash = guard_fnv(r->hash, &ret, sizeof(ret));
		r->hash = guard_fnv(r->hash, dst, ret > 0 ? ret : 0);
		if (!guard_canary_ok(dst))
			guard_fail_why = "utfconv_buf_to_nul() wrote before the buffer";
	}
}

static void guard_dump(const struct guard_case *c, int mode, const char *why)
{
	size_t i;

	fprintf(stderr,
		"guard_test: FAIL: %s: dir %u pol %u flags %u path %d seed %#llx n %zu\n  input:",
		why, c->dir, c->pol, c->flags, mode,
		(unsigned long long)c->seed, c->n);
	for (i = 0; i < c->n; i++)
		fprintf(stderr, "%s%02x", i % 32 ? " " : "\n  ", c->in[i]);
	fputc('\n', stderr);
}

/* the case and path running, for the fault handler */
static const struct guard_case *guard_cur;
static int guard_cur_mode;

/* A read or write reached a guard page: name the case, then stop. */
static void guard_fault(int sig)
{
	guard_dump(guard_cur, guard_cur_mode, sig == SIGSEGV ?
		   "SIGSEGV: a guard page was touched" : "signal");
	_exit(1);
}

static struct guard_run guard_runs[GUARD_MODES];
static u64 guard_bytes_in, guard_bytes_out, guard_errors;
static u8 guard_ref_out[GUARD_MAX_OUT + 16];

/* Returns false after printing the case if any path differs. */
static bool guard_one(struct guard_case *c)
{
	struct guard_run *s = &guard_runs[0];
	struct utfconv_ref ref;
	unsigned int i;
	int mode;

	utfconv_ref_convert(c->dir, c->pol, c->flags, c->in, c->n,
			    guard_ref_out, &ref);
	c->caps[0] = ref.out_bytes;
	for (i = 1; i <= 4; i++)
		c->caps[i] = ref.out_bytes >= i ? ref.out_bytes - i : 0;
	c->caps[5] = guard_below(ref.out_bytes + 1);
	c->caps[6] = ref.out_bytes + guard_below(80);
	c->caps[7] = utfconv_ref_out_max(c->dir, c->n);
	for (mode = 0; mode < guard_modes; mode++) {
		struct guard_run *r = &guard_runs[mode];

		guard_path = mode;
		guard_cur = c;
		guard_cur_mode = mode;
		guard_fail_why = NULL;
		guard_stream(c, r);
		if (!guard_fail_why)
			guard_bufs(c, r);
		if (guard_fail_why) {
			guard_dump(c, mode, guard_fail_why);
			return false;
		}
		if (mode && (r->hash != s->hash ||
			     memcmp(&r->st, &s->st, sizeof(r->st)) ||
			     memcmp(r->buf_ret, s->buf_ret, sizeof(r->buf_ret)) ||
			     memcmp(r->buf_off, s->buf_off, sizeof(r->buf_off)) ||
			     memcmp(r->buf_hash, s->buf_hash,
				    sizeof(r->buf_hash)))) {
			guard_dump(c, mode, "differs from the scalar path (0)");
			fprintf(stderr,
				"  stream: out %zu vs %zu bytes, code points %llu vs %llu, error %u at %llu vs %u at %llu\n",
				r->out_bytes, s->out_bytes,
				(unsigned long long)r->st.code_points,
				(unsigned long long)s->st.code_points,
				r->st.error_kind,
				(unsigned long long)r->st.error_offset,
				s->st.error_kind,
				(unsigned long long)s->st.error_offset);
			for (i = 0; i < 8; i++)
				fprintf(stderr,
					"  buf cap %zu: %zd vs %zd, off %lld vs %lld\n",
					c->caps[i], r->buf_ret[i], s->buf_ret[i],
					(long long)r->buf_off[i],
					(long long)s->buf_off[i]);
			return false;
		}
	}
	guard_bytes_in += s->st.bytes_in;
	guard_bytes_out += s->out_bytes;
	guard_errors += !!ref.error_kind;
	/* the scalar path against the reference model */
	if (s->out_bytes != ref.out_bytes ||
	    memcmp(s->out, guard_ref_out, ref.out_bytes) ||
	    s->st.code_points != ref.code_points ||
	    s->st.replacements != ref.replacements ||
	    s->st.error_kind != ref.error_kind ||
	    (ref.error_kind && s->st.error_offset != ref.error_offset) ||
	    s->buf_ret[7] != (ref.err ? ref.err : (ssize_t)ref.out_bytes)) {
		guard_dump(c, 0, "differs from the reference model");
		return false;
	}
	return true;
}

/* The input length of case @i: small, around 512 and 4096, or long. */
static size_t guard_len(unsigned long i)
{
	switch (i % 6) {
	case 0:
	case 1:
		return guard_below(301);
	case 2:
		return 496 + guard_below(33);
	case 3:
		return 3996 + guard_below(201);
	default:
		return guard_below(GUARD_MAX_IN - 200);
	}
}

int main(int argc, char **argv)
{
	static struct guard_case c;
	unsigned long cases = 20000, i;
	u64 seed = 0x5EED0FC0DEC0FFEEULL;
	int opt;

	while ((opt = getopt(argc, argv, "n:S:v")) != -1) {
		if (opt == 'n') {
			cases = strtoul(optarg, NULL, 0);
		} else if (opt == 'S') {
			seed = strtoull(optarg, NULL, 0);
		} else if (opt == 'v') {
			verbose = 1;
		} else {
			fprintf(stderr, "usage: %s [-n CASES] [-S SEED] [-v]\n",
				argv[0]);
			return 2;
		}
	}
	signal(SIGSEGV, guard_fault);
	signal(SIGBUS, guard_fault);
	guard_map(&guard_in, GUARD_MAX_IN);
	guard_map(&guard_out, GUARD_MAX_OUT);
	if (utfconv_path_missing(UTFCONV_PATH_AVX512,
				 utfconv_path_level(UTFCONV_PATH_AVX512))) {
		guard_modes = UTFCONV_PATH_AVX512;
		printf("guard_test: codec path 7 (AVX-512): skipped: no AVX-512 on this CPU\n");
	}
	for (i = 0; i < cases; i++) {
		u64 next;

		guard_rng_state = seed ^ (i + 1) * 0x9E3779B97F4A7C15ULL;
		guard_rng();
		c.dir = 1 + guard_below(UTFCONV_TEST_PAIR_MAX);
		c.pol = guard_below(UTFCONV_TEST_POLICY_LAST + 1);
		c.flags = guard_below(8) ? 0 : guard_below(4);
		c.n = guard_len(i);
		guard_text(c.in, c.n, c.dir, guard_below(4) != 0);
		c.seed = guard_rng() | 1;
		next = guard_rng_state;
		if (!guard_one(&c))
			return 1;
		guard_rng_state = next;
		if (verbose && !(i % 10000))
			printf("guard_test: %lu cases\n", i);
	}
	printf("guard_test: %lu cases (%llu with errors), %llu bytes in, %llu out per path,\n"
	       "guard_test: codec paths 0..%d, inputs and outputs ending at guard pages: all paths agree\n",
	       cases, (unsigned long long)guard_errors,
	       (unsigned long long)guard_bytes_in,
	       (unsigned long long)guard_bytes_out, guard_modes - 1);
	return 0;
}
