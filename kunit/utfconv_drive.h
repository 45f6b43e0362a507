/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv stream driver for the tests (utfconv_drive.c): a complete input
 * through utfconv_convert() in given chunks and output capacities, the
 * calling contract checked on every call.
 */
#ifndef _UTFCONV_DRIVE_H
#define _UTFCONV_DRIVE_H

#include <linux/types.h>
#include <linux/utfconv.h>

/* Largest output of one input item: a 4-byte UTF-8 or a surrogate pair. */
#define UTFCONV_DRIVE_MAX_CHAR	4

/**
 * struct utfconv_drive_result - outcome of utfconv_drive()
 * @st: the stream state after the last call (counters)
 * @err: what the stream ended with: 0, -EILSEQ or -EINVAL
 * @out_bytes: output bytes written in all
 * @calls: utfconv_convert() calls made
 * @stalls: calls that returned -E2BIG with no progress because the
 *	capacity given was below the next character's size
 * @fail: the first broken rule of the calling contract, or NULL
 */
struct utfconv_drive_result {
	struct utfconv_state st;
	int err;
	size_t out_bytes;
	unsigned int calls;
	unsigned int stalls;
	const char *fail;
};

void utfconv_drive(u32 direction, u32 policy, u32 flags,
		   const u8 *in, size_t in_bytes, const size_t *cuts,
		   unsigned int ncuts, size_t cap, u8 *out,
		   size_t out_cap, struct utfconv_drive_result *run);
bool utfconv_char_boundary(bool utf16, bool be, const u8 *out,
			   size_t len, size_t pos);
ssize_t utfconv_drive_length(u32 direction, u32 policy, u32 flags,
			     const void *in, size_t in_bytes,
			     u64 *error_offset);

#endif /* _UTFCONV_DRIVE_H */
