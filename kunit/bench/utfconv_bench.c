// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv in-kernel bench: utfconv_buf() (strict policy) on its scalar
 * paths only (utfconv_buf_path(UTFCONV_PATH_SCALAR, ...)) and with its
 * SIMD paths (utfconv_buf() itself, the default: for large buffers,
 * where the architecture has them) against
 * fs/nls's utf8s_to_utf16s() and utf16s_to_utf8s() on the same buffers, for every
 * corpus file embedded at build time (utfconv_bench.h). Runs on UML, where
 * kernel code runs at native speed; scripts/bench.sh builds it with its own
 * kunitconfig and prints the table from the lines below.
 *
 * Per file and direction the outputs are compared first (a mismatch fails
 * the case); then each round times both converters once, each sample a
 * loop of at least 2 ms, and the minimum time per call is kept. Printed,
 * one line per file and direction (picoseconds per call):
 *   utfconv_bench: <dir> <file> <input bytes> codec_ps=<n> simd_ps=<n> nls_ps=<n>
 * and for file names (utfconv_bench_names(), picoseconds per
 * call, the average name length in input bytes):
 *   utfconv_bench: names-<dir> <file> <names> <bytes> fs_ps=<n> off_ps=<n> nls_ps=<n>
 * and for the mapped forms (utfconv_bench_map(), picoseconds per call of
 * the whole file and per name, unmapped and mapped):
 *   utfconv_bench: map-<dir> <file> <bytes> text_ps=<n> text_map_ps=<n>
 *                  names_ps=<n> names_map_ps=<n>    (one line)
 * Ratios are computed by scripts/bench.sh; nothing here asserts a speed.
 */
#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/nls.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/utfconv.h>

#include "../kmod/utfconv_codec.h"
#include "../kmod/utfconv_fsname.h"
#include "../kmod/utfconv_simd.h"
#include "utfconv_bench.h"

#define BENCH_ROUNDS	20
#define BENCH_MIN_NS	(2 * NSEC_PER_MSEC)

enum { IMPL_CODEC, IMPL_SIMD, IMPL_NLS, NIMPL };
enum { D_8TO16, D_16TO8 };

struct bench_buf {
	const void *src;
	size_t n;		/* input bytes */
	void *dst;
	size_t cap;		/* output bytes */
};

/* One conversion; output bytes or a negative errno. */
static long bench_run(int impl, int dir, const struct bench_buf *b)
{
	enum utfconv_encoding source = dir == D_8TO16 ? UTFCONV_UTF8 :
							UTFCONV_UTF16LE;
	enum utfconv_encoding target = dir == D_8TO16 ? UTFCONV_UTF16LE :
							UTFCONV_UTF8;

	if (impl == IMPL_SIMD)
		return utfconv_buf(source, target, UTFCONV_STRICT, 0, b->src,
				   b->n, b->dst, b->cap, NULL);
	if (impl == IMPL_CODEC)
		return utfconv_buf_path(UTFCONV_PATH_SCALAR, source, target,
					UTFCONV_STRICT, 0, b->src, b->n,
					b->dst, b->cap, NULL);
	/* fs/nls: maxout in output units; both stop at a NUL. */
	if (dir == D_8TO16) {
		int r = utf8s_to_utf16s(b->src, b->n, UTF16_LITTLE_ENDIAN,
					b->dst, b->cap / 2);

		return r < 0 ? r : (long)r * 2;
	}
	return utf16s_to_utf8s(b->src, b->n / 2, UTF16_LITTLE_ENDIAN,
			       b->dst, b->cap);
}

static u64 bench_sample(int impl, int dir, const struct bench_buf *b,
			unsigned long iters)
{
	u64 t0 = ktime_get_ns();
	unsigned long i;

	for (i = 0; i < iters; i++)
		bench_run(impl, dir, b);
	return ktime_get_ns() - t0;
}

static void bench_one(struct kunit *test, int dir, const char *name,
		      const void *src, size_t n, void *out[NIMPL], size_t cap)
{
	struct bench_buf b[NIMPL];
	unsigned long iters[NIMPL];
	u64 best[NIMPL];
	long len[NIMPL];
	int i, r;

	for (i = 0; i < NIMPL; i++) {
		b[i] = (struct bench_buf){ src, n, out[i], cap };
		memset(out[i], 0, cap);
		len[i] = bench_run(i, dir, &b[i]);
		KUNIT_ASSERT_GT_MSG(test, len[i], 0L, "%s: impl %d error", name, i);
	}
	for (i = 1; i < NIMPL; i++) {
		KUNIT_ASSERT_EQ_MSG(test, len[IMPL_CODEC], len[i],
				    "%s: output lengths differ (%d)", name, i);
		KUNIT_ASSERT_EQ_MSG(test, memcmp(out[IMPL_CODEC], out[i],
						 len[IMPL_CODEC]), 0,
				    "%s: outputs differ (%d)", name, i);
	}

	for (i = 0; i < NIMPL; i++) {
		unsigned long k = 1;

		while (bench_sample(i, dir, &b[i], k) < BENCH_MIN_NS)
			k *= 2;
		iters[i] = k;
		best[i] = U64_MAX;
	}
	for (r = 0; r < BENCH_ROUNDS; r++) {
		for (i = 0; i < NIMPL; i++) {
			u64 t = div64_u64(bench_sample(i, dir, &b[i], iters[i]) *
					  1000, iters[i]);	/* ps per call */

			best[i] = min(best[i], t);
		}
		cond_resched();
	}
	pr_info("utfconv_bench: %s %s %zu codec_ps=%llu simd_ps=%llu nls_ps=%llu\n",
		dir == D_8TO16 ? "utf8-to-utf16le" : "utf16le-to-utf8", name, n,
		best[IMPL_CODEC], best[IMPL_SIMD], best[IMPL_NLS]);
}

static void utfconv_bench_corpus(struct kunit *test)
{
	unsigned int f;
	int i;

	for (f = 0; f < utfconv_bench_nfiles; f++) {
		const struct utfconv_bench_file *bf = &utfconv_bench_files[f];
		size_t n8 = bf->end - bf->data, cap = 4 * n8 + 64;
		void *u16, *out[NIMPL];
		ssize_t n16;

		u16 = kvmalloc(cap, GFP_KERNEL);
		for (i = 0; i < NIMPL; i++)
			out[i] = kvmalloc(cap, GFP_KERNEL);
		KUNIT_ASSERT_TRUE(test, u16 && out[0] && out[1] && out[2]);
		n16 = utfconv_buf(UTFCONV_UTF8, UTFCONV_UTF16LE,
				  UTFCONV_STRICT, 0, bf->data, n8, u16,
				  cap, NULL);
		KUNIT_ASSERT_GT(test, n16, (ssize_t)0);
		bench_one(test, D_8TO16, bf->name, bf->data, n8, out, cap);
		bench_one(test, D_16TO8, bf->name, u16, n16, out, cap);
		kvfree(u16);
		for (i = 0; i < NIMPL; i++)
			kvfree(out[i]);
	}
	pr_info("utfconv_bench: done %u files\n", utfconv_bench_nfiles);
}

/*
 * Names: NAME_MAX names (255 bytes of UTF-8, cut back to a character
 * boundary) at BENCH_NAMES evenly spaced places of each corpus file, and
 * their UTF-16LE forms, through the forms filesystems call (the WTF-8
 * policy, names= of a mount by default), through the _off forms with the
 * strict policy and an error offset, and through fs/nls, in calls per
 * second.
 */
#define BENCH_NAMES	64
#define BENCH_NAME_UNITS	(NAME_MAX + 1)	/* output room, both sides */

enum { NAME_FS, NAME_OFF, NAME_NLS, NNAME };

struct bench_name {
	const u8 *utf8;
	int len8;		/* bytes */
	int len16;		/* code units */
	wchar_t utf16[NAME_MAX];
};

/* A file's names, and output buffers for the calls on them. */
struct bench_names {
	struct bench_name nm[BENCH_NAMES];
	int n;
	u8 ref[4 * BENCH_NAME_UNITS];
	u8 out[4 * BENCH_NAME_UNITS];
};

/* One name by @impl; output units (to UTF-16) or bytes, or an errno. */
static int bench_name_run(int impl, int dir, const struct bench_name *nm,
			  void *out)
{
	u64 off;

	if (dir == D_8TO16) {
		if (impl == NAME_FS)
			return utfconv_fsname_utf8s_to_utf16s(nm->utf8, nm->len8,
					UTF16_LITTLE_ENDIAN, out,
					BENCH_NAME_UNITS, UTFCONV_WTF8);
		if (impl == NAME_OFF)
			return utfconv_fsname_utf8s_to_utf16s_off(nm->utf8,
					nm->len8, UTF16_LITTLE_ENDIAN, out,
					BENCH_NAME_UNITS, UTFCONV_STRICT,
					&off);
		return utf8s_to_utf16s(nm->utf8, nm->len8, UTF16_LITTLE_ENDIAN,
				       out, BENCH_NAME_UNITS);
	}
	if (impl == NAME_FS)
		return utfconv_fsname_utf16s_to_utf8s(nm->utf16, nm->len16,
				UTF16_LITTLE_ENDIAN, out, 4 * BENCH_NAME_UNITS,
				UTFCONV_WTF8);
	if (impl == NAME_OFF)
		return utfconv_fsname_utf16s_to_utf8s_off(nm->utf16, nm->len16,
				UTF16_LITTLE_ENDIAN, out, 4 * BENCH_NAME_UNITS,
				UTFCONV_STRICT, &off);
	return utf16s_to_utf8s(nm->utf16, nm->len16, UTF16_LITTLE_ENDIAN, out,
			       4 * BENCH_NAME_UNITS);
}

/* @iters passes over the names of @b by @impl; nanoseconds. */
static u64 bench_names_sample(int impl, int dir, struct bench_names *b,
			      unsigned long iters)
{
	u64 t0 = ktime_get_ns();
	unsigned long i;
	int k;

	for (i = 0; i < iters; i++)
		for (k = 0; k < b->n; k++)
			bench_name_run(impl, dir, &b->nm[k], b->out);
	return ktime_get_ns() - t0;
}

/* The names of @bf: whole characters, at most NAME_MAX bytes each. */
static void bench_names_make(struct kunit *test,
			     const struct utfconv_bench_file *bf,
			     struct bench_names *b)
{
	size_t n8 = bf->end - bf->data, step = n8 / BENCH_NAMES, pos, len;
	struct bench_name *nm;
	int i;

	for (i = 0; i < BENCH_NAMES; i++) {
		nm = &b->nm[i];
		pos = i * step;
		while (pos < n8 && (bf->data[pos] & 0xC0) == 0x80)
			pos++;
		len = min_t(size_t, n8 - pos, NAME_MAX);
		/* the byte after the name continues its last character */
		while (len && pos + len < n8 &&
		       (bf->data[pos + len] & 0xC0) == 0x80)
			len--;
		nm->utf8 = bf->data + pos;
		nm->len8 = len;
		nm->len16 = utfconv_fsname_utf8s_to_utf16s_off(nm->utf8, len,
							       UTF16_LITTLE_ENDIAN,
							       nm->utf16,
							       NAME_MAX,
							       UTFCONV_STRICT,
							       NULL);
		KUNIT_ASSERT_GE_MSG(test, nm->len16, 0,
				    "%s: name %d does not convert", bf->name, i);
	}
	b->n = BENCH_NAMES;
}

/* Every implementation gives fs/nls's output for every name. */
static void bench_names_check(struct kunit *test, const char *file, int dir,
			      struct bench_names *b)
{
	int unit = dir == D_8TO16 ? sizeof(wchar_t) : 1;
	int i, k, len, rlen;

	for (k = 0; k < b->n; k++) {
		rlen = bench_name_run(NAME_NLS, dir, &b->nm[k], b->ref);
		KUNIT_ASSERT_GT_MSG(test, rlen, 0, "%s: name %d: fs/nls gave %d",
				    file, k, rlen);
		for (i = 0; i < NAME_NLS; i++) {
			memset(b->out, 0, sizeof(b->out));
			len = bench_name_run(i, dir, &b->nm[k], b->out);
			KUNIT_ASSERT_EQ_MSG(test, len, rlen,
					    "%s: name %d: impl %d length",
					    file, k, i);
			KUNIT_ASSERT_EQ_MSG(test,
					    memcmp(b->out, b->ref, rlen * unit),
					    0, "%s: name %d: impl %d output",
					    file, k, i);
		}
	}
}

/*
 * The best time of each of @n implementations, in ps per call: @sample
 * runs @iters loops of implementation @i (each loop @calls[i] calls) and
 * returns nanoseconds; each gets as many loops as take BENCH_MIN_NS, and
 * BENCH_ROUNDS rounds run them all in turn, keeping the minimum.
 */
static void bench_best(u64 (*sample)(int i, void *ctx, unsigned long iters),
		       void *ctx, int n, const int *calls, u64 *best)
{
	unsigned long iters[8];
	int i, r;

	for (i = 0; i < n; i++) {
		unsigned long k = 1;

		while (sample(i, ctx, k) < BENCH_MIN_NS)
			k *= 2;
		iters[i] = k;
		best[i] = U64_MAX;
	}
	for (r = 0; r < BENCH_ROUNDS; r++) {
		for (i = 0; i < n; i++) {
			u64 t = sample(i, ctx, iters[i]);

			best[i] = min(best[i], div64_u64(t * 1000,
							 iters[i] * calls[i]));
		}
		cond_resched();
	}
}

struct bench_names_ctx {
	struct bench_names *b;
	int dir;
};

static u64 bench_names_sample_ctx(int i, void *ctx, unsigned long iters)
{
	struct bench_names_ctx *c = ctx;

	return bench_names_sample(i, c->dir, c->b, iters);
}

static void bench_names_one(struct kunit *test, const char *file, int dir,
			    struct bench_names *b)
{
	struct bench_names_ctx c = { b, dir };
	int calls[NNAME], i;
	u64 best[NNAME], bytes = 0;

	bench_names_check(test, file, dir, b);
	for (i = 0; i < b->n; i++)
		bytes += dir == D_8TO16 ? b->nm[i].len8 : 2 * b->nm[i].len16;
	for (i = 0; i < NNAME; i++)
		calls[i] = b->n;
	bench_best(bench_names_sample_ctx, &c, NNAME, calls, best);
	pr_info("utfconv_bench: names-%s %s %d %llu fs_ps=%llu off_ps=%llu nls_ps=%llu\n",
		dir == D_8TO16 ? "utf8-to-utf16le" : "utf16le-to-utf8", file,
		b->n, div_u64(bytes, b->n), best[NAME_FS], best[NAME_OFF],
		best[NAME_NLS]);
}

static void utfconv_bench_names(struct kunit *test)
{
	struct bench_names *b;
	unsigned int f;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (f = 0; f < utfconv_bench_nfiles; f++) {
		const struct utfconv_bench_file *bf = &utfconv_bench_files[f];

		bench_names_make(test, bf, b);
		bench_names_one(test, bf->name, D_8TO16, b);
		bench_names_one(test, bf->name, D_16TO8, b);
	}
	pr_info("utfconv_bench: done names of %u files\n",
		utfconv_bench_nfiles);
}

/*
 * Mapping: the drop-ins without a map against the _map forms with SMB's
 * Services for Mac map (40 pairs, paths; the largest table the kernel
 * has), on text with nothing to map, which is what a filesystem converts
 * almost always: a copy of each file with every ASCII character the map
 * names (the C0 controls, " * : < > ? |, space and period) made '_', and
 * the backslash, which ends a component of the map's paths and has the
 * character before it looked up (Documentation/benchmarks.rst measures
 * text that keeps them). Whole files, and the names of
 * utfconv_bench_names() cut from the copy.
 */
enum { MAP_TEXT, MAP_TEXT_MAP, MAP_NAMES, MAP_NAMES_MAP, NMAP };

struct bench_map {
	struct utfconv_charmap map;
	struct bench_names names;
	const u8 *text;
	int len8;		/* bytes of @text */
	const wchar_t *text16;
	int len16;		/* code units of @text16 */
	u8 *out;
	int cap;		/* bytes of @out */
};

static void bench_map_pairs(struct kunit *test, struct utfconv_charmap *map)
{
	static const char rsvd[] = "\"*:<>?|";
	struct utfconv_charpair p[40];
	int i, k = 0;

	for (i = 0x01; i <= 0x1F; i++)
		p[k++] = (struct utfconv_charpair){ i, 0xF000 + i, 0 };
	for (i = 0; rsvd[i]; i++)
		p[k++] = (struct utfconv_charpair){ rsvd[i], 0xF020 + i, 0 };
	p[k++] = (struct utfconv_charpair){ ' ', 0xF028, UTFCONV_PAIR_LAST };
	p[k++] = (struct utfconv_charpair){ '.', 0xF029, UTFCONV_PAIR_LAST };
	KUNIT_ASSERT_EQ(test, utfconv_charmap_init(map, p, k,
						   UTFCONV_MAP_PATH), 0);
}

/* One call of @what on @m in direction @dir; units, bytes or an errno. */
static int bench_map_run(int what, int dir, struct bench_map *m, int k)
{
	const struct utfconv_charmap *map = what & 1 ? &m->map : NULL;
	const struct bench_name *nm = &m->names.nm[k];
	const enum utf16_endian le = UTF16_LITTLE_ENDIAN;
	bool text = what < MAP_NAMES;

	if (dir == D_8TO16)
		return utfconv_fsname_utf8s_to_utf16s_map(text ? m->text :
				nm->utf8, text ? m->len8 : nm->len8, le,
				(wchar_t *)m->out, m->cap / 2, UTFCONV_WTF8,
				map);
	return utfconv_fsname_utf16s_to_utf8s_map(text ? m->text16 : nm->utf16,
			text ? m->len16 : nm->len16, le, m->out, m->cap,
			UTFCONV_WTF8, map);
}

/* @iters calls (names: passes over the names) of @what; nanoseconds. */
static u64 bench_map_sample(int what, int dir, struct bench_map *m,
			    unsigned long iters)
{
	int n = what < MAP_NAMES ? 1 : m->names.n;
	u64 t0 = ktime_get_ns();
	unsigned long i;
	int k;

	for (i = 0; i < iters; i++)
		for (k = 0; k < n; k++)
			bench_map_run(what, dir, m, k);
	return ktime_get_ns() - t0;
}

/* The mapped forms give the unmapped output: nothing to map. */
static void bench_map_check(struct kunit *test, const char *file, int dir,
			    struct bench_map *m)
{
	u8 *ref = m->out + m->cap / 2;
	int what, k, len, n;

	for (what = MAP_TEXT; what < NMAP; what += 2) {
		n = what < MAP_NAMES ? 1 : m->names.n;
		for (k = 0; k < n; k++) {
			m->cap /= 2;
			len = bench_map_run(what, dir, m, k);
			KUNIT_ASSERT_GT(test, len, 0);
			if (dir == D_8TO16)
				len *= 2;	/* bytes */
			memcpy(ref, m->out, len);
			KUNIT_ASSERT_EQ_MSG(test, bench_map_run(what + 1, dir,
								m, k),
					    dir == D_8TO16 ? len / 2 : len,
					    "%s: %d/%d mapped length", file,
					    what, k);
			m->cap *= 2;
			KUNIT_ASSERT_EQ_MSG(test, memcmp(ref, m->out, len), 0,
					    "%s: %d/%d mapped output", file,
					    what, k);
		}
	}
}

struct bench_map_ctx {
	struct bench_map *m;
	int dir;
};

static u64 bench_map_sample_ctx(int i, void *ctx, unsigned long iters)
{
	struct bench_map_ctx *c = ctx;

	return bench_map_sample(i, c->dir, c->m, iters);
}

static void bench_map_one(struct kunit *test, const char *file, int dir,
			  struct bench_map *m)
{
	struct bench_map_ctx c = { m, dir };
	int calls[NMAP], i;
	u64 best[NMAP];

	bench_map_check(test, file, dir, m);
	for (i = 0; i < NMAP; i++)
		calls[i] = i < MAP_NAMES ? 1 : m->names.n;
	bench_best(bench_map_sample_ctx, &c, NMAP, calls, best);
	pr_info("utfconv_bench: map-%s %s %d text_ps=%llu text_map_ps=%llu names_ps=%llu names_map_ps=%llu\n",
		dir == D_8TO16 ? "utf8-to-utf16le" : "utf16le-to-utf8", file,
		m->len8, best[MAP_TEXT], best[MAP_TEXT_MAP], best[MAP_NAMES],
		best[MAP_NAMES_MAP]);
}

/* @m's text: a copy of @bf with the ASCII characters the map names '_'. */
static void bench_map_text(struct kunit *test,
			   const struct utfconv_bench_file *bf,
			   struct bench_map *m, u8 *copy, wchar_t *copy16)
{
	struct utfconv_bench_file clean = { bf->name, copy, NULL };
	bool named[0x80];
	wchar_t unit[2];
	u8 probe[2] = "a";
	int i;

	/* after another character: "." and ".." are left alone */
	for (i = 0; i < 0x80; i++) {
		probe[1] = i;
		named[i] = utfconv_fsname_utf8s_to_utf16s_map(probe, 2,
							      UTF16_LITTLE_ENDIAN,
							      unit, 2,
							      UTFCONV_WTF8,
							      &m->map) == 2 &&
			   unit[1] != i;
	}
	named['\\'] = true;
	m->len8 = bf->end - bf->data;
	for (i = 0; i < m->len8; i++)
		copy[i] = bf->data[i] < 0x80 && named[bf->data[i]] ? '_' :
			  bf->data[i];
	clean.end = copy + m->len8;
	m->text = copy;
	m->text16 = copy16;
	m->len16 = utfconv_fsname_utf8s_to_utf16s(copy, m->len8,
						  UTF16_LITTLE_ENDIAN, copy16,
						  m->len8, UTFCONV_WTF8);
	KUNIT_ASSERT_GT(test, m->len16, 0);
	bench_names_make(test, &clean, &m->names);
}

static void utfconv_bench_map(struct kunit *test)
{
	struct bench_map *m;
	wchar_t *copy16;
	unsigned int f;
	size_t n8;
	u8 *copy;

	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	bench_map_pairs(test, &m->map);
	for (f = 0; f < utfconv_bench_nfiles; f++) {
		const struct utfconv_bench_file *bf = &utfconv_bench_files[f];

		n8 = bf->end - bf->data;
		copy = kvmalloc(n8, GFP_KERNEL);
		copy16 = kvmalloc(2 * n8, GFP_KERNEL);
		m->cap = 8 * n8 + 64;
		m->out = kvmalloc(m->cap, GFP_KERNEL);
		KUNIT_ASSERT_TRUE(test, copy && copy16 && m->out);
		bench_map_text(test, bf, m, copy, copy16);
		bench_map_one(test, bf->name, D_8TO16, m);
		bench_map_one(test, bf->name, D_16TO8, m);
		kvfree(m->out);
		kvfree(copy16);
		kvfree(copy);
	}
	pr_info("utfconv_bench: done map of %u files\n", utfconv_bench_nfiles);
}

static struct kunit_case utfconv_bench_cases[] = {
	KUNIT_CASE_SLOW(utfconv_bench_corpus),
	KUNIT_CASE_SLOW(utfconv_bench_names),
	KUNIT_CASE_SLOW(utfconv_bench_map),
	{}
};

static struct kunit_suite utfconv_bench_suite = {
	.name = "utfconv_bench",
	.test_cases = utfconv_bench_cases,
};

kunit_test_suite(utfconv_bench_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("utfconv in-kernel bench against fs/nls");
MODULE_LICENSE("GPL");
