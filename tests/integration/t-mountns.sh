#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-mountns.sh: --mountns FD (the sandbox is built from a copy of an existing mount
# namespace, which the run leaves as it was; root, root with --unshare-user, and uid 65534
# through --userns; the errors for a namespace it may not join and for an fd that is not
# a mount namespace), and the fallback where pivot_root(2) cannot work because the root
# is the initial ramfs (tests/integration/initramfs-run.py makes that situation): the sandbox
# runs, shows only its own tree, and nothing walks out of it; a command that keeps
# CAP_SYS_ADMIN is refused (126).
. "$top_srcdir/tests/integration/lib.sh"
need_ns

PY=/usr/bin/python3
INITRAMFS_RUN="$top_srcdir/tests/integration/initramfs-run.py"

# holder DIR TAG: a process of the current mode's user that holds a private mount
# namespace where a tmpfs on DIR has a file "marker" saying "in-ns"; sets HP to its pid.
holder() {
	local d=$1 tag=$2 how=(unshare -m --propagation private)
	[ "$MODE" = unpriv ] && how=(setpriv "--reuid=$UNPRIV_UID" "--regid=$UNPRIV_GID" --clear-groups -- unshare -Urm --propagation private)
	"${how[@]}" sh -c 'mount -t tmpfs mountns-test "$1" && echo in-ns >"$1/marker" && exec sleep "$2"' \
		sh "$d" "$tag" >/dev/null 2>&1 &
	HP=$(wait_pgrep -f "^sleep $tag\$")
}

test_mountns() {
	local d tag hp before after out want cwd j=()
	d=$(mode_dir mnt)
	cwd=$(mode_dir cwd)
	tag=72.$RANDOM
	holder "$d" "$tag"
	hp=$HP
	check "the host does not see the namespace's marker" test ! -e "$d/marker"
	before=$(cat "/proc/$hp/mountinfo")
	want=$(readlink "/proc/$hp/ns/mnt")
	# As a user, joining needs the owner's user namespace (kernel rule, as --netns).
	[ "$MODE" = unpriv ] && j=(--userns 3)
	for extra in "" --unshare-user; do
		[ "$MODE" = unpriv ] && [ -n "$extra" ] && continue
		out=$(nsrun "${j[@]}" --mountns 4 $extra --ro-bind / / cat "$d/marker" \
			3<"/proc/$hp/ns/user" 4<"/proc/$hp/ns/mnt" 2>&1)
		check_eq "--mountns $extra: the sandbox sees the joined namespace's marker" in-ns "$out"
		# The sandbox's own mounts and its pivots act on a copy.
		# From a directory the mode's user may enter (a checkout under a 0700 /root is not).
		out=$(cd "$cwd" && nsrun "${j[@]}" --mountns 4 $extra --bind / / --tmpfs "$d/sub" --dir "$d/sub/x" \
			sh -c 'readlink /proc/self/ns/mnt; pwd; ls "$1"' sh "$d/sub" \
			3<"/proc/$hp/ns/user" 4<"/proc/$hp/ns/mnt" 2>&1)
		check "--mountns $extra: the sandbox has its own mount namespace" \
			test "$(echo "$out" | head -n1)" != "$want" -a -n "$out"
		check_eq "--mountns $extra: the working directory is the caller's, the ops ran" \
			"$cwd x" "$(echo "$out" | tail -n +2 | paste -sd' ')"
		after=$(cat "/proc/$hp/mountinfo")
		check_eq "--mountns $extra: the joined namespace's mounts are unchanged" "$before" "$after"
	done
	check "the host still does not see the marker" test ! -e "$d/marker"
	if [ "$MODE" = unpriv ]; then
		out=$(nsrun --mountns 4 --ro-bind / / cat "$d/marker" 4<"/proc/$hp/ns/mnt" 2>&1)
		check_eq "unprivileged without --userns: one line, exit 1" \
			"1 nsrun: --mountns 4: joining needs CAP_SYS_ADMIN over the user namespace that owns it; pass that one with --userns: Operation not permitted" \
			"$? $out"
		# Its own user namespace gives a user nothing over a namespace root made.
		local rp rtag=73.$RANDOM
		MODE=root
		holder "$(mode_dir mnt)" "$rtag"
		rp=$HP
		MODE=unpriv
		out=$(nsrun --userns 3 --mountns 4 --ro-bind / / true 3<"/proc/$hp/ns/user" \
			4<"/proc/$rp/ns/mnt" 2>&1)
		check_eq "unprivileged, a namespace root owns: refused by the kernel, exit 1" \
			"1 nsrun: --mountns 4: setns: Operation not permitted" "$? $out"
		kill "$rp"
	fi
	err_case "an fd that is not a mount namespace" "bwrap: --mountns 4: not a mount namespace" \
		--ro-bind / / --mountns 4 4</proc/self/ns/net
	err_case "an fd that is not open" "bwrap: --mountns 9: setns: Bad file descriptor" \
		--ro-bind / / --mountns 9
	err_case "with --landlock-only" "bwrap: --landlock-only cannot be combined with --mountns" \
		--landlock-only --mountns 4 4<"/proc/$hp/ns/mnt"
	err_case "with --fallback" "bwrap: --fallback cannot be combined with --mountns" \
		--fallback proc --ro-bind / / --mountns 4 4<"/proc/$hp/ns/mnt"
	kill "$hp"
	wait
}
for_each_mode test_mountns

# Root joining a namespace an unprivileged user owns: the user controls its mounts (and
# can change them during the run), including the /proc nsrun's setup works through, so
# nsrun refuses (126). In a namespace root owns, nothing nsrun runs or reads as itself
# comes from its tree either: junk over libmount (which --overlay-hide loads) does not
# reach nsrun, and the monitor looks paths up in the caller's tree.
test_hostile_owner() {
	local d=$TMP/hostile tag=74.$RANDOM lib hp up out mon
	[ "$MODE" = root ] || return 0
	mkdir -p "$d/mnt"
	echo junk >"$d/junk.so"
	lib=$(readlink -f "$(ldconfig -p | awk '/libmount\.so\.1 / { print $NF; exit }')")
	setpriv "--reuid=$UNPRIV_UID" "--regid=$UNPRIV_GID" --clear-groups -- \
		unshare -Urm sleep "${tag}1" >/dev/null 2>&1 &
	up=$(wait_pgrep -f "^sleep ${tag}1\$")
	for j in "" "--userns 3"; do
		# shellcheck disable=SC2086
		out=$(nsrun $j --mountns 4 --ro-bind / / echo COMMAND-RAN 3<"/proc/$up/ns/user" \
			4<"/proc/$up/ns/mnt" 2>&1)
		check_eq "a user's namespace joined by root${j:+ with $j}: refused, exit 126" \
			"126 nsrun: --mountns 4: the namespace belongs to uid $UNPRIV_UID, who can change the mounts nsrun would set the sandbox up with" \
			"$? $out"
	done
	kill "$up"
	unshare -m --propagation private sh -c 'mount -t tmpfs hostile "$3" &&
		echo in-ns >"$3/marker" && mount --bind "$1" "$2" && exec sleep "$4"' \
		sh "$d/junk.so" "$lib" "$d/mnt" "$tag" >/dev/null 2>&1 &
	hp=$(wait_pgrep -f "^sleep $tag\$")
	out=$(nsrun --mountns 4 --ro-bind / / --overlay-hide /etc/hostname cat "$d/mnt/marker" \
		4<"/proc/$hp/ns/mnt" 2>&1)
	check_eq "--mountns: libmount is not loaded from the joined namespace" "0 in-ns" "$? $out"
	nsrun --mountns 4 --ro-bind / / --unshare-pid --timeout 20 sleep "${tag}9" \
		4<"/proc/$hp/ns/mnt" &
	# Once the command runs, the monitor has made the sandbox and settled.
	wait_pgrep -f "^sleep ${tag}9\$" >/dev/null
	mon=$(pgrep -o -f "nsrun --mountns 4 .*sleep ${tag}9\$")
	check "--mountns: the monitor looks paths up in the caller's tree" \
		test -d "/proc/$mon/root$d/mnt" -a ! -e "/proc/$mon/root$d/mnt/marker"
	pkill -f "^sleep ${tag}9\$"
	kill "$hp"
	wait
}
for_each_mode test_hostile_owner

# ---- pivot_root's fallback: a root that is the initial ramfs ----

ESCAPE="$TMP/escape.py"
cat >"$ESCAPE" <<'PY'
# What a command tries to reach the root it was started from: chroot into a
# subdirectory and walk "..", unmount its root, /proc/1/root, /proc/self/root/..,
# mountinfo's mount points. Prints one line of what each saw.
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
res = []
os.makedirs("/tmp/x", exist_ok=True)
fd = os.open("/", os.O_RDONLY)
try:
    os.chroot("/tmp/x"); os.fchdir(fd)
    for i in range(20):
        os.chdir("..")
    os.chroot(".")
    res.append("chroot-walk=" + ",".join(sorted(os.listdir("/"))))
except OSError as e:
    res.append("chroot-walk=" + e.strerror)
r = libc.umount2(b"/", 2)
res.append("umount=%s" % ("done" if r == 0 else os.strerror(ctypes.get_errno())))
for p in ("/proc/1/root", "/proc/self/root/.."):
    res.append(p + "=" + ",".join(sorted(os.listdir(p))))
with open("/proc/self/mountinfo") as f:
    res.append("mounts=" + ",".join(sorted(l.split()[4] for l in f)))
print(" ".join(res))
PY

# The sandbox from the ramfs: the host's /usr, through the copy the helper mounted.
RAMFS_SB="--ro-bind /nsrun-usr /usr --symlink usr/lib64 /lib64 --symlink usr/bin /bin
	--symlink usr/lib /lib --proc /proc --unshare-pid --tmpfs /tmp"

ramfs_run() {
	local uid=0
	[ "$MODE" = unpriv ] && uid=$UNPRIV_UID
	# make check-legacy: the mount(2) path, as run_wrapped does for the other suites.
	# shellcheck disable=SC2086
	INITRAMFS_WRAP=${NSRUN_FORCE_ENOSYS:+$BIN/force-enosys $NSRUN_FORCE_ENOSYS} \
		"$PY" "$INITRAMFS_RUN" "$uid" "$BIN/nsrun" $RAMFS_SB "$@" 7<"$ESCAPE"
}

ramfs_probe() {
	local out
	out=$(NSRUN_DEBUG=1 ramfs_run --cap-drop CAP_SYS_ADMIN true 2>&1)
	case $out in
	*"setup:"*) diag "cannot make a root on the initial ramfs here: $out" && return 2 ;;
	*"the root is the initial ramfs"*) return 0 ;;
	*) diag "pivot_root works from this kernel's initial ramfs: $out" && return 1 ;;
	esac
}

test_ramfs() {
	local out rc caps
	# The sandbox's uid 0 (root, and root with --unshare-user) keeps every capability; a
	# user's command keeps none unless asked (--cap-add, below).
	for caps in "" --unshare-user; do
		[ "$MODE" = unpriv ] && continue
		out=$(ramfs_run $caps echo COMMAND-RAN 2>&1)
		rc=$?
		check_eq "initial ramfs, $caps with CAP_SYS_ADMIN: refused, exit 126" 126 "$rc"
		check_match "initial ramfs, $caps with CAP_SYS_ADMIN: the message says why" \
			"^nsrun: pivot_root: Invalid argument: the root is the initial ramfs, .*CAP_SYS_ADMIN.*--cap-drop CAP_SYS_ADMIN" "$out"
		check "initial ramfs, $caps with CAP_SYS_ADMIN: the command did not run" \
			test "${out/COMMAND-RAN/}" = "$out"
	done
	for caps in "--cap-drop CAP_SYS_ADMIN" "--unshare-user --cap-drop CAP_SYS_ADMIN" ""; do
		[ "$MODE" = unpriv ] && [ "$caps" != "" ] && continue
		[ "$MODE" = root ] && [ "$caps" = "" ] && continue
		out=$(NSRUN_DEBUG=1 ramfs_run $caps --ro-bind-data 7 /e.py python3 /e.py 2>&1)
		rc=$?
		check_eq "initial ramfs, ${caps:-a user}: the sandbox runs" 0 "$rc"
		check_match "initial ramfs, ${caps:-a user}: through the fallback" \
			"the root is the initial ramfs; moving the staging tmpfs over it" "$out"
		out=$(echo "$out" | grep -v "^nsrun\[")
		check_match "initial ramfs, ${caps:-a user}: chroot and '..' come back to the sandbox's root" \
			"chroot-walk=(bin,e.py,lib,lib64,proc,tmp,usr|Operation not permitted) " "$out"
		check_match "initial ramfs, ${caps:-a user}: the command cannot unmount its root" \
			"umount=Operation not permitted " "$out"
		check_match "initial ramfs, ${caps:-a user}: /proc/1/root and /proc/self/root/.. are the sandbox's" \
			"/proc/1/root=bin,e.py,lib,lib64,proc,tmp,usr /proc/self/root/..=bin,e.py,lib,lib64,proc,tmp,usr " "$out"
		check_match "initial ramfs, ${caps:-a user}: mountinfo shows the sandbox's mounts only" \
			"mounts=/,/e.py,/proc(,/proc/[a-z_/]*)*,/tmp,/usr$" "$out"
		check "initial ramfs, ${caps:-a user}: nothing of the ramfs shows" \
			test "${out/nsrun-usr/}" = "$out"
	done
	out=$(ramfs_run --cap-add CAP_SYS_ADMIN echo COMMAND-RAN 2>&1)
	check_eq "initial ramfs, --cap-add CAP_SYS_ADMIN: refused, exit 126" 126 "$?"
	check "initial ramfs, --cap-add CAP_SYS_ADMIN: the command did not run" \
		test "${out/COMMAND-RAN/}" = "$out"
}

ramfs_probe
case $? in
0) for_each_mode test_ramfs ;;
1)
	# The kernel mounts the ramfs on something (pivot_root then works): the sandbox
	# runs as on any host, the fallback unused.
	skip "initial ramfs: the fallback" "pivot_root works from this kernel's initial ramfs"
	;;
*)
	if [ "${NSRUN_MUST_WORK:-}" = 1 ]; then
		not_ok "initial ramfs: the situation could be made"
	else
		skip "initial ramfs: the fallback" "the situation cannot be made here"
	fi
	;;
esac

# A chroot into a plain directory is not this case: the mount holding the directory cannot
# be named from inside, so it cannot be made a slave, and nsrun stops before mounting.
test_plain_chroot() {
	local c="$TMP/plain-chroot" out
	mkdir -p "$c"
	out=$(unshare -m --propagation private sh -c 'cd "$1" && mkdir -p tmp usr proc &&
		mount --rbind /usr usr && mount -t proc proc proc && ln -s usr/lib lib &&
		ln -s usr/lib64 lib64 && ln -s usr/bin bin && cp "$2" tmp/nsrun &&
		chroot . /tmp/nsrun --ro-bind / / --tmpfs /tmp echo COMMAND-RAN' sh "$c" "$BIN/nsrun" 2>&1)
	check_eq "a chroot into a plain directory: refused before any mount, exit 1" \
		"1 nsrun: Failed to make / slave: Invalid argument" "$? $out"
	# A root that is a mount point on a shared mount: pivot_root(2) says EINVAL too, but
	# the root is not the initial ramfs, so the error stays bwrap's (no fallback).
	local caps
	for caps in "" "--cap-drop CAP_SYS_ADMIN"; do
		# shellcheck disable=SC2086
		out=$(unshare -m --propagation private sh -c 'mount --make-rshared / &&
			mount --bind "$1" "$1" && cd "$1" && mount --rbind /usr usr &&
			mount -t proc proc proc && chroot . /tmp/nsrun --ro-bind / / $2 \
			echo COMMAND-RAN' sh "$c" "$caps" 2>&1)
		check_eq "a root on a shared mount, ${caps:-all caps}: pivot_root's error, exit 1" \
			"1 nsrun: pivot_root: Invalid argument" "$? $out"
	done
}
test_plain_chroot

done_testing
