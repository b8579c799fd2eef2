/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * loopback.c: rtnetlink requests that give a new network namespace a working
 * loopback: RTM_NEWADDR 127.0.0.1/8 on lo, then RTM_NEWLINK with IFF_UP. Each
 * request asks for an ACK and fails on a negative one (EEXIST is fine: newer
 * kernels add the address themselves when lo goes up). Where RTM_NEWADDR alone is
 * refused (a container's seccomp supervisor, an LSM), lo goes up all the same and the
 * kernel gives it 127.0.0.1 and ::1: nothing is missing, so that is no failure.
 */
#include "config.h"

#include "loopback.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdbool.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <unistd.h>

#include "macros.h"

struct nl_req {
	struct nlmsghdr hdr;
	union {
		struct ifaddrmsg ifa;
		struct ifinfomsg ifi;
	};
	char attrs[64];
};

static void add_attr(struct nl_req *req, unsigned short type, const void *data, size_t len)
{
	struct rtattr *rta = (struct rtattr *)((char *)req + NLMSG_ALIGN(req->hdr.nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	req->hdr.nlmsg_len = NLMSG_ALIGN(req->hdr.nlmsg_len) + RTA_ALIGN(rta->rta_len);
}

/* Sends one request and waits for its ACK. Returns 0 or -errno from the kernel. */
static int nl_transact(int fd, struct nl_req *req, unsigned seq)
{
	char buf[4096];
	struct sockaddr_nl dst = { .nl_family = AF_NETLINK };
	ssize_t n;

	req->hdr.nlmsg_seq = seq;
	req->hdr.nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	if (sendto(fd, req, req->hdr.nlmsg_len, 0, (struct sockaddr *)&dst, sizeof(dst)) < 0)
		return -errno;
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq || h->nlmsg_type != NLMSG_ERROR)
				continue;
			return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
		}
	}
}

static int add_address(int fd, unsigned ifindex)
{
	struct nl_req req = { 0 };
	struct in_addr addr = { .s_addr = htonl(INADDR_LOOPBACK) };

	req.hdr.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifaddrmsg));
	req.hdr.nlmsg_type = RTM_NEWADDR;
	req.hdr.nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	req.ifa.ifa_family = AF_INET;
	req.ifa.ifa_prefixlen = 8;
	req.ifa.ifa_flags = IFA_F_PERMANENT;
	req.ifa.ifa_scope = RT_SCOPE_HOST;
	req.ifa.ifa_index = ifindex;
	add_attr(&req, IFA_LOCAL, &addr, sizeof(addr));
	add_attr(&req, IFA_ADDRESS, &addr, sizeof(addr));
	return nl_transact(fd, &req, 1);
}

static int link_up(int fd, unsigned ifindex)
{
	struct nl_req req = { 0 };

	req.hdr.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg));
	req.hdr.nlmsg_type = RTM_NEWLINK;
	req.ifi.ifi_family = AF_UNSPEC;
	req.ifi.ifi_index = (int)ifindex;
	req.ifi.ifi_flags = IFF_UP;
	req.ifi.ifi_change = IFF_UP;
	return nl_transact(fd, &req, 2);
}

/* Whether 127.0.0.1 is an address of this namespace: only then can a socket bind it. */
static bool has_loopback_address(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	_cleanup_close_ int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	return fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
}

/* lo up after a refused RTM_NEWADDR: fine when the kernel gave lo 127.0.0.1; otherwise
 * bwrap's message for the first step that failed. */
static int after_refused_address(int addr_err, int up, int *newaddr_refused,
				 struct nsrun_error *err)
{
	if (up < 0 || !has_loopback_address())
		return error_set(err, addr_err, "loopback: Failed RTM_NEWADDR");
	if (newaddr_refused)
		*newaddr_refused = addr_err;
	log_debug("loopback: RTM_NEWADDR refused (%s); lo is up with the kernel's 127.0.0.1",
		  strerror(addr_err));
	return 0;
}

int loopback_setup(struct nsrun_error *err)
{
	return loopback_setup_report(NULL, err);
}

int loopback_setup_report(int *newaddr_refused, struct nsrun_error *err)
{
	struct sockaddr_nl src = { .nl_family = AF_NETLINK };
	struct ifreq ifr = { .ifr_name = "lo" };
	_cleanup_close_ int fd = -1;
	unsigned ifindex;
	int r;

	/* if_nametoindex() would open a socket of its own: any socket answers this ioctl. */
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0) {
		int e = errno;

		/* bwrap looks lo up first: where that fails too, its message comes first. */
		if (if_nametoindex("lo") == 0)
			return error_set(err, errno, "loopback: Failed to look up lo");
		return error_set(err, e, "loopback: Failed to create NETLINK_ROUTE socket");
	}
	if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0)
		return error_set(err, errno, "loopback: Failed to look up lo");
	ifindex = (unsigned)ifr.ifr_ifindex;
	if (bind(fd, (struct sockaddr *)&src, sizeof(src)) < 0)
		return error_set(err, errno, "loopback: Failed to bind NETLINK_ROUTE socket");
	if (newaddr_refused)
		*newaddr_refused = 0;
	r = add_address(fd, ifindex);
	if (r < 0 && r != -EEXIST)
		return after_refused_address(-r, link_up(fd, ifindex), newaddr_refused, err);
	r = link_up(fd, ifindex);
	if (r < 0)
		return error_set(err, -r, "loopback: Failed RTM_NEWLINK");
	return 0;
}
