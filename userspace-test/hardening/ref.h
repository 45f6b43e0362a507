/* SPDX-License-Identifier: GPL-2.0 */
#ifndef UTFCONV_HARDENING_REF_H
#define UTFCONV_HARDENING_REF_H
#include <stdbool.h>
#include <stddef.h>
/*
 * ref_convert() - convert @in as one complete stream with the userspace
 * build of the codec, from and to the encodings of the tests' numbered
 * pair @dir (kunit/utfconv_test_pairs.h); *@out is malloc()ed (free it),
 * *@outlen its bytes. Returns 0, -EILSEQ or -EINVAL (strict errors), like
 * the device stream.
 */
int ref_convert(unsigned int dir, unsigned int policy, unsigned int flags,
		const void *in, size_t len, unsigned char **out, size_t *outlen);
/*
 * ref_put_utf8(), ref_put_utf16() - code point @c (a surrogate too) as
 * UTF-8 or as one UTF-16 unit or a pair (@be: big-endian) at @d; return
 * the bytes written. The encoder of kunit/utfconv_encode.h.
 */
size_t ref_put_utf8(unsigned char *d, unsigned int c);
size_t ref_put_utf16(unsigned char *d, unsigned int c, bool be);
#endif
