/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * noexec.h: with --landlock-exec, writable mounts that hold none of the exec
 * paths become noexec. Landlock checks execve(2) only; the dynamic loader, which
 * an exec allowlist must let run, can map any readable file PROT_EXEC
 * ("ld.so ./copied-binary"). noexec refuses those mappings for files the
 * payload could have written.
 */
#pragma once

#include "error.h"

/* root_path: the sandbox root as an absolute path in the current view ("/newroot");
 * mountinfo: path of a mountinfo file describing the current mount namespace;
 * exec_paths: --landlock-exec paths inside the sandbox (NULL-terminated; NULL or empty:
 * nothing to do). Returns 0 or -errno with err filled. */
int noexec_writable_mounts(const char *root_path, const char *mountinfo, char *const *exec_paths,
			   struct nsrun_error *err);

/* Pure helper, unit-tested: decodes mountinfo's octal escapes (\040 ...) in place. */
void noexec_unescape(char *s);
