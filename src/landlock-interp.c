/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * landlock-interp.c: finding the dynamic loaders --landlock-exec must allow. Every
 * file read here may have been planted by the sandboxed command in an earlier run,
 * so nothing it names is trusted: entries are opened O_PATH|O_NOFOLLOW and checked
 * to be regular files before they are read, and an interpreter is granted only as
 * the regular file it resolves to (never a directory, which would allow executing
 * everything beneath it).
 */
#include "config.h"

#include "landlock-interp.h"

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macros.h"
#include "path.h"
#include "util.h"

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ELFDATA_NATIVE ELFDATA2LSB
#else
#define ELFDATA_NATIVE ELFDATA2MSB
#endif

int landlock_elf_interp(int fd, char *buf, size_t size)
{
	union {
		Elf32_Ehdr e32;
		Elf64_Ehdr e64;
	} eh;
	union {
		Elf32_Phdr p32;
		Elf64_Phdr p64;
	} ph;
	ssize_t n = pread(fd, &eh, sizeof(eh), 0);
	bool is64;
	uint64_t phoff, off, len;
	size_t phentsize, phnum;

	if (n < (ssize_t)sizeof(eh.e32) || memcmp(eh.e32.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e32.e_ident[EI_DATA] != ELFDATA_NATIVE)
		return 0;
	is64 = eh.e32.e_ident[EI_CLASS] == ELFCLASS64;
	if (is64 && n < (ssize_t)sizeof(eh.e64))
		return 0;
	phoff = is64 ? eh.e64.e_phoff : eh.e32.e_phoff;
	phnum = is64 ? eh.e64.e_phnum : eh.e32.e_phnum;
	phentsize = is64 ? eh.e64.e_phentsize : eh.e32.e_phentsize;
	if (phentsize != (is64 ? sizeof(ph.p64) : sizeof(ph.p32)) ||
	    phoff > (uint64_t)INT64_MAX / 2)
		return 0;
	for (size_t i = 0; i < phnum && i < 512; i++) {
		if (pread(fd, &ph, phentsize, (off_t)(phoff + i * phentsize)) != (ssize_t)phentsize)
			return 0;
		if ((is64 ? ph.p64.p_type : ph.p32.p_type) != PT_INTERP)
			continue;
		off = is64 ? ph.p64.p_offset : ph.p32.p_offset;
		len = is64 ? ph.p64.p_filesz : ph.p32.p_filesz;
		if (len < 2 || len > size || off > (uint64_t)INT64_MAX)
			return 0;
		if (pread(fd, buf, len, (off_t)off) != (ssize_t)len)
			return 0;
		if (buf[len - 1] != '\0' || buf[0] != '/' || strlen(buf) != len - 1)
			return 0;
		return 1;
	}
	return 0;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Grants the interpreter at path only if it resolves (symlinks followed beneath root_fd,
 * as execve follows them; magic links refused) to a regular file. */
static void interp_add(struct landlock_interps *s, int root_fd, const char *path)
{
	struct stat st;
	int fd = path_open(root_fd, path, O_PATH);

	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || s->n == LANDLOCK_MAX_INTERPRETERS) {
		close(fd);
		return;
	}
	for (size_t i = 0; i < s->n; i++)
		if (s->dev[i] == st.st_dev && s->ino[i] == st.st_ino) {
			close(fd);
			return;
		}
	s->fds[s->n] = fd;
	s->dev[s->n] = st.st_dev;
	s->ino[s->n] = st.st_ino;
	s->paths[s->n] = xstrdup(path);
	s->n++;
}

/* Reads the interpreter of dirfd/name, which must still be the regular file want: opening
 * anything else for reading could block (a fifo) or act (a device). */
static void interp_of_file(struct landlock_interps *s, int root_fd, int dirfd, const char *name,
			   const struct stat *want)
{
	char buf[PATH_MAX];
	struct stat st;
	_cleanup_close_ int fd = -1;

	if (!S_ISREG(want->st_mode))
		return;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !same_file(&st, want))
		return;
	if (landlock_elf_interp(fd, buf, sizeof(buf)) == 1)
		interp_add(s, root_fd, buf);
}

static void interp_of_entry(struct landlock_interps *s, int root_fd, int dirfd, const char *name)
{
	_cleanup_close_ int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd >= 0 && fstat(fd, &st) == 0)
		interp_of_file(s, root_fd, dirfd, name, &st);
}

void landlock_interps_collect(struct landlock_interps *s, int root_fd, int fd, const char *path)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int dfd;

	if (fstat(fd, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		/* The rule path has no symlink (landlock.c refuses them); the inode check
		 * catches a swap since. */
		interp_of_file(s, root_fd, AT_FDCWD, path, &st);
		return;
	}
	dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d)))
		if (de->d_type == DT_REG || de->d_type == DT_UNKNOWN)
			interp_of_entry(s, root_fd, dirfd(d), de->d_name);
	closedir(d);
}

void landlock_interps_free(struct landlock_interps *s)
{
	for (size_t i = 0; i < s->n; i++) {
		close(s->fds[i]);
		free(s->paths[i]);
	}
	s->n = 0;
}
