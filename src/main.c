/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * main.c: parse, validate, run, exit. The only policy here is the order of
 * those steps, the refusal to run setuid and the AppArmor hand-over before any of them.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apparmor.h"
#include "cli.h"
#include "doctor.h"
#include "error.h"
#include "explain.h"
#include "landlock.h"
#include "mount.h"
#include "path.h"
#include "plan.h"
#include "rules.h"
#include "sandbox.h"
#include "util.h"

#ifdef NSRUN_ASAN
#include <sanitizer/lsan_interface.h>
#endif

extern char **environ;

/* ASan builds: --pidns makes this process's children start in that PID namespace, and
 * LeakSanitizer's exit-time check forks a tracer that would start there, fail to see its
 * parent and leave nsrun spinning forever. Check for leaks now instead (it then skips the
 * exit-time check); this is the only path that cannot be checked at exit. */
static void leak_check_before_pidns(const struct plan *plan)
{
#ifdef NSRUN_ASAN
	if (plan->ns.pidns_fd >= 0)
		__lsan_do_leak_check();
#else
	(void)plan;
#endif
}

static int refuse_setuid(struct nsrun_error *err)
{
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;

	if (getresuid(&ruid, &euid, &suid) < 0 || getresgid(&rgid, &egid, &sgid) < 0)
		return error_set(err, errno, "reading process credentials");
	if (ruid != euid || ruid != suid || rgid != egid || rgid != sgid)
		return error_set_plain(err, EPERM,
				       "refusing to run setuid or setgid: nsrun has no setuid mode; "
				       "run it as root or through unprivileged user namespaces");
	return 0;
}

static bool selinux_enabled(void)
{
	return access("/sys/fs/selinux/enforce", F_OK) == 0;
}

static int print_version(void)
{
	if (strcmp(log_program(), "bwrap") == 0)
		printf("bubblewrap 0.13.1\n");
	else
		printf("%s %s (bubblewrap 0.13.1 compatible)\n", PACKAGE_NAME, PACKAGE_VERSION);
	return 0;
}

/* --debug-opt=print-assumed-kernel. bwrap prints the kernel its build assumes, below which
 * it has no fallbacks. nsrun builds every fallback in, so the honest counterpart is the
 * oldest kernel on which none is needed: mount_setattr() is 5.12 (openat2() is 5.6). */
#define NSRUN_FAST_PATH_KERNEL "5.12.0"

/* --debug-opt=force-*-fallback: before the clone, so the child inherits the choice. */
static void force_fallbacks(const struct plan *plan)
{
	if (plan->debug.force_mount_fallback)
		mount_force_fallback();
	if (plan->debug.force_openat_fallback)
		path_force_fallback();
}

/* Since the clone this process shares every page with pid 1 until one of them writes
 * it, and then the write faults to make a copy. Freeing the plan and the exit handlers
 * (stdio, ld.so, libraries) would write a dozen pages while the caller waits for the
 * status: return it at once. Sanitizer and coverage builds need the exit handlers. */
_noreturn_ static void exit_after_run(struct plan *plan, int status)
{
#if defined(NSRUN_SANITIZE) || defined(NSRUN_COVERAGE)
	plan_free(plan);
	exit(status);
#else
	(void)plan;
	fflush(stdout);
	_exit(status);
#endif
}

static int run_doctor(bool json)
{
	struct doctor_report *report = xcalloc(1, sizeof(*report));
	int status;

	doctor_collect(report);
	doctor_print(stdout, report, json);
	status = doctor_status(report);
	free(report);
	return status;
}

/* A -try bind whose source is missing is left out by the run (rootfs.c), which the answer
 * can only learn by looking: the one look-up --explain makes on the host, and it opens
 * nothing. The source is resolved as the run resolves it, host symlinks followed. */
static void drop_missing_try_binds(struct plan *plan)
{
	size_t n = 0;

	for (size_t i = 0; i < plan->n_ops; i++) {
		struct op *op = &plan->ops[i];

		if ((op->flags & OP_F_TRY) && op->source && access(op->source, F_OK) < 0 &&
		    errno == ENOENT) {
			free(op->source);
			free(op->dest);
			free(op->workdir);
			strv_free(op->layers);
			continue;
		}
		plan->ops[n++] = *op;
	}
	plan->n_ops = n;
}

/* --explain: one JSON line per question, in order. The one thing asked of the kernel is
 * its Landlock ABI, and where a run would fail closed for it (126) so does this. Nothing
 * is opened and nothing started. A relative path starts where the command would: --chdir,
 * else this directory. */
static int run_explain(struct plan *plan)
{
	static struct nsrun_error err; /* see error.h */
	struct landlock_desc desc;
	_cleanup_free_ char *cwd = getcwd(NULL, 0);

	if (landlock_describe(&plan->landlock, &desc, &err) < 0) {
		doctor_explain(&err);
		error_die(&err);
	}
	drop_missing_try_binds(plan);
	for (size_t i = 0; plan->explain[i]; i++) {
		struct explain_query q;
		struct explain_answer a;
		_cleanup_free_ char *line = NULL;

		/* explain_parse cannot fail here: cli.c parsed the same words. */
		if (explain_parse(plan->explain[i], &q, &err) < 0 ||
		    explain_decide(plan, &desc, cwd, &q, &a, &err) < 0)
			error_die(&err);
		line = explain_json(&q, &a);
		printf("%s\n", line);
		explain_query_free(&q);
		explain_answer_free(&a);
	}
	plan_free(plan);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* --help, --version, --landlock-abi, print-assumed-kernel, --doctor, --explain: what to do
 * instead of running a command. Takes the plan. */
static int run_mode(struct plan *plan, const char *argv0)
{
	static struct nsrun_error err; /* see error.h */
	bool json = plan->json;
	enum plan_mode mode = plan->mode;

	if (mode == PLAN_EXPLAIN)
		return run_explain(plan);
	plan_free(plan);
	switch (mode) {
	case PLAN_HELP:
		cli_usage(stdout, argv0);
		return 0;
	case PLAN_VERSION:
		return print_version();
	case PLAN_LANDLOCK_ABI:
		if (landlock_print_abi(stdout, &err) < 0)
			error_die(&err);
		return 0;
	case PLAN_ASSUMED_KERNEL:
		printf("%s\n", NSRUN_FAST_PATH_KERNEL);
		return 0;
	case PLAN_DOCTOR:
		return run_doctor(json);
	case PLAN_RUN:
	case PLAN_EXPLAIN:
	case PLAN_MODE_MAX:
	default:
		abort();
	}
}

int main(int argc, char **argv)
{
	static struct nsrun_error err; /* see error.h */
	struct cli_io io = {
		.read_fd = cli_read_fd_default,
		.check_fd = cli_check_fd_default,
		.check_fd_writable = cli_check_fd_writable_default,
		.envp = environ,
		.selinux_enabled = selinux_enabled(),
	};
	struct plan plan;
	/* Before reading the options: --args FD can block, and a caller that dies then
	 * must still take the sandbox with it under --die-with-parent. */
	pid_t caller = getppid();
	char **envp = environ;
	bool nested;
	int r;

	log_set_program(argv[0]);
	/* An ignored SIGCHLD survives exec and would make the kernel reap nsrun's children
	 * before it can wait for them (a hang, or a lost exit status). */
	signal(SIGCHLD, SIG_DFL);
	if (refuse_setuid(&err) < 0)
		error_die(&err);
	r = apparmor_hand_over(argv, &envp, &err);
	if (r < 0)
		error_die(&err);
	nested = r > 0;
	io.envp = envp; /* the caller's, which the hand-over may have carried over */
	log_set_debug(envp);

	r = cli_parse(argc, argv, &io, &plan, &err);
	log_set_level_prefix(plan.level_prefix);
	for (size_t i = 0; plan.warnings && plan.warnings[i]; i++)
		log_warn("%s", plan.warnings[i]);
	if (r < 0 && strcmp(log_program(), "nsrun") == 0)
		cli_hint(&err);
	/* The rules between options (rules.c): usage errors, before any mode runs. */
	if (r >= 0)
		r = rules_check(&plan, &(struct rules_ctx){ .is_root = getuid() == 0 }, &err);
	if (r < 0)
		error_die(&err);
	if (plan.mode != PLAN_RUN)
		return run_mode(&plan, argv[0]);
	if (!plan.proc.argv) {
		cli_usage(stderr, argv[0]);
		plan_free(&plan);
		return 1;
	}
	if (nested && apparmor_refuse_nested(&err) < 0)
		error_die(&err);
	leak_check_before_pidns(&plan);
	force_fallbacks(&plan);
	r = sandbox_run(&plan, caller, &err);
	if (r < 0) {
		doctor_explain(&err);
		error_die(&err);
	}
	exit_after_run(&plan, r);
}
