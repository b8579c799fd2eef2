/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cli-options.h: the single source of truth for nsrun's options. One X-macro row per
 * option: enum suffix, name, arity (0-3), help group, flags, action, metavariables, help
 * text. The action is what parsing the option does, expanded by cli.c (the setter) and
 * plan-print.c (the printers): FN(handler), or for plain setters the plan field they set:
 * ON/OFF(bool), FD(int), STR(string), LIST(string vector), NS/NSTRY(namespace request),
 * MODE(plan mode), a few more, and the typed values below.
 * Rows are sorted by name (strcmp order; a unit test checks it) so the parser can bsearch.
 */
#pragma once

enum cli_group {
	OPTG_GENERAL,
	OPTG_NAMESPACE,
	OPTG_FILESYSTEM,
	OPTG_PROCESS,
	OPTG_SECURITY,
	OPTG_STATUS,
	OPTG_HIDE,
	OPTG_LANDLOCK,
	OPTG_SUPERVISE,
	OPTG_MAX
};

enum cli_flags {
	OPTF_MODIFIER = 1u << 0, /* applies to the next option (--perms, --size, --overlay-src) */
	OPTF_NSRUN = 1u << 1,	 /* nsrun extension, not in bwrap */
	OPTF_BWRAP08 = 1u << 2,	 /* present in Debian 12's bwrap 0.8.0 */
	OPTF_HIDDEN = 1u << 3,	 /* left out of --help, as bwrap hides it (still in the man page) */
};

/* Short aliases that keep the rows below readable. */
#define OPTG_FS OPTG_FILESYSTEM
#define OPTG_SUP OPTG_SUPERVISE
#define OPTF_B8 OPTF_BWRAP08
#define OPTF_NS OPTF_NSRUN
#define OPTF_HID OPTF_HIDDEN

/* clang-format off */
#define NSRUN_OPTIONS(X) \
	X(ADD_SECCOMP_FD, "--add-seccomp-fd", 1, OPTG_SECURITY, OPTF_B8, FN(h_add_seccomp_fd), "FD", "Load and use seccomp rules from FD (repeatable)") \
	X(ARGS, "--args", 1, OPTG_GENERAL, OPTF_B8, FN(h_args), "FD", "Parse NUL-separated args from FD") \
	X(ARGV0, "--argv0", 1, OPTG_PROCESS, 0, FN(h_argv0), "VALUE", "Set argv[0] to the value VALUE before running the program") \
	X(AS_PID_1, "--as-pid-1", 0, OPTG_PROCESS, OPTF_B8, ON(proc.as_pid_1), "", "Do not install a reaper process with PID=1") \
	X(ASSERT_USERNS_DISABLED, "--assert-userns-disabled", 0, OPTG_NAMESPACE, OPTF_B8, ON(ns.assert_userns_disabled), "", "Fail unless further use of user namespace inside sandbox is disabled") \
	X(BIND, "--bind", 2, OPTG_FS, OPTF_B8, FN(h_op), "SRC DEST", "Bind mount the host path SRC on DEST") \
	X(BIND_DATA, "--bind-data", 2, OPTG_FS, OPTF_B8, FN(h_op), "FD DEST", "Copy from FD to file which is bind-mounted on DEST") \
	X(BIND_FD, "--bind-fd", 2, OPTG_FS, OPTF_B8, FN(h_op), "FD DEST", "Bind open directory or path fd on DEST") \
	X(BIND_TRY, "--bind-try", 2, OPTG_FS, OPTF_B8, FN(h_op), "SRC DEST", "Equal to --bind but ignores non-existent SRC") \
	X(BLOCK_FD, "--block-fd", 1, OPTG_STATUS, OPTF_B8, FD(sync.block_fd), "FD", "Block on FD until some data to read is available") \
	X(BOOTTIME, "--boottime", 1, OPTG_NAMESPACE, OPTF_NS, FN(h_clock_offset), "SECS", "Offset CLOCK_BOOTTIME and /proc/uptime by SECS seconds in the new time namespace (requires --unshare-time)") \
	X(BRIDGE, "--bridge", 2, OPTG_NAMESPACE, OPTF_NS, FN(h_bridge), "PORT TARGET", "Relay TCP connections to 127.0.0.1:PORT in the new network namespace to TARGET (unix:/PATH or tcp:HOST:PORT on the host's loopback) (repeatable)") \
	X(CAP_ADD, "--cap-add", 1, OPTG_SECURITY, OPTF_B8, FN(h_cap_add), "CAP", "Add cap CAP when running as privileged user") \
	X(CAP_DROP, "--cap-drop", 1, OPTG_SECURITY, OPTF_B8, FN(h_cap_drop), "CAP", "Drop cap CAP when running as privileged user") \
	X(CGROUP_PARENT, "--cgroup-parent", 1, OPTG_SUP, OPTF_NS, STR(limits.cgroup_parent), "DIR", "Put the sandbox's cgroup under the cgroup v2 directory DIR (delegated to you)") \
	X(CHDIR, "--chdir", 1, OPTG_PROCESS, OPTF_B8, STR(proc.chdir), "DIR", "Change directory to DIR") \
	X(CHMOD, "--chmod", 2, OPTG_FS, OPTF_B8, FN(h_op), "OCTAL PATH", "Change permissions of PATH (must already exist)") \
	X(CLEARENV, "--clearenv", 0, OPTG_PROCESS, OPTF_B8, FN(h_clearenv), "", "Unset all environment variables") \
	X(CPU_MAX, "--cpu-max", 1, OPTG_SUP, OPTF_NS, FRACTION(limits.cpu_quota_us, limits.has_cpu_max), "FRACTION", "Limit the sandbox to FRACTION of one CPU, e.g. 0.5 or 2 (cgroup v2 cpu.max)") \
	X(DEBUG_OPT, "--debug-opt", 1, OPTG_GENERAL, OPTF_HID, FN(h_debug_opt), "NAME", "Developer switches, as --debug-opt=NAME: print-assumed-kernel, force-mount-setattr-fallback, force-openat-fallback") \
	X(DEV, "--dev", 1, OPTG_FS, OPTF_B8, FN(h_op), "DEST", "Mount new dev on DEST") \
	X(DEV_BIND, "--dev-bind", 2, OPTG_FS, OPTF_B8, FN(h_op), "SRC DEST", "Bind mount the host path SRC on DEST, allowing device access") \
	X(DEV_BIND_TRY, "--dev-bind-try", 2, OPTG_FS, OPTF_B8, FN(h_op), "SRC DEST", "Equal to --dev-bind but ignores non-existent SRC") \
	X(DIE_WITH_PARENT, "--die-with-parent", 0, OPTG_PROCESS, OPTF_B8, ON(proc.die_with_parent), "", "Kills with SIGKILL child process (COMMAND) when nsrun or its parent dies") \
	X(DIR, "--dir", 1, OPTG_FS, OPTF_B8, FN(h_op), "DEST", "Create dir at DEST") \
	X(DISABLE_USERNS, "--disable-userns", 0, OPTG_NAMESPACE, OPTF_B8, ON(ns.disable_userns), "", "Disable further use of user namespaces inside sandbox") \
	X(DOCTOR, "--doctor", 0, OPTG_GENERAL, OPTF_NS, FN(h_doctor), "", "Check this machine for what nsrun needs and print OK, WARN or FAIL lines") \
	X(EXEC_LABEL, "--exec-label", 1, OPTG_SECURITY, OPTF_B8, LABEL(proc.exec_label), "LABEL", "Exec label for the sandbox") \
	X(EXPLAIN, "--explain", 1, OPTG_GENERAL, OPTF_NS, FN(h_explain), "ACCESS:TARGET", "Say which rule allows or refuses ACCESS to TARGET, as one JSON line, and run nothing (repeatable)") \
	X(FALLBACK, "--fallback", 1, OPTG_NAMESPACE, OPTF_NS, FN(h_fallback), "ITEMS", "Where the host refuses a step, do without the first of ITEMS that answers it (net,proc,userns,namespaces), and say so") \
	X(FILE, "--file", 2, OPTG_FS, OPTF_B8, FN(h_op), "FD DEST", "Copy from FD to destination DEST") \
	X(FILE_LABEL, "--file-label", 1, OPTG_SECURITY, OPTF_B8, LABEL(proc.file_label), "LABEL", "File label for temporary sandbox content") \
	X(FORWARD_SIGNALS, "--forward-signals", 0, OPTG_SUP, OPTF_NS, ON(sup.forward_signals), "", "Forward INT, TERM, HUP, QUIT, USR1, USR2, CONT and WINCH to COMMAND") \
	X(GID, "--gid", 1, OPTG_NAMESPACE, OPTF_B8, ID(ns.gid, ns.has_gid), "GID", "Custom gid in the sandbox (requires --unshare-user or --userns)") \
	X(GID_MAP, "--gid-map", 1, OPTG_NAMESPACE, OPTF_NS, FN(h_id_map), "MAP", "Map gids INSIDE:OUTSIDE:COUNT into the new user namespace (repeatable; newgidmap when not root)") \
	X(HELP, "--help", 0, OPTG_GENERAL, OPTF_B8, MODE(PLAN_HELP), "", "Print this help") \
	X(HOSTNAME, "--hostname", 1, OPTG_NAMESPACE, OPTF_B8, STR(ns.hostname), "NAME", "Custom hostname in the sandbox (requires --unshare-uts)") \
	X(IDMAP, "--idmap", 0, OPTG_FS, OPTF_NS | OPTF_MODIFIER, FN(h_idmap), "", "Make the next bind idmapped: the caller's ids on disk are the command's ids") \
	X(IGNORE_KEYBOARD_SIGNALS, "--ignore-keyboard-signals", 0, OPTG_SUP, OPTF_NS, ON(sup.ignore_keyboard_signals), "", "Ignore SIGINT and SIGQUIT while waiting for the command to terminate") \
	X(INFO_FD, "--info-fd", 1, OPTG_STATUS, OPTF_B8, FD(sync.info_fd), "FD", "Write information about the running container to FD") \
	X(JSON, "--json", 0, OPTG_GENERAL, OPTF_NS, ON(json), "", "With --doctor: print the checks as one JSON document") \
	X(JSON_STATUS_FD, "--json-status-fd", 1, OPTG_STATUS, OPTF_B8, FD(sync.json_status_fd), "FD", "Write container status to FD as multiple JSON documents") \
	X(KILL_AFTER, "--kill-after", 1, OPTG_SUP, OPTF_NS, DURATION(sup.kill_after_ms, sup.has_kill_after), "DURATION", "SIGKILL what is left DURATION after --timeout's SIGTERM (default 5s)") \
	X(LANDLOCK_ABI, "--landlock-abi", 0, OPTG_LANDLOCK, OPTF_NS, MODE(PLAN_LANDLOCK_ABI), "", "Print the Landlock ABI of this kernel and the rights nsrun handles") \
	X(LANDLOCK_BIND_TCP, "--landlock-bind-tcp", 1, OPTG_LANDLOCK, OPTF_NS, FN(h_landlock_port), "PORT", "Allow binding TCP PORT (repeatable; other ports are denied)") \
	X(LANDLOCK_BIND_UDP, "--landlock-bind-udp", 1, OPTG_LANDLOCK, OPTF_NS, FN(h_landlock_port), "PORT", "Allow binding UDP PORT (repeatable; other ports, 0 too, are denied)") \
	X(LANDLOCK_CONNECT_TCP, "--landlock-connect-tcp", 1, OPTG_LANDLOCK, OPTF_NS, FN(h_landlock_port), "PORT", "Allow connecting to TCP PORT (repeatable; other ports are denied)") \
	X(LANDLOCK_CONNECT_UDP, "--landlock-connect-udp", 1, OPTG_LANDLOCK, OPTF_NS, FN(h_landlock_port), "PORT", "Allow connecting or sending to UDP PORT (repeatable; other ports are denied)") \
	X(LANDLOCK_DENY_UNIX, "--landlock-deny-unix", 0, OPTG_LANDLOCK, OPTF_NS, LL(landlock.deny_unix), "", "Deny connecting to UNIX sockets by path outside the rw paths (seccomp where Landlock cannot)") \
	X(LANDLOCK_EXEC, "--landlock-exec", 1, OPTG_LANDLOCK, OPTF_NS, LLPATH(landlock.exec), "PATH", "Allow executing files under PATH (repeatable)") \
	X(LANDLOCK_ONLY, "--landlock-only", 0, OPTG_LANDLOCK, OPTF_NS, LL(landlock.only), "", "Apply only the Landlock boundary and run COMMAND in place, no namespaces (as a child with --json-status-fd)") \
	X(LANDLOCK_RW, "--landlock-rw", 1, OPTG_LANDLOCK, OPTF_NS, LLPATH(landlock.rw), "PATH", "Allow writing under PATH; everything else is read-only (repeatable)") \
	X(LANDLOCK_SCOPE, "--landlock-scope", 0, OPTG_LANDLOCK, OPTF_NS, LL(landlock.scope), "", "Deny abstract unix sockets and signals outside the sandbox") \
	X(LEVEL_PREFIX, "--level-prefix", 0, OPTG_GENERAL, 0, ON(level_prefix), "", "Prepend e.g. <3> to diagnostic messages") \
	X(LOCK_FILE, "--lock-file", 1, OPTG_STATUS, OPTF_B8, LIST(sync.lock_files), "DEST", "Take a lock on DEST while sandbox is running") \
	X(MEMORY_MAX, "--memory-max", 1, OPTG_SUP, OPTF_NS, SIZE(limits.memory_max, limits.has_memory_max, 1 << 20), "SIZE", "Limit the sandbox's memory to SIZE, e.g. 512M (cgroup v2; no swap unless --memory-swap-max)") \
	X(MEMORY_SWAP_MAX, "--memory-swap-max", 1, OPTG_SUP, OPTF_NS, SIZE(limits.memory_swap_max, limits.has_memory_swap_max, 0), "SIZE", "Limit the sandbox's swap to SIZE (cgroup v2 memory.swap.max)") \
	X(MONOTONIC, "--monotonic", 1, OPTG_NAMESPACE, OPTF_NS, FN(h_clock_offset), "SECS", "Offset CLOCK_MONOTONIC by SECS seconds in the new time namespace (requires --unshare-time)") \
	X(MOUNTNS, "--mountns", 1, OPTG_NAMESPACE, OPTF_NS, FD(ns.mountns_fd), "FD", "Build the sandbox from a copy of the mount namespace FD (it is never changed)") \
	X(MQUEUE, "--mqueue", 1, OPTG_FS, OPTF_B8, FN(h_op), "DEST", "Mount new mqueue on DEST") \
	X(NETNS, "--netns", 1, OPTG_NAMESPACE, OPTF_NS, FD(sup.netns_fd), "FD", "Run in the network namespace FD (cannot combine with --unshare-net)") \
	X(NEW_SESSION, "--new-session", 0, OPTG_PROCESS, OPTF_B8, ON(proc.new_session), "", "Create a new terminal session") \
	X(NOT_A_SECURITY_BOUNDARY, "--not-a-security-boundary", 0, OPTG_SECURITY, 0, ON(debug.not_a_security_boundary), "", "Not a sandbox: warn instead of failing when a bind's submount cannot be remounted") \
	X(OVERLAY, "--overlay", 3, OPTG_FS, 0, FN(h_op), "RWSRC WORKDIR DEST", "Mount overlayfs on DEST, writes going to RWSRC (WORKDIR: an empty dir on its filesystem)") \
	X(OVERLAY_ALLOW, "--overlay-allow", 1, OPTG_HIDE, OPTF_NS, HIDE(hide.allow), "NAME|PATH", "Show only allowed entries in NAME's PATH directories or PATH's directory; wins over --overlay-hide (repeatable)") \
	X(OVERLAY_HIDE, "--overlay-hide", 1, OPTG_HIDE, OPTF_NS, HIDE(hide.hide), "NAME|PATH", "Hide NAME (searched in PATH) or PATH from the sandbox (repeatable)") \
	X(OVERLAY_SRC, "--overlay-src", 1, OPTG_FS, OPTF_MODIFIER, FN(h_overlay_src), "SRC", "Read files from SRC in the following overlay") \
	X(PERMS, "--perms", 1, OPTG_FS, OPTF_B8 | OPTF_MODIFIER, FN(h_perms), "OCTAL", "Set permissions of next argument (--bind-data, --file, etc.)") \
	X(PIDNS, "--pidns", 1, OPTG_NAMESPACE, OPTF_B8, FD(ns.pidns_fd), "FD", "Use this pid namespace (as parent namespace if using --unshare-pid)") \
	X(PIDS_MAX, "--pids-max", 1, OPTG_SUP, OPTF_NS, COUNT(limits.pids_max, limits.has_pids_max, 2, INT32_MAX), "N", "Limit the sandbox to N processes and threads (cgroup v2 pids.max)") \
	X(PROC, "--proc", 1, OPTG_FS, OPTF_B8, FN(h_op), "DEST", "Mount new procfs on DEST") \
	X(REMOUNT_RO, "--remount-ro", 1, OPTG_FS, OPTF_B8, FN(h_op), "DEST", "Remount DEST as readonly; does not recursively remount") \
	X(REPORT_FD, "--report-fd", 1, OPTG_STATUS, OPTF_NS, FD(sync.report_fd), "FD", "Write what nsrun's rules refused to FD as JSON lines (inferred from the calls)") \
	X(RLIMIT, "--rlimit", 1, OPTG_SUP, OPTF_NS, FN(h_rlimit), "NAME=SOFT[:HARD]", "Set resource limit NAME (prlimit names) for COMMAND (repeatable)") \
	X(RO_BIND, "--ro-bind", 2, OPTG_FS, OPTF_B8, FN(h_op), "SRC DEST", "Bind mount the host path SRC readonly on DEST") \
	X(RO_BIND_DATA, "--ro-bind-data", 2, OPTG_FS, OPTF_B8, FN(h_op), "FD DEST", "Copy from FD to file which is readonly bind-mounted on DEST") \
	X(RO_BIND_FD, "--ro-bind-fd", 2, OPTG_FS, OPTF_B8, FN(h_op), "FD DEST", "Bind open directory or path fd read-only on DEST") \
	X(RO_BIND_TRY, "--ro-bind-try", 2, OPTG_FS, OPTF_B8, FN(h_op), "SRC DEST", "Equal to --ro-bind but ignores non-existent SRC") \
	X(RO_OVERLAY, "--ro-overlay", 1, OPTG_FS, 0, FN(h_op), "DEST", "Mount overlayfs read-only on DEST") \
	X(SECCOMP, "--seccomp", 1, OPTG_SECURITY, OPTF_B8, FN(h_seccomp), "FD", "Load and use seccomp rules from FD (not repeatable)") \
	X(SETENV, "--setenv", 2, OPTG_PROCESS, OPTF_B8, FN(h_setenv), "VAR VALUE", "Set an environment variable") \
	X(SHARE_NET, "--share-net", 0, OPTG_NAMESPACE, OPTF_B8, OFF(ns.net), "", "Retain the network namespace (can only combine with --unshare-all)") \
	X(SIZE, "--size", 1, OPTG_FS, OPTF_B8 | OPTF_MODIFIER, FN(h_size), "BYTES", "Set size of next argument (only for --tmpfs)") \
	X(SYMLINK, "--symlink", 2, OPTG_FS, OPTF_B8, FN(h_op), "SRC DEST", "Create symlink at DEST with target SRC") \
	X(SYNC_FD, "--sync-fd", 1, OPTG_STATUS, OPTF_B8, FN(h_sync_fd), "FD", "Keep this fd open while sandbox is running (repeatable)") \
	X(SYS, "--sys", 1, OPTG_FS, OPTF_NS, FN(h_op), "DEST", "Mount new sysfs instance on DEST, read-only, with its host-revealing parts masked") \
	X(TIMEOUT, "--timeout", 1, OPTG_SUP, OPTF_NS, DURATION(sup.timeout_ms), "DURATION", "SIGTERM every process of the sandbox after DURATION, then exit 124") \
	X(TMP_OVERLAY, "--tmp-overlay", 1, OPTG_FS, 0, FN(h_op), "DEST", "Mount overlayfs with writes going to an invisible tmpfs on DEST") \
	X(TMPFS, "--tmpfs", 1, OPTG_FS, OPTF_B8, FN(h_op), "DEST", "Mount new tmpfs on DEST") \
	X(UID, "--uid", 1, OPTG_NAMESPACE, OPTF_B8, ID(ns.uid, ns.has_uid), "UID", "Custom uid in the sandbox (requires --unshare-user or --userns)") \
	X(UID_MAP, "--uid-map", 1, OPTG_NAMESPACE, OPTF_NS, FN(h_id_map), "MAP", "Map uids INSIDE:OUTSIDE:COUNT into the new user namespace (repeatable; newuidmap when not root)") \
	X(UNSETENV, "--unsetenv", 1, OPTG_PROCESS, OPTF_B8, FN(h_unsetenv), "VAR", "Unset an environment variable") \
	X(UNSHARE_ALL, "--unshare-all", 0, OPTG_NAMESPACE, OPTF_B8, FN(h_unshare_all), "", "Unshare every namespace we support by default") \
	X(UNSHARE_CGROUP, "--unshare-cgroup", 0, OPTG_NAMESPACE, OPTF_B8, NS(ns.cgroup), "", "Create new cgroup namespace") \
	X(UNSHARE_CGROUP_TRY, "--unshare-cgroup-try", 0, OPTG_NAMESPACE, OPTF_B8, NSTRY(ns.cgroup), "", "Create new cgroup namespace if possible else continue by skipping it") \
	X(UNSHARE_IPC, "--unshare-ipc", 0, OPTG_NAMESPACE, OPTF_B8, ON(ns.ipc), "", "Create new ipc namespace") \
	X(UNSHARE_NET, "--unshare-net", 0, OPTG_NAMESPACE, OPTF_B8, ON(ns.net), "", "Create new network namespace") \
	X(UNSHARE_PID, "--unshare-pid", 0, OPTG_NAMESPACE, OPTF_B8, ON(ns.pid), "", "Create new pid namespace") \
	X(UNSHARE_TIME, "--unshare-time", 0, OPTG_NAMESPACE, OPTF_NS, ON(ns.time), "", "Create new time namespace (not part of --unshare-all)") \
	X(UNSHARE_USER, "--unshare-user", 0, OPTG_NAMESPACE, OPTF_B8, NS(ns.user), "", "Create new user namespace (may be automatically implied if not root)") \
	X(UNSHARE_USER_TRY, "--unshare-user-try", 0, OPTG_NAMESPACE, OPTF_B8, NSTRY(ns.user), "", "Create new user namespace if possible else continue by skipping it") \
	X(UNSHARE_UTS, "--unshare-uts", 0, OPTG_NAMESPACE, OPTF_B8, ON(ns.uts), "", "Create new uts namespace") \
	X(USERNS, "--userns", 1, OPTG_NAMESPACE, OPTF_B8, FD(ns.userns_fd), "FD", "Use this user namespace (cannot combine with --unshare-user)") \
	X(USERNS_BLOCK_FD, "--userns-block-fd", 1, OPTG_STATUS, OPTF_B8, FD(sync.userns_block_fd), "FD", "Block on FD until the user namespace is ready") \
	X(USERNS2, "--userns2", 1, OPTG_NAMESPACE, OPTF_B8, FD(ns.userns2_fd), "FD", "After setup switch to this user namespace, only useful with --userns") \
	X(VERSION, "--version", 0, OPTG_GENERAL, OPTF_B8, MODE(PLAN_VERSION), "", "Print version")
/* clang-format on */

/*
 * The typed values: a value field and the bool saying it was given, parsed, checked and
 * printed by one setter and one printer per kind; the messages name the option.
 *   SIZE(value, has, min)      uint64_t bytes, 512M or 2G; below min (when not 0) refused
 *   COUNT(value, has, lo, hi)  uint64_t, decimal, from lo to hi
 *   FRACTION(value, has)       uint64_t, a fraction of one CPU as cpu.max's quota per
 *                              LIMITS_CPU_PERIOD_US (0.5: 50000)
 *   DURATION(value[, has])     uint64_t milliseconds, 10, 1.5 or 2m; without a has
 *                              field 0 means not given (--timeout)
 *   ID(value, has)             uid_t or gid_t, decimal, 0 to INT_MAX (as bwrap)
 * --memory-max's minimum: below a few pages not even nsrun's pid 1 can start, a typo, not
 * a limit. --pids-max's 2: nsrun's own processes in the sandbox (the setup child, pid 1)
 * count too.
 */

/* The action column's plain setters name a field of struct plan; expanded, OPTION_FIELD
 * gives its offset, and a compile error unless the field has type T (a setter writes it
 * through a T pointer, a printer reads it as one). */
#define OPTION_FIELD(f, T) _Generic(((struct plan *)0)->f, T : offsetof(struct plan, f))

/* A typed row's optional has column: OPTION_HAS(value, has) is has's offset,
 * OPTION_HAS(value) OPTION_NO_HAS. OPTION_VALUE names the value in either form. */
#define OPTION_NO_HAS SIZE_MAX
#define OPTION_VALUE(f, ...) f
#define OPTION_HAS(...) OPTION_PICK_(__VA_ARGS__, OPTION_HAS_2_, OPTION_HAS_1_, )(__VA_ARGS__)
#define OPTION_PICK_(a, b, which, ...) which
#define OPTION_HAS_1_(f) OPTION_NO_HAS
#define OPTION_HAS_2_(f, has) OPTION_FIELD(has, bool)

/* clang-format off */
enum cli_option_id {
#define CLI_OPTION_ENUM(id, name, arity, group, flags, action, args, help) OPT_##id,
	NSRUN_OPTIONS(CLI_OPTION_ENUM)
#undef CLI_OPTION_ENUM
	OPT_MAX
};
/* clang-format on */

struct cli_option {
	enum cli_option_id id;
	const char *name;
	unsigned arity;
	enum cli_group group;
	unsigned flags;	  /* enum cli_flags */
	const char *args; /* metavariables, space-separated; "" for none */
	const char *help;
};

/* The table in sorted order; cli_options[i].id == i. */
extern const struct cli_option cli_options[];
extern const size_t cli_n_options;
/* The table row for an exact option name, or NULL (bsearch, in cli.c). */
const struct cli_option *cli_find_option(const char *name);

/* "general", "namespace", ... (stable: list-options and the meta tests use it). */
const char *cli_group_name(enum cli_group group);
