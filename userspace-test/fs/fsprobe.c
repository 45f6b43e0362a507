// SPDX-License-Identifier: GPL-2.0
/*
 * fsprobe: what a filesystem driver makes of the names of a directory,
 * byte for byte, for the name experiments (run in the VM guest).
 *
 *   fsprobe list DIR            every entry readdir returns, stat'ed and
 *                               opened by the name it was listed under
 *   fsprobe open DIR HEX...     look up and open names given in hex
 *   fsprobe create DIR HEX...   create files (content "new:<HEX>")
 *   fsprobe put DIR HEX TEXT    create a file with the content TEXT and a
 *                               newline (to make an image)
 *   fsprobe rename DIR OLD NEW  rename, both names in hex
 *
 * Output, one line per name, fields separated by spaces:
 *   E <name> ino=<d_ino> stat=<errno> sino=<st_ino> open=<errno> data=<hex>
 *   O <name> stat=<errno> sino=<st_ino> open=<errno> data=<hex>
 *   C <name> create=<errno>    (create and put)
 *   R <old> <new> rename=<errno>
 * where <name> is the name's bytes in hex, <errno> is 0 or the errno's
 * name, and data is the first 64 bytes of the file ("-" when not opened).
 * A getdents64 failure is reported as "E - getdents=<errno>" and ends the
 * listing. Exit status 0 unless the arguments are bad.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NAME_BUF 4096	/* readdir may return names longer than NAME_MAX */

static const char *err_name(int err)
{
	const char *s;

	if (!err)
		return "0";
	s = strerrorname_np(err);
	return s ? s : "E?";
}

static void put_hex(const unsigned char *p, size_t n)
{
	size_t i;

	if (!n)
		fputs("-", stdout);
	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
}

/* Decode @hex into @out (NUL-terminated); returns the length or -1. */
static int from_hex(const char *hex, char *out, size_t cap)
{
	size_t n = strlen(hex), i;

	if (n % 2 || n / 2 >= cap)
		return -1;
	for (i = 0; i < n / 2; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (char)b;
	}
	out[n / 2] = 0;
	return (int)(n / 2);
}

/* stat, open and read @name in @dfd; prints the fields after the name. */
static void probe(int dfd, const char *name)
{
	unsigned char data[64];
	struct stat st;
	int serr = 0, oerr = 0, fd;
	ssize_t got = 0;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		serr = errno;
	printf(" stat=%s sino=%llu", err_name(serr),
	       serr ? 0ULL : (unsigned long long)st.st_ino);
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW);
	if (fd < 0) {
		oerr = errno;
	} else {
		got = read(fd, data, sizeof(data));
		if (got < 0)
			oerr = errno;
		close(fd);
	}
	printf(" open=%s data=", err_name(oerr));
	put_hex(data, got > 0 ? (size_t)got : 0);
	printf("\n");
}

static int cmd_list(int dfd)
{
	static char buf[65536];
	long n, off;

	for (;;) {
		n = syscall(SYS_getdents64, dfd, buf, sizeof(buf));
		if (n < 0) {
			printf("E - getdents=%s\n", err_name(errno));
			return 0;
		}
		if (!n)
			return 0;
		for (off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);

			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			printf("E ");
			put_hex((unsigned char *)d->d_name, strlen(d->d_name));
			printf(" ino=%llu", (unsigned long long)d->d_ino);
			probe(dfd, d->d_name);
		}
	}
}

/* Create @hex in @dfd with @text; prints the C line. */
static int create(int dfd, const char *hex, const char *text)
{
	static char name[NAME_BUF];
	int fd, err = 0;

	if (from_hex(hex, name, sizeof(name)) < 0)
		return 2;
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		err = errno;
	else if (dprintf(fd, "%s\n", text) < 0 || close(fd))
		err = errno;
	printf("C %s create=%s\n", hex, err_name(err));
	return 0;
}

static int cmd_names(int dfd, int argc, char **argv, int make)
{
	static char name[NAME_BUF], text[NAME_BUF + 8];
	int i;

	for (i = 0; i < argc; i++) {
		if (make) {
			snprintf(text, sizeof(text), "new:%s", argv[i]);
			if (create(dfd, argv[i], text))
				return 2;
			continue;
		}
		if (from_hex(argv[i], name, sizeof(name)) < 0)
			return 2;
		printf("O %s", argv[i]);
		probe(dfd, name);
	}
	return 0;
}

static int cmd_rename(int dfd, const char *old_hex, const char *new_hex)
{
	static char from[NAME_BUF], to[NAME_BUF];
	int err = 0;

	if (from_hex(old_hex, from, sizeof(from)) < 0 ||
	    from_hex(new_hex, to, sizeof(to)) < 0)
		return 2;
	if (renameat(dfd, from, dfd, to))
		err = errno;
	printf("R %s %s rename=%s\n", old_hex, new_hex, err_name(err));
	return 0;
}

int main(int argc, char **argv)
{
	int dfd, ret = 2;

	if (argc < 3)
		goto usage;
	dfd = open(argv[2], O_RDONLY | O_DIRECTORY);
	if (dfd < 0) {
		perror(argv[2]);
		return 2;
	}
	if (!strcmp(argv[1], "list") && argc == 3)
		ret = cmd_list(dfd);
	else if (!strcmp(argv[1], "open"))
		ret = cmd_names(dfd, argc - 3, argv + 3, 0);
	else if (!strcmp(argv[1], "create"))
		ret = cmd_names(dfd, argc - 3, argv + 3, 1);
	else if (!strcmp(argv[1], "put") && argc == 5)
		ret = create(dfd, argv[3], argv[4]);
	else if (!strcmp(argv[1], "rename") && argc == 5)
		ret = cmd_rename(dfd, argv[3], argv[4]);
	fflush(stdout);
	if (ret != 2)
		return ret;
usage:
	fprintf(stderr, "usage: fsprobe list|open|create|put|rename DIR [HEX...]\n");
	return 2;
}
