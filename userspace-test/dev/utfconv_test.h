/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the /dev/utfconv selftests. Include after
 * kselftest_harness.h; each test program is one translation unit.
 *
 * Environment:
 *   UTFCONV_DEVICE    device path (default /dev/utfconv)
 *   UTFCONV_TEST_UID  when run as root, drop to this uid/gid before
 *                     running the tests (the unprivileged pass)
 *   UTFCONV_DATA      directory of the host-made test data (stress test)
 */
#ifndef UTFCONV_TEST_H
#define UTFCONV_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <linux/utfconv.h>

#include "utfconv_dirs.h"

#define UTFCONV_DEFAULT_DEVICE	"/dev/utfconv"

static inline const char *utfconv_dev_path(void)
{
	const char *p = getenv("UTFCONV_DEVICE");

	return p && *p ? p : UTFCONV_DEFAULT_DEVICE;
}

/* CLOCK_MONOTONIC in nanoseconds, for the times the tests measure. */
static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline void utfconv_ignore_signal(int sig)
{
	(void)sig;
}

/*
 * @sig with a handler that does nothing and without SA_RESTART: it ends
 * a blocking call with EINTR (or the call's partial count).
 */
static inline void utfconv_catch_signal(int sig)
{
	struct sigaction sa = { .sa_handler = utfconv_ignore_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static inline int utfconv_open(int extra_flags)
{
	return open(utfconv_dev_path(), O_RDWR | O_CLOEXEC | extra_flags);
}

static inline int utfconv_set(int fd, unsigned int dir, unsigned int policy,
			      unsigned int flags)
{
	struct utfconv_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.policy = policy;
	cfg.flags = flags;
	test_dir_encodings(dir, &cfg.source, &cfg.target);
	return ioctl(fd, UTFCONV_IOC_SET_CONFIG, &cfg);
}

static inline int utfconv_status(int fd, struct utfconv_status *st)
{
	memset(st, 0xA5, sizeof(*st));
	return ioctl(fd, UTFCONV_IOC_GET_STATUS, st);
}

static inline bool utfconv_out_is_utf16(unsigned int dir)
{
	return dir == TEST_DIR_UTF8_TO_UTF16LE ||
	       dir == TEST_DIR_UTF8_TO_UTF16BE;
}

/* Read one UTF-16 unit of an output in the byte order of @dir. */
static inline unsigned int utfconv_unit(const unsigned char *p,
					unsigned int dir)
{
	return dir == TEST_DIR_UTF8_TO_UTF16LE ? p[0] | p[1] << 8 :
						     p[0] << 8 | p[1];
}

/*
 * Is @pos a character boundary of the output @out (@len bytes) of
 * direction @dir? Ends count; inside a UTF-8 sequence or between the two
 * units of a surrogate pair do not.
 */
static inline bool utfconv_out_boundary(const unsigned char *out, size_t len,
					size_t pos, unsigned int dir)
{
	if (pos == 0 || pos >= len)
		return true;
	if (!utfconv_out_is_utf16(dir))
		return (out[pos] & 0xC0) != 0x80;
	if (pos & 1)
		return false;
	return !(utfconv_unit(out + pos - 2, dir) >= 0xD800 &&
		 utfconv_unit(out + pos - 2, dir) <= 0xDBFF &&
		 utfconv_unit(out + pos, dir) >= 0xDC00 &&
		 utfconv_unit(out + pos, dir) <= 0xDFFF);
}

/* Code points in an output: what utfconv_status.code_points counts. */
static inline uint64_t utfconv_count_chars(const unsigned char *out,
					   size_t len, unsigned int dir)
{
	size_t step = utfconv_out_is_utf16(dir) ? 2 : 1, i;
	uint64_t n = 0;

	for (i = 0; i < len; i += step)
		if (utfconv_out_boundary(out, len, i, dir))
			n++;
	return n;
}

/* Byte-exact comparison with a readable message on mismatch. */
static inline bool utfconv_bytes_eq(const char *what, const void *seen,
				    size_t seen_bytes, const void *want,
				    size_t want_bytes)
{
	size_t i;

	if (seen_bytes == want_bytes && !memcmp(seen, want, want_bytes))
		return true;
	fprintf(stderr, "# %s: got %zu bytes:", what, seen_bytes);
	for (i = 0; i < seen_bytes && i < 48; i++)
		fprintf(stderr, " %02x", ((const unsigned char *)seen)[i]);
	fprintf(stderr, "%s\n# %s: want %zu bytes:",
		seen_bytes > 48 ? " ..." : "", what, want_bytes);
	for (i = 0; i < want_bytes && i < 48; i++)
		fprintf(stderr, " %02x", ((const unsigned char *)want)[i]);
	fprintf(stderr, "%s\n", want_bytes > 48 ? " ..." : "");
	return false;
}

/* Write all of @len bytes, retrying partial writes; -errno on failure. */
static inline ssize_t utfconv_write_all(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, (const char *)buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/*
 * Drop privileges when asked, skip everything when the device is absent.
 * Called from main() before the harness runs.
 */
static inline void utfconv_test_prepare(const char *prog)
{
	const char *uid_s = getenv("UTFCONV_TEST_UID");

	signal(SIGPIPE, SIG_IGN);
	if (uid_s && *uid_s) {
		uid_t uid = (uid_t)strtoul(uid_s, NULL, 10);

		if (getuid() == 0) {
			if (setgroups(0, NULL) || setgid((gid_t)uid) ||
			    setuid(uid)) {
				perror("dropping privileges");
				exit(KSFT_FAIL);
			}
		}
		if (getuid() != uid || geteuid() != uid || setuid(0) == 0) {
			fprintf(stderr, "%s: could not become uid %u\n", prog,
				(unsigned int)uid);
			exit(KSFT_FAIL);
		}
	}
	if (access(utfconv_dev_path(), F_OK)) {
		printf("TAP version 13\n1..0 # SKIP %s: %s absent: load the module (insmod kmod/utfconv.ko)\n",
		       prog, utfconv_dev_path());
		exit(KSFT_SKIP);
	}
	printf("# %s: running as uid %u gid %u\n", prog,
	       (unsigned int)getuid(), (unsigned int)getgid());
}

#define UTFCONV_TEST_MAIN						\
	int main(int argc, char **argv)					\
	{								\
		utfconv_test_prepare(argv[0]);				\
		return test_harness_run(argc, argv);			\
	}

#endif /* UTFCONV_TEST_H */
