/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bridge.c: --bridge. The pure parser of PORT and TARGET; the relay, a process of
 * nsrun's in the host's network namespace that accepts on the listening sockets the
 * sandbox made on its loopback and copies each connection to and from its TARGET; and
 * the hand-over of those sockets (SCM_RIGHTS, acknowledged, so that a relay that is not
 * there fails the start). The relay holds no fd but its own, is not dumpable, and dies
 * with the monitor (PR_SET_PDEATHSIG) or when the monitor ends the sandbox.
 */
#include "config.h"

#include "bridge.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "syscall.h"
#include "util.h"

/* ---- the parser ---- */

static int bad_target(const char *target, struct nsrun_error *err)
{
	return error_set(err, 0,
			 "--bridge: invalid TARGET '%s' (unix:/ABSOLUTE/PATH or tcp:HOST:PORT)",
			 target);
}

static int parse_port(const char *s, uint16_t *ret)
{
	uint64_t v;

	if (parse_u64(s, 10, &v) < 0 || v == 0 || v > 65535)
		return -EINVAL;
	*ret = (uint16_t)v;
	return 0;
}

/* HOST[:PORT] of tcp:, HOST numeric (brackets allowed around IPv6) or localhost, which
 * is taken as 127.0.0.1 without a resolver: the bridge reaches the host's own services. */
static int parse_tcp(const char *target, const char *spec, struct plan_bridge *ret,
		     struct nsrun_error *err)
{
	const char *colon = strrchr(spec, ':');
	_cleanup_free_ char *host = NULL;
	unsigned char addr[16];
	size_t len;

	if (!colon || colon == spec || parse_port(colon + 1, &ret->target_port) < 0)
		return bad_target(target, err);
	len = (size_t)(colon - spec);
	if (spec[0] == '[' && spec[len - 1] == ']' && len > 2)
		host = strndup(spec + 1, len - 2);
	else
		host = strndup(spec, len);
	if (!host)
		abort();
	if (strcmp(host, "localhost") == 0) {
		ret->host = xstrdup("127.0.0.1");
	} else if (inet_pton(AF_INET, host, addr) == 1) {
		if (addr[0] != 127)
			goto not_loopback;
		ret->host = TAKE_PTR(host);
	} else if (inet_pton(AF_INET6, host, addr) == 1) {
		if (!IN6_IS_ADDR_LOOPBACK((struct in6_addr *)addr))
			goto not_loopback;
		ret->host = TAKE_PTR(host);
	} else {
		return bad_target(target, err);
	}
	ret->kind = BRIDGE_TCP;
	return 0;
not_loopback:
	return error_set(err, 0,
			 "--bridge: '%s' is not a loopback address (127.0.0.0/8, ::1 or "
			 "localhost); a bridge reaches only the host's own services",
			 host);
}

int bridge_parse(const char *port, const char *target, struct plan_bridge *ret,
		 struct nsrun_error *err)
{
	struct sockaddr_un sun;
	int r;

	*ret = (struct plan_bridge){ 0 };
	if (parse_port(port, &ret->port) < 0)
		return error_set(err, 0, "--bridge: invalid port '%s' (1 to 65535)", port);
	if (strncmp(target, "unix:", 5) == 0) {
		if (target[5] != '/')
			return bad_target(target, err);
		if (strlen(target + 5) >= sizeof(sun.sun_path))
			return error_set(err, 0,
					 "--bridge: the socket path in '%s' is longer than "
					 "%zu bytes",
					 target, sizeof(sun.sun_path) - 1);
		ret->kind = BRIDGE_UNIX;
		ret->path = xstrdup(target + 5);
	} else if (strncmp(target, "tcp:", 4) == 0) {
		r = parse_tcp(target, target + 4, ret, err);
		if (r < 0)
			return r;
	} else {
		return bad_target(target, err);
	}
	ret->target = xstrdup(target);
	return 0;
}

/* ---- the relay ---- */

#define RELAY_MAX_CONNS 256
#define RELAY_BUF_SIZE (64 * 1024)
/* A UNIX target's connect blocks while its backlog is full: at most this long. */
#define RELAY_UNIX_CONNECT_S 5

/* One direction of a connection: what was read from fd[from] and not yet written. */
struct flow {
	char *buf;
	size_t len, off;
	bool eof; /* fd[from] said EOF: fd[to] is shut for writing once buf is empty */
};

struct conn {
	int fd[2];	    /* 0: accepted in the sandbox, 1: to the target; -1: a free slot */
	bool connecting;    /* fd[1]'s connect is in progress */
	struct flow dir[2]; /* dir[0]: sandbox to target, dir[1]: back */
};

struct relay {
	const struct plan *plan;
	int listen[PLAN_MAX_BRIDGES]; /* -1 once the sandbox shut it down */
	int target[PLAN_MAX_BRIDGES]; /* a UNIX target's socket, pinned (O_PATH), or -1 */
	struct conn conns[RELAY_MAX_CONNS];
	size_t n_conns;
	bool starved; /* out of fds or memory: no accept until a connection ends */
};

static void conn_close(struct relay *rl, struct conn *c)
{
	for (int i = 0; i < 2; i++) {
		close(c->fd[i]);
		c->fd[i] = -1;
		free(c->dir[i].buf);
		c->dir[i] = (struct flow){ 0 };
	}
	rl->n_conns--;
	rl->starved = false;
}

/* A socket to B's target in the host's network namespace, connected or connecting. A
 * UNIX target is reached through the socket pinned at start (PINNED): its path is looked
 * up again by no one, so a name the sandbox may write cannot be turned to another one. */
static int target_connect(const struct plan_bridge *b, int pinned, bool *connecting)
{
	struct timeval tv = { .tv_sec = RELAY_UNIX_CONNECT_S };
	struct sockaddr_storage ss = { 0 };
	socklen_t len;
	int fd;

	*connecting = false;
	if (b->kind == BRIDGE_UNIX) {
		struct sockaddr_un *un = (struct sockaddr_un *)&ss;

		un->sun_family = AF_UNIX;
		snprintf(un->sun_path, sizeof(un->sun_path), "/proc/self/fd/%d", pinned);
		len = sizeof(*un);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		/* A non-blocking UNIX connect cannot wait for room in the backlog. */
		if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
		    connect(fd, (struct sockaddr *)&ss, len) < 0 ||
		    fcntl(fd, F_SETFL, O_NONBLOCK) < 0)
			goto fail;
		return fd;
	}
	if (strchr(b->host, ':')) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(b->target_port);
		(void)inet_pton(AF_INET6, b->host, &in6->sin6_addr);
		len = sizeof(*in6);
	} else {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		in->sin_family = AF_INET;
		in->sin_port = htons(b->target_port);
		(void)inet_pton(AF_INET, b->host, &in->sin_addr);
		len = sizeof(*in);
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd >= 0)
		(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &(int){ 1 }, sizeof(int));
	if (fd >= 0 && connect(fd, (struct sockaddr *)&ss, len) < 0) {
		if (errno != EINPROGRESS)
			goto fail;
		*connecting = true;
	}
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

static void listener_gone(struct relay *rl, size_t i)
{
	close(rl->listen[i]);
	rl->listen[i] = -1;
}

/* A connection from the sandbox on bridge I: relayed, or closed at once when its target
 * does not answer (the client sees the connection end). */
static void relay_accept(struct relay *rl, size_t i)
{
	int fd = accept4(rl->listen[i], NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	struct conn *c = NULL;
	bool connecting;

	/* Out of fds or memory: wait for a connection to end rather than poll a listener
	 * that stays readable. A listener the sandbox shut down (SOCK_DESTROY) goes. */
	if (fd < 0 && (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM))
		rl->starved = true;
	else if (fd < 0 && errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
		listener_gone(rl, i);
	if (fd < 0)
		return;
	/* The relay passes on what it has at once; Nagle's wait would add to the client's. */
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &(int){ 1 }, sizeof(int));
	for (size_t k = 0; k < RELAY_MAX_CONNS && !c; k++)
		if (rl->conns[k].fd[0] < 0)
			c = &rl->conns[k];
	if (!c) {
		close(fd);
		return;
	}
	c->fd[1] = target_connect(&rl->plan->bridges[i], rl->target[i], &connecting);
	if (c->fd[1] < 0) {
		close(fd);
		return;
	}
	c->fd[0] = fd;
	c->connecting = connecting;
	c->dir[0].buf = xmalloc(RELAY_BUF_SIZE);
	c->dir[1].buf = xmalloc(RELAY_BUF_SIZE);
	rl->n_conns++;
}

/* Writes what DIR holds to fd[to]; after EOF and an empty buffer, shuts fd[to] for
 * writing. Returns -1 when the connection is broken. */
static int flow_flush(struct conn *c, int from)
{
	struct flow *f = &c->dir[from];
	int to = 1 - from;

	while (f->off < f->len) {
		ssize_t n = write(c->fd[to], f->buf + f->off, f->len - f->off);

		if (n < 0)
			return errno == EAGAIN ? 0 : -1;
		f->off += (size_t)n;
	}
	f->len = f->off = 0;
	if (f->eof)
		(void)shutdown(c->fd[to], SHUT_WR);
	return 0;
}

/* Reads into an empty buffer and passes it on at once: most writes complete, which
 * saves a round through poll for every message. */
static int flow_read(struct conn *c, int from)
{
	struct flow *f = &c->dir[from];
	ssize_t n = read(c->fd[from], f->buf, RELAY_BUF_SIZE);

	if (n < 0)
		return errno == EAGAIN ? 0 : -1;
	if (n == 0)
		f->eof = true;
	f->len = (size_t)n;
	f->off = 0;
	return flow_flush(c, from);
}

static short conn_events(const struct conn *c, int side)
{
	const struct flow *in = &c->dir[side], *out = &c->dir[1 - side];
	short ev = 0;

	if (c->connecting)
		return side == 1 ? POLLOUT : 0;
	if (!in->eof && in->len == 0)
		ev |= POLLIN;
	if (out->len > out->off)
		ev |= POLLOUT;
	return ev;
}

/* What poll said about connection C (revents of fd[0] and fd[1]). */
static void conn_serve(struct relay *rl, struct conn *c, const short rev[2])
{
	int e = 0;
	socklen_t len = sizeof(e);

	if (c->connecting) {
		if (!rev[1])
			return;
		if (getsockopt(c->fd[1], SOL_SOCKET, SO_ERROR, &e, &len) < 0 || e != 0)
			return conn_close(rl, c);
		c->connecting = false;
		return;
	}
	for (int s = 0; s < 2; s++) {
		/* A peer that hung up gets the write that fails. */
		if ((rev[s] & POLLERR) ||
		    ((rev[1 - s] & (POLLOUT | POLLHUP)) && flow_flush(c, s) < 0) ||
		    ((rev[s] & (POLLIN | POLLHUP)) && !c->dir[s].eof && c->dir[s].len == 0 &&
		     flow_read(c, s) < 0))
			return conn_close(rl, c);
	}
	if (c->dir[0].eof && c->dir[1].eof && !c->dir[0].len && !c->dir[1].len)
		conn_close(rl, c);
}

/* Listeners first (while there is room for a connection), then both ends of each. */
static size_t relay_pollfds(struct relay *rl, struct pollfd *p, struct conn **who)
{
	size_t n = 0;

	for (size_t i = 0; i < rl->plan->n_bridges; i++)
		p[n++] = (struct pollfd){ .fd = rl->n_conns < RELAY_MAX_CONNS && !rl->starved ?
							rl->listen[i] :
							-1,
					  .events = POLLIN };
	for (size_t k = 0; k < RELAY_MAX_CONNS; k++) {
		struct conn *c = &rl->conns[k];

		if (c->fd[0] < 0)
			continue;
		for (int s = 0; s < 2; s++) {
			short ev = conn_events(c, s);

			/* Nothing wanted from it now: no POLLHUP to spin on either. */
			who[n] = c;
			p[n++] = (struct pollfd){ .fd = ev ? c->fd[s] : -1, .events = ev };
		}
	}
	return n;
}

_noreturn_ static void relay_loop(struct relay *rl)
{
	static struct pollfd p[PLAN_MAX_BRIDGES + 2 * RELAY_MAX_CONNS];
	static struct conn *who[PLAN_MAX_BRIDGES + 2 * RELAY_MAX_CONNS];
	size_t nb = rl->plan->n_bridges;

	for (;;) {
		size_t n = relay_pollfds(rl, p, who);

		if (poll(p, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		for (size_t i = 0; i < nb; i++)
			if (p[i].revents & (POLLERR | POLLHUP | POLLNVAL))
				listener_gone(rl, i);
			else if (p[i].revents)
				relay_accept(rl, i);
		for (size_t i = nb; i < n; i += 2) {
			short rev[2] = { p[i].revents, p[i + 1].revents };

			if ((rev[0] || rev[1]) && who[i]->fd[0] >= 0)
				conn_serve(rl, who[i], rev);
		}
	}
}

/* The listening sockets from the sandbox, in the plan's order, and the answer that
 * the relay holds them. */
static int relay_take(struct relay *rl, int sock)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * PLAN_MAX_BRIDGES)];
		struct cmsghdr align;
	} u;
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = u.buf,
			      .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *cm;
	size_t n = rl->plan->n_bridges;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1 || (msg.msg_flags & MSG_CTRUNC))
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS ||
	    cm->cmsg_len != CMSG_LEN(sizeof(int) * n))
		return -1;
	memcpy(rl->listen, CMSG_DATA(cm), sizeof(int) * n);
	for (size_t i = 0; i < n; i++)
		if (fcntl(rl->listen[i], F_SETFL, O_NONBLOCK) < 0)
			return -1;
	return write_all(sock, "1", 1);
}

/* The relay's own setup: tied to the monitor, out of the terminal's process group (the
 * caller's Ctrl-C and Ctrl-Z are the command's to get), no privilege to gain, nothing
 * to dump or trace, and no fd of nsrun's. */
static bool kept(const int *keep, size_t n, int fd)
{
	for (size_t i = 0; i < n; i++)
		if (keep[i] == fd)
			return true;
	return false;
}

_noreturn_ static void relay_main(const struct plan *plan, int sock, const int *pinned,
				  pid_t monitor)
{
	static struct relay rl;
	int keep[PLAN_MAX_BRIDGES + 1] = { sock };
	size_t n_keep = 1;
	sigset_t none;

	for (size_t i = 0; i < plan->n_bridges; i++) {
		rl.target[i] = pinned[i];
		if (pinned[i] >= 0)
			keep[n_keep++] = pinned[i];
	}

	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != monitor)
		_exit(1);
	if (setsid() < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		_exit(1);
	fd_close_all_except(keep, n_keep);
	for (int fd = 0; fd < 3; fd++)
		if (!kept(keep, n_keep, fd))
			close(fd);
	/* A peer that went away is an error of one connection, not the relay's end. */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	rl.plan = plan;
	for (size_t k = 0; k < RELAY_MAX_CONNS; k++)
		rl.conns[k].fd[0] = rl.conns[k].fd[1] = -1;
	if (relay_take(&rl, sock) < 0)
		_exit(1);
	close(sock);
	relay_loop(&rl);
}

/* ---- the monitor's side ---- */

static void close_pinned(int *pinned, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pinned[i] >= 0)
			close(pinned[i]);
}

/* A UNIX target must be a socket when the sandbox starts: a proxy that is not there
 * would leave the command without its way out, silently. It is pinned (PINNED[i], an
 * O_PATH fd, -1 for TCP) so that the relay reaches that socket and no other. */
static int pin_targets(const struct plan *plan, int *pinned, struct nsrun_error *err)
{
	struct stat st;

	for (size_t i = 0; i < plan->n_bridges; i++)
		pinned[i] = -1;
	for (size_t i = 0; i < plan->n_bridges; i++) {
		const struct plan_bridge *b = &plan->bridges[i];
		int e = ENOTSOCK;

		if (b->kind != BRIDGE_UNIX)
			continue;
		pinned[i] = open(b->path, O_PATH | O_CLOEXEC);
		if (pinned[i] < 0 || fstat(pinned[i], &st) < 0)
			e = errno;
		else if (S_ISSOCK(st.st_mode))
			continue;
		close_pinned(pinned, plan->n_bridges);
		return error_fail_closed(err, error_set(err, e, "--bridge %u: '%s'",
							(unsigned)b->port, b->path));
	}
	return 0;
}

int bridge_start(const struct plan *plan, struct bridge_relay *rel, struct nsrun_error *err)
{
	pid_t monitor = getpid();
	int sp[2], pinned[PLAN_MAX_BRIDGES], r;

	r = pin_targets(plan, pinned, err);
	if (r < 0)
		return r;
	/* SEQPACKET: the sockets come in one message, and a relay that is gone is EPIPE. */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0) {
		close_pinned(pinned, plan->n_bridges);
		return error_fail_closed(err, error_set(err, errno, "--bridge: socketpair"));
	}
	rel->pid = fork();
	if (rel->pid == 0)
		relay_main(plan, sp[0], pinned, monitor);
	/* The pinned sockets are the relay's alone: the sandbox is cloned from here. */
	close_pinned(pinned, plan->n_bridges);
	if (rel->pid < 0) {
		r = error_set(err, errno, "--bridge: can't start the relay");
		close(sp[0]);
		close(sp[1]);
		rel->pid = 0;
		return error_fail_closed(err, r);
	}
	close(sp[0]);
	rel->sock = sp[1];
	/* Not reused while unreaped; the pidfd stays exact even if a subreaper's sweep
	 * (--timeout) reaps it first. */
	rel->pidfd = sys_pidfd_open(rel->pid, 0);
	return 0;
}

void bridge_stop(struct bridge_relay *rel)
{
	if (rel->sock >= 0)
		close(rel->sock);
	rel->sock = -1;
	if (rel->pid <= 0)
		return;
	if (rel->pidfd >= 0)
		(void)sys_pidfd_send_signal(rel->pidfd, SIGKILL);
	else
		(void)kill(rel->pid, SIGKILL);
	while (waitpid(rel->pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (rel->pidfd >= 0)
		close(rel->pidfd);
	rel->pidfd = -1;
	rel->pid = 0;
}

/* ---- the sandbox's side ---- */

static int listen_one(uint16_t port, struct nsrun_error *err)
{
	struct sockaddr_in in = { .sin_family = AF_INET,
				  .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&in, sizeof(in)) < 0 ||
	    listen(fd, SOMAXCONN) < 0) {
		error_set(err, errno, "--bridge %u: can't listen on 127.0.0.1:%u in the sandbox",
			  (unsigned)port, (unsigned)port);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int hand_over(int sock, const int *fds, size_t n, struct nsrun_error *err)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * PLAN_MAX_BRIDGES)];
		struct cmsghdr align;
	} u = { 0 };
	char byte = 'b';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = u.buf,
			      .msg_controllen = CMSG_SPACE(sizeof(int) * n) };
	struct cmsghdr *cm = &u.align; /* the first header: msg_control is u */

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(cm), fds, sizeof(int) * n);
	if (sendmsg(sock, &msg, MSG_NOSIGNAL) != 1)
		return error_set(err, errno, "--bridge: can't hand the ports to the relay");
	/* EOF: the relay ended before it held them. */
	if (read_byte(sock) < 0)
		return error_set(err, EPIPE, "--bridge: the relay did not start");
	return 0;
}

int bridge_listen(const struct plan *plan, int sock, struct nsrun_error *err)
{
	int fds[PLAN_MAX_BRIDGES];
	size_t n = 0;
	int r = 0;

	while (n < plan->n_bridges && r == 0) {
		fds[n] = listen_one(plan->bridges[n].port, err);
		if (fds[n] < 0)
			r = -1;
		else
			n++;
	}
	if (r == 0)
		r = hand_over(sock, fds, n, err);
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
	close(sock);
	return r < 0 ? error_fail_closed(err, -EIO) : 0;
}
