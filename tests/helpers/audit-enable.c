/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * audit-enable [on|off|status]: AUDIT_SET enabled=1 (or 0), or AUDIT_GET printed as
 * "enabled=N lost=N". Setting is system-wide: only for the throwaway guests of
 * tests/kernels, where --report-fd's kernel source is tested; nsrun itself never sets it.
 * Exit 0, or 1 with a message.
 */
#include <linux/audit.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int reply(int fd, struct audit_status *st)
{
	char buf[512];
	struct nlmsghdr *r = (struct nlmsghdr *)buf;

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n < (ssize_t)NLMSG_HDRLEN)
			return -1;
		if (r->nlmsg_type == NLMSG_ERROR) {
			int e = ((struct nlmsgerr *)NLMSG_DATA(r))->error;

			if (e)
				fprintf(stderr, "audit-enable: error %d\n", e);
			return e ? -1 : 0;
		}
		if (r->nlmsg_type == AUDIT_GET && st) {
			memcpy(st, NLMSG_DATA(r),
			       sizeof(*st) < (size_t)n - NLMSG_HDRLEN ? sizeof(*st) :
									(size_t)n - NLMSG_HDRLEN);
			return 0;
		}
	}
}

int main(int argc, char **argv)
{
	struct {
		struct nlmsghdr h;
		struct audit_status s;
	} req = { 0 };
	const char *what = argc > 1 ? argv[1] : "on";
	bool get = strcmp(what, "status") == 0;
	struct audit_status st = { 0 };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);

	req.h.nlmsg_len = get ? NLMSG_LENGTH(0) : sizeof(req);
	req.h.nlmsg_type = get ? AUDIT_GET : AUDIT_SET;
	req.h.nlmsg_flags = NLM_F_REQUEST | (get ? 0 : NLM_F_ACK);
	req.s.mask = AUDIT_STATUS_ENABLED;
	req.s.enabled = strcmp(what, "off") == 0 ? 0 : 1;
	if (fd < 0 || send(fd, &req, req.h.nlmsg_len, 0) < 0) {
		perror("audit-enable");
		return 1;
	}
	if (reply(fd, get ? &st : NULL) < 0)
		return 1;
	if (get)
		printf("enabled=%u lost=%u\n", st.enabled, st.lost);
	close(fd);
	return 0;
}
