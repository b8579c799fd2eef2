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
#include "syscall.h"
#include "util.h"

extern char **environ;

#define MAX_ENVIRONMENT (64u << 20)
/* The environment's memfd: its name, and the seals it gets once written (fixed size and
 * content). The kernel may add F_SEAL_EXEC (MFD_NOEXEC_SEAL, vm.memfd_noexec). */
#define ENV_MEMFD_NAME "nsrun-environ"
#define ENV_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

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

/* The label of this thread as attr/current shows it, without its newline: "unconfined",
 * "name (mode)", "a//&b (mode)" (a stack) or "a (mode)//&b (mode)". */
static bool label_at(int proc_fd, char *buf, size_t len)
{
	_cleanup_close_ int fd = attr_open(proc_fd, "current", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read_full(fd, buf, len - 1);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* The label's first profile name, in place; false when unconfined. */
static bool first_profile(char *label)
{
	label[strcspn(label, " /")] = '\0';
	return label[0] != '\0' && strcmp(label, "unconfined") != 0;
}

static bool profile_at(int proc_fd, char *buf, size_t len)
{
	return label_at(proc_fd, buf, len) && first_profile(buf);
}

bool apparmor_label_has(const char *label, const char *profile)
{
	size_t n = strlen(profile);

	for (const char *p = label;; p += 3) {
		if (strncmp(p, profile, n) == 0 &&
		    (p[n] == '\0' || p[n] == ' ' || strncmp(p + n, "//&", 3) == 0))
			return true;
		p = strstr(p, "//&");
		if (!p)
			return false;
	}
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

/* Not close-on-exec: it crosses the exec of /proc/self/exe. */
static int env_memfd(void)
{
	int fd = memfd_create(ENV_MEMFD_NAME, MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL);

	/* Before Linux 6.3 the kernel knows no MFD_NOEXEC_SEAL. */
	if (fd < 0 && errno == EINVAL)
		fd = memfd_create(ENV_MEMFD_NAME, MFD_ALLOW_SEALING);
	/* With stdio closed it could be 0-2, which the restore refuses. */
	if (fd >= 0 && fd <= 2) {
		int high = fcntl(fd, F_DUPFD, 3);

		close(fd);
		fd = high;
	}
	return fd;
}

int apparmor_env_save(struct nsrun_error *err)
{
	_cleanup_close_ int fd = env_memfd();
	char num[16];

	if (fd < 0)
		return error_set(err, errno, "AppArmor hand-over: memfd_create");
	for (char **e = environ; *e; e++)
		if (write_all(fd, *e, strlen(*e) + 1) < 0)
			return error_set(err, errno, "AppArmor hand-over: saving the environment");
	if (fcntl(fd, F_ADD_SEALS, ENV_SEALS) < 0)
		return error_set(err, errno, "AppArmor hand-over: sealing the environment");
	if (lseek(fd, 0, SEEK_SET) < 0)
		return error_set(err, errno, "AppArmor hand-over: lseek");
	snprintf(num, sizeof(num), "%d", fd);
	if (setenv(APPARMOR_ENV_FD_VAR, num, 1) < 0)
		return error_set(err, errno, "AppArmor hand-over: setenv");
	return TAKE_FD(fd);
}

/* NULL when FD is the memfd apparmor_env_save made (its name, its seals), else what it is.
 * Anything else is refused whole, not read nor closed: the variable comes from the caller
 * (or from code the caller preloaded into the entry profile), and could name stdio. */
static const char *env_fd_problem(int proc_fd, int fd)
{
	static const char *const stdio[] = { "standard input", "standard output",
					     "standard error" };
	static const char want[] = "/memfd:" ENV_MEMFD_NAME " (deleted)";
	char path[32], link[sizeof(want) + 1];
	ssize_t n;
	int seals;

	if (fd <= 2)
		return stdio[fd];
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0)
		return errno == EBADF ? "no open fd" : "a file that is not a memfd";
	if ((seals & ~F_SEAL_EXEC) != ENV_SEALS)
		return "a file without the seals nsrun sets";
	snprintf(path, sizeof(path), "self/fd/%d", fd);
	n = readlinkat(proc_fd, path, link, sizeof(link));
	if (n != (ssize_t)strlen(want) || memcmp(link, want, (size_t)n) != 0)
		return "a memfd nsrun did not make";
	return NULL;
}

static int env_fd(int proc_fd, const char *fd_text, struct nsrun_error *err)
{
	const char *problem;
	int fd;

	if (parse_fd(fd_text, &fd) < 0)
		return error_set_plain(err, EINVAL, "AppArmor hand-over: bad %s",
				       APPARMOR_ENV_FD_VAR);
	problem = env_fd_problem(proc_fd, fd);
	if (problem)
		return error_set_plain(err, EBADF,
				       "AppArmor hand-over: %s=%s names %s, not the sealed memfd "
				       "nsrun hands its environment over in; unset %s (only nsrun "
				       "sets it)",
				       APPARMOR_ENV_FD_VAR, fd_text, problem, APPARMOR_ENV_FD_VAR);
	return fd;
}

/* The caller's environment, for the command only: nsrun's own stays as the secure-mode
 * loader left it (no GCONV_PATH or LOCPATH while it holds the grant, pkexec's lesson).
 * The strings stay allocated: the plan points into them. */
int apparmor_env_restore(int proc_fd, const char *fd_text, char ***envp, struct nsrun_error *err)
{
	char *data, **v = NULL;
	size_t len, n = 0;
	int fd, r;

	fd = env_fd(proc_fd, fd_text, err);
	if (fd < 0)
		return fd;
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

/* Whatever an nsrun sandbox runs keeps nsrun_payload (under no_new_privs a label can only
 * stack more), and that profile denies every capability in every user namespace: a
 * sandbox can be neither built there (ID maps, mounts) nor joined (setns). Said before
 * any step, rather than as the EPERM of whichever step comes first. */
int apparmor_refuse_nested(struct nsrun_error *err)
{
	return error_fail_closed(
		err, error_set_plain(err, EPERM,
				     "AppArmor: can't build a sandbox inside a sandbox of nsrun's: "
				     "its profile '%s' denies every capability, in any user "
				     "namespace; give the outer sandbox these options instead, or "
				     "start this one from outside it",
				     APPARMOR_PROFILE_PAYLOAD));
}

int apparmor_hand_over(char **argv, char ***envp, struct nsrun_error *err)
{
	const char *fd_text = getenv(APPARMOR_ENV_FD_VAR);
	_cleanup_close_ int proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	char label[512];

	if (proc_fd < 0 || !label_at(proc_fd, label, sizeof(label)))
		return 0;
	if (apparmor_label_has(label, APPARMOR_PROFILE_PAYLOAD))
		return 1;
	if (!first_profile(label))
		return 0;
	/* Holding the grant: no other process of the caller's may trace this one (the
	 * setup child is dumpable only to write its ID maps: start_handshake). */
	if (strcmp(label, APPARMOR_PROFILE_USERNS) == 0 && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return error_set(err, errno, "AppArmor hand-over: prctl(PR_SET_DUMPABLE)");
	if (strcmp(label, APPARMOR_PROFILE_USERNS) == 0 && fd_text) {
		/* The exec of /proc/self/exe named the process "exe"; ps shows the name the
		 * caller ran (nsrun, bwrap). */
		(void)prctl(PR_SET_NAME, program_invocation_short_name, 0, 0, 0);
		return apparmor_env_restore(proc_fd, fd_text, envp, err);
	}
	if (strcmp(label, APPARMOR_PROFILE_ENTRY) != 0)
		return 0;
	/* Set here: nsrun's own memfd, which came back under the entry profile (the exec did
	 * not move to the granting one), or the caller's variable, which is refused. */
	if (fd_text && env_fd(proc_fd, fd_text, err) < 0)
		return -1;
	if (fd_text)
		return error_set_plain(err, EPERM,
				       "AppArmor profile '%s' did not hand over to '%s': "
				       "reload /etc/apparmor.d/nsrun (apparmor_parser -r)",
				       APPARMOR_PROFILE_ENTRY, APPARMOR_PROFILE_USERNS);
	if (apparmor_env_save(err) < 0)
		return -1;
	execve("/proc/self/exe", argv, environ);
	return error_set(err, errno, "AppArmor hand-over: executing /proc/self/exe");
}
