/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * replay.c: runs every file of $top_srcdir/tests/fuzz/corpus/FUZZ_TARGET (or the files
 * named on the command line) through the fuzz target once, so that `make check` keeps
 * the corpus, crashers included, as a regression test, built with any compiler. Skips
 * (77) without top_srcdir, or when the target's LLVMFuzzerInitialize() exits 77.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "util.h"

#ifndef FUZZ_TARGET
#error "build with -DFUZZ_TARGET='\"name\"', the corpus directory's name"
#endif

/* Optional in a target, as in libFuzzer. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay_file(const char *path)
{
	_cleanup_free_ char *data = NULL;
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len;
	int r;

	if (fd < 0) {
		fprintf(stderr, "open %s: %m\n", path);
		return -1;
	}
	r = read_all(fd, 1u << 20, &data, &len);
	if (r < 0) {
		fprintf(stderr, "read %s: %s\n", path, strerror(-r));
		return -1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	return 0;
}

int main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	_cleanup_free_ char *dir = NULL;
	struct dirent **names = NULL;
	int n, done = 0, failed = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			failed |= replay_file(argv[i]) < 0;
		return failed;
	}
	if (!top)
		return 77;
	dir = path_join(top, "tests/fuzz/corpus/" FUZZ_TARGET);
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "scandir %s: %m\n", dir);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			_cleanup_free_ char *path = path_join(dir, names[i]->d_name);

			failed |= replay_file(path) < 0;
			done++;
		}
		free(names[i]);
	}
	free(names);
	printf("%s: replayed %d corpus files\n", FUZZ_TARGET, done);
	return failed || done == 0;
}
