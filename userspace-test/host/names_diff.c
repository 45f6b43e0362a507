// SPDX-License-Identifier: GPL-2.0
/*
 * Differential test of the scalar UTF-8 path's steps for names (two
 * three-byte sequences from one load, runs of four-byte ones, the
 * eight-byte step over the ASCII bytes that end the input) and of
 * utfconv_buf_to_nul(), the fs/nls drop-ins' converter, against the
 * reference model (kunit/utfconv_ref.h): random texts of runs of three-
 * or four-byte characters, ASCII or everything mixed, with faults
 * (surrogate and overlong forms, F4 90, F0 8F, truncated and lone bytes,
 * NUL bytes, a CESU-8 pair), often ending in ASCII bytes. Each input goes
 * in both byte orders under every policy through utfconv_buf() at output
 * capacities of the output's size, one to three bytes less, more and
 * random; through utfconv_convert() in random chunks and capacities; and
 * through utfconv_buf_to_nul() against the model on what precedes the
 * first NUL. Inputs and outputs lie against PROT_NONE pages, at the end
 * of one or at the start of the next (each call's output in a buffer of
 * its own), so that a read or write outside them faults.
 *
 * Usage: names_diff [-n CASES] [-S SEED] [-p PATH]
 * PATH: the codec path of every conversion, enum utfconv_path (default 0,
 * scalar), passed to the library's path entries.
 * Exits 1 after printing the failing cases (direction, policy, flags,
 * capacity, seed, input in hex).
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

/* -p: the path of every conversion (kunit/utfconv_paths.h) */
static enum utfconv_path names_path = UTFCONV_PATH_SCALAR;
#include "utfconv_paths.h"

/* What the test units (kunit/utfconv_expect.h) ask of a program */
enum utfconv_path utfconv_test_path(void)
{
	return names_path;
}

void utfconv_test_yield(void)
{
}

#define MAXIN 700
#define AREA 8192

static u64 rs;
static u64 rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs * 0x2545F4914F6CDD1DULL;
}

static u32 below(u32 n)
{
	return n ? rnd() % n : 0;
}

/* [guard][AREA bytes][guard] */
struct area {
	u8 *lo, *hi;
};

static struct area mk(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	u8 *p = mmap(NULL, AREA + 2 * pg, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct area a;

	if (p == MAP_FAILED)
		abort();
	mprotect(p, pg, PROT_NONE);
	mprotect(p + pg + AREA, pg, PROT_NONE);
	a.lo = p + pg;
	a.hi = p + pg + AREA;
	return a;
}

static struct area ain_t, ain_h, aout_t, aout_h;

static u8 in[MAXIN + 16];
static size_t n;

static void put(const u8 *b, size_t k)
{
	if (n + k > MAXIN)
		return;
	memcpy(in + n, b, k);
	n += k;
}

static void put_cp(u32 cp)
{
	u8 b[4];

	put(b, utfconv_sweep_utf8(b, cp));
}

static const u8 *const faults[] = {
	(const u8 *)"\x03\xED\xA0\x80", (const u8 *)"\x03\xED\xBF\xBF",
	(const u8 *)"\x03\xE0\x80\x80", (const u8 *)"\x03\xE0\x9F\xBF",
	(const u8 *)"\x04\xF4\x90\x80\x80", (const u8 *)"\x04\xF0\x8F\xBF\xBF",
	(const u8 *)"\x01\xF5", (const u8 *)"\x02\xC0\xAF",
	(const u8 *)"\x01\x80", (const u8 *)"\x02\xE2\x82",
	(const u8 *)"\x03\xF0\x9F\x98", (const u8 *)"\x01\xBF",
	(const u8 *)"\x06\xED\xA0\x80\xED\xB0\x80",
	(const u8 *)"\x03\xED\xB0\x80", (const u8 *)"\x03\xED\xAF\xBF",
	(const u8 *)"\x02\xE0\xA0", (const u8 *)"\x01\xE1",
	(const u8 *)"\x03\xE1\x80\xC0", (const u8 *)"\x03\xE1\xC0\x80",
	(const u8 *)"\x04\xF0\x90\x80\xC0", (const u8 *)"\x04\xF8\x88\x80\x80",
	(const u8 *)"\x04\xF7\xBF\xBF\xBF", (const u8 *)"\x01\x00",
	(const u8 *)"\x03\xEF\xBB\xBF", (const u8 *)"\x04\xF0\x80\x80\x80",
	(const u8 *)"\x04\xF4\x8F\xBF\x7F", (const u8 *)"\x03\xE3\x81\x20",
};

static u32 three(void)
{
	static const u32 e[] = { 0x800, 0xD7FF, 0xE000, 0xFFFF, 0xFFFE,
				 0xFEFF, 0xFFFD, 0x1000, 0xCFFF, 0xD000 };

	if (below(3) == 0)
		return e[below(ARRAY_SIZE(e))];
	for (;;) {
		u32 c = 0x800 + below(0x10000 - 0x800);

		if (c < 0xD800 || c > 0xDFFF)
			return c;
	}
}

static u32 four(void)
{
	static const u32 e[] = { 0x10000, 0x10FFFF, 0x1F600, 0xFFFFF,
				 0x100000, 0x3FFFF, 0x40000 };

	if (below(3) == 0)
		return e[below(ARRAY_SIZE(e))];
	return 0x10000 + below(0x100000);
}

static void token(int mode, int fault_pm, bool nul_ok)
{
	u32 r = below(1000);

	if (r < fault_pm) {
		const u8 *f = faults[below(ARRAY_SIZE(faults))];

		if (!nul_ok && f[0] == 1 && f[1] == 0)
			return;
		put(f + 1, f[0]);
		return;
	}
	switch (mode) {
	case 0:
		put_cp(three());
		if (below(8) == 0)
			put_cp(' ');
		break;
	case 1:
		put_cp(four());
		break;
	case 2:
		put_cp(0x20 + below(0x5F));
		break;
	default:
		static const u32 firsts[] = { 0x20, 0x80, 0x800, 0x10000 };
		static const u32 spans[] = { 0x5F, 0x780, 0, 0 };
		u32 k = below(5);

		if (k == 2)
			put_cp(three());
		else if (k == 3)
			put_cp(four());
		else if (k < 2)
			put_cp(firsts[k] + below(spans[k]));
		else
			put_cp(below(2) ? ' ' : 0x7F);
	}
}

static void gen(void)
{
	int mode = below(4), pm = below(4) == 0 ? 0 : below(60);
	size_t len = below(4) ? below(80) : below(600);
	bool nul = below(3) == 0;
	size_t pre = below(4) == 0 ? below(20) : 0;

	n = 0;
	while (pre--)
		put_cp(0x21 + below(0x5E));
	while (n < len) {
		token(mode, pm, nul);
		if (below(50) == 0)
			mode = below(4);
	}
	/* an ASCII tail often: the eight-byte step's case */
	if (below(2)) {
		size_t t = below(16);

		while (t--)
			put_cp(0x21 + below(0x5E));
	}
	if (nul && below(2)) {
		size_t at = below(n + 1);

		if (at < n)
			in[at] = 0;
		else
			put((const u8 *)"\0", 1);
	}
	if (below(10) == 0 && n < MAXIN)
		in[below(n + 1)] = faults[below(ARRAY_SIZE(faults))][1];
}

static long fails, checks;
static u64 seed_now;

static void dump(const char *why, u32 dir, u32 pol, u32 flags, size_t cap,
		 long a, long b)
{
	size_t i;

	fails++;
	fprintf(stderr, "FAIL %s: dir %u pol %u flags %u cap %zu got %ld want %ld seed %#llx n %zu\n ",
		why, dir, pol, flags, cap, a, b, (unsigned long long)seed_now,
		n);
	for (i = 0; i < n; i++)
		fprintf(stderr, " %02x", in[i]);
	fputc('\n', stderr);
	if (fails > 20)
		exit(1);
}

static u8 refout[2 * MAXIN + 64];
static u8 cat[2 * MAXIN + 64];

/* The bytes of the character at output offset @o of a UTF-16 ref output. */
static size_t charlen16(const u8 *o, size_t len, size_t off, bool be)
{
	u16 u, v;

	if (off + 2 > len)
		return 2;
	u = be ? o[off] << 8 | o[off + 1] : o[off] | o[off + 1] << 8;
	if (u < 0xD800 || u > 0xDBFF || off + 4 > len)
		return 2;
	v = be ? o[off + 2] << 8 | o[off + 3] : o[off + 2] | o[off + 3] << 8;
	return v >= 0xDC00 && v <= 0xDFFF ? 4 : 2;
}

/* The biggest prefix of whole characters of @len bytes of @o within @cap. */
static size_t fit16(const u8 *o, size_t len, size_t cap, bool be)
{
	size_t off = 0, k;

	while (off < len) {
		k = charlen16(o, len, off, be);
		if (off + k > cap)
			break;
		off += k;
	}
	return off;
}

static u8 *place_in(bool head, const u8 *src, size_t k)
{
	u8 *p = head ? ain_h.lo : ain_t.hi - k;

	memcpy(p, src, k);
	return p;
}

static u8 *place_out(bool head, size_t cap)
{
	u8 *p = head ? aout_h.lo : aout_t.hi - cap;

	memset(head ? aout_h.lo : aout_t.lo, 0xA5, AREA);
	return p;
}

static void one_buf(u32 dir, u32 pol, u32 flags, const struct utfconv_ref *r,
		    size_t cap, bool head)
{
	const u8 *src = place_in(head, in, n);
	u8 *dst = place_out(!head, cap);
	u64 off = ~0ULL;
	ssize_t ret = utfconv_test_buf(dir, pol, flags, src, n, dst, cap, &off);
	long want = r->out_bytes <= cap ? (r->err ? r->err : (long)r->out_bytes) :
		    -E2BIG;

	checks++;
	if (ret != want) {
		dump("buf ret", dir, pol, flags, cap, ret, want);
		return;
	}
	if (ret >= 0 && memcmp(dst, refout, ret))
		dump("buf bytes", dir, pol, flags, cap, 0, 0);
	if ((ret == -EILSEQ || ret == -EINVAL) && off != r->error_offset)
		dump("buf off", dir, pol, flags, cap, off, r->error_offset);
}

/* The stream API: chunks of input, a capacity per call, fresh buffers. */
static void one_stream(u32 dir, u32 pol, u32 flags,
		       const struct utfconv_ref *r, size_t cap, bool chunked)
{
	struct utfconv_state st;
	size_t pos = 0, total = 0, used, made;
	bool be = dir == UTFCONV_TEST_UTF8_TO_UTF16BE;
	int ret, guard = 0;
	bool head = below(2);

	utfconv_test_pair_init(&st, dir, pol, flags);
	for (;;) {
		size_t k = chunked ? below(n - pos + 1) : n - pos;
		bool end = pos + k == n;
		size_t c = cap ? cap : 2 + below(40);
		const u8 *src = place_in(head, in + pos, k);
		u8 *dst = place_out(!head, c);
		size_t want;

		ret = utfconv_test_convert(&st, src, k, &used, dst, c, &made,
					   end ? UTFCONV_END : 0);
		checks++;
		if (total + made > sizeof(cat)) {
			dump("stream overflow", dir, pol, flags, c, made, 0);
			return;
		}
		memcpy(cat + total, dst, made);
		if (ret == -E2BIG) {
			/* whole characters that fit, the next one does not */
			want = fit16(refout + total, r->out_bytes - total, c,
				     be);
			if (made != want) {
				dump("stream e2big made", dir, pol, flags, c,
				     made, want);
				return;
			}
		}
		total += made;
		pos += used;
		if (ret == -E2BIG) {
			if (++guard > 4 * MAXIN + 10) {
				dump("stream no progress", dir, pol, flags, c,
				     0, 0);
				return;
			}
			if (!used && !made && cap) {
				/* cap too small for the next char: done */
				return;
			}
			continue;
		}
		if (ret || end)
			break;
	}
	if (ret != r->err)
		dump("stream ret", dir, pol, flags, cap, ret, r->err);
	else if (total != r->out_bytes || memcmp(cat, refout, total))
		dump("stream bytes", dir, pol, flags, cap, total,
		     r->out_bytes);
	else if (st.code_points != r->code_points)
		dump("stream ncp", dir, pol, flags, cap, st.code_points,
		     r->code_points);
	else if (st.replacements != r->replacements)
		dump("stream repl", dir, pol, flags, cap, st.replacements,
		     r->replacements);
	else if (st.error_kind != r->error_kind ||
		 (r->error_kind && st.error_offset != r->error_offset))
		dump("stream errpos", dir, pol, flags, cap, st.error_offset,
		     r->error_offset);
	else if (!r->err && st.bytes_in != n)
		dump("stream bytes_in", dir, pol, flags, cap, st.bytes_in, n);
}

static void one_nul(u32 dir, u32 pol, size_t cap, bool head)
{
	struct utfconv_ref r;
	size_t k = strnlen((const char *)in, n);
	const u8 *src;
	u8 *dst;
	ssize_t ret;
	long want;

	utfconv_ref_convert(dir, pol, 0, in, k, refout, &r);
	src = place_in(head, in, n);
	dst = place_out(!head, cap);
	ret = utfconv_test_buf_to_nul(dir, pol, src, n, dst, cap);
	want = r.out_bytes <= cap ? (r.err ? r.err : (long)r.out_bytes) :
	       -E2BIG;
	checks++;
	if (ret != want)
		dump("nul ret", dir, pol, 0, cap, ret, want);
	else if (ret >= 0 && memcmp(dst, refout, ret))
		dump("nul bytes", dir, pol, 0, cap, 0, 0);
}

static void one_case(void)
{
	static const u32 flagset[] = { 0, 0, 0, UTFCONV_STRIP_BOM,
				       UTFCONV_EMIT_BOM };
	u32 dir, pol;
	size_t caps[8], i;

	for (dir = 1; dir <= 2; dir++) {
		for (pol = 0; pol <= 3; pol++) {
			u32 flags = flagset[below(ARRAY_SIZE(flagset))];
			struct utfconv_ref r;
			size_t L;

			utfconv_ref_convert(dir, pol, flags, in, n, refout, &r);
			L = r.out_bytes;
			caps[0] = L;
			caps[1] = L ? L - 1 : 0;
			caps[2] = L > 2 ? L - 2 : 0;
			caps[3] = L > 3 ? L - 3 : 0;
			caps[4] = L + 1;
			caps[5] = below(L + 20);
			caps[6] = 2 * n + 16;
			caps[7] = L > 8 ? L - below(16) % L : L;
			for (i = 0; i < 8; i++)
				one_buf(dir, pol, flags, &r, caps[i], i & 1);
			one_stream(dir, pol, flags, &r, 0, true);
			one_stream(dir, pol, flags, &r, caps[below(8)] + 4,
				   below(2));
			one_stream(dir, pol, flags, &r, L > 40 ? 32 + below(9) : 4,
				   false);
			{
				size_t kk = strnlen((const char *)in, n);
				struct utfconv_ref rn;

				utfconv_ref_convert(dir, pol, 0, in, kk, refout,
						    &rn);
				L = rn.out_bytes;
			}
			one_nul(dir, pol, L, below(2));
			one_nul(dir, pol, L ? L - 1 : 0, below(2));
			one_nul(dir, pol, L + 2, below(2));
			one_nul(dir, pol, below(2 * n + 20), below(2));
		}
	}
}

static void segv(int sig)
{
	size_t i;

	fprintf(stderr, "SIGSEGV seed %#llx n %zu\n ",
		(unsigned long long)seed_now, n);
	for (i = 0; i < n; i++)
		fprintf(stderr, " %02x", in[i]);
	fputc('\n', stderr);
	_exit(2);
}

int main(int argc, char **argv)
{
	long cases = 10000, c;
	u64 seed = 0x6b6f73746c65ULL;
	int opt;

	while ((opt = getopt(argc, argv, "n:S:p:")) != -1) {
		if (opt == 'n')
			cases = atol(optarg);
		else if (opt == 'S')
			seed = strtoull(optarg, NULL, 0);
		else if (opt == 'p')
			names_path = atoi(optarg);
	}
	signal(SIGSEGV, segv);
	signal(SIGBUS, segv);
	ain_t = mk();
	ain_h = mk();
	aout_t = mk();
	aout_h = mk();
	for (c = 0; c < cases; c++) {
		seed_now = seed + c;
		rs = seed_now * 0x9E3779B97F4A7C15ULL | 1;
		gen();
		one_case();
	}
	printf("names_diff: path %d seed %#llx cases %ld checks %ld fails %ld\n",
	       names_path, (unsigned long long)seed, cases, checks, fails);
	return fails != 0;
}
