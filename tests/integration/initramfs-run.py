#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# initramfs-run.py UID NSRUN ARGS...: runs NSRUN ARGS as UID (0 or a user) from a root
# that is the bottom of its mount namespace, as in an initramfs that never switched
# root, where pivot_root(2) answers EINVAL. In a private mount namespace the tree above
# the initial ramfs is unmounted and the namespace entered again, which puts the root on
# the ramfs. The host's /usr (a detached copy) is mounted at /nsrun-usr, a fresh /proc at
# /proc; /tmp, /proc and /nsrun-usr are made in the ramfs where missing and removed
# afterwards (the ramfs is shared with the host's, hidden under its root). NSRUN runs
# through the host's loader by fd, since the ramfs holds no libraries. Prints nothing of
# its own but errors; exits with NSRUN's status, or 125 when the situation cannot be made
# (then it says why on stderr, starting with "setup:").
import ctypes
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
MS_REC, MS_PRIVATE, MNT_DETACH = 0x4000, 0x40000, 2
OPEN_TREE_CLONE, AT_RECURSIVE, MOVE_MOUNT_F_EMPTY_PATH = 1, 0x8000, 4
SYS_OPEN_TREE, SYS_MOVE_MOUNT = 428, 429


def chk(r, what):
    if r < 0:
        e = ctypes.get_errno()
        sys.stderr.write("setup: %s: %s\n" % (what, os.strerror(e)))
        sys.exit(125)
    return r


def main():
    uid = int(sys.argv[1])
    nsrun = sys.argv[2]
    args = sys.argv[3:]
    chk(libc.unshare(0x20000), "unshare(CLONE_NEWNS)")
    chk(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "make / rprivate")
    own = os.open("/proc/self/ns/mnt", os.O_RDONLY)
    usr = chk(libc.syscall(SYS_OPEN_TREE, -100, b"/usr", OPEN_TREE_CLONE | AT_RECURSIVE | os.O_CLOEXEC),
              "open_tree /usr")
    prog = os.open(nsrun, os.O_RDONLY)
    # INITRAMFS_WRAP=HELPER ARG: run NSRUN under tests/helpers/force-enosys ARG (the mount(2) path).
    wrap = os.environ.get("INITRAMFS_WRAP", "").split()
    wrapfd = os.open(wrap[0], os.O_RDONLY) if wrap else -1
    ld = os.open("/lib64/ld-linux-x86-64.so.2", os.O_RDONLY)
    libdir = os.open("/usr/lib/x86_64-linux-gnu", os.O_PATH | os.O_DIRECTORY)
    for fd in (prog, ld, libdir) + ((wrapfd,) if wrap else ()):
        os.set_inheritable(fd, True)
    chk(libc.umount2(b"/", MNT_DETACH), "unmount /")
    chk(libc.setns(own, 0x20000), "enter the namespace again")
    made = []
    for d in ("/tmp", "/proc", "/nsrun-usr"):
        if not os.path.isdir(d):
            os.mkdir(d, 0o755)
            made.append(d)
    try:
        chk(libc.mount(b"proc", b"/proc", b"proc", 0, None), "mount /proc")
        chk(libc.syscall(SYS_MOVE_MOUNT, usr, b"", -100, b"/nsrun-usr", MOVE_MOUNT_F_EMPTY_PATH),
            "move_mount /usr on /nsrun-usr")
        pid = os.fork()
        if pid == 0:
            if uid:
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
            env = dict(os.environ, LD_LIBRARY_PATH="/proc/self/fd/%d" % libdir)
            cmd = ["/proc/self/fd/%d" % ld, "--argv0", "nsrun", "/proc/self/fd/%d" % prog] + args
            if wrap:
                cmd = ["/proc/self/fd/%d" % ld, "/proc/self/fd/%d" % wrapfd] + wrap[1:] + ["--"] + cmd
            os.execve(cmd[0], cmd, env)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
    finally:
        for d in ("/nsrun-usr", "/proc"):
            libc.umount2(d.encode(), MNT_DETACH)
        for d in reversed(made):
            os.rmdir(d)
    sys.exit(code if code >= 0 else 128 - code)


main()
