#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Expand utfconv's test cases into the C vector tables of the tests.

One pipeline for every table (Documentation/testing.rst):

  gen_vectors.py --kunit OUT.h [FILE.tsv...]   the table of the KUnit
      suites and the host tests (kunit/utfconv_vectors_gen.h, included
      after kunit/utfconv_vectors.h by the one file of each program that
      holds the table); by default from
      kunit/field-cases.tsv (the field cases of ../shared/vectors),
      userspace-test/dev/extra-cases.tsv and kunit/utfconv_cases.tsv
  gen_vectors.py --device OUT.h [FILE.tsv...]  the table of the
      /dev/utfconv vector suite (userspace-test/dev/vectors_test.c); by
      default from the first two

The build runs it (userspace-test/host.mk and dev.mk, scripts/kunit.sh,
scripts/vm.sh); OUT is rewritten only when its content changes ('-':
standard output). Nothing it writes is checked in.

Input: tab-separated rows with a header line naming the columns (the
format of ../shared/vectors/field-cases.tsv); '#' lines are comments.

  id           a name for the case ([A-Za-z0-9+.-], no spaces)
  direction    utf8-to-utf16le, utf8-to-utf16be, utf16le-to-utf8,
               utf16be-to-utf8, utf16-to-utf8 (byte order from the BOM)
  policy       strict, replace, skip or wtf8; a comma list (strict,wtf8)
               gives the same expectation under each
  flags        optional column: strip-bom, emit-bom, strip-bom+emit-bom
               or - for none
  input_hex    the input; '|' marks a write() boundary; - for none
  expected_hex the whole output, or ERROR:EILSEQ@N / ERROR:EINVAL@N for a
               stop at the first error, at stream offset N (the output
               before it is the conversion of the first N bytes)
  kind         what the case is about (free text)

Derived from each row (the mechanical variants; a row of the same key
written out in a file wins, and two rows of one key that disagree stop
the generator):

  - a skip row from a replace row: its output without the replacement
    characters (unless a skip row of the same id, direction and input is
    written out);
  - the reverse direction of a row without error, replacement or flags
    (output and input swap; every policy maps the output back);
  - the other byte order of each UTF-16 side: output units swapped for
    UTF-8 -> UTF-16, input units swapped for UTF-16 -> UTF-8;
  - for UTF-16 input without flags: the UTF-16 direction with a LE and a
    BE BOM in front (offsets move by 2), and big-endian without a BOM
    (unless the input starts with a unit that reads as a BOM).

Counters: code_points is the number of characters in the output (a
surrogate pair or a lone surrogate one, the emitted BOM one);
replacements the number of U+FFFD written (replace) or left out (skip)
that the input does not carry itself; the first error (error_kind and
error_offset under every policy) of a replace or skip row is the one of
the strict row of the same direction, flags and input, which must then be
in a file. The text codecs of Python ('surrogatepass' for WTF-8's lone
surrogates) turn valid prefixes into output; no encoder of our own.
"""

import os
import re
import sys

DIRS = {
    'utf8-to-utf16le': 1,
    'utf8-to-utf16be': 2,
    'utf16le-to-utf8': 3,
    'utf16be-to-utf8': 4,
    'utf16-to-utf8': 5,
}
# The tests' numbered (source, target) pairs, kunit/utfconv_test_pairs.h
# (and the device suite's TEST_DIR_*, userspace-test/dev/utfconv_dirs.h).
DIR_C = {1: 'UTFCONV_TEST_UTF8_TO_UTF16LE', 2: 'UTFCONV_TEST_UTF8_TO_UTF16BE',
         3: 'UTFCONV_TEST_UTF16LE_TO_UTF8', 4: 'UTFCONV_TEST_UTF16BE_TO_UTF8',
         5: 'UTFCONV_TEST_UTF16_TO_UTF8'}
DIR_NAME = {1: 'utf8->utf16le', 2: 'utf8->utf16be', 3: 'utf16le->utf8',
            4: 'utf16be->utf8', 5: 'utf16->utf8'}
DIR_CNAME = {1: 'u8_u16le', 2: 'u8_u16be', 3: 'u16le_u8', 4: 'u16be_u8',
             5: 'u16_u8'}
POLICIES = ['strict', 'replace', 'skip', 'wtf8']
POLICY_C = ['UTFCONV_STRICT', 'UTFCONV_REPLACE', 'UTFCONV_SKIP',
            'UTFCONV_WTF8']
STRICT, REPLACE, SKIP, WTF8 = range(4)
STRIP, EMIT = 1, 2
FLAGS = {'-': 0, 'strip-bom': STRIP, 'emit-bom': EMIT,
         'strip-bom+emit-bom': STRIP | EMIT}
FLAG_NAME = {0: '', STRIP: 'strip-bom', EMIT: 'emit-bom',
             STRIP | EMIT: 'strip-bom+emit-bom'}
ERR_NONE, ERR_ILLFORMED, ERR_INCOMPLETE = 0, 1, 2
ERRNO = {'EILSEQ': ERR_ILLFORMED, 'EINVAL': ERR_INCOMPLETE}
REVERSE = {1: 3, 2: 4, 3: 1, 4: 2}
SWAP_DIR = {1: 2, 2: 1, 3: 4, 4: 3}


class GenError(Exception):
    pass


class Row:
    """One stream conversion and its expected outcome."""

    def __init__(self, **kw):
        self.id = ''
        self.what = ''
        self.derived = ''
        self.dname = ''		# direction as named in the row's name
        self.direction = 0
        self.policy = 0
        self.flags = 0
        self.inp = b''
        self.cuts = ()
        self.out = b''
        self.stop = ERR_NONE	# the error this policy stops at
        self.kind = ERR_NONE	# first error under any policy
        self.offset = 0
        self.replacements = 0
        self.where = ''
        self.__dict__.update(kw)

    def copy(self, **kw):
        r = Row(**self.__dict__)
        r.__dict__.update(kw)
        return r

    def key(self):
        return (self.direction, self.policy, self.flags, self.inp, self.cuts)

    def expect(self):
        return (self.out, self.stop, self.kind, self.offset,
                self.code_points(), self.replacements)

    def utf16_out(self):
        return self.direction in (1, 2)

    def code_points(self):
        if not self.utf16_out():
            return sum(1 for b in self.out if b & 0xC0 != 0x80)
        le = self.direction == 1
        units = [self.out[i] | self.out[i + 1] << 8 if le else
                 self.out[i] << 8 | self.out[i + 1]
                 for i in range(0, len(self.out) - 1, 2)]
        n = i = 0
        while i < len(units):
            pair = (0xD800 <= units[i] <= 0xDBFF and i + 1 < len(units) and
                    0xDC00 <= units[i + 1] <= 0xDFFF)
            i += 2 if pair else 1
            n += 1
        return n

    def dirname(self):
        return self.dname or DIR_NAME[self.direction]

    def name(self):
        flags = ' ' + FLAG_NAME[self.flags] if self.flags else ''
        return '%s %s %s%s' % (self.id, self.dirname(),
                               POLICIES[self.policy], flags)


def parse_hex(s, cuts_ok, where):
    if s == '-':
        return b'', ()
    out, cuts = bytearray(), []
    for piece in re.findall(r'\||[0-9A-Fa-f]{2}|.', s):
        if piece == '|':
            if not cuts_ok:
                raise GenError('%s: a write boundary in an output' % where)
            cuts.append(len(out))
        elif len(piece) == 2:
            out.append(int(piece, 16))
        else:
            raise GenError('%s: bad hex %r' % (where, s))
    return bytes(out), tuple(cuts)


def codec(direction, le=None):
    if direction in (1, 2):
        return 'utf-8', 'utf-16-le' if direction == 1 else 'utf-16-be'
    return 'utf-16-le' if (le if le is not None else direction == 3) \
        else 'utf-16-be', 'utf-8'


def bom(enc):
    return '\ufeff'.encode(enc)


def convert_valid(r, inp):
    """The output for @inp, a prefix of r's input without any error."""
    errors = 'surrogatepass' if r.policy == WTF8 else 'strict'
    le = None
    if r.direction == 5:
        le = False
        if inp[:2] in (b'\xff\xfe', b'\xfe\xff'):
            le = inp[:2] == b'\xff\xfe'
            inp = inp[2:]
    src, dst = codec(r.direction, le)
    if r.flags & STRIP and r.direction != 5 and inp.startswith(bom(src)):
        inp = inp[len(bom(src)):]
    try:
        text = inp.decode(src, errors)
        out = text.encode(dst, errors)
    except UnicodeError as e:
        raise GenError('%s: the input before the error is not valid: %s' %
                       (r.where, e))
    if errors == 'surrogatepass' and re.search('[\ud800-\udbff][\udc00-\udfff]',
                                               text):
        raise GenError('%s: a surrogate pair in WTF-8' % r.where)
    return (bom(dst) if r.flags & EMIT else b'') + out


def fffd_count(data, direction, side):
    """U+FFFD characters in @data, the input ('in') or output of a row."""
    utf8 = (side == 'in') != (direction in (3, 4, 5))
    if utf8:
        return data.count(b'\xef\xbf\xbd')
    units = (b'\xff\xfd', b'\xfd\xff')
    return sum(1 for i in range(0, len(data) - 1, 2) if data[i:i + 2] in units)


def drop_fffd(r):
    out, i = bytearray(), 0
    step = 2 if r.utf16_out() else 1
    fffd = {1: b'\xfd\xff', 2: b'\xff\xfd'}.get(r.direction, b'\xef\xbf\xbd')
    while i < len(r.out):
        if r.out[i:i + len(fffd)] == fffd:
            i += len(fffd)
            continue
        out += r.out[i:i + step]
        i += step
    return bytes(out)


def read_tsv(path):
    rows = []
    with open(path, encoding='utf-8') as f:
        cols = None
        for n, line in enumerate(f, 1):
            line = line.rstrip('\r\n')
            if not line or line.startswith('#'):
                continue
            fields = line.split('\t')
            if cols is None:
                cols = fields
                for c in ('id', 'direction', 'policy', 'input_hex',
                          'expected_hex'):
                    if c not in cols:
                        raise GenError('%s:%d: no column %s' % (path, n, c))
                continue
            rows += parse_row(dict(zip(cols, fields)),
                              '%s:%d' % (os.path.basename(path), n))
    return rows


def parse_row(f, where):
    if f.get('direction') not in DIRS:
        raise GenError('%s: unknown direction %r' % (where, f.get('direction')))
    if f.get('flags', '-') not in FLAGS:
        raise GenError('%s: unknown flags %r' % (where, f['flags']))
    if not re.fullmatch(r'[A-Za-z0-9+.-]+', f['id']):
        raise GenError('%s: bad id %r' % (where, f['id']))
    inp, cuts = parse_hex(f['input_hex'], True, where)
    rows = []
    for pol in f['policy'].split(','):
        if pol not in POLICIES:
            raise GenError('%s: unknown policy %r' % (where, pol))
        r = Row(id=f['id'], what=f.get('kind', ''), where=where,
                direction=DIRS[f['direction']], policy=POLICIES.index(pol),
                flags=FLAGS[f.get('flags', '-')], inp=inp, cuts=cuts)
        m = re.fullmatch(r'ERROR:(EILSEQ|EINVAL)@([0-9]+)', f['expected_hex'])
        if m:
            if r.policy in (REPLACE, SKIP):
                raise GenError('%s: %s does not stop at errors' % (where, pol))
            r.stop = r.kind = ERRNO[m.group(1)]
            r.offset = int(m.group(2))
            if r.offset > len(inp):
                raise GenError('%s: error offset past the input' % where)
            r.out = convert_valid(r, inp[:r.offset])
        elif f['expected_hex'].startswith('ERROR'):
            raise GenError('%s: bad error %r' % (where, f['expected_hex']))
        else:
            r.out = parse_hex(f['expected_hex'], False, where)[0]
        if r.policy == REPLACE:
            r.replacements = (fffd_count(r.out, r.direction, 'out') -
                              fffd_count(inp, r.direction, 'in'))
        rows.append(r)
    return rows


def swap_units(data):
    b = bytearray(data)
    for i in range(0, len(b) - 1, 2):
        b[i], b[i + 1] = b[i + 1], b[i]
    return bytes(b)


def byte_orders(r, boms):
    """@r and its relatives in the other byte order (and UTF-16: @boms)."""
    if r.direction in (1, 2):
        return [r, r.copy(direction=SWAP_DIR[r.direction],
                          out=swap_units(r.out),
                          derived=r.derived + ', other byte order')]
    if r.direction == 5:
        return [r]
    le = r.inp if r.direction == 3 else swap_units(r.inp)
    be = swap_units(le)
    out = [r, r.copy(direction=SWAP_DIR[r.direction], inp=swap_units(r.inp),
                     derived=r.derived + ', other byte order')]
    if r.flags or not boms:
        return out
    shift = tuple(c + 2 for c in r.cuts)
    moved = r.offset + 2 if r.kind else 0
    for name, data, mark in (('le', le, b'\xff\xfe'), ('be', be, b'\xfe\xff')):
        out.append(r.copy(direction=5, inp=mark + data, cuts=shift,
                          offset=moved, dname='utf16(%s bom)->utf8' % name,
                          derived=r.derived + ', UTF-16 with %s BOM' %
                          name.upper()))
    if be[:2] not in (b'\xfe\xff', b'\xff\xfe'):
        out.append(r.copy(direction=5, inp=be, dname='utf16(no bom)->utf8',
                          derived=r.derived +
                          ', UTF-16 without BOM (big-endian)'))
    return out


def expand(rows, reverse, boms):
    """Every row with its derived variants, in file order."""
    skip_written = {(r.id, r.direction, r.inp) for r in rows
                    if r.policy == SKIP}
    out = []
    for r in rows:
        group = [r]
        if r.policy == REPLACE and \
                (r.id, r.direction, r.inp) not in skip_written:
            if fffd_count(r.inp, r.direction, 'in'):
                raise GenError('%s: input carries U+FFFD, write the skip '
                               'row out' % r.where)
            group.append(r.copy(policy=SKIP, out=drop_fffd(r),
                                derived=', skip: the replace row without '
                                'U+FFFD'))
        for g in group:
            out += byte_orders(g, boms)
            if not reverse or g.kind or g.flags or g.direction == 5:
                continue
            back = g.copy(direction=REVERSE[g.direction], inp=g.out,
                          out=g.inp, cuts=(), derived=g.derived + ', reverse')
            out += byte_orders(back, boms)
    return out


def input_key(r):
    """The same input in either byte order of the output or the input."""
    if r.direction in (1, 2):
        return (1, r.flags, r.inp)
    if r.direction == 4:
        return (3, r.flags, swap_units(r.inp))
    return (r.direction, r.flags, r.inp)


def resolve(rows):
    """The first error and the count of a file's replace and skip rows."""
    strict, replace = {}, {}
    for r in rows:
        k = input_key(r)
        if r.policy == STRICT:
            strict.setdefault(k, r)
        elif r.policy == REPLACE:
            replace.setdefault(k, r)
    for r in rows:
        k = input_key(r)
        if r.policy == SKIP:
            if k not in replace:
                raise GenError('%s: a skip row needs the replace row of '
                               'its input' % r.where)
            r.replacements = replace[k].replacements
        if r.policy in (REPLACE, SKIP) and r.replacements:
            s = strict.get(k)
            if not s or not s.kind:
                raise GenError('%s: %s has replacements: a strict row of '
                               'its input must name the first error' %
                               (r.where, r.name()))
            r.kind, r.offset = s.kind, s.offset
    return rows


def settle(rows):
    """Deduplicate by key, name each row uniquely."""
    seen, table = {}, []
    for r in rows:
        old = seen.get(r.key())
        if old:
            if old.expect() != r.expect():
                raise GenError('%s (%s) and %s (%s) disagree' %
                               (old.where, old.name(), r.where, r.name()))
            continue
        seen[r.key()] = r
        table.append(r)
    names = {}
    for r in table:
        n = names.get(r.name(), 0) + 1
        names[r.name()] = n
        r.unique = r.name() + (' (%d)' % n if n > 1 else '')
    return table


def c_string(data, indent, ctype='u8'):
    if not data:
        return '(const %s *)""' % ctype
    parts = ['"%s"' % ''.join('\\x%02x' % b for b in data[i:i + 16])
             for i in range(0, len(data), 16)]
    return '(const %s *)\n' % ctype + ''.join('%s%s\n' % (indent, p)
                                      for p in parts).rstrip('\n')


FLAG_C = {STRIP: 'UTFCONV_STRIP_BOM', EMIT: 'UTFCONV_EMIT_BOM'}


def kunit_table(table, sources):
    yield '/* SPDX-License-Identifier: GPL-2.0 */'
    yield '/*'
    yield ' * Generated by scripts/gen_vectors.py from'
    yield ' * %s:' % ', '.join(sources)
    yield ' * do not edit. Included after utfconv_vectors.h.'
    yield ' */'
    yield 'static const struct utfconv_vector utfconv_vectors[] = {'
    for r in table:
        if len(r.cuts) > 4:
            raise GenError('%s: more than 4 write boundaries' % r.where)
        yield '\t{'
        yield '\t\t.name = "%s",' % r.unique
        yield '\t\t.direction = %s,' % DIR_C[r.direction]
        yield '\t\t.policy = %s,' % POLICY_C[r.policy]
        if r.flags:
            yield '\t\t.flags = %s,' % ' | '.join(
                FLAG_C[f] for f in (STRIP, EMIT) if r.flags & f)
        yield '\t\t.in = %s,' % c_string(r.inp, '\t\t\t')
        yield '\t\t.in_bytes = %d,' % len(r.inp)
        yield '\t\t.out = %s,' % c_string(r.out, '\t\t\t')
        yield '\t\t.out_bytes = %d,' % len(r.out)
        yield '\t\t.code_points = %d,' % r.code_points()
        if r.kind:
            yield '\t\t.error_kind = %s,' % (
                'UTFCONV_ILLFORMED' if r.kind == ERR_ILLFORMED else
                'UTFCONV_INCOMPLETE')
            yield '\t\t.error_offset = %d,' % r.offset
        if r.replacements:
            yield '\t\t.replacements = %d,' % r.replacements
        if r.cuts:
            yield '\t\t.splits = { %s },' % ', '.join(map(str, r.cuts))
            yield '\t\t.nsplits = %d,' % len(r.cuts)
        yield '\t},'
    yield '};'


def c_ident(r):
    base = '%s_%s_%s' % (r.id, r.dirname(), POLICIES[r.policy])
    base = re.sub(r'[^A-Za-z0-9]+', '_', base.replace('->', '_')).strip('_')
    return base


def device_table(table, sources):
    rows = [r for r in table if not r.flags]
    yield '/* Generated by scripts/gen_vectors.py from %s: do not edit. */' % \
        ', '.join(sources)
    yield ''
    yield 'static const struct utfconv_vec utfconv_vecs[] = {'
    idents = {}
    for r in rows:
        ident = c_ident(r)
        n = idents.get(ident, 0) + 1
        idents[ident] = n
        r.ident = ident + ('_%d' % n if n > 1 else '')
        yield '\t{'
        yield '\t\t.name = "%s",' % r.ident
        yield '\t\t.what = "%s%s",' % (r.what.replace('"', "'"),
                                       '; derived: ' + r.derived[2:]
                                       if r.derived else '')
        yield '\t\t.direction = %d, .policy = %d,' % (r.direction, r.policy)
        yield '\t\t.in = %s, .in_bytes = %d,' % (
            c_string(r.inp, '\t\t\t', 'unsigned char'), len(r.inp))
        yield '\t\t.cuts = (const size_t []){ %s }, .ncuts = %d,' % (
            ', '.join(map(str, r.cuts)) or '0', len(r.cuts))
        yield '\t\t.out = %s, .out_bytes = %d,' % (
            c_string(r.out, '\t\t\t', 'unsigned char'), len(r.out))
        yield '\t\t.err = %s, .err_offset = %d,' % (
            {ERR_NONE: '0', ERR_ILLFORMED: 'EILSEQ',
             ERR_INCOMPLETE: 'EINVAL'}[r.stop], r.offset if r.stop else 0)
        yield '\t\t.replacements = %d,' % r.replacements
        yield '\t},'
    yield '};'
    yield ''
    for i, r in enumerate(rows):
        yield 'FIXTURE_VARIANT_ADD(vec, %s) { .v = &utfconv_vecs[%d] };' % (
            r.ident, i)


def write_if_changed(path, text):
    try:
        with open(path, encoding='utf-8') as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    tmp = '%s.tmp.%d' % (path, os.getpid())
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(tmp, path)


def load(paths, device=False):
    """The table: KUnit/host (reverse rows) or device (UTF-16 BOM rows)."""
    rows = []
    for p in paths:
        rows += read_tsv(p)
    return settle(expand(resolve(rows), not device, device))


def sources(device):
    """The default inputs: the case files of the tree."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = [os.path.join(root, 'kunit', 'field-cases.tsv'),
             os.path.join(root, 'userspace-test', 'dev', 'extra-cases.tsv')]
    if not device:
        files.append(os.path.join(root, 'kunit', 'utfconv_cases.tsv'))
    return files


def main(argv):
    if len(argv) < 3 or argv[1] not in ('--kunit', '--device'):
        sys.stderr.write('usage: gen_vectors.py --kunit|--device OUT.h '
                         '[FILE.tsv...]\n')
        return 2
    device = argv[1] == '--device'
    files = argv[3:] or sources(device)
    try:
        table = load(files, device)
        fmt = device_table if device else kunit_table
        text = '\n'.join(fmt(table, [os.path.basename(p)
                                     for p in files])) + '\n'
    except (GenError, OSError) as e:
        sys.stderr.write('gen_vectors.py: %s\n' % e)
        return 1
    if argv[2] == '-':
        sys.stdout.write(text)
    else:
        write_if_changed(argv[2], text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
