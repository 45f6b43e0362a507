#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpus of fuzz_utfconv (userspace-test/host/fuzz-seeds/).

    fuzz_seeds.py FIELD_CASES_TSV OUTDIR

One seed per row of kunit/field-cases.tsv (direction and
policy of the row, its input split in the middle, unlimited output), and
hand-picked edge cases: BOM handling under each flag, the UTF-16
direction that reads the byte order from a BOM, truncated and ill-formed
sequences, noncharacters, U+0000, small output capacities. The seed
layout is the fuzz target's: byte 0 = direction - 1 + 5 * policy + 20 *
flags, byte 1 = cuts + 8 * capacity, one byte per cut (its place in
256ths of the text), then the text. The field rows are cut where their
writes end ("|" in input_hex).
"""
import os
import sys

DIRS = {'utf8-to-utf16le': 1, 'utf8-to-utf16be': 2, 'utf16le-to-utf8': 3,
        'utf16be-to-utf8': 4, 'utf16-to-utf8': 5}
POLS = {'strict': 0, 'replace': 1, 'skip': 2, 'wtf8': 3}


def seed(d, pol, text, flags=0, cuts=(), cap=0):
    head = bytes([d - 1 + 5 * pol + 20 * flags, len(cuts) + 8 * cap])
    return head + bytes(cuts) + text


def main():
    tsv, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    seeds = {}
    with open(tsv) as f:
        next(f)
        for line in f:
            fid, d, pol, hexin = line.rstrip('\n').split('\t')[:4]
            text = bytes.fromhex(hexin.replace('|', ''))
            # cuts where the row's writes end ("|"), else in the middle
            ends, pos = [], 0
            for part in hexin.split('|')[:-1]:
                pos += len(part) // 2
                ends.append(min(255, -(-pos * 256 // len(text))))
            seeds['field-%s-%s' % (fid, pol)] = seed(
                DIRS[d], POLS[pol], text, cuts=ends or (128,))
    u8 = 'h\u00e9llo \u6c49\u5b57 \U0001f600 \uffff\ufffe'.encode()
    extra = {
        'empty': seed(1, 0, b''),
        'nul': seed(1, 0, b'a\x00b'),
        'mixed-utf8-le-cap3': seed(1, 0, u8, cuts=(40, 200), cap=3),
        'mixed-utf8-be-bytewise': seed(2, 1, u8, cap=1),
        'mixed-utf16le': seed(3, 0, u8.decode().encode('utf-16-le'),
                              cuts=(10, 90, 170)),
        'mixed-utf16be-cap2': seed(4, 3, u8.decode().encode('utf-16-be'), cap=2),
        'bom-utf8-strip': seed(1, 0, b'\xef\xbb\xbfabc', flags=1),
        'bom-utf8-emit': seed(2, 0, b'abc', flags=2),
        'bom-utf8-both': seed(1, 1, b'\xef\xbb\xbf\xef\xbb\xbfx', flags=3),
        'bom-utf16-auto-be': seed(5, 0, b'\xfe\xff\x00a\xd8\x3d\xde\x00'),
        'bom-utf16-auto-le': seed(5, 0, b'\xff\xfea\x00\x3d\xd8\x00\xde'),
        'bom-utf16-none': seed(5, 2, b'\x00a\x00b'),
        'bom-utf16le-split': seed(3, 0, b'\xff\xfea\x00', flags=1, cuts=(64,)),
        'utf8-truncated-4': seed(1, 0, b'ok\xf0\x9f\x98'),
        'utf8-truncated-4-replace': seed(1, 1, b'ok\xf0\x9f\x98'),
        'utf8-overlong-slash': seed(1, 1, b'..\xc0\xafpasswd'),
        'utf8-above-max': seed(2, 1, b'ab\xf4\x90\x80\x80'),
        'utf8-cesu-pair': seed(1, 3, b'x\xed\xa0\xbd\xed\xb8\x80'),
        'utf8-lone-surrogate-wtf8': seed(1, 3, b'a\xed\xa0\x80b'),
        'utf8-stray-continuations': seed(1, 2, b'\x80\xbf\x80a\xc2'),
        'utf8-max-scalar': seed(2, 0, b'\xf4\x8f\xbf\xbf\xef\xbf\xbf'),
        'utf16le-lone-lead-end': seed(3, 3, b'a\x00\x00\xd8'),
        'utf16le-lone-lead-odd': seed(3, 1, b'a\x00\x00\xd8\x41'),
        'utf16le-lone-trail': seed(3, 2, b'\x00\xdca\x00'),
        'utf16be-odd-byte': seed(4, 0, b'\x00a\x00'),
        'utf16be-reversed-pair': seed(4, 1, b'\xdc\x00\xd8\x00'),
        'utf16le-pair-split': seed(3, 0, b'\x3d\xd8\x00\xde', cuts=(64, 128, 192)),
        'ascii-long-cap1': seed(1, 0, b'The quick brown fox ' * 8, cap=1),
    }
    seeds.update(extra)
    for name, data in sorted(seeds.items()):
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
    print('fuzz_seeds: %d seeds in %s' % (len(seeds), out))


if __name__ == '__main__':
    main()
