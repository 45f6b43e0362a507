// SPDX-License-Identifier: GPL-2.0
/*
 * Host-native tests of the utfconv codec: kmod/utfconv_codec.c built in
 * userspace through userspace-test/compat/ (with ASan and UBSan from
 * host.mk), driven by the same vector table, reference model and checks
 * as the KUnit suites (the headers in kunit/), plus exhaustive sweeps, a drift check
 * of the table against vectors/field-cases.tsv, and differential tests
 * against glibc iconv on the shared corpus and on random and mutated
 * input. Ends with "N passed, N failed"; exits 1 on any failure.
 *
 * Usage: host_test [-q] [-f] [-s MODE] [-x PART] [-X PART] SHARED_DIR [PYDIFF_COMMAND]
 * -q: print failures and the summary only; -f: full pair sweep in both
 * byte orders; -s: the codec paths to pin with utfconv_force_path() (enum
 * utfconv_path: 0 scalar paths only, 1 the default, 2 SIMD paths whatever
 * the size, 3 the same with SSE2 only, 4 without AVX2; host.mk runs the
 * tests once with each);
 * -x: run only the parts whose name contains PART; -X: skip the parts whose
 * name contains PART.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <iconv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <linux/types.h>
#include <linux/utfconv.h>

struct host_ctx {
	const char *name;
	unsigned long failures;
	void **allocs;
	unsigned int nallocs;
	unsigned int maxallocs;
};

static void host_fail(void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define UTFCONV_CHECK(ctx, cond, fmt, ...)				\
	do {								\
		if (!(cond))						\
			host_fail(ctx, fmt, ##__VA_ARGS__);		\
	} while (0)
#define UTFCONV_ALLOC(ctx, bytes)	host_alloc(ctx, bytes)

static void *host_alloc(void *ctx, size_t bytes);

#include "utfconv_checks.h"
#include "utfconv_runs.h"

static unsigned long passed, failed;
static int quiet;
static int full;	/* -f: every pair in both byte orders */

static void host_fail(void *vctx, const char *fmt, ...)
{
	struct host_ctx *ctx = vctx;
	va_list ap;

	if (ctx->failures++ < 5) {
		fprintf(stderr, "FAIL [%s] ", ctx->name);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
}

static void *host_alloc(void *vctx, size_t bytes)
{
	struct host_ctx *ctx = vctx;
	void *p;

	if (ctx->nallocs == ctx->maxallocs) {
		ctx->maxallocs = ctx->maxallocs ? 2 * ctx->maxallocs : 64;
		ctx->allocs = realloc(ctx->allocs, ctx->maxallocs * sizeof(void *));
		if (!ctx->allocs)
			abort();
	}
	p = malloc(bytes ? bytes : 1);
	if (!p)
		abort();
	ctx->allocs[ctx->nallocs++] = p;
	return p;
}

static void host_begin(struct host_ctx *ctx, const char *name)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->name = name;
}

static int host_end(struct host_ctx *ctx)
{
	while (ctx->nallocs)
		free(ctx->allocs[--ctx->nallocs]);
	free(ctx->allocs);
	ctx->allocs = NULL;
	ctx->maxallocs = 0;
	if (ctx->failures) {
		failed++;
		fprintf(stderr, "not ok %s (%lu failed checks)\n", ctx->name,
			ctx->failures);
		return 0;
	}
	passed++;
	if (!quiet)
		printf("ok %s\n", ctx->name);
	return 1;
}

/* Free scratch inside a long case. */
static void host_free_all(struct host_ctx *ctx)
{
	while (ctx->nallocs)
		free(ctx->allocs[--ctx->nallocs]);
}

/* xorshift64*: reproducible pseudo-random numbers */
static u64 rng_state = 0x9E3779B97F4A7C15ULL;

static u64 rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

/* ---- the shared table ------------------------------------------------- */

typedef void (*vector_check)(void *ctx, const struct utfconv_vector *v);

static void run_vectors(const char *what, vector_check fn)
{
	struct host_ctx ctx;
	char name[192];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(utfconv_vectors); i++) {
		snprintf(name, sizeof(name), "%s: %s", what,
			 utfconv_vectors[i].name);
		host_begin(&ctx, name);
		fn(&ctx, &utfconv_vectors[i]);
		host_end(&ctx);
	}
}

/* ---- drift check against field-cases.tsv -------------------------------- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parse hex with '|' boundaries; returns bytes, fills cuts. */
static long parse_hex(const char *s, u8 *out, size_t *cuts, unsigned int *ncuts)
{
	long n = 0;

	*ncuts = 0;
	while (*s) {
		if (*s == '|') {
			cuts[(*ncuts)++] = n;
			s++;
			continue;
		}
		if (hexval(s[0]) < 0 || hexval(s[1]) < 0)
			return -1;
		out[n++] = hexval(s[0]) << 4 | hexval(s[1]);
		s += 2;
	}
	return n;
}

static void test_field_cases(const char *shared)
{
	static const char * const dirs[] = { NULL, "utf8-to-utf16le",
		"utf8-to-utf16be", "utf16le-to-utf8", "utf16be-to-utf8" };
	static const char * const pols[] = { "strict", "replace", "skip", "wtf8" };
	char path[4096], line[4096], name[192], id[64], dir[64], pol[64];
	char inp[1024], exp[1024];
	const struct utfconv_vector *v;
	struct host_ctx ctx;
	size_t cuts[16], i;
	unsigned int ncuts, rows = 0, d, p, nc;
	u8 in[512], out[512];
	long n, m, off;
	FILE *f;

	snprintf(path, sizeof(path), "%s/vectors/field-cases.tsv", shared);
	host_begin(&ctx, "field-cases.tsv present");
	f = fopen(path, "r");
	UTFCONV_CHECK(&ctx, f, "cannot open %s", path);
	host_end(&ctx);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "id\t", 3))
			continue;
		if (sscanf(line, "%63[^\t]\t%63[^\t]\t%63[^\t]\t%1023[^\t]\t%1023[^\t]",
			   id, dir, pol, inp, exp) != 5)
			continue;
		rows++;
		snprintf(name, sizeof(name), "field %s %s", id, pol);
		host_begin(&ctx, name);
		for (i = 0, v = NULL; i < ARRAY_SIZE(utfconv_vectors); i++)
			if (!strcmp(utfconv_vectors[i].name, name))
				v = &utfconv_vectors[i];
		UTFCONV_CHECK(&ctx, v, "row %s is missing from the table", name);
		if (!v) {
			host_end(&ctx);
			continue;
		}
		for (d = 1; d < ARRAY_SIZE(dirs); d++)
			if (!strcmp(dir, dirs[d]))
				break;
		for (p = 0; p < ARRAY_SIZE(pols); p++)
			if (!strcmp(pol, pols[p]))
				break;
		UTFCONV_CHECK(&ctx, v->direction == d && v->policy == p && !v->flags,
			      "direction or policy differ");
		n = parse_hex(inp, in, cuts, &ncuts);
		UTFCONV_CHECK(&ctx, n == v->in_bytes && !memcmp(in, v->in, n),
			      "input bytes differ");
		UTFCONV_CHECK(&ctx, ncuts == v->nsplits, "write boundaries differ");
		for (nc = 0; nc < ncuts && nc < v->nsplits; nc++)
			UTFCONV_CHECK(&ctx, cuts[nc] == v->splits[nc],
				      "write boundary %u differs", nc);
		if (!strncmp(exp, "ERROR:", 6)) {
			off = strtol(strchr(exp, '@') + 1, NULL, 10);
			UTFCONV_CHECK(&ctx, v->error_offset == off &&
				      utfconv_vector_errno(v) ==
				      (!strncmp(exp + 6, "EILSEQ", 6) ? -EILSEQ : -EINVAL),
				      "expected error differs");
		} else {
			m = parse_hex(exp, out, cuts, &ncuts);
			UTFCONV_CHECK(&ctx, m == v->out_bytes && !memcmp(out, v->out, m) &&
				      !utfconv_vector_errno(v),
				      "expected output differs");
		}
		host_end(&ctx);
	}
	fclose(f);
	host_begin(&ctx, "field-cases.tsv rows");
	for (i = 0, n = 0; i < ARRAY_SIZE(utfconv_vectors); i++)
		if (!strncmp(utfconv_vectors[i].name, "field ", 6))
			n++;
	UTFCONV_CHECK(&ctx, rows > 0 && n == rows,
		      "file has %u rows, table has %ld field rows", rows, n);
	host_end(&ctx);
}

/* ---- API edges ------------------------------------------------------------ */

static void test_api(void)
{
	struct utfconv_state st;
	struct host_ctx ctx;
	size_t used, wrote;
	u8 out[16];
	int ret;

	host_begin(&ctx, "api: init rejects bad arguments");
	UTFCONV_CHECK(&ctx, utfconv_init(&st, 0, 0, 0) == -EINVAL, "direction 0");
	UTFCONV_CHECK(&ctx, utfconv_init(&st, UTFCONV_DIR_MAX + 1, 0, 0) == -EINVAL,
		      "direction max+1");
	UTFCONV_CHECK(&ctx, utfconv_init(&st, 1, UTFCONV_POLICY_MAX + 1, 0) == -EINVAL,
		      "policy max+1");
	UTFCONV_CHECK(&ctx, utfconv_init(&st, 1, 0, 4) == -EINVAL, "flag bit 2");
	UTFCONV_CHECK(&ctx, utfconv_buf(9, 0, 0, "a", 1, out, 16, NULL) == -EINVAL,
		      "utfconv_buf direction 9");
	UTFCONV_CHECK(&ctx, utfconv_length(1, 7, 0, "a", 1, NULL) == -EINVAL,
		      "utfconv_length policy 7");
	host_end(&ctx);

	host_begin(&ctx, "api: convert rejects unknown call flags");
	utfconv_init(&st, UTFCONV_DIR_UTF8_TO_UTF16LE, 0, 0);
	ret = utfconv_convert(&st, "a", 1, &used, out, 16, &wrote, 2);
	UTFCONV_CHECK(&ctx, ret == -EINVAL && !used && !wrote, "cflags 2: %d", ret);
	host_end(&ctx);

	host_begin(&ctx, "api: pending bytes, end, input after end, reset");
	utfconv_init(&st, UTFCONV_DIR_UTF8_TO_UTF16LE, 0, 0);
	ret = utfconv_convert(&st, "\xf0\x9f\x98", 3, &used, out, 16, &wrote, 0);
	UTFCONV_CHECK(&ctx, !ret && used == 3 && !wrote && utfconv_pending_bytes(&st) == 3 &&
		      st.bytes_in == 3 && !utfconv_ended(&st), "3 pending: %d", ret);
	ret = utfconv_convert(&st, "\xbb", 1, &used, out, 16, &wrote, UTFCONV_END);
	UTFCONV_CHECK(&ctx, !ret && used == 1 && wrote == 4 && utfconv_ended(&st) &&
		      !utfconv_pending_bytes(&st), "completed: %d", ret);
	ret = utfconv_convert(&st, "a", 1, &used, out, 16, &wrote, 0);
	UTFCONV_CHECK(&ctx, ret == -EINVAL && !used && !wrote, "after end: %d", ret);
	utfconv_reset(&st);
	UTFCONV_CHECK(&ctx, !st.bytes_in && !st.bytes_out && !st.code_points &&
		      !utfconv_ended(&st), "reset keeps counters");
	ret = utfconv_convert(&st, "a", 1, &used, out, 16, &wrote, UTFCONV_END);
	UTFCONV_CHECK(&ctx, !ret && wrote == 2 && out[0] == 'a', "after reset: %d", ret);
	host_end(&ctx);

	host_begin(&ctx, "api: halted stream until reset");
	utfconv_init(&st, UTFCONV_DIR_UTF16LE_TO_UTF8, UTFCONV_POLICY_STRICT, 0);
	ret = utfconv_convert(&st, "a\0\0\xdc", 4, &used, out, 16, &wrote, 0);
	UTFCONV_CHECK(&ctx, ret == -EILSEQ && used == 2 && wrote == 1 &&
		      st.error_offset == 2 && st.bytes_in == 2, "lone trail: %d %zu %zu",
		      ret, used, wrote);
	ret = utfconv_convert(&st, "b\0", 2, &used, out, 16, &wrote, UTFCONV_END);
	UTFCONV_CHECK(&ctx, ret == -EILSEQ && !used && !wrote, "still halted: %d", ret);
	utfconv_reset(&st);
	ret = utfconv_convert(&st, "b\0", 2, &used, out, 16, &wrote, UTFCONV_END);
	UTFCONV_CHECK(&ctx, !ret && wrote == 1 && st.error_kind == UTFCONV_ERR_NONE,
		      "after reset: %d", ret);
	host_end(&ctx);

	host_begin(&ctx, "api: max_length bounds and overflow");
	UTFCONV_CHECK(&ctx, utfconv_max_length(UTFCONV_DIR_UTF8_TO_UTF16LE, 0, 5) == 10, "u8 5");
	UTFCONV_CHECK(&ctx, utfconv_max_length(UTFCONV_DIR_UTF8_TO_UTF16BE,
					       UTFCONV_FLAG_EMIT_BOM, 5) == 12, "u8 5 bom");
	UTFCONV_CHECK(&ctx, utfconv_max_length(UTFCONV_DIR_UTF16LE_TO_UTF8, 0, 4) == 6, "u16 4");
	UTFCONV_CHECK(&ctx, utfconv_max_length(UTFCONV_DIR_UTF16_TO_UTF8, 0, 5) == 9, "u16 5");
	UTFCONV_CHECK(&ctx, utfconv_max_length(UTFCONV_DIR_UTF16BE_TO_UTF8,
					       UTFCONV_FLAG_EMIT_BOM, 0) == 3, "u16 0 bom");
	UTFCONV_CHECK(&ctx, utfconv_max_length(UTFCONV_DIR_UTF8_TO_UTF16LE, 0, SIZE_MAX) ==
		      SIZE_MAX, "overflow");
	UTFCONV_CHECK(&ctx, utfconv_max_length(UTFCONV_DIR_UTF16LE_TO_UTF8, 0, SIZE_MAX) ==
		      SIZE_MAX, "overflow 16");
	host_end(&ctx);
}

/* ---- exhaustive sweeps ---------------------------------------------------- */

static void test_sweep_scalars(void)
{
	static u8 big8[4 * 0x110000], big16[4 * 0x110000], back[4 * 0x110000];
	struct host_ctx ctx;
	u8 s8[4], s16[4], o[8];
	size_t n8, n16, t8 = 0, t16;
	ssize_t r;
	int be;
	u32 c;

	for (be = 0; be < 2; be++) {
		host_begin(&ctx, be ? "sweep: every scalar value round-trips, UTF-16BE" :
			   "sweep: every scalar value round-trips, UTF-16LE");
		t8 = t16 = 0;
		for (c = 0; c <= 0x10FFFF; c++) {
			if (c >= 0xD800 && c <= 0xDFFF)
				continue;
			n8 = utfconv_sweep_utf8(s8, c);
			n16 = utfconv_sweep_utf16(s16, c, be);
			memcpy(big8 + t8, s8, n8);
			memcpy(big16 + t16, s16, n16);
			t8 += n8;
			t16 += n16;
			r = utfconv_buf(be ? UTFCONV_DIR_UTF8_TO_UTF16BE :
					UTFCONV_DIR_UTF8_TO_UTF16LE, 0, 0, s8, n8, o,
					sizeof(o), NULL);
			if (r != n16 || memcmp(o, s16, n16))
				UTFCONV_CHECK(&ctx, 0, "U+%04X to UTF-16: %zd", c, r);
			r = utfconv_buf(be ? UTFCONV_DIR_UTF16BE_TO_UTF8 :
					UTFCONV_DIR_UTF16LE_TO_UTF8, 0, 0, s16, n16, o,
					sizeof(o), NULL);
			if (r != n8 || memcmp(o, s8, n8))
				UTFCONV_CHECK(&ctx, 0, "U+%04X to UTF-8: %zd", c, r);
		}
		r = utfconv_buf(be ? UTFCONV_DIR_UTF8_TO_UTF16BE : UTFCONV_DIR_UTF8_TO_UTF16LE,
				0, 0, big8, t8, back, sizeof(back), NULL);
		UTFCONV_CHECK(&ctx, r == t16 && !memcmp(back, big16, t16),
			      "all scalars in one buffer to UTF-16: %zd", r);
		r = utfconv_buf(be ? UTFCONV_DIR_UTF16BE_TO_UTF8 : UTFCONV_DIR_UTF16LE_TO_UTF8,
				0, 0, big16, t16, back, sizeof(back), NULL);
		UTFCONV_CHECK(&ctx, r == t8 && !memcmp(back, big8, t8),
			      "all scalars in one buffer to UTF-8: %zd", r);
		host_end(&ctx);
	}
}

static void test_sweep_utf16(void)
{
	static const u32 dirs[] = { UTFCONV_DIR_UTF16LE_TO_UTF8, UTFCONV_DIR_UTF16BE_TO_UTF8 };
	struct host_ctx ctx;
	char name[128];
	u8 in[4], buf[64];
	u32 p, d, u, w;

	for (d = 0; d < 2; d++) {
		for (p = 0; p <= UTFCONV_POLICY_MAX; p++) {
			snprintf(name, sizeof(name),
				 "sweep: every UTF-16%s unit, surrogate-led pairs (%s), policy %u",
				 d ? "BE" : "LE", full || (p & 1) == d ? "all" : "every 17th", p);
			host_begin(&ctx, name);
			for (u = 0; u <= 0xFFFF && ctx.failures < 5; u++) {
				utfconv_sweep_unit(in, u, d);
				utfconv_check_against_ref(&ctx, "unit", dirs[d], p, 0, in, 2, buf);
				/* ...with an odd byte after it */
				in[2] = 0x41;
				utfconv_check_against_ref(&ctx, "unit+odd", dirs[d], p, 0, in, 3, buf);
				if (u < 0xD800 || u > 0xDFFF)
					continue;
				/* both orders with -f; else one order in full */
				for (w = 0; w <= 0xFFFF;
				     w += full || (p & 1) == d ? 1 : 17) {
					utfconv_sweep_unit(in + 2, w, d);
					utfconv_check_against_ref(&ctx, "pair", dirs[d], p,
								  0, in, 4, buf);
				}
			}
			host_end(&ctx);
		}
	}
}

static void test_sweep_utf8(void)
{
	static const char * const pname[] = { "strict", "replace", "skip", "wtf8" };
	struct host_ctx ctx;
	char name[128];
	u8 in[4], buf[64];
	u32 p, x, len, i;
	u64 r;

	for (p = 0; p <= UTFCONV_POLICY_MAX; p++) {
		for (len = 1; len <= 3; len++) {
			snprintf(name, sizeof(name), "sweep: every %u-byte UTF-8 sequence, %s",
				 len, pname[p]);
			host_begin(&ctx, name);
			for (x = 0; x < 1U << (8 * len) && ctx.failures < 5; x++) {
				for (i = 0; i < len; i++)
					in[i] = x >> (8 * (len - 1 - i));
				utfconv_check_against_ref(&ctx, "seq", UTFCONV_DIR_UTF8_TO_UTF16LE,
							  p, 0, in, len, buf);
			}
			host_end(&ctx);
		}
		snprintf(name, sizeof(name),
			 "sweep: 4-byte UTF-8 sequences, leads F0..F4 x boundary bytes + 4M random, %s",
			 pname[p]);
		host_begin(&ctx, name);
		{
			static const u8 edge[] = { 0x00, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90,
						   0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0, 0xC2,
						   0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF };
			u32 a, b, c, l;

			for (l = 0xE0; l <= 0xFF; l++)
				for (a = 0; a < sizeof(edge); a++)
					for (b = 0; b < sizeof(edge); b++)
						for (c = 0; c < sizeof(edge); c++) {
							in[0] = l;
							in[1] = edge[a];
							in[2] = edge[b];
							in[3] = edge[c];
							utfconv_check_against_ref(&ctx, "seq4",
										  UTFCONV_DIR_UTF8_TO_UTF16BE,
										  p, 0, in, 4, buf);
						}
			for (i = 0; i < 4000000 && ctx.failures < 5; i++) {
				r = rng();
				in[0] = 0xF0 + (r & 7);
				in[1] = 0x80 | ((r >> 8) & 0x3F);
				in[2] = 0x80 | ((r >> 16) & 0x3F);
				in[3] = 0x80 | ((r >> 24) & 0x3F);
				if (r & (1ULL << 40))
					in[1 + ((r >> 41) % 3)] = r >> 48;
				utfconv_check_against_ref(&ctx, "seq4", UTFCONV_DIR_UTF8_TO_UTF16LE,
							  p, 0, in, 4, buf);
			}
		}
		host_end(&ctx);
	}
}

/* ---- random and mutated input: codec vs reference, chunk invariance ------- */

static size_t random_text(u8 *d, size_t max, int mutate, int utf16, int be)
{
	static const u32 picks[] = { 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xFEFF, 0xFFFD,
				     0xFFFF, 0x10000, 0x1F600, 0x10FFFF, 0xD7FF, 0xE000 };
	/* half the texts in runs of one UTF-8 length, as scripts come */
	static const u32 base[4] = { 0, 0x80, 0x800, 0x10000 };
	static const u32 span[4] = { 0x80, 0x780, 0xF800, 0x100000 };
	size_t n = 0, want = rng() % max;
	int runs = rng() % 2, len = 0, left = 0;
	u32 c;

	while (n + 8 < want) {
		u64 r = rng();

		if (runs) {
			if (!left) {
				len = r % 4;
				left = 1 + (r >> 2) % 40;
				r = rng();
			}
			left--;
			c = base[len] + (r >> 8) % span[len];
			if (c >= 0xD800 && c <= 0xDFFF)
				c -= 0x800;
			n += utf16 ? utfconv_sweep_utf16(d + n, c, be) : utfconv_sweep_utf8(d + n, c);
			continue;
		}
		switch (r % 4) {
		case 0:
			c = r >> 8 & 0x7F;
			break;
		case 1:
			c = picks[(r >> 8) % ARRAY_SIZE(picks)];
			break;
		default:
			c = (r >> 8) % 0x110000;
			if (c >= 0xD800 && c <= 0xDFFF)
				c = 0x20;
		}
		n += utf16 ? utfconv_sweep_utf16(d + n, c, be) : utfconv_sweep_utf8(d + n, c);
	}
	while (mutate-- > 0 && n) {
		u64 r = rng();

		switch (r % 5) {
		case 0:
			d[(r >> 8) % n] = r >> 32;
			break;
		case 1:
			d[(r >> 8) % n] ^= 1 << ((r >> 32) % 8);
			break;
		case 2:
			n--;
			break;
		case 3:
			if (utf16) {
				size_t at = ((r >> 8) % n) & ~1UL;
				u16 s = 0xD800 + ((r >> 32) & 0x7FF);

				d[at + be] = s & 0xFF;
				d[at + !be] = s >> 8;
			} else if (n > 3) {
				size_t at = (r >> 8) % (n - 3);

				d[at] = 0xED;
				d[at + 1] = 0xA0 | ((r >> 32) & 0x1F);
				d[at + 2] = 0x80 | ((r >> 40) & 0x3F);
			}
			break;
		default:
			memmove(d + (r >> 8) % n, d + (r >> 24) % n, 1);
		}
	}
	return n;
}

/* Print a failing input in full, for a reproducer. */
static void dump_input(struct host_ctx *ctx, u32 dir, u32 pol, u32 flags,
		       const u8 *in, size_t n)
{
	size_t i;

	if (ctx->failures > 5)
		return;
	fprintf(stderr, "  input (dir %u policy %u flags %u, %zu bytes): ", dir, pol, flags, n);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%02x", in[i]);
	fputc('\n', stderr);
}

static void test_random(void)
{
	struct host_ctx ctx;
	struct utfconv_expect e;
	struct utfconv_ref ref;
	size_t cuts[8], n, i;
	u8 in[512], buf[4096];
	unsigned int k, nc;
	u32 dir, pol, flags;

	host_begin(&ctx, "random: 200000 random and mutated inputs vs reference, random chunking and capacity");
	for (k = 0; k < 200000 && ctx.failures < 5; k++) {
		dir = 1 + rng() % UTFCONV_DIR_MAX;
		pol = rng() % (UTFCONV_POLICY_MAX + 1);
		flags = rng() % 8 == 0 ? rng() % 4 : 0;
		n = random_text(in, sizeof(in) - 8, rng() % 4,
				!utfconv_utf16_out(dir), dir == UTFCONV_DIR_UTF16BE_TO_UTF8 ||
				dir == UTFCONV_DIR_UTF16_TO_UTF8);
		if (rng() % 16 == 0 && n)
			n = rng() % n;
		if (!utfconv_check_against_ref(&ctx, "random", dir, pol, flags, in, n, buf)) {
			dump_input(&ctx, dir, pol, flags, in, n);
			continue;
		}
		utfconv_ref_convert(dir, pol, flags, in, n, buf, &ref);
		utfconv_expect_ref(&ref, &e);
		nc = rng() % 8;
		for (i = 0; i < nc; i++)
			cuts[i] = n ? rng() % (n + 1) : 0;
		/* sort the cuts */
		for (i = 1; i < nc; i++) {
			size_t t = cuts[i], j = i;

			while (j && cuts[j - 1] > t) {
				cuts[j] = cuts[j - 1];
				j--;
			}
			cuts[j] = t;
		}
		utfconv_check_convert(&ctx, "random", "random chunks", dir, pol, flags, in, n,
				      cuts, nc, rng() % 3 ? 0 : 1 + rng() % 9, &e);
		host_free_all(&ctx);
	}
	host_end(&ctx);
}

/* ---- long runs for the block and SIMD paths ---------------------------- */

static void test_long_runs(void)
{
	struct host_ctx ctx;
	char name[128];
	unsigned int t;

	for (t = 0; t < UTFCONV_RUNS_TEXTS; t++) {
		snprintf(name, sizeof(name),
			 "long runs: text %u, a fault at every position, every capacity", t);
		host_begin(&ctx, name);
		utfconv_check_long_runs(&ctx, t);
		host_free_all(&ctx);
		host_end(&ctx);
	}
}

static void test_two_byte_runs(void)
{
	struct host_ctx ctx;
	int utf16;

	for (utf16 = 0; utf16 < 2; utf16++) {
		host_begin(&ctx, utf16 ?
			   "two-byte runs: UTF-16 input, every ending in every lane" :
			   "two-byte runs: UTF-8 input, every ending in every lane");
		utfconv_check_two_byte_runs(&ctx, utf16);
		host_free_all(&ctx);
		host_end(&ctx);
	}
}

/* ---- glibc iconv ------------------------------------------------------- */

struct iconv_result {
	int err;		/* 0, -EILSEQ, -EINVAL */
	size_t offset;		/* where it stopped */
	size_t out_bytes;
};

static void run_iconv(const char *to, const char *from, const u8 *in, size_t n,
		      u8 *out, size_t cap, struct iconv_result *r)
{
	iconv_t cd = iconv_open(to, from);
	char *ip = (char *)in, *op = (char *)out;
	size_t il = n, ol = cap;

	if (cd == (iconv_t)-1) {
		perror("iconv_open");
		exit(2);
	}
	r->err = 0;
	if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1)
		r->err = errno == EILSEQ ? -EILSEQ : errno == EINVAL ? -EINVAL : -errno;
	r->offset = ip - (char *)in;
	r->out_bytes = op - (char *)out;
	iconv_close(cd);
}

static const char *iconv_name(u32 dir, int from)
{
	switch (dir) {
	case UTFCONV_DIR_UTF8_TO_UTF16LE:
		return from ? "UTF-8" : "UTF-16LE";
	case UTFCONV_DIR_UTF8_TO_UTF16BE:
		return from ? "UTF-8" : "UTF-16BE";
	case UTFCONV_DIR_UTF16LE_TO_UTF8:
		return from ? "UTF-16LE" : "UTF-8";
	case UTFCONV_DIR_UTF16BE_TO_UTF8:
		return from ? "UTF-16BE" : "UTF-8";
	default:
		return from ? "UTF-16" : "UTF-8";
	}
}

/*
 * Strict conversion agrees with iconv: same output for valid input; for
 * invalid input the same offset and the same output before it.
 */
static void check_iconv(struct host_ctx *ctx, const char *name, u32 dir,
			const u8 *in, size_t n, u8 *a, u8 *b, size_t cap)
{
	struct iconv_result ir;
	u64 off = ~0ULL;
	ssize_t r;

	run_iconv(iconv_name(dir, 0), iconv_name(dir, 1), in, n, a, cap, &ir);
	r = utfconv_buf(dir, UTFCONV_POLICY_STRICT, 0, in, n, b, cap, &off);
	if (!ir.err) {
		UTFCONV_CHECK(ctx, r == ir.out_bytes && !memcmp(a, b, r),
			      "%s dir %u: iconv wrote %zu, we %zd", name, dir, ir.out_bytes, r);
		return;
	}
	UTFCONV_CHECK(ctx, r < 0 && off == ir.offset,
		      "%s dir %u: iconv error %d at %zu, we %zd at %lld", name, dir,
		      ir.err, ir.offset, r, (long long)off);
}

static void test_iconv_random(void)
{
	struct host_ctx ctx;
	u8 in[512], a[4096], b[4096];
	unsigned int k;
	size_t n;
	u32 dir;

	host_begin(&ctx, "iconv: 100000 random and mutated inputs, strict, all directions");
	for (k = 0; k < 100000 && ctx.failures < 5; k++) {
		dir = 1 + rng() % UTFCONV_DIR_MAX;
		n = random_text(in + 2, sizeof(in) - 10, rng() % 3, !utfconv_utf16_out(dir),
				dir != UTFCONV_DIR_UTF16LE_TO_UTF8);
		/* glibc's "UTF-16" does not read BOM-less input as big-endian */
		if (dir == UTFCONV_DIR_UTF16_TO_UTF8) {
			in[0] = 0xFE;
			in[1] = 0xFF;
			n += 2;
		} else {
			memmove(in, in + 2, n);
		}
		check_iconv(&ctx, "random", dir, in, n, a, b, sizeof(a));
	}
	host_end(&ctx);
}

static u8 *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat sb;
	u8 *p;

	if (!f || fstat(fileno(f), &sb))
		return NULL;
	p = malloc(sb.st_size + 1);
	*len = fread(p, 1, sb.st_size, f);
	fclose(f);
	return p;
}

static void corpus_file(const char *path, const char *label)
{
	static const u32 to16[] = { UTFCONV_DIR_UTF8_TO_UTF16LE, UTFCONV_DIR_UTF8_TO_UTF16BE };
	static const u32 back[] = { UTFCONV_DIR_UTF16LE_TO_UTF8, UTFCONV_DIR_UTF16BE_TO_UTF8 };
	struct utfconv_expect e;
	struct host_ctx ctx;
	struct utfconv_ref ref;
	size_t n, cap, cuts[64], i;
	u8 *in, *a, *b, *c;
	char name[1024];
	ssize_t r, r2;
	int k;

	in = read_file(path, &n);
	if (!in)
		return;
	cap = 2 * n + 16;
	a = malloc(cap);
	b = malloc(cap);
	c = malloc(2 * cap);
	for (k = 0; k < 2; k++) {
		snprintf(name, sizeof(name), "corpus %s: UTF-8 -> UTF-16%s -> UTF-8 vs iconv",
			 label, k ? "BE" : "LE");
		host_begin(&ctx, name);
		check_iconv(&ctx, label, to16[k], in, n, a, b, cap);
		r = utfconv_buf(to16[k], 0, 0, in, n, b, cap, NULL);
		UTFCONV_CHECK(&ctx, r >= 0, "to UTF-16: %zd", r);
		if (r >= 0) {
			check_iconv(&ctx, label, back[k], b, r, a, c, cap);
			r2 = utfconv_buf(back[k], 0, 0, b, r, c, cap, NULL);
			UTFCONV_CHECK(&ctx, r2 == n && !memcmp(c, in, n), "round trip: %zd", r2);
			/* the BOM-detecting direction: BE without BOM, either with one */
			if (k) {
				/* it consumes a leading BOM (the Emoji file has one) */
				size_t bom = n >= 3 && !memcmp(in, "\xef\xbb\xbf", 3) ? 3 : 0;

				r2 = utfconv_buf(UTFCONV_DIR_UTF16_TO_UTF8, 0, 0, b, r, c, cap, NULL);
				UTFCONV_CHECK(&ctx, r2 == n - bom && !memcmp(c, in + bom, n - bom),
					      "UTF-16, BE by default: %zd", r2);
			}
			UTFCONV_CHECK(&ctx, utfconv_length(back[k], 0, 0, b, r, NULL) == n,
				      "utfconv_length back");
		}
		UTFCONV_CHECK(&ctx, utfconv_length(to16[k], 0, 0, in, n, NULL) == r,
			      "utfconv_length");
		host_end(&ctx);
	}
	snprintf(name, sizeof(name), "corpus %s: random chunking, capacity, reference, all policies",
		 label);
	host_begin(&ctx, name);
	for (k = 0; k <= UTFCONV_POLICY_MAX; k++) {
		utfconv_ref_convert(UTFCONV_DIR_UTF8_TO_UTF16LE, k, 0, in, n, c, &ref);
		utfconv_expect_ref(&ref, &e);
		for (i = 0; i < 64; i++)
			cuts[i] = rng() % (n + 1);
		for (i = 1; i < 64; i++) {
			size_t t = cuts[i], j = i;

			while (j && cuts[j - 1] > t) {
				cuts[j] = cuts[j - 1];
				j--;
			}
			cuts[j] = t;
		}
		utfconv_check_convert(&ctx, label, "64 random chunks", UTFCONV_DIR_UTF8_TO_UTF16LE,
				      k, 0, in, n, cuts, 64, 0, &e);
		utfconv_check_convert(&ctx, label, "capacity 5 per call",
				      UTFCONV_DIR_UTF8_TO_UTF16LE, k, 0, in, n, cuts, 64, 5, &e);
		host_free_all(&ctx);
	}
	host_end(&ctx);
	free(in);
	free(a);
	free(b);
	free(c);
}

static void test_corpus(const char *shared)
{
	static const char * const sub[] = { "lipsum", "wikipedia_mars" };
	char dir[4096], path[8192], label[512];
	struct dirent *de;
	struct host_ctx ctx;
	unsigned int files = 0, s;
	DIR *d;

	for (s = 0; s < 2; s++) {
		snprintf(dir, sizeof(dir), "%s/corpus/%s", shared, sub[s]);
		d = opendir(dir);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			snprintf(label, sizeof(label), "%s/%s", sub[s], de->d_name);
			corpus_file(path, label);
			files++;
		}
		closedir(d);
	}
	host_begin(&ctx, "corpus: files found");
	UTFCONV_CHECK(&ctx, files > 0, "no corpus files under %s/corpus", shared);
	host_end(&ctx);
}

/* ---- Python codecs, through pydiff.py ------------------------------------ */

static void test_python(const char *cmd)
{
	struct host_ctx ctx;
	unsigned long p = 0, f = 0;
	char line[4096];
	FILE *pipe;
	int rc;

	host_begin(&ctx, "python codecs differential (pydiff.py)");
	pipe = popen(cmd, "r");
	UTFCONV_CHECK(&ctx, pipe, "cannot run %s", cmd);
	if (pipe) {
		while (fgets(line, sizeof(line), pipe)) {
			if (!quiet || strncmp(line, "ok ", 3))
				fputs(line, stdout);
			sscanf(line, "%lu passed, %lu failed", &p, &f);
		}
		rc = pclose(pipe);
		UTFCONV_CHECK(&ctx, rc == 0 && p > 0 && f == 0,
			      "pydiff: exit %d, %lu passed, %lu failed", rc, p, f);
	}
	host_end(&ctx);
}

int main(int argc, char **argv)
{
	unsigned int path = UTFCONV_PATH_AUTO;
	int level;
	const char *shared, *py = NULL, *only = NULL, *skip = NULL;
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "-q"))
			quiet = 1;
		else if (!strcmp(argv[i], "-f"))
			full = 1;
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			path = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-x") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "-X") && i + 1 < argc)
			skip = argv[++i];
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: %s [-q] [-f] [-s MODE] [-x PART] [-X PART] SHARED_DIR [PYDIFF_COMMAND]\n", argv[0]);
		return 2;
	}
	level = utfconv_force_path(path);
	if (level < 0) {
		fprintf(stderr, "%s: -s %u: no such codec path\n", argv[0], path);
		return 2;
	}
	shared = argv[i];
	if (i + 1 < argc)
		py = argv[i + 1];
#define PART(p) ((!only || strstr(p, only)) && (!skip || !strstr(p, skip)))
	if (PART("vectors")) {
		run_vectors("reference", utfconv_check_vector_reference);
		run_vectors("vector", utfconv_check_vector_oneshot);
		run_vectors("oneshot api", utfconv_check_vector_oneshot_api);
		run_vectors("reverse", utfconv_check_vector_reverse);
		run_vectors("chunking", utfconv_check_vector_chunking);
		run_vectors("capacity", utfconv_check_vector_capacity);
	}
	if (PART("field"))
		test_field_cases(shared);
	if (PART("api"))
		test_api();
	if (PART("sweep")) {
		test_sweep_scalars();
		test_sweep_utf16();
		test_sweep_utf8();
	}
	printf("host_test: codec paths: SIMD level %d, %s\n", level,
	       path == UTFCONV_PATH_SCALAR ? "scalar only (-s 0)" :
	       !UTFCONV_HAVE_SIMD ? "scalar only (no SIMD on this machine)" :
	       path == UTFCONV_PATH_SIMD ? "SIMD whatever the size (-s 2)" :
	       path == UTFCONV_PATH_SSE2 ?
	       "SIMD whatever the size, SSE2 only (-s 3)" :
	       path == UTFCONV_PATH_SSSE3 ?
	       "SIMD whatever the size, no AVX2 (-s 4)" :
	       "SIMD for large buffers (-s 1)");
	if (PART("runs")) {
		test_long_runs();
		test_two_byte_runs();
	}
	if (PART("random"))
		test_random();
	if (PART("iconv")) {
		test_iconv_random();
		test_corpus(shared);
	}
	if (py && PART("python"))
		test_python(py);
	printf("%lu passed, %lu failed\n", passed, failed);
	return failed ? 1 : 0;
}
