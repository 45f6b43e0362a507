// SPDX-License-Identifier: GPL-2.0
/*
 * smbwire: the names an SMB server sends on the wire, for the SMB hop of
 * the name experiments (run in the VM guest, over the loopback
 * interface).
 *
 *   smbwire SECONDS     capture the TCP stream from port 445 on "lo" for
 *                       SECONDS (or until SIGTERM), then print the names
 *                       of every SMB2 QUERY_DIRECTORY response in it
 *
 * Output, one line per name ("." and ".." left out):
 *   N <units>           the name's UTF-16LE bytes in hex, as on the wire
 * and one line at the end:
 *   N - names=<n> conns=<n> class=<FileInformationClass> error=<what>
 * where error is "none", or why the stream could not be read whole
 * (a gap in the TCP sequence, an encrypted message, a bad header, no
 * connection: no SYN seen).
 *
 * The server's responses are plain SMB2 (signed, not encrypted: cifs
 * asks for no sealing and ksmbd requires none). The directory entries are
 * FileIdFullDirectoryInformation (class 38, what cifs asks for) or
 * FileIdBothDirectoryInformation (37); which one is told by where the
 * name must end for the entry's NextEntryOffset (MS-FSCC 2.4.18, 2.4.17).
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define STREAM_MAX	(16 << 20)

static volatile sig_atomic_t stop;
static unsigned char *stream;
static size_t stream_len;
static uint32_t next_seq;
static int have_seq, conns, names, info_class;
static const char *error = "none";

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint16_t le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
	return le16(p) | (uint32_t)le16(p + 2) << 16;
}

/* The TCP payload of one frame from port 445, appended in order. */
static void add_segment(const unsigned char *tcp, size_t len)
{
	uint32_t seq = ntohl(*(const uint32_t *)(tcp + 4));
	size_t hl = (tcp[12] >> 4) * 4, n;

	if (len < 20 || hl > len)
		return;
	if (tcp[13] & 0x02) {		/* SYN: a new connection */
		conns++;
		next_seq = seq + 1;
		have_seq = 1;
		return;
	}
	n = len - hl;
	if (!have_seq || !n)
		return;
	if (seq != next_seq) {
		if ((int32_t)(seq - next_seq) > 0)
			error = "gap";
		return;			/* a copy of what we have */
	}
	if (stream_len + n > STREAM_MAX) {
		error = "full";
		return;
	}
	memcpy(stream + stream_len, tcp + hl, n);
	stream_len += n;
	next_seq += n;
}

/* One frame of "lo": IPv4 or IPv6, TCP from port 445. */
static void add_frame(const unsigned char *f, size_t len)
{
	const unsigned char *ip = f + ETH_HLEN;
	size_t n = len - ETH_HLEN, hl;
	uint16_t type;

	if (len < ETH_HLEN)
		return;
	type = f[12] << 8 | f[13];
	if (type == ETH_P_IP && n >= 20 && ip[9] == IPPROTO_TCP) {
		hl = (ip[0] & 15) * 4;
	} else if (type == ETH_P_IPV6 && n >= 40 && ip[6] == IPPROTO_TCP) {
		hl = 40;
	} else {
		return;
	}
	if (hl + 20 > n || (ip[hl] << 8 | ip[hl + 1]) != 445)
		return;
	add_segment(ip + hl, n - hl);
}

/* Print the name of one directory entry; its class from where it ends. */
static void put_entry(const unsigned char *e, size_t room)
{
	uint32_t next = le32(e), nlen = le32(e + 60), off, i;

	off = info_class == 37 ? 104 : 80;
	if (next && !info_class)
		info_class = next == ((104 + nlen + 7) & ~7u) ? 37 : 38;
	if (info_class == 37)
		off = 104;
	if (off + nlen > room) {
		error = "entry";
		return;
	}
	if ((nlen == 2 && le16(e + off) == '.') ||
	    (nlen == 4 && le16(e + off) == '.' && le16(e + off + 2) == '.'))
		return;
	printf("N ");
	for (i = 0; i < nlen; i++)
		printf("%02x", e[off + i]);
	printf("\n");
	names++;
}

/* The entries of a QUERY_DIRECTORY response at @h, @len bytes. */
static void put_response(const unsigned char *h, size_t len)
{
	size_t off, olen, pos = 0;
	uint32_t next;

	if (len < 72)
		return;
	off = le16(h + 64 + 2);
	olen = le32(h + 64 + 4);
	if (off + olen > len) {
		error = "response";
		return;
	}
	do {
		if (olen - pos < 64) {
			error = "entry";
			return;
		}
		put_entry(h + off + pos, olen - pos);
		next = le32(h + off + pos);
		pos += next;
	} while (next && pos < olen);
}

/* Every SMB2 message of the stream, NetBIOS frames and compounds. */
static void parse(void)
{
	size_t pos = 0, flen, m, next;
	const unsigned char *h;

	while (pos + 4 <= stream_len) {
		flen = stream[pos + 1] << 16 | stream[pos + 2] << 8 |
		       stream[pos + 3];
		if (stream[pos] || pos + 4 + flen > stream_len)
			break;
		for (m = 0; m + 64 <= flen; m += next) {
			h = stream + pos + 4 + m;
			if (!memcmp(h, "\xfdSMB", 4)) {
				error = "encrypted";
				return;
			}
			if (memcmp(h, "\xfeSMB", 4)) {
				error = "header";
				return;
			}
			next = le32(h + 20);
			/* QUERY_DIRECTORY, a response, STATUS_SUCCESS */
			if (le16(h + 12) == 0x0E && (le32(h + 16) & 1) &&
			    !le32(h + 8))
				put_response(h, next ? next : flen - m);
			if (!next)
				break;
		}
		pos += 4 + flen;
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_ll sll = { 0 };
	unsigned char frame[65536 + 64];
	struct timespec t0, t;
	socklen_t sl;
	ssize_t n;
	int fd;

	if (argc != 2)
		return fprintf(stderr, "usage: smbwire SECONDS\n"), 2;
	stream = malloc(STREAM_MAX);
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = if_nametoindex("lo");
	if (!stream || fd < 0 ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		perror("smbwire");
		return 1;
	}
	signal(SIGTERM, on_signal);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	printf("N - started\n");
	fflush(stdout);
	while (!stop) {
		struct timeval tv = { 0, 200000 };

		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		sl = sizeof(sll);
		n = recvfrom(fd, frame, sizeof(frame), 0,
			     (struct sockaddr *)&sll, &sl);
		/* "lo" shows each frame twice: going out and coming in */
		if (n > 0 && sll.sll_pkttype != PACKET_OUTGOING)
			add_frame(frame, n);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= atoi(argv[1]))
			break;
	}
	parse();
	/* a mount that shares an older connection shows no SYN */
	if (!conns && !strcmp(error, "none"))
		error = "no-connection";
	printf("N - names=%d conns=%d class=%d error=%s\n", names, conns,
	       info_class, error);
	return 0;
}
