// SPDX-License-Identifier: GPL-2.0
/*
 * gen_vectors - turn the field-case TSV files into a C table for the
 * /dev/utfconv vector tests (run on the build host)
 *
 * Input rows: id, direction, policy, input_hex, expected_hex, kind.
 * A '|' in input_hex marks a write() boundary. expected_hex is the whole
 * output, or ERROR:EILSEQ@N / ERROR:EINVAL@N for a strict failure at
 * absolute byte offset N; the output expected before such a failure is
 * the conversion of the first N input bytes, computed here.
 *
 * Besides each row as written, it derives:
 *  - a skip row from every replace row (its output without U+FFFD), unless
 *    the file has a skip row of its own for that id and direction;
 *  - the other byte order of every UTF-16 side (output units swapped for
 *    UTF-8 -> UTF-16, input units swapped for UTF-16 -> UTF-8);
 *  - UTF-16 (byte order from the BOM) input rows: LE and BE input behind
 *    a BOM (offsets move by 2), and BE input without a BOM.
 *
 * Output: a header defining utfconv_vecs[] and one
 * FIXTURE_VARIANT_ADD(vec, NAME) per row, for the kselftest harness.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/utfconv.h>

#include "utfconv_dirs.h"

#define MAX_BYTES	256
#define MAX_VECS	4096

struct vec {
	char id[32];
	char what[160];
	char derived[64];
	char dname[16];
	unsigned int dir;
	unsigned int policy;
	unsigned char in[MAX_BYTES];
	size_t in_bytes;
	size_t cuts[MAX_BYTES];
	size_t ncuts;
	unsigned char out[4 * MAX_BYTES];
	size_t out_bytes;
	int err;			/* 0, EILSEQ or EINVAL */
	unsigned long long err_offset;
	long long replacements;		/* -1: not known */
};

static struct vec vecs[MAX_VECS];
static size_t nvecs;

static const struct {
	const char *name;
	const char *cname;
	unsigned int dir;
} dirs[] = {
	{ "utf8-to-utf16le", "u8_u16le", TEST_DIR_UTF8_TO_UTF16LE },
	{ "utf8-to-utf16be", "u8_u16be", TEST_DIR_UTF8_TO_UTF16BE },
	{ "utf16le-to-utf8", "u16le_u8", TEST_DIR_UTF16LE_TO_UTF8 },
	{ "utf16be-to-utf8", "u16be_u8", TEST_DIR_UTF16BE_TO_UTF8 },
	{ "utf16-to-utf8", "u16_u8", TEST_DIR_UTF16_TO_UTF8 },
};

static const char *const policies[] = {
	[UTFCONV_POLICY_STRICT]		= "strict",
	[UTFCONV_POLICY_REPLACE]	= "replace",
	[UTFCONV_POLICY_SKIP]		= "skip",
	[UTFCONV_POLICY_WTF8]		= "wtf8",
};

static const char *file;
static int line;

static void die(const char *what)
{
	fprintf(stderr, "gen_vectors: %s:%d: %s\n", file, line, what);
	exit(1);
}

static bool out_is_utf16(unsigned int dir)
{
	return dir == TEST_DIR_UTF8_TO_UTF16LE ||
	       dir == TEST_DIR_UTF8_TO_UTF16BE;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static size_t parse_hex(const char *s, unsigned char *buf, size_t cap,
			size_t *cuts, size_t *ncuts)
{
	size_t n = 0;

	if (ncuts)
		*ncuts = 0;
	if (!strcmp(s, "-"))
		return 0;
	while (*s) {
		int hi, lo;

		if (*s == '|') {
			if (!cuts)
				die("'|' in an output");
			cuts[(*ncuts)++] = n;
			s++;
			continue;
		}
		hi = hexval(s[0]);
		lo = hi < 0 ? -1 : hexval(s[1]);
		if (hi < 0 || lo < 0 || n == cap)
			die("bad hex");
		buf[n++] = (unsigned char)(hi << 4 | lo);
		s += 2;
	}
	return n;
}

/*
 * Decode one generalized code point (surrogates allowed, as WTF-8 writes
 * them) of the input of @v starting at *@pos; returns -1 at a malformed
 * or truncated sequence. Only used on input known to be valid.
 */
static long next_cp(const unsigned char *in, size_t len, size_t *pos,
		    unsigned int dir, bool le)
{
	size_t p = *pos;

	if (!out_is_utf16(dir)) {
		unsigned int u, u2;

		if (p + 2 > len)
			return -1;
		u = le ? in[p] | in[p + 1] << 8 : in[p] << 8 | in[p + 1];
		*pos = p + 2;
		if (u >= 0xD800 && u <= 0xDBFF && p + 4 <= len) {
			u2 = le ? in[p + 2] | in[p + 3] << 8 :
				  in[p + 2] << 8 | in[p + 3];
			if (u2 >= 0xDC00 && u2 <= 0xDFFF) {
				*pos = p + 4;
				return 0x10000 + ((u - 0xD800) << 10) +
				       (u2 - 0xDC00);
			}
		}
		return u;
	} else {
		unsigned char b = in[p];
		unsigned int n, cp, i;

		if (b < 0x80)
			n = 1, cp = b;
		else if (b >= 0xC2 && b <= 0xDF)
			n = 2, cp = b & 0x1F;
		else if (b >= 0xE0 && b <= 0xEF)
			n = 3, cp = b & 0x0F;
		else if (b >= 0xF0 && b <= 0xF4)
			n = 4, cp = b & 0x07;
		else
			return -1;
		if (p + n > len)
			return -1;
		for (i = 1; i < n; i++) {
			if ((in[p + i] & 0xC0) != 0x80)
				return -1;
			cp = cp << 6 | (in[p + i] & 0x3F);
		}
		*pos = p + n;
		return cp;
	}
}

static size_t put_cp(unsigned char *out, unsigned long cp, unsigned int dir)
{
	unsigned int units[2], n = 1, i;

	if (!out_is_utf16(dir)) {
		if (cp < 0x80) {
			out[0] = (unsigned char)cp;
			return 1;
		}
		if (cp < 0x800) {
			out[0] = (unsigned char)(0xC0 | cp >> 6);
			out[1] = (unsigned char)(0x80 | (cp & 0x3F));
			return 2;
		}
		if (cp < 0x10000) {
			out[0] = (unsigned char)(0xE0 | cp >> 12);
			out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
			out[2] = (unsigned char)(0x80 | (cp & 0x3F));
			return 3;
		}
		out[0] = (unsigned char)(0xF0 | cp >> 18);
		out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
		out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		out[3] = (unsigned char)(0x80 | (cp & 0x3F));
		return 4;
	}
	units[0] = (unsigned int)cp;
	if (cp >= 0x10000) {
		units[0] = 0xD800 + ((unsigned int)(cp - 0x10000) >> 10);
		units[1] = 0xDC00 + ((unsigned int)(cp - 0x10000) & 0x3FF);
		n = 2;
	}
	for (i = 0; i < n; i++) {
		if (dir == TEST_DIR_UTF8_TO_UTF16LE) {
			out[2 * i] = units[i] & 0xFF;
			out[2 * i + 1] = units[i] >> 8;
		} else {
			out[2 * i] = units[i] >> 8;
			out[2 * i + 1] = units[i] & 0xFF;
		}
	}
	return 2 * n;
}

/* The output for the first @v->err_offset input bytes (a valid prefix). */
static void prefix_output(struct vec *v)
{
	size_t pos = 0, end = (size_t)v->err_offset;
	bool le = v->dir == TEST_DIR_UTF16LE_TO_UTF8;

	if (v->dir == TEST_DIR_UTF16_TO_UTF8 && end >= 2) {
		if (v->in[0] == 0xFF && v->in[1] == 0xFE)
			le = true, pos = 2;
		else if (v->in[0] == 0xFE && v->in[1] == 0xFF)
			pos = 2;
	}
	v->out_bytes = 0;
	while (pos < end) {
		long cp = next_cp(v->in, end, &pos, v->dir, le);

		if (cp < 0)
			die("the input before the error offset is not valid");
		v->out_bytes += put_cp(v->out + v->out_bytes,
				       (unsigned long)cp, v->dir);
	}
}

static struct vec *add(const struct vec *src)
{
	if (nvecs == MAX_VECS)
		die("too many vectors");
	vecs[nvecs] = *src;
	return &vecs[nvecs++];
}

static bool is_fffd(const struct vec *v, size_t i)
{
	const unsigned char *o = v->out + i;

	switch (v->dir) {
	case TEST_DIR_UTF8_TO_UTF16LE:
		return i + 2 <= v->out_bytes && o[0] == 0xFD && o[1] == 0xFF;
	case TEST_DIR_UTF8_TO_UTF16BE:
		return i + 2 <= v->out_bytes && o[0] == 0xFF && o[1] == 0xFD;
	default:
		return i + 3 <= v->out_bytes && o[0] == 0xEF &&
		       o[1] == 0xBF && o[2] == 0xBD;
	}
}

static size_t count_fffd(const struct vec *v)
{
	size_t step = out_is_utf16(v->dir) ? 2 : 1, n = 0, i;

	for (i = 0; i < v->out_bytes; i += step)
		n += is_fffd(v, i);
	return n;
}

static void drop_fffd(struct vec *v)
{
	size_t step = out_is_utf16(v->dir) ? 2 : 1, i = 0, o = 0;

	while (i < v->out_bytes) {
		if (is_fffd(v, i)) {
			i += out_is_utf16(v->dir) ? 2 : 3;
			continue;
		}
		memmove(v->out + o, v->out + i, step);
		o += step;
		i += step;
	}
	v->out_bytes = o;
}

static void swap_units(unsigned char *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2) {
		unsigned char t = buf[i];

		buf[i] = buf[i + 1];
		buf[i + 1] = t;
	}
}

static void set_dir(struct vec *v, unsigned int dir, const char *how)
{
	size_t i;

	v->dir = dir;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (dirs[i].dir == dir)
			snprintf(v->dname, sizeof(v->dname), "%s",
				 dirs[i].cname);
	if (how)
		snprintf(v->derived, sizeof(v->derived), "%s", how);
}

static void add_bom(struct vec *v, bool le)
{
	size_t i;

	if (v->in_bytes + 2 > MAX_BYTES)
		die("input too long");
	memmove(v->in + 2, v->in, v->in_bytes);
	v->in[0] = le ? 0xFF : 0xFE;
	v->in[1] = le ? 0xFE : 0xFF;
	v->in_bytes += 2;
	for (i = 0; i < v->ncuts; i++)
		v->cuts[i] += 2;
	if (v->err)
		v->err_offset += 2;
}

/* Emit @base and its other-byte-order and UTF-16 (BOM) relatives. */
static void emit_with_orders(const struct vec *base)
{
	struct vec v;
	unsigned char le_in[MAX_BYTES], be_in[MAX_BYTES];

	add(base);
	switch (base->dir) {
	case TEST_DIR_UTF8_TO_UTF16LE:
	case TEST_DIR_UTF8_TO_UTF16BE:
		v = *base;
		swap_units(v.out, v.out_bytes);
		set_dir(&v, base->dir == TEST_DIR_UTF8_TO_UTF16LE ?
			TEST_DIR_UTF8_TO_UTF16BE :
			TEST_DIR_UTF8_TO_UTF16LE, "other byte order");
		add(&v);
		return;
	case TEST_DIR_UTF16LE_TO_UTF8:
	case TEST_DIR_UTF16BE_TO_UTF8:
		memcpy(le_in, base->in, base->in_bytes);
		memcpy(be_in, base->in, base->in_bytes);
		if (base->dir == TEST_DIR_UTF16LE_TO_UTF8)
			swap_units(be_in, base->in_bytes);
		else
			swap_units(le_in, base->in_bytes);

		v = *base;
		if (base->dir == TEST_DIR_UTF16LE_TO_UTF8) {
			memcpy(v.in, be_in, v.in_bytes);
			set_dir(&v, TEST_DIR_UTF16BE_TO_UTF8,
				"other byte order");
		} else {
			memcpy(v.in, le_in, v.in_bytes);
			set_dir(&v, TEST_DIR_UTF16LE_TO_UTF8,
				"other byte order");
		}
		add(&v);

		v = *base;
		memcpy(v.in, le_in, v.in_bytes);
		add_bom(&v, true);
		set_dir(&v, TEST_DIR_UTF16_TO_UTF8, "UTF-16 with LE BOM");
		snprintf(v.dname, sizeof(v.dname), "u16bomle_u8");
		add(&v);

		v = *base;
		memcpy(v.in, be_in, v.in_bytes);
		add_bom(&v, false);
		set_dir(&v, TEST_DIR_UTF16_TO_UTF8, "UTF-16 with BE BOM");
		snprintf(v.dname, sizeof(v.dname), "u16bombe_u8");
		add(&v);

		if (base->in_bytes >= 2 &&
		    ((be_in[0] == 0xFE && be_in[1] == 0xFF) ||
		     (be_in[0] == 0xFF && be_in[1] == 0xFE)))
			return;
		v = *base;
		memcpy(v.in, be_in, v.in_bytes);
		set_dir(&v, TEST_DIR_UTF16_TO_UTF8,
			"UTF-16 without BOM (big-endian)");
		add(&v);
		return;
	default:
		return;
	}
}

static struct vec rows[MAX_VECS];
static size_t nrows;

static void read_tsv(const char *path)
{
	char buf[2048];
	FILE *f = fopen(path, "r");

	file = path;
	line = 0;
	if (!f) {
		perror(path);
		exit(1);
	}
	while (fgets(buf, sizeof(buf), f)) {
		char *field[6], *s = buf, *e;
		struct vec *v;
		size_t i, nf = 0;

		line++;
		buf[strcspn(buf, "\r\n")] = 0;
		if (!buf[0] || buf[0] == '#' || !strncmp(buf, "id\t", 3))
			continue;
		while (nf < 6) {
			field[nf++] = s;
			s = strchr(s, '\t');
			if (!s)
				break;
			*s++ = 0;
		}
		if (nf < 5)
			die("too few fields");
		if (nrows == MAX_VECS)
			die("too many rows");
		v = &rows[nrows++];
		memset(v, 0, sizeof(*v));
		snprintf(v->id, sizeof(v->id), "%s", field[0]);
		snprintf(v->what, sizeof(v->what), "%s",
			 nf > 5 ? field[5] : "");
		for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
			if (!strcmp(field[1], dirs[i].name))
				break;
		if (i == sizeof(dirs) / sizeof(dirs[0]))
			die("unknown direction");
		set_dir(v, dirs[i].dir, NULL);
		for (i = 0; i < 4; i++)
			if (!strcmp(field[2], policies[i]))
				break;
		if (i == 4)
			die("unknown policy");
		v->policy = (unsigned int)i;
		v->in_bytes = parse_hex(field[3], v->in, MAX_BYTES, v->cuts,
					&v->ncuts);
		if (!strncmp(field[4], "ERROR:", 6)) {
			if (!strncmp(field[4] + 6, "EILSEQ@", 7))
				v->err = EILSEQ;
			else if (!strncmp(field[4] + 6, "EINVAL@", 7))
				v->err = EINVAL;
			else
				die("unknown error kind");
			v->err_offset = strtoull(strchr(field[4], '@') + 1,
						 &e, 10);
			if (*e || v->err_offset > v->in_bytes)
				die("bad error offset");
			prefix_output(v);
		} else {
			v->out_bytes = parse_hex(field[4], v->out,
						 sizeof(v->out), NULL, NULL);
		}
		v->replacements = v->policy == UTFCONV_POLICY_REPLACE ?
				  (long long)count_fffd(v) :
				  v->policy == UTFCONV_POLICY_SKIP ? -1 : 0;
	}
	fclose(f);
}

static bool has_row(const char *id, unsigned int dir, unsigned int policy)
{
	size_t i;

	for (i = 0; i < nrows; i++)
		if (!strcmp(rows[i].id, id) && rows[i].dir == dir &&
		    rows[i].policy == policy)
			return true;
	return false;
}

static void print_bytes(const char *name, size_t i, const unsigned char *b,
			size_t n)
{
	size_t j;

	printf("static const unsigned char %s_%zu[] = {", name, i);
	for (j = 0; j < n; j++)
		printf("%s0x%02x,", j % 12 ? " " : "\n\t", b[j]);
	printf("%s};\n", n ? "\n" : " 0 ");
}

int main(int argc, char **argv)
{
	size_t i, j;
	int a;

	if (argc < 2) {
		fprintf(stderr, "usage: gen_vectors FILE.tsv... > vectors.h\n");
		return 2;
	}
	for (a = 1; a < argc; a++)
		read_tsv(argv[a]);

	for (i = 0; i < nrows; i++) {
		struct vec v;

		emit_with_orders(&rows[i]);
		if (rows[i].policy != UTFCONV_POLICY_REPLACE ||
		    has_row(rows[i].id, rows[i].dir, UTFCONV_POLICY_SKIP))
			continue;
		v = rows[i];
		v.policy = UTFCONV_POLICY_SKIP;
		drop_fffd(&v);
		snprintf(v.derived, sizeof(v.derived),
			 "skip: replace row without U+FFFD");
		emit_with_orders(&v);
	}

	printf("/* Generated by gen_vectors from");
	for (a = 1; a < argc; a++)
		printf(" %s", strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 :
		       argv[a]);
	printf(". Do not edit. */\n\n");
	for (i = 0; i < nvecs; i++) {
		print_bytes("utfconv_vec_in", i, vecs[i].in, vecs[i].in_bytes);
		print_bytes("utfconv_vec_out", i, vecs[i].out,
			    vecs[i].out_bytes);
		printf("static const size_t utfconv_vec_cuts_%zu[] = {", i);
		for (j = 0; j < vecs[i].ncuts; j++)
			printf(" %zu,", vecs[i].cuts[j]);
		printf("%s};\n", vecs[i].ncuts ? " " : " 0 ");
	}
	printf("\nstatic const struct utfconv_vec utfconv_vecs[] = {\n");
	for (i = 0; i < nvecs; i++) {
		const struct vec *v = &vecs[i];

		printf("\t{\n\t\t.name = \"%s_%s_%s\",\n", v->id, v->dname,
		       policies[v->policy]);
		printf("\t\t.what = \"%s%s%s\",\n", v->what,
		       v->derived[0] ? "; derived: " : "", v->derived);
		printf("\t\t.direction = %u, .policy = %u,\n", v->dir,
		       v->policy);
		printf("\t\t.in = utfconv_vec_in_%zu, .in_bytes = %zu,\n", i,
		       v->in_bytes);
		printf("\t\t.cuts = utfconv_vec_cuts_%zu, .ncuts = %zu,\n", i,
		       v->ncuts);
		printf("\t\t.out = utfconv_vec_out_%zu, .out_bytes = %zu,\n", i,
		       v->out_bytes);
		printf("\t\t.err = %s, .err_offset = %llu,\n",
		       v->err == EILSEQ ? "EILSEQ" :
		       v->err == EINVAL ? "EINVAL" : "0", v->err_offset);
		printf("\t\t.replacements = %lld,\n\t},\n", v->replacements);
	}
	printf("};\n\n");
	for (i = 0; i < nvecs; i++)
		printf("FIXTURE_VARIANT_ADD(vec, %s_%s_%s) { .v = &utfconv_vecs[%zu] };\n",
		       vecs[i].id, vecs[i].dname, policies[vecs[i].policy], i);
	return 0;
}
