/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * reaper.h: pid 1 of the sandbox. Reaps every child, reports the payload's
 * status to the monitor as soon as the payload exits, and exits with that
 * status once the last child is gone.
 */
#pragma once

#include <signal.h>
#include <sys/types.h>

#include "macros.h"

/* The signals pid 1 waits for. The caller blocks them before forking the payload
 * (so none is lost), and the payload unblocks them before exec. */
void reaper_signal_set(sigset_t *set);

/* Exit status as a shell reports it: n, 128+signal, or 255. */
int reaper_exit_status(int wait_status);

/* waitpid(pid, .., flags) through EINTR: the raw wait status, or -errno. */
int reaper_wait(pid_t pid, int flags);

/* The same for a child the kernel reaps itself (CLONE_AUTOREAP), through its pidfd:
 * waits until it has ended, then asks for its status (PIDFD_INFO_EXIT). */
int reaper_wait_pidfd(int pidfd);

/* A transparent relay (the --new-session leader, the --pidns parent): waits for pid and
 * exits with its status; 1 when it cannot wait. */
_noreturn_ void reaper_relay(pid_t pid);

/* Never returns. status_fd (-1: none) receives the payload's raw wait status as one int. */
_noreturn_ void reaper_run(pid_t payload, int status_fd);
