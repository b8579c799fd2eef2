/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * apparmor.c: the hand-over between nsrun's two AppArmor profiles. A profile attached
 * by path applies to code the caller chose through the dynamic loader's variables:
 * attaching from an unconfined process does not make the loader run in secure mode.
 * So the profile that lets nsrun create user namespaces is reached only through an
 * exec from the entry profile (a Px rule), which sets AT_SECURE for the new image.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "apparmor.h"
#include "macros.h"
#include "util.h"

extern char **environ;

#define MAX_ENVIRONMENT (64u << 20)

bool apparmor_profile(char *buf, size_t len)
{
	static const char *const paths[] = { "/proc/self/attr/apparmor/current",
					     "/proc/self/attr/current" };

	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		_cleanup_close_ int fd = open(paths[i], O_RDONLY | O_CLOEXEC);
		ssize_t n;

		if (fd < 0)
			continue;
		n = read_full(fd, buf, len - 1);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* "name (mode)", "name//&stacked (mode)" or "unconfined" */
		buf[strcspn(buf, " \n/")] = '\0';
		return buf[0] != '\0' && strcmp(buf, "unconfined") != 0;
	}
	return false;
}

static int save_environment(struct nsrun_error *err)
{
	_cleanup_close_ int fd = memfd_create("nsrun-environ", 0);
	char num[16];

	if (fd < 0)
		return error_set(err, errno, "AppArmor hand-over: memfd_create");
	for (char **e = environ; *e; e++)
		if (write_all(fd, *e, strlen(*e) + 1) < 0)
			return error_set(err, errno, "AppArmor hand-over: saving the environment");
	if (lseek(fd, 0, SEEK_SET) < 0)
		return error_set(err, errno, "AppArmor hand-over: lseek");
	snprintf(num, sizeof(num), "%d", fd);
	if (setenv(APPARMOR_ENV_FD_VAR, num, 1) < 0)
		return error_set(err, errno, "AppArmor hand-over: setenv");
	return TAKE_FD(fd);
}

/* The caller's environment, for the command only: nsrun's own stays as the secure-mode
 * loader left it (no GCONV_PATH or LOCPATH while it holds the grant, pkexec's lesson).
 * The strings stay allocated: the plan points into them. */
static int restore_environment(const char *fd_text, char ***envp, struct nsrun_error *err)
{
	char *data, **v = NULL;
	size_t len, n = 0;
	int fd, r;

	if (parse_fd(fd_text, &fd) < 0)
		return error_set_plain(err, EINVAL, "AppArmor hand-over: bad %s",
				       APPARMOR_ENV_FD_VAR);
	r = read_all(fd, MAX_ENVIRONMENT, &data, &len);
	close(fd);
	if (r < 0)
		return error_set(err, -r, "AppArmor hand-over: reading the environment");
	for (size_t off = 0; off < len; off += strlen(data + off) + 1)
		if (strchr(data + off, '='))
			*(char **)xappend(&v, &n, sizeof(char *)) = data + off;
	*(char **)xappend(&v, &n, sizeof(char *)) = NULL;
	*envp = v;
	return unsetenv(APPARMOR_ENV_FD_VAR);
}

int apparmor_hand_over(char **argv, char ***envp, struct nsrun_error *err)
{
	const char *fd_text = getenv(APPARMOR_ENV_FD_VAR);
	char profile[256];

	if (!apparmor_profile(profile, sizeof(profile)))
		return 0;
	/* Holding the grant: no other process of the caller's may trace this one (what it
	 * makes non-dumpable again, pid 1 and the setup child, is in the man page). */
	if (strcmp(profile, APPARMOR_PROFILE_USERNS) == 0 && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return error_set(err, errno, "AppArmor hand-over: prctl(PR_SET_DUMPABLE)");
	if (strcmp(profile, APPARMOR_PROFILE_USERNS) == 0 && fd_text)
		return restore_environment(fd_text, envp, err);
	if (strcmp(profile, APPARMOR_PROFILE_ENTRY) != 0)
		return 0;
	if (fd_text)
		return error_set_plain(err, EPERM,
				       "AppArmor profile '%s' did not hand over to '%s': "
				       "reload /etc/apparmor.d/nsrun (apparmor_parser -r)",
				       APPARMOR_PROFILE_ENTRY, APPARMOR_PROFILE_USERNS);
	if (save_environment(err) < 0)
		return -1;
	execve("/proc/self/exe", argv, environ);
	return error_set(err, errno, "AppArmor hand-over: executing /proc/self/exe");
}
