/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * replay.c: runs every file of $top_srcdir/tests/fuzz/corpus/cli (or the files named
 * on the command line) through the fuzz target once, so that `make check` keeps the
 * corpus, crashers included, as a regression test. Skips (77) without top_srcdir.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			failed |= replay_file(argv[i]) < 0;
		return failed;
	}
	if (!top)
		return 77;
	dir = path_join(top, "tests/fuzz/corpus/cli");
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
	printf("replayed %d corpus files\n", done);
	return failed || done == 0;
}
