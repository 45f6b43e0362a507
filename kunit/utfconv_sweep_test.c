// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite utfconv_sweep: every scalar value in every direction, every
 * UTF-16 code unit and surrogate-led pair, every one- to three-byte UTF-8
 * sequence and samples of the four-byte ones, each against the reference
 * model (utfconv_ref.c) or its expected encoding (utfconv_encode.h).
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/utfconv.h>

#include "../kmod/utfconv_simd.h"
#include "utfconv_checks.h"
#include "utfconv_encode.h"
#include "utfconv_paths.h"
#include "utfconv_test_pairs.h"

/* Stop a sweep after this many failures: one message per broken rule. */
#define UTFCONV_SWEEP_MAX_FAIL	8

/*
 * The sweeps visit every sweep_stride-th value of their innermost loop;
 * 1 (the default) is the exhaustive sweep. The debug-kernel VM
 * (scripts/vm.sh debug), where KASAN under QEMU TCG runs the sweeps
 * about a hundred times slower, sets it so that each case stays within
 * KUnit's 300 s limit per case. An even N is taken as N + 1, so that the
 * loops still pass the values where they reschedule.
 */
static unsigned int utfconv_sweep_stride = 1;
module_param_named(sweep_stride, utfconv_sweep_stride, uint, 0444);
MODULE_PARM_DESC(sweep_stride,
		 "Sweeps visit every N-th value of their innermost loop (default 1: all)");

static u32 utfconv_sweep_step(void)
{
	return utfconv_sweep_stride | 1;
}

static bool utfconv_sweep_failing(struct kunit *test)
{
	return test->status == KUNIT_FAILURE &&
	       ++*(unsigned int *)test->priv > UTFCONV_SWEEP_MAX_FAIL;
}

static int utfconv_sweep_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(unsigned int), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

/* Scalar value @c as @in (@n bytes) converts to exactly @want (@wn bytes). */
static void utfconv_sweep_one(struct kunit *test, u32 direction, u32 c,
			      const u8 *in, size_t n, const u8 *want,
			      size_t wn)
{
	ssize_t r;
	u8 o[8];

	r = utfconv_test_buf(direction, 0, 0, in, n, o, sizeof(o), NULL);
	KUNIT_EXPECT_EQ_MSG(test, r, (ssize_t)wn, "U+%04X, direction %u", c,
			    direction);
	KUNIT_EXPECT_MEMEQ_MSG(test, o, want, wn, "U+%04X, direction %u", c,
			       direction);
}

static void utfconv_sweep_scalars_test(struct kunit *test)
{
	u32 step = utfconv_sweep_step();
	u8 s8[4], s16[4];
	size_t n8, n16;
	bool be;
	u32 c;

	for (be = false; ; be = true) {
		for (c = 0; c <= 0x10FFFF; c += step) {
			if (c >= 0xD800 && c <= 0xDFFF)
				continue;
			n8 = utfconv_sweep_utf8(s8, c);
			n16 = utfconv_sweep_utf16(s16, c, be);
			utfconv_sweep_one(test, be ? UTFCONV_TEST_UTF8_TO_UTF16BE :
					  UTFCONV_TEST_UTF8_TO_UTF16LE, c, s8, n8,
					  s16, n16);
			utfconv_sweep_one(test, be ? UTFCONV_TEST_UTF16BE_TO_UTF8 :
					  UTFCONV_TEST_UTF16LE_TO_UTF8, c, s16, n16,
					  s8, n8);
			if (utfconv_sweep_failing(test))
				return;
			cond_resched();
		}
		if (be)
			break;
	}
}

/* Every single unit, alone and before an odd byte, under every policy. */
static void utfconv_sweep_utf16_units_test(struct kunit *test)
{
	u32 step = utfconv_sweep_step();
	u8 in[3], buf[64];
	u32 p, d, u;

	for (d = UTFCONV_TEST_UTF16LE_TO_UTF8;
	     d <= UTFCONV_TEST_UTF16BE_TO_UTF8; d++) {
		for (p = 0; p <= UTFCONV_TEST_POLICY_LAST; p++) {
			for (u = 0; u <= 0xFFFF; u += step) {
				utfconv_sweep_unit(in, u,
						   d == UTFCONV_TEST_UTF16BE_TO_UTF8);
				in[2] = 0x41;
				utfconv_check_against_ref(test, "unit", d, p, 0,
							  in, 2, buf);
				utfconv_check_against_ref(test, "unit, odd byte",
							  d, p, 0, in, 3, buf);
				if (utfconv_sweep_failing(test))
					return;
				cond_resched();
			}
		}
	}
}

/* Every pair of units whose first is a surrogate, under every policy. */
static void utfconv_sweep_utf16_pairs_test(struct kunit *test)
{
	u32 step = utfconv_sweep_step();
	u32 p, d, s, w;
	u8 in[4], buf[64];
	bool be;

	for (d = UTFCONV_TEST_UTF16LE_TO_UTF8;
	     d <= UTFCONV_TEST_UTF16BE_TO_UTF8; d++) {
		be = d == UTFCONV_TEST_UTF16BE_TO_UTF8;
		for (p = 0; p <= UTFCONV_TEST_POLICY_LAST; p++) {
			for (s = 0xD800; s <= 0xDFFF; s++) {
				utfconv_sweep_unit(in, s, be);
				for (w = 0; w <= 0xFFFF; w += step) {
					utfconv_sweep_unit(in + 2, w, be);
					utfconv_check_against_ref(test, "pair", d,
								  p, 0, in, 4,
								  buf);
				}
				if (utfconv_sweep_failing(test))
					return;
				cond_resched();
			}
		}
	}
}

/* Every 1-, 2- and 3-byte sequence against the Table 3-7 reference. */
static void utfconv_sweep_utf8_short_test(struct kunit *test)
{
	u32 step = utfconv_sweep_step();
	u32 p, x, len, i;
	u8 in[3], buf[64];

	for (p = 0; p <= UTFCONV_TEST_POLICY_LAST; p++) {
		for (len = 1; len <= 3; len++) {
			for (x = 0; x < 1U << (8 * len); x += step) {
				for (i = 0; i < len; i++)
					in[i] = x >> (8 * (len - 1 - i));
				utfconv_check_against_ref(test, "sequence",
							  UTFCONV_TEST_UTF8_TO_UTF16LE,
							  p, 0, in, len, buf);
				if ((x & 0xFFFF) == 0xFFFF) {
					if (utfconv_sweep_failing(test))
						return;
					cond_resched();
				}
			}
		}
	}
}

/* 4-byte sequences with boundary bytes after the lead @lead. */
static void utfconv_sweep_edge4(struct kunit *test, u32 policy, u8 lead,
				u8 *buf)
{
	static const u8 edge[] = {
		0x00, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xAF,
		0xB0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF,
	};
	u32 a, b, c;
	u8 in[4];

	in[0] = lead;
	for (a = 0; a < ARRAY_SIZE(edge); a++) {
		for (b = 0; b < ARRAY_SIZE(edge); b++) {
			for (c = 0; c < ARRAY_SIZE(edge); c++) {
				in[1] = edge[a];
				in[2] = edge[b];
				in[3] = edge[c];
				utfconv_check_against_ref(test, "edge",
							  UTFCONV_TEST_UTF8_TO_UTF16BE,
							  policy, 0, in, 4, buf);
			}
		}
	}
}

/* 4-byte sequences: every lead E0..FF with boundary bytes, then random. */
static void utfconv_sweep_utf8_four_test(struct kunit *test)
{
	u8 in[4], buf[64];
	u64 r = 0x9E3779B97F4A7C15ULL;
	u32 step = utfconv_sweep_step();
	u32 p, l, i;

	for (p = 0; p <= UTFCONV_TEST_POLICY_LAST; p++) {
		for (l = 0xE0; l <= 0xFF; l++) {
			utfconv_sweep_edge4(test, p, l, buf);
			if (utfconv_sweep_failing(test))
				return;
		}
		for (i = 0; i < 1000000; i += step) {
			r ^= r >> 12;
			r ^= r << 25;
			r ^= r >> 27;
			in[0] = 0xF0 + (r & 7);
			in[1] = 0x80 | ((r >> 8) & 0x3F);
			in[2] = 0x80 | ((r >> 16) & 0x3F);
			in[3] = 0x80 | ((r >> 24) & 0x3F);
			utfconv_check_against_ref(test, "random",
						  UTFCONV_TEST_UTF8_TO_UTF16LE, p,
						  0, in, 4, buf);
			if ((i & 0xFFFF) == 0xFFFF) {
				if (utfconv_sweep_failing(test))
					return;
				cond_resched();
			}
		}
	}
}

static struct kunit_case utfconv_sweep_cases[] = {
	KUNIT_CASE_SLOW(utfconv_sweep_scalars_test),
	KUNIT_CASE_SLOW(utfconv_sweep_utf16_units_test),
	KUNIT_CASE_SLOW(utfconv_sweep_utf16_pairs_test),
	KUNIT_CASE_SLOW(utfconv_sweep_utf8_short_test),
	KUNIT_CASE_SLOW(utfconv_sweep_utf8_four_test),
	{}
};

/*
 * The default path only: the sweeps' inputs, one character or pair, are
 * below the SIMD paths' minimum (%UTFCONV_SIMD_MIN bytes), so that they
 * take the scalar paths, and every SIMD path would run the same code.
 */
static struct kunit_suite utfconv_sweep_suite = {
	.name = "utfconv_sweep",
	.init = utfconv_sweep_init,
	.test_cases = utfconv_sweep_cases,
};

kunit_test_suite(utfconv_sweep_suite);
