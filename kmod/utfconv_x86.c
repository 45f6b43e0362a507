// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv codec: x86 CPU dispatch
 *
 * Which of the x86-64 paths the codec takes, decided once, when the
 * module loads, from the CPU's features and the module parameters, and
 * kept in read-only static keys from which utfconv_choose() (utfconv_x86.h)
 * decides, once per call, the BMI2 steps of the scalar paths
 * (utfconv_block.h) and the SIMD paths (utfconv_sse2.c, utfconv_avx2_*.c,
 * utfconv_avx512_*.c) that the call may take. The KUnit suites ask for
 * a path per call (utfconv_path_choose(), the entries of utfconv_codec.h)
 * and write nothing here.
 */

#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/types.h>

#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/processor.h>

#include "utfconv_simd.h"
#include "utfconv_x86.h"

/**
 * DOC: SIMD paths
 *
 * On x86-64 the block paths have SSE2 (from UTF-16 only: from UTF-8, SSE2
 * alone does not beat the scalar paths), SSSE3 and AVX2 counterparts for
 * large buffers (utfconv_sse2.c, utfconv_avx2_*.c). They run only where
 * may_use_simd() allows, between kernel_fpu_begin() and kernel_fpu_end()
 * (utfconv_simd(), utfconv_x86.h), a bounded amount of work per FPU
 * section (%UTFCONV_SIMD_CHUNK input bytes, ASCII counted at a fraction
 * of a byte); anything they do not convert goes on through the scalar
 * paths, which stay the only ones in
 * atomic contexts that forbid the FPU, on other architectures and for
 * small buffers. The output, errors, offsets and counters are the same on
 * every path.
 *
 * Where the CPU has SSSE3, both directions pack their encoded lanes with
 * pshufb; where it has AVX2 (and the kernel saves the YMM registers),
 * UTF-16 to UTF-8 takes 16 or 32 units at a time and UTF-8 to UTF-16 runs
 * of 32 ASCII bytes. Where it has AVX-512 (F, BW, VL, VBMI and VBMI2,
 * the kernel saving the ZMM registers) and runs 512-bit vectors at full
 * clock, the AVX-512 paths (utfconv_avx512_*.c) take 64 bytes a step, in
 * the directions where they measure faster than the AVX2 ones
 * (Documentation/benchmarks.rst). Which of them a call may use is decided
 * once, when the module loads, from the CPU's features, and kept in
 * static keys, read-only after init: a call takes the SIMD paths when it
 * has at least %UTFCONV_SIMD_MIN bytes of input and of output room. The
 * KUnit suites run every path in one boot by passing the path they want
 * to the library's KUnit-only entries (utfconv_codec.h), which narrow
 * that call's choice and write no static key.
 */

/**
 * DOC: BMI2 steps
 *
 * On x86-64 CPUs with BMI2 the scalar paths widen ASCII from UTF-8 with
 * PDEP, decode pairs of three-byte sequences with PEXT and narrow ASCII
 * from UTF-16 with PEXT (utfconv_block.h): general-purpose instructions,
 * which need no FPU section and so serve atomic contexts and short buffers
 * (file names) too. AMD's CPUs before Zen 3 (families before 19h, i.e.
 * Excavator, Zen 1 and Zen 2) and Hygon's run both in microcode, a step
 * per bit of the mask, slower than the shifts and masks they replace:
 * there the steps are not taken. UML has no CPU vendor or family, only
 * the host's feature flags, and takes them wherever the host has BMI2.
 * The output is the same either way.
 */

/* Whether the scalar paths take the BMI2 steps (utfconv_choose()). */
__ro_after_init DEFINE_STATIC_KEY_FALSE(utfconv_bmi2_key);

/*
 * AMD's families before 19h (Zen 3) run PDEP and PEXT in microcode: 17h
 * (Zen 1 and 2) and 15h (Excavator, the first of AMD's with BMI2), whose
 * CPUs the kernel's Zen flags leave out; so do Hygon's (family 18h, Zen 1).
 */
static bool __init utfconv_bmi2_slow(void)
{
#ifdef CONFIG_UML
	return false;
#else
	return boot_cpu_data.x86_vendor == X86_VENDOR_HYGON ||
	       (boot_cpu_data.x86_vendor == X86_VENDOR_AMD &&
		boot_cpu_data.x86 < 0x19);
#endif
}

void __init utfconv_bmi2_init(void)
{
	if (!boot_cpu_has(X86_FEATURE_BMI2) || utfconv_bmi2_slow())
		return;
	static_branch_enable(&utfconv_bmi2_key);
}

/*
 * The SIMD paths beyond SSE2 (which every x86-64 CPU has) that the CPU
 * allows (utfconv_simd_init()), read by utfconv_choose().
 */
__ro_after_init DEFINE_STATIC_KEY_FALSE(utfconv_ssse3_key);
__ro_after_init DEFINE_STATIC_KEY_FALSE(utfconv_avx2_key);
__ro_after_init DEFINE_STATIC_KEY_FALSE(utfconv_avx512_key);

/*
 * CPUs that lower their clock while they run 512-bit vectors, on which
 * the kernel prefers 256-bit ones: X86_FEATURE_PREFER_YMM from 6.13, the
 * list that sets it (Intel's Skylake server parts, Ice Lake and Tiger
 * Lake; later ones and AMD's do not slow down) on the kernels before it.
 * Under UML there are only the host's feature flags.
 */
static bool __init utfconv_zmm_slow(void)
{
#if defined(X86_FEATURE_PREFER_YMM)
	return boot_cpu_has(X86_FEATURE_PREFER_YMM);
#elif defined(CONFIG_UML)
	return false;
#else
	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL ||
	    boot_cpu_data.x86 != 6)
		return false;
	switch (boot_cpu_data.x86_model) {
	case 0x55:	/* Skylake-X, Cascade Lake, Cooper Lake */
	case 0x6A: case 0x6C: case 0x7D: case 0x7E: case 0x9D:	/* Ice Lake */
	case 0x8C: case 0x8D:	/* Tiger Lake */
		return true;
	}
	return false;
#endif
}

/*
 * Whether the AVX-512 paths may run: every instruction they use
 * (utfconv_avx512_*.c), the ZMM registers saved by the kernel and a CPU
 * that keeps its clock with 512-bit vectors.
 */
static bool __init utfconv_avx512_cpu(void)
{
	if (!boot_cpu_has(X86_FEATURE_AVX512F) ||
	    !boot_cpu_has(X86_FEATURE_AVX512BW) ||
	    !boot_cpu_has(X86_FEATURE_AVX512VL) ||
	    !boot_cpu_has(X86_FEATURE_AVX512VBMI) ||
	    !boot_cpu_has(X86_FEATURE_AVX512_VBMI2) ||
	    !boot_cpu_has(X86_FEATURE_BMI1) || !boot_cpu_has(X86_FEATURE_BMI2) ||
	    !boot_cpu_has(X86_FEATURE_POPCNT))
		return false;
#ifndef CONFIG_UML
	if (!cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
			       XFEATURE_MASK_AVX512, NULL))
		return false;
#endif
	return !utfconv_zmm_slow();
}

/*
 * The static keys, from the CPU: AVX2 also needs the kernel to save the
 * YMM registers, AVX-512 the ZMM ones.
 *
 * Under UML the flags are the host's, and the kernel code runs in host
 * processes: the host saves their whole vector state, YMM and ZMM
 * included, on every switch and signal, and UML's own thread switches are
 * function calls, across which no vector register is kept; its
 * kernel_fpu_begin() is empty for that reason, and there is no
 * cpu_has_xfeatures().
 */
void __init utfconv_simd_init(void)
{
	bool avx2 = boot_cpu_has(X86_FEATURE_AVX2);

	/* the SSSE3 and AVX2 paths' masks, before any key allows them */
	if (IS_ENABLED(CONFIG_UTFCONV_SSE2))
		utfconv_simd_tables_init();
#ifndef CONFIG_UML
	avx2 = avx2 && cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM,
					 NULL);
#endif
	if (boot_cpu_has(X86_FEATURE_SSSE3)) {
		static_branch_enable(&utfconv_ssse3_key);
		if (avx2)
			static_branch_enable(&utfconv_avx2_key);
		if (avx2 && utfconv_avx512_cpu())
			static_branch_enable(&utfconv_avx512_key);
	}
}
