/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * utfconv: UTF-8 <-> UTF-16 conversion through /dev/utfconv
 *
 * Every open file of /dev/utfconv is an independent conversion stream.
 * The ioctls below select its direction and options, report its status,
 * end its input and reset it; write() feeds input bytes and read()
 * returns converted bytes. UTFCONV_IOC_CONVERT converts one buffer in one
 * call without touching the stream.
 *
 * One way to extend it: every command is matched whole (type, number,
 * direction and size), so each structure's size is fixed. Its padding
 * words are reserved: they must be zero on input (else EINVAL) and are
 * written as zero on output. A new feature is a new value whose bit
 * UTFCONV_IOC_GET_INFO sets, or a new command; nothing else changes.
 */
#ifndef _UAPI_LINUX_UTFCONV_H
#define _UAPI_LINUX_UTFCONV_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * Encodings of &utfconv_config.source and .target. One of the two is
 * UTF-8 and the other UTF-16 (UTFCONV_IOC_GET_INFO lists which this module
 * reads and writes); a new encoding gets a new value.
 *
 * UTF16: a source only, iconv's "UTF-16": the byte order comes from a
 *        leading byte order mark, which is consumed; without one it is
 *        big-endian (RFC 2781 section 4.3).
 */
#define UTFCONV_ENC_UTF8		1
#define UTFCONV_ENC_UTF16LE		2
#define UTFCONV_ENC_UTF16BE		3
#define UTFCONV_ENC_UTF16		4

/*
 * Error policies: what happens on ill-formed or incomplete input.
 *
 * STRICT:  stop before it and report it (default).
 * REPLACE: one U+FFFD per maximal subpart (UTF-8) or per unpaired
 *          surrogate (UTF-16), Unicode section 3.9.
 * SKIP:    like REPLACE but write nothing; counted.
 * WTF8:    like STRICT, but unpaired surrogates round-trip through their
 *          three-byte generalized UTF-8 form (ED A0..BF 80..BF).
 */
#define UTFCONV_POLICY_STRICT		0
#define UTFCONV_POLICY_REPLACE		1
#define UTFCONV_POLICY_SKIP		2
#define UTFCONV_POLICY_WTF8		3

/*
 * Option flags of &struct utfconv_config and &struct utfconv_convert.
 *
 * STRIP_BOM:  drop a leading U+FEFF from input of a given byte order
 *             (UTFCONV_ENC_UTF16 consumes its byte order mark anyway).
 * EMIT_BOM:   start the output with U+FEFF in the target encoding.
 */
#define UTFCONV_FLAG_STRIP_BOM		_BITUL(0)
#define UTFCONV_FLAG_EMIT_BOM		_BITUL(1)

/* Error kinds reported in &struct utfconv_status and &struct utfconv_convert. */
#define UTFCONV_ERR_NONE		0
#define UTFCONV_ERR_ILLFORMED		1	/* errno EILSEQ */
#define UTFCONV_ERR_INCOMPLETE		2	/* errno EINVAL */

/* Bits of &utfconv_status.state. */
#define UTFCONV_STATE_ENDED		_BITUL(0)	/* input ended (flushed) */
#define UTFCONV_STATE_FAILED		_BITUL(1)	/* strict error holds */

/**
 * struct utfconv_config - configuration of one stream
 * @source: UTFCONV_ENC_* of the input
 * @target: UTFCONV_ENC_* of the output
 * @policy: one of UTFCONV_POLICY_*
 * @flags: zero or more of UTFCONV_FLAG_*
 * @padding: reserved, must be zero
 *
 * Used by %UTFCONV_IOC_SET_CONFIG and %UTFCONV_IOC_GET_CONFIG.
 */
struct utfconv_config {
	__u32 source;
	__u32 target;
	__u32 policy;
	__u32 flags;
	__u32 padding[4];
};

/**
 * struct utfconv_status - counters and state of one stream
 * @bytes_in: input bytes accepted, a pending incomplete tail included;
 *	after a strict error, the offset of that error
 * @bytes_out: output bytes produced (read or still waiting to be read)
 * @code_points: code points written to the output, U+FFFD replacements,
 *	lone surrogates (WTF-8) and an emitted BOM included
 * @replacements: ill-formed or incomplete sequences replaced by U+FFFD
 *	(REPLACE) or dropped (SKIP)
 * @error_offset: absolute byte offset, from the start of the stream, of the
 *	first byte of the first ill-formed or incomplete sequence; valid when
 *	@error_kind is not %UTFCONV_ERR_NONE
 * @error_kind: UTFCONV_ERR_* of the first error seen under any policy
 * @state: UTFCONV_STATE_* bits
 * @pending_bytes: input bytes held until more input completes them (at
 *	most 3)
 * @ready_bytes: output bytes waiting to be read
 * @padding: reserved, written as zero
 *
 * Filled by %UTFCONV_IOC_GET_STATUS.
 */
struct utfconv_status {
	__aligned_u64 bytes_in;
	__aligned_u64 bytes_out;
	__aligned_u64 code_points;
	__aligned_u64 replacements;
	__aligned_u64 error_offset;
	__u32 error_kind;
	__u32 state;
	__u32 pending_bytes;
	__u32 ready_bytes;
	__u32 padding[6];
};

/**
 * struct utfconv_convert - one-shot conversion of a user buffer
 * @source: UTFCONV_ENC_* of the input
 * @target: UTFCONV_ENC_* of the output
 * @policy: one of UTFCONV_POLICY_*
 * @flags: zero or more of UTFCONV_FLAG_*
 * @src: in: user address of the input
 * @src_bytes: in: length of the input in bytes; it is complete (ends at
 *	its end)
 * @dst: in: user address of the output buffer
 * @dst_bytes: in: capacity of the output buffer in bytes
 * @src_used: out: input bytes converted
 * @dst_used: out: output bytes written, whole characters; after EFAULT,
 *	those of the steps that reached @dst whole (more may have been written)
 * @error_offset: out: byte offset in @src of the first error, when
 *	@error_kind is not %UTFCONV_ERR_NONE
 * @replacements: out: sequences replaced or skipped
 * @error_kind: out: UTFCONV_ERR_* of the first error seen
 * @padding: reserved, must be zero
 *
 * Used by %UTFCONV_IOC_CONVERT. The output counted never holds part of
 * a character. The two buffers must not overlap.
 */
struct utfconv_convert {
	__u32 source;
	__u32 target;
	__u32 policy;
	__u32 flags;
	__aligned_u64 src;
	__aligned_u64 src_bytes;
	__aligned_u64 dst;
	__aligned_u64 dst_bytes;
	__aligned_u64 src_used;
	__aligned_u64 dst_used;
	__aligned_u64 error_offset;
	__aligned_u64 replacements;
	__u32 error_kind;
	__u32 padding[3];
};

/**
 * struct utfconv_info - what this module supports
 * @sources: bit (1 << e) set for each UTFCONV_ENC_* e it reads
 * @targets: bit (1 << e) set for each UTFCONV_ENC_* e it writes
 * @policies: bit (1 << p) set for each supported UTFCONV_POLICY_* p
 * @flags: UTFCONV_FLAG_* bits understood
 * @buffer_bytes: capacity of a stream's output buffer in bytes
 * @max_pending_bytes: most input bytes a stream holds pending
 * @padding: reserved, written as zero
 *
 * Filled by %UTFCONV_IOC_GET_INFO. Features are discovered here, not
 * through a version number: a value is supported when its bit is set.
 * The source and target must differ in encoding form (one UTF-8, the
 * other UTF-16).
 */
struct utfconv_info {
	__u32 sources;
	__u32 targets;
	__u32 policies;
	__u32 flags;
	__u32 buffer_bytes;
	__u32 max_pending_bytes;
	__u32 padding[10];
};

/*
 * Magic 0xBF, numbers 0x00-0x0F (free in
 * Documentation/userspace-api/ioctl/ioctl-number.rst of Linux 6.12).
 */
#define UTFCONV_IOC_MAGIC	0xBF

#define UTFCONV_IOC_GET_INFO	_IOR(UTFCONV_IOC_MAGIC, 0x00, struct utfconv_info)
#define UTFCONV_IOC_SET_CONFIG	_IOW(UTFCONV_IOC_MAGIC, 0x01, struct utfconv_config)
#define UTFCONV_IOC_GET_CONFIG	_IOR(UTFCONV_IOC_MAGIC, 0x02, struct utfconv_config)
#define UTFCONV_IOC_GET_STATUS	_IOR(UTFCONV_IOC_MAGIC, 0x03, struct utfconv_status)
#define UTFCONV_IOC_FLUSH	_IO(UTFCONV_IOC_MAGIC, 0x04)
#define UTFCONV_IOC_RESET	_IO(UTFCONV_IOC_MAGIC, 0x05)
#define UTFCONV_IOC_CONVERT	_IOWR(UTFCONV_IOC_MAGIC, 0x06, struct utfconv_convert)

#endif /* _UAPI_LINUX_UTFCONV_H */
