/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv checks of the fast paths (utfconv_runs.c): long runs in one
 * script each with a fault at every position, at every output capacity,
 * around the ends of an FPU section's budget and at every output
 * alignment, each outcome the reference model's.
 */
#ifndef _UTFCONV_RUNS_H
#define _UTFCONV_RUNS_H

#include <linux/types.h>

#include "../kmod/utfconv_simd.h"

/* The long texts of utfconv_check_long_runs(), numbered 0 on. */
#define UTFCONV_RUNS_TEXTS	11

/*
 * The budget of an FPU section (utfconv_simd.h), whose ends
 * utfconv_check_section_ends() puts a character at: ASCII at the start of
 * a section counts 1 / 2^UTFCONV_SECTION_SHIFT of a byte.
 */
#define UTFCONV_SECTION_CHUNK	UTFCONV_SIMD_CHUNK
#define UTFCONV_SECTION_SHIFT	UTFCONV_SIMD_ASCII_SHIFT
#define UTFCONV_SECTION_ASCII	(UTFCONV_SECTION_CHUNK << UTFCONV_SECTION_SHIFT)

bool utfconv_runs_at(size_t pos, size_t n, unsigned int step);
void utfconv_check_long_runs(void *ctx, unsigned int text,
			     unsigned int step);
void utfconv_check_nul_runs(void *ctx, unsigned int text,
			    unsigned int step);
void utfconv_check_two_byte_runs(void *ctx, bool utf16);
void utfconv_check_long_seq_runs(void *ctx);
void utfconv_check_ascii_tails(void *ctx);
void utfconv_check_section_ends(void *ctx);
void utfconv_check_out_alignment(void *ctx);

#endif /* _UTFCONV_RUNS_H */
