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
/* Names the memfd that carries the caller's environment over the scrubbing exec. */
#define APPARMOR_ENV_FD_VAR "NSRUN_APPARMOR_ENV_FD"

/* The current AppArmor label's first profile name ("nsrun" of "nsrun (enforce)");
 * false when AppArmor is not active or the process is unconfined. */
bool apparmor_profile(char *buf, size_t len);

/* Under the entry profile: exec nsrun again, so that it runs under the profile with the
 * grant, its loader in secure mode; the environment is carried in a memfd, since the
 * scrubbing drops variables the command must still get. Under the granting profile:
 * *envp becomes that environment (nsrun's own is left as it is). Elsewhere: nothing.
 * Returns only on success or error. */
int apparmor_hand_over(char **argv, char ***envp, struct nsrun_error *err);
