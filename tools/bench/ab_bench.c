// SPDX-License-Identifier: GPL-2.0
/*
 * ab_bench: the codec of this tree (B) against the codec of another tree
 * (A, BASE= of `make -C tools/bench ab`) and simdutf's haswell kernel,
 * all three in one process, in the same interleaved rounds, on their
 * default paths (AVX2 where the CPU has it), one direction:
 *
 *   ab_bench [-r ROUNDS] [-m MIN_MS] [-p PATH] [-8] FILE...
 *
 * UTF-16LE -> UTF-8 (the UTF-16LE input made from each UTF-8 file by B),
 * or with -8 UTF-8 -> UTF-16LE. For a change of a SIMD step, B/A of one
 * run is what to judge it by: two builds run one after the other on a
 * machine shared with other jobs differ by more than most changes do.
 * Both codecs are linked into this program with their symbols renamed
 * (the Makefile's objcopy lines: A_utfconv_buf(), B_utfconv_buf(), ...,
 * everything else made local). The outputs of the three are compared byte
 * for byte first; then each round times each of them once, in an order
 * rotated from round to round, each sample a loop of at least MIN_MS
 * milliseconds, and keeps the fastest. Prints input MB/s, A/hsw, B/hsw
 * and B/A per file and their geometric means; the exit status only
 * reports errors. -p runs both codecs on the path PATH (the number of an
 * enum utfconv_path, kmod/utfconv_simd.h: 3 SSE2, 4 SSSE3, 6 AVX2, 7
 * AVX-512; default 1, what users get, through utfconv_buf() itself), so
 * that a machine with AVX-512 measures the other SIMD paths too: through
 * each codec's utfconv_buf_path(), or, in a tree from before it, after
 * its global utfconv_force_path().
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/types.h>
#include <linux/utfconv.h>	/* the uapi header: encodings, policies */
#if BENCH_HAVE_SIMDUTF
#include "simdutf_shim.h"
#endif
#define BENCH_PROG "ab_bench"
#include "bench_common.h"

/*
 * The one-shot converters take a source and a target encoding (the
 * uapi's values, which the library shares); a tree from before that
 * (the Makefile sets AB_A_ENCODINGS to 0 for it) took one number for
 * both, its UTFCONV_DIR_*: 1 from UTF-8 to UTF-16LE, 3 back.
 */
#ifndef AB_A_ENCODINGS
#define AB_A_ENCODINGS	1
#endif
#if AB_A_ENCODINGS
#define AB_A_ARGS	uint32_t source, uint32_t target
#define AB_A_PAIR(dir)	ab_source(dir), ab_target(dir)
#else
#define AB_A_ARGS	uint32_t direction
#define AB_A_PAIR(dir)	((dir) == AB_DIR_8TO16 ? 1 : 3)
#endif
ssize_t A_utfconv_buf(AB_A_ARGS, uint32_t policy, uint32_t flags,
		      const void *src, size_t src_bytes, void *dst,
		      size_t dst_bytes, uint64_t *error_offset);
ssize_t B_utfconv_buf(uint32_t source, uint32_t target, uint32_t policy,
		      uint32_t flags, const void *src, size_t src_bytes,
		      void *dst, size_t dst_bytes, uint64_t *error_offset);
/* -p: the path entry of each tree, or an older tree's global pin */
ssize_t A_utfconv_buf_path(unsigned int path, AB_A_ARGS, uint32_t policy,
			   uint32_t flags, const void *src, size_t src_bytes,
			   void *dst, size_t dst_bytes,
			   uint64_t *error_offset) __attribute__((weak));
ssize_t B_utfconv_buf_path(unsigned int path, uint32_t source,
			   uint32_t target, uint32_t policy, uint32_t flags,
			   const void *src, size_t src_bytes, void *dst,
			   size_t dst_bytes, uint64_t *error_offset);
int A_utfconv_path_level(unsigned int path) __attribute__((weak));
int B_utfconv_path_level(unsigned int path);
int A_utfconv_force_path(unsigned int path) __attribute__((weak));

/* the two directions, and the codec's UTFCONV_PATH_AUTO */
#define AB_DIR_8TO16	1
#define AB_DIR_16TO8	3
#define AB_PATH_AUTO	1

static uint32_t ab_source(int dir)
{
	return dir == AB_DIR_8TO16 ? UTFCONV_ENC_UTF8 : UTFCONV_ENC_UTF16LE;
}

static uint32_t ab_target(int dir)
{
	return dir == AB_DIR_8TO16 ? UTFCONV_ENC_UTF16LE : UTFCONV_ENC_UTF8;
}

enum { IMPL_A, IMPL_B, IMPL_HSW, NIMPL };
static const char *const impl_name[NIMPL] = { "A", "B", "haswell" };
static const void *hsw;
static int nimpl = 2;
static unsigned int ab_path = AB_PATH_AUTO;

/* One conversion in direction @dir; output bytes, or -1 on error. */
static long run(int impl, int dir, const void *src, size_t n, void *dst,
		size_t cap)
{
	ssize_t r = -1;

	if (impl == IMPL_A && ab_path != AB_PATH_AUTO && A_utfconv_buf_path)
		r = A_utfconv_buf_path(ab_path, AB_A_PAIR(dir),
				       UTFCONV_POLICY_STRICT, 0, src, n, dst,
				       cap, NULL);
	else if (impl == IMPL_A)
		r = A_utfconv_buf(AB_A_PAIR(dir), UTFCONV_POLICY_STRICT, 0,
				  src, n, dst, cap, NULL);
	else if (impl == IMPL_B && ab_path != AB_PATH_AUTO)
		r = B_utfconv_buf_path(ab_path, ab_source(dir), ab_target(dir),
				       UTFCONV_POLICY_STRICT, 0, src, n, dst,
				       cap, NULL);
	else if (impl == IMPL_B)
		r = B_utfconv_buf(ab_source(dir), ab_target(dir),
				  UTFCONV_POLICY_STRICT, 0, src, n, dst, cap,
				  NULL);
#if BENCH_HAVE_SIMDUTF
	else if (dir == AB_DIR_16TO8)
		r = bench_simdutf_utf16le_to_utf8(hsw, src, n / 2, dst);
	else
		r = 2 * bench_simdutf_utf8_to_utf16le(hsw, src, n, dst);
	if (impl == IMPL_HSW && !r && n)
		r = -1;
#endif
	return r < 0 ? -1 : r;
}

static double sample(int impl, int dir, const void *src, size_t n,
		     void *dst, size_t cap, long iters)
{
	double t0 = now_ns();

	for (long i = 0; i < iters; i++)
		if (run(impl, dir, src, n, dst, cap) < 0)
			die("%s failed during timing", impl_name[impl]);
	return (now_ns() - t0) / iters;
}

/* The outputs of all, byte for byte A's; dies if not. */
static void check_outputs(const char *path, int dir, const void *src,
			  size_t n, char **out, size_t cap)
{
	long len[NIMPL];

	for (int i = 0; i < nimpl; i++) {
		memset(out[i], 0, cap);
		len[i] = run(i, dir, src, n, out[i], cap);
		if (len[i] < 0)
			die("%s: an implementation rejects the input", path);
		if (len[i] != len[0] || memcmp(out[i], out[0], len[0]))
			die("%s: outputs differ", path);
	}
}

/* Interleaved rounds, the order rotated; MB/s of each one's best. */
static void time_impls(int dir, const void *src, size_t n, char **out,
		       size_t cap, int rounds, double min_ms, double *mbs)
{
	long iters[NIMPL];
	double best[NIMPL];

	for (int i = 0; i < nimpl; i++) {
		long k = 1;

		while (sample(i, dir, src, n, out[i], cap, k) * k < min_ms * 1e6)
			k *= 2;
		iters[i] = k;
		best[i] = INFINITY;
	}
	for (int r = 0; r < rounds; r++)
		for (int j = 0; j < nimpl; j++) {
			int i = (j + r) % nimpl;
			double t = sample(i, dir, src, n, out[i], cap, iters[i]);

			if (t < best[i])
				best[i] = t;
		}
	for (int i = 0; i < nimpl; i++)
		mbs[i] = n / best[i] * 1e3;	/* B/ns -> MB/s */
}

/* The input of direction @dir from the UTF-8 file @path, in *@n bytes. */
static void *make_input(const char *path, int dir, size_t *n)
{
	size_t len, cap;
	char *u8 = read_file(path, &len), *u16;
	long r;

	if (dir == AB_DIR_8TO16) {
		*n = len;
		return u8;
	}
	cap = 2 * len + 64;
	u16 = malloc(cap);
	if (!u16)
		die("out of memory for %s", path);
	r = B_utfconv_buf(UTFCONV_ENC_UTF8, UTFCONV_ENC_UTF16LE,
			  UTFCONV_POLICY_STRICT, 0, u8, len, u16, cap, NULL);
	if (r < 0)
		die("%s is not well-formed UTF-8", path);
	free(u8);
	*n = r;
	return u16;
}

int main(int argc, char **argv)
{
	int rounds = 15, opt, dir = AB_DIR_16TO8, nf, path = AB_PATH_AUTO;
	double min_ms = 2, gm[3] = { 0 };
	const char *path_arg = "1";

	while ((opt = getopt(argc, argv, "r:m:p:8")) != -1) {
		switch (opt) {
		case 'r': rounds = atoi(optarg); break;
		case 'm': min_ms = atof(optarg); break;
		case 'p': path_arg = optarg; path = atoi(optarg); break;
		case '8': dir = AB_DIR_8TO16; break;
		default:
			fprintf(stderr, "usage: ab_bench [-r ROUNDS] [-m MIN_MS] [-p PATH] [-8] FILE...\n");
			return 2;
		}
	}
	nf = argc - optind;
	if (nf < 1 || rounds < 1)
		die("%s", "no files (or no rounds)");
	if (B_utfconv_path_level(path) < 0 ||
	    (A_utfconv_path_level && A_utfconv_path_level(path) < 0) ||
	    (!A_utfconv_path_level && path != AB_PATH_AUTO &&
	     (!A_utfconv_force_path || A_utfconv_force_path(path) < 0)))
		die("no codec path %s", path_arg);
	ab_path = path;
#if BENCH_HAVE_SIMDUTF
	hsw = bench_simdutf_kernel("haswell");
	if (hsw)
		nimpl = NIMPL;
#endif
	if (!hsw)
		printf("no simdutf haswell kernel (not built, or no AVX2): A and B only\n");
	printf("%s, input MB/s, best of %d interleaved rounds\n",
	       dir == AB_DIR_16TO8 ? "UTF-16LE -> UTF-8" : "UTF-8 -> UTF-16LE",
	       rounds);
	printf("%-30s %8s %8s %8s %7s %7s %7s\n", "file", "A", "B", "haswell",
	       "A/hsw", "B/hsw", "B/A");
	for (int f = 0; f < nf; f++) {
		const char *path = argv[optind + f];
		double mbs[NIMPL] = { 0 }, hs;
		size_t n, cap;
		void *src = make_input(path, dir, &n);
		char *out[NIMPL];

		cap = 2 * n + 64;
		for (int i = 0; i < NIMPL; i++) {
			out[i] = malloc(cap);
			if (!out[i])
				die("out of memory for %s", path);
		}
		check_outputs(path, dir, src, n, out, cap);
		time_impls(dir, src, n, out, cap, rounds, min_ms, mbs);
		hs = nimpl == NIMPL ? mbs[IMPL_HSW] : NAN;
		printf("%-30.30s %8.0f %8.0f %8.0f %7.3f %7.3f %7.3f\n",
		       short_name(path), mbs[IMPL_A], mbs[IMPL_B], hs,
		       mbs[IMPL_A] / hs, mbs[IMPL_B] / hs,
		       mbs[IMPL_B] / mbs[IMPL_A]);
		gm[0] += log(mbs[IMPL_A] / hs);
		gm[1] += log(mbs[IMPL_B] / hs);
		gm[2] += log(mbs[IMPL_B] / mbs[IMPL_A]);
		for (int i = 0; i < NIMPL; i++)
			free(out[i]);
		free(src);
	}
	printf("%-30s %8s %8s %8s %7.3f %7.3f %7.3f\n", "geometric mean", "",
	       "", "", exp(gm[0] / nf), exp(gm[1] / nf), exp(gm[2] / nf));
	return 0;
}
