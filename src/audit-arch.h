/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * audit-arch.h: the one table of this build's audit architectures, the values a seccomp
 * filter reads in seccomp_data.arch, for nsrun's guards and the tests' filters alike. A
 * system call's number means a call only together with its architecture; a new
 * architecture is one row here. AUDIT_ARCH_NATIVE is undefined where no row matches.
 */
#pragma once

#include <linux/audit.h>

/* AUDIT_ARCH_COMPAT: the second ABI the same kernel takes from this process, where there
 * is one (int 0x80 on x86_64, or a 32-bit program). AUDIT_ARCH_X32_BIT: x32's calls come
 * with the native arch and this bit in their number; 0 where there is no x32. */
#if defined(__x86_64__)
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_X86_64
#define AUDIT_ARCH_COMPAT AUDIT_ARCH_I386
#define AUDIT_ARCH_X32_BIT 0x40000000u
#elif defined(__aarch64__)
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_AARCH64
#define AUDIT_ARCH_COMPAT AUDIT_ARCH_ARM
#elif defined(__i386__)
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_I386
#elif defined(__riscv) && __riscv_xlen == 64
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_S390X
#endif

#ifndef AUDIT_ARCH_X32_BIT
#define AUDIT_ARCH_X32_BIT 0u
#endif
