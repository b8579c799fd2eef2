/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seccomp.c: installs compiled cBPF filters (bwrap takes BPF, not rules, so
 * libseccomp is not needed). --seccomp keeps only its last program; programs
 * from --add-seccomp-fd stack in command-line order.
 */
#include "config.h"

#include "seccomp.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>

static const char seccomp_einval[] =
	"Unable to set up system call filtering as requested: prctl(PR_SET_SECCOMP) reported "
	"EINVAL. (Hint: this requires a kernel configured with CONFIG_SECCOMP and "
	"CONFIG_SECCOMP_FILTER.)";

int seccomp_prog_fprog(const struct seccomp_prog *p, struct sock_fprog *ret,
		       struct nsrun_error *err)
{
	size_t n = p->len / sizeof(struct sock_filter);

	if (p->len == 0 || p->len % sizeof(struct sock_filter) != 0)
		return error_set_plain(err, EINVAL, "Invalid seccomp data, must be multiple of 8");
	/* sock_fprog.len is an unsigned short: a longer program would reach the kernel cut to
	 * its first n % 65536 instructions (bwrap 0.11 has that bug). The kernel refuses more
	 * than BPF_MAXINSNS with EINVAL, so say what bwrap says for that answer. */
	if (n > BPF_MAXINSNS)
		return error_set_plain(err, EINVAL, "%s", seccomp_einval);
	ret->len = (unsigned short)n;
	ret->filter = (struct sock_filter *)p->data;
	return 0;
}

static int load_one(const struct seccomp_prog *p, struct nsrun_error *err)
{
	struct sock_fprog prog;
	int r = seccomp_prog_fprog(p, &prog, err);

	if (r < 0)
		return r;
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0)
		return 0;
	if (errno == EINVAL)
		return error_set_plain(err, EINVAL, "%s", seccomp_einval);
	return error_set(err, errno, "prctl(PR_SET_SECCOMP)");
}

int seccomp_apply(const struct seccomp_config *cfg, struct nsrun_error *err)
{
	size_t first = 0;
	int r;

	if (cfg->n_progs == 0)
		return 0;
	if (cfg->from_seccomp_opt)
		first = cfg->n_progs - 1;
	for (size_t i = first; i < cfg->n_progs; i++) {
		r = load_one(&cfg->progs[i], err);
		if (r < 0)
			return r;
	}
	return 0;
}
