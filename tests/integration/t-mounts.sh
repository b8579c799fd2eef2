#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-mounts.sh: --bind, --ro-bind, --dev-bind and their -try forms (flags on every
# submount), missing sources, --remount-ro, mount point modes, destinations through
# symlinks inside the sandbox, and the staging root never being visible.

# A bind keeps its source mount's nodev, in nsrun as in bwrap, and Debian 13's /tmp is a
# nosuid,nodev tmpfs: the --dev-bind cases take their source from DEVFS, a tmpfs of the
# suite's own mounted without nodev. The suite runs in a private mount namespace so that
# the mount stays out of the host's view and goes when the suite ends.
if [ -z "${NSRUN_T_MOUNTS_PRIVATE:-}" ] && [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	NSRUN_T_MOUNTS_PRIVATE=1 exec unshare -m --propagation private "$BASH" "$0" "$@"
fi
. "$top_srcdir/tests/integration/lib.sh"
need_ns
DEVFS=$TMP/devfs
mkdir "$DEVFS"
mount -t tmpfs -o mode=0755 nsrun-devfs "$DEVFS" || skip_all "cannot mount a tmpfs on $DEVFS"
# The mount point must not outlive the suite on the host (rm cannot remove a mount point).
trap 'umount "$DEVFS"; cleanup_tmp' EXIT

mpoint() { get "mountinfo:$1" "$2" | sed -n 's/^mnt=\([^ ]*\).*/\1/p'; }

# mkwork NAME [PARENT]: a work directory the current mode's user owns, with a file and a
# subdirectory, in PARENT ($TMP unless given).
mkwork() {
	local d="${2:-$TMP}/$1-$MODE"
	mkdir -p "$d/dir/sub"
	echo content >"$d/file"
	chmod 0644 "$d/file"
	[ "$MODE" = unpriv ] && chown -R $UNPRIV_UID:$UNPRIV_GID "$d"
	echo "$d"
}

# with_submount DIR ARGS...: nsrun ARGS in a private mount namespace where DIR/sub
# is a separate (rw, suid, dev) tmpfs, so submount flags can be observed.
with_submount() {
	local dir=$1 pre=()
	shift
	[ "$MODE" = unpriv ] && pre=(setpriv --reuid="$UNPRIV_UID" --regid="$UNPRIV_GID" --clear-groups --)
	mkdir -p "$dir/sub"
	unshare -m --propagation private sh -c \
		'mount -t tmpfs -o mode=1777 nsrun-sub "$0/sub" && exec "$@"' \
		"$dir" "${pre[@]}" "$BIN/nsrun" "$@"
}

test_bind_flags() {
	local w d out
	w=$(mkwork flags)
	d=$(mkwork flags "$DEVFS")
	mknod -m 0666 "$d/null" c 1 3
	out=$(nsrun --ro-bind / / --tmpfs /mnt --bind "$w" /mnt/b --ro-bind "$w" /mnt/r \
		--dev-bind "$d" /mnt/d --bind "$d" /mnt/n "$PROBE" mountinfo /mnt/b mountinfo /mnt/r \
		mountinfo /mnt/d write /mnt/b/new write /mnt/r/new2 cat /mnt/r/file \
		open-errno /mnt/d/null w open-errno /mnt/n/null w 2>&1)
	check_eq "--bind: rw,nosuid,nodev" "rw,nosuid,nodev" "$(mflags /mnt/b "$out")"
	check_eq "--ro-bind: ro,nosuid,nodev" "ro,nosuid,nodev" "$(mflags /mnt/r "$out")"
	check_eq "--dev-bind: rw,nosuid (no nodev)" "rw,nosuid" "$(mflags /mnt/d "$out")"
	check_eq "--dev-bind: its device nodes work" "ok" "$(get open:/mnt/d/null "$out")"
	check_eq "--bind of the same: nodev" "errno=EACCES" "$(get open:/mnt/n/null "$out")"
	check_eq "--bind: writable" "ok" "$(get write:/mnt/b/new "$out")"
	check "--bind: the write reaches the host" test -f "$w/new"
	check_eq "--ro-bind: not writable" "errno=EROFS" "$(get write:/mnt/r/new2 "$out")"
	check_eq "--ro-bind: source content visible" 'content\n' "$(get cat:/mnt/r/file "$out")"
	out=$(nsrun --ro-bind / / --dev-bind /dev /dev "$PROBE" open-errno /dev/null w 2>&1)
	check_eq "--dev-bind /dev: devices usable" "open:/dev/null=ok" "$out"
	out=$(nsrun --ro-bind / / --bind /dev /dev "$PROBE" open-errno /dev/null w 2>&1)
	check_eq "--bind /dev: nodev blocks devices" "open:/dev/null=errno=EACCES" "$out"
}
for_each_mode test_bind_flags

# Binds of files (an agent runner's deny list is --ro-bind /dev/null FILE): on the mount(2)
# path their flags come from statvfs instead of mountinfo (make check-legacy runs this).
test_file_bind_flags() {
	local w out
	w=$(mkwork fileflags)
	out=$(nsrun --ro-bind / / --tmpfs /mnt --bind "$w/file" /mnt/fb --ro-bind "$w/file" /mnt/fr \
		--ro-bind /dev/null /mnt/dn --dev-bind /dev/null /mnt/dd "$PROBE" mountinfo /mnt/fb \
		mountinfo /mnt/fr mountinfo /mnt/dn mountinfo /mnt/dd write /mnt/fr \
		open-errno /mnt/dn r open-errno /mnt/dd r 2>&1)
	check_eq "--bind FILE: rw,nosuid,nodev" "rw,nosuid,nodev" "$(mflags /mnt/fb "$out")"
	check_eq "--ro-bind FILE: ro,nosuid,nodev" "ro,nosuid,nodev" "$(mflags /mnt/fr "$out")"
	check_eq "--ro-bind /dev/null FILE: ro,nosuid,nodev" "ro,nosuid,nodev" "$(mflags /mnt/dn "$out")"
	check_match "--dev-bind /dev/null FILE: rw,nosuid" "^rw,nosuid(,noexec)?$" "$(mflags /mnt/dd "$out")"
	check_eq "--ro-bind FILE: not writable" "errno=EROFS" "$(get write:/mnt/fr "$out")"
	check_eq "--ro-bind /dev/null FILE: cannot be opened" "errno=EACCES" "$(get open:/mnt/dn "$out")"
	check_eq "--dev-bind /dev/null FILE: opens" "ok" "$(get open:/mnt/dd "$out")"
}
for_each_mode test_file_bind_flags

test_submounts() {
	local w out
	if ! is_root; then
		skip "submount flags" "making a host submount needs root"
		return
	fi
	w=$(mkwork sub)
	out=$(with_submount "$w" --ro-bind / / --tmpfs /mnt --bind "$w" /mnt/b \
		--ro-bind "$w" /mnt/r --dev-bind "$w" /mnt/d --bind "$w" /mnt/x --remount-ro /mnt/x \
		"$PROBE" mountinfo /mnt/b/sub mountinfo /mnt/r/sub mountinfo /mnt/d/sub \
		mountinfo /mnt/x mountinfo /mnt/x/sub write /mnt/r/sub/f 2>&1)
	check_eq "--bind: submount is a separate mount" "/mnt/b/sub" "$(mpoint /mnt/b/sub "$out")"
	check_eq "--bind: submount rw,nosuid,nodev" "rw,nosuid,nodev" "$(mflags /mnt/b/sub "$out")"
	check_eq "--ro-bind: submount ro,nosuid,nodev" "ro,nosuid,nodev" "$(mflags /mnt/r/sub "$out")"
	check_eq "--ro-bind: submount not writable" "errno=EROFS" "$(get write:/mnt/r/sub/f "$out")"
	check_eq "--dev-bind: submount rw,nosuid" "rw,nosuid" "$(mflags /mnt/d/sub "$out")"
	check_eq "--remount-ro: the mount is ro" "ro,nosuid,nodev" "$(mflags /mnt/x "$out")"
	check_eq "--remount-ro: not recursive" "rw,nosuid,nodev" "$(mflags /mnt/x/sub "$out")"
}
for_each_mode test_submounts

test_missing_source() {
	local out rc w opt
	w=$(mkwork missing)
	for opt in --bind --ro-bind --dev-bind; do
		rm -f "$w/marker"
		out=$(bwrap_nsrun --ro-bind / / --bind "$w" "$w" $opt /nonexistent-nsrun-src /mnt \
			"$PROBE" write "$w/marker" 2>&1)
		rc=$?
		check_eq "$opt missing source: exit 1" 1 "$rc"
		check_eq "$opt missing source: message" \
			"bwrap: Can't find source path /nonexistent-nsrun-src: No such file or directory" "$out"
		check "$opt missing source: command not run" test ! -e "$w/marker"
	done
	out=$(nsrun --ro-bind / / --bind /nonexistent-nsrun-src /mnt "$PROBE" pid 2>&1)
	check_eq "nsrun name: message prefix" \
		"nsrun: Can't find source path /nonexistent-nsrun-src: No such file or directory" "$out"
	for opt in --bind-try --ro-bind-try --dev-bind-try; do
		out=$(nsrun --ro-bind / / --tmpfs /mnt $opt /nonexistent-nsrun-src /mnt/x \
			$opt "$w" /mnt/y "$PROBE" stat /mnt/x mountinfo /mnt/y 2>&1)
		rc=$?
		check_eq "$opt missing source: exit 0" 0 "$rc"
		check_eq "$opt missing source: skipped" "errno=ENOENT" "$(get stat:/mnt/x "$out")"
		check_eq "$opt existing source: mounted" "/mnt/y" "$(mpoint /mnt/y "$out")"
	done
	out=$(nsrun --ro-bind / / --tmpfs /mnt --ro-bind-try "$w" /mnt/y "$PROBE" mountinfo /mnt/y 2>&1)
	check_eq "--ro-bind-try: read-only" "ro,nosuid,nodev" "$(mflags /mnt/y "$out")"
	w=$(mkwork missing "$DEVFS")
	out=$(nsrun --ro-bind / / --tmpfs /mnt --dev-bind-try "$w" /mnt/y "$PROBE" mountinfo /mnt/y 2>&1)
	check_eq "--dev-bind-try: no nodev" "rw,nosuid" "$(mflags /mnt/y "$out")"
}
for_each_mode test_missing_source

test_remount_ro() {
	local w out
	w=$(mkwork remount)
	out=$(nsrun --ro-bind / / --bind "$w" /mnt --remount-ro /mnt "$PROBE" mountinfo /mnt write /mnt/f 2>&1)
	check_eq "--remount-ro: flags" "ro,nosuid,nodev" "$(mflags /mnt "$out")"
	check_eq "--remount-ro: write fails" "errno=EROFS" "$(get write:/mnt/f "$out")"
	out=$(nsrun --ro-bind / / --tmpfs /mnt --remount-ro /mnt "$PROBE" mountinfo /mnt 2>&1)
	check_eq "--remount-ro on a tmpfs" "ro,nosuid,nodev" "$(mflags /mnt "$out")"
}
for_each_mode test_remount_ro

# Mount points made for binds: directories 0755, files 0444 (seen after unmounting).
test_mountpoint_modes() {
	local w out
	w=$(mkwork mp)
	chmod 0600 "$w/file"
	chmod 0700 "$w/dir"
	out=$(nsrun --ro-bind / / --tmpfs /mnt --ro-bind "$w/file" /mnt/f --ro-bind "$w/dir" /mnt/d \
		--cap-add CAP_SYS_ADMIN "$PROBE" stat /mnt/f stat /mnt/d umount /mnt/f umount /mnt/d \
		stat /mnt/f stat /mnt/d 2>&1)
	check_match "file bind shows the source mode" '^stat:/mnt/f=file mode=0600' "$out"
	check_eq "unmounted" "ok ok" "$(get umount:/mnt/f "$out") $(get umount:/mnt/d "$out")"
	check_eq "file mount point is mode 0444" "file mode=0444" \
		"$(printf '%s\n' "$out" | grep '^stat:/mnt/f=' | tail -n1 | sed 's/^stat:[^=]*=//;s/ uid.*//')"
	check_eq "directory mount point is mode 0755" "dir mode=0755" \
		"$(printf '%s\n' "$out" | grep '^stat:/mnt/d=' | tail -n1 | sed 's/^stat:[^=]*=//;s/ uid.*//')"
}
for_each_mode test_mountpoint_modes

test_symlink_dest() {
	local w out
	w=$(mkwork link)
	out=$(nsrun --ro-bind / / --tmpfs /mnt --dir /mnt/real --symlink real /mnt/rel \
		--ro-bind "$w" /mnt/rel/x "$PROBE" mountinfo /mnt/real/x ls /mnt/real/x 2>&1)
	check_eq "relative symlink in the destination: followed in the sandbox" "/mnt/real/x" \
		"$(mpoint /mnt/real/x "$out")"
	check_eq "relative symlink: source visible" "dir file" "$(get ls:/mnt/real/x "$out")"
	# An absolute link must resolve against the sandbox root, not the host or staging root.
	out=$(nsrun --ro-bind / / --tmpfs /mnt --dir /mnt/real --symlink /mnt/real /mnt/abs \
		--ro-bind "$w" /mnt/abs/x "$PROBE" mountinfo /mnt/real/x ls /mnt/real/x 2>&1)
	check_eq "absolute symlink in the destination: resolved inside the sandbox" "/mnt/real/x" \
		"$(mpoint /mnt/real/x "$out")"
	check_eq "absolute symlink: source visible" "dir file" "$(get ls:/mnt/real/x "$out")"
	# A symlink as the destination itself is not mounted through (bwrap 0.12+).
	out=$(nsrun --ro-bind / / --tmpfs /mnt --dir /mnt/real --symlink /mnt/real /mnt/abs \
		--ro-bind "$w" /mnt/abs "$PROBE" pid 2>&1)
	check_eq "a symlink destination is refused" \
		"nsrun: Can't mount on symlink destination /mnt/abs" "$out"
}
for_each_mode test_symlink_dest

# The probe lives under $TMP in /tmp, so these cases bind it to /pbin in an empty root.
test_staging_invisible() {
	local w out p=/pbin/nsrun-probe
	w=$(mkwork stage)
	out=$(nsrun --ro-bind "$BIN" /pbin --bind "$w" /tmp $p ls /tmp stat /tmp/newroot stat /tmp/oldroot 2>&1)
	check_eq "--bind DIR /tmp: only DIR's entries" "dir file" "$(get ls:/tmp "$out")"
	check_eq "--bind DIR /tmp: no /tmp/newroot" "errno=ENOENT" "$(get stat:/tmp/newroot "$out")"
	check_eq "--bind DIR /tmp: no /tmp/oldroot" "errno=ENOENT" "$(get stat:/tmp/oldroot "$out")"
	out=$(nsrun --ro-bind "$BIN" /pbin --bind "$w" /tmp --bind "$w/dir" /tmp/dir/sub $p ls /tmp 2>&1)
	check_eq "binds inside /tmp: nothing extra" "dir file" "$(get ls:/tmp "$out")"
	out=$(nsrun --ro-bind "$BIN" /pbin --tmpfs /tmp $p ls /tmp 2>&1)
	check_eq "--tmpfs /tmp: empty" "ls:/tmp=" "$out"
	out=$(nsrun --ro-bind "$BIN" /pbin $p ls / 2>&1)
	check_eq "the root holds only what the options create" "ls:/=pbin" "$out"
	out=$(nsrun --ro-bind / / "$PROBE" stat /tmp/newroot stat /tmp/oldroot stat /oldroot stat /newroot 2>&1)
	check_nomatch "--ro-bind / /: no staging directories" '=(dir|file)' "$out"
}
for_each_mode test_staging_invisible

# A recursive bind over a tree that already holds mounts (--tmpfs, --proc, --dev, an
# earlier bind) covers them: the flags go to the new tree's mounts only. On the mount(2)
# path (make check-legacy) the covered ones were remounted by a path that now reaches
# something else (EINVAL on /newroot/proc/sys, /newroot/dev/console).
test_bind_over_mounts() {
	local out
	out=$(nsrun --tmpfs /tmp --bind / / true 2>&1)
	check_eq "--tmpfs /tmp, then --bind / /: runs" "0 " "$? $out"
	out=$(nsrun --bind / / --proc /proc --dev /dev --bind / / true 2>&1)
	check_eq "--bind / / --proc --dev, then --bind / / again: runs" "0 " "$? $out"
	out=$(nsrun --bind / / --proc /proc --dev /dev --ro-bind / / sh -c 'touch /tmp/x' 2>&1)
	check_match "--ro-bind / / over earlier mounts: read-only all the way down" \
		'Read-only file system' "$out"
}
for_each_mode test_bind_over_mounts

# A bind of the host's "/" on "/" in a sandbox where nothing else reads the host: nsrun
# moves the namespace's copy of the host's tree onto the new root rather than copying it
# again (rootfs.c adopt_root). The sandbox must not tell: the same mounts, flags and
# propagation as a copy (each mount a slave of the host's: one the host mounts later
# shows up inside), the ops after it work alike, a tree with an unbindable mount is
# copied (a copy leaves those out), and a shape with another host source copies.
# NOCOPY: an op that reads the host (a -try bind of a missing source: nothing is
# mounted), so that the same sandbox is built by a copy.
NOCOPY=(--ro-bind-try /nonexistent-nsrun-t-mounts /nonexistent-nsrun-t-mounts)
SHR=$TMP/shared
mkdir "$SHR"
mount -t tmpfs nsrun-shared "$SHR" && mount --make-shared "$SHR" || skip_all "cannot mount a shared tmpfs on $SHR"
trap 'umount -R "$SHR"; umount "$DEVFS"; cleanup_tmp' EXIT

# RM_NS: options test_root_moved passes to every nsrun (a mode of its own).
RM_NS=()
moved_or_not() {
	local out
	out=$(NSRUN_DEBUG=1 nsrun "${RM_NS[@]}" "$@" true 2>&1)
	case $out in
	*"moved onto the new root"*) echo moved ;;
	*) echo copied ;;
	esac
}

test_root_moved() {
	local moved copied ops out ready count want=moved
	# the mount(2) path (make check-legacy) copies: the move needs the new mount API
	case ${NSRUN_FORCE_ENOSYS:-} in *mount-api*) want=copied ;; esac
	check_eq "--ro-bind / / alone: the host's tree is $want" $want "$(moved_or_not --ro-bind / /)"
	check_eq "--bind / / with --proc (pid namespace), --tmpfs, --dir, --symlink: $want" $want \
		"$(moved_or_not --bind / / --unshare-pid --proc /proc --tmpfs /tmp --dir /tmp/d --symlink d /tmp/l)"
	check_eq "(control) with ${NOCOPY[*]}: copied" copied "$(moved_or_not --ro-bind / / "${NOCOPY[@]}")"
	check_eq "with --dev /dev (host nodes): copied" copied "$(moved_or_not --ro-bind / / --dev /dev)"
	check_eq "with --proc and no pid namespace (the host's, bound): copied" copied \
		"$(moved_or_not --ro-bind / / --proc /proc)"
	check_eq "with another bind: copied" copied "$(moved_or_not --ro-bind / / --bind "$TMP" "$TMP")"
	check_eq "--ro-bind / /x (not on /): copied" copied "$(moved_or_not --ro-bind / /x)"
	moved=$(nsrun "${RM_NS[@]}" --ro-bind / / cat /proc/self/mountinfo 2>&1 | cut -d' ' -f3-)
	copied=$(nsrun "${RM_NS[@]}" --ro-bind / / "${NOCOPY[@]}" cat /proc/self/mountinfo 2>&1 | cut -d' ' -f3-)
	check_eq "moved or copied: the same mounts, flags and propagation" "$copied" "$moved"
	check_match "(control) the shared host mount is a slave of it inside" \
		"master:[0-9]+ - tmpfs nsrun-shared " "$moved"
	ops=(--ro-bind / / --unshare-pid --unshare-ipc --proc /proc --tmpfs /mnt --dir /mnt/d --chmod 0700 /mnt/d
		--symlink d /mnt/l --file 3 /mnt/f --ro-bind-data 4 /mnt/b --mqueue /mnt/mq --remount-ro /mnt)
	moved=$(nsrun "${RM_NS[@]}" "${ops[@]}" "$PROBE" stat /mnt/d readlink /mnt/l cat /mnt/f cat /mnt/b \
		mountinfo /mnt mountinfo /mnt/b mountinfo /proc mountinfo /mnt/mq write /mnt/x pid 2>&1 3<<<file 4<<<data)
	copied=$(nsrun "${RM_NS[@]}" "${ops[@]}" "${NOCOPY[@]}" "$PROBE" stat /mnt/d readlink /mnt/l cat /mnt/f cat /mnt/b \
		mountinfo /mnt mountinfo /mnt/b mountinfo /proc mountinfo /mnt/mq write /mnt/x pid 2>&1 3<<<file 4<<<data)
	check_eq "the ops after it (tmpfs, dir, chmod, symlink, file, data, mqueue, remount-ro, proc): as after a copy" \
		"$copied" "$moved"
	check_match "(control) --chmod ran" '^stat:/mnt/d=dir mode=0700 ' "$moved"
	check_match "(control) --ro-bind-data ran" '^cat:/mnt/b=data' "$moved"
	# chmod and the data binds go through /proc/self/fd, which a later op covering /proc
	# must not break (the staging root keeps a /proc of its own)
	ops=(--ro-bind / / --tmpfs /proc --tmpfs /mnt --dir /mnt/d --chmod 0700 /mnt/d --ro-bind-data 3 /mnt/b)
	check_eq "with /proc covered by a later --tmpfs: $want" $want "$(moved_or_not "${ops[@]}" 3<<<data)"
	moved=$(nsrun "${RM_NS[@]}" "${ops[@]}" "$PROBE" stat /mnt/d cat /mnt/b 2>&1 3<<<data)
	copied=$(nsrun "${RM_NS[@]}" "${ops[@]}" "${NOCOPY[@]}" "$PROBE" stat /mnt/d cat /mnt/b 2>&1 3<<<data)
	check_eq "with /proc covered: --chmod and --ro-bind-data work as after a copy" "$copied" "$moved"
	check_match "(control) --ro-bind-data ran with /proc covered" '^cat:/mnt/b=data' "$moved"
	# a host mount made while the sandbox runs reaches it (it is a slave, as a copy is)
	coproc SANDBOX { nsrun "${RM_NS[@]}" --ro-bind / / sh -c 'echo ready; read -r _; grep -c " $0/late " /proc/self/mountinfo' "$SHR" 2>&1; }
	read -r ready <&"${SANDBOX[0]}"
	mkdir -p "$SHR/late"
	mount -t tmpfs nsrun-late "$SHR/late"
	echo go >&"${SANDBOX[1]}"
	read -r count <&"${SANDBOX[0]}"
	wait "$SANDBOX_PID"
	umount "$SHR/late"
	check_eq "a host mount made while it runs shows up inside" "ready 1" "$ready $count"
}
is_root && for_each_mode test_root_moved
# root in a user namespace of its own: the copy's mounts are locked there
if is_root; then
	MODE=root+userns RM_NS=(--unshare-user)
	test_root_moved
	MODE=root RM_NS=()
fi

# An unbindable mount (which a copy leaves out; a mount namespace's own copy keeps it, and
# MS_SLAVE does not clear it on every kernel) gets the tree copied, and the sandbox shows
# what bwrap's does either way.
# ub_view NSRUN-ARGS...: what nsrun's sandbox shows of an unbindable tmpfs mounted for it.
ub_view() {
	unshare -m --propagation private sh -c 'mkdir -p "$0" && mount -t tmpfs nsrun-ub "$0" &&
		touch "$0/inside" && mount --make-unbindable "$0" &&
		grep -q " $0 .* unbindable " /proc/self/mountinfo && exec "$@" sh -c \
		"ls \"\$0\"; grep -c \" \$0 \" /proc/self/mountinfo" "$0"' "$TMP/ub" "$BIN/nsrun" "$@" 2>&1
}

test_root_unbindable() {
	check_eq "an unbindable host mount: the sandbox shows what a copy shows" \
		"$(ub_view --ro-bind / / "${NOCOPY[@]}")" "$(ub_view --ro-bind / /)"
}
is_root && test_root_unbindable

# The mount(2) path keeps a submount's own restrictions, nosymfollow included: the flags
# come from mountinfo, which lists it (Linux 5.10).
test_legacy_keeps_nosymfollow() {
	local w="$TMP/nosymfollow" out
	mkdir -p "$w/sub"
	out=$(unshare -m --propagation private sh -c 'mount -t tmpfs -o nosymfollow nsrun-t "$1/sub" &&
		exec "$2" --debug-opt=force-mount-setattr-fallback --ro-bind / / --ro-bind "$1" /mnt \
			"$3" mountinfo /mnt/sub' sh "$w" "$BIN/nsrun" "$PROBE" 2>&1)
	check_match "mount(2) path: a nosymfollow submount keeps it" \
		'opts=[^ ]*ro,[^ ]*nosymfollow' "$(get mountinfo:/mnt/sub "$out")"
}
is_root && test_legacy_keeps_nosymfollow

done_testing
