// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv reference model for the tests: a deliberately plain, one-shot
 * converter written from the rules (Unicode Table 3-7 as data, section 3.9
 * maximal subparts, D91 surrogates, RFC 2781 byte order marks) without
 * streaming, fast paths or capacity limits, so that the codec can be
 * checked against an independent decision. Linked into the KUnit module
 * and the host tests.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/utfconv.h>

#include "utfconv_encode.h"
#include "utfconv_expect.h"
#include "utfconv_ref.h"

/*
 * struct utfconv_ref_row - one row of Unicode Table 3-7
 * @lead_lo: lowest first byte
 * @lead_hi: highest first byte
 * @len: bytes in the sequence
 * @second_lo: lowest second byte
 * @second_hi: highest second byte (third and fourth: 80..BF)
 */
struct utfconv_ref_row {
	u8 lead_lo;
	u8 lead_hi;
	u8 len;
	u8 second_lo;
	u8 second_hi;
};

static const struct utfconv_ref_row utfconv_ref_table_3_7[] = {
	{ 0x00, 0x7F, 1, 0x00, 0x00 },
	{ 0xC2, 0xDF, 2, 0x80, 0xBF },
	{ 0xE0, 0xE0, 3, 0xA0, 0xBF },
	{ 0xE1, 0xEC, 3, 0x80, 0xBF },
	{ 0xED, 0xED, 3, 0x80, 0x9F },
	{ 0xEE, 0xEF, 3, 0x80, 0xBF },
	{ 0xF0, 0xF0, 4, 0x90, 0xBF },
	{ 0xF1, 0xF3, 4, 0x80, 0xBF },
	{ 0xF4, 0xF4, 4, 0x80, 0x8F },
};

static void utfconv_ref_put(struct utfconv_ref *r, u32 cp)
{
	u8 *d = r->out + r->out_bytes;

	r->code_points++;
	r->out_bytes += r->utf16_out ? utfconv_sweep_utf16(d, cp, r->be_out) :
				       utfconv_sweep_utf8(d, cp);
}

/* An ill-formed or incomplete sequence at @off; false: stop here. */
static bool utfconv_ref_bad(struct utfconv_ref *r, u32 kind, u64 off)
{
	if (r->error_kind == UTFCONV_NO_ERROR) {
		r->error_kind = kind;
		r->error_offset = off;
	}
	if (r->policy == UTFCONV_STRICT ||
	    r->policy == UTFCONV_WTF8) {
		r->err = kind == UTFCONV_ILLFORMED ? -EILSEQ : -EINVAL;
		r->bytes_in = off;
		return false;
	}
	r->replacements++;
	if (r->policy == UTFCONV_REPLACE)
		utfconv_ref_put(r, 0xFFFD);
	return true;
}

/*
 * The unpaired surrogate @u at @off of UTF-16 input: WTF-8 keeps it (D91
 * forbids it only in a well-formed string), the other policies see an
 * ill-formed sequence; false: stop here.
 */
static bool utfconv_ref_unpaired(struct utfconv_ref *r, u32 u, u64 off,
				 bool wtf8)
{
	if (!wtf8)
		return utfconv_ref_bad(r, UTFCONV_ILLFORMED, off);
	utfconv_ref_put(r, u);
	return true;
}

/*
 * utfconv_ref_utf8_item() - classify the UTF-8 item at @s (@n > 0 bytes)
 * @wtf8: ED may be followed by A0..BF (a surrogate's generalized form)
 * @cp: out: its value, when *@kind is UTFCONV_NO_ERROR
 * @kind: out: UTFCONV_NO_ERROR, or the kind of the maximal subpart
 *
 * Return: the length of the character or of the maximal subpart.
 */
static size_t utfconv_ref_utf8_item(const u8 *s, size_t n, bool wtf8,
				    u32 *cp, u32 *kind)
{
	const struct utfconv_ref_row *row = NULL;
	size_t i, k;
	u8 lo, hi;

	for (i = 0; i < ARRAY_SIZE(utfconv_ref_table_3_7); i++)
		if (s[0] >= utfconv_ref_table_3_7[i].lead_lo &&
		    s[0] <= utfconv_ref_table_3_7[i].lead_hi)
			row = &utfconv_ref_table_3_7[i];
	*kind = UTFCONV_NO_ERROR;
	*cp = 0;
	if (!row) {
		*kind = UTFCONV_ILLFORMED;
		return 1;
	}
	for (k = 1; k < row->len; k++) {
		lo = k == 1 ? row->second_lo : 0x80;
		hi = k == 1 ? row->second_hi : 0xBF;
		if (k == 1 && wtf8 && s[0] == 0xED)
			hi = 0xBF;
		if (k >= n) {
			*kind = UTFCONV_INCOMPLETE;
			return k;
		}
		if (s[k] < lo || s[k] > hi) {
			*kind = UTFCONV_ILLFORMED;
			return k;
		}
	}
	*cp = row->len == 1 ? s[0] : s[0] & (0x7F >> row->len);
	for (k = 1; k < row->len; k++)
		*cp = (*cp << 6) | (s[k] & 0x3F);
	return row->len;
}

static void utfconv_ref_from_utf8(struct utfconv_ref *r, u32 flags,
				  const u8 *in, size_t n)
{
	bool wtf8 = r->policy == UTFCONV_WTF8;
	bool after_lead = false;
	size_t i = 0, len;
	u32 cp, kind;

	if ((flags & UTFCONV_STRIP_BOM) && n >= 3 && in[0] == 0xEF &&
	    in[1] == 0xBB && in[2] == 0xBF)
		i = 3;
	while (i < n) {
		len = utfconv_ref_utf8_item(in + i, n - i, wtf8, &cp, &kind);
		/* WTF-8 forbids a lead form followed by a trail form */
		if (!kind && after_lead && cp >= 0xDC00 && cp <= 0xDFFF)
			kind = UTFCONV_ILLFORMED;
		if (kind) {
			if (!utfconv_ref_bad(r, kind, i))
				return;
			after_lead = false;
		} else {
			utfconv_ref_put(r, cp);
			after_lead = cp >= 0xD800 && cp <= 0xDBFF;
		}
		i += len;
	}
	r->bytes_in = n;
}

static void utfconv_ref_from_utf16(struct utfconv_ref *r, u32 direction,
				   u32 flags, const u8 *in, size_t n)
{
	bool le = direction == UTFCONV_TEST_UTF16LE_TO_UTF8;
	bool wtf8 = r->policy == UTFCONV_WTF8;
	size_t i = 0;
	u16 u, v;

	if (direction == UTFCONV_TEST_UTF16_TO_UTF8 && n >= 2) {
		if (in[0] == 0xFE && in[1] == 0xFF) {
			i = 2;
		} else if (in[0] == 0xFF && in[1] == 0xFE) {
			le = true;
			i = 2;
		}
	} else if ((flags & UTFCONV_STRIP_BOM) && n >= 2 &&
		   in[le] == 0xFE && in[!le] == 0xFF) {
		i = 2;
	}
	while (i < n) {
		if (n - i == 1) {
			/* an odd byte at the end */
			if (!utfconv_ref_bad(r, UTFCONV_INCOMPLETE, i))
				return;
			i++;
			continue;
		}
		u = le ? in[i] | in[i + 1] << 8 : in[i] << 8 | in[i + 1];
		if (u < 0xD800 || u > 0xDFFF) {
			utfconv_ref_put(r, u);
			i += 2;
			continue;
		}
		if (u >= 0xDC00) {
			/* a trail with no lead */
			if (!utfconv_ref_unpaired(r, u, i, wtf8))
				return;
			i += 2;
			continue;
		}
		if (n - i >= 4) {
			v = le ? in[i + 2] | in[i + 3] << 8 :
				 in[i + 2] << 8 | in[i + 3];
			if (v >= 0xDC00 && v <= 0xDFFF) {
				utfconv_ref_put(r, 0x10000 + ((u - 0xD800) << 10) +
						(v - 0xDC00));
				i += 4;
				continue;
			}
			/* a lead followed by something else */
			if (!utfconv_ref_unpaired(r, u, i, wtf8))
				return;
			i += 2;
			continue;
		}
		if (n - i == 2 && wtf8) {
			/* WTF-8 writes a lead ending the stream */
			utfconv_ref_put(r, u);
			i += 2;
			continue;
		}
		/* a lead, and maybe an odd byte, end the stream: one sequence */
		if (!utfconv_ref_bad(r, UTFCONV_INCOMPLETE, i))
			return;
		i = n;
	}
	r->bytes_in = n;
}

/**
 * utfconv_ref_convert() - convert a complete input the plain way
 * @direction: source and target, numbered (enum utfconv_test_pair)
 * @policy: enum utfconv_policy
 * @flags: UTFCONV_STRIP_BOM, UTFCONV_EMIT_BOM
 * @in: input bytes
 * @in_bytes: length of @in
 * @out: output buffer of at least utfconv_ref_out_max() bytes
 * @r: out: the outcome
 */
void utfconv_ref_convert(u32 direction, u32 policy, u32 flags,
			 const u8 *in, size_t in_bytes, u8 *out,
			 struct utfconv_ref *r)
{
	utfconv_test_yield();
	memset(r, 0, sizeof(*r));
	r->out = out;
	r->policy = policy;
	r->utf16_out = direction == UTFCONV_TEST_UTF8_TO_UTF16LE ||
		       direction == UTFCONV_TEST_UTF8_TO_UTF16BE;
	r->be_out = direction == UTFCONV_TEST_UTF8_TO_UTF16BE;
	if (flags & UTFCONV_EMIT_BOM)
		utfconv_ref_put(r, 0xFEFF);
	if (r->utf16_out)
		utfconv_ref_from_utf8(r, flags, in, in_bytes);
	else
		utfconv_ref_from_utf16(r, direction, flags, in, in_bytes);
}
