#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-sys.sh: --sys DEST (an nsrun extension, bubblewrap PR #699). The sandbox gets a sysfs
# that is read-only and hides what the man page lists (firmware tables, the RAPL
# counters, interrupt and slab counters, the other filesystems' mount points, the
# machine's identifiers): a fresh one where the kernel allows it (a network namespace of
# the sandbox's own, or no user namespace), else the host's, bound. Run for real as root
# without and with a user namespace and as uid 65534, with and without --unshare-net:
# what stays visible, writes (EROFS), reads of the masked parts, undoing the masks, and
# the 126 where the kernel refuses a fresh sysfs.
# shellcheck disable=SC2016 # snippets expand in the sandboxed shell
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns
also_without_userns
[ "$(stat -f -c %T /sys 2>/dev/null)" = sysfs ] || skip_all "the host has no sysfs on /sys"

# --unshare-user-try: root gets a user namespace unless the mode takes it out.
S=(--ro-bind / / --unshare-user-try --cap-drop ALL)

# Masked directories the host has something in, so that "empty in the sandbox" can fail.
MASKED_DIRS=()
for d in firmware devices/virtual/powercap power kernel/irq kernel/slab kernel/mm/ksm \
	kernel/debug kernel/tracing kernel/security fs/cgroup fs/bpf fs/pstore fs/selinux; do
	if [ -n "$(ls -A "/sys/$d" 2>/dev/null)" ]; then MASKED_DIRS+=("/sys/$d"); fi
done
[ ${#MASKED_DIRS[@]} -gt 0 ] || skip_all "no masked sysfs directory has content on this host"
MASKED_FILES=()
for f in kernel/vmcoreinfo devices/virtual/dmi/id/product_uuid devices/virtual/dmi/id/product_serial \
	devices/virtual/dmi/id/board_serial; do
	if [ -s "/sys/$f" ]; then MASKED_FILES+=("/sys/$f"); fi
done
# A sysfs attribute root may write on the host: the write must meet the read-only mount.
WRITABLE=
for f in /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/uevent_helper /sys/power/state; do
	if [ -w "$f" ]; then WRITABLE=$f && break; fi
done
RAPL=$(find /sys/devices/virtual/powercap -name energy_uj 2>/dev/null | head -n1)
HOST_NET=$(ls /sys/class/net | paste -sd' ' -)
HOST_ONLINE=$(cat /sys/devices/system/cpu/online)

case_sys() {
	local net out d f args
	for net in "" --unshare-net; do
		args=(mountinfo /sys cat /sys/devices/system/cpu/online ls /sys/class/net umount /sys
			mountinfo /sys/fs/cgroup)
		for d in "${MASKED_DIRS[@]}"; do args+=(ls "$d" mountinfo "$d" umount "$d"); done
		for f in "${MASKED_FILES[@]}"; do args+=(cat "$f" umount "$f"); done
		[ -n "$WRITABLE" ] && args+=(open-errno "$WRITABLE" w)
		[ -n "$RAPL" ] && args+=(cat "$RAPL")
		# shellcheck disable=SC2086 # $net is one option or none
		out=$(nsrun "${S[@]}" $net --sys /sys "$PROBE" "${args[@]}" exit 0 2>&1)
		local v="[${net:-shared net}]"
		check_eq "$v /sys is a sysfs" sysfs "$(mfield fstype /sys "$out")"
		check_eq "$v /sys is read-only, nosuid, nodev, noexec" ro,nosuid,nodev,noexec \
			"$(mflags /sys "$out")"
		check_eq "$v cpu/online stays readable (nproc)" "$HOST_ONLINE\\n" \
			"$(get cat:/sys/devices/system/cpu/online "$out")"
		if [ -n "$net" ]; then
			check_eq "$v /sys/class/net lists only the sandbox's interfaces" lo \
				"$(get ls:/sys/class/net "$out")"
		else
			check_eq "$v /sys/class/net lists the shared namespace's interfaces" "$HOST_NET" \
				"$(get ls:/sys/class/net "$out")"
		fi
		check_match "$v umount /sys is refused" '^errno=(EPERM|EINVAL)$' "$(get umount:/sys "$out")"
		check_eq "$v /sys/fs/cgroup: a mask of its own, read-only" /sys/fs/cgroup,ro,nosuid,nodev,noexec \
			"$(mfield mnt /sys/fs/cgroup "$out"),$(mflags /sys/fs/cgroup "$out")"
		for d in "${MASKED_DIRS[@]}"; do
			check_eq "$v $d is empty" "" "$(get "ls:$d" "$out")"
			check_eq "$v $d: masked by a read-only mount" "$d,ro,nosuid,nodev,noexec" \
				"$(mfield mnt "$d" "$out"),$(mflags "$d" "$out")"
			check_eq "$v $d: the mask cannot be unmounted" errno=EPERM "$(get "umount:$d" "$out")"
		done
		for f in "${MASKED_FILES[@]}"; do
			check_eq "$v $f reads empty" "" "$(get "cat:$f" "$out")"
			check_eq "$v $f: the mask cannot be unmounted" errno=EPERM "$(get "umount:$f" "$out")"
		done
		if [ -n "$WRITABLE" ] && [ "$MODE" = root ]; then
			check_eq "$v writing $WRITABLE fails with EROFS" errno=EROFS \
				"$(get "open:$WRITABLE" "$out")"
		elif [ -n "$WRITABLE" ]; then
			# The mode bits refuse uid 65534 before the mount's flag is looked at.
			check_match "$v writing $WRITABLE fails" '^errno=(EACCES|EROFS)$' \
				"$(get "open:$WRITABLE" "$out")"
		else
			skip "$v a write to a writable sysfs attribute" "no attribute root may write here"
		fi
		if [ -n "$RAPL" ]; then
			check_match "$v the RAPL energy counter is not readable" '^errno=' \
				"$(get "cat:$RAPL" "$out")"
		else
			skip "$v the RAPL energy counter" "this machine has no powercap"
		fi
	done
}
for_each_mode case_sys

# The same under the name bwrap: an extension that bwrap 0.13.1 lacks, accepted there too.
case_bwrap_name() {
	local out
	out=$(bwrap_nsrun "${S[@]}" --unshare-net --tmpfs /run --sys /run/s "$PROBE" \
		ls /run/s/class/net ls /run/s/firmware 2>&1)
	check_eq "under the name bwrap, --sys DEST works, masked" \
		"$(printf 'ls:/run/s/class/net=lo\nls:/run/s/firmware=')" "$out"
}
for_each_mode case_bwrap_name

# A fresh sysfs in a user namespace needs CAP_SYS_ADMIN over the owner of the network
# namespace: joining one the sandbox's user namespace does not own (--netns) cannot give it,
# and the host's /sys would show another namespace's devices. Fail closed, command not run.
case_refused() {
	local w np
	w=$(mode_dir refused)
	unshare -n sleep 60 &
	np=$!
	sleep 0.3
	fail_closed "--sys with --netns in a user namespace" \
		"Can't mount sysfs on /sys: Operation not permitted \\(a fresh sysfs needs CAP_SYS_ADMIN" \
		"$BIN/nsrun" "${S[@]}" --unshare-user --netns 3 --sys /sys --bind "$w" "$w" \
		"$PROBE" write "$w/marker" 3<"/proc/$np/ns/net"
	# Root without a user namespace has CAP_SYS_ADMIN over every network namespace: a new
	# sysfs of the joined one.
	check_eq "--sys with --netns, root without a user namespace: the joined namespace's sysfs" \
		"ls:/sys/class/net=lo" "$(NOUSERNS=1 nsrun --ro-bind / / --netns 3 --sys /sys "$PROBE" \
			ls /sys/class/net 3<"/proc/$np/ns/net" 2>&1)"
	kill "$np"
	wait "$np" 2>/dev/null
}
MODE=root
case_refused

# In a user namespace the kernel mounts a new sysfs only where one is fully visible in the
# mount namespace: under a host whose /sys/firmware is covered (as in a container) it
# refuses, nsrun exits 126, and --fallback namespaces answers the step "sys". Without a
# user namespace the kernel does not ask. The cover is in a mount namespace of the test's.
covered() {
	unshare -m --propagation private sh -c 'mount -t tmpfs none /sys/firmware || exit 99; exec "$@"' \
		sh "$@"
}
case_not_visible() {
	local w out wrap=() u=()
	[ -n "${NOUSERNS:-}" ] && return # case_not_visible_root
	w=$(mode_dir notvis)
	[ "$MODE" = unpriv ] && wrap=(setpriv "--reuid=$UNPRIV_UID" "--regid=$UNPRIV_GID" --clear-groups --)
	[ -n "${NSRUN_FORCE_ENOSYS:-}" ] && wrap+=("$BIN/force-enosys" "$NSRUN_FORCE_ENOSYS" --)
	[ "$MODE" = root ] && u=(--unshare-user)
	fail_closed "host /sys partly covered, a user namespace: --sys refused" \
		"Can't mount sysfs on /sys: Operation not permitted \\(a fresh sysfs needs" \
		covered "${wrap[@]}" "$BIN/nsrun" --ro-bind / / "${u[@]}" --unshare-net --sys /sys \
		--bind "$w" "$w" "$PROBE" write "$w/marker"
	[ -n "$(landlock_abi)" ] || { skip "--fallback namespaces answers the step sys" "no Landlock"; return; }
	out=$(covered "${wrap[@]}" "$BIN/nsrun" --ro-bind / / --bind "$w" "$w" "${u[@]}" --unshare-net \
		--sys /sys --fallback namespaces --landlock-rw "$w" --json-status-fd 3 \
		"$PROBE" write "$w/ran" 3>&1 2>/dev/null)
	check_match "--fallback namespaces answers the step sys, and says so" \
		'"fallback-refused": \[\{ "step": "sys", "errno": 1,' "$out"
	check "... and the command ran, bounded by Landlock alone" test -e "$w/ran"
}
for_each_mode case_not_visible
case_not_visible_root() {
	local out wrap=()
	[ -n "${NSRUN_FORCE_ENOSYS:-}" ] && wrap=("$BIN/force-enosys" "$NSRUN_FORCE_ENOSYS" --)
	out=$(covered "${wrap[@]}" "$BIN/nsrun" --ro-bind / / --unshare-net --cap-drop ALL --sys /sys "$PROBE" \
		ls /sys/class/net ls /sys/firmware 2>&1)
	check_eq "host /sys partly covered, root without a user namespace: a new sysfs, masked" \
		"$(printf 'ls:/sys/class/net=lo\nls:/sys/firmware=')" "$out"
}
MODE=root
NOUSERNS=1
case_not_visible_root
NOUSERNS=

# Documented (man page): masked, the sysfs is no longer fully visible, so a sandbox nested
# in one with --sys gets 126 for a new sysfs and its parent's masked /sys when it shares
# the parent's network namespace.
case_nested() {
	local out
	out=$(nsrun --ro-bind / / --unshare-net --sys /sys --proc /proc sh -c '
		e=$("$1" --ro-bind / / --unshare-net --sys /sys true 2>&1); echo "net=$? ${e%%(*}"
		"$1" --ro-bind / / --sys /sys "$2" ls /sys/firmware ls /sys/class/net' sh "$BIN/nsrun" "$PROBE" 2>&1)
	check_eq "nested in --sys: a new sysfs is refused (126), the parent's is bound, masked" \
		"$(printf "net=126 nsrun: Can't mount sysfs on /sys: Operation not permitted \nls:/sys/firmware=\nls:/sys/class/net=lo")" "$out"
}
MODE=unpriv
case_nested
MODE=root

# Documented (man page): a command that keeps CAP_SYS_ADMIN over its mount namespace (root
# without --cap-drop, as in bwrap) can unmount the masks and remount the sysfs read-write,
# as it could mount a sysfs itself.
case_caps_kept() {
	local out
	out=$(nsrun --ro-bind / / --unshare-net --sys /sys "$PROBE" umount "${MASKED_DIRS[0]}" 2>&1)
	check_eq "documented: root keeping CAP_SYS_ADMIN can unmount a mask" \
		"umount:${MASKED_DIRS[0]}=ok" "$out"
	out=$(nsrun --ro-bind / / --unshare-net --sys /sys sh -c \
		'mount -o remount,bind,rw /sys && grep " /sys " /proc/self/mountinfo' 2>&1)
	check_match "documented: ... and remount the sysfs read-write" " /sys rw," "$out"
}
MODE=root
case_caps_kept

done_testing
