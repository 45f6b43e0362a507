// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/utfconv under load: several threads on one file, many files at
 * once, and 64 MiB of corpus text streamed in each direction and compared
 * byte for byte with references computed outside the VM by glibc iconv.
 *
 * The data directory (UTFCONV_DATA, default data/ next to this program)
 * holds corpus.list (one name per line, without suffix) and for each
 * name NAME.utf8.txt, NAME.utf16le and NAME.utf16be. The 64 MiB input is
 * the corpus files repeated (valid text concatenates: the conversion of
 * the concatenation is the concatenation of the conversions), so the
 * expected output is the references repeated the same way; both are
 * walked as the stream goes, nothing of the 64 MiB is held in memory.
 */
#include <libgen.h>
#include <pthread.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "utfconv_test.h"


FIXTURE(stress) {
	int fd;
};

FIXTURE_SETUP(stress)
{
	self->fd = utfconv_open(0);
	if (self->fd < 0 && errno == ENOENT)
		SKIP(return, "%s absent", utfconv_dev_path());
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(stress)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* ---- threads sharing one file -------------------------------------- */

#define WRITERS		4
#define WRITES_EACH	4000

struct shared_fd {
	int fd;
	int id;
	int err;
	/* reader: units seen per writer, anything else */
	unsigned long seen[WRITERS];
	unsigned long other;
	unsigned long total;
};

/* Writer t writes U+4E00+t (3 UTF-8 bytes) in single write() calls. */
static void *char_writer(void *arg)
{
	struct shared_fd *s = arg;
	unsigned int cp = 0x4E00 + s->id;
	char c[3] = {
		(char)(0xE0 | cp >> 12), (char)(0x80 | (cp >> 6 & 0x3F)),
		(char)(0x80 | (cp & 0x3F)),
	};
	int i;

	for (i = 0; i < WRITES_EACH; i++) {
		ssize_t n = write(s->fd, c, 3);

		if (n != 3) {
			s->err = n < 0 ? errno : EIO;
			break;
		}
	}
	return NULL;
}

/* Reads UTF-16LE units in even-sized reads until end of stream. */
static void *unit_reader(void *arg)
{
	struct shared_fd *s = arg;
	unsigned char buf[1024];

	for (;;) {
		ssize_t n = read(s->fd, buf, sizeof(buf));
		ssize_t i;

		if (n <= 0) {
			s->err = n ? errno : 0;
			break;
		}
		if (n & 1) {
			s->err = EPROTO;
			break;
		}
		for (i = 0; i < n; i += 2) {
			unsigned int u = buf[i] | buf[i + 1] << 8;

			if (u >= 0x4E00 && u < 0x4E00 + WRITERS)
				s->seen[u - 0x4E00]++;
			else
				s->other++;
		}
		s->total += (unsigned long)n;
	}
	return NULL;
}

/*
 * Writers and readers share one file: calls are serialised, so every
 * character arrives whole, none is lost or duplicated, no error appears.
 */
TEST_F_TIMEOUT(stress, threads_one_file, 300)
{
	struct shared_fd w[WRITERS], r[2];
	pthread_t wt[WRITERS], rt[2];
	unsigned long seen[WRITERS] = { 0 }, other = 0, total = 0;
	struct utfconv_status st;
	int i, j;

	for (i = 0; i < 2; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		r[i].fd = self->fd;
		ASSERT_EQ(0, pthread_create(&rt[i], NULL, unit_reader, &r[i]));
	}
	for (i = 0; i < WRITERS; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].fd = self->fd;
		w[i].id = i;
		ASSERT_EQ(0, pthread_create(&wt[i], NULL, char_writer, &w[i]));
	}
	for (i = 0; i < WRITERS; i++) {
		pthread_join(wt[i], NULL);
		EXPECT_EQ(0, w[i].err);
	}
	ASSERT_EQ(0, utfconv_status(self->fd, &st));
	EXPECT_EQ(0U, st.error_kind);
	EXPECT_EQ(0U, st.pending_bytes);
	ASSERT_EQ(0, ioctl(self->fd, UTFCONV_IOC_FLUSH));
	for (i = 0; i < 2; i++) {
		pthread_join(rt[i], NULL);
		EXPECT_EQ(0, r[i].err);
		for (j = 0; j < WRITERS; j++)
			seen[j] += r[i].seen[j];
		other += r[i].other;
		total += r[i].total;
	}
	for (j = 0; j < WRITERS; j++) {
		EXPECT_EQ(WRITES_EACH, seen[j]);
	}
	EXPECT_EQ(0U, other);
	EXPECT_EQ(2UL * WRITERS * WRITES_EACH, total);
	ASSERT_EQ(0, utfconv_status(self->fd, &st));
	EXPECT_EQ(3ULL * WRITERS * WRITES_EACH, st.bytes_in);
	EXPECT_EQ(1ULL * WRITERS * WRITES_EACH, st.code_points);
}

struct ioctl_hammer {
	int fd;
	volatile int *stop;
	unsigned long calls;
	int err;
};

static void *status_hammer(void *arg)
{
	struct ioctl_hammer *h = arg;
	struct utfconv_status st;
	struct utfconv_config cfg;

	while (!*h->stop) {
		if (ioctl(h->fd, UTFCONV_IOC_GET_STATUS, &st) ||
		    ioctl(h->fd, UTFCONV_IOC_GET_CONFIG, &cfg)) {
			h->err = errno;
			break;
		}
		/* SET_CONFIG on a busy stream: EBUSY, never a change */
		if (!ioctl(h->fd, UTFCONV_IOC_SET_CONFIG, &cfg) && st.bytes_in) {
			h->err = EPERM;
			break;
		}
		h->calls++;
	}
	return NULL;
}

/* Status and config ioctls racing a stream do not disturb it. */
TEST_F_TIMEOUT(stress, ioctls_race_stream, 300)
{
	struct ioctl_hammer h[2];
	pthread_t t[2];
	volatile int stop = 0;
	char in[999], out[4096];
	size_t i, want = 0, got = 0;
	int k;

	for (i = 0; i < sizeof(in); i++)
		in[i] = (char)('A' + i % 26);
	ASSERT_EQ(3, write(self->fd, "abc", 3));	/* not fresh any more */
	want = 6;
	for (k = 0; k < 2; k++) {
		h[k] = (struct ioctl_hammer){ .fd = self->fd, .stop = &stop };
		ASSERT_EQ(0, pthread_create(&t[k], NULL, status_hammer, &h[k]));
	}
	for (k = 0; k < 300; k++) {
		ASSERT_EQ((ssize_t)sizeof(in), utfconv_write_all(self->fd, in,
								 sizeof(in)));
		want += 2 * sizeof(in);
		while (got < want) {
			ssize_t n = read(self->fd, out, sizeof(out));

			ASSERT_LT(0, n);
			got += (size_t)n;
		}
	}
	stop = 1;
	for (k = 0; k < 2; k++) {
		pthread_join(t[k], NULL);
		EXPECT_EQ(0, h[k].err);
	}
	EXPECT_EQ(want, got);
}

/* ---- many files at once ------------------------------------------- */

#define NFILES	128

/*
 * Many streams at once, each with its own direction and policy, written
 * in interleaved pieces that split characters: none sees another's data.
 * One stream failing (strict) leaves the others untouched.
 */
TEST_F_TIMEOUT(stress, many_files, 300)
{
	/* "Aé漢😻" in each input encoding, and a bad byte for file 0 */
	static const unsigned char u8[] = "A\xc3\xa9\xe6\xbc\xa2\xf0\x9f\x98\xbb";
	static const unsigned char u16le[] = "A\0\xe9\0\x22\x6f\x3d\xd8\x3b\xde";
	static const unsigned char u16be[] = "\0A\0\xe9\x6f\x22\xd8\x3d\xde\x3b";
	int fds[NFILES], i, round;
	struct utfconv_status st;

	for (i = 0; i < NFILES; i++) {
		unsigned int dir = 1 + i % TEST_DIR_COUNT;

		fds[i] = utfconv_open(O_NONBLOCK);
		ASSERT_LE(0, fds[i]) TH_LOG("open %d: %s", i, strerror(errno));
		if (dir == TEST_DIR_UTF16_TO_UTF8)
			dir = TEST_DIR_UTF16BE_TO_UTF8;
		ASSERT_EQ(0, utfconv_set(fds[i], dir, i % 4, 0));
	}
	ASSERT_EQ(-1, write(fds[0], "\xff", 1));	/* strict: fails */
	for (round = 0; round < 10; round++) {
		size_t pos;

		for (pos = 0; pos < 10; pos++) {
			for (i = 1; i < NFILES; i++) {
				unsigned int dir = 1 + i % TEST_DIR_COUNT;
				const unsigned char *src =
					dir <= TEST_DIR_UTF8_TO_UTF16BE ? u8 :
					dir == TEST_DIR_UTF16LE_TO_UTF8 ?
					u16le : u16be;

				ASSERT_EQ(1, write(fds[i], src + pos, 1));
			}
		}
	}
	for (i = 1; i < NFILES; i++) {
		unsigned int dir = 1 + i % TEST_DIR_COUNT;
		const unsigned char *want =
			dir == TEST_DIR_UTF8_TO_UTF16LE ? u16le :
			dir == TEST_DIR_UTF8_TO_UTF16BE ? u16be : u8;
		unsigned char out[256];
		size_t got = 0;
		int r;

		ASSERT_EQ(0, ioctl(fds[i], UTFCONV_IOC_FLUSH));
		while ((r = (int)read(fds[i], out + got, 7)) > 0)
			got += (size_t)r;
		ASSERT_EQ(0, r) TH_LOG("file %d: %s", i, strerror(errno));
		ASSERT_EQ(100U, got);
		for (r = 0; r < 10; r++) {
			ASSERT_EQ(0, memcmp(out + 10 * r, want, 10))
				TH_LOG("file %d round %d", i, r);
		}
		ASSERT_EQ(0, utfconv_status(fds[i], &st));
		EXPECT_EQ(0U, st.error_kind);
		EXPECT_EQ(40U, st.code_points);
		close(fds[i]);
	}
	ASSERT_EQ(0, utfconv_status(fds[0], &st));
	EXPECT_EQ(UTFCONV_ERR_ILLFORMED, st.error_kind);
	EXPECT_EQ(0U, st.error_offset);
	close(fds[0]);
}

/* Open and close many times, some with data pending or unread. */
TEST_F_TIMEOUT(stress, open_close_churn, 300)
{
	int i;

	for (i = 0; i < 2000; i++) {
		int fd = utfconv_open(O_NONBLOCK);

		ASSERT_LE(0, fd);
		if (i % 3 == 1) {
			ASSERT_EQ(2, write(fd, "a\xe3", 2));
		}
		if (i % 3 == 2) {
			ASSERT_EQ(-1, write(fd, "\xc0", 1));
		}
		close(fd);
	}
}

/* ---- 64 MiB against host references ------------------------------- */

struct blob {
	unsigned char *data;
	size_t len;
};

struct corpus {
	size_t n;
	struct blob u8[64], le[64], be[64];
	char names[64][256];
};

static const char *data_dir(void)
{
	static char dir[4096];
	const char *e = getenv("UTFCONV_DATA");
	ssize_t n;

	if (e && *e)
		return e;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 8);
	if (n <= 0)
		return "data";
	dir[n] = 0;
	strcpy(strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir, "data");
	return dir;
}

static int load(const char *dir, const char *name, const char *suffix,
		struct blob *b)
{
	char path[4096];
	struct stat sb;
	size_t got = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/corpus/%s%s", dir, name, suffix);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &sb))
		return -1;
	b->len = (size_t)sb.st_size;
	b->data = malloc(b->len + 1);
	while (b->data && got < b->len) {
		ssize_t n = read(fd, b->data + got, b->len - got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return b->data && got == b->len ? 0 : -1;
}

static int load_corpus(struct corpus *c)
{
	const char *dir = data_dir();
	char path[4096], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/corpus.list", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	c->n = 0;
	while (c->n < ARRAY_SIZE(c->u8) && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!line[0])
			continue;
		snprintf(c->names[c->n], sizeof(c->names[0]), "%s", line);
		if (load(dir, line, ".utf8.txt", &c->u8[c->n]) ||
		    load(dir, line, ".utf16le", &c->le[c->n]) ||
		    load(dir, line, ".utf16be", &c->be[c->n])) {
			fclose(f);
			return -1;
		}
		c->n++;
	}
	fclose(f);
	return c->n ? 0 : -1;
}

/* A position in the endless repetition of a list of blobs. */
struct cursor {
	const struct blob *b;
	size_t n, i, off;
	uint64_t pos;
};

static size_t cursor_take(struct cursor *c, const unsigned char **p,
			  size_t max)
{
	size_t len;

	while (c->off == c->b[c->i].len) {
		c->off = 0;
		c->i = (c->i + 1) % c->n;
	}
	len = c->b[c->i].len - c->off;
	if (len > max)
		len = max;
	*p = c->b[c->i].data + c->off;
	return len;
}

static void cursor_advance(struct cursor *c, size_t len)
{
	c->off += len;
	c->pos += len;
}

/*
 * Stream whole files of @in (cycling) until at least @min_bytes went in,
 * non-blocking with poll, odd write and read sizes, and compare every
 * output byte with @ref cycled the same way.
 */
static void stream_64m(struct __test_metadata *_metadata, int fd,
		       unsigned int dir, const struct blob *in,
		       const struct blob *ref, size_t n, uint64_t min_bytes)
{
	struct cursor ci = { in, n, 0, 0, 0 }, co = { ref, n, 0, 0, 0 };
	uint64_t in_total = 0, out_total = 0;
	static unsigned char buf[40000];
	size_t files = 0, k;
	bool flushed = false, eof = false;
	struct utfconv_status st;

	/* The input ends after whole files, so it is complete text. */
	while (in_total < min_bytes) {
		in_total += in[files % n].len;
		out_total += ref[files % n].len;
		files++;
	}
	ASSERT_EQ(0, utfconv_set(fd, dir, UTFCONV_POLICY_STRICT, 0));
	while (!eof) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (ci.pos < in_total)
			p.events |= POLLOUT;
		ASSERT_EQ(1, poll(&p, 1, 30000)) TH_LOG("poll stalled");
		ASSERT_FALSE(p.revents & POLLERR);
		if (p.revents & POLLOUT) {
			const unsigned char *src;
			/* odd sizes: split characters and units */
			size_t max = 4093 + (size_t)(ci.pos % 7) * 1013;
			size_t len = cursor_take(&ci, &src, max);
			ssize_t w;

			if (len > in_total - ci.pos)
				len = (size_t)(in_total - ci.pos);
			w = write(fd, src, len);
			if (w < 0) {
				ASSERT_EQ(EAGAIN, errno);
			} else {
				cursor_advance(&ci, (size_t)w);
			}
		}
		if (ci.pos == in_total && !flushed) {
			ASSERT_EQ(0, ioctl(fd, UTFCONV_IOC_FLUSH))
				TH_LOG("flush: %s", strerror(errno));
			flushed = true;
		}
		if (p.revents & POLLIN) {
			ssize_t r = read(fd, buf, 32749);

			if (r < 0) {
				ASSERT_EQ(EAGAIN, errno);
				continue;
			}
			if (r == 0) {
				eof = true;
				break;
			}
			for (k = 0; k < (size_t)r; ) {
				const unsigned char *want;
				size_t len = cursor_take(&co, &want,
							 (size_t)r - k);

				ASSERT_GE(out_total, co.pos + len)
					TH_LOG("output longer than the reference");
				if (memcmp(buf + k, want, len)) {
					size_t j = 0;

					while (buf[k + j] == want[j])
						j++;
					ASSERT_TRUE(false)
						TH_LOG("output differs at byte %llu (file %zu of corpus.list, offset %zu)",
						       (unsigned long long)(co.pos + j),
						       co.i + 1, co.off + j);
				}
				cursor_advance(&co, len);
				k += len;
			}
		}
	}
	ASSERT_TRUE(flushed);
	ASSERT_EQ(out_total, co.pos);
	ASSERT_EQ(0, utfconv_status(fd, &st));
	EXPECT_EQ(in_total, st.bytes_in);
	EXPECT_EQ(out_total, st.bytes_out);
	EXPECT_EQ(0U, st.error_kind);
	EXPECT_EQ(0U, st.replacements);
	TH_LOG("%llu bytes in, %llu bytes out, %zu files",
	       (unsigned long long)in_total, (unsigned long long)out_total,
	       files);
}

FIXTURE(big) {
	int fd;
	struct corpus *c;
};

FIXTURE_SETUP(big)
{
	self->c = NULL;
	self->fd = utfconv_open(O_NONBLOCK);
	if (self->fd < 0 && errno == ENOENT)
		SKIP(return, "%s absent", utfconv_dev_path());
	ASSERT_LE(0, self->fd);
	self->c = calloc(1, sizeof(*self->c));
	ASSERT_NE(NULL, self->c);
	if (load_corpus(self->c))
		SKIP(return, "no corpus data under %s", data_dir());
}

FIXTURE_TEARDOWN(big)
{
	if (self->fd >= 0)
		close(self->fd);
}

#define BIG_BYTES	(64ULL << 20)

TEST_F_TIMEOUT(big, utf8_to_utf16le_64m, 1200)
{
	stream_64m(_metadata, self->fd, TEST_DIR_UTF8_TO_UTF16LE,
		   self->c->u8, self->c->le, self->c->n, BIG_BYTES);
}

TEST_F_TIMEOUT(big, utf8_to_utf16be_64m, 1200)
{
	stream_64m(_metadata, self->fd, TEST_DIR_UTF8_TO_UTF16BE,
		   self->c->u8, self->c->be, self->c->n, BIG_BYTES);
}

TEST_F_TIMEOUT(big, utf16le_to_utf8_64m, 1200)
{
	stream_64m(_metadata, self->fd, TEST_DIR_UTF16LE_TO_UTF8,
		   self->c->le, self->c->u8, self->c->n, BIG_BYTES);
}

TEST_F_TIMEOUT(big, utf16be_to_utf8_64m, 1200)
{
	stream_64m(_metadata, self->fd, TEST_DIR_UTF16BE_TO_UTF8,
		   self->c->be, self->c->u8, self->c->n, BIG_BYTES);
}

/* Every corpus file through one-shot CONVERT, both ways, exact size. */
TEST_F_TIMEOUT(big, convert_corpus, 600)
{
	size_t i;

	for (i = 0; i < self->c->n; i++) {
		const struct blob *u8 = &self->c->u8[i], *le = &self->c->le[i];
		unsigned char *dst = malloc(le->len + u8->len + 16);
		struct utfconv_convert cv;

		ASSERT_NE(NULL, dst);
		memset(&cv, 0, sizeof(cv));
		cv.source = UTFCONV_ENC_UTF8;
		cv.target = UTFCONV_ENC_UTF16LE;
		cv.src = (uintptr_t)u8->data;
		cv.src_bytes = u8->len;
		cv.dst = (uintptr_t)dst;
		cv.dst_bytes = le->len;
		ASSERT_EQ(0, ioctl(self->fd, UTFCONV_IOC_CONVERT, &cv))
			TH_LOG("%s: %s", self->c->names[i], strerror(errno));
		ASSERT_EQ(le->len, cv.dst_used);
		ASSERT_EQ(0, memcmp(dst, le->data, le->len))
			TH_LOG("%s", self->c->names[i]);

		cv.source = UTFCONV_ENC_UTF16LE;
		cv.target = UTFCONV_ENC_UTF8;
		cv.src = (uintptr_t)le->data;
		cv.src_bytes = le->len;
		cv.dst_bytes = u8->len;
		ASSERT_EQ(0, ioctl(self->fd, UTFCONV_IOC_CONVERT, &cv))
			TH_LOG("%s: %s", self->c->names[i], strerror(errno));
		ASSERT_EQ(u8->len, cv.dst_used);
		ASSERT_EQ(0, memcmp(dst, u8->data, u8->len))
			TH_LOG("%s", self->c->names[i]);
		free(dst);
	}
}

UTFCONV_TEST_MAIN
