// SPDX-License-Identifier: GPL-2.0
/*
 * The C entry points of simdutf_shim.h over simdutf's public API
 * (simdutf.h from SIMDUTF_DIR): looked up once per kernel by host_bench,
 * then one virtual call per conversion, as simdutf's own callers make.
 */
#include "simdutf.h"
#include "simdutf_shim.h"

typedef simdutf::implementation bench_kernel;

const void *bench_simdutf_kernel(const char *name)
{
	const bench_kernel *k = simdutf::get_available_implementations()[name];

	return k && k->supported_by_runtime_system() ? k : nullptr;
}

size_t bench_simdutf_utf8_to_utf16le(const void *kernel, const char *src,
				     size_t src_bytes, void *dst)
{
	const bench_kernel *k = static_cast<const bench_kernel *>(kernel);

	return k->convert_utf8_to_utf16le(src, src_bytes,
					  static_cast<char16_t *>(dst));
}

size_t bench_simdutf_utf16le_to_utf8(const void *kernel, const void *src,
				     size_t src_units, char *dst)
{
	const bench_kernel *k = static_cast<const bench_kernel *>(kernel);

	return k->convert_utf16le_to_utf8(static_cast<const char16_t *>(src),
					  src_units, dst);
}
