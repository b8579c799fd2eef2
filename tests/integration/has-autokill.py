#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# has-autokill.py: prints "yes" when clone3 takes CLONE_PIDFD_AUTOKILL (with AUTOREAP, NNP
# and PIDFD, as nsrun asks for it), else "no". The child it makes exits at once.
import ctypes
import os
import struct

CLONE_PIDFD = 0x1000
AUTOREAP, NNP, AUTOKILL = 1 << 34, 1 << 35, 1 << 36

libc = ctypes.CDLL(None, use_errno=True)
fd = ctypes.c_int(-1)
args = ctypes.create_string_buffer(struct.pack(
    "11Q", CLONE_PIDFD | AUTOREAP | NNP | AUTOKILL, ctypes.addressof(fd), 0, 0, 0, 0, 0, 0, 0, 0, 0))
pid = libc.syscall(435, args, 88)  # clone3, CLONE_ARGS_SIZE_VER2
if pid == 0:
    os._exit(0)
print("yes" if pid > 0 else "no")
