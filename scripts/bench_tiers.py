#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What each tier of the library costs in bytes and buys in speed.

    scripts/bench_tiers.py KMOD_DIR CSV

Reads the kbuild objects of utfconv.ko in KMOD_DIR (`size -A` for the
sections, `nm -S` where one object holds two tiers) and the host bench's
CSV (tools/bench/host_bench -c: input MB/s per file, direction and path)
and prints, per tier, its bytes of .text and of read-only data and the
geometric mean, over the files of that run, of its speed over the speed of
the tier below it, per direction. `make bench` (scripts/bench.sh host)
runs it after the host bench. Information, never a test.
"""

import csv
import math
import os
import subprocess
import sys

U8, U16 = "utf8-to-utf16le", "utf16le-to-utf8"
# name, objects, symbols (a name prefix: only those text symbols, and no
# read-only data; "-" before it: all but those), and per direction the
# host bench's CSV column of the tier's path and of the path below it
# (None: the column's MB/s itself). The scalar steps of UTF-16 are inlined
# into its converters and have no symbols of their own; the ASCII block
# steps run on every path, so only their BMI2 steps can be switched off.
TIERS = [
    ("stream API, one-shot, names", ["utfconv_codec.o", "utfconv_oneshot.o",
                                     "utfconv_fsname.o"], None, {}),
    ("names' maps, AVX-512 scan", ["utfconv_fsname_map.o",
                                   "utfconv_fsname_avx512.o"], None, {}),
    ("UTF-8 side: careful, scalar", ["utfconv_utf8.o"],
     "-utfconv_utf8_block_", {U8: ("scalar_MBps", None)}),
    ("UTF-8 side: ASCII/BMI2 blocks", ["utfconv_utf8.o"],
     "utfconv_utf8_block_", {U8: ("bmi2_MBps", "scalar_MBps")}),
    ("UTF-16 side, blocks inlined", ["utfconv_utf16.o"], None,
     {U16: ("scalar_MBps", None)}),
    ("  of which its BMI2 steps buy", [], None,
     {U16: ("bmi2_MBps", "scalar_MBps")}),
    ("x86 dispatch (static keys)", ["utfconv_x86.o"], None, {}),
    # from UTF-8 there is no SSE2 path: SSSE3 is the first above BMI2
    ("SSE2 (+ utfconv_sse2.o's data)", ["utfconv_sse2.o"],
     "-utfconv_ssse3_", {U16: ("sse2_MBps", "bmi2_MBps")}),
    ("SSSE3", ["utfconv_sse2.o"], "utfconv_ssse3_",
     {U8: ("ssse3_MBps", "bmi2_MBps"), U16: ("ssse3_MBps", "sse2_MBps")}),
    ("pshufb tables (SSSE3, AVX2)", ["utfconv_simd_tables.o"], None, {}),
    ("AVX2", ["utfconv_avx2_utf8.o", "utfconv_avx2_utf16.o"], None,
     {U8: ("avx2_MBps", "ssse3_MBps"), U16: ("avx2_MBps", "ssse3_MBps")}),
    ("AVX-512", ["utfconv_avx512_utf8.o", "utfconv_avx512_utf16.o"], None,
     {U8: ("avx512_MBps", "avx2_MBps"), U16: ("avx512_MBps", "avx2_MBps")}),
]


def sections(obj):
    """(.text bytes, read-only data bytes) of an object, as size -A says."""
    out = subprocess.run(["size", "-A", obj], capture_output=True, text=True,
                         check=True).stdout
    text = ro = 0
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2 or not f[1].isdigit():
            continue
        if f[0] in (".text", ".init.text", ".exit.text", ".text.unlikely"):
            text += int(f[1])
        elif f[0].startswith(".rodata") or f[0] == ".data..ro_after_init":
            ro += int(f[1])
    return text, ro


def symbols(obj, prefix):
    """Bytes of the text symbols of @obj whose names start with @prefix."""
    out = subprocess.run(["nm", "-S", obj], capture_output=True, text=True,
                         check=True).stdout
    n = 0
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tT" and f[3].startswith(prefix):
            n += int(f[1], 16)
    return n


def geomeans(path):
    """{direction: {column: geometric mean over the files}}."""
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows.setdefault(r["direction"], []).append(r)
    gm = {}
    for d, rs in rows.items():
        gm[d] = {}
        for col in rs[0]:
            if not col.endswith("_MBps"):
                continue
            v = [float(r[col]) for r in rs]
            if all(x > 0 for x in v):
                gm[d][col] = math.exp(sum(map(math.log, v)) / len(v))
    return gm


def tier_bytes(kdir, objs, syms):
    """(.text, read-only data) of a tier: whole objects, or some symbols."""
    text = ro = 0
    for o in objs:
        path = os.path.join(kdir, o)
        t, r = sections(path)
        if syms and syms.startswith("-"):
            t -= symbols(path, syms[1:])
        elif syms:
            t, r = symbols(path, syms), 0
        text += t
        ro += r
    return text, ro


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    kdir, csvpath = sys.argv[1:]
    gm = geomeans(csvpath)
    print("%-34s %6s %8s %15s %15s" % ("tier", ".text", ".rodata",
                                         "UTF-8 -> 16", "UTF-16 -> 8"))
    tot_t = tot_r = 0
    for name, objs, syms, speed in TIERS:
        t, r = tier_bytes(kdir, objs, syms)
        tot_t += t
        tot_r += r
        buys = []
        for d in (U8, U16):
            col, below = speed.get(d, (None, None))
            g = gm.get(d, {})
            if col in g and below in g:
                buys.append("%14.2fx" % (g[col] / g[below]))
            elif col in g and not below:
                buys.append("%10.0f MB/s" % g[col])
            else:
                buys.append("%15s" % "-")
        print("%-34s %6s %8s %s %s" % (name, t if objs else "", r if objs
                                         else "", buys[0], buys[1]))
    print("%-34s %6d %8d" % ("all of the above", tot_t, tot_r))
    g = [gm.get(d, {}) for d in (U8, U16)]
    if all("simd_MBps" in x and "scalar_MBps" in x for x in g):
        print("as shipped (SIMD path) vs portable scalar: %.2fx 8->16,"
              " %.2fx 16->8" % tuple(x["simd_MBps"] / x["scalar_MBps"]
                                     for x in g))


if __name__ == "__main__":
    main()
