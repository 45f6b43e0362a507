// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/utfconv under long operations: poll(..., 0) returns at once
 * during a 64 MiB skip-policy write of ill-formed bytes and during a
 * read whose copy_to_user() is stalled by userfaultfd; a stalled read
 * holds up only calls on its own file, and those still get signals;
 * tasks waiting in a shared epoll set are reaped within a second of
 * SIGKILL; a caught signal ends a long write with the count it accepted.
 *
 * The measured times are printed ("# measured: ...") so that
 * runs on different kernels can be compared.
 */
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "utfconv_test.h"

#define BIG_BYTES	(64u << 20)
#define POLL_LIMIT_NS	10000000LL	/* 10 ms */
#define REAP_LIMIT_NS	1000000000LL	/* 1 s */
#define POLLS		50

/* A stream of the skip policy: ill-formed input gives no output at all. */
static int open_skip(void)
{
	int fd = utfconv_open(0);

	if (fd >= 0 &&
	    utfconv_set(fd, TEST_DIR_UTF8_TO_UTF16LE,
			UTFCONV_POLICY_SKIP, 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

struct big_writer {
	int fd;
	unsigned char *buf;
	volatile int running;	/* inside write() */
	volatile int stop;
	ssize_t first;		/* result of the first write() */
	int first_errno;
	long long signalled_ns;	/* when the stopping signal was sent */
	long long returned_ns;	/* when the first write() returned */
	pthread_t thread;
};

/*
 * Writes 64 MiB of 0xFF again and again until told to stop. The thread
 * runs at the lowest priority so that the measuring thread is not
 * preempted by it (the VM has one CPU).
 */
static void *big_writer_main(void *arg)
{
	struct big_writer *w = arg;
	bool first = true;
	ssize_t n;

	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
	while (!w->stop) {
		w->running = 1;
		n = write(w->fd, w->buf, BIG_BYTES);
		if (first) {
			w->returned_ns = now_ns();
			w->first = n;
			w->first_errno = n < 0 ? errno : 0;
			first = false;
		}
		if (n <= 0)
			break;
	}
	w->running = 0;
	return NULL;
}

static int big_writer_start(struct big_writer *w, int fd)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->buf = malloc(BIG_BYTES);
	if (!w->buf)
		return -1;
	memset(w->buf, 0xFF, BIG_BYTES);
	utfconv_catch_signal(SIGUSR1);
	if (pthread_create(&w->thread, NULL, big_writer_main, w))
		return -1;
	while (!w->running)
		usleep(1000);
	usleep(50000);	/* well inside the kernel's conversion loop */
	return 0;
}

static void big_writer_stop(struct big_writer *w)
{
	w->stop = 1;
	w->signalled_ns = now_ns();
	pthread_kill(w->thread, SIGUSR1);
	pthread_join(w->thread, NULL);
	free(w->buf);
}

/* The longest and the median of @n poll(..., 0) calls on @fd, 1 ms apart. */
static void poll_times(int fd, short events, int n, long long *max_ns,
		       long long *median_ns, int *errors)
{
	long long t[POLLS], v;
	struct pollfd p;
	int i, j;

	*errors = 0;
	for (i = 0; i < n; i++) {
		p.fd = fd;
		p.events = events;
		p.revents = 0;
		t[i] = now_ns();
		if (poll(&p, 1, 0) < 0)
			++*errors;
		t[i] = now_ns() - t[i];
		usleep(1000);
	}
	for (i = 1; i < n; i++)	/* insertion sort */
		for (j = i, v = t[i]; j > 0 && t[j - 1] > v; j--) {
			t[j] = t[j - 1];
			t[j - 1] = v;
		}
	*max_ns = t[n - 1];
	*median_ns = t[n / 2];
}

FIXTURE(blk) {
	int fd;
};

FIXTURE_SETUP(blk)
{
	self->fd = open_skip();
	ASSERT_LE(0, self->fd) TH_LOG("open/config: %s", strerror(errno));
}

FIXTURE_TEARDOWN(blk)
{
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * The host may deschedule the one-CPU guest for several milliseconds at
 * any time, and on a loaded host it does. A call that waits for the
 * writer's lock is slow in every round, a descheduled vCPU in one: so
 * the bounds below hold for the best of ROUNDS rounds, and every round
 * is printed.
 */
#define ROUNDS		3

/* The slowest of @n polls, in the best of ROUNDS rounds; @what names them. */
static long long best_poll_round(int fd, int n, const char *what,
				 int *errors)
{
	long long max_ns, med_ns, best = -1;
	int r, e;

	*errors = 0;
	for (r = 0; r < ROUNDS; r++) {
		poll_times(fd, POLLIN | POLLOUT, n, &max_ns, &med_ns, &e);
		*errors += e;
		printf("# measured: poll: %s: round %d: max %lld us median %lld us\n",
		       what, r, max_ns / 1000, med_ns / 1000);
		if (best < 0 || max_ns < best)
			best = max_ns;
		if (best < POLL_LIMIT_NS)
			break;
	}
	return best;
}

/* GET_STATUS plus a one-byte write, the fastest of ROUNDS tries. */
static long long best_status_write(int fd, struct utfconv_status *st,
				   int *errors)
{
	long long t, best = -1;
	int r;

	*errors = 0;
	for (r = 0; r < ROUNDS; r++) {
		t = now_ns();
		if (utfconv_status(fd, st))
			++*errors;
		if (write(fd, "\xff", 1) != 1)
			++*errors;
		t = now_ns() - t;
		printf("# measured: status + write: try %d: %lld us\n", r,
		       t / 1000);
		if (best < 0 || t < best)
			best = t;
		if (best < POLL_LIMIT_NS)
			break;
	}
	return best;
}

/*
 * poll(..., 0) on the stream while a 64 MiB skip-policy write of 0xFF
 * converts: every call of a round under 10 ms (it took seconds when
 * poll waited for the writer's lock). GET_STATUS and a short write of
 * another thread are not held up either.
 */
TEST_F_TIMEOUT(blk, poll_during_long_write, 600)
{
	struct utfconv_status st;
	struct big_writer w;
	long long t;
	int errors;

	ASSERT_EQ(0, big_writer_start(&w, self->fd));
	t = best_poll_round(self->fd, POLLS, "long write", &errors);
	EXPECT_EQ(1, w.running) TH_LOG("the write ended before the polls did");
	EXPECT_EQ(0, errors);
	EXPECT_GT(POLL_LIMIT_NS, t)
		TH_LOG("poll: slowest call of the best round: %lld us",
		       t / 1000);

	t = best_status_write(self->fd, &st, &errors);
	EXPECT_EQ(0, errors);
	EXPECT_GT(POLL_LIMIT_NS, t) TH_LOG("status + write took %lld us",
					   t / 1000);
	EXPECT_EQ(0U, st.ready_bytes);
	EXPECT_EQ(st.bytes_in, st.replacements);

	big_writer_stop(&w);
	EXPECT_LT(0, w.first) TH_LOG("first write: %zd (%s)", w.first,
				     strerror(w.first_errno));
}

/*
 * A caught signal ends a long write with the count it accepted, soon:
 * exactly that many bytes were taken (each 0xFF is one skipped maximal
 * subpart), and the stream goes on from there.
 */
TEST_F_TIMEOUT(blk, long_write_partial_on_signal, 600)
{
	struct utfconv_status st;
	struct big_writer w;
	long long t;

	ASSERT_EQ(0, big_writer_start(&w, self->fd));
	w.stop = 1;		/* one write() only */
	big_writer_stop(&w);
	t = w.returned_ns - w.signalled_ns;
	printf("# measured: signal: a 64 MiB write returned %lld us after SIGUSR1\n",
	       t / 1000);
	ASSERT_LT(0, w.first) TH_LOG("write: %s", strerror(w.first_errno));
	EXPECT_GT((ssize_t)BIG_BYTES, w.first)
		TH_LOG("the write finished before the signal: nothing tested");
	EXPECT_GT(REAP_LIMIT_NS, t) TH_LOG("write returned %lld us late",
					   t / 1000);
	ASSERT_EQ(0, utfconv_status(self->fd, &st));
	EXPECT_EQ((__u64)w.first, st.bytes_in);
	EXPECT_EQ((__u64)w.first, st.replacements);
	EXPECT_EQ(0U, st.bytes_out);
	EXPECT_EQ(2, write(self->fd, "ok", 2));
	ASSERT_EQ(0, utfconv_status(self->fd, &st));
	EXPECT_EQ((__u64)w.first + 2, st.bytes_in);
	EXPECT_EQ(4U, st.ready_bytes);
}

/* Processes that wait in one shared epoll set watching the stream. */
static pid_t epoll_waiter(int ep)
{
	struct epoll_event ev;
	pid_t pid = fork();

	if (pid)
		return pid;
	for (;;)	/* level-triggered EPOLLOUT: poll is called every time */
		epoll_wait(ep, &ev, 1, 1000);
}

/* SIGKILL @pid, wait for it; returns the time to the reap, or -1. */
static long long kill_and_reap(pid_t pid)
{
	long long t = now_ns();
	int status;

	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	t = now_ns() - t;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? t : -1;
}

/*
 * Two processes share an epoll set holding the stream while a long write
 * converts, a third writes; each is reaped within a second of SIGKILL
 * (a waiter behind epoll's mutex stayed unkillable for the whole write
 * when poll took the stream's lock).
 */
TEST_F_TIMEOUT(blk, epoll_waiters_killable, 600)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT };
	long long t1, t2, t3;
	struct big_writer w;
	pid_t p1, p2, p3;
	int ep;

	ep = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, ep);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, self->fd, &ev));
	ASSERT_EQ(0, big_writer_start(&w, self->fd));

	p1 = epoll_waiter(ep);
	p2 = epoll_waiter(ep);
	p3 = fork();
	if (!p3) {
		for (;;)
			write(self->fd, w.buf, BIG_BYTES);
	}
	ASSERT_LT(0, p1);
	ASSERT_LT(0, p2);
	ASSERT_LT(0, p3);
	usleep(300000);
	t2 = kill_and_reap(p2);
	t1 = kill_and_reap(p1);
	t3 = kill_and_reap(p3);
	EXPECT_EQ(1, w.running) TH_LOG("the write ended before the kills");
	printf("# measured: reap: epoll waiters %lld us and %lld us, writer %lld us\n",
	       t2 / 1000, t1 / 1000, t3 / 1000);
	EXPECT_LE(0, t1);
	EXPECT_LE(0, t2);
	EXPECT_LE(0, t3);
	EXPECT_GT(REAP_LIMIT_NS, t1);
	EXPECT_GT(REAP_LIMIT_NS, t2);
	EXPECT_GT(REAP_LIMIT_NS, t3);
	big_writer_stop(&w);
	close(ep);
}

struct stalled_read {
	int fd;
	void *buf;
	size_t len;
	ssize_t ret;
	int err;
};

static void *stalled_reader(void *arg)
{
	struct stalled_read *r = arg;

	r->ret = read(r->fd, r->buf, r->len);
	r->err = errno;
	return NULL;
}

/* A userfaultfd handling missing pages of @area, @len bytes. */
static int uffd_register(void *area, size_t len)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {
		.range = { .start = (unsigned long)area, .len = len },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	int uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);

	if (uffd < 0)
		return -errno;
	if (ioctl(uffd, UFFDIO_API, &api) ||
	    ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		close(uffd);
		return -errno;
	}
	return uffd;
}

/*
 * A page for a read() to stall in: mapped, its missing page held back by
 * a new userfaultfd. Returns the userfaultfd or -errno.
 */
static int stall_page(size_t page, void **buf)
{
	*buf = mmap(NULL, page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*buf == MAP_FAILED)
		return -errno;
	return uffd_register(*buf, page);
}

/* Supply the page a stalled copy waits for (the fault of @msg). */
static int unstall_page(int uffd, const struct uffd_msg *msg, size_t page)
{
	struct uffdio_zeropage zp = {
		.range = {
			.start = msg->arg.pagefault.address & ~(page - 1),
			.len = page,
		},
	};

	return ioctl(uffd, UFFDIO_ZEROPAGE, &zp);
}

/* A stream and a page held back by userfaultfd for a read to stall in. */
FIXTURE(stall) {
	int fd;
	int uffd;
	size_t page;
	struct stalled_read r;
};

FIXTURE_SETUP(stall)
{
	self->uffd = -1;
	self->page = (size_t)sysconf(_SC_PAGESIZE);
	self->fd = open_skip();
	ASSERT_LE(0, self->fd) TH_LOG("open/config: %s", strerror(errno));
	self->uffd = stall_page(self->page, &self->r.buf);
	if (self->uffd == -ENOSYS)
		SKIP(return, "no userfaultfd in this kernel");
	ASSERT_LE(0, self->uffd) TH_LOG("userfaultfd: %s (as a user it needs vm.unprivileged_userfaultfd=1)",
					strerror(-self->uffd));
	self->r.fd = self->fd;
	self->r.len = 4;
}

FIXTURE_TEARDOWN(stall)
{
	if (self->uffd >= 0) {
		close(self->uffd);
		munmap(self->r.buf, self->page);
	}
	if (self->fd >= 0)
		close(self->fd);
}

/* A write() on a file whose lock a stalled read holds. */
struct held_write {
	int fd;
	volatile int done;
	ssize_t ret;
	int err;
};

static void *held_writer(void *arg)
{
	struct held_write *w = arg;

	w->ret = write(w->fd, "ef", 2);
	w->err = errno;
	w->done = 1;
	return NULL;
}

/*
 * A read whose copy_to_user() faults on a page that userfaultfd holds
 * back keeps its file's lock, as pipe_read() does. While it is stalled,
 * poll(..., 0) returns at once, another open file converts as usual, and
 * a write() on the same file, waiting for the lock, is ended by a caught
 * signal (EINTR, nothing taken). Once the page is supplied the stalled
 * read completes with the bytes it was due and the stream goes on.
 */
TEST_F_TIMEOUT(stall, poll_during_stalled_read, 120)
{
	struct stalled_read *r = &self->r;
	struct held_write w = { .fd = self->fd };
	struct utfconv_status st;
	struct uffd_msg msg;
	unsigned char out[8];
	pthread_t th, tw;
	long long t;
	int errors, fd2, sent = 0;

	ASSERT_EQ(4, write(self->fd, "abcd", 4));	/* 8 bytes ready */
	ASSERT_EQ(0, pthread_create(&th, NULL, stalled_reader, r));
	/* The fault message: the reader is inside copy_to_user() now. */
	ASSERT_EQ((ssize_t)sizeof(msg), read(self->uffd, &msg, sizeof(msg)));
	ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);

	t = best_poll_round(self->fd, 20, "stalled read", &errors);
	EXPECT_EQ(0, errors);
	EXPECT_GT(POLL_LIMIT_NS, t)
		TH_LOG("poll: slowest call of the best round: %lld us",
		       t / 1000);

	/* Another open file: not held up (the bound tells "returned"). */
	fd2 = open_skip();
	ASSERT_LE(0, fd2);
	t = now_ns();
	EXPECT_EQ(2, write(fd2, "ef", 2));
	EXPECT_EQ(4, read(fd2, out, sizeof(out)));
	EXPECT_EQ(0, utfconv_status(fd2, &st));
	t = now_ns() - t;
	close(fd2);
	printf("# measured: write, read, status of another file: stalled read: %lld us\n",
	       t / 1000);
	EXPECT_GT(REAP_LIMIT_NS, t);
	EXPECT_EQ(0, memcmp(out, "e\0f\0", 4));

	/* Signals until the held write returns: it may not wait yet. */
	utfconv_catch_signal(SIGUSR1);
	ASSERT_EQ(0, pthread_create(&tw, NULL, held_writer, &w));
	t = now_ns();
	while (!w.done && now_ns() - t < REAP_LIMIT_NS) {
		usleep(20000);
		pthread_kill(tw, SIGUSR1);
		sent++;
	}
	t = now_ns() - t;
	printf("# measured: write held by the stalled read: returned after %d signals, %lld us\n",
	       sent, t / 1000);
	EXPECT_EQ(1, w.done) TH_LOG("write not ended by %d signals", sent);
	if (!w.done) {
		/* Let it and the reader finish, then report. */
		EXPECT_EQ(0, unstall_page(self->uffd, &msg, self->page));
		pthread_join(tw, NULL);
		pthread_join(th, NULL);
		return;
	}
	pthread_join(tw, NULL);
	EXPECT_EQ(-1, w.ret);
	EXPECT_EQ(EINTR, w.err);

	EXPECT_EQ(0, unstall_page(self->uffd, &msg, self->page));
	pthread_join(th, NULL);
	EXPECT_EQ(4, r->ret) TH_LOG("stalled read: %s", strerror(r->err));
	EXPECT_EQ(0, memcmp(r->buf, "a\0b\0", 4));
	EXPECT_EQ(4, read(self->fd, out, sizeof(out)));
	EXPECT_EQ(0, memcmp(out, "c\0d\0", 4));
	ASSERT_EQ(0, utfconv_status(self->fd, &st));
	EXPECT_EQ(4U, st.bytes_in);
	EXPECT_EQ(0U, st.ready_bytes);
}

/*
 * RESET while a read is stalled in its copy returns at once, and poll()
 * reports the fresh stream at once. The stalled read, which began before
 * the reset, completes with the bytes it was copying ("bc" of "abcd");
 * the reset takes effect after it, so the stream is then empty and a new
 * write starts it from offset 0, none of "abcd" left.
 */
TEST_F_TIMEOUT(stall, reset_during_stalled_read, 120)
{
	struct stalled_read *r = &self->r;
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN | POLLOUT };
	struct utfconv_status st;
	struct uffd_msg msg;
	unsigned char out[16];
	pthread_t th;
	long long t;

	ASSERT_EQ(4, write(self->fd, "abcd", 4));	/* 8 bytes ready */
	ASSERT_EQ(2, read(self->fd, out, 2));
	ASSERT_EQ(0, pthread_create(&th, NULL, stalled_reader, r));
	ASSERT_EQ((ssize_t)sizeof(msg), read(self->uffd, &msg, sizeof(msg)));
	ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);

	t = now_ns();
	EXPECT_EQ(0, ioctl(self->fd, UTFCONV_IOC_RESET));
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	t = now_ns() - t;
	printf("# measured: reset and poll: stalled read: %lld us\n",
	       t / 1000);
	EXPECT_GT(REAP_LIMIT_NS, t);
	EXPECT_EQ(POLLOUT, pfd.revents);

	EXPECT_EQ(0, unstall_page(self->uffd, &msg, self->page));
	pthread_join(th, NULL);
	EXPECT_EQ(4, r->ret) TH_LOG("stalled read: %s", strerror(r->err));
	EXPECT_EQ(0, memcmp(r->buf, "b\0c\0", 4))
		TH_LOG("stalled read returned %02x %02x %02x %02x",
		       ((unsigned char *)r->buf)[0], ((unsigned char *)r->buf)[1],
		       ((unsigned char *)r->buf)[2], ((unsigned char *)r->buf)[3]);
	ASSERT_EQ(0, utfconv_status(self->fd, &st));
	EXPECT_EQ(0U, st.ready_bytes);
	EXPECT_EQ(0U, st.bytes_in);
	EXPECT_EQ(4, write(self->fd, "wxyz", 4));
	EXPECT_EQ(8, read(self->fd, out, sizeof(out)));
	EXPECT_EQ(0, memcmp(out, "w\0x\0y\0z\0", 8));
}

UTFCONV_TEST_MAIN
