// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv hardening tests of /dev/utfconv, run in the debug-kernel VM
 * (KASAN, UBSAN, kmemleak, lockdep, fault injection):
 *
 *   utfconv_hardening stress SECONDS   threads on many files (non-blocking,
 *       poll-driven) and a writer/reader/poller trio on one file: random
 *       input (valid and ill-formed, every direction, policy and flag),
 *       random write splits and read sizes, status/config ioctls, resets;
 *       every byte read is compared with the userspace build of the codec
 *   utfconv_hardening fault            fail-nth sweep (failslab,
 *       fail_page_alloc, fail_usercopy) over open (as root and as uid
 *       65534), write, read and every ioctl: each injected fault gives a
 *       clean errno and a retry gives the fault-free stream (needs root
 *       and debugfs)
 *   utfconv_hardening leak             poisoned buffers: reserved and
 *       padding bytes written back are zero, read() writes no byte past
 *       what it returns
 *   utfconv_hardening fuzz COUNT       random ioctl numbers, structs and
 *       pointers (unmapped, read-only, kernel), random read/write sizes
 *   utfconv_hardening opens N [CGROUP] as an unprivileged user, N open
 *       files each with output pending: memory per open (MemAvailable and
 *       the memory cgroup's memory.current when CGROUP is given)
 *
 * Every mode ends with "hardening <mode>: N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <linux/securebits.h>
#include <linux/utfconv.h>

#include "ref.h"
#include "../dev/utfconv_dirs.h"

#define DEV "/dev/utfconv"

static atomic_ullong bytes_checked, rounds, mismatches, failures;
static int passed, failed;

#define FAIL(...) do { fprintf(stderr, "FAIL: " __VA_ARGS__); \
	fputc('\n', stderr); atomic_fetch_add(&failures, 1); } while (0)

static void result(int ok, const char *what)
{
	printf("%s %s\n", ok ? "ok" : "not ok", what);
	if (ok)
		passed++;
	else
		failed++;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* xorshift64* */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static unsigned int urnd(uint64_t *s, unsigned int n)
{
	return n ? rnd(s) % n : 0;
}

static uint32_t rand_cp(uint64_t *s)
{
	uint32_t c;

	switch (urnd(s, 5)) {
	case 0: case 1: return 0x20 + urnd(s, 0x5F);
	case 2: return 0x80 + urnd(s, 0x780);
	case 3:
		do
			c = 0x800 + urnd(s, 0xF800);
		while (c >= 0xD800 && c < 0xE000);
		return c;
	default: return 0x10000 + urnd(s, 0x100000);
	}
}

/*
 * gen_input() - n bytes (about) of input for @dir: valid text, text with
 * a few corruptions, or random bytes; returns the length.
 */
static size_t gen_input(uint64_t *s, unsigned int dir, unsigned char *buf,
			size_t n)
{
	unsigned int kind = urnd(s, 8);
	int utf16 = dir >= TEST_DIR_UTF16LE_TO_UTF8;
	int be = dir == TEST_DIR_UTF16BE_TO_UTF8 || dir == TEST_DIR_UTF16_TO_UTF8;
	size_t len = 0, i;

	if (kind == 7) {
		for (i = 0; i < n; i++)
			buf[i] = rnd(s);
		return n;
	}
	if (urnd(s, 4) == 0) {	/* a BOM */
		if (!utf16) {
			memcpy(buf, "\xEF\xBB\xBF", 3);
			len = 3;
		} else {
			if (dir == TEST_DIR_UTF16_TO_UTF8)
				be = urnd(s, 2);
			ref_put_utf16(buf, 0xFEFF, be);
			len = 2;
		}
	}
	while (len + 8 <= n) {
		uint32_t c = rand_cp(s);

		if (kind >= 5 && urnd(s, 64) == 0) {	/* corrupt */
			if (utf16) {
				ref_put_utf16(buf + len, 0xD800 + urnd(s, 0x800),
					      be);
				len += 2;
			} else {
				buf[len++] = 0x80 + urnd(s, 0x80);
			}
			continue;
		}
		len += utf16 ? ref_put_utf16(buf + len, c, be) :
			       ref_put_utf8(buf + len, c);
	}
	if (kind == 6 && len)	/* cut in the middle of a character */
		len -= 1 + urnd(s, len < 3 ? len : 3);
	return len;
}

struct job {
	unsigned int dir, policy, flags;
	unsigned char *in;
	size_t len;
	unsigned char *exp;
	size_t explen;
	int expret;
};

static int job_make(uint64_t *s, struct job *j, size_t maxlen)
{
	j->dir = 1 + urnd(s, TEST_DIR_COUNT);
	j->policy = urnd(s, TEST_POLICY_LAST + 1);
	j->flags = urnd(s, 4);
	j->in = malloc(maxlen + 8);
	j->len = gen_input(s, j->dir, j->in, urnd(s, maxlen));
	j->expret = ref_convert(j->dir, j->policy, j->flags, j->in, j->len,
				&j->exp, &j->explen);
	return j->expret;
}

static void job_free(struct job *j)
{
	free(j->in);
	free(j->exp);
}

static int set_config(int fd, struct job *j)
{
	struct utfconv_config c = { .policy = j->policy, .flags = j->flags };

	test_dir_encodings(j->dir, &c.source, &c.target);
	return ioctl(fd, UTFCONV_IOC_SET_CONFIG, &c);
}

/* job_check() - compare a stream's output and final result with @j. */
static int job_check(struct job *j, const unsigned char *got, size_t gotlen,
		     int final, const char *who)
{
	size_t i, n = gotlen < j->explen ? gotlen : j->explen;

	for (i = 0; i < n && got[i] == j->exp[i]; i++)
		;
	atomic_fetch_add(&bytes_checked, i);
	atomic_fetch_add(&rounds, 1);
	if (i == n && gotlen == j->explen && final == j->expret)
		return 0;
	atomic_fetch_add(&mismatches, 1);
	FAIL("%s: dir %u policy %u flags %u input %zu bytes: got %zu bytes (end %d), want %zu (end %d), first difference at %zu",
	     who, j->dir, j->policy, j->flags, j->len, gotlen, final,
	     j->explen, j->expret, i);
	return -1;
}

static int check_status(int fd)
{
	struct utfconv_status st;
	unsigned int i;

	memset(&st, 0xA5, sizeof(st));
	if (ioctl(fd, UTFCONV_IOC_GET_STATUS, &st)) {
		FAIL("GET_STATUS: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < 6; i++)
		if (st.padding[i]) {
			FAIL("GET_STATUS padding[%u] = %#x", i, st.padding[i]);
			return -1;
		}
	if (st.pending_bytes > 3) {
		FAIL("GET_STATUS pending_bytes %u", st.pending_bytes);
		return -1;
	}
	return 0;
}

/* --- stress: many files, one thread each, non-blocking --------------- */

static volatile int stop;
static double deadline;

/*
 * One round on a non-blocking @fd: RESET, SET_CONFIG, then writes, reads
 * and a FLUSH as poll() allows, all with random sizes; sometimes the round
 * is abandoned by a RESET halfway.
 */
static void nb_round(uint64_t *s, int fd, size_t maxlen)
{
	struct job j;
	unsigned char *got, *rbuf;
	size_t gotlen = 0, wpos = 0, cap;
	int flushed = 0, werr = 0, final = 1, abandon = urnd(s, 16) == 0;
	double t0 = now();

	job_make(s, &j, maxlen);
	cap = j.explen + 65536 + 16;
	got = malloc(cap);
	rbuf = malloc(16384);
	if (ioctl(fd, UTFCONV_IOC_RESET) || set_config(fd, &j)) {
		FAIL("reset/set_config: %s", strerror(errno));
		goto out;
	}
	while (final == 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r;

		if (now() - t0 > 30) {
			FAIL("round stuck: wpos %zu of %zu, flushed %d, got %zu",
			     wpos, j.len, flushed, gotlen);
			goto out;
		}
		if (!flushed)
			p.events |= POLLOUT;
		r = poll(&p, 1, 2000);
		if (r == 0) {
			FAIL("poll timed out: wpos %zu of %zu, flushed %d, got %zu",
			     wpos, j.len, flushed, gotlen);
			goto out;
		}
		if (urnd(s, 8) == 0)
			check_status(fd);
		if (abandon && wpos > j.len / 2) {
			if (ioctl(fd, UTFCONV_IOC_RESET))
				FAIL("RESET: %s", strerror(errno));
			goto out;
		}
		if ((p.revents & POLLOUT) && wpos < j.len && !werr) {
			size_t max = j.len - wpos, c;

			c = 1 + urnd(s, urnd(s, 2) ? 16 : 20000);
			if (c > max)
				c = max;
			r = write(fd, j.in + wpos, c);
			if (r > 0)
				wpos += r;
			else if (r < 0 && (errno == EILSEQ || errno == EINVAL))
				werr = errno;
			else if (!(r < 0 && errno == EAGAIN))
				FAIL("write %zu: %d %s", c, r, strerror(errno));
		}
		if (!flushed && (wpos == j.len || werr)) {
			r = ioctl(fd, UTFCONV_IOC_FLUSH);
			if (r == 0 || errno == EILSEQ || errno == EINVAL)
				flushed = 1;
			else if (errno != EAGAIN)
				FAIL("FLUSH: %s", strerror(errno));
		}
		if (p.revents & POLLIN) {
			size_t c = 1 + urnd(s, urnd(s, 2) ? 7 : 16384);

			r = read(fd, rbuf, c);
			if (r > 0) {
				if (gotlen + r > cap) {
					FAIL("too much output: %zu", gotlen + r);
					goto out;
				}
				memcpy(got + gotlen, rbuf, r);
				gotlen += r;
			} else if (r == 0) {
				final = 0;
			} else if (errno == EILSEQ || errno == EINVAL) {
				final = -errno;
			} else if (errno != EAGAIN) {
				FAIL("read: %s", strerror(errno));
				goto out;
			}
		}
	}
	job_check(&j, got, gotlen, final, "many-files");
out:
	free(got);
	free(rbuf);
	job_free(&j);
}

static void *many_files(void *arg)
{
	uint64_t s = (uintptr_t)arg * 0x9E3779B97F4A7C15ULL + 1;
	int fds[4], i, k;

	for (i = 0; i < 4; i++) {
		fds[i] = open(DEV, O_RDWR | O_NONBLOCK);
		if (fds[i] < 0) {
			FAIL("open: %s", strerror(errno));
			return NULL;
		}
	}
	for (k = 0; now() < deadline; k++)
		nb_round(&s, fds[k % 4], urnd(&s, 4) ? 4096 : 200000);
	for (i = 0; i < 4; i++)
		close(fds[i]);
	return NULL;
}

/* --- stress: one file, a writer, a reader and a poller --------------- */

struct trio {
	int fd;
	struct job j;
	uint64_t s;
	unsigned char *got;
	size_t gotlen, cap;
	int final;
	atomic_int done;
};

static void *trio_writer(void *arg)
{
	struct trio *t = arg;
	size_t wpos = 0;
	uint64_t s = t->s ^ 0x1234;

	while (wpos < t->j.len) {
		size_t c = 1 + urnd(&s, urnd(&s, 2) ? 9 : 30000);
		ssize_t r;

		if (c > t->j.len - wpos)
			c = t->j.len - wpos;
		r = write(t->fd, t->j.in + wpos, c);
		if (r > 0) {
			wpos += r;
		} else if (r < 0 && (errno == EILSEQ || errno == EINVAL)) {
			break;
		} else {
			FAIL("trio write: %zd %s", r, strerror(errno));
			break;
		}
	}
	if (ioctl(t->fd, UTFCONV_IOC_FLUSH) && errno != EILSEQ && errno != EINVAL)
		FAIL("trio FLUSH: %s", strerror(errno));
	return NULL;
}

static void *trio_reader(void *arg)
{
	struct trio *t = arg;
	uint64_t s = t->s ^ 0x5678;
	unsigned char buf[16384];

	for (;;) {
		ssize_t r = read(t->fd, buf, 1 + urnd(&s, urnd(&s, 2) ? 5 : sizeof(buf)));

		if (r > 0) {
			if (t->gotlen + r > t->cap) {
				FAIL("trio: too much output");
				t->final = 99;
				break;
			}
			memcpy(t->got + t->gotlen, buf, r);
			t->gotlen += r;
		} else if (r == 0) {
			t->final = 0;
			break;
		} else {
			t->final = -errno;
			break;
		}
	}
	atomic_store(&t->done, 1);
	return NULL;
}

static void *trio_poller(void *arg)
{
	struct trio *t = arg;
	struct utfconv_config c, want = { .policy = t->j.policy };

	test_dir_encodings(t->j.dir, &want.source, &want.target);
	while (!atomic_load(&t->done)) {
		struct pollfd p = { .fd = t->fd, .events = POLLIN | POLLOUT };

		poll(&p, 1, 5);
		check_status(t->fd);
		if (ioctl(t->fd, UTFCONV_IOC_GET_CONFIG, &c) ||
		    c.source != want.source || c.target != want.target ||
		    c.policy != want.policy)
			FAIL("trio GET_CONFIG");
	}
	return NULL;
}

static void *one_file(void *arg)
{
	uint64_t s = (uintptr_t)arg * 0xD1B54A32D192ED03ULL + 7;
	int fd = open(DEV, O_RDWR);

	if (fd < 0) {
		FAIL("open: %s", strerror(errno));
		return NULL;
	}
	while (now() < deadline) {
		struct trio t = { .fd = fd, .s = rnd(&s) };
		pthread_t w, r, p;

		job_make(&s, &t.j, urnd(&s, 4) ? 100000 : 400000);
		t.cap = t.j.explen + 65536;
		t.got = malloc(t.cap);
		if (ioctl(fd, UTFCONV_IOC_RESET) || set_config(fd, &t.j)) {
			FAIL("trio reset/config: %s", strerror(errno));
			break;
		}
		pthread_create(&r, NULL, trio_reader, &t);
		pthread_create(&p, NULL, trio_poller, &t);
		pthread_create(&w, NULL, trio_writer, &t);
		pthread_join(w, NULL);
		pthread_join(r, NULL);
		pthread_join(p, NULL);
		job_check(&t.j, t.got, t.gotlen, t.final, "one-file");
		free(t.got);
		job_free(&t.j);
	}
	close(fd);
	return NULL;
}

static int do_stress(int seconds)
{
	pthread_t th[6];
	int i, n = 0;
	double t0 = now();

	deadline = t0 + seconds;
	for (i = 0; i < 4; i++)
		pthread_create(&th[n++], NULL, many_files, (void *)(uintptr_t)(i + 1));
	for (i = 0; i < 2; i++)
		pthread_create(&th[n++], NULL, one_file, (void *)(uintptr_t)(i + 1));
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("# stress: %.1f s, %llu rounds, %llu bytes checked, %llu mismatches, %llu failures\n",
	       now() - t0, (unsigned long long)rounds,
	       (unsigned long long)bytes_checked,
	       (unsigned long long)mismatches, (unsigned long long)failures);
	result(rounds > 0 && bytes_checked > 0 && !mismatches && !failures,
	       "stress: every byte equals the userspace codec's");
	return 0;
}

/* --- fault injection ------------------------------------------------- */

static int nth_fd = -1;
/* /proc/thread-self/make-it-fail, opened as root: the task filter's switch */
static int mif_fd = -1;

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	int r;

	if (fd < 0)
		return -1;
	r = write(fd, val, strlen(val)) == (ssize_t)strlen(val) ? 0 : -1;
	close(fd);
	return r;
}

static void nth_arm(unsigned int n)
{
	char b[16];
	int l = snprintf(b, sizeof(b), "%u", n);

	if (pwrite(nth_fd, b, l, 0) != l)
		FAIL("fail-nth write: %s", strerror(errno));
}

/* nth_disarm() - 1 when the armed fault was injected; disarms. */
static int nth_disarm(void)
{
	char b[16] = "";
	int tries;

	for (tries = 0; tries < 10; tries++) {
		if (pread(nth_fd, b, sizeof(b) - 1, 0) <= 0)
			return -1;
		if (atoi(b) == 0)
			return tries == 0;
		pwrite(nth_fd, "0", 1, 0);
	}
	return -1;
}

/* Calls that an injected fault made fail (with a clean errno). */
static unsigned int failed_calls, injections;

/*
 * F_OPEN_USER: open with the effective uid 65534, which has no other file
 * open, so that the open adds that uid's entry to the per-user count
 * and lib/xarray allocates its nodes (root's uid 0 is kept in the
 * xarray's head and needs none). lib/xarray retries a node allocation
 * that failed under its lock (GFP_NOWAIT, silent) with the caller's
 * flags, so one fault never reaches the count's error path: in this
 * operation every slab allocation after the n-th fault point fails too
 * (failslab's task filter, fault_case()).
 */
enum fop { F_OPEN, F_OPEN_USER, F_WRITE, F_READ, F_STATUS, F_GETCFG,
	   F_SETCFG, F_INFO, F_CONVERT, F_FLUSH, F_RESET, F_NR };
static const char *const fop_name[] = { "open", "open_user", "write",
	"read", "status", "get_config", "set_config", "info", "convert",
	"flush", "reset" };

/* The operations whose fault fault_case() arms at the call itself. */
static int fop_armed_first(enum fop op)
{
	return op == F_OPEN || op == F_OPEN_USER || op == F_SETCFG;
}

/*
 * Sets the effective uid to @euid, keeping the real and saved uid 0 and,
 * by SECBIT_NO_SETUID_FIXUP (do_fault()), the capabilities: make-it-fail
 * takes writes from CAP_SYS_RESOURCE only.
 */
static void fault_euid(uid_t euid)
{
	if (setresuid(-1, euid, -1))
		FAIL("setresuid(-1, %u, -1): %s", (unsigned int)euid,
		     strerror(errno));
}

/*
 * Fault sites: with verbose=2 every injected fault logs
 * "FAULT_INJECTION: forcing a failure. name <attr>, ..." and a stack
 * trace. The site is the first reliable frame of the module in that
 * trace, "function+0xoffset": the return address of the module's call
 * into the allocator or user-copy function that failed. Faults injected
 * with __GFP_NOWARN (kvmalloc()'s first try) log nothing.
 */
#define MAX_SITES 64
struct site {
	char where[96];		/* utfconv_open+0x1a5 */
	char attr[64];		/* failslab,fail_usercopy,fail_page_alloc */
	unsigned int ops;	/* bit per enum fop */
	unsigned int hits;
};
static struct site site_tab[MAX_SITES];
static unsigned int nsites, traces, traces_elsewhere;
static int kmsg_fd = -1, kmsg_wfd = -1;
/* The current case: its last trace's fault attribute and site. */
static char case_attr[24], case_site[96];
static unsigned int case_traces;

static void site_add(const char *where, const char *attr, enum fop op)
{
	struct site *t;
	unsigned int i;

	for (i = 0; i < nsites; i++)
		if (!strcmp(site_tab[i].where, where))
			break;
	if (i == nsites) {
		if (nsites == MAX_SITES)
			return;
		snprintf(site_tab[i].where, sizeof(site_tab[i].where), "%s", where);
		nsites++;
	}
	t = &site_tab[i];
	if (attr[0] && !strstr(t->attr, attr))
		snprintf(t->attr + strlen(t->attr), sizeof(t->attr) - strlen(t->attr),
			 "%s%s", t->attr[0] ? "," : "", attr);
	t->ops |= 1U << op;
	site_tab[i].hits++;
}

/*
 * kmsg_line() - one kernel log record's text: follow the stack trace of
 * an injected fault and record its fault site for operation @op.
 */
static void kmsg_line(char *msg, enum fop op)
{
	static char attr[24];
	static int in_trace;
	char *p, *e;

	p = strstr(msg, "FAULT_INJECTION: forcing a failure.");
	if (!p && strstr(msg, "vmalloc error: ")) {
		/* warn_alloc() after the injected faults of fault_kvmalloc() */
		p = "name fail_page_alloc,";
	}
	if (p) {
		if (in_trace)
			traces_elsewhere++;
		in_trace = 1;
		traces++;
		case_traces++;
		attr[0] = 0;
		p = strstr(p, "name ");
		if (p) {
			p += 5;
			e = strchr(p, ',');
			snprintf(attr, sizeof(attr), "%.*s",
				 e ? (int)(e - p) : (int)strlen(p), p);
		}
		snprintf(case_attr, sizeof(case_attr), "%s", attr);
		case_site[0] = 0;
		return;
	}
	if (!in_trace)
		return;
	if (strstr(msg, "</TASK>")) {
		in_trace = 0;
		traces_elsewhere++;
		return;
	}
	p = msg;
	while (*p == ' ')
		p++;
	/* a frame of the library or of the device module */
	if (p[0] == '?' ||
	    (!strstr(p, " [utfconv]") && !strstr(p, " [utfconv_dev]")))
		return;
	e = strchr(p, '/');	/* utfconv_open+0x1a5/0x4d0 [utfconv_dev] */
	if (e)
		*e = 0;
	site_add(p, attr, op);
	snprintf(case_site, sizeof(case_site), "%s", p);
	in_trace = 0;
}

/*
 * kmsg_sites() - read the kernel log records written since the last call
 * (/dev/kmsg, non-blocking) and record the fault site of every injected
 * fault's stack trace for operation @op. A marker record written first
 * ends the reading: every record logged before it has been seen.
 */
static void kmsg_sites(enum fop op, unsigned int n)
{
	char rec[4096], marker[64], *msg, *p;
	unsigned int waits = 0;
	ssize_t r;

	if (kmsg_fd < 0)
		return;
	snprintf(marker, sizeof(marker), "utfconv_hardening: case %s %u done",
		 fop_name[op], n);
	snprintf(rec, sizeof(rec), "<6>%s\n", marker);
	/* one write() (dprintf() would lseek(), which /dev/kmsg refuses) */
	if (write(kmsg_wfd, rec, strlen(rec)) != (ssize_t)strlen(rec))
		FAIL("/dev/kmsg write: %s", strerror(errno));
	for (;;) {
		r = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (r < 0 && errno == EPIPE)
			continue;	/* records overwritten: go on */
		if (r < 0 && errno == EAGAIN && waits++ < 3000) {
			usleep(1000);
			continue;
		}
		if (r <= 0) {
			FAIL("/dev/kmsg: no marker after case %s %u (%s, %u waits)",
			     fop_name[op], n, r ? strerror(errno) : "end", waits);
			break;
		}
		rec[r] = 0;
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		p = strchr(msg, '\n');
		if (p)
			*p = 0;
		if (!strcmp(msg, marker))
			break;
		kmsg_line(msg, op);
	}
}

/*
 * fault_filter() - with @on, every call of fault attribute @attr (a
 * directory of /sys/kernel/debug) fails while this task's make-it-fail
 * (mif_fd) is 1, once no fail-nth count is pending; without, none does.
 */
static void fault_filter(const char *attr, int on)
{
	static const char *const set[][2] = {
		{ "task-filter", "Y" }, { "ignore-gfp-highmem", "N" },
		{ "times", "-1" }, { "interval", "1" }, { "probability", "100" },
	};
	static const char *const reset[][2] = {
		{ "probability", "0" }, { "times", "1" },
		{ "ignore-gfp-highmem", "Y" }, { "task-filter", "N" },
	};
	const char *const (*kv)[2] = on ? set : reset;
	unsigned int i, n = on ? sizeof(set) / sizeof(set[0]) :
				 sizeof(reset) / sizeof(reset[0]);
	char path[128];

	for (i = 0; i < n; i++) {
		/* failslab has no ignore-gfp-highmem */
		if (!strcmp(kv[i][0], "ignore-gfp-highmem") &&
		    strcmp(attr, "fail_page_alloc"))
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/debug/%s/%s", attr,
			 kv[i][0]);
		if (write_file(path, kv[i][1]))
			FAIL("%s: %s", path, strerror(errno));
	}
}

/*
 * fault_case() - a stream on a fresh file with the n-th fault point of
 * operation @op injected; the call must fail cleanly or succeed, and the
 * stream, finished without faults, must equal the fault-free one.
 * Returns 1 if the fault was injected, 0 if @op has fewer fault points.
 */
static int fault_case(enum fop op, unsigned int n, struct job *j)
{
	unsigned char out[65536];
	size_t outlen = 0, wpos = 0, pre;
	int fd, r, e, inj, final, call_err = 0;
	struct utfconv_status st;
	struct utfconv_config cf;
	struct utfconv_info info;
	struct utfconv_convert cv;
	const int ok_err[] = { ENOMEM, EFAULT, EMFILE, EINTR };

	if (op == F_OPEN || op == F_OPEN_USER) {
		/*
		 * A change of credentials allocates, and reading or writing
		 * fail-nth counts as a fault point: in this order, only the
		 * open meets the faults.
		 */
		if (op == F_OPEN_USER) {
			fault_filter("failslab", 1);
			fault_euid(65534);
			if (pwrite(mif_fd, "1", 1, 0) != 1)
				FAIL("make-it-fail: %s", strerror(errno));
		}
		nth_arm(n);
		fd = open(DEV, O_RDWR);
		e = errno;
		inj = nth_disarm();
		if (op == F_OPEN_USER) {
			pwrite(mif_fd, "0", 1, 0);
			fault_euid(0);
			fault_filter("failslab", 0);
		}
		if (fd < 0) {
			call_err = e;
			if (e != ENOMEM && e != EMFILE && e != EFAULT)
				FAIL("open with fault %u: %s", n, strerror(e));
			else if (inj > 0)
				failed_calls++;
			fd = open(DEV, O_RDWR);
		}
		if (fd < 0) {
			FAIL("open: %s", strerror(errno));
			return 0;
		}
	} else {
		fd = open(DEV, O_RDWR);
		if (fd < 0) {
			FAIL("open: %s", strerror(errno));
			return 0;
		}
		inj = 0;
	}
	if (op == F_SETCFG) {
		struct utfconv_config c = { .policy = j->policy,
					    .flags = j->flags };

		test_dir_encodings(j->dir, &c.source, &c.target);

		nth_arm(n);
		r = ioctl(fd, UTFCONV_IOC_SET_CONFIG, &c);
		e = errno;
		inj = nth_disarm();
		if (r)
			call_err = e;
		if (r && e != EFAULT)
			FAIL("SET_CONFIG with fault %u: %s", n, strerror(e));
		else if (r && inj > 0)
			failed_calls++;
		if (r)
			r = set_config(fd, j);
	} else {
		r = set_config(fd, j);
	}
	if (r) {
		FAIL("set_config: %s", strerror(errno));
		close(fd);
		return inj;
	}
	/* Half the input before the operation (all before FLUSH), the rest after. */
	pre = op == F_FLUSH ? j->len : j->len / 2;
	while (wpos < pre) {
		r = write(fd, j->in + wpos, pre - wpos);
		if (r <= 0)
			break;
		wpos += r;
	}
	r = 0;
	e = 0;
	/* open and set_config had their fault above: not armed again here */
	if (!fop_armed_first(op))
		nth_arm(n);
	switch (op) {
	case F_WRITE:
		r = write(fd, j->in + wpos, j->len - wpos);
		e = errno;
		if (r > 0)
			wpos += r;
		break;
	case F_READ:
		r = read(fd, out, 1000);
		e = errno;
		if (r > 0)
			outlen += r;
		break;
	case F_STATUS: r = ioctl(fd, UTFCONV_IOC_GET_STATUS, &st); e = errno; break;
	case F_GETCFG: r = ioctl(fd, UTFCONV_IOC_GET_CONFIG, &cf); e = errno; break;
	case F_INFO: r = ioctl(fd, UTFCONV_IOC_GET_INFO, &info); e = errno; break;
	case F_FLUSH: r = ioctl(fd, UTFCONV_IOC_FLUSH); e = errno; break;
	case F_RESET: r = ioctl(fd, UTFCONV_IOC_RESET); e = errno; break;
	case F_CONVERT: {
		static unsigned char dst[1 << 20];

		memset(&cv, 0, sizeof(cv));
		cv.policy = j->policy;
		cv.flags = j->flags;
		test_dir_encodings(j->dir, &cv.source, &cv.target);
		cv.src = (uintptr_t)j->in;
		cv.src_bytes = j->len;
		cv.dst = (uintptr_t)dst;
		cv.dst_bytes = sizeof(dst);
		r = ioctl(fd, UTFCONV_IOC_CONVERT, &cv);
		e = errno;
		if (!r && (cv.dst_used != j->explen ||
			   memcmp(dst, j->exp, j->explen)))
			FAIL("CONVERT with fault %u: different output", n);
		if (r && j->expret && e == -j->expret && cv.dst_used == j->explen &&
		    !memcmp(dst, j->exp, j->explen))
			r = 0;	/* the strict error of the input itself */
		break;
	}
	default:
		break;
	}
	if (!fop_armed_first(op)) {
		inj = nth_disarm();
		if (r < 0)
			call_err = e;
	}
	if (!fop_armed_first(op) && r < 0) {
		unsigned int i, okerr = 0;

		for (i = 0; i < sizeof(ok_err) / sizeof(ok_err[0]); i++)
			okerr |= e == ok_err[i];
		/* The input's own errors are not faults. */
		if ((op == F_WRITE || op == F_FLUSH || op == F_READ) &&
		    (e == EILSEQ || e == EINVAL || e == EAGAIN))
			okerr = 1;
		if (!okerr)
			FAIL("%s with fault %u: errno %s", fop_name[op], n, strerror(e));
		else if (inj > 0 && e != EILSEQ && e != EINVAL && e != EAGAIN)
			failed_calls++;
	}
	if (op == F_RESET) {
		/* A reset (successful or not) restarts: write all again. */
		ioctl(fd, UTFCONV_IOC_RESET);
		outlen = 0;
		wpos = 0;
	}
	injections += inj > 0;
	case_attr[0] = 0;
	case_site[0] = 0;
	case_traces = 0;
	/* Finish without faults: write the rest, flush, read everything. */
	while (wpos < j->len) {
		r = write(fd, j->in + wpos, j->len - wpos);
		if (r <= 0)
			break;
		wpos += r;
	}
	ioctl(fd, UTFCONV_IOC_FLUSH);
	final = 1;
	while (final == 1) {
		if (outlen >= sizeof(out)) {
			FAIL("fault case: too much output");
			break;
		}
		r = read(fd, out + outlen, sizeof(out) - outlen);
		if (r > 0)
			outlen += r;
		else
			final = r == 0 ? 0 : -errno;
	}
	if (job_check(j, out, outlen, final, fop_name[op]))
		fprintf(stderr, "  (fault %u of %s)\n", n, fop_name[op]);
	close(fd);
	kmsg_sites(op, n);
	if (inj > 0)
		printf("# fault: %-10s n=%-3u %-15s %-28s %s\n", fop_name[op], n,
		       case_traces ? case_attr : "-",
		       case_site[0] ? case_site :
		       case_traces ? "(outside utfconv)" : "(no trace: __GFP_NOWARN)",
		       call_err ? strerror(call_err) : "call succeeded");
	return inj;
}

/* Sites the module has (fault-sites.txt, written by scripts/vm.sh). */
static char expected[MAX_SITES][96], expected_callee[MAX_SITES][64];
static unsigned int nexpected;

static void read_expected(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];

	if (!f)
		return;
	while (nexpected < MAX_SITES && fgets(line, sizeof(line), f))
		if (sscanf(line, "%95s %63s", expected[nexpected],
			   expected_callee[nexpected]) >= 1)
			nexpected++;
	fclose(f);
}

static int site_hit(const char *where)
{
	unsigned int k;

	for (k = 0; k < nsites; k++)
		if (!strcmp(site_tab[k].where, where))
			return 1;
	return 0;
}

/* kvmalloc_missing() - the kvmalloc() call site has not failed yet */
static int kvmalloc_missing(void)
{
	unsigned int i;

	for (i = 0; i < nexpected; i++)
		if (strstr(expected_callee[i], "kvmalloc") && !site_hit(expected[i]))
			return 1;
	return 0;
}

/* missing_sites() - expected sites not failed yet; prints them. */
static unsigned int missing_sites(int print)
{
	unsigned int i, k, missing = 0;

	for (i = 0; i < nexpected; i++) {
		for (k = 0; k < nsites; k++)
			if (!strcmp(site_tab[k].where, expected[i]))
				break;
		if (k == nsites) {
			missing++;
			if (print)
				printf("# fault: not failed yet: %s\n", expected[i]);
		}
	}
	return missing;
}

/*
 * fault_kvmalloc() - fail the kvmalloc() of the output buffer, which the
 * first write() of a stream makes. Its first try (kmalloc) fails silently
 * (__GFP_NOWARN) and vmalloc takes over, so one injected fault never
 * fails it. Here every page allocation of this task fails during that
 * write() (fail_page_alloc: probability 100, task-filter, make-it-fail):
 * both tries fail, vmalloc logs "vmalloc error" with a stack trace, and
 * write() must fail with -ENOMEM; the stream stays usable. An allocation
 * before it may need a fresh slab page and fail first: up to @tries
 * streams, each after a fault-free write that warms the caches, until
 * the kvmalloc() site of fault-sites.txt has failed (one try without
 * that list).
 */
static void fault_kvmalloc(unsigned int tries)
{
	unsigned int i;
	int fd, e;

	fault_filter("fail_page_alloc", 1);
	for (i = 0; i < tries; i++) {
		ssize_t r;

		if (i && (!nexpected || !kvmalloc_missing()))
			break;
		fd = open(DEV, O_RDWR);
		if (fd >= 0)
			close(fd);
		fd = open(DEV, O_RDWR);
		if (fd < 0) {
			FAIL("open: %s", strerror(errno));
			break;
		}
		case_attr[0] = 0;
		case_site[0] = 0;
		case_traces = 0;
		pwrite(mif_fd, "1", 1, 0);
		r = write(fd, "a", 1);
		e = errno;
		pwrite(mif_fd, "0", 1, 0);
		if (r < 0 && e != ENOMEM)
			FAIL("first write with every page allocation failing: %s",
			     strerror(e));
		else if (r < 0)
			failed_calls++;
		if (r < 0 && write(fd, "a", 1) != 1)
			FAIL("write after the failed first write: %s",
			     strerror(errno));
		close(fd);
		injections++;
		kmsg_sites(F_WRITE, 1000 + i);
		printf("# fault: write      all pages %-15s %-28s %s\n",
		       case_traces ? case_attr : "-",
		       case_site[0] ? case_site : "(no trace)",
		       r < 0 ? strerror(e) : "call succeeded");
	}
	fault_filter("fail_page_alloc", 0);
}

/*
 * fault_nowait() - a pwritev2(RWF_NOWAIT) to a fresh stream with its n-th
 * fault point failed, n = 1, 2, ... until one injects nothing: the write
 * allocates its input buffer and the output ring without sleeping, and
 * a failed allocation gives EAGAIN (retry where it may sleep), never
 * ENOMEM; a failed user copy gives EFAULT. The stream stays usable.
 */
static void fault_nowait(void)
{
	struct iovec v = { .iov_base = "abc", .iov_len = 3 };
	unsigned int n, eagain = 0;
	int fd, inj, e;
	ssize_t r;

	for (n = 1; n < 100; n++) {
		fd = open(DEV, O_RDWR);
		if (fd < 0) {
			FAIL("open: %s", strerror(errno));
			return;
		}
		nth_arm(n);
		r = pwritev2(fd, &v, 1, -1, RWF_NOWAIT);
		e = errno;
		inj = nth_disarm();
		if (r < 0 && e != EAGAIN && e != EFAULT)
			FAIL("RWF_NOWAIT write, fault point %u: %s (want EAGAIN)",
			     n, strerror(e));
		else if (r >= 0 && r != 3)
			FAIL("RWF_NOWAIT write, fault point %u: %zd bytes", n, r);
		if (r < 0 && e == EAGAIN)
			eagain++;
		if (r < 0 && write(fd, "abc", 3) != 3)
			FAIL("write after the failed RWF_NOWAIT write: %s",
			     strerror(errno));
		close(fd);
		if (inj <= 0)
			break;
	}
	printf("# fault: RWF_NOWAIT write: %u fault points, %u gave EAGAIN\n",
	       n - 1, eagain);
	result(eagain > 0, "fault: RWF_NOWAIT write: a failed allocation gives EAGAIN");
}

static int do_fault(void)
{
	static const char *const attrs[] = { "failslab", "fail_page_alloc",
		"fail_usercopy" };
	char path[128];
	unsigned int i, n, pass, per[F_NR];
	uint64_t s = 42;
	struct job j = { 0 };
	int op;

	/* verbose=2: a stack trace per injected fault, for the fault sites */
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/%s/verbose", attrs[i]);
		if (write_file(path, "2") && i == 1) {
			printf("# fault: no %s: page allocations are not failed\n", path);
			continue;
		}
		if (write_file(path, "2")) {
			printf("# fault: no %s (debugfs, CONFIG_FAULT_INJECTION_DEBUG_FS)\n", path);
			result(0, "fault: fault injection available");
			return 0;
		}
		snprintf(path, sizeof(path), "/sys/kernel/debug/%s/ignore-gfp-wait", attrs[i]);
		write_file(path, "N");
	}
	write_file("/sys/kernel/debug/fail_page_alloc/min-order", "0");
	/*
	 * Markers written to /dev/kmsg must not be rate-limited away (the
	 * sysctl takes the value only with its newline).
	 */
	if (write_file("/proc/sys/kernel/printk_devkmsg", "on\n"))
		FAIL("printk_devkmsg: %s", strerror(errno));
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	kmsg_wfd = open("/dev/kmsg", O_WRONLY);
	if (kmsg_fd < 0 || kmsg_wfd < 0 || lseek(kmsg_fd, 0, SEEK_END) < 0) {
		printf("# fault: /dev/kmsg: %s\n", strerror(errno));
		result(0, "fault: kernel log readable");
		return 0;
	}
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	mif_fd = open("/proc/thread-self/make-it-fail", O_WRONLY);
	if (nth_fd < 0 || mif_fd < 0) {
		printf("# fault: no /proc/thread-self/fail-nth or make-it-fail\n");
		result(0, "fault: fail-nth available");
		return 0;
	}
	if (prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP))
		FAIL("PR_SET_SECUREBITS: %s", strerror(errno));
	/* Text that is valid, so that only injected faults fail calls. */
	do {
		job_free(&j);
		job_make(&s, &j, 6000);
	} while (j.expret || j.len < 2000 || j.explen > 30000);
	read_expected("fault-sites.txt");
	memset(per, 0, sizeof(per));
	/*
	 * Sweep every operation's fault points in turn, 1, 2, ... until three
	 * in a row inject nothing. Which allocation is the n-th point varies
	 * a little with the slab caches' state, so the sweep is repeated
	 * (at most 4 passes) while a site of fault-sites.txt has not failed.
	 */
	for (pass = 1; pass <= 4; pass++) {
		for (op = 0; op < F_NR; op++) {
			unsigned int inj = 0, none = 0;

			for (n = 1; n < 1000 && none < 3; n++) {
				if (fault_case(op, n, &j) > 0) {
					inj++;
					none = 0;
				} else {
					none++;
				}
			}
			if (n == 1000)
				printf("# fault: %s: stopped after 999 fault points\n", fop_name[op]);
			if (inj > per[op])
				per[op] = inj;
			printf("# fault: pass %u: %-10s %u fault points injected\n",
			       pass, fop_name[op], inj);
		}
		if (pass == 1 || kvmalloc_missing())
			fault_kvmalloc(10);
		if (!missing_sites(1))
			break;
	}
	if (nexpected)
		printf("# fault: %u of the %u call sites of fault-sites.txt failed\n",
		       nexpected - missing_sites(0), nexpected);
	fault_nowait();
	job_free(&j);
	close(nth_fd);
	close(mif_fd);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/%s/verbose", attrs[i]);
		write_file(path, "0");
	}
	/* "# fault site:" lines: scripts/vm.sh matches them with the module */
	for (i = 0; i < nsites; i++) {
		char ops[128] = "";

		for (op = 0; op < F_NR; op++)
			if (site_tab[i].ops & 1U << op)
				snprintf(ops + strlen(ops), sizeof(ops) - strlen(ops),
					 "%s%s", ops[0] ? "," : "", fop_name[op]);
		printf("# fault site: %s %s %s hits %u\n", site_tab[i].where,
		       site_tab[i].attr, ops, site_tab[i].hits);
	}
	close(kmsg_fd);
	close(kmsg_wfd);
	write_file("/proc/sys/kernel/printk_devkmsg", "ratelimit\n");
	printf("# fault: %u injections, %u calls failed cleanly, %u traces (%u without a utfconv frame), %u distinct fault sites in utfconv, %llu mismatches, %llu failures\n",
	       injections, failed_calls, traces, traces_elsewhere, nsites,
	       (unsigned long long)mismatches, (unsigned long long)failures);
	result(per[F_OPEN] >= 3 && per[F_WRITE] && per[F_READ] && per[F_CONVERT] &&
	       nsites && !missing_sites(0) && !mismatches && !failures,
	       "fault: every injected fault gives a clean errno and the same stream");
	return 0;
}

/* --- info leaks ------------------------------------------------------ */

static int all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++)
			return 0;
	return 1;
}

static int do_leak(void)
{
	struct utfconv_info info;
	struct utfconv_config cf;
	struct utfconv_status st;
	struct utfconv_convert cv;
	unsigned char buf[256], src[] = "h\xC3\xA9llo \xF0\x9F\x98\x80";
	int fd = open(DEV, O_RDWR | O_NONBLOCK), ok = 1, i, k;
	ssize_t r;

	if (fd < 0) {
		FAIL("open: %s", strerror(errno));
		result(0, "leak: open");
		return 0;
	}
	memset(&info, 0xA5, sizeof(info));
	ok &= !ioctl(fd, UTFCONV_IOC_GET_INFO, &info) &&
	      all_zero(info.padding, sizeof(info.padding));
	memset(&cf, 0xA5, sizeof(cf));
	ok &= !ioctl(fd, UTFCONV_IOC_GET_CONFIG, &cf) &&
	      all_zero(cf.padding, sizeof(cf.padding));
	write(fd, src, sizeof(src) - 2);	/* a pending tail */
	memset(&st, 0xA5, sizeof(st));
	ok &= !ioctl(fd, UTFCONV_IOC_GET_STATUS, &st) &&
	      all_zero(st.padding, sizeof(st.padding));
	for (i = 1; i < 64; i += 7) {
		memset(buf, 0xA5, sizeof(buf));
		r = read(fd, buf, i);
		for (k = r > 0 ? r : 0; k < (int)sizeof(buf); k++)
			if (buf[k] != 0xA5) {
				FAIL("read(%d) = %zd changed byte %d", i, r, k);
				ok = 0;
				break;
			}
		if (r < i)
			break;
	}
	memset(&cv, 0, sizeof(cv));
	memset(buf, 0xA5, sizeof(buf));
	cv.source = UTFCONV_ENC_UTF8;
	cv.target = UTFCONV_ENC_UTF16LE;
	cv.src = (uintptr_t)src;
	cv.src_bytes = sizeof(src) - 1;
	cv.dst = (uintptr_t)buf;
	cv.dst_bytes = 100;
	ok &= !ioctl(fd, UTFCONV_IOC_CONVERT, &cv) &&
	      all_zero(cv.padding, sizeof(cv.padding)) && buf[cv.dst_used] == 0xA5 &&
	      buf[100] == 0xA5;
	close(fd);
	printf("# leak: GET_INFO, GET_CONFIG, GET_STATUS, CONVERT padding zero, read() within its count\n");
	result(ok && !failures, "leak: no poison changed outside the answer, padding zero");
	return 0;
}

/* --- syscall fuzz ---------------------------------------------------- */

static int do_fuzz(unsigned long count)
{
	unsigned char *ro, *big;
	void *ptrs[6];
	uint64_t s = 4242;
	unsigned long i, calls = 0, crashes = 0;
	int fd;
	double t0 = now();

	if (getuid() == 0 && (setgid(65534) || setuid(65534))) {
		result(0, "fuzz: drop privileges");
		return 0;
	}
	fd = open(DEV, O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		result(0, "fuzz: open");
		return 0;
	}
	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	big = malloc(1 << 20);
	memset(big, 'a', 1 << 20);
	ptrs[0] = NULL;
	ptrs[1] = (void *)0x10;				/* unmapped */
	ptrs[2] = ro;					/* read-only */
	ptrs[3] = (void *)0xffff888000000000ULL;	/* kernel */
	ptrs[4] = big;
	ptrs[5] = big + (1 << 20) - 3;			/* runs off the end */
	for (i = 0; i < count && now() - t0 < 120; i++) {
		unsigned char arg[512];
		unsigned int nr = urnd(&s, 10), size = urnd(&s, 4) ? 0 : urnd(&s, 512);
		unsigned int dir = urnd(&s, 4);
		unsigned long cmd;
		void *p = urnd(&s, 2) ? (void *)arg : ptrs[urnd(&s, 6)];
		unsigned int k;

		for (k = 0; k < sizeof(arg); k++)
			arg[k] = urnd(&s, 3) ? 0 : rnd(&s);
		if (urnd(&s, 2)) {	/* a real command with a random struct */
			static const unsigned long cmds[] = {
				UTFCONV_IOC_GET_INFO, UTFCONV_IOC_SET_CONFIG,
				UTFCONV_IOC_GET_CONFIG, UTFCONV_IOC_GET_STATUS,
				UTFCONV_IOC_FLUSH, UTFCONV_IOC_RESET,
				UTFCONV_IOC_CONVERT };
			cmd = cmds[urnd(&s, 7)];
			if (cmd == UTFCONV_IOC_CONVERT && p == arg) {
				struct utfconv_convert *cv = (void *)arg;

				cv->source = urnd(&s, 5);
				cv->target = urnd(&s, 5);
				cv->policy = urnd(&s, 5);
				cv->src = (uintptr_t)ptrs[urnd(&s, 6)];
				cv->src_bytes = urnd(&s, 2) ? urnd(&s, 5000) : rnd(&s);
				cv->dst = (uintptr_t)ptrs[urnd(&s, 6)];
				cv->dst_bytes = urnd(&s, 2) ? urnd(&s, 5000) : rnd(&s);
			}
		} else {
			cmd = _IOC(dir, urnd(&s, 2) ? UTFCONV_IOC_MAGIC : urnd(&s, 256),
				   nr, size);
		}
		ioctl(fd, cmd, p);
		calls++;
		switch (urnd(&s, 4)) {
		case 0:
			write(fd, ptrs[urnd(&s, 6)], urnd(&s, 2) ? urnd(&s, 9000) : rnd(&s) >> 1);
			calls++;
			break;
		case 1:
			read(fd, ptrs[urnd(&s, 6)], urnd(&s, 2) ? urnd(&s, 9000) : rnd(&s) >> 1);
			calls++;
			break;
		case 2:
			ioctl(fd, UTFCONV_IOC_RESET);
			calls++;
			break;
		default:
			break;
		}
		if (fcntl(fd, F_GETFD) < 0)
			crashes++;
	}
	close(fd);
	printf("# fuzz: uid %d, %lu calls in %.1f s\n", getuid(), calls, now() - t0);
	result(!crashes, "fuzz: random ioctls, structs, pointers and sizes");
	return 0;
}

/* --- resource bounds ------------------------------------------------- */

static long meminfo(const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) && line[strlen(key)] == ':')
			v = atol(line + strlen(key) + 1);
	fclose(f);
	return v;
}

static long read_long(const char *path)
{
	char b[64] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, b, sizeof(b) - 1) <= 0)
		b[0] = 0;
	close(fd);
	return b[0] ? atol(b) : -1;
}

/*
 * fill_stream() - write ASCII into non-blocking @fd until its output
 * buffer is full; when @pump is nonzero, first stream @pump input bytes
 * through it (write, read, repeat). Returns the input bytes written.
 */
static long fill_stream(int fd, long pump)
{
	static char in[4096], out[16384];
	long written = 0;
	ssize_t r;

	memset(in, 'x', sizeof(in));
	if (fcntl(fd, F_SETFL, O_NONBLOCK))
		return -1;
	for (;;) {
		r = write(fd, in, sizeof(in));
		if (r > 0) {
			written += r;
			continue;
		}
		if (r < 0 && errno != EAGAIN) {
			FAIL("opens: write: %s", strerror(errno));
			return -1;
		}
		if (written >= pump)
			break;
		while (read(fd, out, sizeof(out)) > 0)
			;
	}
	return written;
}

static int do_opens(int n, const char *cgroup)
{
	struct rlimit rl = { n + 64, n + 64 };
	struct utfconv_info info;
	char path[256];
	long avail0, avail1, slab0, slab1, cg0 = -1, cg1 = -1, cg2 = -1;
	long cgopen = -1;
	long streamed = 0, w;
	int *fds = calloc(n, sizeof(int)), i, opened = 0, nfull = 0;
	double per, cgper = 0, cgidle = 0;
	int grows = 0;

	if (setrlimit(RLIMIT_NOFILE, &rl))
		printf("# opens: setrlimit %d: %s\n", n + 64, strerror(errno));
	if (cgroup) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup);
		if (write_file(path, "0"))
			printf("# opens: cannot join %s\n", cgroup);
		snprintf(path, sizeof(path), "%s/memory.current", cgroup);
	}
	if (getuid() == 0 && (setgid(65534) || setuid(65534))) {
		result(0, "opens: drop privileges");
		return 0;
	}
	i = open(DEV, O_RDWR);
	if (i < 0 || ioctl(i, UTFCONV_IOC_GET_INFO, &info)) {
		result(0, "opens: open as uid 65534");
		return 0;
	}
	close(i);
	sleep(1);
	avail0 = meminfo("MemAvailable");
	slab0 = meminfo("Slab");
	if (cgroup)
		cg0 = read_long(path);
	for (i = 0; i < n; i++) {
		fds[i] = open(DEV, O_RDWR);
		if (fds[i] < 0) {
			printf("# opens: open %d: %s\n", i, strerror(errno));
			break;
		}
		opened++;
	}
	/* Open but never written: no output buffer yet. */
	if (cgroup)
		cgopen = read_long(path);
	for (i = 0; i < opened; i++)
		if (write(fds[i], "output pending", 14) != 14)
			FAIL("opens: write: %s", strerror(errno));
	avail1 = meminfo("MemAvailable");
	slab1 = meminfo("Slab");
	if (cgroup)
		cg1 = read_long(path);
	/*
	 * Longer streams: fill the output buffers of up to 256 files and
	 * stream 1 MiB through 8 of them first. What a file holds is
	 * allocated by its first write: the charge must not grow.
	 */
	for (i = 0; i < opened && i < 256; i++) {
		w = fill_stream(fds[i], i < 8 ? 1L << 20 : 0);
		if (w < 0)
			break;
		streamed += w;
		nfull++;
	}
	if (cgroup) {
		cg2 = read_long(path);
		/* slack: 1% of what the opens were charged, at least 64 KiB */
		grows = cg2 - cg1 > (cg1 - cg0) / 100 + 65536;
		printf("# opens: %d output buffers filled, %ld input bytes streamed: memory cgroup %+ld bytes (%+.1f per open)\n",
		       nfull, streamed, cg2 - cg1,
		       opened ? (cg2 - cg1) / (double)opened : 0.0);
	}
	for (i = 0; i < opened; i++)
		close(fds[i]);
	per = opened ? (avail0 - avail1) * 1024.0 / opened : 0;
	printf("# opens: uid %d, %d files with output pending, buffer_bytes %u: %.0f bytes per open (MemAvailable), slab +%ld kB\n",
	       getuid(), opened, info.buffer_bytes, per, slab1 - slab0);
	if (cg0 >= 0 && cg1 >= 0 && opened) {
		cgidle = (cgopen - cg0) / (double)opened;
		cgper = (cg1 - cg0) / (double)opened;
		printf("# opens: memory cgroup %s: %.0f bytes per open charged before the first write, %.0f after it (memory.current %ld -> %ld -> %ld)\n",
		       cgroup, cgidle, cgper, cg0, cgopen, cg1);
	}
	/*
	 * Bound: the output buffer, the file, slack. The cgroup is charged
	 * at least the output buffer of each written open, within the same
	 * bound, and no more for longer streams; an open never written holds
	 * no output buffer (under a page each: the file and its state).
	 */
	result(opened == n && per < info.buffer_bytes + 32768 &&
	       (!cgroup || (cgper >= info.buffer_bytes &&
			    cgper < info.buffer_bytes + 32768 &&
			    cgidle < 4096 && nfull && !grows)) && !failures,
	       "opens: thousands of files, memory per open within its bound, charged to the memory cgroup, not growing with the stream");
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "stress"))
		do_stress(argc > 2 ? atoi(argv[2]) : 20);
	else if (!strcmp(mode, "fault"))
		do_fault();
	else if (!strcmp(mode, "leak"))
		do_leak();
	else if (!strcmp(mode, "fuzz"))
		do_fuzz(argc > 2 ? strtoul(argv[2], NULL, 0) : 20000);
	else if (!strcmp(mode, "opens"))
		do_opens(argc > 2 ? atoi(argv[2]) : 2000, argc > 3 ? argv[3] : NULL);
	else {
		fprintf(stderr, "usage: %s stress SECONDS | fault | leak | fuzz COUNT | opens N [CGROUP]\n",
			argv[0]);
		return 2;
	}
	printf("hardening %s: %d passed, %d failed\n", mode, passed, failed);
	return failed ? 1 : 0;
}
