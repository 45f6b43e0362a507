/* SPDX-License-Identifier: GPL-2.0 */
/*
 * host_bench's C view of simdutf (C++), the yardstick of issue 15: one
 * kernel ("fallback", "westmere", "haswell", "icelake") picked by name,
 * and its validating conversions. simdutf_shim.cpp is ours; simdutf
 * itself is built from SIMDUTF_DIR and never part of the project.
 */
#ifndef BENCH_SIMDUTF_SHIM_H
#define BENCH_SIMDUTF_SHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel called @name, or NULL if absent or unsupported on this CPU. */
const void *bench_simdutf_kernel(const char *name);

/* UTF-8 to UTF-16LE: 16-bit units written, 0 for ill-formed input. */
size_t bench_simdutf_utf8_to_utf16le(const void *kernel, const char *src,
				     size_t src_bytes, void *dst);

/* UTF-16LE to UTF-8: bytes written, 0 for ill-formed input. */
size_t bench_simdutf_utf16le_to_utf8(const void *kernel, const void *src,
				     size_t src_units, char *dst);

#ifdef __cplusplus
}
#endif

#endif /* BENCH_SIMDUTF_SHIM_H */
