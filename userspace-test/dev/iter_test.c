// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/utfconv through the kernel's iov_iter paths: readv()/writev() as
 * one call over the whole vector, preadv2()/pwritev2() with RWF_NOWAIT,
 * io_uring reads and writes (run inline, never by an io-wq worker), and
 * the readiness that poll(), epoll, io_uring's POLL_ADD and aio's
 * IOCB_CMD_POLL report for the same state.
 *
 * liburing is linked statically (Debian's liburing-dev); aio's poll
 * goes through the raw system calls.
 */
#define _GNU_SOURCE		/* preadv2(), pwritev2() */
#include <dirent.h>
#include <liburing.h>
#include <linux/aio_abi.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>

#include "kselftest_harness.h"
#include "utfconv_test.h"

/* Far beyond any scheduling delay in a TCG guest: only a wait reaches it. */
#define WAIT_LIMIT_NS	3000000000LL	/* 3 s */
#define ALARM_SECONDS	10

/* SIGALRM in @seconds, ending a blocking call that would wait longer. */
static void arm_alarm(unsigned int seconds)
{
	utfconv_catch_signal(SIGALRM);
	alarm(seconds);
}

static short poll_now(int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };

	if (poll(&p, 1, 0) < 0)
		return -1;
	return p.revents;
}

/* Threads of this process that are io_uring's io-wq workers. */
static int io_workers(void)
{
	char path[300], comm[32];
	struct dirent *d;
	int n = 0;
	DIR *dir = opendir("/proc/self/task");
	FILE *f;

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "iou-wrk", 7))
			n++;
		fclose(f);
	}
	closedir(dir);
	return n;
}

/* Write until the output buffer is full (non-blocking); 0 on success. */
static int fill_output(int fd, size_t buffer_bytes)
{
	static char ascii[4096];
	int fl = fcntl(fd, F_GETFL);
	size_t total = 0;
	ssize_t n;

	memset(ascii, 'x', sizeof(ascii));
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	do {
		n = write(fd, ascii, sizeof(ascii));
		if (n > 0)
			total += (size_t)n;
	} while (n > 0);
	fcntl(fd, F_SETFL, fl);
	/* UTF-8 -> UTF-16: two output bytes per ASCII byte */
	return n < 0 && errno == EAGAIN && total * 2 == buffer_bytes ? 0 : -1;
}

FIXTURE(iter) {
	int fd;
	struct utfconv_info info;
};

FIXTURE_SETUP(iter)
{
	self->fd = utfconv_open(0);
	if (self->fd < 0 && errno == ENOENT)
		SKIP(return, "%s absent", utfconv_dev_path());
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(self->fd, UTFCONV_IOC_GET_INFO, &self->info));
}

FIXTURE_TEARDOWN(iter)
{
	if (self->fd >= 0)
		close(self->fd);
	alarm(0);
}

/* ---- readv / writev ------------------------------------------------ */

/*
 * As from a pipe, a blocking readv() whose first element takes all the
 * output that is ready returns it at once rather than sleep in the
 * second element (which .read made it do until a signal came).
 */
TEST_F(iter, readv_blocking_returns_ready)
{
	unsigned char a[4], b[8];
	struct iovec rv[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	long long t;
	ssize_t n;

	ASSERT_EQ(2, write(self->fd, "ab", 2));
	arm_alarm(ALARM_SECONDS);
	t = now_ns();
	n = readv(self->fd, rv, 2);
	t = now_ns() - t;
	alarm(0);
	ASSERT_EQ(4, n) TH_LOG("readv: %zd (%s)", n, strerror(errno));
	EXPECT_EQ(0, memcmp(a, "a\0b\0", 4));
	EXPECT_GT(WAIT_LIMIT_NS, t) TH_LOG("readv took %lld ns", t);
	printf("# measured: blocking readv of ready bytes: %lld us\n",
	       t / 1000);
}

/* The ready bytes spread over several elements, one contiguous slice. */
TEST_F(iter, readv_spans_elements)
{
	unsigned char a[3], b[1], c[16];
	struct iovec rv[3] = {
		{ a, sizeof(a) }, { b, sizeof(b) }, { c, sizeof(c) },
	};

	ASSERT_EQ(5, write(self->fd, "hello", 5));
	ASSERT_EQ(10, readv(self->fd, rv, 3));
	EXPECT_EQ(0, memcmp(a, "h\0e", 3));
	EXPECT_EQ(0, memcmp(b, "\0", 1));
	EXPECT_EQ(0, memcmp(c, "l\0l\0o\0", 6));
}

/*
 * A character split between the elements of one writev() is one
 * character: U+1F63B in UTF-8 one byte per element, then a surrogate
 * pair in UTF-16BE one byte per element, with ASCII around them.
 */
TEST_F(iter, writev_splits_character)
{
	struct iovec w8[6] = {
		{ "A\xf0", 2 }, { "\x9f", 1 }, { "", 0 }, { "\x98", 1 },
		{ "\xbb", 1 }, { "B", 1 },
	};
	struct iovec w16[5] = {
		{ "\0C\xd8", 3 }, { "\x3d", 1 }, { "\xde", 1 },
		{ "\x3b", 1 }, { "\0D", 2 },
	};
	static const unsigned char want16[] = {
		'A', 0, 0x3d, 0xd8, 0x3b, 0xde, 'B', 0,
	};
	static const unsigned char want8[] = "C\xf0\x9f\x98\xbb" "D";
	struct utfconv_status st;
	unsigned char out[32];
	ssize_t n;

	ASSERT_EQ(6, writev(self->fd, w8, 6));
	ASSERT_EQ(0, utfconv_status(self->fd, &st));
	EXPECT_EQ(6U, st.bytes_in);
	EXPECT_EQ(3U, st.code_points);
	EXPECT_EQ(0U, st.pending_bytes);
	n = read(self->fd, out, sizeof(out));
	ASSERT_EQ(sizeof(want16), n);
	EXPECT_TRUE(utfconv_bytes_eq("UTF-16LE", out, n, want16,
				     sizeof(want16)));

	ASSERT_EQ(0, ioctl(self->fd, UTFCONV_IOC_RESET));
	ASSERT_EQ(0, utfconv_set(self->fd, TEST_DIR_UTF16BE_TO_UTF8,
				 UTFCONV_POLICY_STRICT, 0));
	ASSERT_EQ(8, writev(self->fd, w16, 5));
	ASSERT_EQ(0, utfconv_status(self->fd, &st));
	EXPECT_EQ(3U, st.code_points);
	EXPECT_EQ(0U, st.pending_bytes);
	n = read(self->fd, out, sizeof(out));
	ASSERT_EQ(sizeof(want8) - 1, n);
	EXPECT_TRUE(utfconv_bytes_eq("UTF-8", out, n, want8,
				     sizeof(want8) - 1));
}

/*
 * An element that faults ends the write after the elements before it
 * (their count is returned), and nothing of it is taken.
 */
TEST_F(iter, writev_fault_in_second_element)
{
	struct iovec wv[2] = {
		{ "ab", 2 }, { (void *)8, 4 },
	};
	struct utfconv_status st;

	ASSERT_EQ(2, writev(self->fd, wv, 2));
	ASSERT_EQ(0, utfconv_status(self->fd, &st));
	EXPECT_EQ(2U, st.bytes_in);
	EXPECT_EQ(4U, st.ready_bytes);
	EXPECT_EQ(-1, writev(self->fd, wv + 1, 1));
	EXPECT_EQ(EFAULT, errno);
}

/* ---- RWF_NOWAIT ----------------------------------------------------- */

/* preadv2(RWF_NOWAIT) on an empty stream: EAGAIN at once, not a wait. */
TEST_F(iter, preadv2_nowait_empty_eagain)
{
	unsigned char out[8];
	struct iovec rv = { out, sizeof(out) };
	long long t;
	ssize_t n;

	arm_alarm(ALARM_SECONDS);
	t = now_ns();
	n = preadv2(self->fd, &rv, 1, -1, RWF_NOWAIT);
	t = now_ns() - t;
	alarm(0);
	EXPECT_EQ(-1, n);
	EXPECT_EQ(EAGAIN, errno) TH_LOG("preadv2: %s", strerror(errno));
	EXPECT_GT(WAIT_LIMIT_NS, t) TH_LOG("preadv2 took %lld ns", t);

	/* With output ready it reads it; an explicit offset is refused. */
	ASSERT_EQ(1, write(self->fd, "z", 1));
	EXPECT_EQ(2, preadv2(self->fd, &rv, 1, -1, RWF_NOWAIT));
	EXPECT_EQ(0, memcmp(out, "z\0", 2));
	EXPECT_EQ(-1, preadv2(self->fd, &rv, 1, 0, RWF_NOWAIT));
	EXPECT_EQ(ESPIPE, errno);
}

/* pwritev2(RWF_NOWAIT) with the output buffer full: EAGAIN, nothing taken. */
TEST_F(iter, pwritev2_nowait_full_eagain)
{
	struct iovec wv = { "y", 1 };
	struct utfconv_status st, st2;

	ASSERT_EQ(0, fill_output(self->fd, self->info.buffer_bytes));
	ASSERT_EQ(0, utfconv_status(self->fd, &st));
	arm_alarm(ALARM_SECONDS);
	EXPECT_EQ(-1, pwritev2(self->fd, &wv, 1, -1, RWF_NOWAIT));
	EXPECT_EQ(EAGAIN, errno) TH_LOG("pwritev2: %s", strerror(errno));
	alarm(0);
	ASSERT_EQ(0, utfconv_status(self->fd, &st2));
	EXPECT_EQ(st.bytes_in, st2.bytes_in);
	EXPECT_EQ(self->info.buffer_bytes, st2.ready_bytes);
}

/* ---- io_uring -------------------------------------------------------- */

static int ring_init(struct io_uring *ring)
{
	return io_uring_queue_init(8, ring, 0);
}

static int ring_wait(struct io_uring *ring, __u64 data, int *res)
{
	struct io_uring_cqe *cqe;
	int ret = io_uring_wait_cqe(ring, &cqe);

	if (ret)
		return ret;
	if (cqe->user_data != data) {
		io_uring_cqe_seen(ring, cqe);
		return -EPROTO;
	}
	*res = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return 0;
}

/*
 * io_uring writes and reads convert as write() and read() do; a read
 * queued on an empty stream waits in poll, not in an io-wq worker, and
 * completes with the output of a later write().
 */
TEST_F(iter, io_uring_read_write)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	unsigned char out[16];
	int ret, res = 0;

	ret = ring_init(&ring);
	ASSERT_EQ(0, ret) TH_LOG("io_uring_queue_init: %s", strerror(-ret));

	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, self->fd, "h\xc3\xa9", 3, 0);
	sqe->user_data = 1;
	ASSERT_EQ(1, io_uring_submit(&ring));
	ASSERT_EQ(0, ring_wait(&ring, 1, &res));
	EXPECT_EQ(3, res);

	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, self->fd, out, sizeof(out), 0);
	sqe->user_data = 2;
	ASSERT_EQ(1, io_uring_submit(&ring));
	ASSERT_EQ(0, ring_wait(&ring, 2, &res));
	ASSERT_EQ(4, res);
	EXPECT_EQ(0, memcmp(out, "h\0\xe9\0", 4));

	/* A read of an empty stream: parked in poll until the write. */
	memset(out, 0, sizeof(out));
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, self->fd, out, sizeof(out), 0);
	sqe->user_data = 3;
	ASSERT_EQ(1, io_uring_submit(&ring));
	usleep(200000);
	EXPECT_EQ(0, io_workers()) TH_LOG("an io-wq worker runs the read");
	EXPECT_EQ(-EAGAIN, io_uring_peek_cqe(&ring, &cqe))
		TH_LOG("the read completed on an empty stream");
	ASSERT_EQ(2, write(self->fd, "\xe2\x82", 2));	/* pending only */
	usleep(100000);
	ASSERT_EQ(1, write(self->fd, "\xac", 1));	/* U+20AC */
	ASSERT_EQ(0, ring_wait(&ring, 3, &res));
	ASSERT_EQ(2, res);
	EXPECT_EQ(0, memcmp(out, "\xac\x20", 2));

	/* A strict error ends a queued read with the stream's errno. */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, self->fd, out, sizeof(out), 0);
	sqe->user_data = 4;
	ASSERT_EQ(1, io_uring_submit(&ring));
	usleep(100000);
	EXPECT_EQ(-1, write(self->fd, "\xff", 1));
	EXPECT_EQ(EILSEQ, errno);
	ASSERT_EQ(0, ring_wait(&ring, 4, &res));
	EXPECT_EQ(-EILSEQ, res);
	io_uring_queue_exit(&ring);
}

/* A write queued on a full stream completes once a read made room. */
TEST_F(iter, io_uring_write_waits_for_room)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	unsigned char out[64];
	int ret, res = 0;

	ASSERT_EQ(0, fill_output(self->fd, self->info.buffer_bytes));
	ret = ring_init(&ring);
	ASSERT_EQ(0, ret) TH_LOG("io_uring_queue_init: %s", strerror(-ret));
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, self->fd, "qr", 2, 0);
	sqe->user_data = 5;
	ASSERT_EQ(1, io_uring_submit(&ring));
	usleep(200000);
	EXPECT_EQ(0, io_workers()) TH_LOG("an io-wq worker runs the write");
	EXPECT_EQ(-EAGAIN, io_uring_peek_cqe(&ring, &cqe));
	ASSERT_EQ(sizeof(out), read(self->fd, out, sizeof(out)));
	ASSERT_EQ(0, ring_wait(&ring, 5, &res));
	EXPECT_EQ(2, res);
	io_uring_queue_exit(&ring);
}

/* ---- readiness: poll, epoll, io_uring POLL_ADD, aio poll -------------- */

enum poll_event { EV_WRITE, EV_BAD_WRITE, EV_FLUSH, EV_READ };

/* Make the event happen on @fd. */
static int poll_event(int fd, enum poll_event ev)
{
	unsigned char out[64];

	switch (ev) {
	case EV_WRITE:
		return write(fd, "a", 1) == 1 ? 0 : -1;
	case EV_BAD_WRITE:
		return write(fd, "\x80", 1) == -1 && errno == EILSEQ ? 0 : -1;
	case EV_FLUSH:
		return ioctl(fd, UTFCONV_IOC_FLUSH);
	case EV_READ:
		return read(fd, out, sizeof(out)) == sizeof(out) ? 0 : -1;
	}
	return -1;
}

/*
 * io_uring's POLL_ADD completes with the key of the wake-up that ended
 * it, so that key must be the stream's state: a plain write wakes
 * POLLIN alone (not POLLIN|POLLERR|POLLHUP), an ill-formed one POLLIN |
 * POLLERR, a flush POLLIN|POLLHUP; a read that makes room wakes a
 * POLLOUT waiter with POLLOUT. epoll and poll() must say the same.
 */
static void poll_masks_agree(struct __test_metadata *_metadata, int fd,
			     size_t buffer_bytes, short events,
			     enum poll_event ev, short want)
{
	struct epoll_event ee = { .events = events };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	int ep, ret, res = 0;
	short seen;

	if (events & POLLOUT)
		ASSERT_EQ(0, fill_output(fd, buffer_bytes));
	ep = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, ep);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ee));
	ret = ring_init(&ring);
	ASSERT_EQ(0, ret) TH_LOG("io_uring_queue_init: %s", strerror(-ret));
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_poll_add(sqe, fd, events);
	sqe->user_data = 7;
	ASSERT_EQ(1, io_uring_submit(&ring));
	usleep(50000);
	ASSERT_EQ(0, epoll_wait(ep, &ee, 1, 0));

	ASSERT_EQ(0, poll_event(fd, ev));
	ASSERT_EQ(0, ring_wait(&ring, 7, &res));
	seen = poll_now(fd, events);
	EXPECT_EQ(want, seen) TH_LOG("poll(): %#x, want %#x", seen, want);
	EXPECT_EQ(want, res) TH_LOG("io_uring POLL_ADD: %#x, want %#x",
				    res, want);
	ASSERT_EQ(1, epoll_wait(ep, &ee, 1, 0));
	EXPECT_EQ(want, (short)ee.events)
		TH_LOG("epoll: %#x, want %#x", ee.events, want);
	io_uring_queue_exit(&ring);
	close(ep);
}

TEST_F(iter, poll_mask_write)
{
	poll_masks_agree(_metadata, self->fd, self->info.buffer_bytes,
			 POLLIN, EV_WRITE, POLLIN);
}

TEST_F(iter, poll_mask_ill_formed)
{
	poll_masks_agree(_metadata, self->fd, self->info.buffer_bytes,
			 POLLIN, EV_BAD_WRITE, POLLIN | POLLERR);
}

TEST_F(iter, poll_mask_flush)
{
	poll_masks_agree(_metadata, self->fd, self->info.buffer_bytes,
			 POLLIN, EV_FLUSH, POLLIN | POLLHUP);
}

TEST_F(iter, poll_mask_room)
{
	poll_masks_agree(_metadata, self->fd, self->info.buffer_bytes,
			 POLLOUT, EV_READ, POLLOUT);
}

/*
 * aio's IOCB_CMD_POLL takes one wait queue per file: the device has one,
 * so it works (with two it failed with EINVAL) and reports what poll()
 * does.
 */
TEST_F(iter, aio_poll)
{
	struct iocb cb = {
		.aio_fildes = self->fd,
		.aio_lio_opcode = IOCB_CMD_POLL,
		.aio_buf = POLLIN,
		.aio_data = 9,
	};
	struct iocb *cbs[1] = { &cb };
	struct timespec ts = { .tv_sec = ALARM_SECONDS };
	struct io_event ev;
	aio_context_t ctx = 0;
	long ret;

	ASSERT_EQ(0, syscall(SYS_io_setup, 4, &ctx));
	ret = syscall(SYS_io_submit, ctx, 1, cbs);
	ASSERT_EQ(1, ret) TH_LOG("io_submit: %s", strerror(errno));
	ASSERT_EQ(0, syscall(SYS_io_getevents, ctx, 0, 1, &ev, NULL));
	ASSERT_EQ(0, write(self->fd, "a", 1) - 1);
	ASSERT_EQ(1, syscall(SYS_io_getevents, ctx, 1, 1, &ev, &ts));
	EXPECT_EQ(9U, ev.data);
	/* aio completes with the wake-up's key unmasked: the whole state */
	EXPECT_EQ(POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM, ev.res)
		TH_LOG("aio poll: %#llx", (unsigned long long)ev.res);
	EXPECT_EQ(POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM,
		  poll_now(self->fd, POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM));
	syscall(SYS_io_destroy, ctx);
}

UTFCONV_TEST_MAIN
