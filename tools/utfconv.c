// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv - convert text between UTF-8 and UTF-16 through /dev/utfconv
 *
 * The input is streamed: it is read in chunks (a regular file is mapped
 * in windows instead, so that the device copies it straight from the page
 * cache), written to the device with O_NONBLOCK, and the converted bytes
 * are read back as poll() reports them, so no file is ever held in memory
 * as a whole. At the end of the input the
 * stream is flushed (UTFCONV_IOC_FLUSH) and drained until read() returns 0.
 *
 * Output to a file (-o) goes to a temporary file beside it, renamed over it
 * at the end (as sed -i and sponge do), so that an output file which is
 * also an input is read whole before it is replaced, and no failed run
 * leaves a half-written file where the old one was.
 *
 * Exit status: 0 success, 1 invalid or incomplete input or an unsupported
 * conversion (as iconv), 2 usage error, 3 /dev/utfconv unavailable,
 * 4 other (I/O) error.
 */
#define _GNU_SOURCE	/* mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/utfconv.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#define UTFCONV_CLI_VERSION	"1.0"
#define UTFCONV_DEFAULT_DEVICE	"/dev/utfconv"

enum {
	EXIT_OK		= 0,
	EXIT_INPUT	= 1,	/* ill-formed or incomplete input */
	EXIT_UNSUPPORTED = 1,	/* unknown encoding or pair, as iconv */
	EXIT_USAGE	= 2,
	EXIT_NODEV	= 3,
	EXIT_IO		= 4,
};

/* Chunk sizes: small enough to stay streaming, large enough to be cheap. */
#define IN_CHUNK	(64 * 1024)
#define OUT_CHUNK	(64 * 1024)
/*
 * A regular input file is mapped this much at a time (MAP_POPULATE: its
 * page table is filled at once, not one fault per page as the device
 * copies from it), which saves read()'s copy of every input byte.
 */
#define MAP_WINDOW	(8 << 20)

/*
 * A progress line on standard error, when it is a terminal (and standard
 * output is not the same terminal), for inputs of at least this size.
 */
#define PROGRESS_MIN_BYTES	(16ULL << 20)
#define PROGRESS_PERIOD_NS	250000000LL

enum utfconv_enc {
	ENC_UTF8,
	ENC_UTF16LE,
	ENC_UTF16BE,
	ENC_UTF16,	/* in: byte order from the BOM; out: BOM, host order */
};

/* glibc's UTF-16 output: a BOM, then the text in the machine's byte order. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ENC_UTF16_OUT	ENC_UTF16BE
static const char utf16_bom[2] = { '\xfe', '\xff' };
#else
#define ENC_UTF16_OUT	ENC_UTF16LE
static const char utf16_bom[2] = { '\xff', '\xfe' };
#endif

static const struct {
	const char *name;
	enum utfconv_enc enc;
} encodings[] = {
	{ "UTF-8",	ENC_UTF8 },
	{ "UTF8",	ENC_UTF8 },
	{ "UTF-16LE",	ENC_UTF16LE },
	{ "UTF16LE",	ENC_UTF16LE },
	{ "UTF-16BE",	ENC_UTF16BE },
	{ "UTF16BE",	ENC_UTF16BE },
	{ "UTF-16",	ENC_UTF16 },
	{ "UTF16",	ENC_UTF16 },
};

static const char *const policy_names[] = {
	[UTFCONV_POLICY_STRICT]		= "strict",
	[UTFCONV_POLICY_REPLACE]	= "replace",
	[UTFCONV_POLICY_SKIP]		= "skip",
	[UTFCONV_POLICY_WTF8]		= "wtf8",
};

static const char *prog = "utfconv";
/* A progress line is on the terminal, without a newline: erase it first. */
static bool progress_line;

static void progress_erase(void)
{
	if (progress_line)
		fputs("\r\033[K", stderr);
	progress_line = false;
}

static void vmsg(const char *fmt, va_list ap)
{
	progress_erase();
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: utfconv -f FROM -t TO [OPTION...] [FILE...]\n"
"       utfconv -l | --list\n"
"Convert text between UTF-8 and UTF-16 with the utfconv kernel module\n"
"(/dev/utfconv).\n"
"\n"
"  -f, --from-code=FROM   input encoding: UTF-8, UTF-16LE, UTF-16BE or\n"
"                         UTF-16 (byte order from a leading BOM, which is\n"
"                         consumed; big-endian without one)\n"
"  -t, --to-code=TO       output encoding: UTF-8, UTF-16LE, UTF-16BE or\n"
"                         UTF-16 (a BOM, then the machine's byte order,\n"
"                         as glibc iconv; one side must be UTF-8, and\n"
"                         -f UTF-8 -t UTF-8 validates and copies)\n"
"  -c                     drop ill-formed input, as iconv -c: a character\n"
"                         cut off by the end of the input still fails\n"
"                         (--policy=skip drops that too)\n"
"  -s, --silent           accepted, as iconv's, and does nothing\n"
"      --policy=POLICY    on invalid input: strict (stop, the default),\n"
"                         replace (U+FFFD), skip (drop), wtf8 (lone\n"
"                         surrogates round-trip, otherwise strict)\n"
"      --strip-bom        drop a leading byte order mark from the input\n"
"      --bom              start the output with a byte order mark\n"
"      --check            validate only, write no output\n"
"      --stats            print the stream counters to stderr at the end\n"
"  -o, --output=OUT       write to OUT instead of standard output; OUT\n"
"                         may also be an input (see below)\n"
"  -l, --list             list the known encoding names (NAME//, one a\n"
"                         line, as glibc iconv -l)\n"
"      --help             show this help\n"
"      --version          show the version\n"
"\n"
"Encoding names are matched case-insensitively; iconv's spellings\n"
"(UTF8, UTF16LE, ...) are accepted; a \"//IGNORE\" suffix means -c, but\n"
"without -c it exits 1 when it dropped anything, as glibc iconv.\n"
"Without FILE, or with FILE \"-\", standard input is read. Several FILEs\n"
"are converted one after the other, each on its own, as glibc iconv does\n"
"(-t UTF-16 writes a BOM before each; a character cut off at the end of\n"
"a file is incomplete; error positions count from the start of the\n"
"file), until one fails.\n"
"On invalid input, all output converted before the error is written.\n"
"-o OUT writes a temporary file beside OUT and renames it over OUT at\n"
"the end; after invalid input OUT gets the output converted before the\n"
"error, unless there is none or OUT is also an input: then, and after\n"
"any other error, OUT is left as it was.\n"
"The device path can be overridden with UTFCONV_DEVICE. When standard\n"
"error is a terminal (and standard output is not) and the input files\n"
"total 16 MiB or more, a progress line is shown on standard error.\n"
"\n"
"Exit status:\n"
"  0  success\n"
"  1  illegal input sequence, or incomplete character at end of input;\n"
"     or an unsupported encoding or conversion\n"
"  2  usage error\n"
"  3  /dev/utfconv is not available (module not loaded)\n"
"  4  other error (cannot read input or write output)\n");
}

static int parse_encoding(const char *arg, enum utfconv_enc *enc,
			  bool *ignore)
{
	const char *slash = strstr(arg, "//");
	size_t len = slash ? (size_t)(slash - arg) : strlen(arg);
	size_t i;

	/* iconv suffixes, e.g. UTF-8//IGNORE or UTF-8//TRANSLIT,IGNORE */
	for (const char *s = slash; s && *s; ) {
		size_t n;

		s += strspn(s, "/,");
		n = strcspn(s, "/,");
		if (n == 6 && !strncasecmp(s, "IGNORE", 6))
			*ignore = true;
		else if (n && !(n == 8 && !strncasecmp(s, "TRANSLIT", 8)))
			return -1;
		s += n;
	}

	for (i = 0; i < ARRAY_SIZE(encodings); i++) {
		if (strlen(encodings[i].name) == len &&
		    !strncasecmp(arg, encodings[i].name, len)) {
			*enc = encodings[i].enc;
			return 0;
		}
	}
	return -1;
}

static int parse_policy(const char *arg)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(policy_names); i++)
		if (!strcasecmp(arg, policy_names[i]))
			return (int)i;
	return -1;
}

/*
 * The names, as glibc's iconv -l prints them when its output is not a
 * terminal (one NAME// a line, in its order), so that scripts that parse
 * that list parse this one. The usage text says what each means.
 */
static void list_encodings(void)
{
	static const char *const names[] = {
		"UTF-8", "UTF-16", "UTF-16BE", "UTF-16LE",
		"UTF8", "UTF16", "UTF16BE", "UTF16LE",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		printf("%s//\n", names[i]);
}

/* Write all of buf to fd, retrying on EINTR and short writes. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				struct pollfd p = { .fd = fd, .events = POLLOUT };

				poll(&p, 1, -1);
				continue;
			}
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The output file of -o. A regular file (or a new one) is written as a
 * temporary file in its directory and renamed over it at the end, so that
 * it is replaced at once or not at all; anything else (a device, a FIFO)
 * is written in place.
 */
struct outfile {
	const char *name;	/* as given */
	char *path;		/* the file replaced: name with symlinks resolved */
	int fd;
	bool direct;		/* not a regular file: written in place */
	bool existed;		/* path existed: its mode and owner are kept */
	bool is_input;		/* path is also an input (same st_dev, st_ino) */
	struct stat st;		/* of path, when it existed */
};

/* The temporary file: removed at exit and on a signal unless renamed. */
static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_live;

static void tmp_remove(void)
{
	if (tmp_live)
		unlink(tmp_path);
	tmp_live = 0;
}

static void tmp_signal(int sig)
{
	if (tmp_live)
		unlink(tmp_path);
	raise(sig);	/* SA_RESETHAND: now the default action */
}

static void tmp_cleanup_setup(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGQUIT };
	struct sigaction sa = { .sa_handler = tmp_signal,
				.sa_flags = SA_RESETHAND };
	size_t i;

	atexit(tmp_remove);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* Is st (the output file) one of the inputs ("-": standard input)? */
static bool out_is_input(const struct stat *st, char **files, int nfiles)
{
	struct stat in;
	int i;

	for (i = 0; i < (nfiles ? nfiles : 1); i++) {
		const char *name = nfiles ? files[i] : "-";
		int r = strcmp(name, "-") ? stat(name, &in) :
					    fstat(STDIN_FILENO, &in);

		if (!r && in.st_dev == st->st_dev && in.st_ino == st->st_ino)
			return true;
	}
	return false;
}

/* Create the temporary file beside o->path. Returns 0 or -1 (reported). */
static int out_open_tmp(struct outfile *o)
{
	const char *slash = strrchr(o->path, '/');
	int dlen = slash ? (int)(slash - o->path + 1) : 0;
	int n;

	n = snprintf(tmp_path, sizeof(tmp_path), "%.*s.%s.utfconv-XXXXXX",
		     dlen, o->path, o->path + dlen);
	if (n < 0 || (size_t)n >= sizeof(tmp_path)) {
		msg("cannot open output file `%s': %s", o->name,
		    strerror(ENAMETOOLONG));
		return -1;
	}
	tmp_cleanup_setup();
	o->fd = mkostemp(tmp_path, O_CLOEXEC);
	if (o->fd < 0) {
		msg("cannot create a temporary file beside `%s': %s",
		    o->name, strerror(errno));
		return -1;
	}
	tmp_live = 1;
	return 0;
}

/*
 * Open the output of -o NAME: find the file to replace (through a
 * symlink, as iconv writes through one) and whether it is an input, and
 * create its temporary file. Returns 0, or -1 after a message.
 */
static int out_open(struct outfile *o, const char *name, char **files,
		    int nfiles)
{
	struct stat lst;

	memset(o, 0, sizeof(*o));
	o->name = name;
	o->fd = -1;
	if (!lstat(name, &lst) && S_ISLNK(lst.st_mode))
		o->path = realpath(name, NULL);
	else
		o->path = strdup(name);
	if (!o->path) {
		msg("cannot open output file `%s': %s", name, strerror(errno));
		return -1;
	}
	if (stat(o->path, &o->st)) {
		if (errno == ENOENT)
			return out_open_tmp(o);
		msg("cannot open output file `%s': %s", name, strerror(errno));
		return -1;
	}
	o->existed = true;
	/* rename() needs no write permission on the file; iconv would. */
	if (access(o->path, W_OK)) {
		msg("cannot open output file `%s': %s", name, strerror(errno));
		return -1;
	}
	if (S_ISREG(o->st.st_mode)) {
		o->is_input = out_is_input(&o->st, files, nfiles);
		return out_open_tmp(o);
	}
	o->direct = true;
	o->fd = open(o->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (o->fd < 0) {
		msg("cannot open output file `%s': %s", name, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Give the temporary file the old file's owner and mode (a new file:
 * 0666 less the umask, as open() would), put it on disk and rename it
 * over the output. Returns 0 or -1 (reported; the temporary is removed
 * at exit).
 */
static int out_commit(struct outfile *o)
{
	mode_t mode;

	if (o->existed) {
		mode = o->st.st_mode & 07777;
		/* Not ours to give away: then no set-ID bits either. */
		if (fchown(o->fd, o->st.st_uid, o->st.st_gid))
			mode &= 0777;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	if (fchmod(o->fd, mode) || fsync(o->fd) || close(o->fd)) {
		o->fd = -1;
		msg("%s: %s", o->name, strerror(errno));
		return -1;
	}
	o->fd = -1;
	if (rename(tmp_path, o->path)) {
		msg("cannot replace `%s': %s", o->name, strerror(errno));
		return -1;
	}
	tmp_live = 0;
	return 0;
}

/*
 * End the output after a conversion that returned ret and wrote out_bytes.
 * The output replaces the file on success, and after invalid input when
 * there is some and the file is not an input (iconv too writes what came
 * before the error, and leaves the file alone when there is nothing);
 * otherwise the file is left as it was. Returns the exit status.
 */
static int out_finish(struct outfile *o, int ret, uint64_t out_bytes)
{
	if (o->direct) {
		if (close(o->fd) && ret == EXIT_OK) {
			msg("%s: %s", o->name, strerror(errno));
			ret = EXIT_IO;
		}
	} else if (ret == EXIT_OK ||
		   (ret == EXIT_INPUT && out_bytes && !o->is_input)) {
		if (out_commit(o))
			ret = EXIT_IO;
	} else {
		close(o->fd);
		tmp_remove();
		if (o->is_input && out_bytes)
			msg("`%s' left unchanged: it is also an input", o->name);
	}
	free(o->path);
	return ret;
}

struct conv {
	int dev;
	int out;		/* -1 with --check */
	const char *out_name;
	char *outbuf;
	uint64_t out_bytes;	/* bytes written to out */
	bool bom_pending;	/* -t UTF-16: a BOM goes before the first byte */
	bool bom_each;		/* -t UTF-16: bom_pending again for each file */
	bool pivot;		/* -f UTF-8 -t UTF-8: the stream writes UTF-16 */
	unsigned int pivot_policy;	/* of the way back to UTF-8 */
	size_t pivot_held;	/* bytes of pivot_in held for the next read */
	struct utfconv_status totals;	/* of the files before this one */
	bool iconv_skip;	/* -c or //IGNORE: iconv's exit status rules */
	bool ignore_fails;	/* //IGNORE without -c: exit 1 if it dropped any */
	bool eof_seen;		/* read() returned 0 after the flush */
	bool progress;		/* show a progress line on stderr */
	uint64_t in_total;	/* input size in bytes, for the progress line */
	uint64_t in_fed;	/* input bytes the device accepted */
	int64_t shown_ns;	/* when the progress line was last written */
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * Decide whether to show progress: stderr is a terminal, stdout is not
 * (or is not written), and the input files are regular files of at least
 * PROGRESS_MIN_BYTES together. Input of unknown size shows none.
 */
static void progress_setup(struct conv *c, char **files, int nfiles)
{
	struct stat sb;
	uint64_t total = 0;
	int i;

	if (!isatty(STDERR_FILENO))
		return;
	if (c->out == STDOUT_FILENO && isatty(STDOUT_FILENO))
		return;
	for (i = 0; i < (nfiles ? nfiles : 1); i++) {
		const char *name = nfiles ? files[i] : "-";
		int r = strcmp(name, "-") ? stat(name, &sb) :
					    fstat(STDIN_FILENO, &sb);

		if (r || !S_ISREG(sb.st_mode))
			return;
		total += (uint64_t)sb.st_size;
	}
	if (total < PROGRESS_MIN_BYTES)
		return;
	c->progress = true;
	c->in_total = total;
	c->shown_ns = now_ns();
}

/* Rewrite the progress line at most every PROGRESS_PERIOD_NS. */
static void progress_update(struct conv *c)
{
	int64_t t;

	if (!c->progress)
		return;
	t = now_ns();
	if (t - c->shown_ns < PROGRESS_PERIOD_NS)
		return;
	c->shown_ns = t;
	fprintf(stderr, "\r%s: %.1f of %.1f MiB (%u%%)", prog,
		c->in_fed / 1048576.0, c->in_total / 1048576.0,
		(unsigned int)(c->in_total ? 100 * c->in_fed / c->in_total : 0));
	progress_line = true;
}

/* Stop showing progress and erase the line. */
static void progress_end(struct conv *c)
{
	progress_erase();
	c->progress = false;
}

/*
 * Write n converted bytes to the output. -t UTF-16 puts its BOM before
 * the first of them, as glibc does: no output, no BOM. Exits on error.
 */
static void out_raw(struct conv *c, const char *buf, size_t n)
{
	if ((c->bom_pending &&
	     write_all(c->out, utf16_bom, sizeof(utf16_bom))) ||
	    write_all(c->out, buf, n)) {
		int e = errno;

		msg("%s: %s", c->out_name, strerror(e));
		exit(EXIT_IO);
	}
	c->out_bytes += (c->bom_pending ? sizeof(utf16_bom) : 0) + n;
	c->bom_pending = false;
}

/*
 * -f UTF-8 -t UTF-8 (validate and copy, as iconv does): the device only
 * converts between UTF-8 and UTF-16, so the stream converts the input to
 * UTF-16 in the machine's byte order under the policy asked for (strict
 * stops at the first error, -c drops, replace and wtf8 as for any pair;
 * the error positions are the stream's, in input bytes), and each piece
 * of its output goes back to UTF-8 with UTFCONV_IOC_CONVERT. That UTF-16
 * is well-formed (with lone surrogates only under wtf8, which the way
 * back keeps), so the way back cannot fail; it needs whole characters,
 * so a unit cut by the end of a read(), or a lead surrogate whose trail
 * has not come yet, waits in pivot_in for the next piece.
 */
#define PIVOT_HOLD	3
static char pivot_in[OUT_CHUNK + PIVOT_HOLD];
/* UTF-16 to UTF-8: at most three bytes for two. */
static char pivot_out[(OUT_CHUNK + PIVOT_HOLD) / 2 * 3];

/* Convert @len bytes of whole UTF-16 characters at @src and write them. */
static void pivot_convert(struct conv *c, const char *src, size_t len)
{
	while (len) {
		struct utfconv_convert cv = {
			.source = ENC_UTF16_OUT == ENC_UTF16LE ?
				  UTFCONV_ENC_UTF16LE : UTFCONV_ENC_UTF16BE,
			.target = UTFCONV_ENC_UTF8,
			.policy = c->pivot_policy,
			.src = (uintptr_t)src,
			.src_bytes = len,
			.dst = (uintptr_t)pivot_out,
			.dst_bytes = sizeof(pivot_out),
		};
		int r = ioctl(c->dev, UTFCONV_IOC_CONVERT, &cv);

		if (r && errno != EINTR) {
			msg("converting back to UTF-8: %s", strerror(errno));
			exit(EXIT_IO);
		}
		out_raw(c, pivot_out, (size_t)cv.dst_used);
		src += cv.src_used;
		len -= (size_t)cv.src_used;
		if (!r)
			break;
	}
}

/* Take @n bytes of the stream's UTF-16; convert all but an unfinished end. */
static void pivot_write(struct conv *c, const char *buf, size_t n)
{
	size_t len = c->pivot_held + n, keep = len & 1;
	uint16_t u;

	memcpy(pivot_in + c->pivot_held, buf, n);
	if (len - keep >= 2) {
		memcpy(&u, pivot_in + len - keep - 2, sizeof(u));
		if (u >= 0xd800 && u <= 0xdbff)
			keep += 2;
	}
	pivot_convert(c, pivot_in, len - keep);
	memmove(pivot_in, pivot_in + len - keep, keep);
	c->pivot_held = keep;
}

/*
 * The end of a stream: what was held goes too (a lone lead surrogate
 * under wtf8; nothing else can be left).
 */
static void pivot_flush(struct conv *c)
{
	if (c->pivot && c->out >= 0)
		pivot_convert(c, pivot_in, c->pivot_held);
	c->pivot_held = 0;
}

/* Write @n bytes the device converted. Exits on error. */
static void out_write(struct conv *c, const char *buf, size_t n)
{
	if (c->out < 0)
		return;
	if (c->pivot)
		pivot_write(c, buf, n);
	else
		out_raw(c, buf, n);
}

/*
 * Move whatever output the device has ready to the output file.
 * Returns 0, or -1 with errno set on a device or output error. Stops at
 * EAGAIN or at end of stream.
 */
static int drain_ready(struct conv *c)
{
	for (;;) {
		ssize_t n = read(c->dev, c->outbuf, OUT_CHUNK);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return 0;
			return -1;
		}
		if (n == 0) {
			c->eof_seen = true;
			return 0;
		}
		out_write(c, c->outbuf, (size_t)n);
	}
}

/*
 * Add the counters of the stream of a file to c->totals; the first error
 * is the first file's that had one. Returns 0, or -1 after a message.
 */
static int stats_add(struct conv *c)
{
	struct utfconv_status st, *t = &c->totals;

	memset(&st, 0, sizeof(st));
	if (ioctl(c->dev, UTFCONV_IOC_GET_STATUS, &st)) {
		msg("cannot read the stream status: %s", strerror(errno));
		return -1;
	}
	t->bytes_in += st.bytes_in;
	t->bytes_out += st.bytes_out;
	t->code_points += st.code_points;
	t->replacements += st.replacements;
	if (t->error_kind == UTFCONV_ERR_NONE) {
		t->error_kind = st.error_kind;
		t->error_offset = st.error_offset;
	}
	t->pending_bytes = st.pending_bytes;
	t->ready_bytes = st.ready_bytes;
	return 0;
}

/* --stats: the counters of all files together. */
static void print_stats(struct conv *c)
{
	const struct utfconv_status *st = &c->totals;
	static const char *const kinds[] = {
		[UTFCONV_ERR_NONE]		= "none",
		[UTFCONV_ERR_ILLFORMED]		= "ill-formed",
		[UTFCONV_ERR_INCOMPLETE]	= "incomplete",
	};

	if (stats_add(c))
		return;
	fprintf(stderr, "bytes in:      %" PRIu64 "\n", (uint64_t)st->bytes_in);
	fprintf(stderr, "bytes out:     %" PRIu64 "\n", (uint64_t)st->bytes_out);
	fprintf(stderr, "code points:   %" PRIu64 "\n",
		(uint64_t)st->code_points);
	fprintf(stderr, "replacements:  %" PRIu64 "\n",
		(uint64_t)st->replacements);
	fprintf(stderr, "first error:   %s",
		st->error_kind < 3 ? kinds[st->error_kind] : "unknown");
	if (st->error_kind != UTFCONV_ERR_NONE)
		fprintf(stderr, " at position %" PRIu64,
			(uint64_t)st->error_offset);
	fputc('\n', stderr);
	fprintf(stderr, "pending bytes: %u\n", st->pending_bytes);
	fprintf(stderr, "ready bytes:   %u\n", st->ready_bytes);
}

/*
 * The stream failed with err (EILSEQ or EINVAL): write the output
 * produced before the error, then report it.
 */
static int report_error(struct conv *c, int err)
{
	struct utfconv_status st;

	if (drain_ready(c) && errno != EILSEQ && errno != EINVAL) {
		msg("reading /dev/utfconv: %s", strerror(errno));
		return EXIT_IO;
	}
	memset(&st, 0, sizeof(st));
	if (ioctl(c->dev, UTFCONV_IOC_GET_STATUS, &st)) {
		msg("cannot read the stream status: %s", strerror(errno));
		return EXIT_IO;
	}
	if (st.error_kind == UTFCONV_ERR_INCOMPLETE ||
	    (st.error_kind == UTFCONV_ERR_NONE && err == EINVAL))
		msg("incomplete character at end of input at position %" PRIu64,
		    (uint64_t)st.error_offset);
	else
		msg("illegal input sequence at position %" PRIu64,
		    (uint64_t)st.error_offset);
	return EXIT_INPUT;
}

/*
 * -c and //IGNORE drop ill-formed input as glibc's iconv does, and give
 * its exit status: a character cut off by the end of the input is still
 * an error (exit 1; the device's skip policy drops it silently), and
 * //IGNORE without -c fails when it dropped anything. Called at the end
 * of the input, before the flush: *tail tells whether the device holds
 * the start of an incomplete character, *tail_at its stream offset.
 * Returns 0, or -1 after a message.
 */
static int skip_tail(struct conv *c, bool *tail, uint64_t *tail_at)
{
	struct utfconv_status st;

	*tail = false;
	if (!c->iconv_skip)
		return 0;
	memset(&st, 0, sizeof(st));
	if (ioctl(c->dev, UTFCONV_IOC_GET_STATUS, &st)) {
		msg("cannot read the stream status: %s", strerror(errno));
		return -1;
	}
	*tail = st.pending_bytes != 0;
	*tail_at = (uint64_t)st.bytes_in - st.pending_bytes;
	return 0;
}

/* After the stream ended under -c or //IGNORE: the exit status. */
static int skip_status(struct conv *c, bool tail, uint64_t tail_at)
{
	struct utfconv_status st;

	if (tail) {
		msg("incomplete character at end of input at position %" PRIu64,
		    tail_at);
		return EXIT_INPUT;
	}
	if (!c->ignore_fails)
		return EXIT_OK;
	memset(&st, 0, sizeof(st));
	if (ioctl(c->dev, UTFCONV_IOC_GET_STATUS, &st)) {
		msg("cannot read the stream status: %s", strerror(errno));
		return EXIT_IO;
	}
	if (!st.replacements)
		return EXIT_OK;
	msg("illegal input sequence at position %" PRIu64,
	    (uint64_t)st.error_offset);
	return EXIT_INPUT;
}

/* Standard input was closed when the program started (keep_std_fds()). */
static bool stdin_closed;

static int open_input(const char *name)
{
	int fd;

	if (!strcmp(name, "-")) {
		if (!stdin_closed)
			return STDIN_FILENO;
		msg("standard input: %s", strerror(EBADF));
		return -1;
	}
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		msg("cannot open input file `%s': %s", name, strerror(errno));
	return fd;
}

/* The input files, read one chunk or mapped window at a time. */
struct input {
	const char *const *names;
	int count;
	int idx;		/* the file open now, or the next one */
	int fd;			/* -1 between files */
	char *buf;		/* IN_CHUNK bytes for read() */
	char *map;		/* the mapped window, or NULL */
	size_t map_len;
	off_t map_off;		/* file offset of the next window */
	off_t map_end;		/* size at open: windows end there */
	const char *data;	/* the current chunk: buf or map */
	size_t len;
	size_t off;		/* bytes of it the device took */
	bool done;
};

static void input_unmap(struct input *in)
{
	if (in->map)
		munmap(in->map, in->map_len);
	in->map = NULL;
}

/*
 * The next window of a mapped file. Returns 1 with in->data set; 0 when
 * the file is not mapped (any more), with its offset where read() goes on
 * (after the mapped part, so a file that grew is read to its end, and
 * where a mapping failed); -1 after an error message.
 */
static int input_map_next(struct input *in)
{
	struct stat sb;
	size_t len;
	void *p;

	/*
	 * The device took all of the window. A file truncated under the
	 * mapping reads as zeros up to the end of the page that holds its
	 * new end, and faults (EFAULT) only after it: such zeros were never
	 * in the file, so a file now shorter than what was taken fails.
	 */
	if (in->map && (fstat(in->fd, &sb) || sb.st_size < in->map_off)) {
		msg("%s: the file shrank while it was read",
		    in->names[in->idx]);
		return -1;
	}
	input_unmap(in);
	if (!in->map_end)
		return 0;
	if (in->map_off < in->map_end) {
		len = (size_t)(in->map_end - in->map_off);
		if (len > MAP_WINDOW)
			len = MAP_WINDOW;
		p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
			 in->fd, in->map_off);
		if (p != MAP_FAILED) {
			in->map = p;
			in->map_len = len;
			in->map_off += (off_t)len;
			in->data = p;
			in->len = len;
			in->off = 0;
			return 1;
		}
	}
	in->map_end = 0;
	if (lseek(in->fd, in->map_off, SEEK_SET) < 0) {
		msg("%s: %s", in->names[in->idx], strerror(errno));
		return -1;
	}
	return 0;
}

/* Open the next input file; a regular one of at least IN_CHUNK is mapped. */
static int input_open(struct input *in)
{
	struct stat sb;

	in->fd = open_input(in->names[in->idx]);
	if (in->fd < 0)
		return -1;
	in->map_off = 0;
	in->map_end = 0;
	if (in->fd != STDIN_FILENO && !fstat(in->fd, &sb) &&
	    S_ISREG(sb.st_mode) && sb.st_size >= IN_CHUNK)
		in->map_end = sb.st_size;
	return 0;
}

/*
 * Make in->data hold input the device has not taken yet: the next window
 * or chunk of the current file, or of the next file. Sets in->done at the
 * end of the last file. Returns 0, or -1 after an error message.
 */
static int input_refill(struct input *in)
{
	while (in->off == in->len && !in->done) {
		ssize_t n;
		int r;

		if (in->fd < 0) {
			if (in->idx == in->count) {
				in->done = true;
				break;
			}
			if (input_open(in))
				return -1;
		}
		r = input_map_next(in);
		if (r < 0)
			return -1;
		if (r)
			break;
		n = read(in->fd, in->buf, IN_CHUNK);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			msg("%s: %s", in->names[in->idx], strerror(errno));
			return -1;
		}
		if (n == 0) {
			if (in->fd != STDIN_FILENO)
				close(in->fd);
			in->fd = -1;
			in->idx++;
			continue;
		}
		in->data = in->buf;
		in->off = 0;
		in->len = (size_t)n;
	}
	return 0;
}

/*
 * The exit status of a failed call of @what on the device (errno set):
 * bad input is reported with its position, anything else as itself.
 */
static int device_error(struct conv *c, const char *what)
{
	if (errno == EILSEQ || errno == EINVAL)
		return report_error(c, errno);
	msg("%s /dev/utfconv: %s", what, strerror(errno));
	return EXIT_IO;
}

/* One write() of the input at hand: -1 to go on, else the exit status. */
static int feed_step(struct conv *c, struct input *in)
{
	ssize_t n = write(c->dev, in->data + in->off, in->len - in->off);

	if (n >= 0) {
		in->off += (size_t)n;
		c->in_fed += (uint64_t)n;
		progress_update(c);
		return -1;
	}
	if (errno == EAGAIN || errno == EINTR)
		return -1;
	if (errno == EFAULT && in->map) {
		msg("%s: the file shrank while it was read", in->names[in->idx]);
		return EXIT_IO;
	}
	return device_error(c, "writing");
}

/*
 * Feed all of @in to the device, taking output whenever there is some,
 * so that a full output buffer never stops the input: -1 once all is
 * fed, else the exit status.
 */
static int feed(struct conv *c, struct input *in)
{
	int ret;

	while (!in->done || in->off < in->len) {
		struct pollfd p = { .fd = c->dev, .events = POLLIN | POLLOUT };

		if (input_refill(in))
			return EXIT_IO;
		if (in->off == in->len)
			break;
		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			msg("poll: %s", strerror(errno));
			return EXIT_IO;
		}
		if ((p.revents & (POLLIN | POLLERR)) && drain_ready(c))
			return device_error(c, "reading");
		if (p.revents & (POLLOUT | POLLERR)) {
			ret = feed_step(c, in);
			if (ret >= 0)
				return ret;
		}
	}
	return -1;
}

/* End of input: flush, then drain until the end of the stream. */
static int finish(struct conv *c)
{
	uint64_t tail_at = 0;
	bool tail = false;

	if (skip_tail(c, &tail, &tail_at))
		return EXIT_IO;
	while (ioctl(c->dev, UTFCONV_IOC_FLUSH) < 0) {
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return device_error(c, "flushing");
		/* The last output does not fit yet: make room. */
		if (drain_ready(c))
			return device_error(c, "reading");
	}
	while (!c->eof_seen) {
		struct pollfd p = { .fd = c->dev, .events = POLLIN };

		if (poll(&p, 1, -1) < 0 && errno != EINTR) {
			msg("poll: %s", strerror(errno));
			return EXIT_IO;
		}
		if (drain_ready(c))
			return device_error(c, "reading");
	}
	return skip_status(c, tail, tail_at);
}

/*
 * Feed the input file @name into the device's stream, copying the
 * output as it becomes ready, and end the stream. Returns an exit status.
 */
static int convert_one(struct conv *c, const char *name, char *buf)
{
	struct input in = {
		.names = &name,
		.count = 1,
		.fd = -1,
		.buf = buf,
	};
	int ret;

	ret = feed(c, &in);
	if (ret < 0)
		ret = finish(c);
	pivot_flush(c);
	input_unmap(&in);
	if (in.fd > STDIN_FILENO)
		close(in.fd);
	return ret;
}

/*
 * Between two files: a new stream with the same configuration, so that
 * each file is converted on its own, as glibc's iconv does (-t UTF-16
 * writes a BOM for each, an error position counts from the start of its
 * file, a character cut off at the end of a file is incomplete).
 */
static int next_stream(struct conv *c)
{
	if (stats_add(c))
		return EXIT_IO;
	if (ioctl(c->dev, UTFCONV_IOC_RESET)) {
		msg("resetting /dev/utfconv: %s", strerror(errno));
		return EXIT_IO;
	}
	c->eof_seen = false;
	c->bom_pending = c->bom_each;
	return EXIT_OK;
}

/*
 * Convert every input file in turn, each as a stream of its own, until
 * one fails (as glibc's iconv stops). Returns an exit status.
 */
static int convert(struct conv *c, char **files, int nfiles)
{
	static const char *const stdin_only[] = { "-" };
	const char *const *names = nfiles ? (const char *const *)files :
					    stdin_only;
	char *buf = malloc(IN_CHUNK);
	int i, ret = EXIT_OK;

	if (!buf) {
		msg("out of memory");
		return EXIT_IO;
	}
	for (i = 0; i < (nfiles ? nfiles : 1) && ret == EXIT_OK; i++) {
		if (i)
			ret = next_stream(c);
		if (ret == EXIT_OK)
			ret = convert_one(c, names[i], buf);
	}
	progress_end(c);
	free(buf);
	return ret;
}

enum {
	OPT_POLICY = 256,
	OPT_STRIP_BOM,
	OPT_BOM,
	OPT_CHECK,
	OPT_STATS,
	OPT_HELP,
	OPT_VERSION,
};

static const struct option long_options[] = {
	{ "from-code",	required_argument,	NULL, 'f' },
	{ "to-code",	required_argument,	NULL, 't' },
	{ "output",	required_argument,	NULL, 'o' },
	{ "list",	no_argument,		NULL, 'l' },
	{ "silent",	no_argument,		NULL, 's' },
	{ "policy",	required_argument,	NULL, OPT_POLICY },
	{ "strip-bom",	no_argument,		NULL, OPT_STRIP_BOM },
	{ "bom",	no_argument,		NULL, OPT_BOM },
	{ "check",	no_argument,		NULL, OPT_CHECK },
	{ "stats",	no_argument,		NULL, OPT_STATS },
	{ "help",	no_argument,		NULL, OPT_HELP },
	{ "version",	no_argument,		NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try `%s --help' for more information.\n", prog);
	return EXIT_USAGE;
}

/* An encoding or pair we do not convert: exit 1, as iconv. */
static int unsupported(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	return EXIT_UNSUPPORTED;
}

/* The device's encoding of a CLI encoding. */
static unsigned int device_enc(enum utfconv_enc enc)
{
	switch (enc) {
	case ENC_UTF8:
		return UTFCONV_ENC_UTF8;
	case ENC_UTF16LE:
		return UTFCONV_ENC_UTF16LE;
	case ENC_UTF16BE:
		return UTFCONV_ENC_UTF16BE;
	case ENC_UTF16:
		return UTFCONV_ENC_UTF16;
	}
	return 0;
}

/* Fill @cfg's source, target and flags; -1 if the device has no such pair. */
static int config_of(enum utfconv_enc from, enum utfconv_enc to,
		     unsigned int flags, struct utfconv_config *cfg)
{
	bool from8 = from == ENC_UTF8, to8 = to == ENC_UTF8;

	if (from8 == to8 || to == ENC_UTF16)
		return -1;
	memset(cfg, 0, sizeof(*cfg));
	cfg->flags = flags;
	cfg->source = device_enc(from);
	cfg->target = device_enc(to);
	return 0;
}

/*
 * A closed standard descriptor would be the next open()'s, the device's:
 * it would then be read as input or written as output and messages, and
 * a stream fed its own output can fill up and wait forever. /dev/null,
 * read-only, takes their place. Reading a closed stdin is then an error
 * (open_input()), and a write to stdout fails (EBADF) and is reported,
 * as cat and glibc's iconv do.
 */
static void keep_std_fds(void)
{
	int fd;

	stdin_closed = fcntl(STDIN_FILENO, F_GETFD) < 0 && errno == EBADF;
	do {
		fd = open("/dev/null", O_RDONLY);
	} while (fd >= 0 && fd <= STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

/* What the command line asks for. */
struct cli_opts {
	const char *from, *to, *out_name;
	bool check, stats, dash_c;
	int policy;		/* -1: not given */
	unsigned int flags;	/* UTFCONV_FLAG_* */
};

/*
 * Parse the options into @o; returns -1 to go on, else the exit status
 * (after --help, --version, -l or a usage error).
 */
static int parse_options(int argc, char **argv, struct cli_opts *o)
{
	int opt;

	/* getopt's own messages name argv[0]: let them say utfconv, as ours */
	argv[0] = (char *)prog;
	while ((opt = getopt_long(argc, argv, "f:t:o:lcs", long_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'f':
			o->from = optarg;
			break;
		case 't':
			o->to = optarg;
			break;
		case 'o':
			o->out_name = optarg;
			break;
		case 'l':
			list_encodings();
			return EXIT_OK;
		case 'c':
			o->dash_c = true;
			break;
		case 's':
			/* iconv's --silent: glibc's gives no warnings either */
			break;
		case OPT_POLICY:
			o->policy = parse_policy(optarg);
			if (o->policy < 0)
				return usage_error("unknown policy `%s' (strict, replace, skip or wtf8)",
						   optarg);
			break;
		case OPT_STRIP_BOM:
			o->flags |= UTFCONV_FLAG_STRIP_BOM;
			break;
		case OPT_BOM:
			o->flags |= UTFCONV_FLAG_EMIT_BOM;
			break;
		case OPT_CHECK:
			o->check = true;
			break;
		case OPT_STATS:
			o->stats = true;
			break;
		case OPT_HELP:
			usage(stdout);
			return EXIT_OK;
		case OPT_VERSION:
			/* utfconv(4): the device has features, no version */
			printf("utfconv %s\n", UTFCONV_CLI_VERSION);
			return EXIT_OK;
		default:
			fprintf(stderr, "Try `%s --help' for more information.\n",
				prog);
			return EXIT_USAGE;
		}
	}
	return -1;
}

/*
 * The device's configuration for @o in @cfg, and @c's iconv habits;
 * returns -1 to go on, else the exit status of a usage error or an
 * unsupported conversion.
 */
static int configure(struct cli_opts *o, struct conv *c,
		     struct utfconv_config *cfg)
{
	enum utfconv_enc from_enc, to_enc;
	bool ignore = false;

	if (!o->from || !o->to)
		return usage_error("both -f FROM and -t TO are required");
	if (parse_encoding(o->from, &from_enc, &ignore))
		return unsupported("conversion from `%s' is not supported (try -l)",
				   o->from);
	if (parse_encoding(o->to, &to_enc, &ignore))
		return unsupported("conversion to `%s' is not supported (try -l)",
				   o->to);
	if (to_enc == ENC_UTF16) {
		/* glibc's UTF-16: the BOM here, unless --bom has the device write it */
		to_enc = ENC_UTF16_OUT;
		c->bom_each = !(o->flags & UTFCONV_FLAG_EMIT_BOM);
		c->bom_pending = c->bom_each;
	}
	if (from_enc == ENC_UTF8 && to_enc == ENC_UTF8) {
		/* validate and copy: through UTF-16 and back (pivot_write) */
		to_enc = ENC_UTF16_OUT;
		c->pivot = true;
	}
	if (config_of(from_enc, to_enc, o->flags, cfg))
		return unsupported("conversion from `%s' to `%s' is not supported: one side must be UTF-8",
				   o->from, o->to);
	if ((o->dash_c || ignore) && o->policy >= 0 &&
	    o->policy != UTFCONV_POLICY_SKIP)
		return usage_error("-c (or //IGNORE) conflicts with --policy=%s",
				   policy_names[o->policy]);
	if (o->dash_c || ignore)
		o->policy = UTFCONV_POLICY_SKIP;
	c->iconv_skip = o->dash_c || ignore;
	c->ignore_fails = ignore && !o->dash_c;
	if (o->policy < 0)
		o->policy = UTFCONV_POLICY_STRICT;
	c->pivot_policy = o->policy == UTFCONV_POLICY_WTF8 ?
			  UTFCONV_POLICY_WTF8 : UTFCONV_POLICY_STRICT;
	if (o->check && o->out_name)
		return usage_error("--check writes no output; -o makes no sense with it");
	cfg->policy = (unsigned int)o->policy;
	return -1;
}

/*
 * Open the device (UTFCONV_DEVICE or /dev/utfconv) into @c->dev and set
 * @cfg; returns -1 to go on, else the exit status.
 */
static int open_device(const struct cli_opts *o, struct conv *c,
		       struct utfconv_config *cfg)
{
	const char *dev_path = getenv("UTFCONV_DEVICE");
	int e;

	if (!dev_path || !*dev_path)
		dev_path = UTFCONV_DEFAULT_DEVICE;
	c->dev = open(dev_path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (c->dev < 0) {
		e = errno;
		msg("cannot open %s: %s", dev_path, strerror(e));
		/* A path of the user's own may just be wrong: no module hint. */
		if ((e == ENOENT || e == ENXIO || e == ENODEV) &&
		    !strcmp(dev_path, UTFCONV_DEFAULT_DEVICE))
			fprintf(stderr,
				"The utfconv device module is not loaded. Load it with\n"
				"  sudo insmod kmod/utfconv.ko && sudo insmod kmod/utfconv_dev.ko\n"
				"                   (from a tree built for the running kernel)\n"
				"or\n"
				"  sudo modprobe utfconv_dev      (when installed)\n"
				"or, without touching the running kernel, in a VM:\n"
				"  scripts/vm.sh run -- utfconv ARGS...\n");
		return EXIT_NODEV;
	}
	if (!ioctl(c->dev, UTFCONV_IOC_SET_CONFIG, cfg))
		return -1;
	e = errno;
	if (e == EINVAL) {
		msg("/dev/utfconv rejects this conversion (%s to %s, policy %s, flags %#x): %s",
		    o->from, o->to, policy_names[o->policy], o->flags,
		    strerror(e));
		return EXIT_USAGE;
	}
	msg("configuring %s: %s", dev_path, strerror(e));
	return EXIT_NODEV;
}

int main(int argc, char **argv)
{
	struct cli_opts o = { .policy = -1 };
	struct utfconv_config cfg;
	struct conv c = { .dev = -1, .out = -1 };
	struct outfile of = { .fd = -1 };
	int ret;

	keep_std_fds();
	ret = parse_options(argc, argv, &o);
	if (ret < 0)
		ret = configure(&o, &c, &cfg);
	if (ret < 0)
		ret = open_device(&o, &c, &cfg);
	if (ret >= 0)
		return ret;

	c.outbuf = malloc(OUT_CHUNK);
	if (!c.outbuf) {
		msg("out of memory");
		return EXIT_IO;
	}
	if (!o.check) {
		if (o.out_name && strcmp(o.out_name, "-")) {
			if (out_open(&of, o.out_name, argv + optind,
				     argc - optind))
				return EXIT_IO;
			c.out = of.fd;
			c.out_name = o.out_name;
		} else {
			c.out = STDOUT_FILENO;
			c.out_name = "standard output";
		}
	}

	progress_setup(&c, argv + optind, argc - optind);
	ret = convert(&c, argv + optind, argc - optind);
	if (o.stats)
		print_stats(&c);
	if (of.fd >= 0)
		ret = out_finish(&of, ret, c.out_bytes);
	free(c.outbuf);
	close(c.dev);
	return ret;
}
