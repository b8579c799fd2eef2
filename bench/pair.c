/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/pair.c: interleaved start-up timing. Each round runs every command once, in
 * an order rotated by one each round, so machine drift (other jobs on a shared
 * machine) lands on all commands alike. Per command: the median and minimum wall
 * time (fork to reaped exit), the largest peak RSS of its process tree (wait4's
 * ru_maxrss, which includes every descendant that was reaped), and against the
 * first command both the ratio of medians and the median of the per-round ratios.
 * The runner is a child subreaper: a sandbox's pid 1 may outlive the launcher (nsrun's
 * and bwrap's monitors exit on pid 1's report, without reaping it), so after each run
 * every orphan is reaped too, its CPU time and RSS counted with the run, and the next
 * run starts only when the last process of this one is gone. Wall time still ends when
 * the launcher exits, which is what its caller waits for.
 * With -u UID the child drops to UID/UID with no supplementary groups before exec,
 * as `setpriv --reuid=UID --regid=UID --clear-groups` does, but without timing an
 * extra exec. A CMD whose first word is ns=PATH runs in the mount namespace PATH names
 * (/proc/PID/ns/mnt; entered before the uid is dropped), so that commands in different
 * mount namespaces (bench/run.sh's submount counts) interleave in one run. A first word
 * fd3=PATH (after ns=PATH, if any) opens PATH read-only as the command's fd 3, for
 * `--args 3` (bench/policy.sh).
 * Not installed; bench/run.sh and bench/hide.sh build it with cc.
 *
 * Usage: pair [-n RUNS] [-w WARMUP] [-u UID] [-o RAWFILE] NAME CMD [NAME CMD]...
 * CMD is split on spaces (no quoting); "@FILE" as a word reads more words from FILE,
 * one per line, for argument lists too long to pass around.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct cmd {
	const char *name;
	const char *mntns; /* a mount namespace to enter first, or NULL */
	const char *fd3;   /* a file to open as fd 3, or NULL */
	char **argv;
	double *ms;
	double *cpu; /* user + system ms of the whole tree */
	long max_rss;
	int failures;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		perror("realloc");
		exit(2);
	}
	return p;
}

static void push(char ***v, size_t *n, const char *word)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = strdup(word);
	(*v)[*n] = NULL;
}

static void push_file(char ***v, size_t *n, const char *path)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			push(v, n, line);
	}
	fclose(f);
}

static char **split(const char *s)
{
	char *copy = strdup(s), *save = NULL, **v = NULL;
	size_t n = 0;

	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (w[0] == '@')
			push_file(&v, &n, w + 1);
		else
			push(&v, &n, w);
	}
	free(copy);
	if (!v) {
		fprintf(stderr, "pair: empty command\n");
		exit(2);
	}
	return v;
}

/* Reaps one orphan of the current run (reparented here as subreaper) into *ru; false
 * when none is left. */
static bool reap_orphan(struct rusage *ru)
{
	int st;

	while (wait4(-1, &st, 0, ru) < 0) {
		if (errno == ECHILD)
			return false;
		if (errno != EINTR) {
			perror("wait4");
			exit(2);
		}
	}
	return true;
}

static int enter_mntns(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || setns(fd, CLONE_NEWNS) < 0 || chdir("/") < 0) {
		perror(path);
		return -1;
	}
	close(fd);
	return 0;
}

/* One run: wall time in ms, or a negative value when the command did not exit 0. */
static double run_once(struct cmd *c, int uid, double *cpu)
{
	struct timespec t0, t1;
	struct rusage ru;
	int st;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 1);
		if (!getenv("PAIR_STDERR"))
			dup2(null, 2);
		if (c->mntns && enter_mntns(c->mntns) < 0)
			_exit(124);
		if (c->fd3) {
			int fd = open(c->fd3, O_RDONLY);

			if (fd < 0 || (fd != 3 && (dup2(fd, 3) < 0 || close(fd) < 0))) {
				perror(c->fd3);
				_exit(124);
			}
		}
		if (uid >= 0 && (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
				 setresuid(uid, uid, uid) < 0))
			_exit(125);
		execv(c->argv[0], c->argv);
		_exit(127);
	}
	while (wait4(pid, &st, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("wait4");
			exit(2);
		}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*cpu = 0;
	do {
		*cpu += (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
			(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
		if (ru.ru_maxrss > c->max_rss)
			c->max_rss = ru.ru_maxrss;
	} while (reap_orphan(&ru));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -1;
	return (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double *s = xrealloc(NULL, (size_t)n * sizeof(*s));
	double m;

	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

static void report(struct cmd *cmds, int k, int runs)
{
	double *r = xrealloc(NULL, (size_t)runs * sizeof(*r));
	double m0 = median(cmds[0].ms, runs);

	printf("%-24s %9s %9s %9s %9s %9s %9s %5s\n", "command", "median", "min", "x first",
	       "paired", "cpu", "rss KiB", "fail");
	for (int i = 0; i < k; i++) {
		struct cmd *c = &cmds[i];
		double m = median(c->ms, runs), lo = c->ms[0];

		for (int j = 0; j < runs; j++) {
			r[j] = c->ms[j] / cmds[0].ms[j];
			if (c->ms[j] < lo)
				lo = c->ms[j];
		}
		printf("%-24s %9.3f %9.3f %9.3f %9.3f %9.3f %9ld %5d\n", c->name, m, lo, m / m0,
		       median(r, runs), median(c->cpu, runs), c->max_rss, c->failures);
	}
	free(r);
}

int main(int argc, char **argv)
{
	int runs = 50, warmup = 3, uid = -1, opt, k;
	const char *raw = NULL;
	struct cmd *cmds;
	FILE *out = NULL;

	while ((opt = getopt(argc, argv, "+n:w:u:o:")) != -1) {
		switch (opt) {
		case 'n':
			runs = atoi(optarg);
			break;
		case 'w':
			warmup = atoi(optarg);
			break;
		case 'u':
			uid = atoi(optarg);
			break;
		case 'o':
			raw = optarg;
			break;
		default:
			return 2;
		}
	}
	if (runs < 1 || (argc - optind) < 2 || (argc - optind) % 2) {
		fprintf(stderr,
			"usage: pair [-n RUNS] [-w WARMUP] [-u UID] [-o RAW] NAME CMD...\n");
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		perror("PR_SET_CHILD_SUBREAPER");
		return 2;
	}
	k = (argc - optind) / 2;
	cmds = calloc((size_t)k, sizeof(*cmds));
	for (int i = 0; i < k; i++) {
		cmds[i].name = argv[optind + 2 * i];
		cmds[i].argv = split(argv[optind + 2 * i + 1]);
		if (!strncmp(cmds[i].argv[0], "ns=", 3)) {
			cmds[i].mntns = cmds[i].argv[0] + 3;
			cmds[i].argv++;
		}
		if (!strncmp(cmds[i].argv[0], "fd3=", 4)) {
			cmds[i].fd3 = cmds[i].argv[0] + 4;
			cmds[i].argv++;
		}
		cmds[i].ms = calloc((size_t)runs, sizeof(double));
		cmds[i].cpu = calloc((size_t)runs, sizeof(double));
	}
	for (int w = 0; w < warmup; w++)
		for (int i = 0; i < k; i++)
			(void)run_once(&cmds[i], uid, &cmds[i].cpu[0]);
	for (int i = 0; i < k; i++)
		cmds[i].max_rss = 0;
	for (int j = 0; j < runs; j++)
		for (int s = 0; s < k; s++) {
			struct cmd *c = &cmds[(j + s) % k];
			double t = run_once(c, uid, &c->cpu[j]);

			if (t < 0) {
				c->failures++;
				t = 0;
			}
			c->ms[j] = t;
		}
	if (raw && !(out = fopen(raw, "w")))
		perror(raw);
	for (int i = 0; out && i < k; i++) {
		fprintf(out, "%s", cmds[i].name);
		for (int j = 0; j < runs; j++)
			fprintf(out, " %.4f", cmds[i].ms[j]);
		fprintf(out, "\n");
	}
	if (out)
		fclose(out);
	report(cmds, k, runs);
	for (int i = 0; i < k; i++)
		if (cmds[i].failures)
			return 1;
	return 0;
}
