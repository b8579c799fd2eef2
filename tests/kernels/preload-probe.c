/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* LD_PRELOAD probe for guest-checks.sh's AppArmor case: stands for a caller's code that
 * the dynamic loader runs in whatever profile the process has, and records which one
 * (and whether the loader ran in secure mode) in $NSRUN_PRELOAD_LOG. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

__attribute__((constructor)) static void record(void)
{
	const char *log = getenv("NSRUN_PRELOAD_LOG");
	char label[256] = "?", line[320];
	int fd;
	ssize_t n;

	if (!log)
		return;
	fd = open("/proc/self/attr/current", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, label, sizeof(label) - 1);
		label[n > 0 ? n : 0] = '\0';
		label[strcspn(label, "\n")] = '\0';
		close(fd);
	}
	n = snprintf(line, sizeof(line), "%s secure=%lu\n", label, getauxval(AT_SECURE));
	fd = open(log, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, line, (size_t)n) < 0)
			_exit(99);
		close(fd);
	}
}
