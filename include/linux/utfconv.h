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

/**
 * enum utfconv_encoding - an encoding form of Unicode, a stream's source
 * or target
 * @UTFCONV_UTF8: UTF-8 (Unicode D92, D95)
 * @UTFCONV_UTF16LE: UTF-16LE, little-endian code units (D97)
 * @UTFCONV_UTF16BE: UTF-16BE, big-endian code units (D96)
 * @UTFCONV_UTF16: iconv's "UTF-16", a source only: the byte order comes
 *	from a leading byte order mark, which is consumed; without one the
 *	input is big-endian (RFC 2781 section 4.3, D98)
 *
 * A stream converts from UTF-8 to UTF-16LE or UTF-16BE, or from
 * UTF-16LE, UTF-16BE or UTF-16 to UTF-8; no other source and target go
 * together.
 */
enum utfconv_encoding {
	UTFCONV_UTF8 = 1,
	UTFCONV_UTF16LE,
	UTFCONV_UTF16BE,
	UTFCONV_UTF16,
};

/**
 * enum utfconv_policy - what a stream does with ill-formed or incomplete
 * input
 * @UTFCONV_STRICT: stop before it and report it
 * @UTFCONV_REPLACE: write one U+FFFD for each maximal subpart (UTF-8) or
 *	unpaired surrogate (UTF-16), Unicode section 3.9, and go on
 * @UTFCONV_SKIP: as %UTFCONV_REPLACE but write nothing (iconv -c)
 * @UTFCONV_WTF8: as %UTFCONV_STRICT, except that unpaired surrogates
 *	round-trip through their three-byte generalized UTF-8 form
 *	(ED A0..BF 80..BF), the form WTF-8 gives them
 *
 * Replace and skip are lossy and map different inputs to one output;
 * file names want strict or wtf8.
 */
enum utfconv_policy {
	UTFCONV_STRICT,
	UTFCONV_REPLACE,
	UTFCONV_SKIP,
	UTFCONV_WTF8,
};

/*
 * Options of a stream (utfconv_init()'s @flags):
 *
 * UTFCONV_STRIP_BOM: drop a leading U+FEFF from input of a given byte
 *                    order (%UTFCONV_UTF16 consumes its byte order mark
 *                    anyway).
 * UTFCONV_EMIT_BOM:  start the output with U+FEFF in the target encoding.
 */
#define UTFCONV_STRIP_BOM	BIT(0)
#define UTFCONV_EMIT_BOM	BIT(1)
#define UTFCONV_FLAGS_ALL	(UTFCONV_STRIP_BOM | UTFCONV_EMIT_BOM)

/**
 * enum utfconv_error_kind - what the first bad input of a stream was
 * @UTFCONV_NO_ERROR: none seen
 * @UTFCONV_ILLFORMED: an ill-formed sequence (-EILSEQ when it stops the
 *	stream)
 * @UTFCONV_INCOMPLETE: the input ended inside a character (-EINVAL when
 *	it stops the stream)
 */
enum utfconv_error_kind {
	UTFCONV_NO_ERROR,
	UTFCONV_ILLFORMED,
	UTFCONV_INCOMPLETE,
};

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
 * @error_kind: &enum utfconv_error_kind of that sequence,
 *	%UTFCONV_NO_ERROR if none
 * @source: &enum utfconv_encoding of the input (private)
 * @target: &enum utfconv_encoding of the output (private)
 * @policy: &enum utfconv_policy (private)
 * @flags: UTFCONV_STRIP_BOM, UTFCONV_EMIT_BOM (private)
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
	u8 error_kind;
	u8 source;
	u8 target;
	u8 policy;
	u8 flags;
	u8 bits;
	u8 npend;
	u8 pend[UTFCONV_MAX_PENDING];
	u16 lead;
	s16 halt;
};

int utfconv_init(struct utfconv_state *st, enum utfconv_encoding source,
		 enum utfconv_encoding target, enum utfconv_policy policy,
		 u32 flags);
void utfconv_reset(struct utfconv_state *st);
int utfconv_convert(struct utfconv_state *st, const void *src,
		    size_t src_bytes, size_t *src_used, void *dst,
		    size_t dst_bytes, size_t *dst_used, unsigned int cflags);
unsigned int utfconv_pending_bytes(const struct utfconv_state *st);
bool utfconv_ended(const struct utfconv_state *st);

/**
 * utfconv_encodings_valid() - whether a stream converts between two
 * encodings
 * @source: &enum utfconv_encoding of the input
 * @target: &enum utfconv_encoding of the output
 *
 * Context: Any context.
 * Return: true for UTF-8 to UTF-16LE or UTF-16BE, and for UTF-16LE,
 * UTF-16BE or UTF-16 to UTF-8; false for any other pair, which
 * utfconv_init() refuses.
 */
static inline bool utfconv_encodings_valid(enum utfconv_encoding source,
					   enum utfconv_encoding target)
{
	if (source == UTFCONV_UTF8)
		return target == UTFCONV_UTF16LE || target == UTFCONV_UTF16BE;
	return target == UTFCONV_UTF8 && source >= UTFCONV_UTF16LE &&
	       source <= UTFCONV_UTF16;
}

/**
 * utfconv_max_length() - cheap upper bound of a stream's output length
 * @source: &enum utfconv_encoding of the input
 * @target: &enum utfconv_encoding of the output
 * @flags: UTFCONV_STRIP_BOM, UTFCONV_EMIT_BOM; %UTFCONV_EMIT_BOM adds the
 *	BOM's length
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
 * for a @source and @target that utfconv_init() refuses or unknown bits
 * in @flags.
 */
static inline size_t utfconv_max_length(enum utfconv_encoding source,
					enum utfconv_encoding target,
					u32 flags, size_t src_bytes)
{
	bool from_utf8 = source == UTFCONV_UTF8;
	size_t bytes;

	if (!utfconv_encodings_valid(source, target) ||
	    (flags & ~UTFCONV_FLAGS_ALL))
		return 0;
	if (from_utf8) {
		if (check_mul_overflow(src_bytes, (size_t)2, &bytes))
			return SIZE_MAX;
	} else if (check_mul_overflow(src_bytes / 2 + (src_bytes & 1),
				      (size_t)3, &bytes)) {
		return SIZE_MAX;
	}
	if ((flags & UTFCONV_EMIT_BOM) &&
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
 * File names (kmod/utfconv_fsname.c): the fs/nls conversions, with fs/nls's
 * types, under the caller's policy (%UTFCONV_WTF8 or %UTFCONV_STRICT),
 * which never truncate
 */
int utfconv_fsname_utf8s_to_utf16s(const u8 *s, int inlen,
				   enum utf16_endian endian, wchar_t *pwcs,
				   int maxout, enum utfconv_policy policy);
int utfconv_fsname_utf16s_to_utf8s(const wchar_t *pwcs, int inlen,
				   enum utf16_endian endian, u8 *s, int maxout,
				   enum utfconv_policy policy);
int utfconv_fsname_utf8_to_utf32(const u8 *s, int inlen, unicode_t *pu,
				 enum utfconv_policy policy);

/*
 * Per-character mapping of file names (kmod/utfconv_fsname_map.c): the
 * characters a filesystem gives another form on disk, such as SMB's
 * Services for Mac and for Unix ranges, declared once and then applied
 * in both directions.
 */

/* Flag of &struct utfconv_charpair: the pair maps the last character only. */
#define UTFCONV_PAIR_LAST	BIT(0)

/**
 * struct utfconv_charpair - one character and its form on disk
 * @vfs: the character in the VFS name, a BMP scalar value
 * @disk: its form on disk, a BMP scalar value other than @vfs
 * @flags: 0, or %UTFCONV_PAIR_LAST: only where the character is the last
 *	of the name (SMB's Services for Mac maps a trailing space or period,
 *	which Windows drops)
 *
 * A pair is a swap: @vfs becomes @disk and @disk becomes @vfs, in both
 * directions, so that no two names have one form and every name comes
 * back to the same code units. Both are BMP scalar values, one UTF-16
 * code unit each, so that a name keeps its length in code units.
 */
struct utfconv_charpair {
	u16 vfs;
	u16 disk;
	u16 flags;
};

/*
 * Flags of utfconv_charmap_init():
 *
 * UTFCONV_MAP_STOP_C0: a name ends at its first C0 control.
 * UTFCONV_MAP_PATH:    the input may be a path whose components a
 *                      backslash separates (SMB's form): a
 *                      %UTFCONV_PAIR_LAST pair swaps the last character
 *                      of each component.
 */
#define UTFCONV_MAP_STOP_C0	BIT(0)
#define UTFCONV_MAP_PATH	BIT(1)
#define UTFCONV_MAP_FLAGS_ALL	(UTFCONV_MAP_STOP_C0 | UTFCONV_MAP_PATH)

/* Most pairs a map holds: SMB's Services for Mac needs 40. */
#define UTFCONV_CHARMAP_PAIRS	64

/**
 * struct utfconv_charmap - a declared per-character mapping (private)
 * @filter: one byte per ASCII character, 0x80 where a pair names it or a
 *	name ends at it, and one per block of 128 other code points that
 *	holds one (utfconv_fsname_map.c)
 * @unit: the characters the pairs name, both sides, in ascending order
 * @image: what each of @unit becomes
 * @last: whether each of @unit is mapped only as the last character
 * @scan_lo: the lowest unit outside ASCII that a pair swaps anywhere, or
 *	0 where there is none
 * @scan_hi: the highest, or 0
 * @nunits: entries of @unit in use
 * @flags: the flags of utfconv_charmap_init()
 *
 * Filled by utfconv_charmap_init(), then only read: one map may serve
 * any number of calls at once. Its size is fixed: nothing allocates.
 */
struct utfconv_charmap {
	u8 filter[0x80 + 0x200];
	u16 unit[2 * UTFCONV_CHARMAP_PAIRS];
	u16 image[2 * UTFCONV_CHARMAP_PAIRS];
	bool last[2 * UTFCONV_CHARMAP_PAIRS];
	u16 scan_lo;
	u16 scan_hi;
	u8 nunits;
	u8 flags;
};

int utfconv_charmap_init(struct utfconv_charmap *map,
			 const struct utfconv_charpair *pairs,
			 unsigned int npairs, u32 flags);
int utfconv_fsname_utf8s_to_utf16s_map(const u8 *s, int inlen,
				       enum utf16_endian endian,
				       wchar_t *pwcs, int maxout,
				       enum utfconv_policy policy,
				       const struct utfconv_charmap *map);
int utfconv_fsname_utf16s_to_utf8s_map(const wchar_t *pwcs, int inlen,
				       enum utf16_endian endian, u8 *s,
				       int maxout, enum utfconv_policy policy,
				       const struct utfconv_charmap *map);

#endif /* _LINUX_UTFCONV_H */
