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

static int load_one(const struct seccomp_prog *p, struct nsrun_error *err)
{
	struct sock_fprog prog = {
		.len = (unsigned short)(p->len / sizeof(struct sock_filter)),
		.filter = (struct sock_filter *)p->data,
	};

	if (p->len % sizeof(struct sock_filter) != 0)
		return error_set_plain(err, EINVAL, "Invalid seccomp data, must be multiple of 8");
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0)
		return 0;
	if (errno == EINVAL)
		return error_set_plain(err, EINVAL,
				       "Unable to set up system call filtering as requested: "
				       "prctl(PR_SET_SECCOMP) reported EINVAL. (Hint: this requires "
				       "a kernel configured with CONFIG_SECCOMP and "
				       "CONFIG_SECCOMP_FILTER.)");
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
