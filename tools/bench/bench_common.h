/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of host_bench.c and ab_bench.c: each defines BENCH_PROG, its
 * name for messages, before it includes this.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", BENCH_PROG);
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

/* A corpus file's name from its directory on. */
static const char *short_name(const char *path)
{
	const char *s = strstr(path, "corpus/");

	return s ? s + 7 : path;
}

#endif /* BENCH_COMMON_H */
