// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/utfconv on the field cases: every row of field-cases.tsv and
 * extra-cases.tsv, with the derived skip rows, other byte orders and
 * UTF-16 (BOM) rows (build/dev/vectors.h, made by scripts/gen_vectors.py),
 * through the stream (as written, at every split point, byte by byte,
 * non-blocking with poll) and through the one-shot
 * UTFCONV_IOC_CONVERT (with room, and at every too-small capacity).
 *
 * What the stream must do on a strict error (the device's contract,
 * kmod/utfconv_dev.c, and what a maintainer would expect of a pipe-like
 * device): the valid prefix is accepted, its output stays readable, the
 * write that reaches ill-formed input returns the count before it (or
 * fails with EILSEQ if there is none) and every later write fails with
 * EILSEQ; an incomplete tail makes FLUSH fail with EINVAL. Once the output
 * is drained, read() returns that error instead of blocking or reporting
 * end of file, so a reader cannot mistake a failed stream for a complete
 * one.
 */
#include "kselftest_harness.h"
#include "utfconv_test.h"

struct utfconv_vec {
	const char *name;
	const char *what;
	unsigned int direction;
	unsigned int policy;
	const unsigned char *in;
	size_t in_bytes;
	const size_t *cuts;
	size_t ncuts;
	const unsigned char *out;	/* output, or output before the error */
	size_t out_bytes;
	int err;			/* 0, EILSEQ or EINVAL */
	unsigned long long err_offset;
	long long replacements;		/* -1: not checked */
};

/* What one run of a stream produced. */
struct run {
	unsigned char out[4096];
	size_t out_bytes;
	size_t accepted;	/* input bytes write() accepted */
	int write_err;		/* errno that stopped the writes, or 0 */
	int flush_err;		/* errno of FLUSH, 0, or -1 if not called */
	int read_end;		/* 0: read() returned 0; else its errno */
	bool overflow;
};

FIXTURE(vec) {
	int fd;
};

FIXTURE_VARIANT(vec) {
	const struct utfconv_vec *v;
};

#include "vectors.h"

FIXTURE_SETUP(vec)
{
	self->fd = utfconv_open(O_NONBLOCK);
	if (self->fd < 0 && errno == ENOENT)
		SKIP(return, "%s absent", utfconv_dev_path());
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(vec)
{
	if (self->fd >= 0)
		close(self->fd);
}

static void run_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
	r->flush_err = -1;
}

/* Read whatever is ready, @rsize bytes at a time, into @r. */
static void run_read(int fd, struct run *r, size_t rsize, bool to_end)
{
	for (;;) {
		size_t room = sizeof(r->out) - r->out_bytes;
		ssize_t n;

		if (!room) {
			r->overflow = true;
			return;
		}
		n = read(fd, r->out + r->out_bytes, rsize < room ? rsize : room);
		if (n > 0) {
			r->out_bytes += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && !to_end)
			return;
		r->read_end = n ? errno : 0;
		return;
	}
}

/*
 * Write @in in the pieces given by @cuts (sorted positions), reading
 * whatever is ready after each write when @rsize_during is nonzero; then
 * FLUSH unless a write failed, then read to the end @rsize bytes at a time.
 */
static void run_stream(int fd, const struct utfconv_vec *v,
		       const size_t *cuts, size_t ncuts, size_t rsize_during,
		       size_t rsize, struct run *r)
{
	size_t start = 0, i;

	run_init(r);
	for (i = 0; i <= ncuts && !r->write_err; i++) {
		size_t end = i < ncuts ? cuts[i] : v->in_bytes;

		while (start < end || (start == end && i < ncuts)) {
			ssize_t n = write(fd, v->in + start, end - start);

			if (n < 0) {
				if (errno == EINTR)
					continue;
				r->write_err = errno;
				break;
			}
			start += (size_t)n;
			r->accepted += (size_t)n;
			if (start == end)
				break;
			if (n == 0) {
				r->write_err = EIO;
				break;
			}
		}
		if (rsize_during)
			run_read(fd, r, rsize_during, false);
	}
	if (!r->write_err)
		r->flush_err = ioctl(fd, UTFCONV_IOC_FLUSH) ? errno : 0;
	run_read(fd, r, rsize, true);
}

/* Check a finished run of @v on @fd against the expectations. */
static void check_run(struct __test_metadata *_metadata, int fd,
		      const struct utfconv_vec *v, const struct run *r,
		      const char *how)
{
	struct utfconv_status st;
	unsigned int i;

	ASSERT_FALSE(r->overflow) TH_LOG("%s: %s", v->name, how);
	ASSERT_TRUE(utfconv_bytes_eq(v->name, r->out, r->out_bytes, v->out,
				     v->out_bytes))
		TH_LOG("%s (%s): %s", v->name, v->what, how);
	ASSERT_EQ(0, utfconv_status(fd, &st));
	for (i = 0; i < sizeof(st.padding) / sizeof(st.padding[0]); i++) {
		EXPECT_EQ(0, st.padding[i]);
	}
	EXPECT_EQ(v->out_bytes, st.bytes_out);
	EXPECT_EQ(utfconv_count_chars(v->out, v->out_bytes, v->direction),
		  st.code_points);
	EXPECT_EQ(0, st.pending_bytes);
	EXPECT_EQ(0, st.ready_bytes);
	if (v->replacements >= 0) {
		EXPECT_EQ((uint64_t)v->replacements, st.replacements);
	}

	switch (v->err) {
	case 0:
		EXPECT_EQ(0, r->write_err);
		EXPECT_EQ(v->in_bytes, r->accepted);
		EXPECT_EQ(0, r->flush_err);
		EXPECT_EQ(0, r->read_end);
		EXPECT_EQ(v->in_bytes, st.bytes_in);
		EXPECT_EQ(UTFCONV_STATE_ENDED, st.state);
		if (v->policy == UTFCONV_POLICY_STRICT ||
		    v->policy == UTFCONV_POLICY_WTF8 || !v->replacements) {
			EXPECT_EQ(UTFCONV_ERR_NONE, st.error_kind);
		} else if (v->replacements > 0) {
			EXPECT_NE(UTFCONV_ERR_NONE, st.error_kind);
		}
		break;
	case EILSEQ:
		EXPECT_EQ(EILSEQ, r->write_err);
		EXPECT_EQ(-1, r->flush_err);
		EXPECT_GE(v->in_bytes, r->accepted);
		EXPECT_EQ(EILSEQ, r->read_end);
		EXPECT_EQ(UTFCONV_ERR_ILLFORMED, st.error_kind);
		EXPECT_EQ(v->err_offset, st.error_offset);
		EXPECT_EQ(v->err_offset, st.bytes_in);
		EXPECT_EQ(UTFCONV_STATE_FAILED, st.state);
		/* Sticky until reset. */
		EXPECT_EQ(-1, write(fd, "A", 1));
		EXPECT_EQ(EILSEQ, errno);
		break;
	case EINVAL:
		EXPECT_EQ(0, r->write_err);
		EXPECT_EQ(v->in_bytes, r->accepted);
		EXPECT_EQ(EINVAL, r->flush_err);
		EXPECT_EQ(EINVAL, r->read_end);
		EXPECT_EQ(UTFCONV_ERR_INCOMPLETE, st.error_kind);
		EXPECT_EQ(v->err_offset, st.error_offset);
		EXPECT_EQ(v->err_offset, st.bytes_in);
		EXPECT_EQ(UTFCONV_STATE_FAILED | UTFCONV_STATE_ENDED, st.state);
		EXPECT_EQ(-1, write(fd, "A", 1));
		EXPECT_TRUE(errno == EINVAL || errno == EPIPE);
		break;
	}
	if (_metadata->exit_code != KSFT_PASS)
		TH_LOG("%s (%s): %s", v->name, v->what, how);
}

static int fresh(struct __test_metadata *_metadata,
		 const struct utfconv_vec *v)
{
	int fd = utfconv_open(O_NONBLOCK);

	if (fd < 0)
		return -1;
	if (utfconv_set(fd, v->direction, v->policy, 0)) {
		TH_LOG("SET_CONFIG: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* The row as written: its '|' boundaries, output read at the end. */
TEST_F(vec, stream)
{
	const struct utfconv_vec *v = variant->v;
	struct run r;

	ASSERT_EQ(0, utfconv_set(self->fd, v->direction, v->policy, 0));
	run_stream(self->fd, v, v->cuts, v->ncuts, 0, sizeof(r.out), &r);
	check_run(_metadata, self->fd, v, &r, "writes as in the table");
}

/* Every split into two and three writes; output read between writes. */
TEST_F(vec, every_split)
{
	const struct utfconv_vec *v = variant->v;
	size_t cuts[2], i, j;
	char how[64];
	struct run r;

	for (i = 0; i <= v->in_bytes; i++) {
		for (j = i; j <= v->in_bytes; j++) {
			int fd = fresh(_metadata, v);

			ASSERT_LE(0, fd);
			cuts[0] = i;
			cuts[1] = j;
			run_stream(fd, v, cuts, 2, 7, 64, &r);
			snprintf(how, sizeof(how), "writes split at %zu and %zu",
				 i, j);
			check_run(_metadata, fd, v, &r, how);
			close(fd);
			if (_metadata->exit_code != KSFT_PASS)
				return;
		}
	}
}

/* One byte per write, one byte per read, interleaved and at the end. */
TEST_F(vec, byte_by_byte)
{
	const struct utfconv_vec *v = variant->v;
	size_t cuts[256], i;
	struct run r;
	int pass;

	ASSERT_GE(256, v->in_bytes);
	for (i = 0; i < v->in_bytes; i++)
		cuts[i] = i;
	for (pass = 0; pass < 2; pass++) {
		int fd = fresh(_metadata, v);

		ASSERT_LE(0, fd);
		run_stream(fd, v, cuts, v->in_bytes, pass ? 1 : 0, 1, &r);
		check_run(_metadata, fd, v, &r, pass ?
			  "1-byte writes and interleaved 1-byte reads" :
			  "1-byte writes, then 1-byte reads");
		close(fd);
	}
}

/*
 * Non-blocking, driven by poll(): write when EPOLLOUT, read when EPOLLIN.
 * A strict error must raise EPOLLERR (and EPOLLIN: read() does not block).
 */
TEST_F(vec, poll_driven)
{
	const struct utfconv_vec *v = variant->v;
	struct pollfd p = { .fd = self->fd };
	size_t pos = 0, rounds = 0;
	bool flushed = false, saw_err = false;
	struct run r;

	ASSERT_EQ(0, utfconv_set(self->fd, v->direction, v->policy, 0));
	run_init(&r);
	for (;;) {
		if (pos == v->in_bytes && !flushed && !r.write_err) {
			flushed = true;
			r.flush_err = ioctl(self->fd, UTFCONV_IOC_FLUSH) ?
				      errno : 0;
		}
		ASSERT_GT(10000, ++rounds);
		p.events = POLLIN | (pos < v->in_bytes ? POLLOUT : 0);
		ASSERT_EQ(1, poll(&p, 1, 5000)) TH_LOG("poll timed out");
		if (p.revents & POLLERR) {
			saw_err = true;
			EXPECT_TRUE(p.revents & POLLIN);
			EXPECT_FALSE(p.revents & POLLOUT);
			run_read(self->fd, &r, 3, true);
			break;
		}
		if (p.revents & POLLIN) {
			run_read(self->fd, &r, 3, false);
			if (flushed && r.read_end != EAGAIN)
				break;
			r.read_end = 0;
		}
		if (pos < v->in_bytes && (p.revents & POLLOUT)) {
			ssize_t n = write(self->fd, v->in + pos, 1);

			if (n < 0) {
				r.write_err = errno;
				ASSERT_NE(EAGAIN, errno);
				continue;
			}
			pos += (size_t)n;
			r.accepted += (size_t)n;
		}
	}
	if (r.write_err)
		r.flush_err = -1;
	EXPECT_EQ(v->err != 0, saw_err);
	check_run(_metadata, self->fd, v, &r, "poll-driven 1-byte writes, 3-byte reads");
}

static void convert_init(struct utfconv_convert *cv,
			 const struct utfconv_vec *v, const void *src,
			 size_t src_bytes, void *dst, size_t dst_bytes)
{
	memset(cv, 0, sizeof(*cv));
	test_dir_encodings(v->direction, &cv->source, &cv->target);
	cv->policy = v->policy;
	cv->src = (uintptr_t)src;
	cv->src_bytes = src_bytes;
	cv->dst = (uintptr_t)dst;
	cv->dst_bytes = dst_bytes;
}

/* One-shot conversion with plenty of room; the stream is untouched. */
TEST_F(vec, convert)
{
	const struct utfconv_vec *v = variant->v;
	unsigned char dst[1024 + 64];
	struct utfconv_convert cv;
	struct utfconv_status st;
	size_t cap = 1024, i;
	int ret;

	memset(dst, 0x5A, sizeof(dst));
	convert_init(&cv, v, v->in, v->in_bytes, dst, cap);
	ret = ioctl(self->fd, UTFCONV_IOC_CONVERT, &cv);
	if (v->err) {
		ASSERT_EQ(-1, ret);
		ASSERT_EQ(v->err, errno);
		EXPECT_EQ(v->err == EILSEQ ? UTFCONV_ERR_ILLFORMED :
			  UTFCONV_ERR_INCOMPLETE, cv.error_kind);
		EXPECT_EQ(v->err_offset, cv.error_offset);
		EXPECT_EQ(v->err_offset, cv.src_used);
	} else {
		ASSERT_EQ(0, ret) TH_LOG("CONVERT: %s", strerror(errno));
		EXPECT_EQ(v->in_bytes, cv.src_used);
		if (v->policy == UTFCONV_POLICY_STRICT ||
		    v->policy == UTFCONV_POLICY_WTF8) {
			EXPECT_EQ(UTFCONV_ERR_NONE, cv.error_kind);
		}
	}
	if (v->replacements >= 0) {
		EXPECT_EQ((uint64_t)v->replacements, cv.replacements);
	}
	ASSERT_TRUE(utfconv_bytes_eq(v->name, dst, cv.dst_used, v->out,
				     v->out_bytes));
	for (i = cv.dst_used; i < sizeof(dst); i++) {
		ASSERT_EQ(0x5A, dst[i]) TH_LOG("byte %zu overwritten", i);
	}
	/* The stream of this file saw nothing. */
	ASSERT_EQ(0, utfconv_status(self->fd, &st));
	EXPECT_EQ(0, st.bytes_in);
	EXPECT_EQ(0, st.bytes_out);
	EXPECT_EQ(0, st.state);
}

/*
 * At every capacity too small for the whole output: E2BIG, the output is
 * the longest whole-character prefix that fits, nothing is written past
 * it, and converting the rest of the input from src_used gives the rest.
 */
TEST_F(vec, convert_e2big)
{
	const struct utfconv_vec *v = variant->v;
	unsigned char dst[1024 + 64], rest[1024];
	struct utfconv_convert cv, cv2;
	size_t cap, want, i;

	if (v->err || !v->out_bytes)
		return;		/* no complete output to cut short */
	for (cap = 0; cap < v->out_bytes; cap++) {
		want = cap;
		while (!utfconv_out_boundary(v->out, v->out_bytes, want,
					     v->direction))
			want--;
		memset(dst, 0x5A, sizeof(dst));
		convert_init(&cv, v, v->in, v->in_bytes, dst, cap);
		ASSERT_EQ(-1, ioctl(self->fd, UTFCONV_IOC_CONVERT, &cv))
			TH_LOG("capacity %zu", cap);
		ASSERT_EQ(E2BIG, errno) TH_LOG("capacity %zu", cap);
		ASSERT_TRUE(utfconv_bytes_eq(v->name, dst, cv.dst_used, v->out,
					     want)) TH_LOG("capacity %zu", cap);
		for (i = cv.dst_used; i < sizeof(dst); i++) {
			ASSERT_EQ(0x5A, dst[i]) TH_LOG("byte %zu written", i);
		}
		ASSERT_GE(v->in_bytes, cv.src_used);
		/* Without the BOM that fixed it, UTF-16 has no byte order. */
		if (v->direction == TEST_DIR_UTF16_TO_UTF8)
			continue;
		convert_init(&cv2, v, v->in + cv.src_used,
			     v->in_bytes - cv.src_used, rest, sizeof(rest));
		ASSERT_EQ(0, ioctl(self->fd, UTFCONV_IOC_CONVERT, &cv2))
			TH_LOG("resume after capacity %zu: %s", cap,
			       strerror(errno));
		ASSERT_EQ(v->out_bytes, cv.dst_used + cv2.dst_used)
			TH_LOG("resume after capacity %zu", cap);
		ASSERT_EQ(0, memcmp(v->out + cv.dst_used, rest,
				    cv2.dst_used));
	}
}

UTFCONV_TEST_MAIN
