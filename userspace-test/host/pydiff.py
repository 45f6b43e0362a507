#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Differential test of the utfconv codec against Python's codecs.

Runs host_cli (the codec built natively) on every corpus file and on
random and mutated inputs, and compares with Python:
  strict  - codecs' strict decoding: same output, or the same error
            offset (UnicodeDecodeError.start) and kind (incomplete when
            the data ends inside a sequence, else ill-formed)
  replace - 'replace' (maximal subparts for UTF-8, one U+FFFD per
            unpaired surrogate or dangling tail for UTF-16)
  skip    - 'ignore'
  wtf8    - UTF-16 -> UTF-8 with 'surrogatepass' on both sides
Prints 'ok NAME' per group and ends with 'N passed, N failed'.
Usage: pydiff.py HOST_CLI SHARED_DIR [RANDOM_CASES]
"""
import os
import random
import struct
import subprocess
import sys

D8L, D8B, D16L, D16B, D16 = 1, 2, 3, 4, 5
STRICT, REPLACE, SKIP, WTF8 = 0, 1, 2, 3
ILL, INC = 1, 2
EILSEQ, EINVAL = 84, 22
PYENC = {D8L: 'utf-16-le', D8B: 'utf-16-be', D16L: 'utf-16-le', D16B: 'utf-16-be'}


def run_cli(cli, cases):
    blob = b''.join(struct.pack('<BBBI', d, p, 0, len(x)) + x for d, p, x in cases)
    out = subprocess.run([cli], input=blob, stdout=subprocess.PIPE, check=True).stdout
    res, i = [], 0
    for _ in cases:
        ret, kind, off, repl, n = struct.unpack_from('<iIQQI', out, i)
        i += 28
        res.append((ret, kind, off, repl, out[i:i + n]))
        i += n
    return res


def expect(d, p, x):
    """Python's answer: (errno, kind, offset, output) or None if n/a."""
    if d in (D8L, D8B):
        src, dst = 'utf-8', PYENC[d]
    else:
        src, dst = PYENC[d], 'utf-8'
    if p == WTF8:
        if d in (D8L, D8B):
            return None     # surrogatepass joins CESU-8 pairs; WTF-8 does not
        try:
            return (0, 0, 0, x.decode(src, 'surrogatepass').encode(dst, 'surrogatepass'))
        except UnicodeDecodeError:
            return None
    if p in (REPLACE, SKIP):
        return (0, None, None, x.decode(src, 'replace' if p == REPLACE else 'ignore').encode(dst))
    try:
        return (0, 0, 0, x.decode(src).encode(dst))
    except UnicodeDecodeError as e:
        incomplete = e.reason in ('unexpected end of data', 'truncated data')
        return (-(EINVAL if incomplete else EILSEQ), INC if incomplete else ILL, e.start,
                x[:e.start].decode(src).encode(dst))


def mutate(rng, x):
    x = bytearray(x)
    for _ in range(rng.randrange(1, 5)):
        if not x:
            break
        op = rng.randrange(5)
        i = rng.randrange(len(x))
        if op == 0:
            x[i] = rng.randrange(256)
        elif op == 1:
            del x[i]
        elif op == 2:
            x.insert(i, rng.choice([0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]))
        elif op == 3:
            x[i:i] = rng.choice([b'\xed\xa0\x80', b'\xed\xb0\x80', b'\x00\xd8', b'\x00\xdc', b'\xd8\x00'])
        else:
            x = x[:i]
    return bytes(x)


def main():
    cli, shared = sys.argv[1], sys.argv[2]
    ncases = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
    rng = random.Random(1)
    passed = failed = 0
    groups = {}
    texts = []
    for sub in ('lipsum', 'wikipedia_mars'):
        dd = os.path.join(shared, 'corpus', sub)
        for f in sorted(os.listdir(dd)):
            data = open(os.path.join(dd, f), 'rb').read()
            texts.append(data)
            name = 'python corpus %s/%s' % (sub, f)
            g = groups.setdefault(name, [])
            for d in (D8L, D8B):
                g.append((d, STRICT, data))
            txt = data.decode('utf-8')
            g.append((D16L, STRICT, txt.encode('utf-16-le')))
            g.append((D16B, STRICT, txt.encode('utf-16-be')))
    g = groups.setdefault('python random and mutated inputs', [])
    for _ in range(ncases):
        d = rng.choice((D8L, D8B, D16L, D16B))
        p = rng.choice((STRICT, REPLACE, SKIP, WTF8))
        t = rng.choice(texts)
        i = rng.randrange(len(t))
        piece = t[i:i + rng.randrange(1, 64)]
        if d in (D16L, D16B):
            piece = piece.decode('utf-8', 'ignore').encode(PYENC[d])
        if rng.randrange(4):
            piece = mutate(rng, piece)
        else:
            piece = bytes(rng.randrange(256) for _ in range(rng.randrange(12)))
        g.append((d, p, piece))
    for name, cases in groups.items():
        res = run_cli(cli, cases)
        bad = 0
        for (d, p, x), (ret, kind, off, repl, out) in zip(cases, res):
            e = expect(d, p, x)
            if e is None:
                continue
            ok = ret == e[0] and out == e[3]
            if e[1] is not None and e[0]:
                ok = ok and kind == e[1] and off == e[2]
            if not ok:
                bad += 1
                if bad <= 5:
                    print('FAIL [%s] dir %d policy %d input %s: utfconv %d kind %d@%d out %s; '
                          'python %r' % (name, d, p, x.hex(), ret, kind, off, out.hex(), e[:3] + (e[3].hex(),)))
        if bad:
            failed += 1
            print('not ok %s (%d of %d cases differ)' % (name, bad, len(cases)))
        else:
            passed += 1
            print('ok %s (%d cases)' % (name, len(cases)))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
