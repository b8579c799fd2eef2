/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report-attack: commands that attack --report-fd's observer (issue 36's review).
 *   report-attack uffd-open   open(2) for writing a name that lies in memory whose
 *                             pages a userfaultfd serves, and never serve them: the
 *                             monitor's read of the name (process_vm_readv) waits on
 *                             the fault. Exits 77 where no userfaultfd can be had.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef USERFAULTFD_IOC_NEW
#define USERFAULTFD_IOC_NEW _IO(0xAA, 0x00)
#endif

/* A userfaultfd that also serves the kernel's faults: the system call (with the right
 * to), else /dev/userfaultfd (Linux 6.1). */
static int uffd_open(void)
{
	int fd = (int)syscall(__NR_userfaultfd, O_CLOEXEC);
	int dev;

	if (fd >= 0)
		return fd;
	dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		return -1;
	fd = ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC);
	close(dev);
	return fd;
}

static int uffd_open_attack(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	int uffd = uffd_open();
	char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (uffd < 0 || page == MAP_FAILED || ioctl(uffd, UFFDIO_API, &api) < 0) {
		fprintf(stderr, "report-attack: no userfaultfd: %s\n", strerror(errno));
		return 77;
	}
	reg.range.start = (unsigned long)page;
	reg.range.len = 4096;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg) < 0) {
		fprintf(stderr, "report-attack: UFFDIO_REGISTER: %s\n", strerror(errno));
		return 77;
	}
	printf("armed\n");
	fflush(stdout);
	/* the page is never served: whoever reads it first waits for good */
	return open(page, O_WRONLY | O_CLOEXEC) < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "uffd-open") == 0)
		return uffd_open_attack();
	fprintf(stderr, "usage: report-attack uffd-open\n");
	return 2;
}
