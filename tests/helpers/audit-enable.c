/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * audit-enable: AUDIT_SET enabled=1 (or 0 with "off"). System-wide: only for the
 * throwaway guests of tests/kernels, where --report-fd's kernel source is tested;
 * nsrun itself never does this. Prints nothing; exit 0 or 1.
 */
#include <linux/audit.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct {
		struct nlmsghdr h;
		struct audit_status s;
	} req = { 0 };
	char buf[512];
	struct nlmsghdr *r = (struct nlmsghdr *)buf;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);

	req.h.nlmsg_len = sizeof(req);
	req.h.nlmsg_type = AUDIT_SET;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.s.mask = AUDIT_STATUS_ENABLED;
	req.s.enabled = argc > 1 && strcmp(argv[1], "off") == 0 ? 0 : 1;
	if (fd < 0 || send(fd, &req, sizeof(req), 0) < 0 || recv(fd, buf, sizeof(buf), 0) < 0) {
		perror("audit-enable");
		return 1;
	}
	if (r->nlmsg_type == NLMSG_ERROR && ((struct nlmsgerr *)NLMSG_DATA(r))->error) {
		fprintf(stderr, "audit-enable: error %d\n",
			((struct nlmsgerr *)NLMSG_DATA(r))->error);
		return 1;
	}
	close(fd);
	return 0;
}
