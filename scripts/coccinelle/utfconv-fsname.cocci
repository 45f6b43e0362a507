// SPDX-License-Identifier: GPL-2.0
/// Make a filesystem translate its file names with utfconv instead of
/// fs/nls: the calls of utf8s_to_utf16s(), utf16s_to_utf8s() and
/// utf8_to_utf32() become the forms of <linux/utfconv.h> (the same
/// arguments and units and one more, the policy for unpaired surrogates;
/// they never truncate and never drop a unit), a private copy of
/// utf8s_to_utf16s() with the fs/nls signature is replaced too, and a
/// length taken from the UTF-16 to UTF-8 form, which fs/nls never made
/// negative, is checked before it is used.
///
/// The policy is the mount's: a filesystem takes it from its names=
/// mount option, which SmPL cannot add, so the calls it converts get the
/// default, UTFCONV_WTF8, and scripts/coccinelle/fs/<fs>.patch,
/// applied first, adds the option and converts the calls itself.
///
/// Tried on linux-6.12 fs/fat, fs/exfat, fs/ntfs3, fs/isofs, fs/jfs and
/// fs/udf (scripts/fs-modules.sh utfconv).
//
// Confidence: Moderate (read what it did: a caller that passes the size of
// its buffer as the UTF-16 length relies on the conversion stopping at
// the first U+0000 unit, as both fs/nls and utfconv do)
// Options: --no-includes --include-headers

virtual patch

@to16 depends on patch@
expression list args;
@@
- utf8s_to_utf16s(args)
+ utfconv_fsname_utf8s_to_utf16s(args, UTFCONV_WTF8)

@to8 depends on patch@
expression list args;
@@
- utf16s_to_utf8s(args)
+ utfconv_fsname_utf16s_to_utf8s(args, UTFCONV_WTF8)

// One character at a time (exFAT hashes and compares names so): the form
// that decodes a surrogate's three-byte form under the WTF-8 policy.
@to32 depends on patch@
expression list args;
@@
- utf8_to_utf32(args)
+ utfconv_fsname_utf8_to_utf32(args, UTFCONV_WTF8)

// A private copy of utf8s_to_utf16s() (ntfs3 keeps one that reports
// -ENAMETOOLONG, as utfconv does): its callers call utfconv and it goes.
@copy depends on patch@
identifier p, s, inlen, endian, pwcs, maxout;
typedef u8, wchar_t;
@@
static int p(const u8 *s, int inlen, enum utf16_endian endian,
	     wchar_t *pwcs, int maxout)
{ <+... utfconv_fsname_utf8_to_utf32(...) ...+> }

@depends on copy@
identifier copy.p;
@@
- static int p(...) { ... }

@copy_calls depends on copy@
identifier copy.p;
expression list args;
@@
- p(args)
+ utfconv_fsname_utf8s_to_utf16s(args, UTFCONV_WTF8)

// fs/nls returned no error here; utfconv returns -E2BIG when the name does
// not fit the buffer and, in its strict policy, -EILSEQ for an unpaired
// surrogate: give it to the caller before the length is used, unless the
// next statement looks at it.
@checked depends on patch@
identifier len;
expression list args;
position p;
statement S1, S2;
@@
len = utfconv_fsname_utf16s_to_utf8s@p(args);
(
if (len < 0) S1 else S2
|
if (len < 0) S1
|
if (len <= 0) S1 else S2
|
if (len <= 0) S1
)

@len8 depends on patch@
identifier f, len;
expression list args;
position p != checked.p;
@@
int f(...)
{
<...
len = utfconv_fsname_utf16s_to_utf8s@p(args);
+ if (len < 0)
+	return len;
...>
}

@header depends on to16 || to8 || to32 || copy_calls@
@@
#include <linux/nls.h>
+ #include <linux/utfconv.h>

// A file that has <linux/nls.h> through a header of its filesystem (fat):
// after its last <linux/...> include.
@header_last depends on (to16 || to8 || to32 || copy_calls) && !header@
@@
#include <linux/...>
+ #include <linux/utfconv.h>
