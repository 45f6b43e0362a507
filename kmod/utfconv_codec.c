// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: streaming UTF-8 <-> UTF-16 conversion
 *
 * Exact per the Unicode Standard chapter 3 (D76 scalar value, D91 UTF-16,
 * D92 UTF-8, Table 3-7, section 3.9 "U+FFFD Substitution of Maximal
 * Subparts"), RFC 3629 (UTF-8) and RFC 2781 (UTF-16).
 */

#include <linux/bits.h>
#include <linux/cache.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <linux/utfconv.h>
#include <kunit/visibility.h>

#include "utfconv_block.h"
#include "utfconv_simd.h"

#if UTFCONV_HAVE_SIMD
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/simd.h>
#endif

/**
 * DOC: UTF-8 and UTF-16 forms
 *
 * A scalar value is a code point outside the surrogate range
 * U+D800..U+DFFF. UTF-8 (RFC 3629, Unicode D92) writes it in the shortest
 * of these forms::
 *
 *   U+0000..U+007F     0xxxxxxx
 *   U+0080..U+07FF     110xxxxx 10xxxxxx
 *   U+0800..U+FFFF     1110xxxx 10xxxxxx 10xxxxxx
 *   U+10000..U+10FFFF  11110xxx 10xxxxxx 10xxxxxx 10xxxxxx
 *
 * so that the well-formed byte sequences are exactly the rows of Unicode
 * Table 3-7::
 *
 *   first    second   third    fourth
 *   00..7F
 *   C2..DF   80..BF
 *   E0       A0..BF   80..BF
 *   E1..EC   80..BF   80..BF
 *   ED       80..9F   80..BF
 *   EE..EF   80..BF   80..BF
 *   F0       90..BF   80..BF   80..BF
 *   F1..F3   80..BF   80..BF   80..BF
 *   F4       80..8F   80..BF   80..BF
 *
 * C0, C1 and F5..FF never occur; the narrowed second-byte ranges after
 * E0, ED, F0 and F4 exclude overlong forms, surrogates and values above
 * U+10FFFF. A maximal subpart (Unicode 3.9, D93b) is the longest prefix
 * of an ill-formed sequence that is a prefix of some row above, or its
 * first byte alone; the REPLACE policy writes one U+FFFD for each.
 *
 * UTF-16 (D91) writes U+0000..U+FFFF less the surrogates as one code unit
 * and U+10000..U+10FFFF as a surrogate pair: a lead surrogate
 * 0xD800 + ((c - 0x10000) >> 10) then a trail surrogate
 * 0xDC00 + ((c - 0x10000) & 0x3FF). A lead without a trail after it and a
 * trail without a lead before it are unpaired surrogates: ill-formed,
 * except under the WTF-8 policy, which writes them in the three-byte form
 * ED A0..BF 80..BF and reads that form back.
 */

/* utfconv_state.bits */
#define UTFCONV_BIT_STARTED	BIT(0)	/* first input item processed */
#define UTFCONV_BIT_BOM_DONE	BIT(1)	/* output BOM written */
#define UTFCONV_BIT_LEAD	BIT(2)	/* lead surrogate pending in ->lead */
#define UTFCONV_BIT_LEAD_FORM	BIT(3)	/* WTF-8 input: last item a lead form */
#define UTFCONV_BIT_ENDED	BIT(4)	/* input ended */
#define UTFCONV_BIT_LE_IN	BIT(5)	/* UTF-16 input is little-endian */

#define UTFCONV_REPLACEMENT	0xFFFD
#define UTFCONV_BOM		0xFEFF

/* A UTF-8 decoding outcome that is not a character: input ran out. */
#define UTFCONV_NEED_MORE	0

struct utfconv_cursor {
	const u8 *start;	/* input of this call */
	const u8 *s;		/* next input byte */
	const u8 *se;		/* end of input */
	u8 *d;			/* next output byte */
	u8 *de;			/* end of output */
	u64 base;		/* stream offset of @start */
};

static inline bool utfconv_utf8_in(const struct utfconv_state *st)
{
	return st->direction == UTFCONV_DIR_UTF8_TO_UTF16LE ||
	       st->direction == UTFCONV_DIR_UTF8_TO_UTF16BE;
}

static inline u64 utfconv_pos(const struct utfconv_cursor *c)
{
	return c->base + (c->s - c->start);
}

static void utfconv_note_error(struct utfconv_state *st, u32 kind, u64 off)
{
	if (st->error_kind == UTFCONV_ERR_NONE) {
		st->error_kind = kind;
		st->error_offset = off;
	}
}

/* Stop the stream at @off: nothing at or after it was accepted. */
static int utfconv_halt(struct utfconv_state *st, u32 kind, u64 off)
{
	utfconv_note_error(st, kind, off);
	st->halt = kind == UTFCONV_ERR_ILLFORMED ? -EILSEQ : -EINVAL;
	st->bytes_in = off;
	st->npend = 0;
	st->bits &= ~(UTFCONV_BIT_LEAD | UTFCONV_BIT_LEAD_FORM);
	return st->halt;
}

/*
 * Deal with one ill-formed or incomplete sequence of the policy's kind:
 * halt (strict, wtf8), or write one U+FFFD (replace), or nothing (skip).
 * Returns 0 when the caller may consume the sequence, -E2BIG when U+FFFD
 * does not fit, or the halting errno.
 */
static int utfconv_bad(struct utfconv_state *st, struct utfconv_cursor *c,
		       u32 kind, u64 off)
{
	unsigned int n;

	switch (st->policy) {
	case UTFCONV_POLICY_REPLACE:
		n = utfconv_utf8_in(st) ? 2 : 3;
		if (c->de - c->d < n)
			return -E2BIG;
		if (utfconv_utf8_in(st))
			utfconv_put16(c->d, UTFCONV_REPLACEMENT,
				      st->direction == UTFCONV_DIR_UTF8_TO_UTF16BE);
		else
			utfconv_put_utf8(c->d, UTFCONV_REPLACEMENT);
		c->d += n;
		st->code_points++;
		fallthrough;
	case UTFCONV_POLICY_SKIP:
		st->replacements++;
		utfconv_note_error(st, kind, off);
		return 0;
	default:
		return utfconv_halt(st, kind, off);
	}
}

/*
 * Decode the UTF-8 sequence at @s (@n > 0 bytes available) per Table 3-7.
 * Returns its length with *@cp set, or -(length of its maximal subpart)
 * if it is ill-formed, or UTFCONV_NEED_MORE if all @n bytes are a proper
 * prefix of a well-formed sequence. With @wtf8, ED A0..BF 80..BF decodes
 * to the surrogate it stands for.
 */
static int utfconv_decode_utf8(const u8 *s, size_t n, u32 *cp, bool wtf8)
{
	u8 lead = s[0], lo = 0x80, hi = 0xBF;
	int len, i;
	u32 v;

	if (lead < 0x80) {
		*cp = lead;
		return 1;
	}
	if (lead < 0xC2) {
		return -1;
	} else if (lead < 0xE0) {
		len = 2;
		v = lead & 0x1F;
	} else if (lead < 0xF0) {
		len = 3;
		v = lead & 0x0F;
		if (lead == 0xE0)
			lo = 0xA0;
		else if (lead == 0xED && !wtf8)
			hi = 0x9F;
	} else if (lead < 0xF5) {
		len = 4;
		v = lead & 0x07;
		if (lead == 0xF0)
			lo = 0x90;
		else if (lead == 0xF4)
			hi = 0x8F;
	} else {
		return -1;
	}
	if (n < 2)
		return UTFCONV_NEED_MORE;
	if (s[1] < lo || s[1] > hi)
		return -1;
	v = v << 6 | (s[1] & 0x3F);
	for (i = 2; i < len; i++) {
		if (n <= i)
			return UTFCONV_NEED_MORE;
		if ((s[i] & 0xC0) != 0x80)
			return -i;
		v = v << 6 | (s[i] & 0x3F);
	}
	*cp = v;
	return len;
}

/*
 * Convert one item of UTF-8 input: a character, one maximal subpart, or
 * an incomplete tail, starting with any pending bytes. All the checks the
 * fast path leaves out live here. Returns 0 (item done, or the input is
 * used up), -E2BIG with nothing changed, or the halting errno.
 */
static int utfconv_utf8_slow(struct utfconv_state *st,
			     struct utfconv_cursor *c, bool end)
{
	bool be = st->direction == UTFCONV_DIR_UTF8_TO_UTF16BE;
	bool wtf8 = st->policy == UTFCONV_POLICY_WTF8;
	unsigned int np = st->npend, avail, take;
	u8 tmp[4];
	const u8 *p;
	u64 off;
	u32 cp = 0;
	int r, ret;

	avail = min_t(size_t, c->se - c->s, 4 - np);
	if (np) {
		memcpy(tmp, st->pend, np);
		memcpy(tmp + np, c->s, avail);
		p = tmp;
	} else {
		p = c->s;
	}
	if (np + avail == 0)
		return 0;
	off = utfconv_pos(c) - np;

	r = utfconv_decode_utf8(p, np + avail, &cp, wtf8);
	if (r == UTFCONV_NEED_MORE) {
		if (!end) {
			/* a valid prefix used up the input: keep it */
			memcpy(st->pend, p, np + avail);
			st->npend = np + avail;
			c->s += avail;
			return 0;
		}
		st->bits |= UTFCONV_BIT_STARTED;
		ret = utfconv_bad(st, c, UTFCONV_ERR_INCOMPLETE, off);
		take = np + avail;
	} else if (r < 0) {
		st->bits |= UTFCONV_BIT_STARTED;
		ret = utfconv_bad(st, c, UTFCONV_ERR_ILLFORMED, off);
		take = -r;
	} else {
		take = r;
		if (!(st->bits & UTFCONV_BIT_STARTED)) {
			st->bits |= UTFCONV_BIT_STARTED;
			if (cp == UTFCONV_BOM &&
			    (st->flags & UTFCONV_FLAG_STRIP_BOM))
				goto consume;
		}
		if (cp >= 0xD800 && cp <= 0xDFFF) {
			/* WTF-8 surrogate form; a CESU-8 pair is ill-formed */
			if (cp >= 0xDC00 && (st->bits & UTFCONV_BIT_LEAD_FORM))
				return utfconv_halt(st, UTFCONV_ERR_ILLFORMED, off);
			if (c->de - c->d < 2)
				return -E2BIG;
			utfconv_put16(c->d, cp, be);
			c->d += 2;
			if (cp < 0xDC00)
				st->bits |= UTFCONV_BIT_LEAD_FORM;
			else
				st->bits &= ~UTFCONV_BIT_LEAD_FORM;
		} else {
			if (c->de - c->d < (cp < 0x10000 ? 2 : 4))
				return -E2BIG;
			c->d += utfconv_put_utf16(c->d, cp, be);
			st->bits &= ~UTFCONV_BIT_LEAD_FORM;
		}
		st->code_points++;
		ret = 0;
	}
	if (ret)
		return ret;
consume:
	/* a maximal subpart or character always covers the pending bytes */
	c->s += take - np;
	st->npend = 0;
	return 0;
}

/**
 * DOC: SIMD paths
 *
 * On x86-64 the block paths have SSE2, SSSE3 and AVX2 counterparts for
 * large buffers (utfconv_simd_x86.c). They run only where may_use_simd()
 * allows, between kernel_fpu_begin() and kernel_fpu_end(), at most
 * %UTFCONV_SIMD_CHUNK input bytes per FPU section; anything they do not
 * convert goes on through the scalar paths, which stay the only ones in
 * atomic contexts that forbid the FPU, on other architectures and for
 * small buffers. The output, errors, offsets and counters are the same on
 * every path.
 *
 * Where the CPU has SSSE3, both directions pack their encoded lanes with
 * pshufb; where it has AVX2 (and the kernel saves the YMM registers),
 * UTF-16 to UTF-8 takes 16 or 32 units at a time and UTF-8 to UTF-16 runs
 * of 32 ASCII bytes. Which of them a call may use is decided once, when
 * the module loads, from the CPU's features and the module parameter
 * ``simd`` (bool, read-only at run time; 1, the default: SIMD for calls
 * with at least %UTFCONV_SIMD_MIN bytes of input and of output room; 0:
 * scalar paths only), and kept in static keys. Kernels with KUnit have
 * utfconv_force_path() besides, with which the tests run every path in
 * one boot.
 */
static bool utfconv_simd_param = true;
module_param_named(simd, utfconv_simd_param, bool, 0444);
MODULE_PARM_DESC(simd,
		 "Use the SIMD paths (x86-64: SSE2, SSSE3, AVX2) for large buffers (default: 1)");

#if IS_ENABLED(CONFIG_KUNIT)
/* utfconv_force_path()'s choice */
static enum utfconv_path utfconv_forced_path = UTFCONV_PATH_AUTO;
#endif

#if UTFCONV_HAVE_SIMD
static __ro_after_init DEFINE_STATIC_KEY_FALSE(utfconv_simd_key);
static __ro_after_init DEFINE_STATIC_KEY_FALSE(utfconv_ssse3_key);
static __ro_after_init DEFINE_STATIC_KEY_FALSE(utfconv_avx2_key);

/*
 * The static keys, from the parameter and the CPU: AVX2 also needs the
 * kernel to save the YMM registers.
 *
 * Under UML the flags are the host's, and the kernel code runs in host
 * processes: the host saves their whole vector state, YMM included, on
 * every switch and signal, and UML's own thread switches are function
 * calls, across which no vector register is kept; its kernel_fpu_begin()
 * is empty for that reason, and there is no cpu_has_xfeatures().
 */
static void __init utfconv_simd_init(void)
{
	bool avx2 = boot_cpu_has(X86_FEATURE_AVX2);

#ifndef CONFIG_UML
	avx2 = avx2 && cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM,
					 NULL);
#endif
	if (utfconv_simd_param)
		static_branch_enable(&utfconv_simd_key);
	if (boot_cpu_has(X86_FEATURE_SSSE3)) {
		static_branch_enable(&utfconv_ssse3_key);
		if (avx2)
			static_branch_enable(&utfconv_avx2_key);
	}
}

#if IS_ENABLED(CONFIG_KUNIT)
/* What utfconv_force_path() pinned: a lower @level, no minimum size. */
static inline void utfconv_forced(unsigned int *level, size_t *min)
{
	enum utfconv_path path = READ_ONCE(utfconv_forced_path);

	if (path == UTFCONV_PATH_AUTO)
		return;
	*min = 0;
	if (path == UTFCONV_PATH_SCALAR)
		*level = 0;
	else if (path == UTFCONV_PATH_SSE2)
		*level = min_t(unsigned int, *level, UTFCONV_LEVEL_SSE2);
	else if (path == UTFCONV_PATH_SSSE3)
		*level = min_t(unsigned int, *level, UTFCONV_LEVEL_SSSE3);
}
#else
static inline void utfconv_forced(unsigned int *level, size_t *min)
{
}
#endif

/*
 * Whether a call with @in_bytes of input and @out_bytes of room takes the
 * SIMD paths: 0 no, else the UTFCONV_LEVEL_* of the instruction sets to
 * use. By default both must be large: a small output window
 * (utfconv_length() and utfconv_validate() convert into 128 bytes at a
 * time) would pay for an FPU section every few dozen characters.
 */
static unsigned int utfconv_simd_usable(size_t in_bytes, size_t out_bytes)
{
	unsigned int level = UTFCONV_LEVEL_SSE2;
	size_t min = UTFCONV_SIMD_MIN;

	if (!static_branch_likely(&utfconv_simd_key))
		return 0;
	if (static_branch_likely(&utfconv_avx2_key))
		level = UTFCONV_LEVEL_AVX2;
	else if (static_branch_likely(&utfconv_ssse3_key))
		level = UTFCONV_LEVEL_SSSE3;
	utfconv_forced(&level, &min);
	if (!level || in_bytes < min || out_bytes < min || !may_use_simd())
		return 0;
	return level;
}

/*
 * The SIMD path from UTF-8 (@utf8; @flag: UTF-16BE output) or from UTF-16
 * (@flag: little-endian input), one FPU section per chunk of input; @level
 * from utfconv_simd_usable().
 */
static __always_inline u64 utfconv_simd(const u8 **sp, const u8 *se,
					u8 **dp, u8 *de, bool utf8, bool flag,
					unsigned int level)
{
	bool (*room)(const u8 *s, const u8 *se, const u8 *d, const u8 *de) =
		utf8 ? utfconv_utf8_room : utfconv_utf16_room;
	u64 ncp = 0;

	while (room(*sp, se, *dp, de)) {
		const u8 *ce = se - *sp > UTFCONV_SIMD_CHUNK ?
			       *sp + UTFCONV_SIMD_CHUNK : se;

		kernel_fpu_begin();
		if (utf8)
			ncp += utfconv_sse2_from_utf8(sp, ce, dp, de, flag,
						      level);
		else
			ncp += utfconv_sse2_from_utf16(sp, ce, dp, de, flag,
						       level);
		kernel_fpu_end();
		/* stopped short of its chunk: the careful path's turn */
		if (room(*sp, ce, *dp, de))
			break;
	}
	return ncp;
}
#else
static inline void utfconv_simd_init(void)
{
}

static inline unsigned int utfconv_simd_usable(size_t in_bytes,
					       size_t out_bytes)
{
	return 0;
}

static inline u64 utfconv_simd(const u8 **sp, const u8 *se, u8 **dp, u8 *de,
			       bool utf8, bool flag, unsigned int level)
{
	return 0;
}
#endif

#if IS_ENABLED(CONFIG_KUNIT)
/* For KUnit only (kernel-doc in utfconv_simd.h): pins the paths. */
VISIBLE_IF_KUNIT int utfconv_force_path(enum utfconv_path path)
{
	if (path > UTFCONV_PATH_SSSE3)
		return -EINVAL;
	WRITE_ONCE(utfconv_forced_path, path);
	return utfconv_simd_usable(SIZE_MAX, SIZE_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(utfconv_force_path);

#endif

static __always_inline int utfconv_from_utf8(struct utfconv_state *st,
					     struct utfconv_cursor *c,
					     bool end, bool be)
{
	const u8 *s = c->s, *se = c->se;
	u8 *d = c->d, *de = c->de;
	bool slow = st->npend || !(st->bits & UTFCONV_BIT_STARTED) ||
		    (st->bits & UTFCONV_BIT_LEAD_FORM);
	unsigned int simd = utfconv_simd_usable(se - s, de - d);
	u64 ncp = 0;
	int ret = 0;

	for (;;) {
		u32 cp;
		u8 b;

		if (unlikely(slow)) {
			if (s == se && !(end && st->npend))
				break;
			c->s = s;
			c->d = d;
			ret = utfconv_utf8_slow(st, c, end);
			s = c->s;
			d = c->d;
			if (ret)
				break;
			slow = st->npend || (st->bits & UTFCONV_BIT_LEAD_FORM);
			continue;
		}
		if (simd)
			ncp += utfconv_simd(&s, se, &d, de, true, be, simd);
		ncp += utfconv_utf8_block(&s, se, &d, de, be);
		if (s >= se)
			break;
		b = *s;
		if (b < 0x80) {
			while (se - s >= 8 && de - d >= 16) {
				u64 w = get_unaligned_le64(s);

				if (w & 0x8080808080808080ULL)
					break;
				utfconv_put_ascii8(d, w, be);
				s += 8;
				d += 16;
				ncp += 8;
			}
			if (s < se && *s < 0x80) {
				if (de - d < 2) {
					ret = -E2BIG;
					break;
				}
				utfconv_put16(d, *s, be);
				s++;
				d += 2;
				ncp++;
			}
			continue;
		}
		if (b < 0xE0) {
			if (b < 0xC2 || se - s < 2 || (s[1] & 0xC0) != 0x80) {
				slow = true;
				continue;
			}
			if (de - d < 2) {
				ret = -E2BIG;
				break;
			}
			utfconv_put16(d, (b & 0x1F) << 6 | (s[1] & 0x3F), be);
			s += 2;
			d += 2;
			ncp++;
			continue;
		}
		if (b < 0xF0) {
			if (se - s < 3 || (s[1] & 0xC0) != 0x80 ||
			    (s[2] & 0xC0) != 0x80) {
				slow = true;
				continue;
			}
			cp = (b & 0x0F) << 12 | (s[1] & 0x3F) << 6 |
			     (s[2] & 0x3F);
			/* overlong or surrogate */
			if (cp < 0x800 || (cp & 0xF800) == 0xD800) {
				slow = true;
				continue;
			}
			if (de - d < 2) {
				ret = -E2BIG;
				break;
			}
			utfconv_put16(d, cp, be);
			s += 3;
			d += 2;
			ncp++;
			continue;
		}
		if (b < 0xF5 && se - s >= 4 && (s[1] & 0xC0) == 0x80 &&
		    (s[2] & 0xC0) == 0x80 && (s[3] & 0xC0) == 0x80) {
			cp = (b & 0x07) << 18 | (s[1] & 0x3F) << 12 |
			     (s[2] & 0x3F) << 6 | (s[3] & 0x3F);
			if (cp >= 0x10000 && cp <= 0x10FFFF) {
				if (de - d < 4) {
					ret = -E2BIG;
					break;
				}
				utfconv_put_utf16(d, cp, be);
				s += 4;
				d += 4;
				ncp++;
				continue;
			}
		}
		slow = true;
	}
	c->s = s;
	c->d = d;
	st->code_points += ncp;
	return ret;
}

/*
 * Deal with an unpaired surrogate @unit at @off: halt (strict), write
 * U+FFFD (replace), nothing (skip) or its three-byte form (wtf8).
 */
static int utfconv_lone_surrogate(struct utfconv_state *st,
				  struct utfconv_cursor *c, u16 unit, u64 off)
{
	if (st->policy != UTFCONV_POLICY_WTF8)
		return utfconv_bad(st, c, UTFCONV_ERR_ILLFORMED, off);
	if (c->de - c->d < 3)
		return -E2BIG;
	c->d += utfconv_put_utf8(c->d, unit);
	st->code_points++;
	return 0;
}

/* The input ended with a pending odd byte and/or lead surrogate. */
static int utfconv_utf16_tail(struct utfconv_state *st,
			      struct utfconv_cursor *c)
{
	u64 pos = utfconv_pos(c);
	int ret;

	if (st->bits & UTFCONV_BIT_LEAD) {
		u64 off = pos - st->npend - 2;

		if (st->npend || st->policy != UTFCONV_POLICY_WTF8)
			ret = utfconv_bad(st, c, UTFCONV_ERR_INCOMPLETE, off);
		else
			ret = utfconv_lone_surrogate(st, c, st->lead, off);
	} else {
		ret = utfconv_bad(st, c, UTFCONV_ERR_INCOMPLETE, pos - 1);
	}
	if (!ret) {
		st->npend = 0;
		st->bits &= ~UTFCONV_BIT_LEAD;
	}
	return ret;
}

/*
 * Convert one item of UTF-16 input: a code unit, a surrogate pair, a
 * byte order mark or an unpaired surrogate, with any pending odd byte or
 * lead surrogate. Returns 0 (item done, or the input is used up), -E2BIG
 * with nothing changed, or the halting errno.
 */
static int utfconv_utf16_slow(struct utfconv_state *st,
			      struct utfconv_cursor *c, bool end)
{
	bool le = st->bits & UTFCONV_BIT_LE_IN;
	size_t avail = c->se - c->s;
	unsigned int take, n;
	u8 b[2];
	u16 unit;
	u64 off;
	u32 cp;
	int ret;

	if (st->npend + avail < 2) {
		if (avail) {
			st->pend[0] = *c->s;
			st->npend = 1;
			c->s++;
		}
		if (end && (st->npend || (st->bits & UTFCONV_BIT_LEAD)))
			return utfconv_utf16_tail(st, c);
		return 0;
	}
	if (st->npend) {
		b[0] = st->pend[0];
		b[1] = c->s[0];
		take = 1;
	} else {
		b[0] = c->s[0];
		b[1] = c->s[1];
		take = 2;
	}
	unit = utfconv_get16(b, le);
	off = utfconv_pos(c) - st->npend;

	if (!(st->bits & UTFCONV_BIT_STARTED)) {
		st->bits |= UTFCONV_BIT_STARTED;
		if (st->direction == UTFCONV_DIR_UTF16_TO_UTF8) {
			if (unit == 0xFFFE)
				st->bits |= UTFCONV_BIT_LE_IN;
			if (unit == 0xFEFF || unit == 0xFFFE)
				goto consume;
		} else if (unit == UTFCONV_BOM &&
			   (st->flags & UTFCONV_FLAG_STRIP_BOM)) {
			goto consume;
		}
	}

	if (st->bits & UTFCONV_BIT_LEAD) {
		if (unit >= 0xDC00 && unit <= 0xDFFF) {
			if (c->de - c->d < 4)
				return -E2BIG;
			cp = utfconv_pair(st->lead, unit);
			c->d += utfconv_put_utf8(c->d, cp);
			st->code_points++;
			st->bits &= ~UTFCONV_BIT_LEAD;
			goto consume;
		}
		/* the lead is unpaired; @unit comes next on its own */
		ret = utfconv_lone_surrogate(st, c, st->lead, off - 2);
		if (!ret)
			st->bits &= ~UTFCONV_BIT_LEAD;
		return ret;
	}
	if (unit >= 0xD800 && unit <= 0xDBFF) {
		st->lead = unit;
		st->bits |= UTFCONV_BIT_LEAD;
		goto consume;
	}
	if (unit >= 0xDC00 && unit <= 0xDFFF) {
		ret = utfconv_lone_surrogate(st, c, unit, off);
		if (ret)
			return ret;
		goto consume;
	}
	n = utfconv_utf8_len(unit);
	if (c->de - c->d < n)
		return -E2BIG;
	utfconv_put_utf8(c->d, unit);
	c->d += n;
	st->code_points++;
consume:
	c->s += take;
	st->npend = 0;
	return 0;
}

static __always_inline int utfconv_from_utf16(struct utfconv_state *st,
					      struct utfconv_cursor *c,
					      bool end, bool le)
{
	const u64 nonascii = le ? 0xFF80FF80FF80FF80ULL : 0x80FF80FF80FF80FFULL;
	const u8 *s = c->s, *se = c->se;
	u8 *d = c->d, *de = c->de;
	bool slow = st->npend ||
		    (st->bits & (UTFCONV_BIT_LEAD | UTFCONV_BIT_STARTED)) !=
		    UTFCONV_BIT_STARTED;
	unsigned int simd = utfconv_simd_usable(se - s, de - d);
	u64 ncp = 0;
	int ret = 0;

	for (;;) {
		u16 unit, trail;

		if (unlikely(slow)) {
			if (s == se && !(end && (st->npend ||
						 (st->bits & UTFCONV_BIT_LEAD))))
				break;
			c->s = s;
			c->d = d;
			ret = utfconv_utf16_slow(st, c, end);
			s = c->s;
			d = c->d;
			if (ret)
				break;
			if (le != !!(st->bits & UTFCONV_BIT_LE_IN)) {
				ret = 1;	/* byte order found: redispatch */
				break;
			}
			slow = st->npend || (st->bits & UTFCONV_BIT_LEAD);
			continue;
		}
		if (simd)
			ncp += utfconv_simd(&s, se, &d, de, false, le, simd);
		ncp += utfconv_utf16_block(&s, se, &d, de, le);
		if (se - s < 2) {
			if (s == se)
				break;
			slow = true;
			continue;
		}
		unit = utfconv_get16(s, le);
		if (unit < 0x80) {
			while (se - s >= 16 && de - d >= 8) {
				u64 w0 = get_unaligned_le64(s);
				u64 w1 = get_unaligned_le64(s + 8);

				if ((w0 | w1) & nonascii)
					break;
				if (!le) {
					w0 >>= 8;
					w1 >>= 8;
				}
				put_unaligned_le32(utfconv_gather4(w0), d);
				put_unaligned_le32(utfconv_gather4(w1), d + 4);
				s += 16;
				d += 8;
				ncp += 8;
			}
			if (se - s >= 2) {
				unit = utfconv_get16(s, le);
				if (unit < 0x80) {
					if (d == de) {
						ret = -E2BIG;
						break;
					}
					*d++ = unit;
					s += 2;
					ncp++;
				}
			}
			continue;
		}
		if (unit < 0x800) {
			if (de - d < 2) {
				ret = -E2BIG;
				break;
			}
			d[0] = 0xC0 | (unit >> 6);
			d[1] = 0x80 | (unit & 0x3F);
			s += 2;
			d += 2;
			ncp++;
			continue;
		}
		if ((unit & 0xF800) != 0xD800) {
			if (de - d < 3) {
				ret = -E2BIG;
				break;
			}
			d[0] = 0xE0 | (unit >> 12);
			d[1] = 0x80 | ((unit >> 6) & 0x3F);
			d[2] = 0x80 | (unit & 0x3F);
			s += 2;
			d += 3;
			ncp++;
			continue;
		}
		if (unit < 0xDC00 && se - s >= 4) {
			trail = utfconv_get16(s + 2, le);
			if (trail >= 0xDC00 && trail <= 0xDFFF) {
				if (de - d < 4) {
					ret = -E2BIG;
					break;
				}
				utfconv_put_utf8(d, utfconv_pair(unit, trail));
				s += 4;
				d += 4;
				ncp++;
				continue;
			}
		}
		slow = true;
	}
	c->s = s;
	c->d = d;
	st->code_points += ncp;
	return ret;
}

static noinline int utfconv_utf8_to_le(struct utfconv_state *st,
				       struct utfconv_cursor *c, bool end)
{
	return utfconv_from_utf8(st, c, end, false);
}

static noinline int utfconv_utf8_to_be(struct utfconv_state *st,
				       struct utfconv_cursor *c, bool end)
{
	return utfconv_from_utf8(st, c, end, true);
}

static noinline int utfconv_le_to_utf8(struct utfconv_state *st,
				       struct utfconv_cursor *c, bool end)
{
	return utfconv_from_utf16(st, c, end, true);
}

static noinline int utfconv_be_to_utf8(struct utfconv_state *st,
				       struct utfconv_cursor *c, bool end)
{
	return utfconv_from_utf16(st, c, end, false);
}

static int utfconv_emit_bom(struct utfconv_state *st, struct utfconv_cursor *c)
{
	unsigned int n = utfconv_utf8_in(st) ? 2 : 3;

	if (c->de - c->d < n)
		return -E2BIG;
	if (utfconv_utf8_in(st))
		utfconv_put16(c->d, UTFCONV_BOM,
			      st->direction == UTFCONV_DIR_UTF8_TO_UTF16BE);
	else
		utfconv_put_utf8(c->d, UTFCONV_BOM);
	c->d += n;
	st->code_points++;
	st->bits |= UTFCONV_BIT_BOM_DONE;
	return 0;
}

static bool utfconv_valid_config(u32 direction, u32 policy, u32 flags)
{
	return direction >= UTFCONV_DIR_UTF8_TO_UTF16LE &&
	       direction <= UTFCONV_DIR_MAX && policy <= UTFCONV_POLICY_MAX &&
	       !(flags & ~UTFCONV_FLAGS_ALL);
}

/**
 * utfconv_init() - set up a conversion stream
 * @st: stream state, owned by the caller
 * @direction: UTFCONV_DIR_* (see include/uapi/linux/utfconv.h)
 * @policy: UTFCONV_POLICY_*: what to do with ill-formed or incomplete input
 * @flags: zero or more of %UTFCONV_FLAG_STRIP_BOM and %UTFCONV_FLAG_EMIT_BOM
 *
 * Fills @st for a new stream at offset 0. Nothing is allocated: @st is
 * all the state a stream has.
 *
 * Context: Any context.
 * Return:
 * * 0 - @st is ready for utfconv_convert()
 * * -EINVAL - unknown @direction or @policy, or unknown bits in @flags;
 *   @st is not touched
 */
int utfconv_init(struct utfconv_state *st, u32 direction, u32 policy,
		 u32 flags)
{
	if (!utfconv_valid_config(direction, policy, flags))
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->direction = direction;
	st->policy = policy;
	st->flags = flags;
	utfconv_reset(st);
	return 0;
}
EXPORT_SYMBOL_GPL(utfconv_init);

/**
 * utfconv_reset() - start a stream again with the same configuration
 * @st: stream state set up by utfconv_init()
 *
 * Drops pending input, a halting error and all counters; the next byte
 * given is at stream offset 0.
 *
 * Context: Any context.
 */
void utfconv_reset(struct utfconv_state *st)
{
	u8 direction = st->direction, policy = st->policy, flags = st->flags;

	memset(st, 0, sizeof(*st));
	st->direction = direction;
	st->policy = policy;
	st->flags = flags;
	if (direction == UTFCONV_DIR_UTF16LE_TO_UTF8)
		st->bits |= UTFCONV_BIT_LE_IN;
	if (!(flags & UTFCONV_FLAG_EMIT_BOM))
		st->bits |= UTFCONV_BIT_BOM_DONE;
}
EXPORT_SYMBOL_GPL(utfconv_reset);

/**
 * utfconv_convert() - convert the next piece of a stream
 * @st: stream state set up by utfconv_init()
 * @src: input bytes (UTF-8, or UTF-16 as bytes in the stream's byte order;
 *	no alignment needed)
 * @src_bytes: length of @src in bytes; may be 0
 * @src_used: out: bytes of @src accepted, pending ones included
 * @dst: output buffer
 * @dst_bytes: capacity of @dst in bytes
 * @dst_used: out: bytes written to @dst
 * @cflags: %UTFCONV_END if the input ends with @src
 *
 * Converts per Unicode chapter 3 (D91, D92, Table 3-7) under the stream's
 * policy. Any split of the input over calls gives the same output, errors
 * and counters as one call: an incomplete tail (at most 3 bytes: part of a
 * UTF-8 sequence, or an odd byte and/or a lead surrogate) is kept in @st
 * until more input or %UTFCONV_END resolves it. Never writes past
 * @dst_bytes, and never part of a character. Under REPLACE each maximal
 * subpart (Unicode 3.9) or unpaired surrogate becomes one U+FFFD, and an
 * incomplete tail at the end one U+FFFD.
 *
 * Context: Any context. Does not sleep or allocate; uses the FPU (SIMD
 * paths) only where may_use_simd() allows.
 * Return:
 * * 0 - all of @src accepted; with %UTFCONV_END the stream has ended
 * * -E2BIG - the next whole character does not fit in @dst; convert the
 *   rest of @src (after *@src_used bytes) into a new buffer
 * * -EILSEQ - ill-formed input (strict or wtf8 policy); *@src_used bytes
 *   before it were converted; @st->error_offset is its stream offset. The
 *   stream stays stopped with this error until utfconv_reset().
 * * -EINVAL - the input ended inside a character (strict or wtf8 policy;
 *   stream stopped as for -EILSEQ), or @st was not set up, or input was
 *   given after the stream ended, or @src or @dst wraps around the end
 *   of the address space (nothing is consumed or written)
 */
int utfconv_convert(struct utfconv_state *st, const void *src,
		    size_t src_bytes, size_t *src_used, void *dst,
		    size_t dst_bytes, size_t *dst_used, unsigned int cflags)
{
	struct utfconv_cursor c = {
		.start = src,
		.s = src,
		.se = (const u8 *)src + src_bytes,
		.d = dst,
		.de = (u8 *)dst + dst_bytes,
		.base = st->bytes_in,
	};
	bool end = cflags & UTFCONV_END;
	int ret = 0;

	*src_used = 0;
	*dst_used = 0;
	if (cflags & ~UTFCONV_END)
		return -EINVAL;
	if (!utfconv_valid_config(st->direction, st->policy, st->flags))
		return -EINVAL;
	/* a buffer may not wrap around the end of the address space */
	if (src_bytes > UINTPTR_MAX - (uintptr_t)src ||
	    dst_bytes > UINTPTR_MAX - (uintptr_t)dst)
		return -EINVAL;
	if (st->halt)
		return st->halt;
	if (st->bits & UTFCONV_BIT_ENDED)
		return src_bytes ? -EINVAL : 0;

	if (!(st->bits & UTFCONV_BIT_BOM_DONE))
		ret = utfconv_emit_bom(st, &c);
	while (!ret) {
		switch (st->direction) {
		case UTFCONV_DIR_UTF8_TO_UTF16LE:
			ret = utfconv_utf8_to_le(st, &c, end);
			break;
		case UTFCONV_DIR_UTF8_TO_UTF16BE:
			ret = utfconv_utf8_to_be(st, &c, end);
			break;
		default:
			if (st->bits & UTFCONV_BIT_LE_IN)
				ret = utfconv_le_to_utf8(st, &c, end);
			else
				ret = utfconv_be_to_utf8(st, &c, end);
			break;
		}
		if (ret != 1)
			break;
		ret = 0;	/* UTF-16 byte order just found */
	}

	*dst_used = c.d - (u8 *)dst;
	st->bytes_out += *dst_used;
	if (st->halt) {
		/* bytes_in was set back to the error offset */
		*src_used = st->bytes_in > c.base ? st->bytes_in - c.base : 0;
		return ret;
	}
	*src_used = c.s - c.start;
	st->bytes_in += *src_used;
	if (!ret && end)
		st->bits |= UTFCONV_BIT_ENDED;
	return ret;
}
EXPORT_SYMBOL_GPL(utfconv_convert);

/**
 * utfconv_pending_bytes() - input bytes a stream holds back
 * @st: stream state
 *
 * Context: Any context.
 * Return: bytes of an incomplete UTF-8 sequence, or an odd byte and/or a
 * lead surrogate of UTF-16 input, accepted but not yet converted (0 to
 * %UTFCONV_MAX_PENDING).
 */
unsigned int utfconv_pending_bytes(const struct utfconv_state *st)
{
	return st->npend + (st->bits & UTFCONV_BIT_LEAD ? 2 : 0);
}
EXPORT_SYMBOL_GPL(utfconv_pending_bytes);

/**
 * utfconv_ended() - whether a stream's input has ended
 * @st: stream state
 *
 * Context: Any context.
 * Return: true once utfconv_convert() with %UTFCONV_END returned 0.
 */
bool utfconv_ended(const struct utfconv_state *st)
{
	return st->bits & UTFCONV_BIT_ENDED;
}
EXPORT_SYMBOL_GPL(utfconv_ended);

/**
 * utfconv_max_length() - cheap upper bound of the output length
 * @direction: UTFCONV_DIR_*
 * @flags: UTFCONV_FLAG_*; %UTFCONV_FLAG_EMIT_BOM adds the BOM's length
 * @src_bytes: input length in bytes
 *
 * UTF-8 to UTF-16 writes at most 2 bytes per input byte (one code unit per
 * ASCII byte or per replaced byte); UTF-16 to UTF-8 at most 3 bytes per
 * 2 input bytes (a lone surrogate or U+FFFD), an odd last byte counted as
 * 2. The bound holds for every policy.
 *
 * Context: Any context.
 * Return: the bound in bytes, SIZE_MAX if it does not fit in size_t, or 0
 * for an unknown @direction or unknown bits in @flags.
 */
size_t utfconv_max_length(u32 direction, u32 flags, size_t src_bytes)
{
	bool from_utf8 = direction == UTFCONV_DIR_UTF8_TO_UTF16LE ||
			 direction == UTFCONV_DIR_UTF8_TO_UTF16BE;
	size_t units, bytes;

	if (!utfconv_valid_config(direction, UTFCONV_POLICY_STRICT, flags))
		return 0;
	if (from_utf8) {
		if (check_mul_overflow(src_bytes, (size_t)2, &bytes))
			return SIZE_MAX;
	} else {
		units = src_bytes / 2 + (src_bytes & 1);
		if (check_mul_overflow(units, (size_t)3, &bytes))
			return SIZE_MAX;
	}
	if ((flags & UTFCONV_FLAG_EMIT_BOM) &&
	    check_add_overflow(bytes, (size_t)(from_utf8 ? 2 : 3), &bytes))
		return SIZE_MAX;
	return bytes;
}
EXPORT_SYMBOL_GPL(utfconv_max_length);

/**
 * utfconv_length() - exact output length of a complete input
 * @direction: UTFCONV_DIR_*
 * @policy: UTFCONV_POLICY_*
 * @flags: UTFCONV_FLAG_*
 * @src: input bytes
 * @src_bytes: length of @src in bytes; @src is the whole stream
 * @error_offset: out, may be NULL: byte offset in @src of the error when
 *	-EILSEQ or -EINVAL is returned for bad input
 *
 * Converts into a small on-stack buffer and counts; with policy
 * %UTFCONV_POLICY_STRICT this validates the input.
 *
 * Context: Any context. Uses about 200 bytes of stack.
 * Return:
 * * >= 0 - the number of bytes utfconv_buf() would write
 * * -EILSEQ - ill-formed input (strict, wtf8), at *@error_offset
 * * -EINVAL - input ends inside a character (strict, wtf8), at
 *   *@error_offset; or bad @direction, @policy or @flags
 */
ssize_t utfconv_length(u32 direction, u32 policy, u32 flags,
		       const void *src, size_t src_bytes, u64 *error_offset)
{
	struct utfconv_state st;
	u8 buf[128];
	size_t total = 0, in, out;
	int ret;

	ret = utfconv_init(&st, direction, policy, flags);
	if (ret)
		return ret;
	do {
		ret = utfconv_convert(&st, src, src_bytes, &in, buf,
				      sizeof(buf), &out, UTFCONV_END);
		src = (const u8 *)src + in;
		src_bytes -= in;
		total += out;
	} while (ret == -E2BIG && (in || out));
	if (ret) {
		if (error_offset)
			*error_offset = st.error_offset;
		return ret;
	}
	return total;
}
EXPORT_SYMBOL_GPL(utfconv_length);

/**
 * utfconv_validate() - check that a complete input is well-formed
 * @direction: UTFCONV_DIR_*: names the input encoding
 * @policy: %UTFCONV_POLICY_STRICT, or %UTFCONV_POLICY_WTF8 to accept
 *	unpaired surrogates (replace and skip accept any input)
 * @src: input bytes; the whole stream
 * @src_bytes: length of @src in bytes
 * @error_offset: out, may be NULL: byte offset in @src of the first error
 *
 * Validates per Unicode Table 3-7 (UTF-8) and D91 (UTF-16), writing
 * nothing.
 *
 * Context: Any context. Uses about 200 bytes of stack.
 * Return:
 * * 0 - @src is well-formed and complete
 * * -EILSEQ - ill-formed input at *@error_offset
 * * -EINVAL - input ends inside a character, at *@error_offset; or bad
 *   @direction or @policy
 */
int utfconv_validate(u32 direction, u32 policy, const void *src,
		     size_t src_bytes, u64 *error_offset)
{
	ssize_t ret = utfconv_length(direction, policy, 0, src, src_bytes,
				     error_offset);

	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_GPL(utfconv_validate);

/**
 * utfconv_buf() - convert one complete buffer
 * @direction: UTFCONV_DIR_*
 * @policy: UTFCONV_POLICY_*
 * @flags: UTFCONV_FLAG_*
 * @src: input bytes; the whole stream
 * @src_bytes: length of @src in bytes
 * @dst: output buffer
 * @dst_bytes: capacity of @dst in bytes
 * @error_offset: out, may be NULL: byte offset in @src of the error when
 *	-EILSEQ or -EINVAL is returned for bad input
 *
 * One-shot form of utfconv_convert(), e.g. for a file name: UTF-16LE on
 * disk to UTF-8 for the VFS. Filesystem names want %UTFCONV_POLICY_STRICT
 * or %UTFCONV_POLICY_WTF8: replace and skip map different names to one.
 *
 * Context: Any context.
 * Return:
 * * >= 0 - bytes written to @dst
 * * -E2BIG - the output does not fit in @dst_bytes (never truncated
 *   silently; @dst holds whole characters only)
 * * -EILSEQ - ill-formed input (strict, wtf8), at *@error_offset
 * * -EINVAL - input ends inside a character (strict, wtf8), at
 *   *@error_offset; or bad @direction, @policy or @flags
 */
ssize_t utfconv_buf(u32 direction, u32 policy, u32 flags, const void *src,
		    size_t src_bytes, void *dst, size_t dst_bytes,
		    u64 *error_offset)
{
	struct utfconv_state st;
	size_t in, out;
	int ret;

	ret = utfconv_init(&st, direction, policy, flags);
	if (ret)
		return ret;
	ret = utfconv_convert(&st, src, src_bytes, &in, dst, dst_bytes, &out,
			      UTFCONV_END);
	if (ret == -EILSEQ || (ret == -EINVAL && st.halt)) {
		if (error_offset)
			*error_offset = st.error_offset;
	}
	return ret ? ret : out;
}
EXPORT_SYMBOL_GPL(utfconv_buf);

/*
 * The paths are chosen once, here; the rest of the module (the
 * filesystem name functions of utfconv_fsname.c) needs no set-up.
 */
static int __init utfconv_codec_init(void)
{
	utfconv_simd_init();
	return 0;
}
module_init(utfconv_codec_init);

static void __exit utfconv_codec_exit(void)
{
}
module_exit(utfconv_codec_exit);

MODULE_DESCRIPTION("UTF-8 <-> UTF-16 conversion library (streaming codec, file name conversion)");
MODULE_AUTHOR("utfconv developers");
MODULE_LICENSE("GPL");
MODULE_VERSION("1.0");
