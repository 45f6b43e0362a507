#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The file name experiments: images, expected results and the table.

  fsexp.py images OUTDIR FSIMG CORPUS   make and check the images, write
                                        OUTDIR/plan.txt for the guest
  fsexp.py craft OUTDIR FSIMG           the exFAT and JFS images after the
                                        guest made their files (prepare.txt)
  fsexp.py selftest OUTDIR FSIMG        fsimg's NTFS, JFS and UDF readers
                                        on damaged images
  fsexp.py writes OUTDIR DRIVER FS DEV  the creates and renames of DRIVER
                                        on the guest's FS disk DEV
  fsexp.py report OUTDIR LOG FSIMG [DRIVER/FS=DEPENDS...]
                                        the table, the summary lines and the
                                        names on the scratch disks the guest
                                        wrote ($FSEXP_SCRATCH, default OUTDIR,
                                        /scratch-DRIVER-FS.img)

Each image holds one file per case, with the content "id=<n>\\n". Names
the filesystem's own tools write correctly are made by them (mtools,
xorriso); the others (supplementary characters, which mtools writes as
U+F600 for U+1F600 and xorriso as "_", lone and reversed surrogates,
non-ASCII names longer than the tools or the host's NAME_MAX allow) are
made under a placeholder of the same number of code units and rewritten
by tools/fsimg. ntfs-3g's ntfscp writes every NTFS case itself; the
files of exFAT and JFS (mkfs.exfat, mkfs.jfs) are made by the stock
driver in a first boot of the guest (prepare.txt; the disks in the order
of prepare-disks.txt). Every image is checked with its filesystem's tool
(fsck.vfat -n; isoinfo -J -l and xorriso -lsl; fsck.exfat -n; ntfsfix -n
and ntfsls; fsck.jfs -n) and its names are listed with fsimg and
compared with the cases before it is used.
"""

import json
import os
import re
import subprocess
import sys

NAME_MAX = 255
DRIVERS = ("stock", "utfconv-strict", "utfconv-wtf8", "intree")
# "intree": the filesystems built into the series kernel (scripts/
# series-boot.sh) mounted without names= (wtf8): the same names, bytes
# and errnos as the out-of-tree utfconv-wtf8 modules.
JUDGED_AS = {"intree": "utfconv-wtf8"}
FSIMG_KIND = {"isofs": "joliet", "ntfs3": "ntfs"}  # fsimg's name of a filesystem
PREPARED = ("exfat", "jfs", "udf")  # files made in the guest by the stock driver
FSCK = {"exfat": ["fsck.exfat", "-n"], "jfs": ["fsck.jfs", "-n"],
        # udftools 2.3 has no fsck: udfinfo reads the volume and
        # partition descriptors and the integrity descriptor
        "udf": ["udfinfo"]}


# ---- names -----------------------------------------------------------------

def units_of(s):
    """Code units of a Python string whose lone surrogates stand for units."""
    b = s.encode("utf-16-le", "surrogatepass")
    return [b[i] | b[i + 1] << 8 for i in range(0, len(b), 2)]


def is_lead(u):
    return 0xD800 <= u <= 0xDBFF


def is_trail(u):
    return 0xDC00 <= u <= 0xDFFF


def scalars(units):
    """(code point, lone) for each character; lone: an unpaired surrogate."""
    i = 0
    while i < len(units):
        u = units[i]
        if is_lead(u) and i + 1 < len(units) and is_trail(units[i + 1]):
            yield 0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00), False
            i += 2
            continue
        yield u, is_lead(u) or is_trail(u)
        i += 1


def utf8(cp):
    """UTF-8 form of a code point; generalized (WTF-8) for a surrogate."""
    if cp < 0x80:
        return bytes([cp])
    if cp < 0x800:
        return bytes([0xC0 | cp >> 6, 0x80 | cp & 0x3F])
    if cp < 0x10000:
        return bytes([0xE0 | cp >> 12, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F])
    return bytes([0xF0 | cp >> 18, 0x80 | cp >> 12 & 0x3F,
                  0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F])


def wtf8(units):
    """The WTF-8 form: every unit sequence has one, and only one."""
    return b"".join(utf8(cp) for cp, _ in scalars(units))


def has_lone(units):
    return any(lone for _, lone in scalars(units))


def nls(units):
    """fs/nls utf16s_to_utf8s() with room to spare: unpaired surrogates
    are dropped ("Ignore character and move on"), U+0000 ends the name."""
    out = b""
    for cp, lone in scalars(units):
        if cp == 0:
            break
        if not lone:
            out += utf8(cp)
    return out


def jfs_stock(units):
    """JFS's jfs_strfromUCS_le() with iocharset=utf8: one unit at a time
    through nls_utf8's uni2char(), which writes "?" for a surrogate, so
    that a pair becomes "??"."""
    out = b""
    for u in units:
        if u == 0:
            break
        out += b"?" if is_lead(u) or is_trail(u) else utf8(u)
    return out


def udf_crc(data):
    """crc_itu_t(0, data): CRC-ITU-T, polynomial 0x1021, MSB first."""
    crc = 0
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def udf_char(ocu, idx, u_ch):
    """get_utf16_char(): (code point, bytes read); 0x110000 for a
    surrogate that is not the lead of a pair (which reads the unit after
    it too)."""
    start = idx
    c = ocu[idx]
    idx += 1
    if u_ch > 1:
        c = c << 8 | ocu[idx]
        idx += 1
    if c & 0xFFFFF800 == 0xD800:
        if idx >= len(ocu) or c & 0x400:
            return 0x110000, idx - start
        nxt = ocu[idx] << 8 | ocu[idx + 1]
        idx += 2
        if nxt & 0xFFFFF800 != 0xD800 or not nxt & 0x400:
            return 0x110000, idx - start
        c = 0x10000 + ((c & 0x3FF) << 10) + (nxt & 0x3FF)
    return c, idx - start


def udf_conv_char(out, maxlen, ocu, idx, u_ch, st):
    """udf_name_conv_char() for a file name (translate) with UTF-8 out:
    (got a character, new index); a run of bad characters ("/", U+0000,
    unpaired surrogates) becomes one "_" and asks for the CRC."""
    ill = gotch = False
    while not gotch and idx < len(ocu):
        if len(out) >= maxlen:
            st["crc"] = True
            return False, idx
        c, n = udf_char(ocu, idx, u_ch)
        if c == 0 or c > 0x10FFFF or c == 0x2F:
            ill = True
        elif ill:
            break
        else:
            gotch = True
        idx += n
    if ill:
        st["crc"] = True
        c, gotch = 0x5F, True
    if gotch:
        b = utf8(c)
        if len(out) + len(b) <= maxlen:
            out += b
        else:
            st["crc"] = True
            gotch = False
    return gotch, idx


def udf_mangle(units, cs0_id, maxlen):
    """udf_name_from_CS0() of fs/udf/unicode.c for a file name without an
    NLS table: the stock driver's name, and the converted driver's for a
    name utfconv does not translate. A name that ends in up to five
    characters after a "." keeps them; bad characters and a name that
    does not fit @maxlen bytes get "#" and the CRC of the CS0 bytes."""
    u_ch = cs0_id >> 3
    ocu = bytes(units) if u_ch == 1 else b"".join(
        u.to_bytes(2, "big") for u in units)
    st = {"crc": False}
    i_ext, ext, ext_crc_len = -1, bytearray(), 0
    idx, n = len(ocu) - u_ch, 0
    while idx >= 0 and n < 5:
        c = ocu[idx] if u_ch == 1 else ocu[idx] << 8 | ocu[idx + 1]
        if c == 0x2E:
            if n:
                i_ext = idx
            break
        idx -= u_ch
        n += 1
    if i_ext >= 0:
        ext_max = min(5 * 6 + 1, maxlen)
        ext = bytearray(b".")
        idx = i_ext + u_ch
        while True:
            got, idx = udf_conv_char(ext, ext_max, ocu, idx, u_ch, st)
            if not got:
                break
            if len(ext) + 5 < maxlen:
                ext_crc_len = len(ext)
    out, idx, o_crc = bytearray(), 0, 0
    while True:
        if idx == i_ext:
            if len(out) > maxlen - len(ext):
                st["crc"] = True
            break
        got, idx = udf_conv_char(out, maxlen, ocu, idx, u_ch, st)
        if not got:
            break
        if len(out) <= maxlen - len(ext) - 5:
            o_crc = len(out)
    if out in (b".", b".."):
        st["crc"] = True
    if st["crc"]:
        out = out[:o_crc]
        out += (b"#%04X" % udf_crc(ocu))[:maxlen - len(out)]
        ext = ext[:ext_crc_len]
    return bytes(out + ext)


def udf_id(units):
    """The compression ID the stock driver writes: 8 when every unit is
    below 0x100."""
    return 8 if all(u < 0x100 for u in units) else 16


def escape(units):
    """A name for fsimg's command line: every unit as \\uXXXX."""
    return "".join("\\u%04X" % u for u in units)


# ---- cases -------------------------------------------------------------------

def corpus_words(corpus):
    """One word of each file of the corpus (its first word of four or more
    letters with a non-ASCII letter; English: its first word)."""
    words = []
    d = os.path.join(corpus, "wikipedia_mars")
    for f in sorted(os.listdir(d)):
        text = open(os.path.join(d, f), encoding="utf-8").read()
        for w in re.findall(r"\w{4,}", text):
            if f.startswith("english") or any(ord(c) > 127 for c in w):
                words.append((f.split(".")[0], w))
                break
    return words


def cases(fs, corpus):
    """[(key, name, made_by)] of one image, in directory order."""
    long_ascii = {"vfat": 255, "exfat": 255, "ntfs3": 255, "isofs": 103,
                  "jfs": 255, "udf": 254, "smb": 255}[fs]
    c = [("ascii", "plain file.txt", "tool")]
    c += [("word-" + lang, w + ".txt", "tool") for lang, w in corpus_words(corpus)]
    c += [("emoji", "\U0001F600 smile.txt", "fsimg"),
          ("ascii-%du" % long_ascii, "n" * (long_ascii - 4) + ".txt", "tool"),
          ("cjk-253b", "\u4e2d" * 83 + ".txt", "fsimg"),
          ("cjk-256b", "\u4e2d" * 84 + ".txt", "fsimg")]
    if fs == "udf":
        # 127 units: the most a name in compression ID 16 holds
        c.append(("cjk-127u", "\u4e2d" * 123 + ".txt", "fsimg"))
    elif fs != "isofs":
        c.append(("cjk-255u", "\u4e2d" * 251 + ".txt", "fsimg"))
    else:
        c.append(("cjk-103u", "\u4e2d" * 103, "fsimg"))
    c += [("lead", "lead\ud800.txt", "fsimg"),
          ("trail", "trail\udc00.txt", "fsimg"),
          ("reversed", "rev\ude00\ud83d.txt", "fsimg"),
          ("end-lead", "end\ud83d", "fsimg"),
          ("alias-plain", "alias name.txt", "tool"),
          ("alias-trail", "alias\udc00 name.txt", "fsimg")]
    if fs in ("isofs", "ntfs3", "jfs", "udf", "smb"):
        c.append(("lone-only", "\udc00\udc01", "fsimg"))
    if fs == "smb":
        # The share's disk (NTFS): the characters SMB's mappings name, on
        # disk and in their Private Use forms (Services for Mac and for
        # Unix), two names that stock cifs lists as one, and the trailing
        # space and period Windows drops.
        c += [("colon", "a:b.txt", "tool"),
              ("reserved", "q?*|<>\".txt", "tool"),
              ("control", "ctl\x01.txt", "tool"),
              ("trailing-space", "trail ", "tool"),
              ("trailing-period", "dot.", "tool"),
              ("sfm-colon", "pua\uf022.txt", "tool"),
              ("sfm-control", "ctl\uf001.txt", "tool"),
              ("sfm-space-end", "end\uf028", "tool"),
              ("sfu-colon", "sfu\uf03a.txt", "tool"),
              ("alias-colon", "alias:colon.txt", "tool"),
              ("alias-sfm-colon", "alias\uf022colon.txt", "tool")]
    if fs in ("ntfs3", "smb"):
        # ntfs-3g's ntfscp writes every case: it takes a lone surrogate
        # in its generalized three-byte UTF-8 form (fsimg list checks the
        # units it wrote).
        c = [(k, n, "tool") for k, n, _ in c]
    elif fs == "jfs":
        # Made by the stock jfs driver in the guest, which takes only
        # characters of the BMP and names of up to 255 bytes: the others
        # go through fsimg, which sorts the dtree leaf again.
        c = [(k, n, "fsimg" if any(0xD800 <= u <= 0xDFFF
                                   for u in units_of(n)) or
              len(n.encode("utf-8", "surrogatepass")) > NAME_MAX else "tool")
             for k, n, _ in c]
    elif fs == "udf":
        # Made by the stock udf driver in the guest, which looks up no
        # name of more than 254 bytes and writes an unpaired surrogate as
        # "?": those go through fsimg, from a placeholder in compression
        # ID 16 (udf_placeholder()).
        c = [(k, n, "fsimg" if has_lone(units_of(n)) or
              len(n.encode("utf-8", "surrogatepass")) > 254 else "tool")
             for k, n, _ in c]
    elif fs == "exfat":
        # Made by the stock exfat driver in the guest, which writes every
        # well-formed name: only the ill-formed ones go through fsimg.
        c = [(k, n, "fsimg" if has_lone(units_of(n)) else "tool")
             for k, n, _ in c]
    else:
        # mtools 4.0.32 stores a non-ASCII name that fits 8.3 in code page
        # 437 as a short name only (viet.txt for the Vietnamese word), cuts
        # long names at 255 bytes inside a character and writes U+1F600 as
        # U+F600: non-ASCII names go through fsimg.
        c = [(k, n, "tool" if n.isascii() else "fsimg") for k, n, _ in c]
    return c


def zero_cases():
    """vfat: a name of lone surrogates only, between two plain names."""
    return [("before", "Before.txt", "tool"),
            ("lone-only", "\udc00\udc01", "fsimg"),
            ("after", "After.txt", "tool")]


def udf_placeholder(i, n):
    """A name of @n units that the stock udf driver writes in compression
    ID 16, as the name fsimg writes in its place (U+0100 first)."""
    return "\u0100" + placeholder(i, n - 1)


def placeholder(i, n):
    """A name of @n units for case @i, unique in its directory; "+" is not
    allowed in a short name, so mtools gives it a long name."""
    return ("+%02dq" % i + "q" * n)[:n]


# ---- images --------------------------------------------------------------------

def run(*cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, **kw).stdout.decode(
                              "utf-8", "replace")


def listed_units(fsimg, kind, img):
    out = run(fsimg, "list", kind, img)
    return [[int(u, 16) for u in line.split()] for line in out.splitlines()]


def craft(fsimg, kind, img, entries):
    """Rewrite each placeholder to its name, then compare every name."""
    for e in entries:
        if e["made_by"] == "fsimg":
            run(fsimg, "rename", kind, img, escape(units_of(e["create"])),
                escape(e["units"]))
    got = listed_units(fsimg, kind, img)
    if sorted(got) != sorted(e["units"] for e in entries):
        sys.exit("fsexp: %s: names on disk differ from the cases" % img)
    # Directory order (xorriso sorts the records): a lookup finds the
    # first entry of a name.
    for e in entries:
        e["order"] = got.index(e["units"])
    if kind == "vfat":
        # The short name vfat lists when it cannot translate the long one.
        for line in run(fsimg, "short", kind, img).splitlines():
            units, short = line.split("\t")
            u = [int(x, 16) for x in units.split()]
            for e in entries:
                if e["units"] == u:
                    e["short"] = short


def entries_of(case_list, first_id):
    out = []
    for i, (key, name, made_by) in enumerate(case_list):
        u = units_of(name)
        out.append({"id": first_id + i, "key": key, "units": u,
                    "made_by": made_by,
                    "create": name if made_by == "tool" else
                    placeholder(first_id + i, len(u))})
    return out


def make_vfat(outdir, fsimg, name, entries):
    img = os.path.join(outdir, name + ".img")
    if os.path.exists(img):
        os.unlink(img)
    run("mkfs.vfat", "-C", "-F", "16", "-i", "5554460a", "-n", "UTFCONV",
        img, "16384")
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1", LC_ALL="C.UTF-8")
    for e in entries:
        content = os.path.join(outdir, "content")
        with open(content, "w") as f:
            f.write("id=%d\n" % e["id"])
        run("mcopy", "-i", img, content, "::" + e["create"], env=env)
    craft(fsimg, "vfat", img, entries)
    run("fsck.vfat", "-n", img)
    run("mdir", "-i", img, "::", env=env)
    return img


def make_joliet(outdir, fsimg, name, entries):
    img = os.path.join(outdir, name + ".img")
    tree = os.path.join(outdir, name + ".tree")
    run("rm", "-rf", tree, img)
    os.makedirs(tree)
    for e in entries:
        with open(os.path.join(tree, e["create"]), "w") as f:
            f.write("id=%d\n" % e["id"])
    run("xorriso", "-as", "mkisofs", "-quiet", "--norock", "-J", "-joliet-long",
        "-V", "UTFCONV", "-o", img, tree)
    craft(fsimg, "joliet", img, entries)
    # No Rock Ridge, or isofs would show its names instead of Joliet's.
    if "NO Rock Ridge present" not in run("isoinfo", "-d", "-i", img):
        sys.exit("fsexp: %s has Rock Ridge" % img)
    run("isoinfo", "-J", "-l", "-i", img)
    run("xorriso", "-indev", img, "-lsl", "/")
    return img


def blank_ntfs(img):
    if os.path.exists(img):
        os.unlink(img)
    with open(img, "wb") as f:
        f.truncate(16 << 20)
    run("mkntfs", "-q", "-F", "-f", "-s", "512", "-c", "4096", "-L", "UTFCONV",
        img)


def make_ntfs(outdir, fsimg, name, entries, subdir=None):
    """mkntfs, then ntfs-3g's ntfscp (no mount, no FUSE) for every file;
    with @subdir, into that directory of an image made before (SMB's: the
    guest made the directory), read back by ntfsls alone (fsimg reads
    the root)."""
    img = os.path.join(outdir, name + ".img")
    if subdir is None:
        blank_ntfs(img)
    content = os.path.join(outdir, "content")
    for e in entries:
        with open(content, "w") as f:
            f.write("id=%d\n" % e["id"])
        dest = e["create"] if subdir is None else subdir + "/" + e["create"]
        run("ntfscp", img, content, dest.encode("utf-8", "surrogatepass"))
    if subdir is None:
        craft(fsimg, "ntfs", img, entries)
    run("ntfsfix", "-n", img)
    got = ntfsls_units(img, "/" + (subdir or ""))
    if sorted(got) != sorted(e["units"] for e in entries):
        sys.exit("fsexp: %s: ntfsls lists other names than the cases" % img)
    if subdir is not None:
        for e in entries:
            e["order"] = got.index(e["units"])
    return img


def ntfsls_units(img, path="/"):
    """The root's names as ntfs-3g's ntfsls reads them (-a: the POSIX
    namespace too), a second reader beside fsimg: ntfs-3g prints a lone
    surrogate in its three-byte generalized UTF-8 form."""
    out = subprocess.run(["ntfsls", "-a", "-p", path, img], check=True,
                         stdout=subprocess.PIPE).stdout
    # (a directory other than the root lists itself as ".")
    return [units_of(n.decode("utf-8", "surrogatepass"))
            for n in out.split(b"\n") if n and n not in (b".", b"..")]


def ntfs_selftest(outdir, fsimg):
    """fsimg's NTFS reader on a small image and on damaged copies of it:
    each damage must be refused with exit status 1 and its message.
    Returns the number of failed checks, each printed."""
    ents = entries_of([("a", "lead\ud800.txt", "tool"),
                       ("b", "\U0001F600", "tool")], 1)
    img = make_ntfs(outdir, fsimg, "selftest-ntfs", ents)
    good = bytes(open(img, "rb").read())
    mft = int.from_bytes(good[48:56], "little") * 4096
    rec = mft + 64 * 1024                  # MFT record 64, the first file's
    name = good.index("lead".encode("utf-16-le"), rec, rec + 1024)
    damage = [
        # a sector of the root's MFT record torn (its last two bytes are
        # no longer the update sequence number)
        ("torn", {mft + 5 * 1024 + 510: good[mft + 5 * 1024 + 510] ^ 1},
         "update sequence mismatch"),
        # the $FILE_NAME in the file's record no longer the index's key
        ("file-name", {name: ord("L")}, "no matching $FILE_NAME"),
        # an MFT record size of 2^42 bytes: a 32-bit shift by 42 is
        # undefined, and x86 would shift by 10, a plausible 1024
        ("rec-size", {64: 0xd6}, "bad NTFS geometry"),
    ]
    return damaged(fsimg, "ntfs", img, good, damage)


def damaged(fsimg, kind, img, good, damage):
    """Write each damaged copy of @good to @img and check that fsimg list
    refuses it with exit status 1 and its message; then remove @img.
    Returns the number of failed checks, each printed."""
    bad = 0
    for what, edits, msg in damage:
        d = bytearray(good)
        for off, v in edits.items():
            d[off] = v
        with open(img, "wb") as f:
            f.write(d)
        r = subprocess.run([fsimg, "list", kind, img], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        err = r.stderr.decode("utf-8", "replace").strip()
        if r.returncode != 1 or msg not in err:
            print("fsimg selftest %s %s: FAIL: exit %d, %r (want 1, %r)"
                  % (kind, what, r.returncode, err, msg))
            bad += 1
    os.unlink(img)
    return bad


def blank_selftest(outdir, fsimg):
    """fsimg's JFS and UDF readers on blank images of mkfs.jfs and mkudffs
    (no names, exit status 0) and on damaged copies of them. Returns the
    number of failed checks, each printed."""
    bad = 0
    for fs, kind in (("jfs", "jfs"), ("udf", "udf")):
        make_blank(outdir, fs, "selftest-" + fs, [])
        img = os.path.join(outdir, "selftest-%s.img" % fs)
        r = subprocess.run([fsimg, "list", kind, img], stdout=subprocess.PIPE)
        if r.returncode or r.stdout:
            print("fsimg selftest %s blank: FAIL: exit %d, %r (want 0, no "
                  "names)" % (kind, r.returncode, r.stdout))
            bad += 1
        good = bytes(open(img, "rb").read())
        if fs == "jfs":
            # the fileset's inode map: aggregate inode 16, its xtree root
            # no longer a leaf; the root directory: fileset 16, inode 2
            xt_flag = 0xB000 + 16 * 512 + 224 + 16
            root = next(o for o in range(0xB000 + 32 * 512, len(good), 512)
                        if good[o + 4:o + 12] == bytes([16, 0, 0, 0, 2, 0, 0, 0]))
            damage = [("magic", {0x8000: ord("X")}, "no JFS superblock"),
                      ("imap", {xt_flag: good[xt_flag] & ~2},
                       "JFS fileset inode map not mapped"),
                      ("root", {root + 8: 3}, "JFS root inode not found")]
        else:
            # the anchor's checksum; a byte under the CRC of the file set
            # descriptor (the first tag 256) and of the root's (extended)
            # file entry, at the block its root directory ICB names in
            # the partition (the partition descriptor, tag 5, says where
            # that starts)
            def le(o):
                return int.from_bytes(good[o:o + 4], "little")
            fsd = next(o for o in range(0, len(good), 512)
                       if good[o:o + 2] == b"\x00\x01")
            pd = next(o for o in range(0, len(good), 512)
                      if good[o:o + 2] == b"\x05\x00")
            fe = (le(pd + 188) + le(fsd + 404)) * 512
            damage = [("anchor", {256 * 512 + 4: good[256 * 512 + 4] ^ 1},
                       "no UDF anchor volume descriptor pointer"),
                      ("fsd", {fsd + 20: good[fsd + 20] ^ 1},
                       "no UDF file set descriptor"),
                      ("fe", {fe + 40: good[fe + 40] ^ 1},
                       "no UDF file entry for the root directory")]
        bad += damaged(fsimg, kind, img, good, damage)
    return bad


def make_blank(outdir, fs, name, entries):
    """An empty exFAT, JFS or UDF image and the "put" lines that fill it in
    the guest (exfatprogs, jfsutils and udftools have no tool that adds a
    file; udftools' wrudf writes packet-written CD-RW media)."""
    img = os.path.join(outdir, name + ".img")
    if os.path.exists(img):
        os.unlink(img)
    with open(img, "wb") as f:
        f.truncate(16 << 20)
    if fs == "exfat":
        run("mkfs.exfat", "-L", "UTFCONV", img)
    elif fs == "jfs":
        run("mkfs.jfs", "-q", "-L", "UTFCONV", img)
    else:
        mkudf(img)
    return ["%s %s" % (e["create"].encode().hex(), "id=%d" % e["id"])
            for e in entries]


def mkudf(img):
    """UDF 2.01 (file entries, no metadata partition) in 512-byte blocks."""
    run("mkudffs", "--media-type=hd", "--udfrev=0x0201", "--blocksize=512",
        "--label=UTFCONV", img)


def craft_prepared(outdir, fsimg):
    """After the guest filled the exFAT and JFS images: rewrite, check,
    plan."""
    meta = json.load(open(os.path.join(outdir, "cases.json")))
    plan = []
    for name, m in meta.items():
        if m["fs"] == "smb":
            # no plan line: run.sh's smb() shares it
            make_ntfs(outdir, fsimg, name, m["entries"], "names")
            continue
        if m["fs"] not in PREPARED:
            continue
        img = os.path.join(outdir, name + ".img")
        # As the stock driver left it, then with fsimg's names.
        run(*FSCK[m["fs"]], img)
        craft(fsimg, m["fs"], img, m["entries"])
        run(*FSCK[m["fs"]], img)
        plan.append(plan_line(name, m["fs"], m["entries"]))
    with open(os.path.join(outdir, "cases.json"), "w") as f:
        json.dump(meta, f)
    with open(os.path.join(outdir, "plan.txt"), "a") as f:
        f.write("\n".join(plan) + "\n")
    os.unlink(os.path.join(outdir, "prepare.txt"))


def plan_line(name, fs, ents):
    probes = sorted({p.hex() for e in ents for p in
                     (wtf8(e["units"]), nls(e["units"]))
                     if 0 < len(p) <= NAME_MAX})
    return "image %s %s %s" % (name, fs, " ".join(probes))


def writes_only():
    """FSEXP_WRITES_ONLY (the check slice): filesystems of the run that
    get no image of names, only their creates and renames on the scratch
    disks (no boot to make their files first)."""
    return os.environ.get("FSEXP_WRITES_ONLY", "").split()


def images_only():
    """FSEXP_IMAGES_ONLY (the check slice): drivers of the run that only
    mount images, with no scratch disk."""
    return os.environ.get("FSEXP_IMAGES_ONLY", "").split()


def images(outdir, fsimg, corpus):
    """Make every image; plan.txt tells the guest what to do with each."""
    os.makedirs(outdir, exist_ok=True)
    plan, meta = [], {}
    specs = [("vfat", "vfat-names", cases("vfat", corpus), make_vfat),
             ("vfat", "vfat-zero", zero_cases(), make_vfat),
             ("isofs", "isofs-names", cases("isofs", corpus), make_joliet),
             ("ntfs3", "ntfs3-names", cases("ntfs3", corpus), make_ntfs),
             ("exfat", "exfat-names", cases("exfat", corpus), None),
             ("exfat", "exfat-zero", zero_cases(), None),
             ("jfs", "jfs-names", cases("jfs", corpus), None),
             ("udf", "udf-names", cases("udf", corpus), None),
             ("smb", "smb-names", cases("smb", corpus), make_ntfs)]
    # FSEXP_FS (scripts/fs-experiments.sh): the filesystems of this run.
    wanted = os.environ.get("FSEXP_FS",
                            "vfat isofs exfat ntfs3 jfs udf smb").split()
    specs = [sp for sp in specs if sp[0] in wanted and
             sp[0] not in writes_only()]
    first, prepare, disks = 1, [], []
    for fs, name, case_list, maker in specs:
        ents = entries_of(case_list, first)
        if fs == "udf":
            for e in ents:
                if e["made_by"] == "fsimg":
                    e["create"] = udf_placeholder(e["id"], len(e["units"]))
        first += len(ents)
        meta[name] = {"fs": fs, "entries": ents}
        if maker is None:
            # The guest's scratch disks, vda, vdb, ... in this order.
            dev = "vd" + chr(ord("a") + len(disks))
            disks.append(name + ".img")
            prepare += ["put %s %s %s" % (dev, fs, line)
                        for line in make_blank(outdir, fs, name, ents)]
            continue
        if fs == "smb":
            # ksmbd lists nothing in a share that is a mount point (no
            # crossmnt in ksmbd-tools 3.4.7): the names go into a
            # directory, which only a driver makes (the guest's stock
            # ntfs3), then ntfscp fills it (craft_prepared()).
            dev = "vd" + chr(ord("a") + len(disks))
            disks.append(name + ".img")
            blank_ntfs(os.path.join(outdir, name + ".img"))
            prepare.append("mkdir %s ntfs3 names" % dev)
            continue
        maker(outdir, fsimg, name, ents)
        plan.append(plan_line(name, fs, ents))
    with open(os.path.join(outdir, "plan.txt"), "w") as f:
        f.write("\n".join(plan) + "\n")
    with open(os.path.join(outdir, "prepare.txt"), "w") as f:
        f.write("".join(line + "\n" for line in prepare))
    with open(os.path.join(outdir, "prepare-disks.txt"), "w") as f:
        f.write("".join(d + "\n" for d in disks))
    with open(os.path.join(outdir, "cases.json"), "w") as f:
        json.dump(meta, f)


# ---- creates and renames ----------------------------------------------------

def write_cases(fs):
    """[(key, op, names, units on disk or None)] on @fs, VFS names as
    bytes."""
    emoji = "\U0001F600 new.txt"
    return [
        ("w-emoji", "create", [emoji.encode()], units_of(emoji)),
        ("w-255u", "create", [b"c" * 251 + b".txt"], units_of("c" * 251 + ".txt")),
        ("w-256u", "create", [b"c" * 252 + b".txt"], None),
        # 256 bytes of UTF-8 but 88 units: the VFS leaves the limit to the
        # filesystem, and vfat's is 255 units.
        ("w-cjk-256b", "create", [("\u4e2d" * 84 + ".txt").encode()],
         units_of("\u4e2d" * 84 + ".txt")),
        ("w-ill-formed", "create", [b"bad\xff.txt"], None),
        ("w-wtf8", "create", [b"wtf\xed\xa0\x80.txt"], units_of("wtf\ud800.txt")),
        ("w-src", "create", [b"Source file.txt"], None),
        ("w-rename-emoji", "rename",
         [b"Source file.txt", "\U0001F600 renamed.txt".encode()],
         units_of("\U0001F600 renamed.txt")),
        ("w-rename-256u", "rename", [b"c" * 251 + b".txt", b"d" * 252 + b".txt"],
         None),
    ] + (smb_write_cases() if fs == "smb" else [])


def smb_write_cases():
    """The creates and renames through the client (mounted with the
    default mapposix) of names with characters that Services for Mac maps:
    on the server's disk in their Private Use form, and a VFS name that
    holds a Private Use form itself."""
    sfm = 'a:b?c"d.txt'
    return [
        ("w-sfm", "create", [sfm.encode()], smb_swapped(units_of(sfm), "default")),
        ("w-sfm-last", "create", [b"trail."], units_of("trail\uf029")),
        ("w-sfm-src", "create", [b"e*f.txt"], None),
        ("w-sfm-rename", "rename", [b"e*f.txt", b"e<f>g|h*.txt"],
         smb_swapped(units_of("e<f>g|h*.txt"), "default")),
        # U+F025 is the form of '?': the converted client sends '?', which
        # ksmbd refuses; the stock one sends U+F025 and lists it as '?'.
        ("w-sfm-pua", "create", ["pua\uf025.txt".encode()],
         units_of("pua\uf025.txt")),
    ]


def write_expect(fs, driver, key):
    """errno of a create or rename; "0": succeeds. A name the driver
    cannot translate: EINVAL from utf8s_to_utf16s() (vfat, ntfs3), but
    EILSEQ on exFAT, whose d_hash (exfat_utf8_d_hash()) fails first with
    utf8_to_utf32()'s errno."""
    bad = "EILSEQ" if fs == "exfat" else "EINVAL"
    driver = JUDGED_AS.get(driver, driver)
    errs = {"w-256u": "ENAMETOOLONG",
            "w-ill-formed": bad, "w-rename-256u": "ENAMETOOLONG",
            "w-wtf8": "0" if driver == "utfconv-wtf8" else bad}
    if fs == "jfs" and driver == "stock":
        # get_UCSname() refuses more than 255 bytes, nls_utf8's
        # char2uni() every character outside the BMP.
        errs.update({"w-emoji": "EINVAL", "w-rename-emoji": "EINVAL",
                     "w-cjk-256b": "ENAMETOOLONG"})
    if fs == "smb":
        # cifs refuses a name of more than 255 bytes before it converts it
        # (cifs_lookup(), the server's component limit, 255, taken for
        # bytes); a byte that is not UTF-8 becomes "?", which ksmbd
        # refuses in a name it is asked for (is_char_allowed()), and so
        # do the stock client's "?"s for an unpaired surrogate's form.
        # names=strict makes the client fall back to its own converter,
        # which gives "?" for the surrogate's bytes too.
        errs.update({"w-cjk-256b": "ENAMETOOLONG", "w-ill-formed": "ENOENT"})
        if driver != "utfconv-wtf8":
            errs["w-wtf8"] = "ENOENT"
        if driver != "stock":
            errs["w-sfm-pua"] = "ENOENT"
    if fs == "udf" and driver == "stock":
        # udf_lookup() refuses more than 254 bytes (the source of the
        # rename too); udf_name_to_CS0() writes "?" for each byte it
        # cannot decode.
        errs.update({"w-cjk-256b": "ENAMETOOLONG", "w-ill-formed": "0",
                     "w-wtf8": "0", "w-255u": "ENAMETOOLONG"})
    elif fs == "udf":
        # 255 Latin-1 characters fit neither 254 bytes of compression ID
        # 8 nor 127 units of ID 16; the source of the rename is looked up
        # (up to 508 bytes) and is not there.
        errs.update({"w-255u": "ENAMETOOLONG", "w-rename-256u": "ENOENT"})
    return errs.get(key, "0")


def writes(outdir, driver, fs, dev):
    with open(os.path.join(outdir, "writes-%s-%s.txt" % (driver, fs)), "w") as f:
        f.write("disk %s %s\n" % (fs, dev))
        for key, op, names, _ in write_cases(fs):
            f.write("%s %s\n" % (op, " ".join(n.hex() for n in names)))


def on_disk_expected(fs, driver):
    """Names on the scratch disk after the writes of @driver."""
    want = []
    for key, _, _, units in write_cases(fs):
        if fs == "udf" and driver == "stock" and key == "w-wtf8":
            continue  # written as "wtf???.txt", below
        if units is not None and write_expect(fs, driver, key) == "0":
            want.append(units)
    if write_expect(fs, driver, "w-rename-emoji") != "0":
        want.append(units_of("Source file.txt"))
    if fs == "udf" and driver == "stock":
        want += [units_of("bad?.txt"), units_of("wtf???.txt")]
    return sorted(want)


# ---- what each driver is expected to list ---------------------------------

def joliet_tail(b):
    """get_joliet_filename(): no ";1" version, no trailing dots."""
    if len(b) > 2 and b.endswith(b";1"):
        b = b[:-2]
    while len(b) >= 2 and b.endswith(b"."):
        b = b[:-1]
    return b


def vfs_name(fs, driver, e):
    """The bytes @driver lists for entry @e, None when it skips it."""
    units = e["units"]
    driver = JUDGED_AS.get(driver, driver)
    if driver == "stock" and fs == "jfs":
        return jfs_stock(units)
    if driver == "stock" and fs == "udf":
        # into UDF_NAME_LEN bytes
        return udf_mangle(units, udf_id(units), 254)
    if fs == "udf" and (udf_id(units) == 8 or driver == "utfconv-strict" and
                        has_lone(units)):
        # Latin-1 and names utfconv does not translate: the driver's own
        # code, into UDF_NAME_LEN_VFS bytes
        return udf_mangle(units, udf_id(units), 508)
    if driver == "stock":
        b = nls(units)
        if fs == "isofs":
            # The UTF-8 length is kept in an unsigned char.
            b = joliet_tail(b[:len(b) & 0xFF])
        return b or (None if fs == "isofs" else b)
    if driver == "utfconv-strict" and has_lone(units):
        # vfat (our patch) shows the short name, isofs, exfat, ntfs3 and
        # jfs skip the entry.
        return e["short"].encode() if fs == "vfat" else None
    b = wtf8(units)
    return joliet_tail(b) if fs == "isofs" else b


def expected(fs, driver, ents):
    """Per entry: (bytes or None, outcome); outcome "id=<n>" (opens the
    file of case n) or an errno name (exFAT: ENOENT), "getdents=EIO"
    (vfat: readdir fails at an empty name, fs/readdir.c
    verify_dirent_name()), "not listed". The VFS leaves the
    length of a name to the filesystem (NAME_MAX bounds only what
    userspace may pass in some calls): vfat and isofs list and open names
    of more than NAME_MAX bytes."""
    out, first_of, failed = {}, {}, False
    by_units = {}
    for e in sorted(ents, key=lambda x: x["order"]):
        by_units.setdefault(tuple(e["units"]), e["id"])
    for e in sorted(ents, key=lambda x: x["order"]):
        b = vfs_name(fs, driver, e)
        if failed or b is None:
            out[e["id"]] = (None, "not listed")
        elif not b and fs in ("exfat", "ntfs3"):
            # exfat_iterate() ends that getdents call at an empty name;
            # the next one goes on after it. ntfs_dir_emit() skips the
            # entry with a warning ("failed to convert name").
            out[e["id"]] = (None, "not listed")
        elif not b:
            out[e["id"]] = (None, "getdents=EIO")
            failed = True
        elif fs == "jfs" and driver == "stock" and len(b) > NAME_MAX:
            # get_UCSname() refuses a name of more than 255 bytes.
            out[e["id"]] = (b, "ENAMETOOLONG")
        elif fs in ("exfat", "ntfs3", "jfs"):
            # exFAT, NTFS and JFS look a name up by its UTF-16 form
            # (exfat_find(), dir_search_u(), dtSearch()):
            # the listed name, translated back, must be on disk. (Case
            # folding left out: no two cases differ only in case.)
            back = tuple(units_of(b.decode("utf-8", "surrogatepass")))
            hit = by_units.get(back)
            out[e["id"]] = (b, "id=%d" % hit if hit else "ENOENT")
        else:
            out[e["id"]] = (b, "id=%d" % first_of.setdefault(b, e["id"]))
    return [out[e["id"]] for e in ents]


# ---- the guest's output -----------------------------------------------------

def parse_log(log):
    """{(driver, image): {"mount": rc, "E": [...], "O": {...}, ...}}"""
    runs, cur = {}, None
    for line in open(log, encoding="utf-8", errors="replace"):
        f = line.split()
        if not f:
            continue
        if f[0] == "FSX-BEGIN":
            cur = runs.setdefault((f[1], f[2]), {"mount": f[3][6:], "E": [],
                                                 "O": {}, "W": [],
                                                 "getdents": None,
                                                 "N": [], "wire": None})
        elif f[0] == "FSX-END":
            cur = None
        elif cur is None:
            continue
        elif f[0] == "E" and f[1] == "-":
            cur["getdents"] = f[2]
        elif f[0] == "N" and f[1] == "-":
            cur["wire"] = " ".join(f[2:])
        elif f[0] == "N" and len(f) == 2:
            b = bytes.fromhex(f[1])
            cur["N"].append([int.from_bytes(b[i:i + 2], "little")
                             for i in range(0, len(b), 2)])
        elif f[0] in "EO" and len(f) >= 6:
            kv = dict(x.split("=", 1) for x in f[2:])
            rec = {"bytes": bytes.fromhex(f[1]), "open": kv["open"],
                   "data": kv["data"]}
            if f[0] == "E":
                cur["E"].append(rec)
            else:
                cur["O"][rec["bytes"]] = rec
        elif f[0] in "CR":
            cur["W"].append(f[-1].split("=", 1)[1])
    return runs


def outcome(rec):
    if rec["open"] != "0":
        return rec["open"]
    data = bytes.fromhex(rec["data"]) if rec["data"] != "-" else b""
    return data.decode("ascii", "replace").strip() or "empty"


def show(b):
    if b is None:
        return "-"
    h = b.hex()
    return h if len(h) <= 40 else "%s..(%d B)" % (h[:32], len(b))


class Tally:
    def __init__(self):
        self.names = self.lost = self.aliased = self.truncated = 0
        self.unrep = 0


def judge_image(fs, driver, ents, run_, rows, tally):
    """Compare one image's listing with the expectation; count losses."""
    exp = expected(fs, driver, ents)
    listed = list(run_["E"])
    by_id = {"id=%d" % e["id"]: e for e in ents}
    passed = failed = 0
    for e, (b, want) in zip(ents, exp):
        got_b, got = None, "not listed"
        if want == "getdents=EIO":
            got = run_["getdents"] or got
        else:
            for r in listed:
                if r["bytes"] == b:
                    listed.remove(r)
                    got_b, got = r["bytes"], outcome(r)
                    break
        ok = got == want and got_b == b
        passed += ok
        failed += not ok
        rows.append((fs, e["key"], driver, show(got_b),
                     "yes" if got.startswith("id=") else "no",
                     got if not got.startswith("id=") else
                     ("own" if got == "id=%d" % e["id"] else "opens " + by_id[got]["key"]),
                     "PASS" if ok else "FAIL (want %s %s)" % (show(b), want)))
    for r in listed:
        failed += 1
        rows.append((fs, "?", driver, show(r["bytes"]), "-", outcome(r),
                     "FAIL (unexpected name)"))
    count_losses(ents, run_["E"], tally, driver == "utfconv-strict")
    p, f = judge_lone_opens(fs, driver, ents, run_, rows)
    return passed + p, failed + f


# Filesystems whose lookup translates each name on disk and compares it
# with the VFS name (vfat's fat_search_long(), Joliet's
# isofs_find_entry()): a VFS name that no name on disk translates to is
# ENOENT, whatever it holds.
LOOKUP_BY_DISK_NAME = ("vfat", "isofs")


def judge_lone_opens(fs, driver, ents, run_, rows):
    """The WTF-8 form of each name with an unpaired surrogate, opened by
    that name (fsprobe open, the probes of plan.txt): its own file under
    utfconv-wtf8, ENOENT under names=strict, where no name on disk
    translates to it."""
    driver_as = JUDGED_AS.get(driver, driver)
    if fs not in LOOKUP_BY_DISK_NAME or driver_as not in ("utfconv-strict",
                                                          "utfconv-wtf8"):
        return 0, 0
    passed = failed = 0
    for e in ents:
        b = wtf8(e["units"])
        if not has_lone(e["units"]) or len(b) > NAME_MAX:
            continue
        want = "id=%d" % e["id"] if driver_as == "utfconv-wtf8" else "ENOENT"
        rec = run_["O"].get(b)
        got = outcome(rec) if rec else "not probed"
        ok = got == want
        passed += ok
        failed += not ok
        rows.append((fs, e["key"] + "-open", driver, show(b),
                     "yes" if got.startswith("id=") else "no",
                     "own" if got == "id=%d" % e["id"] else got,
                     "PASS" if ok else "FAIL (want %s)" % want))
    return passed, failed


def count_losses(ents, recs, tally, strict, refused=lambda units: False):
    """Losses seen, whatever was expected: lost (no listed name opens the
    file), aliased (names listed more than once, every copy counted),
    truncated (a name listed shorter than its own), unrepresentable (a
    name longer than NAME_MAX, or under the strict policy a name with an
    unpaired surrogate, that no listed name opens and no other form of
    which is listed)."""
    reached = {}
    for r in recs:
        o = outcome(r)
        if o.startswith("id="):
            reached.setdefault(int(o[3:]), []).append(r["bytes"])
    seen = {}
    for r in recs:
        seen[r["bytes"]] = seen.get(r["bytes"], 0) + 1
    tally.aliased += sum(n for n in seen.values() if n > 1)
    for e in ents:
        w = wtf8(e["units"])
        tally.names += 1
        forms = reached.get(e["id"], [])
        if any(len(f) < len(w) and (w.startswith(f) or len(w) > NAME_MAX)
               for f in forms if f != w):
            tally.truncated += 1
        elif (len(w) > NAME_MAX or strict and has_lone(e["units"]) or
              refused(e["units"])) and not forms:
            tally.unrep += 1
        elif not forms:
            tally.lost += 1


def judge_writes(fs, driver, run_, img, fsimg, rows):
    """The creates and renames of @driver on @fs, then the names the
    scratch disk @img holds, read by fsimg (and for NTFS by ntfsls too)."""
    passed = failed = 0
    for (key, _, names, _), got in zip(write_cases(fs), run_["W"] + [None] * 99):
        want = write_expect(fs, driver, key)
        ok = got == want
        passed += ok
        failed += not ok
        rows.append((fs, key, driver, show(names[-1]), "-", got or "not run",
                     "PASS" if ok else "FAIL (want %s)" % want))
    want = on_disk_expected(fs, driver)
    if fs == "smb":
        # the share is its directory w (run.sh's smb()), which fsimg,
        # a reader of the root, does not list
        disk_units = sorted(ntfsls_units(img, "/w"))
        how = "ntfsls"
        ok = disk_units == want
    else:
        disk_units = sorted(listed_units(fsimg, FSIMG_KIND.get(fs, fs), img))
        how = "fsimg list"
        ok = disk_units == want
    if fs == "ntfs3":
        how += ", ntfsls"
        ok = ok and sorted(ntfsls_units(img)) == want
    rows.append((fs, "w-on-disk", driver, "%d names" % len(disk_units), "-",
                 how, "PASS" if ok else "FAIL (want %s)" %
                 [escape(u) for u in want]))
    passed, failed = passed + ok, failed + (not ok)
    if fs == "smb":
        made = [names[-1] for key, _, names, units in write_cases(fs)
                if units is not None and write_expect(fs, driver, key) == "0"]
        ok = judge_smb_listed(driver, run_, want, made, rows)
        passed, failed = passed + ok, failed + (not ok)
    return passed, failed


def judge_smb_listed(driver, run_, disk, made, rows):
    """What the client lists of the share it wrote to, from the names on
    the disk: the converted client swaps them back, the stock one makes
    each Private Use form its ASCII character, wherever it came from. The
    row says how many of the names @made come back as they were made."""
    if driver == "stock":
        back = {v: k for k, v in list(SFM.items()) + list(SFM_LAST.items())}
        want = sorted(wtf8([back.get(u, u) for u in units]) for units in disk)
    else:
        want = sorted(wtf8(smb_swapped(units, "default")) for units in disk)
    got = sorted(r["bytes"] for r in run_["E"])
    ok = got == want
    lost = [show(b) for b in made if b not in got]
    rows.append(("smb", "w-listed", driver, "%d names" % len(got), "-",
                 "%d of %d as made%s" % (len(made) - len(lost), len(made),
                                         "".join(", not " + b for b in lost)),
                 "PASS" if ok else "FAIL (want %s)" %
                 [show(b) for b in want if b not in got]))
    return ok


# ---- SMB --------------------------------------------------------------------

# The mount options of the client (run.sh's smb()): the default,
# mapposix (Services for Mac), mapchars (Services for Unix), nomapposix.
SMB_OPTIONS = ("default", "mapchars", "nomapposix")
# Services for Mac and for Unix as cifs_unicode.h has them: a character
# and its Private Use form; a trailing space or period at the end only.
SFM = dict([(c, 0xF000 + c) for c in range(0x01, 0x20)] +
           [(0x22, 0xF020), (0x2A, 0xF021), (0x3A, 0xF022), (0x3C, 0xF023),
            (0x3E, 0xF024), (0x3F, 0xF025), (0x7C, 0xF027)])
SFM_LAST = {0x20: 0xF028, 0x2E: 0xF029}
SFU = {c: 0xF000 + c for c in b":*?|><"}
SMB_MAPS = {"default": (SFM, SFM_LAST), "mapchars": (SFU, {}),
            "nomapposix": ({}, {})}
# What ksmbd refuses in a name it is asked to open (is_char_allowed(),
# and ':', a stream's): a name on disk that holds one is listed over SMB
# but no client opens it.
SMB_REFUSED = set(range(0x01, 0x20)) | set(b'?"<>|*:')


def smb_refused(units):
    return any(u in SMB_REFUSED for u in units)


def smb_swapped(units, opt):
    """The converted cifs's map of mount option @opt on a name's units:
    each pair swapped both ways; a trailing space or period only as the
    last character, and not in "." and ".." or their mapped forms."""
    anywhere, last = SMB_MAPS[opt]
    sw = dict(anywhere)
    sw.update({v: k for k, v in anywhere.items()})
    lw = dict(last)
    lw.update({v: k for k, v in last.items()})
    out = [sw.get(u, u) for u in units]
    if units and units[-1] in lw:
        u, v = units[-1], lw[units[-1]]
        dots = 0x2E in (u, v) and (len(units) == 1 or
                                   len(units) == 2 and units[0] == 0x2E)
        if not dots:
            out[-1] = v
    return out


def smb_expected(driver, opt, e):
    """(bytes, outcome) the client lists for entry @e under mount option
    @opt; outcome "id=<n>", "not opened" or "not listed" (names=strict: a
    name with an unpaired surrogate). None for the stock drivers' names
    other than the valid ones: what they list is shown, not judged."""
    units = e["units"]
    if driver != "stock":
        b = wtf8(smb_swapped(units, opt))
        if driver == "utfconv-strict" and has_lone(units):
            return b, "not listed"
        if smb_refused(units):
            return b, "not opened"
        # (cifs and ksmbd leave the length of a listed name to the
        # server's limit in units: names of more than NAME_MAX bytes open)
        return b, "id=%d" % e["id"]
    mapped = any(0xF000 <= u <= 0xF07F for u in units) or \
        units[-1] in (0x20, 0x2E)
    if has_lone(units) or smb_refused(units) or mapped:
        return None
    return wtf8(units), "id=%d" % e["id"]


def smb_wire_expected(driver, ents):
    """The names the server sends, as units: the converted ksmbd on the
    converted ntfs3 sends each name's own units; the stock ones send the
    fs/nls form of each name that the server's lookup finds (a name
    whose surrogate ntfs3 dropped is another file's name or none)."""
    if driver != "stock":
        return sorted(e["units"] for e in ents)
    have = {wtf8(e["units"]) for e in ents}
    return sorted(units_of(nls(e["units"]).decode("utf-8")) for e in ents
                  if nls(e["units"]) in have)


def judge_smb_wire(driver, opt, ents, run_, rows):
    """The server's hop: the names on the wire (smbwire), unit for unit."""
    want = smb_wire_expected(driver, ents)
    got = sorted(run_["N"])
    ok = got == want and (run_["wire"] or "").endswith("error=none")
    rows.append(("smb-wire-" + opt, "names", driver, "%d names" % len(got),
                 "-", run_["wire"] or "no capture",
                 "PASS" if ok else "FAIL (want %d names: %s)" %
                 (len(want), [escape(u) for u in want if u not in got][:4])))
    return int(ok), int(not ok)


def judge_smb(driver, opt, ents, run_, rows, tally):
    """The client's listing of the share under mount option @opt."""
    listed = list(run_["E"])
    passed = failed = 0
    for e in ents:
        exp = smb_expected(driver, opt, e)
        if exp is None:
            continue
        b, want = exp
        got_b, got = None, "not listed"
        for r in listed:
            if r["bytes"] == b:
                listed.remove(r)
                got_b, got = r["bytes"], outcome(r)
                break
        ok = got_b == b and (got == want or want == "not opened" and
                             got_b is not None and not got.startswith("id=")) \
            or want == got == "not listed"
        passed += ok
        failed += not ok
        rows.append(("smb-" + opt, e["key"], driver, show(got_b),
                     "yes" if got.startswith("id=") else "no",
                     "own" if got == "id=%d" % e["id"] else got,
                     "PASS" if ok else "FAIL (want %s %s)" % (show(b), want)))
    by_id = {"id=%d" % e["id"]: e["key"] for e in ents}
    for r in listed:
        o = outcome(r)
        # the stock drivers' forms of the names they are not judged on
        stock = driver == "stock"
        failed += not stock
        rows.append(("smb-" + opt, "?", driver, show(r["bytes"]),
                     "yes" if o.startswith("id=") else "no",
                     "opens " + by_id[o] if o in by_id else o,
                     "shown" if stock else "FAIL (unexpected name)"))
    count_losses(ents, run_["E"], tally, driver == "utfconv-strict",
                 smb_refused)
    return passed, failed


def report_smb(outdir, fsimg, meta, runs, dep, rows, lines):
    """The server's listing of its disk (ntfs3), the client's under each
    mount option, and the creates and renames through the client."""
    passed = failed = 0
    ents = meta.get("smb-names", {}).get("entries")
    for driver in DRIVERS:
        if "%s/smb" % driver not in dep or not ents:
            continue
        r = runs.get((driver, "smb-server"))
        t = Tally()
        if r is None or r["mount"] != "0":
            failed += 1
            rows.append(("smb", "server", driver, "-", "-", "mount failed",
                         "FAIL"))
        else:
            sub = []
            # the server's disk takes ntfs3's default under every driver
            srv = "stock" if driver == "stock" else "utfconv-wtf8"
            p, f = judge_image("ntfs3", srv, ents, r, sub, t)
            rows += [("smb-server", x[1], driver) + x[3:] for x in sub]
            passed, failed = passed + p, failed + f
        for opt in SMB_OPTIONS:
            r = runs.get((driver, "smb-names-" + opt))
            t = Tally()
            if r is None or r["mount"] != "0":
                failed += 1
                rows.append(("smb-" + opt, "names", driver, "-", "-",
                             "mount failed", "FAIL"))
                continue
            p, f = judge_smb(driver, opt, ents, r, rows, t)
            passed, failed = passed + p, failed + f
            p, f = judge_smb_wire(driver, opt, ents, r, rows)
            passed, failed = passed + p, failed + f
            fs = "smb" if opt == "default" else "smb-" + opt
            lines.append("fs-experiments: %s %s: names %d, lost %d, aliased %d, "
                         "truncated %d, unrepresentable %d, depends=%s"
                         % (fs, driver, t.names, t.lost, t.aliased,
                            t.truncated, t.unrep, dep["%s/smb" % driver]))
        w = runs.get((driver, "write-smb"))
        if w is None and driver in images_only():
            continue
        if w is None:
            failed += 1
            rows.append(("smb", "writes", driver, "-", "-", "not run", "FAIL"))
            continue
        img = os.path.join(os.environ.get("FSEXP_SCRATCH", outdir),
                           "scratch-%s-smb.img" % driver)
        p, f = judge_writes("smb", driver, w, img, fsimg, rows)
        passed, failed = passed + p, failed + f
    return passed, failed


def report(outdir, log, fsimg, depends):
    meta = json.load(open(os.path.join(outdir, "cases.json")))
    runs = parse_log(log)
    dep = dict(d.split("=", 1) for d in depends)
    rows, passed, failed, lines = [], 0, 0, []
    for fs in ("vfat", "exfat", "ntfs3", "isofs", "jfs", "udf"):
        for driver in DRIVERS:
            imgs = [n for n, m in meta.items() if m["fs"] == fs and "order" in
                    m["entries"][0]]
            # A driver of the run (DEPENDS names it) must have results;
            # FSEXP_WRITES_ONLY: the filesystem's creates and renames only.
            if "%s/%s" % (driver, fs) not in dep or not imgs and \
                    fs not in writes_only():
                continue
            t = Tally()
            for name in imgs:
                r = runs.get((driver, name))
                if r is None or r["mount"] != "0":
                    failed += 1
                    rows.append((fs, name, driver, "-", "-", "mount failed",
                                 "FAIL"))
                    continue
                p, f = judge_image(fs, driver, meta[name]["entries"], r, rows, t)
                passed, failed = passed + p, failed + f
            w = runs.get((driver, "write-" + fs))
            if w is not None:
                img = os.path.join(os.environ.get("FSEXP_SCRATCH", outdir),
                                   "scratch-%s-%s.img" % (driver, fs))
                p, f = judge_writes(fs, driver, w, img, fsimg, rows)
                passed, failed = passed + p, failed + f
            lines.append("fs-experiments: %s %s: names %d, lost %d, aliased %d, "
                         "truncated %d, unrepresentable %d, depends=%s"
                         % (fs, driver, t.names, t.lost, t.aliased, t.truncated,
                            t.unrep, dep.get("%s/%s" % (driver, fs), "?")))
    p, f = report_smb(outdir, fsimg, meta, runs, dep, rows, lines)
    passed, failed = passed + p, failed + f
    head = ("fs", "case", "driver", "listed bytes", "opened", "errno/file", "result")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(6)]
    for r in [head] + rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)) + "  " + r[6])
    print()
    # What the guest itself found wrong (insmod, rmmod, fsname_policy).
    for line in open(log, errors="replace"):
        if line.startswith("FSX: ERROR"):
            print("fs-experiments: guest: " + line.strip())
            failed += 1
    for line in lines:
        print(line)
    print("fs-experiments: %d passed, %d failed" % (passed, failed))
    return failed == 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "images":
        images(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 4 and sys.argv[1] == "craft":
        craft_prepared(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "selftest":
        n = ntfs_selftest(sys.argv[2], sys.argv[3])
        n += blank_selftest(sys.argv[2], sys.argv[3])
        print("fsimg selftest: %d passed, %d failed" % (11 - n, n))
        sys.exit(1 if n else 0)
    elif len(sys.argv) == 6 and sys.argv[1] == "writes":
        writes(*sys.argv[2:6])
    elif len(sys.argv) >= 5 and sys.argv[1] == "report":
        sys.exit(0 if report(*sys.argv[2:5], sys.argv[5:]) else 1)
    else:
        sys.exit(__doc__)
