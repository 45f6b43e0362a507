// SPDX-License-Identifier: GPL-2.0
/*
 * fsimg: list and rewrite the UTF-16 file names of a filesystem image.
 *
 * The filesystems' own tools (mkfs.vfat and mtools, mkfs.exfat, xorriso)
 * refuse to write names that are not well-formed UTF-16, such as a lone
 * lead or trail surrogate or a reversed pair, yet the on-disk formats allow
 * any 16-bit code units and such names are met in the wild. fsimg takes an
 * image made by those tools, finds a directory entry by its name and writes
 * other code units of the same count in its place, recomputing what the
 * format derives from the name (the exFAT name hash and entry-set
 * checksum; the order of a JFS dtree leaf and the directory index table
 * that points at its positions). It never changes the layout: the entry
 * keeps its slots. NTFS images are only listed: ntfs-3g writes any code
 * units itself.
 *
 *   fsimg list   vfat|exfat|joliet|jfs|udf|ntfs IMAGE
 *   fsimg short  vfat IMAGE
 *   fsimg rename vfat|exfat|joliet|jfs|udf IMAGE FROM TO
 *
 * Names on the command line are UTF-8 in which \uXXXX stands for one code
 * unit (any value, a surrogate included) and \\ for a backslash. "list"
 * prints one line per name: the code units in hex, space separated;
 * "short" adds to each long name of a vfat image, after a tab, its short
 * (8.3) name as Linux shows it (NAME.EXT, lower case where the entry's
 * case bits say so), which vfat lists when it cannot translate the long
 * name. Only
 * the root directory of vfat, exFAT, JFS and NTFS images is searched;
 * Joliet directories are searched recursively. JFS names are read from
 * the fileset's root inode (found through the aggregate inode table and
 * the fileset's inode map) and its dtree, in the dtree's order; a rename
 * sorts its leaf again and is refused in a directory of more than one
 * leaf. NTFS names are read from the
 * root's $I30 index (its $INDEX_ROOT and the $INDEX_ALLOCATION blocks its
 * $BITMAP marks in use, with the update sequence fix-ups undone), each
 * checked against the $FILE_NAME attribute in the file's MFT record; DOS
 * (8.3) names and the metadata files are left out, and the order is the
 * index's node by node, not the collation order. A Joliet file name's ";1" version
 * suffix is part of its name. Exit status 0 on success, 1 when the name is
 * missing or not unique or the image is not of the given kind, 2 on a
 * usage or I/O error.
 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_UNITS	512	/* longer than any name the formats allow */

struct image {
	uint8_t *p;
	size_t size;
};

struct name {
	uint16_t u[MAX_UNITS];
	size_t n;
};

/* What to do with each name found: list it, or rewrite @from to @to. */
struct job {
	const struct name *from;
	const struct name *to;
	int matches;
	int short_names;
};

static uint16_t get16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

static uint32_t get32(const uint8_t *p)
{
	return get16(p) | (uint32_t)get16(p + 2) << 16;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

static int fail(const char *what)
{
	fprintf(stderr, "fsimg: %s\n", what);
	return 1;
}

/* Bytes [off, off + len) lie inside the image. */
static int in_image(const struct image *img, uint64_t off, uint64_t len)
{
	return off <= img->size && len <= img->size - off;
}

/* Append the UTF-16 form of code point @cp to @nm; 0 when it fits. */
static int name_push(struct name *nm, uint32_t cp)
{
	if (cp >= 0x10000) {
		if (nm->n + 2 > MAX_UNITS)
			return -1;
		cp -= 0x10000;
		nm->u[nm->n++] = 0xd800 | cp >> 10;
		nm->u[nm->n++] = 0xdc00 | (cp & 0x3ff);
		return 0;
	}
	if (nm->n + 1 > MAX_UNITS)
		return -1;
	nm->u[nm->n++] = cp;
	return 0;
}

/*
 * One UTF-8 sequence of @s (at most @len bytes) to a code point; returns
 * its length, 0 when ill-formed (the Unicode Standard, ch. 3, table 3-7).
 */
static int utf8_decode(const uint8_t *s, size_t len, uint32_t *cp)
{
	uint32_t c = s[0];
	int n, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, c &= 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, c &= 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, c &= 0x07;
	else
		return 0;
	if ((size_t)n > len)
		return 0;
	for (i = 1; i < n; i++) {
		uint8_t lo = 0x80, hi = 0xbf;

		if (i == 1 && n == 3 && s[0] == 0xe0)
			lo = 0xa0;
		if (i == 1 && n == 3 && s[0] == 0xed)
			hi = 0x9f;
		if (i == 1 && n == 4 && s[0] == 0xf0)
			lo = 0x90;
		if (i == 1 && n == 4 && s[0] == 0xf4)
			hi = 0x8f;
		if (s[i] < lo || s[i] > hi)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	*cp = c;
	return n;
}

/* Parse a command-line name (UTF-8 with \uXXXX escapes) into @nm. */
static int parse_name(const char *arg, struct name *nm)
{
	const uint8_t *s = (const uint8_t *)arg;
	size_t len = strlen(arg), i = 0;

	nm->n = 0;
	while (i < len) {
		uint32_t cp;
		int k;

		if (s[i] == '\\' && i + 1 < len && s[i + 1] == '\\') {
			cp = '\\';
			k = 2;
		} else if (s[i] == '\\' && i + 6 <= len && s[i + 1] == 'u') {
			char hex[5], *end;

			memcpy(hex, s + i + 2, 4);
			hex[4] = 0;
			cp = strtoul(hex, &end, 16);
			if (*end)
				return fail("bad \\u escape");
			k = 6;
		} else {
			k = utf8_decode(s + i, len - i, &cp);
			if (!k)
				return fail("name is not UTF-8");
		}
		if (name_push(nm, cp))
			return fail("name too long");
		i += k;
	}
	return 0;
}

static void print_name(const struct name *nm)
{
	size_t i;

	for (i = 0; i < nm->n; i++)
		printf("%s%04X", i ? " " : "", nm->u[i]);
}

static int name_eq(const struct name *a, const struct name *b)
{
	return a->n == b->n && !memcmp(a->u, b->u, a->n * sizeof(a->u[0]));
}

/*
 * Offer the name @nm found on disk to @job: returns 1 when the caller is to
 * write @job->to in its place.
 */
static int job_visit(struct job *job, const struct name *nm)
{
	if (!job->from) {
		print_name(nm);
		if (!job->short_names)
			printf("\n");
		return 0;
	}
	if (!name_eq(nm, job->from))
		return 0;
	job->matches++;
	return job->matches == 1;
}

/* ---- vfat: the long-name (LFN) slots of the root directory -------------- */

/* Byte offsets of the 13 code units of an LFN slot. */
static const uint8_t lfn_off[13] = {
	1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30
};

struct fat {
	uint32_t bps, spc, first_data, fat_off, root_sec, root_secs, root_clus;
};

static int fat_geometry(const struct image *img, struct fat *f)
{
	const uint8_t *b = img->p;
	uint32_t rsvd, nfats, fatsz, root_ent;

	if (img->size < 512 || b[510] != 0x55 || b[511] != 0xaa)
		return fail("no FAT boot sector");
	f->bps = get16(b + 11);
	f->spc = b[13];
	rsvd = get16(b + 14);
	nfats = b[16];
	root_ent = get16(b + 17);
	fatsz = get16(b + 22) ? get16(b + 22) : get32(b + 36);
	if (f->bps < 512 || f->bps > 4096 || !f->spc || !nfats)
		return fail("bad FAT geometry");
	f->fat_off = rsvd * f->bps;
	f->root_sec = rsvd + nfats * fatsz;
	f->root_secs = (root_ent * 32 + f->bps - 1) / f->bps;
	f->first_data = f->root_sec + f->root_secs;
	f->root_clus = root_ent ? 0 : get32(b + 44);
	return 0;
}

/* Print the short name of entry @e as fs/fat's fat_parse_short() shows it. */
static void print_short(const uint8_t *e)
{
	int n, x, i;

	for (n = 8; n > 0 && e[n - 1] == ' '; n--)
		;
	for (x = 3; x > 0 && e[8 + x - 1] == ' '; x--)
		;
	printf("\t");
	for (i = 0; i < n; i++)
		putchar(e[12] & 0x08 ? tolower(e[i]) : e[i]);
	if (x)
		putchar('.');
	for (i = 0; i < x; i++)
		putchar(e[12] & 0x10 ? tolower(e[8 + i]) : e[8 + i]);
	printf("\n");
}

/* Visit the LFN of the directory entries in [off, off + len). */
static int lfn_scan(struct image *img, uint64_t off, uint64_t len,
		    struct job *job)
{
	uint64_t i;

	if (!in_image(img, off, len))
		return fail("directory outside the image");
	for (i = 0; i + 32 <= len; i += 32) {
		uint8_t *e = img->p + off + i;
		unsigned int slots = e[0] & 0x3f, s, k;
		struct name nm = { .n = 0 };

		if (e[0] == 0)
			break;
		if (e[11] != 0x0f || e[0] == 0xe5 || !(e[0] & 0x40) || !slots)
			continue;
		if (i + 32 * (slots + 1) > len)
			return fail("LFN slots cross the end of a cluster");
		/* Slots are stored last first: slot s is at e + 32 * (slots - s). */
		for (s = 1; s <= slots; s++) {
			const uint8_t *se = e + 32 * (slots - s);

			for (k = 0; k < 13; k++)
				nm.u[nm.n++] = get16(se + lfn_off[k]);
		}
		for (k = 0; k < nm.n && nm.u[k]; k++)
			;
		nm.n = k;
		if (job_visit(job, &nm)) {
			for (k = 0; k < nm.n; k++) {
				unsigned int sl = k / 13 + 1;

				put16(e + 32 * (slots - sl) + lfn_off[k % 13],
				      job->to->u[k]);
			}
		}
		if (job->short_names)
			print_short(e + 32 * slots);
		i += 32 * slots;
	}
	return 0;
}

static int vfat_walk(struct image *img, struct job *job)
{
	struct fat f;
	uint32_t clus, hops = 0;

	if (fat_geometry(img, &f))
		return 1;
	if (!f.root_clus)
		return lfn_scan(img, (uint64_t)f.root_sec * f.bps,
				(uint64_t)f.root_secs * f.bps, job);
	/* FAT32: the root directory is a cluster chain (one scan per cluster). */
	for (clus = f.root_clus; clus >= 2 && clus < 0x0ffffff8; hops++) {
		uint64_t sec = f.first_data + (uint64_t)(clus - 2) * f.spc;

		if (hops > 65536 || !in_image(img, f.fat_off + 4ull * clus, 4))
			return fail("bad FAT32 root chain");
		if (lfn_scan(img, sec * f.bps, (uint64_t)f.spc * f.bps, job))
			return 1;
		clus = get32(img->p + f.fat_off + 4ull * clus) & 0x0fffffff;
	}
	return 0;
}

/* ---- exFAT: file entry sets of the root directory ----------------------- */

struct exfat {
	uint64_t heap, fat;
	uint32_t csize, root;
	uint16_t upcase[65536];
};

static uint64_t exfat_clus_off(const struct exfat *x, uint32_t c)
{
	return x->heap + (uint64_t)(c - 2) * x->csize;
}

/* Next cluster of @c in the FAT, 0 at the end of the chain or on error. */
static uint32_t exfat_next(const struct image *img, const struct exfat *x,
			   uint32_t c)
{
	uint32_t n;

	if (!in_image(img, x->fat + 4ull * c, 4))
		return 0;
	n = get32(img->p + x->fat + 4ull * c);
	return n >= 2 && n < 0xfffffff7 ? n : 0;
}

/* exFAT's rotate-right-and-add checksum of the spec, 16 bits. */
static uint16_t exfat_sum(uint16_t sum, uint8_t byte)
{
	return (uint16_t)(((sum & 1) ? 0x8000 : 0) + (sum >> 1) + byte);
}

/* Load the up-case table (spec 7.2.5: runs of identity as FFFF, count). */
static int exfat_load_upcase(const struct image *img, struct exfat *x,
			     const uint8_t *e)
{
	uint64_t off = exfat_clus_off(x, get32(e + 20)), len = get32(e + 24);
	uint32_t ch = 0, i;

	for (i = 0; i < 65536; i++)
		x->upcase[i] = i;
	if (!in_image(img, off, len))
		return fail("up-case table outside the image");
	for (i = 0; i + 2 <= len && ch < 65536; i += 2) {
		uint16_t v = get16(img->p + off + i);

		if (v == 0xffff && i + 4 <= len) {
			i += 2;
			ch += get16(img->p + off + i);
			continue;
		}
		x->upcase[ch++] = v;
	}
	return 0;
}

static int exfat_geometry(const struct image *img, struct exfat *x)
{
	const uint8_t *b = img->p;
	uint32_t bps;

	if (img->size < 512 || memcmp(b + 3, "EXFAT   ", 8))
		return fail("no exFAT boot sector");
	if (b[108] < 9 || b[108] > 12 || b[109] > 25 - b[108])
		return fail("bad exFAT geometry");
	bps = 1u << b[108];
	x->fat = (uint64_t)get32(b + 80) * bps;
	x->heap = (uint64_t)get32(b + 88) * bps;
	x->csize = bps << b[109];
	x->root = get32(b + 96);
	return 0;
}

/* Rewrite the name of the entry set at @e (@n secondary entries). */
static void exfat_write_name(const struct exfat *x, uint8_t *e, unsigned int n,
			     const struct name *to)
{
	uint16_t hash = 0, sum = 0;
	unsigned int k, i;

	for (k = 0; k < to->n; k++) {
		uint16_t up = x->upcase[to->u[k]];

		put16(e + 64 + 32 * (k / 15) + 2 + 2 * (k % 15), to->u[k]);
		hash = exfat_sum(exfat_sum(hash, up & 0xff), up >> 8);
	}
	put16(e + 32 + 4, hash);
	for (i = 0; i < 32 * (n + 1); i++)
		if (i != 2 && i != 3)
			sum = exfat_sum(sum, e[i]);
	put16(e + 2, sum);
}

/* Visit the names of the entry sets in one cluster at @off. */
static int exfat_scan(struct image *img, struct exfat *x, uint64_t off,
		      struct job *job, int *end)
{
	uint64_t i;

	if (!in_image(img, off, x->csize))
		return fail("directory outside the image");
	for (i = 0; i + 32 <= x->csize; i += 32) {
		uint8_t *e = img->p + off + i;
		unsigned int n = e[1], k;
		struct name nm = { .n = 0 };

		if (e[0] == 0) {
			*end = 1;
			return 0;
		}
		if (e[0] == 0x82 && exfat_load_upcase(img, x, e))
			return 1;
		if (e[0] != 0x85)
			continue;
		if (n < 2 || i + 32 * (n + 1) > x->csize || e[32] != 0xc0)
			return fail("entry set crosses a cluster or is malformed");
		for (k = 0; k < e[32 + 3] && k < 15 * (n - 1); k++)
			nm.u[nm.n++] = get16(e + 64 + 32 * (k / 15) + 2 + 2 * (k % 15));
		if (job_visit(job, &nm))
			exfat_write_name(x, e, n, job->to);
		i += 32 * n;
	}
	return 0;
}

static int exfat_walk(struct image *img, struct job *job)
{
	static struct exfat x;
	uint32_t c, hops = 0;
	int end = 0;

	if (exfat_geometry(img, &x))
		return 1;
	for (c = x.root; c && !end; c = exfat_next(img, &x, c))
		if (++hops > 65536 || exfat_scan(img, &x, exfat_clus_off(&x, c), job, &end))
			return 1;
	return 0;
}

/* ---- Joliet: directory records of the supplementary volume --------------- */

#define ISO_SECTOR	2048

static int joliet_dir(struct image *img, uint32_t lba, uint32_t size,
		      struct job *job, int depth);

/* Visit one directory record at @r; recurse into a subdirectory. */
static int joliet_record(struct image *img, uint8_t *r, struct job *job,
			 int depth)
{
	unsigned int nlen = r[32], k;
	struct name nm = { .n = 0 };

	if (nlen == 1 && r[33] <= 1)
		return 0;	/* "." and ".." */
	for (k = 0; k + 1 < nlen; k += 2)
		nm.u[nm.n++] = r[33 + k] << 8 | r[34 + k];
	if (job_visit(job, &nm)) {
		for (k = 0; k < nm.n; k++) {
			r[33 + 2 * k] = job->to->u[k] >> 8;
			r[34 + 2 * k] = job->to->u[k] & 0xff;
		}
	}
	if (r[25] & 2)
		return joliet_dir(img, get32(r + 2), get32(r + 10), job, depth + 1);
	return 0;
}

static int joliet_dir(struct image *img, uint32_t lba, uint32_t size,
		      struct job *job, int depth)
{
	uint64_t off = (uint64_t)lba * ISO_SECTOR, i = 0;

	if (depth > 8 || !in_image(img, off, size))
		return fail("bad Joliet directory");
	while (i < size) {
		uint8_t *r = img->p + off + i;

		if (r[0] == 0) {
			/* Records do not cross sectors: go to the next one. */
			i = (i / ISO_SECTOR + 1) * ISO_SECTOR;
			continue;
		}
		if (r[0] < 34 || i + r[0] > size || 33u + r[32] > r[0])
			return fail("bad Joliet directory record");
		if (joliet_record(img, r, job, depth))
			return 1;
		i += r[0];
	}
	return 0;
}

static int joliet_walk(struct image *img, struct job *job)
{
	uint64_t off;

	/* Volume descriptors from sector 16 to the terminator (type 255). */
	for (off = 16 * ISO_SECTOR; in_image(img, off, ISO_SECTOR); off += ISO_SECTOR) {
		const uint8_t *d = img->p + off;

		if (memcmp(d + 1, "CD001", 5) || d[0] == 255)
			break;
		/* Escape sequences %/@, %/C, %/E: UCS-2 levels 1 to 3. */
		if (d[0] == 2 && d[88] == '%' && d[89] == '/' &&
		    (d[90] == '@' || d[90] == 'C' || d[90] == 'E'))
			return joliet_dir(img, get32(d + 156 + 2),
					  get32(d + 156 + 10), job, 0);
	}
	return fail("no Joliet volume descriptor");
}

/* ---- NTFS: the $I30 index of the root directory --------------------------- */

#define NTFS_ROOT	5	/* MFT record of the root directory */
#define NTFS_FIRST_USER	24	/* records below are metadata or reserved */
#define NTFS_MAX_RUNS	64
#define NTFS_MAX_REC	65536

struct ntfs_run {
	uint64_t vcn, lcn, len;	/* in clusters */
};

struct ntfs_runs {
	struct ntfs_run r[NTFS_MAX_RUNS];
	unsigned int n;
};

struct ntfs {
	uint32_t csize, rec_size, indx_size;
	struct ntfs_runs mft;
};

static uint64_t getn(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * Undo the update sequence array of a multi-sector record (MFT "FILE" or
 * index "INDX") copied into @rec: the last two bytes of each stride must
 * hold the update sequence number; their real values are in the array.
 */
static int ntfs_fixup(uint8_t *rec, uint32_t size, const char *magic)
{
	uint32_t usa = get16(rec + 4), cnt = get16(rec + 6), i, stride;

	if (memcmp(rec, magic, 4) || cnt < 2 || size % (cnt - 1) ||
	    usa + 2 * cnt > size)
		return fail("bad NTFS record or update sequence array");
	stride = size / (cnt - 1);
	for (i = 1; i < cnt; i++) {
		uint8_t *end = rec + i * stride - 2;

		if (get16(end) != get16(rec + usa))
			return fail("NTFS update sequence mismatch (torn record)");
		memcpy(end, rec + usa + 2 * i, 2);
	}
	return 0;
}

/* Decode the mapping pairs at @p (at most @len bytes) into @runs. */
static int ntfs_runlist(const uint8_t *p, uint32_t len, struct ntfs_runs *runs)
{
	uint64_t vcn = 0;
	int64_t lcn = 0;
	uint32_t i = 0;

	runs->n = 0;
	while (i < len && p[i]) {
		unsigned int nl = p[i] & 0xf, no = p[i] >> 4;
		uint64_t off;

		if (!nl || nl > 8 || no > 8 || i + 1 + nl + no > len ||
		    runs->n == NTFS_MAX_RUNS)
			return fail("bad NTFS run list");
		off = no ? getn(p + i + 1 + nl, no) : 0;
		if (no && no < 8 && (off >> (8 * no - 1)) & 1)
			off |= ~0ull << (8 * no);	/* sign extension */
		lcn += (int64_t)off;
		runs->r[runs->n++] = (struct ntfs_run){
			vcn, no ? (uint64_t)lcn : 0, getn(p + i + 1, nl) };
		vcn += getn(p + i + 1, nl);
		i += 1 + nl + no;
	}
	return 0;
}

/* Image offset of byte @pos of the non-resident stream @runs, 0: a hole. */
static uint64_t ntfs_stream_off(const struct ntfs *fs, const struct ntfs_runs *runs,
				uint64_t pos)
{
	uint64_t vcn = pos / fs->csize;
	unsigned int i;

	for (i = 0; i < runs->n; i++)
		if (vcn >= runs->r[i].vcn && vcn < runs->r[i].vcn + runs->r[i].len)
			return runs->r[i].lcn ?
			       (runs->r[i].lcn + vcn - runs->r[i].vcn) * fs->csize +
			       pos % fs->csize : 0;
	return 0;
}

/*
 * Image offset of the @size bytes at @pos of the stream @runs when they lie
 * in one stretch of the image (a record may span clusters), 0 otherwise.
 */
static uint64_t ntfs_span(const struct ntfs *fs, const struct ntfs_runs *runs,
			  uint64_t pos, uint32_t size)
{
	uint64_t off = ntfs_stream_off(fs, runs, pos);

	return off && ntfs_stream_off(fs, runs, pos + size - 1) == off + size - 1 ?
	       off : 0;
}

/* Copy @size bytes at @off into @buf and undo its fix-ups. */
static int ntfs_read_rec(const struct image *img, uint64_t off, uint32_t size,
			 const char *magic, uint8_t *buf)
{
	if (!off || !in_image(img, off, size))
		return fail("NTFS record not mapped or outside the image");
	memcpy(buf, img->p + off, size);
	return ntfs_fixup(buf, size, magic);
}

/* MFT record @rno into @buf (fs->rec_size bytes). */
static int ntfs_mft_rec(const struct image *img, const struct ntfs *fs,
			uint64_t rno, uint8_t *buf)
{
	uint64_t pos = rno * fs->rec_size;

	return ntfs_read_rec(img, ntfs_span(fs, &fs->mft, pos, fs->rec_size),
			     fs->rec_size, "FILE", buf);
}

/*
 * The next attribute of type @type after @a in MFT record @rec (the first
 * with @a NULL), named @name (ASCII, NULL: unnamed or any for $FILE_NAME).
 */
static const uint8_t *ntfs_attr(const uint8_t *rec, uint32_t size,
				const uint8_t *a, uint32_t type, const char *name)
{
	uint32_t off = a ? (uint32_t)(a - rec) + get32(a + 4) : get16(rec + 0x14);

	while (off + 16 <= size && get32(rec + off) != 0xffffffff) {
		const uint8_t *at = rec + off;
		uint32_t alen = get32(at + 4), k;
		int same = 1;

		if (alen < 16 || off + alen > size)
			return NULL;
		if (get32(at) == type && name) {
			same = at[9] == strlen(name) &&
			       get16(at + 10) + 2u * at[9] <= alen;
			for (k = 0; same && k < at[9]; k++)
				same = get16(at + get16(at + 10) + 2 * k) ==
				       (uint8_t)name[k];
		}
		if (get32(at) == type && same)
			return at;
		off += alen;
	}
	return NULL;
}

/* Value of the resident attribute @a, NULL when it is not resident. */
static const uint8_t *ntfs_value(const uint8_t *a, uint32_t *len)
{
	if (a[8] || get16(a + 20) + (uint64_t)get32(a + 16) > get32(a + 4))
		return NULL;
	*len = get32(a + 16);
	return a + get16(a + 20);
}

/* Run list of the non-resident attribute @a. */
static int ntfs_attr_runs(const uint8_t *a, struct ntfs_runs *runs)
{
	if (!a || !a[8] || get16(a + 32) >= get32(a + 4))
		return fail("NTFS attribute is not non-resident");
	return ntfs_runlist(a + get16(a + 32), get32(a + 4) - get16(a + 32), runs);
}

/* The name of $FILE_NAME value @fn (@len bytes) into @nm. */
static int ntfs_fname(const uint8_t *fn, uint32_t len, struct name *nm)
{
	unsigned int k;

	if (len < 66 || 66u + 2 * fn[64] > len)
		return fail("bad NTFS $FILE_NAME");
	nm->n = fn[64];
	for (k = 0; k < nm->n; k++)
		nm->u[k] = get16(fn + 66 + 2 * k);
	return 0;
}

/*
 * Check that MFT record @rno holds a $FILE_NAME whose parent is the root,
 * of the namespace of the index key @key, named @nm: the key is a copy of
 * that attribute, and a driver may read either.
 */
static int ntfs_check_home(const struct image *img, const struct ntfs *fs,
			   uint64_t rno, const uint8_t *key, const struct name *nm)
{
	static uint8_t rec[NTFS_MAX_REC];
	const uint8_t *a = NULL, *v;
	struct name home;
	uint32_t len;

	if (ntfs_mft_rec(img, fs, rno, rec))
		return 1;
	while ((a = ntfs_attr(rec, fs->rec_size, a, 0x30, NULL))) {
		v = ntfs_value(a, &len);
		if (!v || ntfs_fname(v, len, &home))
			return 1;
		if (v[65] == key[65] && getn(v, 6) == NTFS_ROOT &&
		    name_eq(&home, nm))
			return 0;
	}
	return fail("NTFS index entry has no matching $FILE_NAME in its record");
}

/* Visit the entries of the index node whose header is at @hdr (@len bytes). */
static int ntfs_node(const struct image *img, const struct ntfs *fs,
		     const uint8_t *hdr, uint32_t len, struct job *job)
{
	uint32_t off = get32(hdr), end = get32(hdr + 4);

	if (end > len || off > end)
		return fail("bad NTFS index header");
	while (off + 16 <= end) {
		const uint8_t *e = hdr + off;
		uint32_t elen = get16(e + 8), klen = get16(e + 10);
		struct name nm;

		if (elen < 16 || off + elen > end || 16u + klen > elen)
			return fail("bad NTFS index entry");
		if (get16(e + 12) & 2)
			break;	/* the last entry has no key */
		if (ntfs_fname(e + 16, klen, &nm))
			return 1;
		/* DOS names are second names; metadata files are not listed. */
		if (e[16 + 65] != 2 && getn(e, 6) >= NTFS_FIRST_USER) {
			if (ntfs_check_home(img, fs, getn(e, 6), e + 16, &nm))
				return 1;
			job_visit(job, &nm);
		}
		off += elen;
	}
	return 0;
}

/* The INDX blocks of the root's $I30 that its $BITMAP marks in use. */
static int ntfs_blocks(const struct image *img, const struct ntfs *fs,
		       const uint8_t *rec, struct job *job)
{
	static uint8_t blk[NTFS_MAX_REC];
	const uint8_t *bm, *ia = ntfs_attr(rec, fs->rec_size, NULL, 0xa0, "$I30");
	struct ntfs_runs runs;
	uint32_t bmlen = 0, b;

	if (!ia)
		return 0;	/* a small directory: the root node only */
	bm = ntfs_attr(rec, fs->rec_size, NULL, 0xb0, "$I30");
	bm = bm ? ntfs_value(bm, &bmlen) : NULL;
	if (!bm || ntfs_attr_runs(ia, &runs))
		return fail("NTFS $I30 without a resident $BITMAP or run list");
	for (b = 0; b < 8 * bmlen; b++) {
		if (!(bm[b / 8] >> (b % 8) & 1))
			continue;
		if (ntfs_read_rec(img, ntfs_span(fs, &runs,
						 (uint64_t)b * fs->indx_size,
						 fs->indx_size),
				  fs->indx_size, "INDX", blk) ||
		    ntfs_node(img, fs, blk + 0x18, fs->indx_size - 0x18, job))
			return 1;
	}
	return 0;
}

/* Bytes of an MFT or index record: clusters, or 2^-v bytes when negative. */
static uint32_t ntfs_unit_size(int8_t v, uint32_t csize)
{
	if (v < 0)
		return -v < 32 ? 1u << -v : 0;
	return (uint32_t)v * csize;
}

static int ntfs_walk(struct image *img, struct job *job)
{
	static uint8_t rec[NTFS_MAX_REC];
	static struct ntfs fs;
	const uint8_t *b = img->p, *ir;
	uint32_t bps, len;

	if (img->size < 512 || memcmp(b + 3, "NTFS    ", 8))
		return fail("no NTFS boot sector");
	bps = get16(b + 11);
	fs.csize = bps * b[13];
	fs.rec_size = ntfs_unit_size((int8_t)b[64], fs.csize);
	fs.indx_size = ntfs_unit_size((int8_t)b[68], fs.csize);
	if (bps < 512 || bps > 4096 || !fs.csize || fs.rec_size < 1024 ||
	    fs.rec_size > NTFS_MAX_REC || fs.indx_size < 1024 ||
	    fs.indx_size > NTFS_MAX_REC || b[64] == 0 || b[68] == 0)
		return fail("bad NTFS geometry");
	/*
	 * $MFT's own $DATA maps the MFT; its record 0 is at the boot sector's
	 * LCN: map that far, then read the real run list.
	 */
	fs.mft = (struct ntfs_runs){ .n = 1, .r = { { 0, getn(b + 48, 8), 1 +
		fs.rec_size / fs.csize } } };
	if (ntfs_mft_rec(img, &fs, 0, rec) ||
	    ntfs_attr_runs(ntfs_attr(rec, fs.rec_size, NULL, 0x80, NULL), &fs.mft) ||
	    ntfs_mft_rec(img, &fs, NTFS_ROOT, rec))
		return 1;
	ir = ntfs_attr(rec, fs.rec_size, NULL, 0x90, "$I30");
	ir = ir ? ntfs_value(ir, &len) : NULL;
	if (!ir || len < 32)
		return fail("NTFS root without a resident $INDEX_ROOT");
	return ntfs_node(img, &fs, ir + 16, len - 16, job) ||
	       ntfs_blocks(img, &fs, rec, job);
}

/* ---- JFS: the dtree of the fileset's root directory ----------------------- */

#define JFS_SUPER	0x8000	/* primary superblock */
#define JFS_AITBL	0xb000	/* first extent of the aggregate inode table */
#define JFS_DISIZE	512	/* on-disk inode */
#define JFS_FILESET_I	16	/* aggregate inode of the fileset's inode map */
#define JFS_ROOT_I	2	/* fileset inode of the root directory */
#define JFS_DIR_INDEX	0x00200000	/* superblock flag: 11 units a head */
#define JFS_DTROOT	224	/* offset of di_dtroot (and di_xtroot) */
#define BT_ROOT		0x01
#define BT_LEAF		0x02

struct jfs {
	uint8_t *dir;	/* the directory's inode */
	uint32_t bsize;
	unsigned int head_len;	/* units in a leaf entry's head slot */
	unsigned int leaves;	/* leaf nodes seen */
};

/* Address (blocks) and length (blocks) of the pxd_t at @p. */
static uint64_t jfs_pxd_addr(const uint8_t *p)
{
	return (uint64_t)(get32(p) >> 24) << 32 | get32(p + 4);
}

static uint32_t jfs_pxd_len(const uint8_t *p)
{
	return get32(p) & 0xffffff;
}

/*
 * Image offset of logical block @lblk of the file whose xtree root is at
 * @xt (a leaf: the small files of an image; @max entries); 0 when not
 * mapped.
 */
static uint64_t jfs_xt_block(const struct image *img, const struct jfs *fs,
			     const uint8_t *xt, unsigned int max, uint64_t lblk)
{
	unsigned int i, n = get16(xt + 18);

	if (!(xt[16] & BT_LEAF) || n > max)
		return 0;
	for (i = 2; i < n; i++) {
		const uint8_t *x = xt + 16 * i;
		uint64_t off = (uint64_t)x[3] << 32 | get32(x + 4);

		if (lblk >= off && lblk < off + jfs_pxd_len(x + 8) &&
		    in_image(img, (jfs_pxd_addr(x + 8) + lblk - off) * fs->bsize,
			     fs->bsize))
			return (jfs_pxd_addr(x + 8) + lblk - off) * fs->bsize;
	}
	return 0;
}

/* The name of the leaf entry at slot @si of the node @slots (@n slots). */
static int jfs_entry_name(const struct jfs *fs, uint8_t *slots, unsigned int n,
			  unsigned int si, struct name *nm, uint8_t **unit,
			  size_t max)
{
	uint8_t *e = slots + 32 * si;
	unsigned int left = e[5], k, len = fs->head_len;
	int next = (int8_t)e[4], hops = 0;

	nm->n = 0;
	for (k = 0; k < len && left; k++, left--) {
		unit[nm->n] = e + 6 + 2 * k;
		nm->u[nm->n] = get16(unit[nm->n]);
		nm->n++;
	}
	while (left) {
		if (next < 0 || (unsigned int)next >= n || ++hops > 32 ||
		    nm->n + 15 > max)
			return fail("bad JFS name slot chain");
		e = slots + 32 * next;
		for (k = 0; k < 15 && left; k++, left--) {
			unit[nm->n] = e + 2 + 2 * k;
			nm->u[nm->n] = get16(unit[nm->n]);
			nm->n++;
		}
		next = (int8_t)e[0];
	}
	return 0;
}

/* dtCompare(): unit by unit, then the shorter name first. */
static int jfs_cmp(const struct name *a, const struct name *b)
{
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++)
		if (a->u[i] != b->u[i])
			return a->u[i] < b->u[i] ? -1 : 1;
	return a->n < b->n ? -1 : a->n > b->n;
}

/*
 * The directory index table entry of cookie @index (>= 2): inline in the
 * directory's inode while next_index <= 14, else in the file its xtree
 * (six slots where the inline table was) maps; NULL when not mapped.
 */
static uint8_t *jfs_dir_index(struct image *img, const struct jfs *fs,
			      uint32_t index)
{
	uint64_t off = (uint64_t)(index - 2) * 8, blk;

	if (index < 2 || index >= get32(fs->dir + 120))
		return NULL;
	if (get32(fs->dir + 120) <= 14)
		return index - 2 < 12 ? fs->dir + 128 + off : NULL;
	blk = jfs_xt_block(img, fs, fs->dir + 128, 6,
			   off / 4096 * (4096 / fs->bsize));
	return blk ? img->p + blk + off % 4096 : NULL;
}

/*
 * Sort the sorted-entry table @stbl (@cnt entries) of a leaf again after
 * a rename, and point the directory index table at the new positions:
 * its entries hold a position in @stbl (add_index()), not a slot.
 */
static int jfs_resort(struct image *img, const struct jfs *fs, uint8_t *slots,
		      unsigned int n, int8_t *stbl, unsigned int cnt,
		      uint64_t page)
{
	static struct name a, b;
	uint8_t *unit[MAX_UNITS], *dt;
	unsigned int i, j;
	int8_t t;

	for (i = 1; i < cnt; i++) {
		for (j = i; j > 0; j--) {
			if (jfs_entry_name(fs, slots, n, stbl[j - 1], &a, unit,
					   MAX_UNITS) ||
			    jfs_entry_name(fs, slots, n, stbl[j], &b, unit,
					   MAX_UNITS))
				return 1;
			if (jfs_cmp(&a, &b) <= 0)
				break;
			t = stbl[j];
			stbl[j] = stbl[j - 1];
			stbl[j - 1] = t;
		}
	}
	/* Without a directory index (OS/2's format) there is nothing to do. */
	for (i = 0; i < cnt && fs->head_len == 11; i++) {
		dt = jfs_dir_index(img, fs, get32(slots + 32 * stbl[i] + 28));
		if (!dt || dt[1] != 1 || dt[3] != page >> 32 ||
		    get32(dt + 4) != (uint32_t)page)
			return fail("bad JFS directory index table entry");
		dt[2] = i;
	}
	return 0;
}

static int jfs_node(struct image *img, struct jfs *fs, uint8_t *node,
		    unsigned int n, int8_t *stbl, uint64_t page, struct job *job,
		    int depth);

/* Visit the dtree page @pxd (external node). */
static int jfs_page(struct image *img, struct jfs *fs, const uint8_t *pxd,
		    struct job *job, int depth)
{
	uint64_t off = jfs_pxd_addr(pxd) * fs->bsize;
	uint64_t size = (uint64_t)jfs_pxd_len(pxd) * fs->bsize;
	uint8_t *p = img->p + off;

	if (depth > 8 || size < 512 || size > 4096 || !in_image(img, off, size) ||
	    p[21] * 32u + 128 > size)
		return fail("bad JFS dtree page");
	return jfs_node(img, fs, p, size / 32, (int8_t *)(p + 32 * p[21]),
			jfs_pxd_addr(pxd), job, depth);
}

/*
 * Visit the entries of the node @node of @n slots, at block @page (0: the
 * root in the inode), in the order of @stbl.
 */
static int jfs_node(struct image *img, struct jfs *fs, uint8_t *node,
		    unsigned int n, int8_t *stbl, uint64_t page, struct job *job,
		    int depth)
{
	unsigned int cnt = node[17], i;
	int renamed = 0;

	/* The root's table has 8 entries, a page's as many as its slots. */
	if (cnt > n || (!page && cnt > 8))
		return fail("bad JFS dtree node");
	if (!(node[16] & BT_LEAF)) {
		for (i = 0; i < cnt; i++)
			if (stbl[i] < 1 || (unsigned int)stbl[i] >= n ||
			    jfs_page(img, fs, node + 32 * stbl[i], job, depth + 1))
				return 1;
		return 0;
	}
	fs->leaves++;
	for (i = 0; i < cnt; i++) {
		static struct name nm;
		uint8_t *unit[MAX_UNITS];
		size_t k;

		if (stbl[i] < 1 || (unsigned int)stbl[i] >= n ||
		    jfs_entry_name(fs, node, n, stbl[i], &nm, unit, MAX_UNITS))
			return fail("bad JFS leaf entry");
		if (job_visit(job, &nm)) {
			for (k = 0; k < nm.n; k++)
				put16(unit[k], job->to->u[k]);
			renamed = 1;
		}
	}
	/* dtSearch() bisects the table: it must stay in name order. */
	return renamed ? jfs_resort(img, fs, node, n, stbl, cnt, page) : 0;
}

static int jfs_walk(struct image *img, struct job *job)
{
	static struct jfs fs;
	const uint8_t *sb = img->p + JFS_SUPER, *agg, *iag;
	uint64_t iag_off, ino_off;
	uint8_t *root;
	int ret;

	if (!in_image(img, JFS_AITBL, 32 * JFS_DISIZE) || memcmp(sb, "JFS1", 4))
		return fail("no JFS superblock");
	fs.bsize = get32(sb + 16);
	fs.head_len = get32(sb + 36) & JFS_DIR_INDEX ? 11 : 13;
	fs.leaves = 0;
	if (fs.bsize < 512 || fs.bsize > 4096 || fs.bsize & (fs.bsize - 1))
		return fail("bad JFS block size");
	/* The fileset's inode map: page 0 its control, page 1 its first IAG. */
	agg = img->p + JFS_AITBL + JFS_FILESET_I * JFS_DISIZE;
	iag_off = jfs_xt_block(img, &fs, agg + JFS_DTROOT, 18, 4096 / fs.bsize);
	if (!iag_off || !in_image(img, iag_off, 4096))
		return fail("JFS fileset inode map not mapped");
	iag = img->p + iag_off;
	/* inoext[0]: the extent of inodes 0..31 */
	ino_off = jfs_pxd_addr(iag + 3072) * fs.bsize + JFS_ROOT_I * JFS_DISIZE;
	if (!in_image(img, ino_off, JFS_DISIZE))
		return fail("JFS root inode outside the image");
	root = img->p + ino_off;
	fs.dir = root;
	if (get32(root + 4) != JFS_FILESET_I || get32(root + 8) != JFS_ROOT_I)
		return fail("JFS root inode not found");
	ret = jfs_node(img, &fs, root + JFS_DTROOT, 9,
		       (int8_t *)(root + JFS_DTROOT + 24), 0, job, 0);
	/* A rename re-sorts one leaf: names must not cross into another. */
	if (!ret && job->from && job->matches && fs.leaves > 1)
		return fail("rename in a JFS directory of more than one leaf");
	return ret;
}

/* ---- UDF: file identifier descriptors of the root directory -------------- */

#define UDF_MAX_EXTENTS	64
#define UDF_MAX_DIR	(1 << 20)

struct udf_extent {
	uint64_t off, len;	/* bytes in the image */
};

struct udf {
	uint32_t bsize, part;	/* block size, partition start (blocks) */
	struct udf_extent ext[UDF_MAX_EXTENTS];
	unsigned int n;
	uint64_t size;		/* bytes of directory data */
};

/* CRC-ITU-T (polynomial 0x1021, initial 0, most significant bit first). */
static uint16_t udf_crc(const uint8_t *p, size_t len)
{
	uint16_t crc = 0;
	int k;

	while (len--) {
		crc ^= *p++ << 8;
		for (k = 0; k < 8; k++)
			crc = crc & 0x8000 ? (uint16_t)(crc << 1) ^ 0x1021 :
			      (uint16_t)(crc << 1);
	}
	return crc;
}

/* The descriptor tag at @t (ECMA-167 3/7.2) with identifier @id, whole. */
static int udf_tag_ok(const uint8_t *t, size_t room, uint16_t id)
{
	unsigned int i;
	uint8_t sum = 0;

	if (room < 16 || get16(t) != id)
		return 0;
	for (i = 0; i < 16; i++)
		if (i != 4)
			sum += t[i];
	return sum == t[4] && 16u + get16(t + 10) <= room &&
	       udf_crc(t + 16, get16(t + 10)) == get16(t + 8);
}

/* Recompute the CRC and the checksum of the tag at @t. */
static void udf_tag_fix(uint8_t *t)
{
	unsigned int i;
	uint8_t sum = 0;

	put16(t + 8, udf_crc(t + 16, get16(t + 10)));
	for (i = 0; i < 16; i++)
		if (i != 4)
			sum += t[i];
	t[4] = sum;
}

/* Image offset of logical block @lbn of the partition, 0 outside it. */
static uint64_t udf_block(const struct image *img, const struct udf *fs,
			  uint64_t lbn)
{
	uint64_t off = (fs->part + lbn) * fs->bsize;

	return in_image(img, off, fs->bsize) ? off : 0;
}

/* Partition start and the FSD's block from the main volume descriptors. */
static int udf_volume(const struct image *img, struct udf *fs, uint32_t *fsd)
{
	static const uint32_t sizes[] = { 512, 1024, 2048, 4096 };
	const uint8_t *d = NULL;
	uint64_t vds = 0, vlen = 0, off;
	unsigned int i;
	int got = 0;

	for (i = 0; i < 4 && !vds; i++) {
		off = 256ull * sizes[i];
		if (in_image(img, off, 512) && udf_tag_ok(img->p + off, 512, 2) &&
		    get32(img->p + off + 12) == 256) {
			fs->bsize = sizes[i];
			vlen = get32(img->p + off + 16);
			vds = (uint64_t)get32(img->p + off + 20) * fs->bsize;
		}
	}
	if (!vds)
		return fail("no UDF anchor volume descriptor pointer");
	for (off = vds; off < vds + vlen && in_image(img, off, fs->bsize);
	     off += fs->bsize) {
		d = img->p + off;
		if (udf_tag_ok(d, fs->bsize, 5)) {
			fs->part = get32(d + 188);
			got |= 1;
		} else if (udf_tag_ok(d, fs->bsize, 6)) {
			if (get32(d + 212) != fs->bsize)
				return fail("UDF logical block size differs");
			*fsd = get32(d + 252);
			got |= 2;
		} else if (get16(d) == 8) {
			break;
		}
	}
	return got == 3 ? 0 : fail("no UDF partition or logical volume descriptor");
}

/* Add the allocation descriptors at @ad (@len bytes, type @type) to @fs. */
static int udf_extents(const struct image *img, struct udf *fs,
		       const uint8_t *ad, uint32_t len, unsigned int type)
{
	unsigned int step = type ? 16 : 8, i;

	for (i = 0; i + step <= len; i += step) {
		uint32_t elen = get32(ad + i) & 0x3fffffff;
		uint64_t off = udf_block(img, fs, get32(ad + i + 4));

		if (!elen)
			break;
		if (get32(ad + i) >> 30 || fs->n == UDF_MAX_EXTENTS || !off ||
		    !in_image(img, off, elen))
			return fail("bad UDF allocation descriptor");
		fs->ext[fs->n++] = (struct udf_extent){ off, elen };
	}
	return 0;
}

/* The extents of the root directory's data, from its (extended) FE. */
static int udf_root(const struct image *img, struct udf *fs)
{
	const uint8_t *e, *f;
	uint64_t off;
	uint32_t fsd = 0, lea, lad, ads;
	unsigned int type;

	if (udf_volume(img, fs, &fsd))
		return 1;
	off = udf_block(img, fs, fsd);
	if (!off || !udf_tag_ok(img->p + off, fs->bsize, 256))
		return fail("no UDF file set descriptor");
	f = img->p + off;
	off = udf_block(img, fs, get32(f + 404));
	e = off ? img->p + off : NULL;
	if (e && udf_tag_ok(e, fs->bsize, 261)) {
		lea = get32(e + 168), lad = get32(e + 172), ads = 176;
	} else if (e && udf_tag_ok(e, fs->bsize, 266)) {
		lea = get32(e + 208), lad = get32(e + 212), ads = 216;
	} else {
		return fail("no UDF file entry for the root directory");
	}
	fs->size = get32(e + 56) | (uint64_t)get32(e + 60) << 32;
	if ((uint64_t)ads + lea + lad > fs->bsize || fs->size > UDF_MAX_DIR)
		return fail("bad UDF file entry");
	type = get16(e + 34) & 7;
	fs->n = 0;
	if (type == 3) {	/* the data in the entry itself */
		fs->ext[fs->n++] = (struct udf_extent){ off + ads + lea, lad };
		return 0;
	}
	if (type > 1)
		return fail("UDF directory with extended allocation descriptors");
	return udf_extents(img, fs, e + ads + lea, lad, type);
}

/* Copy the directory data between the image and @buf, either way. */
static int udf_copy(struct image *img, const struct udf *fs, uint8_t *buf,
		    int to_image)
{
	uint64_t pos = 0;
	unsigned int i;

	for (i = 0; i < fs->n && pos < fs->size; i++) {
		uint64_t len = fs->ext[i].len;

		if (len > fs->size - pos)
			len = fs->size - pos;
		if (to_image)
			memcpy(img->p + fs->ext[i].off, buf + pos, len);
		else
			memcpy(buf + pos, img->p + fs->ext[i].off, len);
		pos += len;
	}
	return pos == fs->size ? 0 : fail("UDF directory shorter than its size");
}

/* Offer the name of the FID at @fid to @job; rewrite it if asked. */
static int udf_fid(uint8_t *fid, struct job *job, int *dirty)
{
	uint8_t *fi = fid + 38 + get16(fid + 36);
	unsigned int len = fid[19], k;
	struct name nm = { .n = 0 };

	if (fid[18] & 0x0c || !len)	/* deleted, or the parent */
		return 0;
	if ((fi[0] != 8 && fi[0] != 16) || (fi[0] == 16 && !(len & 1)))
		return fail("UDF name of an unknown compression or length");
	for (k = 1; k < len; k += fi[0] / 8)
		nm.u[nm.n++] = fi[0] == 8 ? fi[k] : fi[k] << 8 | fi[k + 1];
	if (!job_visit(job, &nm))
		return 0;
	for (k = 0; k < nm.n; k++) {
		if (fi[0] == 8 && job->to->u[k] > 0xff)
			return fail("UDF name in Latin-1 (compression 8): TO does not fit");
		if (fi[0] == 8)
			fi[1 + k] = job->to->u[k];
		else
			fi[1 + 2 * k] = job->to->u[k] >> 8, fi[2 + 2 * k] = job->to->u[k];
	}
	udf_tag_fix(fid);
	*dirty = 1;
	return 0;
}

static int udf_walk(struct image *img, struct job *job)
{
	static struct udf fs;
	static uint8_t buf[UDF_MAX_DIR];
	uint64_t pos = 0, flen;
	int dirty = 0;

	if (udf_root(img, &fs) || udf_copy(img, &fs, buf, 0))
		return 1;
	while (pos + 38 <= fs.size) {
		uint8_t *fid = buf + pos;

		flen = (38 + get16(fid + 36) + fid[19] + 3) & ~3u;
		if (pos + flen > fs.size || !udf_tag_ok(fid, fs.size - pos, 257))
			return fail("bad UDF file identifier descriptor");
		if (udf_fid(fid, job, &dirty))
			return 1;
		pos += flen;
	}
	return dirty ? udf_copy(img, &fs, buf, 1) : 0;
}

/* ---- main ---------------------------------------------------------------- */

static int map_image(const char *path, int writable, struct image *img)
{
	struct stat st;
	int fd = open(path, writable ? O_RDWR : O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		return 2;
	}
	img->size = st.st_size;
	img->p = mmap(NULL, img->size, PROT_READ | (writable ? PROT_WRITE : 0),
		      MAP_SHARED, fd, 0);
	close(fd);
	if (img->p == MAP_FAILED) {
		perror(path);
		return 2;
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: fsimg list vfat|exfat|joliet|jfs|udf|ntfs IMAGE\n"
			"       fsimg short vfat IMAGE\n"
			"       fsimg rename vfat|exfat|joliet|jfs|udf IMAGE FROM TO\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct name from, to;
	struct job job = { 0 };
	struct image img;
	int rename, ret;

	if (argc < 4)
		return usage();
	rename = !strcmp(argv[1], "rename");
	job.short_names = !strcmp(argv[1], "short");
	if (job.short_names && strcmp(argv[2], "vfat"))
		return usage();
	if (rename ? argc != 6 :
	    (strcmp(argv[1], "list") && !job.short_names) || argc != 4)
		return usage();
	if (rename) {
		if (parse_name(argv[4], &from) || parse_name(argv[5], &to))
			return 2;
		if (from.n != to.n)
			return fail("FROM and TO differ in code units") + 1;
		job.from = &from;
		job.to = &to;
	}
	ret = map_image(argv[3], rename, &img);
	if (ret)
		return ret;
	if (!strcmp(argv[2], "vfat"))
		ret = vfat_walk(&img, &job);
	else if (!strcmp(argv[2], "exfat"))
		ret = exfat_walk(&img, &job);
	else if (!strcmp(argv[2], "joliet"))
		ret = joliet_walk(&img, &job);
	else if (!strcmp(argv[2], "jfs"))
		ret = jfs_walk(&img, &job);
	else if (!strcmp(argv[2], "udf"))
		ret = udf_walk(&img, &job);
	else if (!strcmp(argv[2], "ntfs") && !rename)
		ret = ntfs_walk(&img, &job);
	else
		return usage();
	if (!ret && rename && job.matches != 1) {
		fprintf(stderr, "fsimg: %s: %d entries named %s\n", argv[3],
			job.matches, argv[4]);
		ret = 1;
	}
	if (rename && msync(img.p, img.size, MS_SYNC))
		ret = 2;
	munmap(img.p, img.size);
	return ret;
}
