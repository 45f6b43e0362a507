/* SPDX-License-Identifier: GPL-2.0 */
#ifndef UTFCONV_HARDENING_REF_H
#define UTFCONV_HARDENING_REF_H
#include <stddef.h>
/*
 * ref_convert() - convert @in as one complete stream with the userspace
 * build of the codec; *@out is malloc()ed (free it), *@outlen its bytes.
 * Returns 0, -EILSEQ or -EINVAL (strict errors), like the device stream.
 */
int ref_convert(unsigned int dir, unsigned int policy, unsigned int flags,
		const void *in, size_t len, unsigned char **out, size_t *outlen);
#endif
