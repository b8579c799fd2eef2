/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* The profile AppArmor attaches to /usr/bin/nsrun (packaging/apparmor/nsrun): it holds
 * no grant, because whatever the dynamic loader was told to run (LD_PRELOAD, LD_AUDIT)
 * runs in it. The grant is in APPARMOR_PROFILE_USERNS, which nothing attaches to: only
 * this profile's exec of nsrun reaches it, and that exec scrubs the loader's variables. */
#define APPARMOR_PROFILE_ENTRY "nsrun"
#define APPARMOR_PROFILE_USERNS "nsrun_userns"
/* Stacked on whatever nsrun runs, and on nsrun's own processes once they no longer need
 * the grant: it denies every capability. */
#define APPARMOR_PROFILE_PAYLOAD "nsrun_payload"
/* Names the memfd that carries the caller's environment over the scrubbing exec. */
#define APPARMOR_ENV_FD_VAR "NSRUN_APPARMOR_ENV_FD"

/* The current AppArmor label's first profile name ("nsrun" of "nsrun (enforce)");
 * false when AppArmor is not active or the process is unconfined. */
bool apparmor_profile(char *buf, size_t len);

/* Whether this thread runs under APPARMOR_PROFILE_USERNS alone (PROC_FD: the host's /proc). */
bool apparmor_holds_grant(int proc_fd);

/* Under APPARMOR_PROFILE_USERNS: stack APPARMOR_PROFILE_PAYLOAD onto this thread now.
 * A process that turns dumpable can be traced by the caller's other processes (Yama's
 * ptrace_scope 1 lets an ancestor attach), and code they inject must not find the
 * grant: the setup child drops it before it turns dumpable to exec the command, and
 * so pid 1 stays without it. Elsewhere: nothing. */
int apparmor_drop_grant(int proc_fd, struct nsrun_error *err);

/* Under the entry profile: exec nsrun again, so that it runs under the profile with the
 * grant, its loader in secure mode; the environment is carried in a memfd, since the
 * scrubbing drops variables the command must still get. Under the granting profile:
 * *envp becomes that environment (nsrun's own is left as it is). Inside a sandbox of
 * nsrun's (the label stacks APPARMOR_PROFILE_PAYLOAD, which denies every capability):
 * nothing, and returns 1: no sandbox can be built there, nor can --landlock-only's
 * self-test run, but what runs no command (--version, --doctor) still works. Elsewhere:
 * nothing. Returns only on success or error. */
int apparmor_hand_over(char **argv, char ***envp, struct nsrun_error *err);

/* The refusal of a sandbox inside a sandbox of nsrun's (exit 126), with why and what to do. */
int apparmor_refuse_nested(struct nsrun_error *err);

/* The two ends of the hand-over, for the unit tests. Save: the environment into a sealed
 * memfd (not close-on-exec, above fd 2) named by APPARMOR_ENV_FD_VAR; returns the fd.
 * Restore: FD_TEXT must name that memfd (PROC_FD: /proc, to read the fd's name); anything
 * else (stdio, a file, another memfd) is refused with exit 1, neither read nor closed.
 * The memfd is read into *envp, closed, and the variable unset. */
int apparmor_env_save(struct nsrun_error *err);
int apparmor_env_restore(int proc_fd, const char *fd_text, char ***envp, struct nsrun_error *err);

/* Whether the AppArmor label LABEL ("a//&b (enforce)", as attr/current shows it) stacks
 * the profile PROFILE. */
bool apparmor_label_has(const char *label, const char *profile);
