/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv checks of the fast paths: long runs in one script each with a
 * fault at every position, at every output capacity (utfconv_runs.c), and
 * where the fast paths end: an input's last ASCII bytes, the ends of an
 * FPU section's budget, every output alignment (utfconv_edges.c); each
 * outcome the reference model's.
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

size_t utfconv_runs_text(unsigned int text, u8 *d);
size_t utfconv_runs_text16(unsigned int text, u8 *d, bool be);
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
