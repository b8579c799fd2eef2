/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * audit.c: reading Landlock's audit records (issue 36). See audit.h.
 */
#include "config.h"

#include "audit.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "util.h"

#define NSRUN_MIN(a, b) ((a) < (b) ? (a) : (b))

void audit_event_init(struct audit_event *ev)
{
	*ev = (struct audit_event){ .dest = -1, .src = -1, .syscall = -1 };
}

unsigned long long audit_serial(const char *text, size_t len)
{
	const char *colon, *end = text + len;
	unsigned long long s = 0;

	if (len < 7 || strncmp(text, "audit(", 6) != 0)
		return 0;
	colon = memchr(text, ':', len);
	if (!colon)
		return 0;
	for (const char *p = colon + 1; p < end && isdigit((unsigned char)*p); p++)
		s = s * 10 + (unsigned long long)(*p - '0');
	return s;
}

/* audit_log_untrustedstring: a value with a space, a quote or a control character is
 * logged unquoted as hex. */
static void decode_value(const char *v, size_t n, bool quoted, char *out, size_t size)
{
	bool hex = !quoted && n > 0 && n % 2 == 0;

	for (size_t i = 0; hex && i < n; i++)
		hex = isxdigit((unsigned char)v[i]) && !islower((unsigned char)v[i]);
	if (hex && n / 2 < size) {
		for (size_t i = 0; i < n / 2; i++) {
			char b[3] = { v[2 * i], v[2 * i + 1], '\0' };

			out[i] = (char)strtoul(b, NULL, 16);
		}
		out[n / 2] = '\0';
		return;
	}
	snprintf(out, size, "%.*s", (int)n, v);
}

/* A value as much as fits (a longer one is cut, never an error). */
static void copy(char *dst, size_t size, const char *s)
{
	size_t n = strnlen(s, size - 1);

	memcpy(dst, s, n);
	dst[n] = '\0';
}

static void set_field(int type, const char *key, const char *v, size_t n, bool quoted,
		      struct audit_event *ev)
{
	char s[PATH_MAX];

	/* Only strings a process chooses are logged as hex (audit_log_untrustedstring). */
	bool untrusted = strcmp(key, "path") == 0 || strcmp(key, "name") == 0 ||
			 strcmp(key, "comm") == 0 || strcmp(key, "exe") == 0 ||
			 strcmp(key, "ocomm") == 0;

	decode_value(v, n, quoted || !untrusted, s, sizeof(s));
	if (type == NSRUN_AUDIT_LANDLOCK_DOMAIN) {
		size_t i = ev->n_domains ? ev->n_domains - 1 : 0;

		if (strcmp(key, "domain") == 0 && ev->n_domains < AUDIT_MAX_DOMAINS)
			ev->domains[ev->n_domains++].id = strtoull(s, NULL, 16);
		else if (ev->n_domains && strcmp(key, "status") == 0)
			ev->domains[i].allocated = strcmp(s, "allocated") == 0;
		else if (ev->n_domains && strcmp(key, "pid") == 0)
			ev->domains[i].pid = (pid_t)strtol(s, NULL, 10);
		return;
	}
	if (strcmp(key, "domain") == 0)
		ev->domain = strtoull(s, NULL, 16);
	else if (strcmp(key, "blockers") == 0)
		copy(ev->blockers, sizeof(ev->blockers), s);
	else if (strcmp(key, "path") == 0 || strcmp(key, "name") == 0)
		copy(ev->path, sizeof(ev->path), s);
	else if (strcmp(key, "dev") == 0)
		copy(ev->dev, sizeof(ev->dev), s);
	else if (strcmp(key, "ino") == 0)
		ev->ino = strtoul(s, NULL, 10);
	else if (strcmp(key, "daddr") == 0)
		copy(ev->daddr, sizeof(ev->daddr), s);
	else if (strcmp(key, "saddr") == 0)
		copy(ev->saddr, sizeof(ev->saddr), s);
	else if (strcmp(key, "dest") == 0)
		ev->dest = (int)strtol(s, NULL, 10);
	else if (strcmp(key, "src") == 0)
		ev->src = (int)strtol(s, NULL, 10);
	else if (strcmp(key, "opid") == 0)
		ev->opid = (pid_t)strtol(s, NULL, 10);
	else if (strcmp(key, "pid") == 0 && (type == NSRUN_AUDIT_SYSCALL || !ev->pid))
		ev->pid = (pid_t)strtol(s, NULL, 10);
	else if (strcmp(key, "comm") == 0 && (type == NSRUN_AUDIT_SYSCALL || !ev->comm[0]))
		copy(ev->comm, sizeof(ev->comm), s);
	else if (strcmp(key, "exe") == 0)
		copy(ev->exe, sizeof(ev->exe), s);
	else if (strcmp(key, "syscall") == 0)
		ev->syscall = (int)strtol(s, NULL, 10);
	else if (strcmp(key, "exit") == 0 && type == NSRUN_AUDIT_SYSCALL) {
		ev->exit = strtol(s, NULL, 10);
		ev->has_exit = true;
	}
}

/* The fields after "audit(...): ", key=value or key="value", space-separated. */
static void parse_fields(int type, const char *p, const char *end, struct audit_event *ev)
{
	while (p < end) {
		const char *key = p, *eq, *v;
		char k[32];
		size_t n;
		bool quoted;

		while (p < end && *p != ' ' && *p != '=')
			p++;
		if (p >= end || *p != '=') {
			p++;
			continue;
		}
		eq = p++;
		quoted = p < end && *p == '"';
		v = quoted ? ++p : p;
		while (p < end && (quoted ? *p != '"' : *p != ' '))
			p++;
		n = (size_t)(p - v);
		if (quoted && p < end)
			p++;
		while (p < end && *p == ' ')
			p++;
		if ((size_t)(eq - key) < sizeof(k)) {
			snprintf(k, sizeof(k), "%.*s", (int)(eq - key), key);
			set_field(type, k, v, n, quoted, ev);
		}
	}
}

unsigned long long audit_parse_record(int type, const char *text, size_t len,
				      struct audit_event *ev)
{
	unsigned long long serial = audit_serial(text, len);
	const char *p = serial ? memchr(text, ')', len) : NULL;

	if (!p)
		return 0;
	ev->serial = serial;
	if (type == NSRUN_AUDIT_LANDLOCK_ACCESS)
		ev->denial = true;
	p++;
	if (p < text + len && *p == ':')
		p++;
	while (p < text + len && *p == ' ')
		p++;
	if (type == NSRUN_AUDIT_LANDLOCK_ACCESS || type == NSRUN_AUDIT_LANDLOCK_DOMAIN ||
	    type == NSRUN_AUDIT_SYSCALL)
		parse_fields(type, p, text + len, ev);
	return serial;
}

bool audit_feed(struct audit_assembler *a, int type, const char *text, size_t len,
		struct audit_event *out)
{
	unsigned long long serial = audit_serial(text, len);
	bool done = false;

	if (!serial)
		return false;
	if (a->open && a->cur.serial != serial) {
		*out = a->cur;
		a->open = false;
		done = true;
	}
	if (type == NSRUN_AUDIT_EOE) {
		if (a->open && !done) {
			*out = a->cur;
			a->open = false;
			return true;
		}
		return done;
	}
	if (!a->open) {
		audit_event_init(&a->cur);
		a->open = true;
	}
	(void)audit_parse_record(type, text, len, &a->cur);
	return done;
}

bool audit_flush(struct audit_assembler *a, struct audit_event *out)
{
	if (!a->open)
		return false;
	*out = a->cur;
	a->open = false;
	return true;
}

/* ---- the socket ---- */

static int audit_socket(int flags)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | flags, NETLINK_AUDIT);

	return fd < 0 ? -errno : fd;
}

int audit_status(bool *enabled, uint32_t *lost)
{
	struct {
		struct nlmsghdr h;
		char pad[256];
	} req = { .h = { .nlmsg_len = NLMSG_LENGTH(0),
			 .nlmsg_type = AUDIT_GET,
			 .nlmsg_flags = NLM_F_REQUEST } },
	  resp;
	struct timeval tv = { .tv_sec = 1 };
	_cleanup_close_ int fd = audit_socket(0);

	if (fd < 0)
		return fd;
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (send(fd, &req, req.h.nlmsg_len, 0) < 0)
		return -errno;
	for (int i = 0; i < 4; i++) {
		ssize_t n = recv(fd, &resp, sizeof(resp), 0);
		struct audit_status st = { 0 };

		if (n < 0)
			return -errno;
		if (n < (ssize_t)NLMSG_HDRLEN)
			continue;
		if (resp.h.nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr e;

			memcpy(&e, NLMSG_DATA(&resp.h), sizeof(e));
			if (e.error)
				return e.error;
			continue;
		}
		if (resp.h.nlmsg_type != AUDIT_GET)
			continue;
		memcpy(&st, NLMSG_DATA(&resp.h), NSRUN_MIN(sizeof(st), (size_t)n - NLMSG_HDRLEN));
		*enabled = st.enabled != 0;
		*lost = st.lost;
		return 0;
	}
	return -EPROTO;
}

/* The text after key in a /proc/self file, to the end of its line ("" if absent). */
static void proc_field(const char *file, const char *key, char *out, size_t size)
{
	_cleanup_close_ int fd = open(file, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *text = NULL;
	size_t len;
	char *p;

	out[0] = '\0';
	if (fd < 0 || read_all(fd, 1 << 16, &text, &len) < 0)
		return;
	p = strstr(text, key);
	if (!p)
		return;
	p += strlen(key);
	p += strspn(p, " \t");
	snprintf(out, size, "%.*s", (int)strcspn(p, "\n"), p);
}

/* Root in the initial user namespace, and a process of the initial pid namespace (its
 * NSpid has one number). */
static const char *initial_namespaces(void)
{
	char map[64], nspid[64];

	proc_field("/proc/self/uid_map", "0", map, sizeof(map));
	if (getuid() != 0 || geteuid() != 0 || strspn(map, " 0") != strcspn(map, "4") ||
	    strcmp(map + strcspn(map, "4"), "4294967295"))
		return "the monitor is not root in the initial user namespace";
	proc_field("/proc/self/status", "NSpid:", nspid, sizeof(nspid));
	if (!nspid[0] || nspid[strcspn(nspid, " \t")])
		return "the monitor is not in the initial pid namespace";
	return NULL;
}

const char *audit_open_reader(int abi, int *fd)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
				  .nl_groups = 1U << (AUDIT_NLGRP_READLOG - 1) };
	int size = 1 << 20;
	bool enabled = false;
	uint32_t lost;
	const char *why;

	*fd = -1;
	if (abi < 7)
		return "Landlock ABI below 7 (Linux 6.15)";
	/* CAP_AUDIT_READ is checked in the initial user namespace, and records name the
	 * initial pid namespace's pids. */
	why = initial_namespaces();
	if (why)
		return why;
	if (audit_status(&enabled, &lost) < 0)
		return "audit status unreadable";
	if (!enabled)
		return "audit is not enabled";
	*fd = audit_socket(SOCK_NONBLOCK);
	if (*fd < 0 || bind(*fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return "the audit socket cannot be read";
	}
	(void)setsockopt(*fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	return NULL;
}

ssize_t audit_recv(int fd, int *type, char *buf, size_t size)
{
	struct nlmsghdr h;
	ssize_t n = recv(fd, buf, size - 1, MSG_DONTWAIT);
	size_t len;

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	if (n < (ssize_t)NLMSG_HDRLEN)
		return -EPROTO;
	memcpy(&h, buf, sizeof(h));
	len = NSRUN_MIN((size_t)n, (size_t)h.nlmsg_len);
	len = len > NLMSG_HDRLEN ? len - NLMSG_HDRLEN : 0;
	memmove(buf, buf + NLMSG_HDRLEN, len);
	buf[len] = '\0';
	*type = h.nlmsg_type;
	return (ssize_t)strlen(buf);
}
