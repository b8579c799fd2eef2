#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-bwrap13.sh: what bubblewrap 0.12 and 0.13 added. --not-a-security-boundary (a bind's
# submount that cannot be remounted is a warning, anything else still fails), the hidden
# --debug-opt (print-assumed-kernel, force-mount-setattr-fallback, force-openat-fallback)
# and the refusal of empty path arguments (`--bind-try "" ""` must not bind the host).
. "$top_srcdir/tests/integration/lib.sh"
need_ns

FUSE_BROKEN=${NSRUN_HELPERS:-}/fuse-broken
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 # LSan cannot run under strace

# A directory of the current mode's user, with a file.
mkwork() {
	local d="$TMP/$1-$MODE"
	mkdir -p "$d/sub"
	echo content >"$d/file"
	[ "$MODE" = unpriv ] && chown -R $UNPRIV_UID:$UNPRIV_GID "$d"
	echo "$d"
}

# with_broken DIR [WRAPPER...] ++ ARGS...: nsrun ARGS (in the current mode, under the
# optional WRAPPER) in a private mount namespace where DIR/sub is a FUSE mount that
# answers statfs() with EIO, like an unreachable network mount: the mount(2) path cannot
# remount it. The server lives in that namespace, so it is unmounted when ARGS are done.
with_broken() {
	local dir=$1 wrap=() pre=()
	shift
	while [ "$1" != ++ ]; do
		wrap+=("$1")
		shift
	done
	shift
	[ "$MODE" = unpriv ] && pre=(setpriv --reuid="$UNPRIV_UID" --regid="$UNPRIV_GID" --clear-groups --)
	unshare -m --propagation private sh -c \
		'"$0" "$1/sub" || exit; d=$1; shift; "$@"; rc=$?; umount -l "$d/sub"; exit $rc' \
		"$FUSE_BROKEN" "$dir" "${wrap[@]}" "${pre[@]}" "$BIN/nsrun" "$@"
}

# each_mode_with_fuse FN: for_each_mode FN, where /dev/fuse can serve with_broken.
each_mode_with_fuse() {
	if [ -c /dev/fuse ]; then
		for_each_mode "$1"
	else
		skip "$1" "no /dev/fuse for the broken-submount fixture"
	fi
}

FORCE=--debug-opt=force-mount-setattr-fallback
NOTSEC=--not-a-security-boundary
# The probe and nothing of $TMP but what a case binds.
ROOT=(--ro-bind /usr /usr --ro-bind "$BIN" "$BIN" --proc /proc)

test_fixture() {
	local w out
	w=$(mkwork fixture)
	# The fixture must really break the fallback, or the cases below prove nothing.
	out=$(unshare -m --propagation private sh -c '"$0" "$1/sub" && stat -f "$1/sub"; umount -l "$1/sub"' \
		"$FUSE_BROKEN" "$w" 2>&1)
	check_match "fixture: statfs on the broken submount fails with EIO" 'Input/output error' "$out"
	# The fd-based path sets the flags on the whole copy at once: nothing to tolerate.
	out=$(with_broken "$w" ++ --ro-bind / / --ro-bind "$w" /mnt "$PROBE" mountinfo /mnt/sub cat /mnt/file 2>&1)
	check_eq "fast path: --ro-bind over the broken submount works" 'content\n' "$(get cat:/mnt/file "$out")"
	check_eq "fast path: the submount is ro,nosuid,nodev" "ro,nosuid,nodev" "$(mflags /mnt/sub "$out")"
}
each_mode_with_fuse test_fixture

# bwrap 0.12+ keeps a submount's flags from mountinfo, not statfs(2), so the mount(2)
# path binds over a submount that answers statfs with EIO (a dead network or FUSE mount).
test_broken_submount() {
	local w out opt want
	w=$(mkwork broken)
	for opt in --bind --ro-bind --dev-bind; do
		out=$(with_broken "$w" ++ "$FORCE" "${ROOT[@]}" $opt "$w" /mnt \
			"$PROBE" cat /mnt/file mountinfo /mnt/sub 2>&1)
		check_eq "fallback, $opt over a submount statfs cannot read: binds" 'content\n' \
			"$(get cat:/mnt/file "$out")"
		case $opt in
		--bind) want=rw,nosuid,nodev ;;
		--ro-bind) want=ro,nosuid,nodev ;;
		*) want=rw,nosuid ;;
		esac
		check_eq "fallback, $opt: the submount gets the bind's flags" "$want" "$(mflags /mnt/sub "$out")"
	done
	# The same when the kernel lacks the new mount API (`make check-legacy`'s switch).
	out=$(with_broken "$w" "$BIN/force-enosys" mount-api -- ++ "${ROOT[@]}" --ro-bind "$w" /mnt \
		"$PROBE" cat /mnt/file 2>&1)
	check_eq "mount API answering ENOSYS: binds too" 'content\n' "$(get cat:/mnt/file "$out")"
}
each_mode_with_fuse test_broken_submount

# The case bwrap 0.12's --not-a-security-boundary was written for: a submount whose flags
# are locked (mounted by a more privileged user namespace) with strictatime, which
# mountinfo does not list, so the mount(2) path's remount asks for relatime and the kernel
# refuses (EPERM). Only a user namespace sees locked flags: root's sandbox has none.
test_locked_atime() {
	local w out rc pre=()
	w=$(mkwork locked)
	[ "$MODE" = unpriv ] && pre=(setpriv --reuid="$UNPRIV_UID" --regid="$UNPRIV_GID" --clear-groups --)
	locked() {
		unshare -m --propagation private sh -c \
			'mount -t tmpfs -o strictatime,nodiratime nsrun-locked "$0/sub" && exec "$@"' \
			"$w" "${pre[@]}" "$BIN/nsrun" "$@"
	}
	out=$(locked "$FORCE" "${ROOT[@]}" --bind "$w" /mnt "$PROBE" cat /mnt/file 2>&1)
	rc=$?
	if [ "$MODE" = unpriv ]; then
		check_eq "locked strictatime submount, fallback: fails" 1 "$rc"
		check_eq "locked strictatime submount, fallback: bwrap's message" \
			"nsrun: Can't bind mount $w on /mnt: Unable to apply mount flags: remount \"/newroot/mnt/sub\": Operation not permitted" "$out"
	else
		check_eq "strictatime submount, fallback: root's flags are not locked" 'content\n' \
			"$(get cat:/mnt/file "$out")"
	fi
	out=$(locked "$FORCE" $NOTSEC "${ROOT[@]}" --bind "$w" /mnt "$PROBE" cat /mnt/file 2>&1)
	check_eq "strictatime submount, fallback, $NOTSEC: runs" 'content\n' "$(get cat:/mnt/file "$out")"
	if [ "$MODE" = unpriv ]; then
		check_match "locked strictatime submount, $NOTSEC: bwrap's warning" \
			"^nsrun: Can't remount /newroot/mnt/sub submount \\(Operation not permitted\\), ignoring error\$" "$out"
		# The top of a bind must take its flags, whatever the option says.
		out=$(locked "$FORCE" $NOTSEC "${ROOT[@]}" --bind "$w/sub" /mnt "$PROBE" pid 2>&1)
		rc=$?
		check_eq "$NOTSEC: a bind whose top cannot be remounted still fails" 1 "$rc"
		check_eq "$NOTSEC: ... with bwrap's message" \
			"nsrun: Can't bind mount $w/sub on /mnt: Unable to remount destination \"/newroot/mnt\" with correct flags: Operation not permitted" "$out"
	fi
	out=$(locked "${ROOT[@]}" --bind "$w" /mnt "$PROBE" cat /mnt/file 2>&1)
	check_eq "strictatime submount, fast path: runs without the option" 'content\n' \
		"$(get cat:/mnt/file "$out")"
	# --bind-fd and --ro-bind-fd are the same operations in bwrap.
	out=$(locked "$FORCE" $NOTSEC "${ROOT[@]}" --ro-bind-fd 3 /mnt "$PROBE" cat /mnt/file 3<"$w" 2>&1)
	check_eq "$NOTSEC, --ro-bind-fd: runs" 'content\n' "$(get cat:/mnt/file "$out")"
}
for_each_mode test_locked_atime

test_still_fatal() {
	local w out
	w=$(mkwork fatal)
	out=$(nsrun $NOTSEC --ro-bind /usr /usr --bind "$w/missing" /mnt "$PROBE" pid 2>&1)
	check_eq "$NOTSEC: a missing source still fails" "nsrun: Can't find source path $w/missing: No such file or directory" "$out"
	out=$(nsrun $NOTSEC --ro-bind /usr /usr --remount-ro /usr/bin "$PROBE" pid 2>&1)
	check_eq "$NOTSEC: --remount-ro of a non-mount still fails" \
		"nsrun: Can't remount readonly on /usr/bin: mount_setattr() failed at \"/newroot/usr/bin\": Invalid argument" "$out"
	out=$(nsrun $NOTSEC --ro-bind /usr /usr --bind "$w" /usr/x "$PROBE" pid 2>&1)
	check_eq "$NOTSEC: a destination that cannot be made still fails" \
		"nsrun: Can't create file /usr/x: Read-only file system" "$out"
}
for_each_mode test_still_fatal

# count_calls FILE: the mount-API and openat2 calls an strace log recorded, "name count" lines.
count_calls() {
	sed -n 's/^[0-9]* *\([a-z_0-9]*\)(.*/\1/p' "$1" | sort | uniq -c | awk '{ print $2, $1 }'
}

# strace_nsrun LOG ARGS...: nsrun ARGS in the current mode, traced into LOG (strace runs
# as root and follows the setpriv'ed nsrun and its children).
strace_nsrun() {
	local log=$1 pre=()
	shift
	[ "$MODE" = unpriv ] && pre=(setpriv --reuid="$UNPRIV_UID" --regid="$UNPRIV_GID" --clear-groups --)
	strace -f -qq -o "$log" -e trace=openat2,open_tree,mount_setattr,move_mount,fsopen,fsmount \
		-- "${pre[@]}" "$BIN/nsrun" "$@"
}

# The forced walk still resolves inside the new root: an absolute symlink there leads to
# the sandbox's directory, not the host's.
test_forced_walk() {
	local out
	out=$(nsrun --debug-opt=force-openat-fallback --ro-bind / / --tmpfs /mnt --dir /mnt/real \
		--symlink /mnt/real /mnt/link --dir /mnt/link/sub "$PROBE" ls /mnt/real 2>&1)
	check_match "force-openat-fallback: a destination through an in-root symlink" '^ls:/mnt/real=sub' "$out"
}
for_each_mode test_forced_walk

test_debug_opt() {
	local out log="$TMP/strace-$MODE" calls form
	out=$(nsrun --debug-opt=print-assumed-kernel 2>&1)
	check_eq "--debug-opt=print-assumed-kernel: the kernel nsrun's fast paths assume" "5.12.0" "$out"
	out=$(nsrun --debug-opt print-assumed-kernel 2>&1)
	check_eq "--debug-opt NAME: an unknown option, as in bwrap 0.13.1 (with nsrun's pointer)" \
		"nsrun: Unknown option --debug-opt: it takes its value after '=' (--debug-opt=NAME)" "$out"
	out=$(bwrap_nsrun --debug-opt print-assumed-kernel 2>&1)
	check_eq "--debug-opt NAME as bwrap: bwrap 0.13.1's words" \
		"bwrap: Unknown option --debug-opt" "$out"
	out=$(nsrun --ro-bind / / --debug-opt=print-assumed-kernel "$PROBE" pid 2>&1)
	check_eq "print-assumed-kernel: prints and exits, like --version" "5.12.0" "$out"
	out=$(nsrun --debug-opt=force-everything --ro-bind / / "$PROBE" pid 2>&1)
	check_eq "unknown --debug-opt: refused" "nsrun: Unknown --debug-opt value: force-everything" "$out"
	out=$(nsrun --help 2>&1)
	check_nomatch "--debug-opt is hidden from --help" 'debug-opt' "$out"

	local h="$TMP/hide-$MODE"
	mkdir -p "$h/x" "$h/y"
	local args=(--ro-bind / / --tmpfs /mnt --dir /mnt/a/b --bind /usr /mnt/a/b
		--overlay-hide "$h/x" "$PROBE" pid ls "$h")
	out=$(strace_nsrun "$log" "${args[@]}" 2>&1)
	check_match "without --debug-opt: the sandbox runs" '^pid=' "$out"
	calls=$(count_calls "$log")
	check_match "without --debug-opt: the fast paths are taken (open_tree)" '^open_tree [1-9]' "$calls"
	check_match "without --debug-opt: the fast paths are taken (openat2)" '^openat2 [1-9]' "$calls"
	for form in --debug-opt=force-mount-setattr-fallback --debug-opt=force-openat-fallback; do
		out=$(strace_nsrun "$log" "$form" "${args[@]}" 2>&1)
		check_match "$form: the sandbox runs" '^pid=' "$out"
		check_match "$form: --overlay-hide still hides" "^ls:$h=y\$" "$out"
		calls=$(count_calls "$log")
		case $form in
		*mount*) check_nomatch "$form: no fd-based mount call" '^(open_tree|mount_setattr|move_mount|fsopen|fsmount) ' "$calls"
			check_match "$form: openat2 still used" '^openat2 [1-9]' "$calls" ;;
		*) check_nomatch "$form: no openat2() call" '^openat2 ' "$calls"
			check_match "$form: the mount API still used" '^open_tree [1-9]' "$calls" ;;
		esac
	done
}

if command -v strace >/dev/null; then
	for_each_mode test_debug_opt
else
	skip "--debug-opt cases" "strace is not installed"
fi

# bwrap 0.13: an empty path is refused before anything runs. bwrap 0.11.1 binds the
# host's root over the sandbox's root for `--bind-try "" ""` (measured with the oracle):
# the host filesystem, writable, in a sandbox that was meant to see only /usr.
test_empty_paths() {
	local w out rc opt
	w=$(mkwork empty)
	echo secret >"$w/secret"
	[ "$MODE" = unpriv ] && chown $UNPRIV_UID:$UNPRIV_GID "$w/secret"
	out=$(cd "$w" && nsrun --ro-bind /usr /usr --symlink usr/lib /lib --symlink usr/lib64 /lib64 \
		--symlink usr/bin /bin --bind-try "" "" /bin/cat "$w/secret" 2>&1)
	rc=$?
	check_eq '--bind-try "" "": refused' 1 "$rc"
	check_eq '--bind-try "" "": the message' 'nsrun: --bind-try does not take an empty path argument' "$out"
	for opt in --bind --ro-bind --dev-bind --bind-try --ro-bind-try --dev-bind-try --symlink; do
		out=$(nsrun --ro-bind / / $opt "$w" "" "$PROBE" write "$w/marker" 2>&1)
		check_eq "$opt SRC \"\": refused" "nsrun: $opt does not take an empty path argument" "$out"
		out=$(nsrun --ro-bind / / $opt "" /mnt "$PROBE" write "$w/marker" 2>&1)
		check_eq "$opt \"\" DEST: refused" "nsrun: $opt does not take an empty path argument" "$out"
	done
	for opt in --tmpfs --dir --proc --dev --mqueue --remount-ro --lock-file --chdir; do
		out=$(nsrun --ro-bind / / $opt "" "$PROBE" write "$w/marker" 2>&1)
		check_match "$opt \"\": refused" "^nsrun: $opt does not take an empty path argument$" "$out"
	done
	out=$(nsrun --ro-bind / / --chmod 0755 "" "$PROBE" write "$w/marker" 2>&1)
	check_eq '--chmod MODE "": refused' 'nsrun: --chmod does not take an empty path argument' "$out"
	out=$(nsrun --ro-bind / / --file 0 "" "$PROBE" write "$w/marker" 2>&1 </dev/null)
	check_eq '--file FD "": refused' 'nsrun: --file does not take an empty path argument' "$out"
	out=$(nsrun --ro-bind / / --overlay-src "" --tmp-overlay /mnt "$PROBE" write "$w/marker" 2>&1)
	check_eq '--overlay-src "": refused' 'nsrun: --overlay-src does not take an empty path argument' "$out"
	# The same from --args data, where an unset variable is easy to miss.
	printf -- '--bind-try\0\0\0' >"$w/args"
	out=$(nsrun --ro-bind / / --args 3 "$PROBE" write "$w/marker" 3<"$w/args" 2>&1)
	check_eq '--args with --bind-try "" "": refused' 'nsrun: --bind-try does not take an empty path argument' "$out"
	check "no command ran" test ! -e "$w/marker"
}
for_each_mode test_empty_paths

done_testing
