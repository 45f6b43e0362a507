/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utfconv codec: BMI2's PDEP and PEXT for the block paths of
 * utfconv_block.h, with the x86-64 dispatch (CONFIG_UTFCONV_X86) only;
 * elsewhere UTFCONV_HAVE_BMI2 is 0 and the block paths keep to their
 * portable steps.
 */
#ifndef _UTFCONV_BMI2_H
#define _UTFCONV_BMI2_H

#include <linux/types.h>

/*
 * BMI2's PDEP (scatter the low bits of @v to the bits set in @mask) and
 * PEXT (gather the bits of @v under @mask to the low bits), x86-64 only:
 * general-purpose instructions, so that the scalar paths may use them in
 * any context, without an FPU section. utfconv_bmi2_init() decides where
 * they are fast enough to take; the steps that call them take a @bmi2
 * argument, a constant, false elsewhere. The masks are constants: in a
 * register ("r", not "rm", which clang serves from memory even then).
 */
#if IS_ENABLED(CONFIG_UTFCONV_X86)
#define UTFCONV_HAVE_BMI2	1

static __always_inline u64 utfconv_pdep(u64 v, u64 mask)
{
	u64 r;

	asm("pdep %2, %1, %0" : "=r" (r) : "r" (v), "r" (mask));
	return r;
}

static __always_inline u64 utfconv_pext(u64 v, u64 mask)
{
	u64 r;

	asm("pext %2, %1, %0" : "=r" (r) : "r" (v), "r" (mask));
	return r;
}
#else
#define UTFCONV_HAVE_BMI2	0

/* Never defined: a call that UTFCONV_HAVE_BMI2 leaves in fails to link. */
u64 utfconv_pdep(u64 v, u64 mask);
u64 utfconv_pext(u64 v, u64 mask);
#endif

#endif /* _UTFCONV_BMI2_H */
