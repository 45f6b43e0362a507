/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv: in-kernel UTF-8 <-> UTF-16 codec
 *
 * The codec allocates nothing, takes no locks and never sleeps: it may be
 * called from any context. On x86-64 it uses vector instructions for large
 * buffers only where may_use_simd() allows, in short kernel_fpu_begin()
 * sections. The caller owns the stream state (&struct utfconv_state) and
 * the buffers.
 */
#ifndef _LINUX_UTFCONV_H
#define _LINUX_UTFCONV_H

#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/nls.h>
#include <linux/overflow.h>
#include <linux/types.h>
#include <uapi/linux/utfconv.h>

/*
 * Directions of the codec. UTF-16 (UTFCONV_DIR_UTF16_TO_UTF8) takes its
 * byte order from a leading byte order mark, which it consumes; without
 * one the input is big-endian (RFC 2781 section 4.3).
 */
#define UTFCONV_DIR_UTF8_TO_UTF16LE	1
#define UTFCONV_DIR_UTF8_TO_UTF16BE	2
#define UTFCONV_DIR_UTF16LE_TO_UTF8	3
#define UTFCONV_DIR_UTF16BE_TO_UTF8	4
#define UTFCONV_DIR_UTF16_TO_UTF8	5
#define UTFCONV_DIR_MAX			UTFCONV_DIR_UTF16_TO_UTF8

/* The last UTFCONV_POLICY_* of include/uapi/linux/utfconv.h. */
#define UTFCONV_POLICY_MAX		UTFCONV_POLICY_WTF8

/* The UTFCONV_FLAG_* bits of include/uapi/linux/utfconv.h, all of them. */
#define UTFCONV_FLAGS_ALL		(UTFCONV_FLAG_STRIP_BOM | \
					 UTFCONV_FLAG_EMIT_BOM)

/* Call flag of utfconv_convert(): the input ends with this call. */
#define UTFCONV_END		BIT(0)

/* Most input bytes a stream keeps pending between calls. */
#define UTFCONV_MAX_PENDING	3

/**
 * struct utfconv_state - state of one conversion stream
 * @bytes_in: input bytes accepted, a pending tail included; set back to
 *	the error offset when a strict error stops the stream
 * @bytes_out: output bytes written
 * @code_points: code points written, U+FFFD, lone surrogates (WTF-8) and
 *	an emitted BOM included
 * @replacements: ill-formed or incomplete sequences replaced or skipped
 * @error_offset: absolute byte offset of the first ill-formed or
 *	incomplete sequence seen, under any policy
 * @error_kind: UTFCONV_ERR_* of that sequence, %UTFCONV_ERR_NONE if none
 * @direction: UTFCONV_DIR_* (private)
 * @policy: UTFCONV_POLICY_* (private)
 * @flags: UTFCONV_FLAG_* (private)
 * @bits: internal state bits (private)
 * @npend: input bytes pending in @pend (private)
 * @pend: pending input bytes: up to 3 of a UTF-8 sequence, or one odd
 *	byte of a UTF-16 code unit (private)
 * @lead: pending lead surrogate of UTF-16 input (private)
 * @halt: errno that stopped the stream, 0 while it runs (private)
 *
 * Fill it with utfconv_init(); the counters may be read at any time.
 * Its size is fixed: a stream never allocates.
 */
struct utfconv_state {
	u64 bytes_in;
	u64 bytes_out;
	u64 code_points;
	u64 replacements;
	u64 error_offset;
	u32 error_kind;
	u8 direction;
	u8 policy;
	u8 flags;
	u8 bits;
	u8 npend;
	u8 pend[UTFCONV_MAX_PENDING];
	u16 lead;
	s16 halt;
};

int utfconv_init(struct utfconv_state *st, u32 direction, u32 policy,
		 u32 flags);
void utfconv_reset(struct utfconv_state *st);
int utfconv_convert(struct utfconv_state *st, const void *src,
		    size_t src_bytes, size_t *src_used, void *dst,
		    size_t dst_bytes, size_t *dst_used, unsigned int cflags);
unsigned int utfconv_pending_bytes(const struct utfconv_state *st);
bool utfconv_ended(const struct utfconv_state *st);

/**
 * utfconv_max_length() - cheap upper bound of a stream's output length
 * @direction: UTFCONV_DIR_*
 * @flags: UTFCONV_FLAG_*; %UTFCONV_FLAG_EMIT_BOM adds the BOM's length
 * @src_bytes: input length in bytes
 *
 * What a caller sizes an output buffer by, so that one utfconv_convert()
 * call with %UTFCONV_END never stops for room: UTF-8 to UTF-16 writes at
 * most 2 bytes per input byte (one code unit per ASCII byte or per
 * replaced byte), UTF-16 to UTF-8 at most 3 bytes per 2 input bytes (a
 * lone surrogate or U+FFFD), an odd last byte counted as 2. The bound
 * holds for every policy.
 *
 * Context: Any context.
 * Return: the bound in bytes, SIZE_MAX if it does not fit in size_t, or 0
 * for an unknown @direction or unknown bits in @flags.
 */
static inline size_t utfconv_max_length(u32 direction, u32 flags,
					size_t src_bytes)
{
	bool from_utf8 = direction == UTFCONV_DIR_UTF8_TO_UTF16LE ||
			 direction == UTFCONV_DIR_UTF8_TO_UTF16BE;
	size_t bytes;

	if (direction < UTFCONV_DIR_UTF8_TO_UTF16LE ||
	    direction > UTFCONV_DIR_MAX || (flags & ~UTFCONV_FLAGS_ALL))
		return 0;
	if (from_utf8) {
		if (check_mul_overflow(src_bytes, (size_t)2, &bytes))
			return SIZE_MAX;
	} else if (check_mul_overflow(src_bytes / 2 + (src_bytes & 1),
				      (size_t)3, &bytes)) {
		return SIZE_MAX;
	}
	if ((flags & UTFCONV_FLAG_EMIT_BOM) &&
	    check_add_overflow(bytes, (size_t)(from_utf8 ? 2 : 3), &bytes))
		return SIZE_MAX;
	return bytes;
}

/**
 * utfconv_error() - the error that stopped a stream
 * @st: stream state
 *
 * Under the strict and wtf8 policies the first ill-formed or incomplete
 * sequence stops the stream until utfconv_reset(); utfconv_convert()
 * then returns this errno again on every call.
 *
 * Context: Any context.
 * Return: -EILSEQ (ill-formed input), -EINVAL (the input ended inside a
 * character), or 0 while the stream runs.
 */
static inline int utfconv_error(const struct utfconv_state *st)
{
	return st->halt;
}

/*
 * File names (kmod/utfconv_fsname.c): the fs/nls conversions under the
 * caller's policy (UTFCONV_POLICY_WTF8 or UTFCONV_POLICY_STRICT), which
 * never truncate
 */
int utfconv_fsname_utf8s_to_utf16s(const u8 *s, int inlen,
				   enum utf16_endian endian, wchar_t *pwcs,
				   int maxout, u32 policy);
int utfconv_fsname_utf16s_to_utf8s(const wchar_t *pwcs, int inlen,
				   enum utf16_endian endian, u8 *s, int maxout,
				   u32 policy);
int utfconv_fsname_utf8_to_utf32(const u8 *s, int inlen, unicode_t *pu,
				 u32 policy);

#endif /* _LINUX_UTFCONV_H */
