#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The file name experiments: images, expected results and the table.

  fsexp.py images OUTDIR FSIMG CORPUS   make and check the images, write
                                        OUTDIR/plan.txt for the guest
  fsexp.py craft-exfat OUTDIR FSIMG     the exFAT images after the guest
                                        made their files (prepare.txt)
  fsexp.py selftest OUTDIR FSIMG        fsimg's NTFS reader on damaged images
  fsexp.py writes OUTDIR DRIVER FS DEV  the creates and renames of DRIVER
                                        on the guest's FS disk DEV
  fsexp.py report OUTDIR LOG FSIMG [DRIVER/FS=DEPENDS...]
                                        the table, the summary lines and the
                                        names on the scratch disks the guest
                                        wrote (OUTDIR/scratch-DRIVER-FS.img)

Each image holds one file per case, with the content "id=<n>\\n". Names
the filesystem's own tools write correctly are made by them (mtools,
xorriso); the others (supplementary characters, which mtools writes as
U+F600 for U+1F600 and xorriso as "_", lone and reversed surrogates,
non-ASCII names longer than the tools or the host's NAME_MAX allow) are
made under a placeholder of the same number of code units and rewritten
by tools/fsimg. ntfs-3g's ntfscp writes every NTFS case itself; exFAT's
files are made by the stock driver in a first boot of the guest
(prepare.txt). Every image is checked with its filesystem's tool
(fsck.vfat -n; isoinfo -J -l and xorriso -lsl; fsck.exfat -n; ntfsfix -n
and ntfsls) and its names are listed with fsimg and compared with the
cases before it is used.
"""

import json
import os
import re
import subprocess
import sys

NAME_MAX = 255
DRIVERS = ("stock", "utfconv-strict", "utfconv-wtf8", "intree")
# "intree": the filesystems built into the series kernel (scripts/
# series-boot.sh) with utfconv.fsname_policy=wtf8: the same names, bytes
# and errnos as the out-of-tree utfconv-wtf8 modules.
JUDGED_AS = {"intree": "utfconv-wtf8"}
FSIMG_KIND = {"isofs": "joliet", "ntfs3": "ntfs"}  # fsimg's name of a filesystem


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
    long_ascii = {"vfat": 255, "exfat": 255, "ntfs3": 255, "isofs": 103}[fs]
    c = [("ascii", "plain file.txt", "tool")]
    c += [("word-" + lang, w + ".txt", "tool") for lang, w in corpus_words(corpus)]
    c += [("emoji", "\U0001F600 smile.txt", "fsimg"),
          ("ascii-%du" % long_ascii, "n" * (long_ascii - 4) + ".txt", "tool"),
          ("cjk-253b", "\u4e2d" * 83 + ".txt", "fsimg"),
          ("cjk-256b", "\u4e2d" * 84 + ".txt", "fsimg")]
    if fs != "isofs":
        c.append(("cjk-255u", "\u4e2d" * 251 + ".txt", "fsimg"))
    else:
        c.append(("cjk-103u", "\u4e2d" * 103, "fsimg"))
    c += [("lead", "lead\ud800.txt", "fsimg"),
          ("trail", "trail\udc00.txt", "fsimg"),
          ("reversed", "rev\ude00\ud83d.txt", "fsimg"),
          ("end-lead", "end\ud83d", "fsimg"),
          ("alias-plain", "alias name.txt", "tool"),
          ("alias-trail", "alias\udc00 name.txt", "fsimg")]
    if fs in ("isofs", "ntfs3"):
        c.append(("lone-only", "\udc00\udc01", "fsimg"))
    if fs == "ntfs3":
        # ntfs-3g's ntfscp writes every case: it takes a lone surrogate
        # in its generalized three-byte UTF-8 form (fsimg list checks the
        # units it wrote).
        c = [(k, n, "tool") for k, n, _ in c]
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


def make_ntfs(outdir, fsimg, name, entries):
    """mkntfs, then ntfs-3g's ntfscp (no mount, no FUSE) for every file."""
    img = os.path.join(outdir, name + ".img")
    if os.path.exists(img):
        os.unlink(img)
    with open(img, "wb") as f:
        f.truncate(16 << 20)
    run("mkntfs", "-q", "-F", "-f", "-s", "512", "-c", "4096", "-L", "UTFCONV",
        img)
    content = os.path.join(outdir, "content")
    for e in entries:
        with open(content, "w") as f:
            f.write("id=%d\n" % e["id"])
        run("ntfscp", img, content,
            e["create"].encode("utf-8", "surrogatepass"))
    craft(fsimg, "ntfs", img, entries)
    run("ntfsfix", "-n", img)
    if sorted(ntfsls_units(img)) != sorted(e["units"] for e in entries):
        sys.exit("fsexp: %s: ntfsls lists other names than the cases" % img)
    return img


def ntfsls_units(img):
    """The root's names as ntfs-3g's ntfsls reads them (-a: the POSIX
    namespace too), a second reader beside fsimg: ntfs-3g prints a lone
    surrogate in its three-byte generalized UTF-8 form."""
    out = subprocess.run(["ntfsls", "-a", img], check=True,
                         stdout=subprocess.PIPE).stdout
    return [units_of(n.decode("utf-8", "surrogatepass"))
            for n in out.split(b"\n") if n]


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
    bad = 0
    for what, edits, msg in damage:
        d = bytearray(good)
        for off, v in edits.items():
            d[off] = v
        with open(img, "wb") as f:
            f.write(d)
        r = subprocess.run([fsimg, "list", "ntfs", img], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        err = r.stderr.decode("utf-8", "replace").strip()
        if r.returncode != 1 or msg not in err:
            print("fsimg selftest %s: FAIL: exit %d, %r (want 1, %r)"
                  % (what, r.returncode, err, msg))
            bad += 1
    os.unlink(img)
    return bad


def make_exfat_blank(outdir, name, entries):
    """An empty exFAT image and the "put" lines that fill it in the guest
    (exfatprogs has no tool that adds a file)."""
    img = os.path.join(outdir, name + ".img")
    if os.path.exists(img):
        os.unlink(img)
    with open(img, "wb") as f:
        f.truncate(16 << 20)
    run("mkfs.exfat", "-L", "UTFCONV", img)
    return ["%s %s" % (e["create"].encode().hex(), "id=%d" % e["id"])
            for e in entries]


def craft_exfat(outdir, fsimg):
    """After the guest filled the exFAT images: rewrite, check, plan."""
    meta = json.load(open(os.path.join(outdir, "cases.json")))
    plan = []
    for name, m in meta.items():
        if m["fs"] != "exfat":
            continue
        img = os.path.join(outdir, name + ".img")
        craft(fsimg, "exfat", img, m["entries"])
        run("fsck.exfat", "-n", img)
        plan.append(plan_line(name, "exfat", m["entries"]))
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


def images(outdir, fsimg, corpus):
    """Make every image; plan.txt tells the guest what to do with each."""
    os.makedirs(outdir, exist_ok=True)
    plan, meta = [], {}
    specs = [("vfat", "vfat-names", cases("vfat", corpus), make_vfat),
             ("vfat", "vfat-zero", zero_cases(), make_vfat),
             ("isofs", "isofs-names", cases("isofs", corpus), make_joliet),
             ("ntfs3", "ntfs3-names", cases("ntfs3", corpus), make_ntfs),
             ("exfat", "exfat-names", cases("exfat", corpus), None),
             ("exfat", "exfat-zero", zero_cases(), None)]
    # FSEXP_FS (scripts/fs-experiments.sh): the filesystems of this run.
    wanted = os.environ.get("FSEXP_FS", "vfat isofs exfat ntfs3").split()
    specs = [sp for sp in specs if sp[0] in wanted]
    first, prepare, disk = 1, [], 0
    for fs, name, case_list, maker in specs:
        ents = entries_of(case_list, first)
        first += len(ents)
        meta[name] = {"fs": fs, "entries": ents}
        if maker is None:
            # The guest's scratch disks, vda, vdb, ... in this order.
            dev = "vd" + chr(ord("a") + disk)
            disk += 1
            prepare += ["put %s %s %s" % (dev, fs, line)
                        for line in make_exfat_blank(outdir, name, ents)]
            continue
        maker(outdir, fsimg, name, ents)
        plan.append(plan_line(name, fs, ents))
    with open(os.path.join(outdir, "plan.txt"), "w") as f:
        f.write("\n".join(plan) + "\n")
    with open(os.path.join(outdir, "prepare.txt"), "w") as f:
        f.write("".join(line + "\n" for line in prepare))
    with open(os.path.join(outdir, "cases.json"), "w") as f:
        json.dump(meta, f)


# ---- creates and renames ----------------------------------------------------

def write_cases():
    """[(key, op, names, units on disk or None)], VFS names as bytes."""
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
    return errs.get(key, "0")


def writes(outdir, driver, fs, dev):
    with open(os.path.join(outdir, "writes-%s-%s.txt" % (driver, fs)), "w") as f:
        f.write("disk %s %s\n" % (fs, dev))
        for key, op, names, _ in write_cases():
            f.write("%s %s\n" % (op, " ".join(n.hex() for n in names)))


def on_disk_expected(fs, driver):
    """Names on the scratch disk after the writes of @driver."""
    want = []
    for key, _, _, units in write_cases():
        if units is not None and write_expect(fs, driver, key) == "0":
            want.append(units)
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
    if driver == "stock":
        b = nls(units)
        if fs == "isofs":
            # The UTF-8 length is kept in an unsigned char.
            b = joliet_tail(b[:len(b) & 0xFF])
        return b or (None if fs == "isofs" else b)
    if driver == "utfconv-strict" and has_lone(units):
        # vfat (our patch) shows the short name, isofs, exfat and ntfs3
        # skip the entry.
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
        elif fs in ("exfat", "ntfs3"):
            # exFAT and NTFS look a name up by its UTF-16 form
            # (exfat_find(), dir_search_u()):
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
                                                 "getdents": None})
        elif f[0] == "FSX-END":
            cur = None
        elif cur is None:
            continue
        elif f[0] == "E" and f[1] == "-":
            cur["getdents"] = f[2]
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
    return passed, failed


def count_losses(ents, recs, tally, strict):
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
        elif (len(w) > NAME_MAX or strict and has_lone(e["units"])) and not forms:
            tally.unrep += 1
        elif not forms:
            tally.lost += 1


def judge_writes(fs, driver, run_, img, fsimg, rows):
    """The creates and renames of @driver on @fs, then the names the
    scratch disk @img holds, read by fsimg (and for NTFS by ntfsls too)."""
    passed = failed = 0
    for (key, _, names, _), got in zip(write_cases(), run_["W"] + [None] * 99):
        want = write_expect(fs, driver, key)
        ok = got == want
        passed += ok
        failed += not ok
        rows.append((fs, key, driver, show(names[-1]), "-", got or "not run",
                     "PASS" if ok else "FAIL (want %s)" % want))
    disk_units = sorted(listed_units(fsimg, FSIMG_KIND.get(fs, fs), img))
    want = on_disk_expected(fs, driver)
    how = "fsimg list"
    ok = disk_units == want
    if fs == "ntfs3":
        how += ", ntfsls"
        ok = ok and sorted(ntfsls_units(img)) == want
    rows.append((fs, "w-on-disk", driver, "%d names" % len(disk_units), "-",
                 how, "PASS" if ok else "FAIL (want %s)" %
                 [escape(u) for u in want]))
    return passed + ok, failed + (not ok)


def report(outdir, log, fsimg, depends):
    meta = json.load(open(os.path.join(outdir, "cases.json")))
    runs = parse_log(log)
    dep = dict(d.split("=", 1) for d in depends)
    rows, passed, failed, lines = [], 0, 0, []
    for fs in ("vfat", "exfat", "ntfs3", "isofs"):
        for driver in DRIVERS:
            imgs = [n for n, m in meta.items() if m["fs"] == fs and "order" in
                    m["entries"][0]]
            # A driver of the run (DEPENDS names it) must have results.
            if not imgs or "%s/%s" % (driver, fs) not in dep:
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
                img = os.path.join(outdir, "scratch-%s-%s.img" % (driver, fs))
                p, f = judge_writes(fs, driver, w, img, fsimg, rows)
                passed, failed = passed + p, failed + f
            lines.append("fs-experiments: %s %s: names %d, lost %d, aliased %d, "
                         "truncated %d, unrepresentable %d, depends=%s"
                         % (fs, driver, t.names, t.lost, t.aliased, t.truncated,
                            t.unrep, dep.get("%s/%s" % (driver, fs), "?")))
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
    elif len(sys.argv) == 4 and sys.argv[1] == "craft-exfat":
        craft_exfat(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "selftest":
        n = ntfs_selftest(sys.argv[2], sys.argv[3])
        print("fsimg selftest: %d passed, %d failed" % (3 - n, n))
        sys.exit(1 if n else 0)
    elif len(sys.argv) == 6 and sys.argv[1] == "writes":
        writes(*sys.argv[2:6])
    elif len(sys.argv) >= 5 and sys.argv[1] == "report":
        sys.exit(0 if report(*sys.argv[2:5], sys.argv[5:]) else 1)
    else:
        sys.exit(__doc__)
