// SPDX-License-Identifier: GPL-2.0
/*
 * ptyrun: run a command with its standard error (and, with -o, its
 * standard output too) on a new pseudo-terminal, and copy everything the
 * command writes there to a transcript file. The CLI's progress line is
 * only shown when standard error is a terminal; cli-test.sh uses this to
 * check it in the VM, where there is no script(1).
 *
 *   ptyrun [-o] TRANSCRIPT COMMAND [ARG...]
 *
 * Standard input and (without -o) standard output are inherited. The
 * terminal is switched to raw output (no "\n" -> "\r\n"), so the
 * transcript holds the command's bytes as written. Exit status: the
 * command's, 128 + N when signal N ended it, 125 on ptyrun's own errors.
 * Prints "ptyrun: N ms" to its standard error: the command's run time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static int fail(const char *what)
{
	fprintf(stderr, "ptyrun: %s: %s\n", what, strerror(errno));
	return 125;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	int both = 0, master, slave, out, status;
	char buf[4096], *name;
	struct termios tio;
	long long t0;
	ssize_t n;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "-o")) {
		both = 1;
		argv++;
		argc--;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: ptyrun [-o] TRANSCRIPT COMMAND [ARG...]\n");
		return 125;
	}
	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master))
		return fail("/dev/ptmx");
	name = ptsname(master);
	if (!name)
		return fail("ptsname");
	slave = open(name, O_RDWR | O_NOCTTY);
	if (slave < 0)
		return fail(name);
	if (tcgetattr(slave, &tio))
		return fail("tcgetattr");
	tio.c_oflag &= ~OPOST;
	if (tcsetattr(slave, TCSANOW, &tio))
		return fail("tcsetattr");
	out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		return fail(argv[1]);

	t0 = now_ms();
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (!pid) {
		close(master);
		close(out);
		if (dup2(slave, STDERR_FILENO) < 0 ||
		    (both && dup2(slave, STDOUT_FILENO) < 0))
			_exit(125);
		close(slave);
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	close(slave);
	/* Read until every copy of the slave is closed (EIO on Linux). */
	for (;;) {
		n = read(master, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (write(out, buf, n) != n)
			return fail(argv[1]);
	}
	if (waitpid(pid, &status, 0) < 0)
		return fail("waitpid");
	fprintf(stderr, "ptyrun: %lld ms\n", now_ms() - t0);
	if (close(out))
		return fail(argv[1]);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
