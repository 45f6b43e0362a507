// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of the utfconv codec.
 *
 * One named vector table (utfconv_vectors.h) drives every suite through
 * KUNIT_ARRAY_PARAM; the checks themselves (utfconv_checks.c,
 * utfconv_runs.c) and the reference model they compare with
 * (utfconv_ref.c) are linked into the host-native tests in
 * userspace-test/host/ too.
 *
 * utfconv_vectors:  each row one-shot, through utfconv_buf() and a window,
 *                   against the reference model, reversed and round-tripped
 * utfconv_chunking: each row at every split point, byte by byte, with
 *                   empty calls and at every pair of split points
 * utfconv_capacity: each row at every output capacity from 0 up, with a
 *                   poisoned tail, and resumed
 * utfconv_paths:    the SIMD level each path gives; long runs in one
 *                   script each with a fault at every position, at every
 *                   output capacity, and ended by a NUL at every position
 *                   (engage the block and SIMD paths)
 * utfconv_api:      argument checks and stream life cycle
 * utfconv_nls:      differential against fs/nls utf8s_to_utf16s() and
 *                   utf16s_to_utf8s(), and where utfconv deliberately differs
 *
 * Each suite but the sweeps runs every case on several codec paths in
 * one boot, the path a part of each case's parameter (KUNIT_ARRAY_PARAM,
 * "<path> <what>"): scalar, simd and avx512, and utfconv_paths also
 * sse2, ssse3, avx2 and generic (utfconv_paths.h). A path the CPU lacks
 * skips the case, saying so. The sweeps (utfconv_sweep_test.c), whose
 * inputs are too short for the SIMD paths, run on the default path, as do
 * the file name functions (utfconv_fsname_test.c), which take no path.
 */

#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/nls.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/utfconv.h>

#include "../kmod/utfconv_simd.h"
#include "utfconv_checks.h"
#include "utfconv_encode.h"
#include "utfconv_expect.h"
#include "utfconv_paths.h"
#include "utfconv_ref.h"
#include "utfconv_runs.h"
#include "utfconv_test_param.h"
#include "utfconv_vectors.h"
#include "utfconv_vectors_gen.h"

static const struct utfconv_vector *utfconv_param(struct kunit *test)
{
	return ((const struct utfconv_test_param *)test->param_value)->v;
}

/*
 * The paths of every suite, and the paths of utfconv_paths, which gives
 * them inputs long enough to engage each instruction set: SSE2 only, no
 * AVX2, no AVX-512, and the scalar paths without the BMI2 steps, where
 * "scalar" takes them (x86-64 CPUs with BMI2), so that the portable code
 * stays under test there.
 */
static const enum utfconv_path utfconv_suite_paths[] = {
	UTFCONV_PATH_SCALAR, UTFCONV_PATH_SIMD, UTFCONV_PATH_AVX512,
};

static const enum utfconv_path utfconv_each_path[] = {
	UTFCONV_PATH_SCALAR, UTFCONV_PATH_SIMD, UTFCONV_PATH_SSE2,
	UTFCONV_PATH_SSSE3, UTFCONV_PATH_AVX2, UTFCONV_PATH_AVX512,
	UTFCONV_PATH_GENERIC,
};

/* The long texts of utfconv_runs.c, by name */
static const char * const utfconv_texts[UTFCONV_RUNS_TEXTS] = {
	"ascii", "cyrillic", "two-byte", "cjk", "mixed", "ascii-latin1",
	"ascii-cjk-emoji", "three-byte", "cjk-cyrillic", "four-byte",
	"markup-scripts"
};

/*
 * The parameters of the cases, path by path (filled by
 * utfconv_test_params_init()): each path of the suites alone and with
 * each vector, each path of utfconv_paths alone and with each long text.
 */
static struct utfconv_test_param
	utfconv_suite_params[ARRAY_SIZE(utfconv_suite_paths)];
static struct utfconv_test_param
	utfconv_suite_vectors[ARRAY_SIZE(utfconv_suite_paths) *
			      ARRAY_SIZE(utfconv_vectors)];
static struct utfconv_test_param
	utfconv_each_params[ARRAY_SIZE(utfconv_each_path)];
static struct utfconv_test_param
	utfconv_each_texts[ARRAY_SIZE(utfconv_each_path) * UTFCONV_RUNS_TEXTS];

/* "<path>", "<path> <vector>" or "<path> <text>" */
static void utfconv_test_param_desc(struct utfconv_test_param *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s%s%s",
		 utfconv_path_name(p->path), p->what ? " " : "",
		 p->what ?: "");
}

KUNIT_ARRAY_PARAM(utfconv_suite_params, utfconv_suite_params,
		  utfconv_test_param_desc);
KUNIT_ARRAY_PARAM(utfconv_suite_vectors, utfconv_suite_vectors,
		  utfconv_test_param_desc);
KUNIT_ARRAY_PARAM(utfconv_each_params, utfconv_each_params,
		  utfconv_test_param_desc);
KUNIT_ARRAY_PARAM(utfconv_each_texts, utfconv_each_texts,
		  utfconv_test_param_desc);

/*
 * Every suite's suite_init: the parameter tables, path by path, with the
 * items of each; the same every time.
 */
static int utfconv_test_params_init(struct kunit_suite *suite)
{
	size_t i, j, nv = ARRAY_SIZE(utfconv_vectors);
	struct utfconv_test_param *p;

	for (i = 0; i < ARRAY_SIZE(utfconv_suite_paths); i++) {
		utfconv_suite_params[i].path = utfconv_suite_paths[i];
		for (j = 0; j < nv; j++) {
			p = &utfconv_suite_vectors[i * nv + j];
			p->path = utfconv_suite_paths[i];
			p->v = &utfconv_vectors[j];
			p->what = utfconv_vectors[j].name;
		}
	}
	for (i = 0; i < ARRAY_SIZE(utfconv_each_path); i++) {
		utfconv_each_params[i].path = utfconv_each_path[i];
		for (j = 0; j < UTFCONV_RUNS_TEXTS; j++) {
			p = &utfconv_each_texts[i * UTFCONV_RUNS_TEXTS + j];
			p->path = utfconv_each_path[i];
			p->text = j;
			p->what = utfconv_texts[j];
		}
	}
	return 0;
}

/*
 * Every case's init: a case on a path the CPU lacks (which the library
 * would narrow to another) is skipped, saying why, rather than run in
 * that path's name.
 */
static int utfconv_test_init(struct kunit *test)
{
	enum utfconv_path path = utfconv_test_path();
	int level = utfconv_path_level(path);
	const char *why = utfconv_path_missing(path, level);

	if (why)
		kunit_skip(test, "skipped: %s", why);
	return 0;
}

/* A suite of @cases on the paths of their parameters */
#define UTFCONV_PATH_SUITE(suite_name, cases) { \
	.name = suite_name, \
	.suite_init = utfconv_test_params_init, \
	.init = utfconv_test_init, \
	.test_cases = cases, \
}

/* ---- utfconv_vectors ---------------------------------------------------- */

static void utfconv_vectors_reference_test(struct kunit *test)
{
	utfconv_check_vector_reference(test, utfconv_param(test));
}

static void utfconv_vectors_convert_test(struct kunit *test)
{
	utfconv_check_vector_oneshot(test, utfconv_param(test));
}

static void utfconv_vectors_buf_length_test(struct kunit *test)
{
	utfconv_check_vector_oneshot_api(test, utfconv_param(test));
}

static void utfconv_vectors_reverse_test(struct kunit *test)
{
	utfconv_check_vector_reverse(test, utfconv_param(test));
}

static struct kunit_case utfconv_vectors_cases[] = {
	KUNIT_CASE_PARAM(utfconv_vectors_reference_test,
			 utfconv_suite_vectors_gen_params),
	KUNIT_CASE_PARAM(utfconv_vectors_convert_test,
			 utfconv_suite_vectors_gen_params),
	KUNIT_CASE_PARAM(utfconv_vectors_buf_length_test,
			 utfconv_suite_vectors_gen_params),
	KUNIT_CASE_PARAM(utfconv_vectors_reverse_test,
			 utfconv_suite_vectors_gen_params),
	{}
};

static struct kunit_suite utfconv_vectors_suite =
	UTFCONV_PATH_SUITE("utfconv_vectors", utfconv_vectors_cases);

/* ---- utfconv_chunking --------------------------------------------------- */

static void utfconv_chunking_every_split_test(struct kunit *test)
{
	utfconv_check_vector_chunking(test, utfconv_param(test));
}

static struct kunit_case utfconv_chunking_cases[] = {
	KUNIT_CASE_PARAM(utfconv_chunking_every_split_test,
			 utfconv_suite_vectors_gen_params),
	{}
};

static struct kunit_suite utfconv_chunking_suite =
	UTFCONV_PATH_SUITE("utfconv_chunking", utfconv_chunking_cases);

/* ---- utfconv_capacity --------------------------------------------------- */

static void utfconv_capacity_every_capacity_test(struct kunit *test)
{
	utfconv_check_vector_capacity(test, utfconv_param(test));
}

static struct kunit_case utfconv_capacity_cases[] = {
	KUNIT_CASE_PARAM(utfconv_capacity_every_capacity_test,
			 utfconv_suite_vectors_gen_params),
	{}
};

static struct kunit_suite utfconv_capacity_suite =
	UTFCONV_PATH_SUITE("utfconv_capacity", utfconv_capacity_cases);

/* ---- utfconv_paths ------------------------------------------------------ */

/*
 * The paths suite: the SIMD level each path gives, and inputs long enough
 * to engage the block and SIMD paths (see utfconv_check_long_runs() and,
 * for the steps of four two-byte characters,
 * utfconv_check_two_byte_runs(); for the runs of three- and four-byte
 * ones, utfconv_check_long_seq_runs()), on every path.
 */

/*
 * The SIMD level a path gives: none on the scalar paths, at most SSE2,
 * SSSE3 or AVX2 where the path says so, and at least what it asks for
 * (the init skipped the case where the CPU lacks it).
 */
static void utfconv_paths_level_test(struct kunit *test)
{
	static const int most[] = {
		[UTFCONV_PATH_SCALAR] = 0,
		[UTFCONV_PATH_AUTO] = UTFCONV_LEVEL_AVX512,
		[UTFCONV_PATH_SIMD] = UTFCONV_LEVEL_AVX512,
		[UTFCONV_PATH_SSE2] = UTFCONV_LEVEL_SSE2,
		[UTFCONV_PATH_SSSE3] = UTFCONV_LEVEL_SSSE3,
		[UTFCONV_PATH_GENERIC] = 0,
		[UTFCONV_PATH_AVX2] = UTFCONV_LEVEL_AVX2,
		[UTFCONV_PATH_AVX512] = UTFCONV_LEVEL_AVX512,
	};
	enum utfconv_path path = utfconv_test_path();
	int level = utfconv_path_level(path);

	KUNIT_EXPECT_GE(test, level, (int)utfconv_path_want(path));
	KUNIT_EXPECT_LE(test, level, most[path]);
	/* where the library has SIMD paths, a path that allows them takes them */
	if (utfconv_path_level(UTFCONV_PATH_SSE2) > 0 && most[path])
		KUNIT_EXPECT_GE(test, level, UTFCONV_LEVEL_SSE2);
	KUNIT_EXPECT_EQ(test, utfconv_path_level(UTFCONV_PATH_AVX512 + 1),
			-EINVAL);
	kunit_info(test, "codec path %s: SIMD level %d\n",
		   utfconv_path_name(path), level);
}

/*
 * The long runs put their faults at every runs_stride-th position (and
 * at each of the last few; utfconv_runs_at()); 1 (the default) is every
 * position. The debug kernel's check slice (scripts/vm.sh) sets 3: with
 * KASAN under QEMU TCG these runs were most of its KUnit time, and an
 * odd stride still meets every offset within a block or vector.
 */
static unsigned int utfconv_runs_stride = 1;
module_param_named(runs_stride, utfconv_runs_stride, uint, 0444);
MODULE_PARM_DESC(runs_stride,
		 "Long runs put their faults at every N-th position (default 1: all; an even N is taken as N + 1)");

static void utfconv_paths_long_runs_test(struct kunit *test)
{
	const struct utfconv_test_param *p = test->param_value;

	utfconv_check_long_runs(test, p->text, utfconv_runs_stride | 1);
}

static void utfconv_paths_to_nul_test(struct kunit *test)
{
	const struct utfconv_test_param *p = test->param_value;

	utfconv_check_nul_runs(test, p->text, utfconv_runs_stride | 1);
}

static void utfconv_paths_two_byte_utf8_test(struct kunit *test)
{
	utfconv_check_two_byte_runs(test, false);
}

static void utfconv_paths_two_byte_utf16_test(struct kunit *test)
{
	utfconv_check_two_byte_runs(test, true);
}

static void utfconv_paths_three_four_utf8_test(struct kunit *test)
{
	utfconv_check_long_seq_runs(test);
}

static void utfconv_paths_ascii_tails_test(struct kunit *test)
{
	utfconv_check_ascii_tails(test);
}

static void utfconv_paths_out_alignment_test(struct kunit *test)
{
	utfconv_check_out_alignment(test);
}

static void utfconv_paths_section_ends_test(struct kunit *test)
{
	utfconv_check_section_ends(test);
}

static struct kunit_case utfconv_paths_cases[] = {
	KUNIT_CASE_PARAM(utfconv_paths_level_test,
			 utfconv_each_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_paths_long_runs_test,
			 utfconv_each_texts_gen_params),
	KUNIT_CASE_PARAM(utfconv_paths_to_nul_test,
			 utfconv_each_texts_gen_params),
	KUNIT_CASE_PARAM(utfconv_paths_two_byte_utf8_test,
			 utfconv_each_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_paths_two_byte_utf16_test,
			 utfconv_each_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_paths_three_four_utf8_test,
			 utfconv_each_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_paths_ascii_tails_test,
			 utfconv_each_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_paths_out_alignment_test,
			 utfconv_each_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_paths_section_ends_test,
			 utfconv_each_params_gen_params),
	{}
};

static struct kunit_suite utfconv_paths_suite =
	UTFCONV_PATH_SUITE("utfconv_paths", utfconv_paths_cases);

/* ---- utfconv_api -------------------------------------------------------- */

/* Source and target encodings that utfconv_init() refuses. */
static const u32 utfconv_api_bad_pairs[][2] = {
	{ 0, 0 },
	{ 0, UTFCONV_UTF8 },
	{ UTFCONV_UTF8, 0 },
	{ UTFCONV_UTF8, UTFCONV_UTF8 },
	{ UTFCONV_UTF8, UTFCONV_UTF16 },
	{ UTFCONV_UTF8, UTFCONV_UTF16 + 1 },
	{ UTFCONV_UTF16LE, UTFCONV_UTF16LE },
	{ UTFCONV_UTF16LE, UTFCONV_UTF16BE },
	{ UTFCONV_UTF16, UTFCONV_UTF16LE },
	{ UTFCONV_UTF16 + 1, UTFCONV_UTF8 },
};

static void utfconv_api_bad_arguments_test(struct kunit *test)
{
	struct utfconv_state st;
	size_t used, wrote, i;
	u64 off = 7;
	u8 out[8];

	for (i = 0; i < ARRAY_SIZE(utfconv_api_bad_pairs); i++) {
		u32 source = utfconv_api_bad_pairs[i][0];
		u32 target = utfconv_api_bad_pairs[i][1];

		KUNIT_EXPECT_EQ_MSG(test, utfconv_init(&st, source, target,
						       UTFCONV_STRICT, 0),
				    -EINVAL, "source %u target %u", source,
				    target);
		KUNIT_EXPECT_EQ_MSG(test, utfconv_max_length(source, target, 0,
							     5),
				    0, "source %u target %u", source, target);
	}
	KUNIT_EXPECT_EQ(test, utfconv_init(&st, UTFCONV_UTF8, UTFCONV_UTF16LE,
					   UTFCONV_TEST_POLICY_LAST + 1, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, utfconv_init(&st, UTFCONV_UTF8, UTFCONV_UTF16LE,
					   UTFCONV_STRICT,
					   (u32)~UTFCONV_FLAGS_ALL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, utfconv_test_buf(0, 0, 0, "a", 1, out, sizeof(out),
					       NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, utfconv_test_buf(UTFCONV_TEST_UTF8_TO_UTF16LE, 9, 0,
					       "a", 1, out, sizeof(out), NULL),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, utfconv_init(&st, UTFCONV_UTF8, UTFCONV_UTF16LE,
					   UTFCONV_STRICT, 0), 0);
	KUNIT_EXPECT_EQ(test, utfconv_test_convert(&st, "a", 1, &used, out,
						   sizeof(out), &wrote, ~0U),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, used, 0);
	KUNIT_EXPECT_EQ(test, wrote, 0);

	/* lengths that wrap around the address space: nothing happens */
	KUNIT_EXPECT_EQ(test, utfconv_test_convert(&st, "AB\xc3\xa9", SIZE_MAX,
						   &used, out, sizeof(out), &wrote,
						   UTFCONV_END), -EINVAL);
	KUNIT_EXPECT_EQ(test, used, 0);
	KUNIT_EXPECT_EQ(test, utfconv_test_convert(&st, "AB", 2, &used, out,
						   SIZE_MAX, &wrote, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, wrote, 0);
	KUNIT_EXPECT_EQ(test, utfconv_test_buf(UTFCONV_TEST_UTF8_TO_UTF16LE, 0, 0,
					       "AB", 2, out, SIZE_MAX, &off),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, utfconv_test_buf(0, 0, 0, "a", 1, out, sizeof(out),
					       &off), -EINVAL);
	/* no bad input, so no offset */
	KUNIT_EXPECT_EQ(test, off, 7);
	/* the stream is still at offset 0 and converts normally */
	KUNIT_EXPECT_EQ(test, utfconv_test_convert(&st, "AB", 2, &used, out,
						   sizeof(out), &wrote, UTFCONV_END),
			0);
	KUNIT_EXPECT_EQ(test, wrote, 4);
	KUNIT_EXPECT_EQ(test, utfconv_max_length(UTFCONV_UTF8, UTFCONV_UTF16LE,
						 (u32)~UTFCONV_FLAGS_ALL, 5), 0);
}

static void utfconv_api_life_cycle_test(struct kunit *test)
{
	struct utfconv_state st;
	size_t used, wrote;
	u8 out[8];

	KUNIT_ASSERT_EQ(test, utfconv_init(&st, UTFCONV_UTF8, UTFCONV_UTF16LE,
					   UTFCONV_STRICT, 0), 0);
	KUNIT_EXPECT_EQ(test, utfconv_test_convert(&st, "\xf0\x9f\x98", 3, &used,
						   out, sizeof(out), &wrote, 0), 0);
	KUNIT_EXPECT_EQ(test, used, 3);
	KUNIT_EXPECT_EQ(test, wrote, 0);
	KUNIT_EXPECT_EQ(test, utfconv_pending_bytes(&st), 3);
	KUNIT_EXPECT_EQ(test, st.bytes_in, 3);
	KUNIT_EXPECT_FALSE(test, utfconv_ended(&st));
	KUNIT_EXPECT_EQ(test, utfconv_test_convert(&st, "\xbb", 1, &used, out,
						   sizeof(out), &wrote,
						   UTFCONV_END), 0);
	KUNIT_EXPECT_EQ(test, wrote, 4);
	KUNIT_EXPECT_TRUE(test, utfconv_ended(&st));
	KUNIT_EXPECT_EQ(test, utfconv_pending_bytes(&st), 0);
	KUNIT_EXPECT_EQ(test, utfconv_test_convert(&st, "a", 1, &used, out,
						   sizeof(out), &wrote, 0), -EINVAL);
	utfconv_reset(&st);
	KUNIT_EXPECT_EQ(test, st.bytes_in, 0);
	KUNIT_EXPECT_EQ(test, st.code_points, 0);
	KUNIT_EXPECT_FALSE(test, utfconv_ended(&st));
	KUNIT_EXPECT_EQ(test, utfconv_test_convert(&st, "a", 1, &used, out,
						   sizeof(out), &wrote,
						   UTFCONV_END), 0);
	KUNIT_EXPECT_EQ(test, wrote, 2);
}

static void utfconv_api_halt_test(struct kunit *test)
{
	struct utfconv_state st;
	size_t used, wrote;
	u8 out[8];

	KUNIT_ASSERT_EQ(test, utfconv_init(&st, UTFCONV_UTF16LE, UTFCONV_UTF8,
					   UTFCONV_STRICT, 0), 0);
	KUNIT_EXPECT_EQ(test, utfconv_test_convert(&st, "a\0\0\xdc", 4, &used, out,
						   sizeof(out), &wrote, 0),
			-EILSEQ);
	KUNIT_EXPECT_EQ(test, used, 2);
	KUNIT_EXPECT_EQ(test, wrote, 1);
	KUNIT_EXPECT_EQ(test, st.error_offset, 2);
	KUNIT_EXPECT_EQ(test, st.error_kind, UTFCONV_ILLFORMED);
	KUNIT_EXPECT_EQ(test, st.bytes_in, 2);
	KUNIT_EXPECT_EQ(test, utfconv_test_convert(&st, "b\0", 2, &used, out,
						   sizeof(out), &wrote,
						   UTFCONV_END), -EILSEQ);
	KUNIT_EXPECT_EQ(test, used, 0);
	KUNIT_EXPECT_EQ(test, wrote, 0);
	utfconv_reset(&st);
	KUNIT_EXPECT_EQ(test, utfconv_test_convert(&st, "b\0", 2, &used, out,
						   sizeof(out), &wrote,
						   UTFCONV_END), 0);
	KUNIT_EXPECT_EQ(test, st.error_kind, UTFCONV_NO_ERROR);
}

static void utfconv_api_max_length_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, utfconv_max_length(UTFCONV_UTF8, UTFCONV_UTF16LE,
						 0, 5), 10);
	KUNIT_EXPECT_EQ(test, utfconv_max_length(UTFCONV_UTF8, UTFCONV_UTF16BE,
						 UTFCONV_EMIT_BOM, 5), 12);
	KUNIT_EXPECT_EQ(test, utfconv_max_length(UTFCONV_UTF16LE, UTFCONV_UTF8,
						 0, 4), 6);
	KUNIT_EXPECT_EQ(test, utfconv_max_length(UTFCONV_UTF16, UTFCONV_UTF8,
						 0, 5), 9);
	KUNIT_EXPECT_EQ(test, utfconv_max_length(UTFCONV_UTF16BE, UTFCONV_UTF8,
						 UTFCONV_EMIT_BOM, 0), 3);
	KUNIT_EXPECT_EQ(test, utfconv_max_length(UTFCONV_UTF8, UTFCONV_UTF16LE,
						 0, SIZE_MAX), SIZE_MAX);
	KUNIT_EXPECT_EQ(test, utfconv_max_length(UTFCONV_UTF16LE, UTFCONV_UTF8,
						 0, SIZE_MAX), SIZE_MAX);
}

static struct kunit_case utfconv_api_cases[] = {
	KUNIT_CASE_PARAM(utfconv_api_bad_arguments_test,
			 utfconv_suite_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_api_life_cycle_test,
			 utfconv_suite_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_api_halt_test,
			 utfconv_suite_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_api_max_length_test,
			 utfconv_suite_params_gen_params),
	{}
};

static struct kunit_suite utfconv_api_suite =
	UTFCONV_PATH_SUITE("utfconv_api", utfconv_api_cases);

/* ---- utfconv_nls -------------------------------------------------------- */

/* fs/nls is only there with CONFIG_NLS (the debug kernel has none). */
#if IS_ENABLED(CONFIG_NLS)

#define UTFCONV_NLS_TEXT	256	/* code points per random text */

/* Random valid UTF-8 without U+0000 (nls stops there). */
static size_t utfconv_nls_text(u64 *seed, u8 *d)
{
	size_t n = 0, i;
	u64 r;
	u32 c;

	for (i = 0; i < UTFCONV_NLS_TEXT; i++) {
		r = *seed;
		r ^= r >> 12;
		r ^= r << 25;
		r ^= r >> 27;
		*seed = r;
		r *= 0x2545F4914F6CDD1DULL;
		switch (r % 4) {
		case 0:
			c = 1 + (r >> 8) % 0x7F;
			break;
		case 1:
			c = 0x80 + (r >> 8) % 0x780;
			break;
		case 2:
			c = 0x800 + (r >> 8) % 0xF800;
			break;
		default:
			c = 0x10000 + (r >> 8) % 0x100000;
		}
		if (c >= 0xD800 && c <= 0xDFFF)
			c = 0xFFFD;
		n += utfconv_sweep_utf8(d + n, c);
	}
	return n;
}

/* Valid text: both give the same bytes in both byte orders. */
static void utfconv_nls_valid_test(struct kunit *test)
{
	size_t cap = 4 * UTFCONV_NLS_TEXT + 8;
	u8 *in = kunit_kmalloc(test, cap, GFP_KERNEL);
	u8 *ours = kunit_kmalloc(test, 2 * cap, GFP_KERNEL);
	u8 *back = kunit_kmalloc(test, cap, GFP_KERNEL);
	wchar_t *nls = kunit_kmalloc(test, 2 * cap, GFP_KERNEL);
	u64 seed = 0x2545F4914F6CDD1DULL;
	int be, i, units, len;
	size_t n;
	ssize_t r;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, ours);
	KUNIT_ASSERT_NOT_NULL(test, back);
	KUNIT_ASSERT_NOT_NULL(test, nls);
	for (i = 0; i < 200; i++) {
		n = utfconv_nls_text(&seed, in);
		for (be = 0; be < 2; be++) {
			units = utf8s_to_utf16s(in, n, be ? UTF16_BIG_ENDIAN :
						UTF16_LITTLE_ENDIAN, nls, cap);
			r = utfconv_test_buf(be ? UTFCONV_TEST_UTF8_TO_UTF16BE :
					     UTFCONV_TEST_UTF8_TO_UTF16LE, 0, 0, in,
					     n, ours, 2 * cap, NULL);
			KUNIT_EXPECT_TRUE_MSG(test, units >= 0 && r == 2 * units &&
					      !memcmp(ours, nls, r),
					      "text %d to UTF-16%s: nls %d units, utfconv %zd bytes",
					      i, be ? "BE" : "LE", units, r);
			if (units < 0)
				continue;
			len = utf16s_to_utf8s(nls, units, be ? UTF16_BIG_ENDIAN :
					      UTF16_LITTLE_ENDIAN, back, cap);
			r = utfconv_test_buf(be ? UTFCONV_TEST_UTF16BE_TO_UTF8 :
					     UTFCONV_TEST_UTF16LE_TO_UTF8, 0, 0, nls,
					     2 * units, ours, 2 * cap, NULL);
			KUNIT_EXPECT_TRUE_MSG(test, len == n && r == n &&
					      !memcmp(back, in, n) &&
					      !memcmp(ours, in, n),
					      "text %d from UTF-16%s: nls %d, utfconv %zd, want %zu",
					      i, be ? "BE" : "LE", len, r, n);
		}
	}
}

/* The table's valid UTF-8 rows without U+0000 agree with nls as well. */
static void utfconv_nls_vectors_test(struct kunit *test)
{
	const struct utfconv_vector *v = utfconv_param(test);
	wchar_t *nls;
	int units;

	if (v->direction != UTFCONV_TEST_UTF8_TO_UTF16LE || v->error_kind ||
	    v->flags || v->policy == UTFCONV_WTF8 ||
	    memchr(v->in, 0, v->in_bytes))
		return;
	nls = kunit_kmalloc(test, v->out_bytes + 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, nls);
	units = utf8s_to_utf16s(v->in, v->in_bytes, UTF16_LITTLE_ENDIAN, nls,
				v->out_bytes / 2 + 1);
	KUNIT_EXPECT_EQ(test, 2 * units, v->out_bytes);
	KUNIT_EXPECT_MEMEQ(test, nls, v->out, v->out_bytes);
}

/* nls drops an unpaired surrogate silently; utfconv reports or marks it. */
static void utfconv_nls_lone_surrogate_test(struct kunit *test)
{
	static const wchar_t in[] = { 0x61, 0xD800, 0x62, 0xDC00, 0x63 };
	u8 nls[16], ours[16];
	u64 off = 0;
	int len;

	len = utf16s_to_utf8s(in, ARRAY_SIZE(in), UTF16_HOST_ENDIAN, nls,
			      sizeof(nls));
	KUNIT_EXPECT_EQ(test, len, 3);
	KUNIT_EXPECT_MEMEQ(test, nls, "abc", 3);

	KUNIT_EXPECT_EQ(test, utfconv_test_buf(UTFCONV_TEST_UTF16LE_TO_UTF8,
					       UTFCONV_STRICT, 0,
					       "a\0\0\xd8\x62\0\0\xdc\x63\0", 10,
					       ours, sizeof(ours), &off), -EILSEQ);
	KUNIT_EXPECT_EQ(test, off, 2);
	KUNIT_EXPECT_EQ(test, utfconv_test_buf(UTFCONV_TEST_UTF16LE_TO_UTF8,
					       UTFCONV_REPLACE, 0,
					       "a\0\0\xd8\x62\0\0\xdc\x63\0", 10,
					       ours, sizeof(ours), NULL), 9);
	KUNIT_EXPECT_MEMEQ(test, ours, "a\xef\xbf\xbd\x62\xef\xbf\xbd\x63", 9);
}

/* nls truncates silently at the output limit; utfconv says -E2BIG. */
static void utfconv_nls_truncation_test(struct kunit *test)
{
	static const u8 in[] = "\xe6\xb1\x89\xe6\xb1\x89\xf0\xa0\xae\xb7";
	struct utfconv_state st;
	size_t used, wrote;
	wchar_t nls[4];
	u8 ours[8];
	int units;

	/* room for 3 units: nls writes 2 and drops the pair without a word */
	units = utf8s_to_utf16s(in, sizeof(in) - 1, UTF16_LITTLE_ENDIAN, nls, 3);
	KUNIT_EXPECT_EQ(test, units, 2);

	KUNIT_EXPECT_EQ(test, utfconv_test_buf(UTFCONV_TEST_UTF8_TO_UTF16LE, 0, 0, in,
					       sizeof(in) - 1, ours, 6, NULL), -E2BIG);
	KUNIT_ASSERT_EQ(test, utfconv_init(&st, UTFCONV_UTF8, UTFCONV_UTF16LE,
					   UTFCONV_STRICT, 0), 0);
	KUNIT_EXPECT_EQ(test, utfconv_test_convert(&st, in, sizeof(in) - 1, &used,
						   ours, 6, &wrote, UTFCONV_END),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, used, 6);
	KUNIT_EXPECT_EQ(test, wrote, 4);
}

/* nls says -EINVAL without a position; utfconv -EILSEQ at the offset. */
static void utfconv_nls_ill_formed_test(struct kunit *test)
{
	static const u8 in[] = "ab\xed\xa0\x80\x63";
	wchar_t nls[8];
	u8 ours[16];
	u64 off = 0;

	KUNIT_EXPECT_EQ(test, utf8s_to_utf16s(in, sizeof(in) - 1,
					      UTF16_LITTLE_ENDIAN, nls, 8),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, utfconv_test_buf(UTFCONV_TEST_UTF8_TO_UTF16LE, 0, 0, in,
					       sizeof(in) - 1, ours, sizeof(ours),
					       &off), -EILSEQ);
	KUNIT_EXPECT_EQ(test, off, 2);
}

/* nls stops at U+0000; utfconv converts it as data. */
static void utfconv_nls_nul_test(struct kunit *test)
{
	static const u8 in[] = { 'a', 0, 'b' };
	wchar_t nls[4];
	u8 ours[8];

	KUNIT_EXPECT_EQ(test, utf8s_to_utf16s(in, sizeof(in),
					      UTF16_LITTLE_ENDIAN, nls, 4), 1);
	KUNIT_EXPECT_EQ(test, utfconv_test_buf(UTFCONV_TEST_UTF8_TO_UTF16LE, 0, 0, in,
					       sizeof(in), ours, sizeof(ours), NULL),
			6);
}

static struct kunit_case utfconv_nls_cases[] = {
	KUNIT_CASE_PARAM(utfconv_nls_valid_test,
			 utfconv_suite_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_nls_vectors_test, utfconv_suite_vectors_gen_params),
	KUNIT_CASE_PARAM(utfconv_nls_lone_surrogate_test,
			 utfconv_suite_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_nls_truncation_test,
			 utfconv_suite_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_nls_ill_formed_test,
			 utfconv_suite_params_gen_params),
	KUNIT_CASE_PARAM(utfconv_nls_nul_test,
			 utfconv_suite_params_gen_params),
	{}
};

static struct kunit_suite utfconv_nls_suite =
	UTFCONV_PATH_SUITE("utfconv_nls", utfconv_nls_cases);

kunit_test_suite(utfconv_nls_suite);

#endif /* IS_ENABLED(CONFIG_NLS) */

kunit_test_suites(&utfconv_vectors_suite, &utfconv_chunking_suite,
		  &utfconv_capacity_suite, &utfconv_paths_suite,
		  &utfconv_api_suite);

/*
 * The path entries (utfconv_codec.h) are exported for KUnit only. The
 * suites are built against 6.12 (UML and the debug kernel), which names
 * the namespace as an identifier; from 6.13 on it is a string.
 */
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of the utfconv library: codec on every path, file names");
MODULE_AUTHOR("utfconv developers");
MODULE_LICENSE("GPL");
MODULE_VERSION("1.0");
