/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bridge.h: --bridge PORT TARGET, the new network namespace's only way out. The parser
 * is pure. The relay is a process of nsrun's outside the sandbox, forked by the monitor
 * before clone; the sandbox's first process gives it the listening sockets it made on
 * its own loopback and keeps nothing of them, so that nothing of the relay is inside
 * but the ports.
 */
#pragma once

#include <stdint.h>
#include <sys/types.h>

#include "error.h"
#include "plan.h"

/* PORT ("1" to "65535") and TARGET ("unix:/ABS/PATH", "tcp:HOST:PORT" with HOST
 * 127.0.0.0/8, ::1, [::1] or localhost) into *ret, whose strings the caller owns. Pure:
 * returns 0, or -EINVAL with err filled (a usage error). */
int bridge_parse(const char *port, const char *target, struct plan_bridge *ret,
		 struct nsrun_error *err);

/* The monitor's handle on the relay. */
struct bridge_relay {
	pid_t pid; /* 0: none */
	int pidfd; /* -1 before Linux 5.3 */
	int sock;  /* the sandbox's end of the relay's socket, until the clone has it */
};
#define BRIDGE_RELAY_INIT                         \
	{                                         \
		.pid = 0, .pidfd = -1, .sock = -1 \
	}

/* In the monitor, before clone: checks the UNIX targets and starts the relay. Fails
 * closed (126): a target that is missing or no socket, a relay that cannot start. */
int bridge_start(const struct plan *plan, struct bridge_relay *rel, struct nsrun_error *err);
/* SIGKILLs and reaps the relay, closes what the monitor holds of it; idempotent. */
void bridge_stop(struct bridge_relay *rel);

/* In the sandbox's first process, in its network namespace with lo up and its
 * capabilities still held: listens on 127.0.0.1:PORT for each bridge, hands the sockets
 * to the relay over SOCK and waits for it to take them; closes them and SOCK. Fails
 * closed (126). */
int bridge_listen(const struct plan *plan, int sock, struct nsrun_error *err);
