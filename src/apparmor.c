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

/* The label's attribute file under PROC_FD (thread-self: a stack applies per thread),
 * in the LSM's own directory first (Linux 5.8+), else the shared one. */
static int attr_open(int proc_fd, const char *name, int flags)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "thread-self/attr/apparmor/%s", name);
	fd = openat(proc_fd, path, flags | O_CLOEXEC);
	if (fd >= 0 || errno != ENOENT)
		return fd;
	snprintf(path, sizeof(path), "thread-self/attr/%s", name);
	return openat(proc_fd, path, flags | O_CLOEXEC);
}

static bool profile_at(int proc_fd, char *buf, size_t len)
{
	_cleanup_close_ int fd = attr_open(proc_fd, "current", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read_full(fd, buf, len - 1);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "name (mode)", "name//&stacked (mode)" or "unconfined" */
	buf[strcspn(buf, " \n/")] = '\0';
	return buf[0] != '\0' && strcmp(buf, "unconfined") != 0;
}

bool apparmor_profile(char *buf, size_t len)
{
	_cleanup_close_ int proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);

	return proc_fd >= 0 && profile_at(proc_fd, buf, len);
}

bool apparmor_holds_grant(int proc_fd)
{
	char profile[256];

	return profile_at(proc_fd, profile, sizeof(profile)) &&
	       strcmp(profile, APPARMOR_PROFILE_USERNS) == 0;
}

int apparmor_drop_grant(int proc_fd, struct nsrun_error *err)
{
	static const char cmd[] = "stack " APPARMOR_PROFILE_PAYLOAD;
	_cleanup_close_ int fd = -1;
	int r;

	if (!apparmor_holds_grant(proc_fd))
		return 0;
	fd = attr_open(proc_fd, "current", O_WRONLY);
	r = fd < 0 ? -errno : write_all(fd, cmd, strlen(cmd));
	if (r < 0)
		return error_set(err, -r,
				 "AppArmor: can't stack '%s' onto '%s' (reload /etc/apparmor.d/nsrun "
				 "with apparmor_parser -r)",
				 APPARMOR_PROFILE_PAYLOAD, APPARMOR_PROFILE_USERNS);
	return 0;
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
	/* Holding the grant: no other process of the caller's may trace this one (the
	 * setup child is dumpable only to write its ID maps: start_handshake). */
	if (strcmp(profile, APPARMOR_PROFILE_USERNS) == 0 && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return error_set(err, errno, "AppArmor hand-over: prctl(PR_SET_DUMPABLE)");
	if (strcmp(profile, APPARMOR_PROFILE_USERNS) == 0 && fd_text) {
		/* The exec of /proc/self/exe named the process "exe"; ps shows the name the
		 * caller ran (nsrun, bwrap). */
		(void)prctl(PR_SET_NAME, program_invocation_short_name, 0, 0, 0);
		return restore_environment(fd_text, envp, err);
	}
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
