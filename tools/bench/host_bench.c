// SPDX-License-Identifier: GPL-2.0
/*
 * host_bench: throughput of utfconv's codec (kmod/utfconv_codec.c built
 * natively, strict policy, utfconv_buf()) on its scalar paths only
 * (simd=0) and with its SIMD paths (simd=1, the default; where the machine
 * has them), against glibc iconv and ICU, UTF-8 -> UTF-16LE and
 * UTF-16LE -> UTF-8, on every file given.
 *
 *   host_bench [-r ROUNDS] [-m MIN_MS] [-c CSV] FILE...
 *
 * Per file and direction the outputs of all implementations are first
 * compared byte for byte. Then each round times every implementation once
 * (round-robin, so a noisy neighbour hurts all of them alike), each sample
 * a loop of at least MIN_MS milliseconds; the minimum time per call over
 * the rounds is kept. Prints MB/s of input bytes and the ratios, the
 * geometric means and the goal lines of issue 4. Ratios are information,
 * never a pass/fail test: the exit status only reports errors.
 */
#include <errno.h>
#include <iconv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <unicode/ustring.h>
#include <unicode/utypes.h>
#include <linux/utfconv.h>	/* the uapi header: policies */

/* From include/linux/utfconv.h (kernel types there). */
ssize_t utfconv_buf(uint32_t direction, uint32_t policy, uint32_t flags,
		    const void *src, size_t src_bytes, void *dst,
		    size_t dst_bytes, uint64_t *error_offset);
/* From kmod/utfconv_simd.h: pins the codec's paths (0 scalar, 1 default). */
int utfconv_force_path(unsigned int path);

enum { IMPL_SCALAR, IMPL_SIMD, IMPL_ICONV, IMPL_ICU, NIMPL };
static const char *const impl_name[NIMPL] = { "scalar", "SIMD", "iconv",
					      "ICU" };
enum { D_8TO16, D_16TO8, NDIR };
static const char *const dir_name[NDIR] = { "UTF-8 -> UTF-16LE",
					    "UTF-16LE -> UTF-8" };
static const char *const dir_tag[NDIR] = { "utf8-to-utf16le",
					   "utf16le-to-utf8" };

static iconv_t cd[NDIR];

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "host_bench: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One conversion; returns output bytes, or -1 on error. */
static long run(int impl, int dir, const void *src, size_t n, void *dst,
		size_t cap)
{
	switch (impl) {
	case IMPL_SCALAR:
	case IMPL_SIMD: {
		ssize_t r;

		utfconv_force_path(impl == IMPL_SIMD);
		/* the codec's UTFCONV_DIR_* of include/linux/utfconv.h */
		r = utfconv_buf(dir == D_8TO16 ? 1 : 3,
					UTFCONV_POLICY_STRICT, 0, src, n, dst,
					cap, NULL);
		return r < 0 ? -1 : r;
	}
	case IMPL_ICONV: {
		char *in = (char *)src, *out = dst;
		size_t inl = n, outl = cap;

		iconv(cd[dir], NULL, NULL, NULL, NULL);
		if (iconv(cd[dir], &in, &inl, &out, &outl) == (size_t)-1)
			return -1;
		return out - (char *)dst;
	}
	case IMPL_ICU: {
		UErrorCode err = U_ZERO_ERROR;
		int32_t len = 0;

		if (dir == D_8TO16) {
			u_strFromUTF8(dst, cap / 2, &len, src, n, &err);
			return U_FAILURE(err) ? -1 : (long)len * 2;
		}
		u_strToUTF8(dst, cap, &len, src, n / 2, &err);
		return U_FAILURE(err) ? -1 : len;
	}
	}
	return -1;
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

static void *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, r;
	char *buf = malloc(cap);

	if (!f || !buf)
		die("cannot read %s", path);
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				die("out of memory reading %s", path);
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	int rounds = 20, opt, nfiles;
	double min_ms = 2.0;
	const char *csv_path = NULL;
	FILE *csv = NULL;
	double (*mbs)[NDIR][NIMPL];
	size_t (*sizes)[NDIR];

	while ((opt = getopt(argc, argv, "r:m:c:")) != -1) {
		switch (opt) {
		case 'r': rounds = atoi(optarg); break;
		case 'm': min_ms = atof(optarg); break;
		case 'c': csv_path = optarg; break;
		default:
			fprintf(stderr, "usage: host_bench [-r ROUNDS] [-m MIN_MS] [-c CSV] FILE...\n");
			return 2;
		}
	}
	nfiles = argc - optind;
	if (nfiles <= 0 || rounds <= 0)
		die("%s", "no files given");
	cd[D_8TO16] = iconv_open("UTF-16LE", "UTF-8");
	cd[D_16TO8] = iconv_open("UTF-8", "UTF-16LE");
	if (cd[D_8TO16] == (iconv_t)-1 || cd[D_16TO8] == (iconv_t)-1)
		die("%s", "iconv_open failed");
	mbs = calloc(nfiles, sizeof(*mbs));
	sizes = calloc(nfiles, sizeof(*sizes));
	if (csv_path) {
		csv = fopen(csv_path, "w");
		if (!csv)
			die("cannot write %s", csv_path);
		fprintf(csv, "file,direction,bytes,scalar_MBps,simd_MBps,iconv_MBps,icu_MBps\n");
	}
	fprintf(stderr, "host_bench: %d files, %d rounds, samples >= %.1f ms\n",
		nfiles, rounds, min_ms);

	for (int fi = 0; fi < nfiles; fi++) {
		const char *path = argv[optind + fi];
		size_t n8, n16;
		char *u8 = read_file(path, &n8);
		size_t cap = 4 * n8 + 64;
		char *u16 = malloc(cap), *out[NIMPL];
		long len;

		for (int i = 0; i < NIMPL; i++)
			out[i] = malloc(cap);
		len = run(IMPL_SCALAR, D_8TO16, u8, n8, u16, cap);
		if (len < 0)
			die("codec rejects %s as UTF-8", path);
		n16 = len;

		for (int d = 0; d < NDIR; d++) {
			const void *src = d == D_8TO16 ? u8 : u16;
			size_t n = d == D_8TO16 ? n8 : n16;
			long olen[NIMPL], iters[NIMPL];
			double best[NIMPL];

			/* Identical outputs first. */
			for (int i = 0; i < NIMPL; i++) {
				memset(out[i], 0, cap);
				olen[i] = run(i, d, src, n, out[i], cap);
				if (olen[i] < 0)
					die("conversion error on %s", path);
			}
			for (int i = 1; i < NIMPL; i++)
				if (olen[i] != olen[0] ||
				    memcmp(out[i], out[0], olen[0])) {
					fprintf(stderr, "host_bench: %s: %s and %s outputs differ (%s)\n",
						path, impl_name[0], impl_name[i],
						dir_name[d]);
					exit(1);
				}
			/* Calibrate: calls per sample for >= min_ms. */
			for (int i = 0; i < NIMPL; i++) {
				long k = 1;

				while (sample(i, d, src, n, out[i], cap, k) * k <
				       min_ms * 1e6)
					k *= 2;
				iters[i] = k;
				best[i] = INFINITY;
			}
			for (int r = 0; r < rounds; r++)
				for (int i = 0; i < NIMPL; i++) {
					double t = sample(i, d, src, n, out[i],
							  cap, iters[i]);

					if (t < best[i])
						best[i] = t;
				}
			for (int i = 0; i < NIMPL; i++)
				mbs[fi][d][i] = n / best[i] * 1e3; /* B/ns -> MB/s */
			sizes[fi][d] = n;
			if (csv) {
				const char *base = strrchr(path, '/');

				fprintf(csv, "%s,%s,%zu,%.1f,%.1f,%.1f,%.1f\n",
					base ? base + 1 : path, dir_tag[d], n,
					mbs[fi][d][0], mbs[fi][d][1],
					mbs[fi][d][2], mbs[fi][d][3]);
			}
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

	double gm[NDIR][NIMPL];

	for (int d = 0; d < NDIR; d++) {
		double lg[NIMPL] = { 0 };

		printf("\nhost bench, %s (input MB/s, min over %d rounds)\n",
		       dir_name[d], rounds);
		printf("%-30s %7s %7s %7s %7s %7s %8s %8s %8s %8s\n", "file",
		       "bytes", "scalar", "SIMD", "iconv", "ICU", "sc/iconv",
		       "SIMD/ic", "sc/ICU", "SIMD/ICU");
		for (int fi = 0; fi < nfiles; fi++) {
			const char *path = argv[optind + fi];
			const char *s = strstr(path, "corpus/");
			double *m = mbs[fi][d];

			s = s ? s + 7 : path;
			printf("%-30.30s %7zu %7.0f %7.0f %7.0f %7.0f %7.2fx %7.2fx %7.2fx %7.2fx\n",
			       s, sizes[fi][d], m[0], m[1], m[2], m[3],
			       m[0] / m[2], m[1] / m[2], m[0] / m[3],
			       m[1] / m[3]);
			for (int i = 0; i < NIMPL; i++)
				lg[i] += log(m[i]);
		}
		for (int i = 0; i < NIMPL; i++)
			gm[d][i] = exp(lg[i] / nfiles);
		printf("%-30s %7s %7.0f %7.0f %7.0f %7.0f %7.2fx %7.2fx %7.2fx %7.2fx\n",
		       "geometric mean", "", gm[d][0], gm[d][1], gm[d][2],
		       gm[d][3], gm[d][0] / gm[d][2], gm[d][1] / gm[d][2],
		       gm[d][0] / gm[d][3], gm[d][1] / gm[d][3]);
	}

	struct { int d, impl, peer; double goal; const char *what; } goals[] = {
		{ D_8TO16, IMPL_SCALAR, IMPL_ICONV, 3.0, "scalar >= 3x iconv, UTF-8 -> UTF-16" },
		{ D_16TO8, IMPL_SCALAR, IMPL_ICONV, 3.5, "scalar >= 3.5x iconv, UTF-16 -> UTF-8" },
		{ D_8TO16, IMPL_SCALAR, IMPL_ICU, 1.4, "scalar >= 1.4x ICU, UTF-8 -> UTF-16" },
		{ D_16TO8, IMPL_SCALAR, IMPL_ICU, 1.4, "scalar >= 1.4x ICU, UTF-16 -> UTF-8" },
		{ D_8TO16, IMPL_SIMD, IMPL_ICONV, 6.0, "SIMD >= 6x iconv, UTF-8 -> UTF-16" },
		{ D_16TO8, IMPL_SIMD, IMPL_ICONV, 15.0, "SIMD >= 15x iconv, UTF-16 -> UTF-8" },
	};

	printf("\nissue 4 goals (geometric mean over %d files):\n", nfiles);
	for (size_t g = 0; g < sizeof(goals) / sizeof(goals[0]); g++) {
		double r = gm[goals[g].d][goals[g].impl] /
			   gm[goals[g].d][goals[g].peer];

		printf("  %-40s measured %5.2fx  %s\n", goals[g].what, r,
		       r >= goals[g].goal ? "met" : "MISSED");
	}
	return 0;
}
