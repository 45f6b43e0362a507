/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv in-kernel bench: the corpus table, generated at build time by
 * scripts/bench.sh (utfconv_bench_corpus.c, never committed).
 */
#ifndef _UTFCONV_BENCH_H
#define _UTFCONV_BENCH_H

#include <linux/types.h>

struct utfconv_bench_file {
	const char *name;
	const u8 *data;
	const u8 *end;
};

extern const struct utfconv_bench_file utfconv_bench_files[];
extern const unsigned int utfconv_bench_nfiles;

#endif /* _UTFCONV_BENCH_H */
