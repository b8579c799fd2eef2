/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * doctor.h: `nsrun --doctor`, a check of this machine for what nsrun needs (kernel
 * features, unprivileged user namespaces and what blocks them, Landlock per option,
 * the binary's own permissions), and the one place that explains a run-time failure
 * caused by one of those. Read-only: the probes run in short-lived forked children.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"

enum doctor_level { DOCTOR_OK, DOCTOR_WARN, DOCTOR_FAIL, DOCTOR_LEVEL_MAX };

#define DOCTOR_MAX_CHECKS 40
#define DOCTOR_TEXT_MAX 256

struct doctor_check {
	enum doctor_level level;
	char name[32];		    /* stable key, e.g. "userns", "landlock-scope" */
	char text[DOCTOR_TEXT_MAX]; /* what was found */
	char fix[DOCTOR_TEXT_MAX];  /* what to do; empty when nothing is needed */
};

struct doctor_report {
	struct doctor_check checks[DOCTOR_MAX_CHECKS];
	size_t n;
};

/* Runs every check as the calling user; fills *report. */
void doctor_collect(struct doctor_report *report);

/* One "LEVEL name: text (fix: ...)" line per check, or one JSON document. */
void doctor_print(FILE *out, const struct doctor_report *report, bool json);

/* The exit status of --doctor: 1 when any check failed, else 0. */
int doctor_status(const struct doctor_report *report);

/* "ok", "warn", "fail". */
const char *doctor_level_name(enum doctor_level level);

/* Appends the cause found by doctor_userns_cause() and a pointer to `nsrun --doctor`
 * to a sandbox failure that a blocked user namespace can explain (EPERM, EACCES,
 * ENOSPC), and the pointer alone to a Landlock boundary the kernel cannot build
 * (status 126, ENOSYS or EOPNOTSUPP); leaves other errors as they are. */
void doctor_explain(struct nsrun_error *err);
