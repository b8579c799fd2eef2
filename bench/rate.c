/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/rate.c: sandboxes per second with J in flight. A batch starts BATCH launches
 * of one command, at most J at a time: a slot frees when its launcher exits (what a
 * caller waits for), and the batch ends when the last process of it is gone, orphans
 * included (the runner is a child subreaper, as bench/pair.c is, so a sandbox's pid 1
 * that outlives its launcher is reaped here and counted in the batch). The rate of a
 * batch is BATCH over its wall time. -j takes a list (1,2,4): every command is then a
 * case per J, named NAME@J. Each round runs one batch of every case, in an order rotated
 * by one each round, so the drift of a shared machine lands on all alike.
 * With -u UID the children drop to UID/UID with no supplementary groups before exec.
 * A word containing %ID in CMD gets a number unique to the launch in its place (an
 * OCI runtime needs a fresh container name for each). Not installed; bench/run.sh
 * builds it with cc.
 *
 * Usage: rate [-j J[,J...]] [-b BATCH] [-r ROUNDS] [-w WARMUP] [-u UID] [-o RAWFILE]
 *        NAME CMD [NAME CMD]...
 * CMD is split on spaces (no quoting). RAWFILE gets one line per case: its name and
 * the rate of each round (sandboxes/s). WARMUP batches of J launches per case come
 * first, untimed. Exits 1 when any launch did not exit 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct cmd {
	char *name;
	int jobs;
	char **argv;
	int *id_word; /* indexes of the words holding %ID, -1 terminated */
	double *rate;
	int failures;
};

#define MAX_J 8

struct opts {
	int jobs[MAX_J], njobs, batch, rounds, warmup, uid;
};

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		perror("calloc");
		exit(2);
	}
	return p;
}

static void split(struct cmd *c, const char *s)
{
	char *copy = strdup(s), *save = NULL;
	size_t n = 0, ids = 0, max = strlen(s) / 2 + 2;

	c->argv = xcalloc(max, sizeof(*c->argv));
	c->id_word = xcalloc(max, sizeof(*c->id_word));
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (strstr(w, "%ID"))
			c->id_word[ids++] = (int)n;
		c->argv[n++] = strdup(w);
	}
	c->id_word[ids] = -1;
	free(copy);
	if (!n) {
		fprintf(stderr, "rate: empty command\n");
		exit(2);
	}
}

/* The child: stdout and stderr to /dev/null, the uid dropped, %ID filled in, exec. */
static void child(const struct cmd *c, int uid, unsigned long seq)
{
	int null = open("/dev/null", O_RDWR);

	dup2(null, 1);
	if (!getenv("RATE_STDERR"))
		dup2(null, 2);
	if (uid >= 0 && (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
			 setresuid(uid, uid, uid) < 0))
		_exit(125);
	for (int *i = c->id_word; *i >= 0; i++) {
		char *w = c->argv[*i], *at = strstr(w, "%ID"), *buf;

		if (asprintf(&buf, "%.*s%d-%lu%s", (int)(at - w), w, (int)getppid(), seq, at + 3) <
		    0)
			_exit(126);
		c->argv[*i] = buf;
	}
	execv(c->argv[0], c->argv);
	_exit(127);
}

static pid_t launch(const struct cmd *c, int uid)
{
	static unsigned long seq;
	pid_t pid;

	seq++;
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0)
		child(c, uid, seq);
	return pid;
}

/* Whether pid is one of the n launchers in flight; if so its slot is emptied. */
static int take_slot(pid_t *slots, int n, pid_t pid)
{
	for (int i = 0; i < n; i++)
		if (slots[i] == pid) {
			slots[i] = 0;
			return 1;
		}
	return 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One batch of c: launches with up to c->jobs in flight; returns sandboxes per second. */
static double batch(struct cmd *c, const struct opts *o, int count)
{
	pid_t *slots = xcalloc((size_t)c->jobs, sizeof(*slots));
	int started = 0, st;
	double t0 = now_s();
	pid_t pid;

	for (;;) {
		for (int i = 0; i < c->jobs && started < count; i++)
			if (!slots[i]) {
				slots[i] = launch(c, o->uid);
				started++;
			}
		pid = wait(&st);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break; /* ECHILD: every launcher and orphan of the batch is gone */
		if (take_slot(slots, c->jobs, pid) && (!WIFEXITED(st) || WEXITSTATUS(st) != 0))
			c->failures++;
	}
	free(slots);
	return (double)count / (now_s() - t0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double *s = xcalloc((size_t)n, sizeof(*s));
	double m;

	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* Each case's median, min and max, and its ratio to the first command's case with the
 * same J (cmds[i % njobs]: the cases are laid out tool by tool, one per J). */
static void report(const struct cmd *cmds, int k, const struct opts *o, const char *raw)
{
	FILE *out = raw ? fopen(raw, "w") : NULL;

	if (raw && !out)
		perror(raw);
	printf("%-16s %9s %9s %9s %9s %5s   (%d per batch, %d rounds)\n", "case", "median/s",
	       "min/s", "max/s", "x first", "fail", o->batch, o->rounds);
	for (int i = 0; i < k; i++) {
		const struct cmd *c = &cmds[i];
		double lo = c->rate[0], hi = c->rate[0], m = median(c->rate, o->rounds);

		for (int r = 0; r < o->rounds; r++) {
			lo = c->rate[r] < lo ? c->rate[r] : lo;
			hi = c->rate[r] > hi ? c->rate[r] : hi;
		}
		printf("%-16s %9.1f %9.1f %9.1f %9.3f %5d\n", c->name, m, lo, hi,
		       m / median(cmds[i % o->njobs].rate, o->rounds), c->failures);
		if (!out)
			continue;
		fprintf(out, "%s", c->name);
		for (int r = 0; r < o->rounds; r++)
			fprintf(out, " %.3f", c->rate[r]);
		fputc('\n', out);
	}
	if (out)
		fclose(out);
}

/* -j's list: J[,J...], each at least 1, at most MAX_J of them. */
static int parse_jobs(struct opts *o, char *list)
{
	char *save = NULL;

	o->njobs = 0;
	for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (o->njobs == MAX_J || atoi(w) < 1)
			return -1;
		o->jobs[o->njobs++] = atoi(w);
	}
	return o->njobs ? 0 : -1;
}

static int parse(int argc, char **argv, struct opts *o, const char **raw)
{
	int opt;

	*o = (struct opts){
		.jobs = { 1 }, .njobs = 1, .batch = 100, .rounds = 5, .warmup = 1, .uid = -1
	};
	while ((opt = getopt(argc, argv, "+j:b:r:w:u:o:")) != -1) {
		int v = opt == 'o' || opt == 'j' ? 0 : atoi(optarg);

		switch (opt) {
		case 'j':
			if (parse_jobs(o, optarg) < 0)
				return -1;
			break;
		case 'b':
			o->batch = v;
			break;
		case 'r':
			o->rounds = v;
			break;
		case 'w':
			o->warmup = v;
			break;
		case 'u':
			o->uid = v;
			break;
		case 'o':
			*raw = optarg;
			break;
		default:
			return -1;
		}
	}
	if (o->batch < 1 || o->rounds < 1 || (argc - optind) < 2 || (argc - optind) % 2)
		return -1;
	return optind;
}

/* The cases: every NAME CMD once per J, tool by tool; NAME@J when there are several J. */
static struct cmd *cases(char **args, int tools, const struct opts *o)
{
	struct cmd *cmds = xcalloc((size_t)(tools * o->njobs), sizeof(*cmds));

	for (int i = 0; i < tools; i++) {
		struct cmd tool = { 0 };

		split(&tool, args[2 * i + 1]);
		for (int m = 0; m < o->njobs; m++) {
			struct cmd *c = &cmds[i * o->njobs + m];

			*c = tool;
			c->jobs = o->jobs[m];
			if (asprintf(&c->name, o->njobs > 1 ? "%s@%d" : "%s", args[2 * i],
				     c->jobs) < 0)
				exit(2);
			c->rate = xcalloc((size_t)o->rounds, sizeof(double));
		}
	}
	return cmds;
}

int main(int argc, char **argv)
{
	const char *raw = NULL;
	struct opts o;
	struct cmd *cmds;
	int first = parse(argc, argv, &o, &raw), k;

	if (first < 0) {
		fprintf(stderr, "usage: rate [-j J[,J...]] [-b BATCH] [-r ROUNDS] [-w WARMUP] "
				"[-u UID] [-o RAW] NAME CMD...\n");
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		perror("PR_SET_CHILD_SUBREAPER");
		return 2;
	}
	k = (argc - first) / 2 * o.njobs;
	cmds = cases(argv + first, (argc - first) / 2, &o);
	for (int i = 0; i < k; i++) {
		(void)batch(&cmds[i], &o, o.warmup * cmds[i].jobs);
		cmds[i].failures = 0;
	}
	for (int r = 0; r < o.rounds; r++)
		for (int s = 0; s < k; s++) {
			struct cmd *c = &cmds[(r + s) % k];

			c->rate[r] = batch(c, &o, o.batch);
		}
	report(cmds, k, &o, raw);
	for (int i = 0; i < k; i++)
		if (cmds[i].failures)
			return 1;
	return 0;
}
