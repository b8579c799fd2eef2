#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-devproc.sh: --tmpfs (mode, --perms, --size and its rejected values), --dev (the
# exact listing, node types, devpts, /dev/shm), --proc of a new pid namespace (pid 1,
# read-only covers) and --mqueue.
. "$top_srcdir/tests/integration/lib.sh"
need_ns

test_tmpfs() {
	local out rc me=0 s
	[ "$MODE" = unpriv ] && me=65534
	out=$(nsrun --ro-bind / / --tmpfs /mnt --perms 0700 --tmpfs /mnt/p --perms 01777 --tmpfs /mnt/t \
		--size 1048576 --tmpfs /mnt/s --size 0x200000 --tmpfs /mnt/h "$PROBE" \
		stat /mnt mountinfo /mnt stat /mnt/p stat /mnt/t statfs /mnt/s statfs /mnt/h 2>&1)
	check_eq "--tmpfs: mode 0755" "dir mode=0755" "$(smode /mnt "$out")"
	check_match "--tmpfs: owned by the caller" "^stat:/mnt=dir mode=0755 uid=$me gid=$me " "$out"
	check_eq "--tmpfs: fs type" "tmpfs" "$(mfield fstype /mnt "$out")"
	check_eq "--tmpfs: rw,nosuid,nodev" "rw,nosuid,nodev" "$(mflags /mnt "$out")"
	check_eq "--perms 0700 --tmpfs" "dir mode=0700" "$(smode /mnt/p "$out")"
	check_eq "--perms 01777 --tmpfs" "dir mode=1777" "$(smode /mnt/t "$out")"
	check_match "--size 1048576: 1024 1K blocks" '^statfs:/mnt/s=type=0x1021994 kb=1024 ' "$out"
	check_match "--size 0x200000: 2048 1K blocks" '^statfs:/mnt/h=type=0x1021994 kb=2048 ' "$out"
	for s in 0 123bogus "" -1 " -1" 18446744073709551616; do
		out=$(bwrap_nsrun --ro-bind / / --size "$s" --tmpfs /mnt "$PROBE" pid 2>&1)
		rc=$?
		check_eq "--size '$s' rejected: exit 1" 1 "$rc"
		check_eq "--size '$s' rejected: message" "bwrap: --size takes a non-zero number of bytes" "$out"
	done
	out=$(bwrap_nsrun --ro-bind / / --size 9223372036854775809 --tmpfs /mnt "$PROBE" pid 2>&1)
	rc=$?
	check_eq "--size 2^63+1 rejected: exit 1" 1 "$rc"
	check_eq "--size 2^63+1 rejected: message" \
		"bwrap: --size (for tmpfs) is limited to 9223372036854775807" "$out"
	out=$(bwrap_nsrun --ro-bind / / --size 100 --dir /mnt "$PROBE" pid 2>&1)
	rc=$?
	check_eq "--size not followed by --tmpfs: exit 1" 1 "$rc"
	check_eq "--size not followed by --tmpfs: message" "bwrap: --size must be followed by --tmpfs" "$out"
}
for_each_mode test_tmpfs

DEV_LIST="core fd full null ptmx pts random shm stderr stdin stdout tty urandom zero"

test_dev() {
	local out me=0 n hs
	[ "$MODE" = unpriv ] && me=65534
	out=$(nsrun --ro-bind / / --dev /dev "$PROBE" ls /dev stat /dev mountinfo /dev \
		stat /dev/null stat /dev/zero stat /dev/full stat /dev/random stat /dev/urandom stat /dev/tty \
		lstat /dev/stdin lstat /dev/shm mountinfo /dev/shm mountinfo /dev/pts stat /dev/pts/ptmx \
		mountinfo /dev/null open-errno /dev/null w open-errno /dev/zero r \
		readlink /dev/stdin readlink /dev/stdout readlink /dev/stderr readlink /dev/fd \
		readlink /dev/core readlink /dev/ptmx ls /dev/pts 2>&1)
	check_eq "--dev: listing" "$DEV_LIST" "$(get ls:/dev "$out")"
	check_eq "--dev: a tmpfs" "tmpfs" "$(mfield fstype /dev "$out")"
	check_eq "--dev: mode 0755" "dir mode=0755" "$(smode /dev "$out")"
	check_eq "--dev: nosuid,nodev on the tmpfs" "rw,nosuid,nodev" "$(mflags /dev "$out")"
	for n in null zero full random urandom tty; do
		hs=$("$PROBE" stat /dev/$n | sed 's/^stat:[^=]*=//;s/ uid=[0-9]* gid=[0-9]*//')
		check_eq "--dev: /dev/$n is the host's node" "$hs" \
			"$(get stat:/dev/$n "$out" | sed 's/ uid=[0-9]* gid=[0-9]*//')"
	done
	check_eq "--dev: device binds without nodev" "rw,nosuid" "$(mflags /dev/null "$out")"
	check_eq "--dev: /dev/null writable" "ok" "$(get open:/dev/null "$out")"
	check_eq "--dev: /dev/zero readable" "ok" "$(get open:/dev/zero "$out")"
	check_eq "--dev: stdin is a symlink" "symlink" "$(get lstat:/dev/stdin "$out" | cut -d' ' -f1)"
	check_eq "--dev: stdin" "/proc/self/fd/0" "$(get readlink:/dev/stdin "$out")"
	check_eq "--dev: stdout" "/proc/self/fd/1" "$(get readlink:/dev/stdout "$out")"
	check_eq "--dev: stderr" "/proc/self/fd/2" "$(get readlink:/dev/stderr "$out")"
	check_eq "--dev: fd" "/proc/self/fd" "$(get readlink:/dev/fd "$out")"
	check_eq "--dev: core" "/proc/kcore" "$(get readlink:/dev/core "$out")"
	check_eq "--dev: ptmx" "pts/ptmx" "$(get readlink:/dev/ptmx "$out")"
	check_eq "--dev: shm is not a mount" "/dev" "$(mfield mnt /dev/shm "$out")"
	check_eq "--dev: pts is devpts" "devpts" "$(mfield fstype /dev/pts "$out")"
	check_eq "--dev: pts nosuid,noexec" "rw,nosuid,noexec" "$(mflags /dev/pts "$out")"
	check_match "--dev: pts options" '(^|,)mode=620(,|$)' "$(mfield super /dev/pts "$out")"
	check_match "--dev: pts ptmxmode" '(^|,)ptmxmode=666(,|$)' "$(mfield super /dev/pts "$out")"
	check_eq "--dev: new devpts instance is empty" "ptmx" "$(get ls:/dev/pts "$out")"
	check_eq "--dev: pts/ptmx" "chr mode=0666 uid=$me gid=$me rdev=5:2" "$(get stat:/dev/pts/ptmx "$out")"
	out=$(nsrun --ro-bind / / --dev /dev "$PROBE" lstat /dev/shm 2>&1)
	check_match "--dev: /dev/shm directory mode" '^lstat:/dev/shm=dir mode=0755 ' "$out"
	out=$(nsrun --ro-bind / / --tmpfs /mnt --dev /mnt/dev "$PROBE" ls /mnt/dev 2>&1)
	check_eq "--dev elsewhere: same listing" "$DEV_LIST" "$(get ls:/mnt/dev "$out")"
}
for_each_mode test_dev

test_proc() {
	local out
	out=$(nsrun --ro-bind / / --unshare-pid --proc /proc "$PROBE" pid ppid mountinfo /proc \
		stat /proc/1 stat /proc/2 stat /proc/3 open-errno /proc/sys/kernel/domainname w \
		mountinfo /proc/irq mountinfo /proc/bus 2>&1)
	check_eq "--unshare-pid: payload is pid 2" 2 "$(get pid "$out")"
	check_eq "--unshare-pid: its parent is pid 1" 1 "$(get ppid "$out")"
	check_eq "--proc: a proc mount" proc "$(mfield fstype /proc "$out")"
	check_eq "--proc: nosuid,nodev,noexec" "rw,nosuid,nodev,noexec" "$(mflags /proc "$out")"
	check_match "--proc: pid 1 visible" '^stat:/proc/1=dir' "$out"
	check_eq "--proc: only pids 1 and 2" "errno=ENOENT" "$(get stat:/proc/3 "$out")"
	if [ "$MODE" = root ]; then
		# bwrap covers irq and bus read-only where they are writable (root).
		check_eq "--proc: /proc/irq read-only" "ro,nosuid,nodev,noexec" "$(mflags /proc/irq "$out")"
		check_eq "--proc: /proc/bus read-only" "ro,nosuid,nodev,noexec" "$(mflags /proc/bus "$out")"
	else
		check_match "--proc: sysctl not writable" '^open:/proc/sys/kernel/domainname=errno=(EACCES|EROFS|EPERM)' "$out"
	fi
	out=$(nsrun --ro-bind / / --unshare-pid --as-pid-1 --proc /proc "$PROBE" pid ls /proc/1/task 2>&1)
	check_eq "--as-pid-1: payload is pid 1" 1 "$(get pid "$out")"
	out=$(nsrun --ro-bind / / --proc /proc "$PROBE" pid 2>&1)
	check_eq "--proc without a pid namespace: the host's pids" "$$" \
		"$([ "$(get pid "$out")" -gt 2 ] 2>/dev/null && echo $$)"
}
for_each_mode test_proc

test_mqueue() {
	local out
	out=$(nsrun --ro-bind / / --unshare-ipc --dev /dev --mqueue /dev/mqueue "$PROBE" mountinfo /dev/mqueue 2>&1)
	check_eq "--mqueue: fs type" mqueue "$(mfield fstype /dev/mqueue "$out")"
	check_eq "--mqueue: mounted at the destination" /dev/mqueue "$(mfield mnt /dev/mqueue "$out")"
}
for_each_mode test_mqueue

done_testing
