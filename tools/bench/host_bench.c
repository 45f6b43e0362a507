// SPDX-License-Identifier: GPL-2.0
/*
 * host_bench: throughput of utfconv's codec (its kmod/ sources built
 * natively, strict policy, utfconv_buf()) on its portable scalar paths,
 * its scalar paths with the BMI2 steps, its SIMD paths with SSE2 only,
 * without AVX2 (SSE2 and SSSE3), without AVX-512, with AVX-512 both ways
 * and as shipped, against glibc iconv, ICU
 * and, where SIMDUTF_DIR held it at build time, simdutf's fallback,
 * westmere, haswell and icelake kernels (the ones this CPU runs),
 * UTF-8 -> UTF-16LE and UTF-16LE -> UTF-8, on every file given.
 *
 *   host_bench [-r ROUNDS] [-m MIN_MS] [-c CSV] [-a IN [-o OUT]] FILE...
 *
 * -a IN, -o OUT: the timed input IN bytes and the output OUT bytes (IN
 * where no -o) past a 64-byte boundary, each in a buffer of its own;
 * without -a, wherever malloc() puts them. Where a file's loads and
 * stores run at the rate of the cache lines they touch, that moves it.
 *
 * Per file and direction the outputs of all implementations are first
 * compared byte for byte (simdutf through its validating conversions).
 * Then each round times every implementation once (round-robin, so a
 * noisy neighbour hurts all of them alike, each round starting one
 * implementation further on, so that none always runs first), each
 * sample a loop of at least MIN_MS milliseconds, all of them writing to
 * the same output buffer, so that only the code differs; the minimum
 * time per call over the rounds is kept. Prints MB/s of input bytes, the
 * ratios of each of our paths to its peer of the same instruction-set
 * level (scalar / simdutf fallback, SSSE3 / westmere, AVX2 / haswell),
 * the geometric means and the goal lines of issues 4, 15 and 28. A goal
 * of being at or above a peer on every file reads "at par" where a file
 * falls short of it in the best rounds but is not slower by a sign test
 * over the rounds; the fastest simdutf kernel this CPU runs is timed twice
 * in every round (the A/A column), a control of both. Ratios are
 * information, never a pass/fail test: the exit status only reports
 * errors.
 */
#include <errno.h>
#include <iconv.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <unicode/ustring.h>
#include <unicode/utypes.h>
#include <linux/utfconv.h>	/* the uapi header: encodings, policies */
#if BENCH_HAVE_SIMDUTF
#include "simdutf_shim.h"
#endif
#define BENCH_PROG "host_bench"
#include "bench_common.h"

#ifndef BENCH_SIMDUTF_DIR
#define BENCH_SIMDUTF_DIR "(SIMDUTF_DIR unset)"
#endif

/*
 * From kmod/utfconv_codec.h (kernel types there; the library's encodings
 * and policies have the uapi's values, which kmod/utfconv_dev.c asserts).
 */
ssize_t utfconv_buf(uint32_t source, uint32_t target, uint32_t policy,
		    uint32_t flags, const void *src, size_t src_bytes,
		    void *dst, size_t dst_bytes, uint64_t *error_offset);
/*
 * utfconv_buf() on a path (enum utfconv_path), as the host tests call it,
 * and the SIMD level a path takes.
 */
ssize_t utfconv_buf_path(unsigned int path, uint32_t source, uint32_t target,
			 uint32_t policy, uint32_t flags, const void *src,
			 size_t src_bytes, void *dst, size_t dst_bytes,
			 uint64_t *error_offset);
int utfconv_path_level(unsigned int path);
/* UTFCONV_PATH_GENERIC: the portable scalar code, as simdutf's fallback */
#define BENCH_PATH_SCALAR	5
#define BENCH_PATH_BMI2		0	/* UTFCONV_PATH_SCALAR: BMI2 steps */
#define BENCH_PATH_AUTO		1	/* UTFCONV_PATH_AUTO, the default */
#define BENCH_PATH_SSE2		3	/* UTFCONV_PATH_SSE2: no SSSE3 */
#define BENCH_PATH_SSSE3	4	/* UTFCONV_PATH_SSSE3: no AVX2 */
#define BENCH_PATH_AVX2		6	/* UTFCONV_PATH_AVX2: no AVX-512 */
#define BENCH_PATH_AVX512	7	/* UTFCONV_PATH_AVX512: both ways */
#define BENCH_LEVEL_AVX512	4	/* UTFCONV_LEVEL_AVX512 */

enum {
	IMPL_SCALAR, IMPL_BMI2, IMPL_SSE2, IMPL_SSSE3, IMPL_SIMD, IMPL_AVX2,
	IMPL_AVX512, IMPL_ICONV, IMPL_ICU, IMPL_FALLBACK, IMPL_WESTMERE,
	IMPL_HASWELL, IMPL_ICELAKE, NIMPL
};
#define IMPL_SDU0	IMPL_FALLBACK	/* the first simdutf kernel */
static const char *const impl_name[NIMPL] = {
	"scalar", "BMI2", "SSE2", "SSSE3", "SIMD", "AVX2", "AVX512", "iconv",
	"ICU", "fallback", "westmere", "haswell", "icelake"
};
static const char *const impl_csv[NIMPL] = {
	"scalar", "simd", "iconv", "icu", "ssse3",
	"sdu_fallback", "sdu_westmere", "sdu_haswell", "sdu_icelake",
	"avx2", "avx512", "bmi2", "sse2"
};
/*
 * CSV column order: the first four as before issue 15, then the rest in
 * the order they came (scripts/bench_tiers.py reads them by name).
 */
static const int csv_order[NIMPL] = {
	IMPL_SCALAR, IMPL_SIMD, IMPL_ICONV, IMPL_ICU, IMPL_SSSE3,
	IMPL_FALLBACK, IMPL_WESTMERE, IMPL_HASWELL, IMPL_ICELAKE,
	IMPL_AVX2, IMPL_AVX512, IMPL_BMI2, IMPL_SSE2
};
enum { D_8TO16, D_16TO8, NDIR };
static const char *const dir_name[NDIR] = { "UTF-8 -> UTF-16LE",
					    "UTF-16LE -> UTF-8" };
static const char *const dir_tag[NDIR] = { "utf8-to-utf16le",
					   "utf16le-to-utf8" };

static iconv_t cd[NDIR];
/* -a, -o: where the timed input and output lie past 64 (-1: malloc's) */
static int align_off = -1, out_off = -1;
static int name_w = 30;	/* the tables' first column: the longest name */
static bool avail[NIMPL];
static const void *sdu_kernel[NIMPL];	/* simdutf kernels, by IMPL_* */
/*
 * The A/A control: the fastest simdutf kernel this CPU runs (-1: none),
 * timed twice in every round, in slot NIMPL, as if it were two
 * implementations: its two timings differ by the run's noise only, and
 * each should win about half of the rounds. A round takes the slots in
 * the order of slot_at[], from a place one further on each round; the
 * control's is half a round from the kernel's, which runs the same
 * code just before it would give it warm predictors.
 */
static int aa_impl = -1;
#define NSLOT	(NIMPL + 1)
static const int slot_at[NSLOT] = {
	IMPL_SCALAR, IMPL_BMI2, IMPL_SSE2, IMPL_SSSE3, IMPL_SIMD, IMPL_AVX2,
	IMPL_AVX512, NIMPL, IMPL_ICONV, IMPL_ICU, IMPL_FALLBACK,
	IMPL_WESTMERE, IMPL_HASWELL, IMPL_ICELAKE
};
/* ns per call of every sample: [file][direction][round][slot] */
static double *round_ns;
static int nrounds;

static double *ns_of(int fi, int d)
{
	return round_ns + ((size_t)fi * NDIR + d) * nrounds * NSLOT;
}

/* Our paths and their peers of the same level: the ratio columns. */
static const struct { int ours, peer; const char *label; } pairs[] = {
	{ IMPL_SCALAR, IMPL_FALLBACK, "sc/fallbk" },
	{ IMPL_SSSE3, IMPL_WESTMERE, "SSSE3/wsm" },
	{ IMPL_SIMD, IMPL_HASWELL, "SIMD/hsw" },
	{ IMPL_SIMD, IMPL_ICELAKE, "SIMD/icl" },
	{ IMPL_SIMD, IMPL_ICONV, "SIMD/iconv" },
	{ IMPL_SIMD, IMPL_ICU, "SIMD/ICU" },
	/* issue 28: the AVX-512 paths pinned both ways, the AVX2 ones */
	{ IMPL_AVX512, IMPL_ICELAKE, "Z/icl" },
	{ IMPL_AVX2, IMPL_ICELAKE, "AVX2/icl" },
	{ IMPL_AVX512, IMPL_AVX2, "Z/AVX2" },
};
#define NPAIRS	(sizeof(pairs) / sizeof(pairs[0]))

static long run_codec(unsigned int path, int dir, const void *src, size_t n,
		      void *dst, size_t cap)
{
	uint32_t source = dir == D_8TO16 ? UTFCONV_ENC_UTF8 : UTFCONV_ENC_UTF16LE;
	uint32_t target = dir == D_8TO16 ? UTFCONV_ENC_UTF16LE : UTFCONV_ENC_UTF8;
	ssize_t r;

	if (path == BENCH_PATH_AUTO)
		r = utfconv_buf(source, target, UTFCONV_POLICY_STRICT, 0, src,
				n, dst, cap, NULL);
	else
		r = utfconv_buf_path(path, source, target,
				     UTFCONV_POLICY_STRICT, 0, src, n, dst,
				     cap, NULL);
	return r < 0 ? -1 : r;
}

static long run_iconv(int dir, const void *src, size_t n, void *dst,
		      size_t cap)
{
	char *in = (char *)src, *out = dst;
	size_t inl = n, outl = cap;

	iconv(cd[dir], NULL, NULL, NULL, NULL);
	if (iconv(cd[dir], &in, &inl, &out, &outl) == (size_t)-1)
		return -1;
	return out - (char *)dst;
}

static long run_icu(int dir, const void *src, size_t n, void *dst,
		    size_t cap)
{
	UErrorCode err = U_ZERO_ERROR;
	int32_t len = 0;

	if (dir == D_8TO16) {
		u_strFromUTF8(dst, cap / 2, &len, src, n, &err);
		return U_FAILURE(err) ? -1 : (long)len * 2;
	}
	u_strToUTF8(dst, cap, &len, src, n / 2, &err);
	return U_FAILURE(err) ? -1 : len;
}

/*
 * simdutf's validating conversions; it returns 0 for ill-formed input.
 * Built without simdutf, no kernel is available and this is not called.
 */
static long run_simdutf(int impl, int dir, const void *src, size_t n,
			void *dst)
{
#if BENCH_HAVE_SIMDUTF
	size_t r;

	if (dir == D_8TO16) {
		r = bench_simdutf_utf8_to_utf16le(sdu_kernel[impl], src, n,
						  dst);
		return r || !n ? (long)r * 2 : -1;
	}
	r = bench_simdutf_utf16le_to_utf8(sdu_kernel[impl], src, n / 2, dst);
	return r || !n ? (long)r : -1;
#else
	(void)impl, (void)dir, (void)src, (void)n, (void)dst;
	(void)sdu_kernel;
	return -1;
#endif
}

/* One conversion; returns output bytes, or -1 on error. */
static long run(int impl, int dir, const void *src, size_t n, void *dst,
		size_t cap)
{
	switch (impl) {
	case IMPL_SCALAR:
		return run_codec(BENCH_PATH_SCALAR, dir, src, n, dst, cap);
	case IMPL_BMI2:
		return run_codec(BENCH_PATH_BMI2, dir, src, n, dst, cap);
	case IMPL_SSE2:
		return run_codec(BENCH_PATH_SSE2, dir, src, n, dst, cap);
	case IMPL_SSSE3:
		return run_codec(BENCH_PATH_SSSE3, dir, src, n, dst, cap);
	case IMPL_SIMD:
		return run_codec(BENCH_PATH_AUTO, dir, src, n, dst, cap);
	case IMPL_AVX2:
		return run_codec(BENCH_PATH_AVX2, dir, src, n, dst, cap);
	case IMPL_AVX512:
		return run_codec(BENCH_PATH_AVX512, dir, src, n, dst, cap);
	case IMPL_ICONV:
		return run_iconv(dir, src, n, dst, cap);
	case IMPL_ICU:
		return run_icu(dir, src, n, dst, cap);
	}
	return run_simdutf(impl, dir, src, n, dst);
}

/* Seconds-free timing: ns per call of a loop of iters calls. */
static double sample(int impl, int dir, const void *src, size_t n, void *dst,
		     size_t cap, long iters)
{
	double t0 = now_ns();

	for (long i = 0; i < iters; i++)
		if (run(impl, dir, src, n, dst, cap) < 0)
			die("%s failed during timing", impl_name[impl]);
	return (now_ns() - t0) / iters;
}

/* Which implementations run here; says so for the missing ones. */
static void find_impls(void)
{
	static const char *const sdu[] = { "fallback", "westmere", "haswell",
					   "icelake" };

	for (int i = 0; i < IMPL_SDU0; i++)
		avail[i] = true;
	__builtin_cpu_init();
	avail[IMPL_SSSE3] = __builtin_cpu_supports("ssse3");
	avail[IMPL_BMI2] = __builtin_cpu_supports("bmi2");
	if (!avail[IMPL_BMI2])
		printf("BMI2: skipped: no BMI2 on this CPU\n");
	if (!__builtin_cpu_supports("avx2"))
		printf("note: no AVX2 on this CPU: the SIMD column is the SSSE3 paths\n");
	avail[IMPL_AVX512] = utfconv_path_level(BENCH_PATH_AVX512) >=
			     BENCH_LEVEL_AVX512;
	if (!avail[IMPL_AVX512])
		printf("AVX512: skipped: no AVX-512 on this CPU\n");
#if BENCH_HAVE_SIMDUTF
	printf("simdutf from %s (side by side, same rounds)\n",
	       BENCH_SIMDUTF_DIR);
	for (int i = IMPL_SDU0; i < NIMPL; i++) {
		sdu_kernel[i] = bench_simdutf_kernel(sdu[i - IMPL_SDU0]);
		avail[i] = sdu_kernel[i];
		if (!avail[i])
			printf("simdutf %s: not supported on this CPU, not measured\n",
			       sdu[i - IMPL_SDU0]);
	}
	for (int i = IMPL_SDU0; i < NIMPL; i++)
		if (avail[i])
			aa_impl = i;
	if (aa_impl >= 0)
		printf("A/A control: simdutf %s timed twice in every round\n",
		       impl_name[aa_impl]);
#else
	(void)sdu;
	printf("simdutf: not found at %s when built (make -C tools/bench SIMDUTF_DIR=DIR): measured without it\n",
	       BENCH_SIMDUTF_DIR);
#endif
}

/* The outputs of all implementations, byte for byte the scalar path's. */
static void check_outputs(const char *path, int d, const void *src,
			  size_t n, char **out, size_t cap)
{
	long olen[NIMPL];

	for (int i = 0; i < NIMPL; i++) {
		if (!avail[i])
			continue;
		memset(out[i], 0, cap);
		olen[i] = run(i, d, src, n, out[i], cap);
		if (olen[i] < 0) {
			fprintf(stderr, "host_bench: %s: %s rejects the input (%s)\n",
				path, impl_name[i], dir_name[d]);
			exit(1);
		}
		if (olen[i] != olen[0] || memcmp(out[i], out[0], olen[0])) {
			fprintf(stderr, "host_bench: %s: %s and %s outputs differ (%s)\n",
				path, impl_name[0], impl_name[i], dir_name[d]);
			exit(1);
		}
	}
}

/*
 * Interleaved rounds; the MB/s of the best round of each into @mbs,
 * every sample into @ns (NSLOT a round, NAN for those not run). Where
 * a file's output does not fit the L1 data cache, the implementations
 * that widen ASCII run at the rate of the cache lines they write, and
 * where an output buffer lies moves that rate: in one run two copies of
 * simdutf's icelake kernel, each with a buffer of its own, measured 9%
 * apart on Latin lipsum. Hence one buffer, @out, for all. Where a round
 * starts moves it too (up to 4% for the first of the round); hence the
 * turn, over the implementations and the control's slot.
 */
static void time_impls(int d, const void *src, size_t n, char *out,
		       size_t cap, double min_ms, double *mbs, double *ns)
{
	long iters[NIMPL];
	double best[NSLOT];

	/* Calibrate: calls per sample for >= min_ms. */
	for (int i = 0; i < NIMPL; i++) {
		long k = 1;

		iters[i] = 0;
		if (!avail[i])
			continue;
		while (sample(i, d, src, n, out, cap, k) * k < min_ms * 1e6)
			k *= 2;
		iters[i] = k;
	}
	for (int i = 0; i < NSLOT; i++)
		best[i] = INFINITY;
	for (int r = 0; r < nrounds; r++)
		for (int j = 0; j < NSLOT; j++) {
			int slot = slot_at[(r + j) % NSLOT];
			int i = slot == NIMPL ? aa_impl : slot;
			double t = NAN;

			if (i >= 0 && avail[i])
				t = sample(i, d, src, n, out, cap, iters[i]);
			ns[r * NSLOT + slot] = t;
			if (t < best[slot])
				best[slot] = t;
		}
	for (int i = 0; i < NIMPL; i++)
		mbs[i] = avail[i] ? n / best[i] * 1e3 : NAN; /* B/ns -> MB/s */
}

/* -a's and -o's argument: a number of bytes from 0 to 63. */
static int offset_arg(const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < 0 || v > 63)
		die("-a, -o: %s is not a number of bytes from 0 to 63", arg);
	return v;
}

/*
 * @n bytes @off bytes past a 64-byte boundary, a copy of @src's where
 * @src is not NULL; free_placed() frees them.
 */
static char *placed(const void *src, size_t n, int off)
{
	char *p;

	if (posix_memalign((void **)&p, 64, n + 64))
		die("%s", "out of memory");
	if (src)
		memcpy(p + off, src, n);
	return p + off;
}

static void free_placed(char *p, int off)
{
	if (p)
		free(p - off);
}

/*
 * Slot @a's speed over slot @b's, file @fi, direction @d, from the best
 * round of each (NAN where either was not run).
 */
static double best_ratio(int fi, int d, int a, int b)
{
	const double *t = ns_of(fi, d);
	double ta = INFINITY, tb = INFINITY;

	for (int r = 0; r < nrounds; r++) {
		ta = fmin(ta, t[r * NSLOT + a]);
		tb = fmin(tb, t[r * NSLOT + b]);
	}
	/* fmin() skips the NANs of a slot not run: all of them, then */
	return isinf(ta) || isinf(tb) ? NAN : tb / ta;
}

/* In how many rounds of file @fi, direction @d, slot @a beat slot @b. */
static int rounds_won(int fi, int d, int a, int b)
{
	const double *t = ns_of(fi, d);
	int won = 0;

	for (int r = 0; r < nrounds; r++)
		won += t[r * NSLOT + a] < t[r * NSLOT + b];
	return won;
}

/*
 * The most of @n rounds that one of two equally fast implementations
 * wins with a probability of at most 1% (a one-sided sign test): one
 * that wins no more is slower. -1 where @n rounds are too few to tell.
 */
static int sign_floor(int n)
{
	double p = 0;
	int k;

	for (k = 0; k <= n; k++) {
		p += exp(lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) -
			 n * log(2));
		if (p > 0.01)
			break;
	}
	return k - 1;
}

static void print_mbs(int d, int nfiles, char **paths, size_t (*sizes)[NDIR],
		      double (*mbs)[NDIR][NIMPL], int rounds, double *gm)
{
	printf("\nhost bench, %s (input MB/s, best of %d rounds)\n",
	       dir_name[d], rounds);
	printf("%-*s %7s", name_w, "file", "bytes");
	for (int i = 0; i < NIMPL; i++)
		printf(" %8s", impl_name[i]);
	printf("\n");
	for (int i = 0; i < NIMPL; i++)
		gm[i] = 0;
	for (int fi = 0; fi < nfiles; fi++) {
		printf("%-*s %7zu", name_w, short_name(paths[fi]),
		       sizes[fi][d]);
		for (int i = 0; i < NIMPL; i++) {
			if (isnan(mbs[fi][d][i]))
				printf(" %8s", "-");
			else
				printf(" %8.0f", mbs[fi][d][i]);
			gm[i] += log(mbs[fi][d][i]);
		}
		printf("\n");
	}
	printf("%-*s %7s", name_w, "geometric mean", "");
	for (int i = 0; i < NIMPL; i++) {
		gm[i] = exp(gm[i] / nfiles);
		if (isnan(gm[i]))
			printf(" %8s", "-");
		else
			printf(" %8.0f", gm[i]);
	}
	printf("\n");
}

/*
 * Per file, ours / peer for each of pairs[], worst[] its lowest; then
 * the A/A control's first timing over its second.
 */
static void print_ratios(int d, int nfiles, char **paths,
			 double (*mbs)[NDIR][NIMPL], const double *gm,
			 double *worst, int *worst_file)
{
	printf("\n%s, ratios (ours / peer; SIMD is the default path%s%s%s)\n",
	       dir_name[d], aa_impl < 0 ? "" : "; A/A: ",
	       aa_impl < 0 ? "" : impl_name[aa_impl],
	       aa_impl < 0 ? "" : "'s two timings");
	printf("%-*s", name_w, "file");
	for (size_t p = 0; p < NPAIRS; p++) {
		printf(" %10s", pairs[p].label);
		worst[p] = NAN;
		worst_file[p] = 0;
	}
	printf(" %10s\n", "A/A");
	for (int fi = 0; fi < nfiles; fi++) {
		printf("%-*s", name_w, short_name(paths[fi]));
		for (size_t p = 0; p < NPAIRS; p++) {
			double r = mbs[fi][d][pairs[p].ours] /
				   mbs[fi][d][pairs[p].peer];

			if (isnan(r)) {
				printf(" %10s", "-");
				continue;
			}
			printf(" %9.2fx", r);
			if (isnan(worst[p]) || r < worst[p]) {
				worst[p] = r;
				worst_file[p] = fi;
			}
		}
		if (aa_impl < 0)
			printf(" %10s\n", "-");
		else
			printf(" %9.2fx\n", best_ratio(fi, d, aa_impl, NIMPL));
	}
	printf("%-*s", name_w, "geometric mean");
	for (size_t p = 0; p < NPAIRS; p++) {
		double r = gm[pairs[p].ours] / gm[pairs[p].peer];

		if (isnan(r))
			printf(" %10s", "-");
		else
			printf(" %9.2fx", r);
	}
	printf("\n");
}

/* "met" where @r reaches @goal, else "MISSED"; @par: the verdict instead. */
static void goal_line(const char *what, double r, double goal,
		      const char *file, const char *par)
{
	if (isnan(r)) {
		printf("  %-52s not measured (no simdutf)\n", what);
		return;
	}
	printf("  %-52s measured %5.2fx%s%s%s  %s\n", what, r,
	       file ? " (" : "", file ? file : "", file ? ")" : "",
	       par ? par : r >= goal ? "met" : "MISSED");
}

/*
 * The goal of @ours at or above @peer on every file, direction @d: met
 * where no file's ratio of best rounds is below 1; at par where every
 * file below still won more rounds than sign_floor(), so that it is not
 * slower; else missed, at the lowest file that is slower.
 */
static void every_file_goal(const char *what, int d, int ours, int peer,
			    int nfiles, char **paths)
{
	int most = sign_floor(nrounds), low = -1, slow = -1, won = 0;
	double r, rlow = NAN, rslow = NAN;
	char par[80];

	for (int fi = 0; fi < nfiles; fi++) {
		r = best_ratio(fi, d, ours, peer);
		if (isnan(r))
			continue;
		if (low < 0 || r < rlow) {
			low = fi;
			rlow = r;
		}
		if (r < 1 && rounds_won(fi, d, ours, peer) <= most &&
		    (slow < 0 || r < rslow)) {
			slow = fi;
			rslow = r;
		}
	}
	if (low < 0) {
		goal_line(what, NAN, 1, NULL, NULL);
		return;
	}
	if (slow >= 0) {
		low = slow;
		rlow = rslow;
	}
	won = rounds_won(low, d, ours, peer);
	/* too few rounds for the sign test: no file below 1 is at par */
	snprintf(par, sizeof(par), "%s, won %d of %d rounds%s",
		 rlow >= 1 ? "met" : slow >= 0 || most < 0 ? "MISSED" :
		 "at par", won, nrounds,
		 rlow < 1 && most < 0 ? " (too few for at par)" : "");
	goal_line(what, rlow, 1, short_name(paths[low]), par);
}

static void print_goals(int nfiles, char **paths,
			double (*gm)[NIMPL], double (*worst)[NPAIRS],
			int (*wfile)[NPAIRS])
{
	static const struct {
		int d, impl, peer;
		double goal;
		const char *what;
	} g4[] = {
		{ D_8TO16, IMPL_SCALAR, IMPL_ICONV, 3.0, "scalar >= 3x iconv, UTF-8 -> UTF-16" },
		{ D_16TO8, IMPL_SCALAR, IMPL_ICONV, 3.5, "scalar >= 3.5x iconv, UTF-16 -> UTF-8" },
		{ D_8TO16, IMPL_SCALAR, IMPL_ICU, 1.4, "scalar >= 1.4x ICU, UTF-8 -> UTF-16" },
		{ D_16TO8, IMPL_SCALAR, IMPL_ICU, 1.4, "scalar >= 1.4x ICU, UTF-16 -> UTF-8" },
		{ D_8TO16, IMPL_SIMD, IMPL_ICONV, 6.0, "SIMD >= 6x iconv, UTF-8 -> UTF-16" },
		{ D_16TO8, IMPL_SIMD, IMPL_ICONV, 15.0, "SIMD >= 15x iconv, UTF-16 -> UTF-8" },
	};
	static const char *const dshort[NDIR] = { "UTF-8 -> UTF-16",
						  "UTF-16 -> UTF-8" };
	char what[96];

	for (int d = 0; d < NDIR && aa_impl >= 0; d++) {
		int won = 0, slower = 0, most = sign_floor(nrounds);

		/* each timing against the other: two one-sided tests a file */
		for (int fi = 0; fi < nfiles; fi++) {
			int w = rounds_won(fi, d, aa_impl, NIMPL);

			won += w;
			slower += (w <= most) + (nrounds - w <= most);
		}
		printf("%sA/A control, %s: simdutf %s's first timing won %d of %d rounds (%.0f%%) from its second, either slower by the sign test on %d of %d file%s; an equal pair in a quiet run: about half, and 1 file in 100%s\n",
		       d ? "" : "\n", dshort[d], impl_name[aa_impl], won,
		       nfiles * nrounds, 100.0 * won / (nfiles * nrounds),
		       slower, nfiles, nfiles == 1 ? "" : "s",
		       fabs((double)won / (nfiles * nrounds) - 0.5) > 0.1 ?
		       " (far from half: verdicts near a goal are the machine's)" :
		       "");
	}
	printf("\nissue 4 goals (geometric mean over %d file%s):\n", nfiles,
	       nfiles == 1 ? "" : "s");
	for (size_t g = 0; g < sizeof(g4) / sizeof(g4[0]); g++)
		goal_line(g4[g].what, gm[g4[g].d][g4[g].impl] /
				      gm[g4[g].d][g4[g].peer], g4[g].goal, NULL, NULL);

	printf("\nissue 15 goals 2 and 3 (simdutf kernels of the same level, ratios of input MB/s):\n");
	for (int d = 0; d < NDIR; d++) {
		snprintf(what, sizeof(what), "SIMD >= 1.0x haswell, every file, %s",
			 dshort[d]);
		every_file_goal(what, d, IMPL_SIMD, IMPL_HASWELL, nfiles,
				paths);
		snprintf(what, sizeof(what), "SIMD >= 1.3x haswell, geo. mean, %s",
			 dshort[d]);
		goal_line(what, gm[d][IMPL_SIMD] / gm[d][IMPL_HASWELL], 1.3,
			  NULL, NULL);
	}
	printf("\nissue 28 goals (simdutf icelake, ratios of input MB/s):\n");
	for (int d = 0; d < NDIR; d++) {
		snprintf(what, sizeof(what), "SIMD >= 1.0x icelake, every file, %s",
			 dshort[d]);
		every_file_goal(what, d, IMPL_SIMD, IMPL_ICELAKE, nfiles,
				paths);
		snprintf(what, sizeof(what), "SIMD >= 1.2x icelake, geo. mean, %s",
			 dshort[d]);
		goal_line(what, gm[d][IMPL_SIMD] / gm[d][IMPL_ICELAKE], 1.2,
			  NULL, NULL);
		snprintf(what, sizeof(what), "AVX512 >= 1.0x icelake, every file, %s",
			 dshort[d]);
		every_file_goal(what, d, IMPL_AVX512, IMPL_ICELAKE, nfiles,
				paths);
	}
	printf("\nscalar paths (simdutf fallback, ratios of input MB/s):\n");
	for (int d = 0; d < NDIR; d++) {
		snprintf(what, sizeof(what), "scalar >= 1.0x fallback, geo. mean, %s",
			 dshort[d]);
		goal_line(what, gm[d][IMPL_SCALAR] / gm[d][IMPL_FALLBACK], 1.0,
			  NULL, NULL);
		snprintf(what, sizeof(what), "scalar >= 0.9x fallback, every file, %s",
			 dshort[d]);
		goal_line(what, worst[d][0], 0.9, short_name(paths[wfile[d][0]]),
			  NULL);
	}
}

static void csv_row(FILE *csv, const char *path, int d, size_t n,
		    const double *mbs)
{
	const char *base = strrchr(path, '/');

	fprintf(csv, "%s,%s,%zu", base ? base + 1 : path, dir_tag[d], n);
	for (int i = 0; i < NIMPL; i++)
		fprintf(csv, ",%.1f", isnan(mbs[csv_order[i]]) ? 0.0 :
					mbs[csv_order[i]]);
	fprintf(csv, "\n");
}

int main(int argc, char **argv)
{
	int rounds = 20, opt, nfiles;
	double min_ms = 2.0;
	const char *csv_path = NULL;
	FILE *csv = NULL;
	double (*mbs)[NDIR][NIMPL];
	size_t (*sizes)[NDIR];
	double gm[NDIR][NIMPL], worst[NDIR][NPAIRS];
	int wfile[NDIR][NPAIRS];
	char **paths;

	while ((opt = getopt(argc, argv, "r:m:c:a:o:h")) != -1) {
		switch (opt) {
		case 'a': align_off = offset_arg(optarg); break;
		case 'o': out_off = offset_arg(optarg); break;
		case 'h':
			printf("usage: host_bench [-r ROUNDS] [-m MIN_MS] [-c CSV] [-a IN [-o OUT]] FILE...\n");
			return 0;
		case 'r': rounds = atoi(optarg); break;
		case 'm': min_ms = atof(optarg); break;
		case 'c': csv_path = optarg; break;
		default:
			fprintf(stderr, "usage: host_bench [-r ROUNDS] [-m MIN_MS] [-c CSV] [-a IN [-o OUT]] FILE...\n");
			return 2;
		}
	}
	nfiles = argc - optind;
	paths = argv + optind;
	for (int fi = 0; fi < nfiles; fi++)
		if ((int)strlen(short_name(paths[fi])) > name_w)
			name_w = strlen(short_name(paths[fi]));
	if (out_off >= 0 && align_off < 0)
		die("%s", "-o OUT goes with -a IN");
	if (out_off < 0)
		out_off = align_off;
	if (rounds <= 0 || min_ms < 0)
		die("%s", "-r wants a positive number of rounds, -m milliseconds >= 0");
	if (nfiles <= 0)
		die("%s", "no files given");
	if (align_off >= 0)
		printf("timed input %d and output %d bytes past a 64-byte boundary\n",
		       align_off, out_off);
	cd[D_8TO16] = iconv_open("UTF-16LE", "UTF-8");
	cd[D_16TO8] = iconv_open("UTF-8", "UTF-16LE");
	if (cd[D_8TO16] == (iconv_t)-1 || cd[D_16TO8] == (iconv_t)-1)
		die("%s", "iconv_open failed");
	mbs = calloc(nfiles, sizeof(*mbs));
	sizes = calloc(nfiles, sizeof(*sizes));
	nrounds = rounds;
	round_ns = calloc((size_t)nfiles * NDIR * rounds, NSLOT * sizeof(double));
	if (!mbs || !sizes || !round_ns)
		die("%s", "out of memory");
	if (csv_path) {
		csv = fopen(csv_path, "w");
		if (!csv)
			die("cannot write %s", csv_path);
		fprintf(csv, "file,direction,bytes");
		for (int i = 0; i < NIMPL; i++)
			fprintf(csv, ",%s_MBps", impl_csv[i]);
		fprintf(csv, "\n");
	}
	find_impls();
	printf("machine shared and noisy: absolute MB/s are not meaningful, ratios from the same interleaved rounds are\n");
	fprintf(stderr, "host_bench: %d file%s, %d rounds, samples >= %.1f ms\n",
		nfiles, nfiles == 1 ? "" : "s", rounds, min_ms);

	for (int fi = 0; fi < nfiles; fi++) {
		size_t n8, n16;
		char *u8 = read_file(paths[fi], &n8);
		size_t cap = 4 * n8 + 64;
		char *u16 = malloc(cap), *out[NIMPL];
		long len;

		if (!n8)
			die("%s is empty: nothing to time", paths[fi]);

		for (int i = 0; i < NIMPL; i++)
			out[i] = malloc(cap);
		len = run(IMPL_SCALAR, D_8TO16, u8, n8, u16, cap);
		if (len < 0)
			die("codec rejects %s as UTF-8", paths[fi]);
		n16 = len;

		for (int d = 0; d < NDIR; d++) {
			const void *src = d == D_8TO16 ? u8 : u16;
			size_t n = d == D_8TO16 ? n8 : n16;
			char *tsrc = NULL, *tout = NULL;

			check_outputs(paths[fi], d, src, n, out, cap);
			if (align_off >= 0)
				src = tsrc = placed(src, n, align_off);
			if (align_off >= 0)
				tout = placed(NULL, cap, out_off);
			time_impls(d, src, n, tout ? tout : out[0], cap, min_ms,
				   mbs[fi][d], ns_of(fi, d));
			free_placed(tsrc, align_off);
			free_placed(tout, out_off);
			sizes[fi][d] = n;
			if (csv)
				csv_row(csv, paths[fi], d, n, mbs[fi][d]);
		}
		free(u8);
		free(u16);
		for (int i = 0; i < NIMPL; i++)
			free(out[i]);
		fprintf(stderr, ".");
	}
	fprintf(stderr, "\n");
	if (csv)
		fclose(csv);

	for (int d = 0; d < NDIR; d++) {
		print_mbs(d, nfiles, paths, sizes, mbs, rounds, gm[d]);
		print_ratios(d, nfiles, paths, mbs, gm[d], worst[d],
			     wfile[d]);
	}
	print_goals(nfiles, paths, gm, worst, wfile);
	return 0;
}
