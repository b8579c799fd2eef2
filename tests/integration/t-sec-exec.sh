#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-sec-exec.sh: nsrun's own seccomp guards (src/seccomp.c) against the attacks they
# exist for, each run for real by the sec-attack helper inside nsrun, first without
# the guard (the attack must work, so every case can fail) and then with it:
#   code in a memfd run past --landlock-exec (execve, execveat, ld.so, dlopen, mmap),
#   and what a noexec seal (vm.memfd_noexec=2) would not stop,
#   new AF_UNIX sockets (socket, datagram socketpair, io_uring), x32 and i386 calls,
#   TIOCSTI/TIOCLINUX on a real pty (script(1)), also with --new-session as root.
# nsrun installs the guards itself (--landlock-exec: memfds; --landlock-deny-unix: UNIX
# sockets; --new-session keeping CAP_SYS_ADMIN: TIOCSTI); the seccomp-guard helper
# installs one alone, for the filter's own cases (other architectures, a shared tty).
. "$top_srcdir/tests/integration/lib.sh"
need_ns
also_without_userns

HELPERS=${NSRUN_HELPERS:-$(dirname "$NSRUN_PROBE")}
for h in sec-attack seccomp-guard; do
	[ -x "$HELPERS/$h" ] || skip_all "$h helper not built"
	cp "$HELPERS/$h" "$BIN/$h"
done
ATTACK="$BIN/sec-attack"
GUARD="$BIN/seccomp-guard"
SB=(--ro-bind / / --proc /proc --dev /dev --unshare-pid --die-with-parent)
LLX=(--landlock-exec /usr --landlock-exec "$BIN")
# an rw directory apart from $BIN: an exec path the command can write is refused (126)
RW="$TMP/rw"
mkdir -p "$RW"
chmod 0777 "$RW"

# last_attack CMD...: the command's final "ATTACK ..." line, carriage returns removed.
last_attack() { "$@" 2>&1 | tr -d '\r' | grep -E '^ATTACK ' | tail -n1; }

# expect DESC REGEX CMD...: the attack's final line matches REGEX.
expect() {
	local desc=$1 re=$2
	shift 2
	check_match "$desc" "$re" "$(last_attack "$@")"
}

# ---- class 2: code in a memfd runs past --landlock-exec ----------------------------

test_memfd() {
	local a m
	for a in memfd-execve memfd-execveat memfd-ldso memfd-dlopen memfd-mmap-exec; do
		expect "$a: memfd code runs in a sandbox without --landlock-exec" "^ATTACK $a SUCCEEDED$" \
			nsrun "${SB[@]}" -- "$ATTACK" "$a"
		for m in plain seal exec; do
			expect "$a ($m): with --landlock-exec, memfd_create answers ENOSYS" \
				"^ATTACK $a REFUSED at memfd_create: Function not implemented$" \
				nsrun "${SB[@]}" "${LLX[@]}" -- "$ATTACK" "$a" "$m"
		done
	done
	# a noexec seal (what vm.memfd_noexec=2 imposes) stops execve but not the loader
	# nor dlopen: why --landlock-exec refuses every memfd rather than executable ones
	for a in memfd-ldso memfd-dlopen; do
		expect "$a: a noexec-sealed memfd still runs as code" "^ATTACK $a SUCCEEDED$" \
			nsrun "${SB[@]}" -- "$ATTACK" "$a" seal
	done
	expect "memfd-execve: a noexec-sealed memfd cannot be executed" \
		"^ATTACK memfd-execve REFUSED at execve: Permission denied$" \
		nsrun "${SB[@]}" -- "$ATTACK" memfd-execve seal
	expect "memfd_secret: refused with --landlock-exec" \
		"^ATTACK memfd-secret-exec REFUSED at memfd_secret: Function not implemented$" \
		nsrun "${SB[@]}" "${LLX[@]}" -- "$ATTACK" memfd-secret-exec
	diag "memfd_secret without --landlock-exec: $(last_attack nsrun "${SB[@]}" -- "$ATTACK" memfd-secret-exec)"
	expect "--landlock-only --landlock-exec: memfd_create refused" \
		"^ATTACK memfd-ldso REFUSED at memfd_create: Function not implemented$" \
		nsrun --landlock-only --landlock-rw "$RW" "${LLX[@]}" -- "$ATTACK" memfd-ldso
	expect "--landlock-only without --landlock-exec: memfd-ldso runs" "^ATTACK memfd-ldso SUCCEEDED$" \
		nsrun --landlock-only --landlock-rw "$TMP" -- "$ATTACK" memfd-ldso
	expect "--landlock-exec leaves other programs running" "^ATTACK unix-stream-pair SUCCEEDED$" \
		nsrun "${SB[@]}" "${LLX[@]}" -- "$ATTACK" unix-stream-pair
	# Shared anonymous memory opened through /proc/self/map_files: the kernel wants
	# CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE in the initial user namespace, which only
	# root without a user namespace has, and --landlock-exec takes both away; no guard
	# can refuse MAP_SHARED memory.
	if [ "$MODE" = root ]; then
		expect "map_files: control: root without a user namespace and without --landlock-exec opens it" \
			"^ATTACK shared-anon-execve SUCCEEDED$" \
			nsrun "${SB[@]}" -- "$ATTACK" shared-anon-execve
		expect "map_files: refused to root in a user namespace" \
			"^ATTACK shared-anon-execve REFUSED at open /proc/self/map_files: Operation not permitted$" \
			nsrun "${SB[@]}" --unshare-user "${LLX[@]}" -- "$ATTACK" shared-anon-execve
		expect "map_files: refused to root without one (--landlock-exec takes the capabilities)" \
			"^ATTACK shared-anon-execve REFUSED at open /proc/self/map_files: Operation not permitted$" \
			nsrun "${SB[@]}" "${LLX[@]}" -- "$ATTACK" shared-anon-execve
	else
		expect "map_files: refused to uid $UNPRIV_UID" \
			"^ATTACK shared-anon-execve REFUSED at open /proc/self/map_files: Operation not permitted$" \
			nsrun "${SB[@]}" "${LLX[@]}" -- "$ATTACK" shared-anon-execve
	fi
}
for_each_mode test_memfd

# ---- a written file reopened by its handle through a mount without noexec ------------
# open_by_handle_at(2) opens a file through whichever mount of its filesystem the caller
# names: the workspace's copy through "/", which --landlock-exec leaves exec. It needs
# CAP_DAC_READ_SEARCH (from Linux 6.10 also over the mounts of a user namespace of the
# command's own): --landlock-exec takes the capability and refuses the call.
# The attack names the file through "/": the control's workspace must be on the root's
# filesystem, which /tmp is not where it is a tmpfs (Debian 13); the build tree then
# serves (as root only: a user may not reach it under a private /root).
HANDLE_BASE=$TMP
[ "$(stat -c %d "$TMP")" = "$(stat -c %d /)" ] || HANDLE_BASE=$PWD
handle_control() {
	local cws="$HANDLE_BASE/handle-control"
	if [ "$(stat -c %d "$HANDLE_BASE")" != "$(stat -c %d /)" ]; then
		skip "handle: control" "neither \$TMP nor the build tree is on the root's filesystem"
		return
	fi
	mkdir -p "$cws"
	expect "handle: control: root without a user namespace and without --landlock-exec runs the copy" \
		"^ATTACK handle-ldso SUCCEEDED$" \
		nsrun "${SB[@]}" --bind "$cws" "$cws" -- "$ATTACK" handle-ldso "$cws"
	rm -rf "$cws"
}
test_handle() {
	local ws="$TMP/handle-$MODE" out
	rm -rf "$ws"
	mkdir -p "$ws"
	[ "$MODE" = unpriv ] && chown "$UNPRIV_UID:$UNPRIV_GID" "$ws"
	[ "$MODE" = root ] && [ -z "${NOUSERNS:-}" ] && handle_control
	expect "handle: with --landlock-exec, open_by_handle_at refused" \
		"^ATTACK handle-ldso REFUSED at open_by_handle_at: Operation not permitted$" \
		nsrun "${SB[@]}" --bind "$ws" "$ws" --landlock-rw "$ws" "${LLX[@]}" -- "$ATTACK" handle-ldso "$ws"
	expect "handle: --landlock-only --landlock-exec: open_by_handle_at refused" \
		"^ATTACK handle-ldso REFUSED at open_by_handle_at: Operation not permitted$" \
		nsrun --landlock-only --landlock-rw "$ws" "${LLX[@]}" -- "$ATTACK" handle-ldso "$ws"
	out=$(nsrun "${SB[@]}" --cap-add CAP_DAC_READ_SEARCH "${LLX[@]}" -- true 2>&1)
	check_eq "handle: --cap-add CAP_DAC_READ_SEARCH with --landlock-exec: exit 1" 1 "$?"
	check_match "handle: ... says why" \
		'^nsrun: --landlock-exec cannot be combined with --cap-add of .*CAP_DAC_READ_SEARCH' "$out"
}
for_each_mode test_handle

# ---- other architectures' system calls ---------------------------------------------

test_arches() {
	local out rc
	out=$(nsrun "${SB[@]}" -- "$GUARD" tiocsti -- "$ATTACK" x32-memfd 2>&1)
	rc=$?
	check_eq "x32 system call: the process is killed by SIGSYS (128+31)" 159 "$rc"
	diag "x32 without the guard: $(last_attack nsrun "${SB[@]}" -- "$ATTACK" x32-memfd)"
	out=$(last_attack nsrun "${SB[@]}" -- "$ATTACK" i386-memfd-execve)
	case $out in
	*"int 0x80 faults"*)
		skip "i386 calls" "this kernel has no i386 entry (int 0x80 faults); covered by test-seccomp"
		return
		;;
	esac
	check_match "i386 memfd_create works without the guard" "SUCCEEDED$" "$out"
	expect "i386 memfd_create: refused by its i386 number" \
		"^ATTACK i386-memfd-execve REFUSED at i386 memfd_create: Function not implemented$" \
		nsrun "${SB[@]}" -- "$GUARD" exec-memfd -- "$ATTACK" i386-memfd-execve
}
for_each_mode test_arches

# ---- class 3: new AF_UNIX sockets ---------------------------------------------------

SOCKDIR="$TMP/sock"
mkdir -p "$SOCKDIR"
"$ATTACK" unix-listen "$SOCKDIR/stream" "$SOCKDIR/dgram" >"$TMP/listener.log" &
LISTENER=$!
trap 'kill $LISTENER 2>/dev/null; cleanup_tmp' EXIT
for _ in $(seq 50); do [ -S "$SOCKDIR/dgram" ] && break; sleep 0.1; done

test_unix() {
	local s="$SOCKDIR/stream" d="$SOCKDIR/dgram" a
	expect "unix-connect: works without the guard" "^ATTACK unix-connect SUCCEEDED$" \
		nsrun "${SB[@]}" -- "$ATTACK" unix-connect "$s"
	expect "unix-connect: socket(AF_UNIX) refused with EACCES" \
		"^ATTACK unix-connect REFUSED at socket\(AF_UNIX\): Permission denied$" \
		nsrun "${SB[@]}" -- "$GUARD" unix-socket -- "$ATTACK" unix-connect "$s"
	expect "dgram socketpair: sends to a path without the guard" \
		"^ATTACK unix-dgram-pair SUCCEEDED$" nsrun "${SB[@]}" -- "$ATTACK" unix-dgram-pair "$d"
	expect "dgram socketpair: refused with EACCES" \
		"^ATTACK unix-dgram-pair REFUSED at socketpair\(AF_UNIX, SOCK_DGRAM\): Permission denied$" \
		nsrun "${SB[@]}" -- "$GUARD" unix-socket -- "$ATTACK" unix-dgram-pair "$d"
	expect "raw socketpair (a datagram pair): sends to a path without the guard" \
		"^ATTACK unix-raw-pair SUCCEEDED$" nsrun "${SB[@]}" -- "$ATTACK" unix-raw-pair "$d"
	expect "raw socketpair: refused with EACCES" \
		"^ATTACK unix-raw-pair REFUSED at socketpair\(AF_UNIX, SOCK_RAW\): Permission denied$" \
		nsrun "${SB[@]}" -- "$GUARD" unix-socket -- "$ATTACK" unix-raw-pair "$d"
	# the option itself, in each mode: seccomp below Landlock ABI 9, Landlock from 9 on
	for a in unix-dgram-pair unix-raw-pair; do
		expect "--landlock-deny-unix: a $a cannot reach a host socket" \
			"^ATTACK $a REFUSED at (socketpair|sendto).*: Permission denied$" \
			nsrun "${SB[@]}" --landlock-rw "$TMP" --landlock-deny-unix -- "$ATTACK" "$a" "$d"
		expect "--landlock-only --landlock-deny-unix: a $a cannot reach a host socket" \
			"^ATTACK $a REFUSED at (socketpair|sendto).*: Permission denied$" \
			nsrun --landlock-only --landlock-rw "$TMP" --landlock-deny-unix -- "$ATTACK" "$a" "$d"
	done
	expect "stream socketpair: still allowed" "^ATTACK unix-stream-pair SUCCEEDED$" \
		nsrun "${SB[@]}" -- "$GUARD" unix-socket -- "$ATTACK" unix-stream-pair
	a=$(last_attack nsrun "${SB[@]}" -- "$ATTACK" unix-io-uring "$s")
	case $a in
	*"io_uring_setup"*) skip "io_uring bypass" "io_uring is off here: $a" ;;
	*) check_match "io_uring IORING_OP_SOCKET: bypasses seccomp without the guard" "SUCCEEDED$" "$a" ;;
	esac
	expect "io_uring: io_uring_setup refused with ENOSYS" \
		"^ATTACK unix-io-uring REFUSED at io_uring_setup: Function not implemented$" \
		nsrun "${SB[@]}" -- "$GUARD" unix-socket -- "$ATTACK" unix-io-uring "$s"
	expect "--landlock-only: socket(AF_UNIX) refused" \
		"^ATTACK unix-connect REFUSED at socket\(AF_UNIX\): Permission denied$" \
		nsrun --landlock-only --landlock-rw "$TMP" -- "$GUARD" unix-socket -- \
		"$ATTACK" unix-connect "$s"
	for a in i386-unix-socket i386-socketcall; do
		case $(last_attack nsrun "${SB[@]}" -- "$ATTACK" "$a" "$s") in
		*"int 0x80 faults"*) skip "$a" "no i386 entry on this kernel; covered by test-seccomp" ;;
		*) expect "$a: refused" "^ATTACK $a REFUSED at i386 .*: Permission denied$" \
			nsrun "${SB[@]}" -- "$GUARD" unix-socket -- "$ATTACK" "$a" "$s" ;;
		esac
	done
}
for_each_mode test_unix

# ---- class 9: TIOCSTI and TIOCLINUX on a real pty -----------------------------------

if ! command -v script >/dev/null || ! script -qec true /dev/null </dev/null >/dev/null 2>&1; then
	skip "TIOCSTI" "script(1) cannot make a pty here"
	done_testing
fi
LEGACY_TIOCSTI=$(cat /proc/sys/dev/tty/legacy_tiocsti 2>/dev/null || echo 1)

# on_pty CMD...: runs CMD (in the current mode) as the only job of a new pty session,
# through sh so that nsrun is not a process group leader (--new-session's setsid).
on_pty() {
	local cmd="" w
	[ "$MODE" = unpriv ] && cmd="setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups -- "
	for w in "$@"; do cmd+="$(printf '%q ' "$w")"; done
	script -qec "$cmd; exit \$?" /dev/null </dev/null
}

test_tiocsti() {
	local out
	# without --new-session the payload shares the caller's terminal
	if [ "$LEGACY_TIOCSTI" = 1 ]; then
		expect "shared terminal: TIOCSTI injects without the guard" "^ATTACK tiocsti SUCCEEDED$" \
			on_pty "$BIN/nsrun" "${SB[@]}" -- "$ATTACK" tiocsti
	else
		skip "shared terminal without the guard" "dev.tty.legacy_tiocsti=0"
	fi
	expect "shared terminal: TIOCSTI refused with EPERM" \
		"^ATTACK tiocsti REFUSED at ioctl TIOCSTI: Operation not permitted$" \
		on_pty "$BIN/nsrun" "${SB[@]}" -- "$GUARD" tiocsti -- "$ATTACK" tiocsti
	expect "shared terminal: TIOCSTI with high bits set refused (CVE-2019-10063)" \
		"^ATTACK tiocsti REFUSED at ioctl TIOCSTI: Operation not permitted$" \
		on_pty "$BIN/nsrun" "${SB[@]}" -- "$GUARD" tiocsti -- "$ATTACK" tiocsti --high
	# --new-session: no controlling terminal, so TIOCSTI needs CAP_SYS_ADMIN, which root
	# keeps in a sandbox without a user namespace: nsrun adds the guard there itself
	expect "--new-session: TIOCSTI refused with EPERM (root keeping CAP_SYS_ADMIN too)" \
		"^ATTACK tiocsti REFUSED at ioctl TIOCSTI: Operation not permitted$" \
		on_pty "$BIN/nsrun" "${SB[@]}" --new-session -- "$ATTACK" tiocsti --high
	expect "--new-session --cap-add ALL: TIOCSTI still refused" \
		"^ATTACK tiocsti REFUSED at ioctl TIOCSTI: Operation not permitted$" \
		on_pty "$BIN/nsrun" "${SB[@]}" --new-session --cap-add CAP_SYS_ADMIN -- "$ATTACK" tiocsti
	expect "--landlock-only --new-session: TIOCSTI refused with EPERM" \
		"^ATTACK tiocsti REFUSED at ioctl TIOCSTI: Operation not permitted$" \
		on_pty "$BIN/nsrun" --landlock-only --landlock-rw "$TMP" --new-session -- \
		"$ATTACK" tiocsti
	if [ "$MODE" = root ]; then
		expect "--landlock-only --new-session --cap-add CAP_SYS_ADMIN: TIOCSTI refused" \
			"^ATTACK tiocsti REFUSED at ioctl TIOCSTI: Operation not permitted$" \
			on_pty "$BIN/nsrun" --landlock-only --landlock-rw "$TMP" --new-session \
			--cap-add CAP_SYS_ADMIN -- "$ATTACK" tiocsti
	fi
	# a pty is no VT: without the guard TIOCLINUX fails with ENOTTY, not EPERM
	expect "TIOCLINUX: not refused by anything else here" \
		"^ATTACK tioclinux REFUSED at ioctl TIOCLINUX: Inappropriate ioctl for device$" \
		on_pty "$BIN/nsrun" "${SB[@]}" -- "$ATTACK" tioclinux
	expect "TIOCLINUX (high bits set): refused with EPERM" \
		"^ATTACK tioclinux REFUSED at ioctl TIOCLINUX: Operation not permitted$" \
		on_pty "$BIN/nsrun" "${SB[@]}" -- "$GUARD" tiocsti -- "$ATTACK" tioclinux --high
}
for_each_mode test_tiocsti

done_testing
