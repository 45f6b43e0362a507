// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the utfconv codec (its kmod/ sources built in
 * userspace through userspace-test/compat/).
 *
 * Input: byte 0 picks the direction, policy and flags (mod 80) and the
 * codec path (scalar, SIMD, SIMD without SSSE3, the default); byte 1 the
 * number of call boundaries (0-7) and an output capacity per call (0-31,
 * 0 for unlimited); then one byte per boundary (its place, in 256ths of
 * the text); the rest is the text. Each input is checked for:
 *  - agreement with the reference model (kunit/utfconv_ref.h): output,
 *    errno, error kind and offset, counters;
 *  - chunk invariance: the fuzzer-chosen boundaries and capacity give
 *    the same result as one call (and the calling contract holds);
 *  - utfconv_buf() and a stream through a 128-byte window agreeing
 *    with the stream;
 *  - round trip: output without errors converts back to the input;
 *  - utfconv_buf_to_nul() (the fs/nls drop-ins' converter, which finds
 *    the NUL as it goes) giving what utfconv_buf() gives on the input
 *    before its first NUL, with the same capacity.
 * Any difference aborts with a message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>
#include <linux/utfconv.h>

#include "../../kmod/utfconv_codec.h"
#include "../../kmod/utfconv_simd.h"
#include "utfconv_checks.h"
#include "utfconv_drive.h"
#include "utfconv_expect.h"
#include "utfconv_paths.h"
#include "utfconv_ref.h"

static void *fuzz_allocs[256];
static unsigned int fuzz_nallocs;

/* the path of the input's conversions (kunit/utfconv_paths.h) */
static enum utfconv_path fuzz_path;

/* What the test units (kunit/utfconv_expect.h) ask of a program */
void utfconv_test_fail(void *ctx, const char *file, int line,
		       const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *utfconv_test_alloc(void *ctx, size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p || fuzz_nallocs == 256)
		abort();
	fuzz_allocs[fuzz_nallocs++] = p;
	return p;
}

void utfconv_test_yield(void)
{
}

enum utfconv_path utfconv_test_path(void)
{
	return fuzz_path;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

/* Whether the AVX-512 paths (codec path 7) are under test here. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (utfconv_path_missing(UTFCONV_PATH_AVX512,
				 utfconv_path_level(UTFCONV_PATH_AVX512)))
		printf("fuzz_utfconv: codec path 7 (AVX-512): skipped: no AVX-512 on this CPU\n");
	else
		printf("fuzz_utfconv: codec path 7 (AVX-512): fuzzed\n");
	return 0;
}

/* utfconv_buf_to_nul() against utfconv_buf() on what precedes the NUL. */
static void fuzz_check_to_nul(u32 dir, u32 pol, const u8 *in, size_t n,
			      size_t cap)
{
	size_t room = cap ? 8 * cap : utfconv_ref_out_max(dir, n);
	u8 *a = utfconv_test_alloc(NULL, room + 1), *b = utfconv_test_alloc(NULL, room + 1);
	size_t end = 0;
	ssize_t got, want;

	if (dir == UTFCONV_TEST_UTF16_TO_UTF8)
		return;
	if (dir <= UTFCONV_TEST_UTF8_TO_UTF16BE)
		end = strnlen((const char *)in, n);
	else
		while (end + 2 <= n && (in[end] | in[end + 1]))
			end += 2;
	if (end + 2 > n && dir > UTFCONV_TEST_UTF8_TO_UTF16BE)
		end = n;
	got = utfconv_test_buf_to_nul(dir, pol, in, n, a, room);
	want = utfconv_test_buf(dir, pol, 0, in, end, b, room, NULL);
	UTFCONV_CHECK(NULL, got == want && (got <= 0 || !memcmp(a, b, got)),
		      "utfconv_buf_to_nul() %zd, want %zd (end %zu of %zu)",
		      got, want, end, n);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct utfconv_expect e;
	struct utfconv_ref ref;
	size_t cuts[8], ncuts, cap, n, i, j, t;
	u32 dir, pol, flags, back;
	const u8 *in;
	u8 *buf, *out2;
	ssize_t len;
	u64 off;

	if (size < 2)
		return 0;
	dir = 1 + data[0] % 5;
	pol = data[0] / 5 % 4;
	flags = data[0] / 20 % 4;
	/*
	 * the codec path: scalar, the default, SIMD, SSE2 only, no AVX2,
	 * scalar without BMI2, no AVX-512, AVX-512 both ways (enum
	 * utfconv_path; on a CPU without AVX-512 the last is the SIMD path
	 * again, and the fuzzer's start says so). data[0] / 80 is at most 3,
	 * so the capacity's bits shift it to reach all eight; a seed with
	 * data[0] below 80 and no capacity stays on the scalar path.
	 */
	fuzz_path = (data[0] / 80 + data[1] / 8) % (UTFCONV_PATH_AVX512 + 1);
	ncuts = data[1] % 8;
	cap = data[1] / 8;
	if (size < 2 + ncuts)
		return 0;
	in = data + 2 + ncuts;
	n = size - 2 - ncuts;
	for (i = 0; i < ncuts; i++)
		cuts[i] = data[2 + i] * n / 256;
	for (i = 1; i < ncuts; i++) {
		for (t = cuts[i], j = i; j && cuts[j - 1] > t; j--)
			cuts[j] = cuts[j - 1];
		cuts[j] = t;
	}

	buf = utfconv_test_alloc(NULL, 2 * utfconv_ref_out_max(dir, n));
	utfconv_check_against_ref(NULL, "fuzz", dir, pol, flags, in, n, buf);
	utfconv_ref_convert(dir, pol, flags, in, n, buf, &ref);
	utfconv_expect_ref(&ref, &e);
	utfconv_check_convert(NULL, "fuzz", "chunks and capacity", dir, pol,
			      flags, in, n, cuts, ncuts, cap, &e);
	utfconv_check_convert(NULL, "fuzz", "byte by byte", dir, pol, flags,
			      in, n, NULL, 0, 1, &e);

	off = ~0ULL;
	len = utfconv_drive_length(dir, pol, flags, in, n, &off);
	UTFCONV_CHECK(NULL, ref.err ? len == ref.err && off == ref.error_offset :
		      len == ref.out_bytes, "length in a window %zd, want %d/%zu",
		      len, ref.err, ref.out_bytes);
	UTFCONV_CHECK(NULL, utfconv_test_pair_max_length(dir, flags, n) >= ref.out_bytes,
		      "utfconv_max_length() below the output");

	/* round trip of clean output */
	back = utfconv_reverse_direction(dir);
	if (!ref.error_kind && !flags && back) {
		out2 = utfconv_test_alloc(NULL, utfconv_ref_out_max(back, ref.out_bytes));
		len = utfconv_test_buf(back, pol, 0, ref.out, ref.out_bytes, out2,
				       utfconv_ref_out_max(back, ref.out_bytes), NULL);
		UTFCONV_CHECK(NULL, len == n && !memcmp(out2, in, n),
			      "round trip: %zd bytes, want %zu", len, n);
	}
	fuzz_check_to_nul(dir, pol, in, n, cap);
	while (fuzz_nallocs)
		free(fuzz_allocs[--fuzz_nallocs]);
	return 0;
}
