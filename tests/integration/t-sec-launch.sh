#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-sec-launch.sh: attacks on the launcher, run for real, root and uid 65534:
# --landlock-only keeps no capability (class 4), --landlock-only --landlock-exec runs no
# file the command wrote (class 5), --die-with-parent leaves nothing behind however early
# the caller or the monitor dies (class 10), --landlock-only --new-session from a process
# group leader (low), and the status fd under --landlock-only beyond the command's reach.
# shellcheck disable=SC2016,SC2317 # snippets expand in the sandboxed shell; cases run via for_each_mode
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns
need_landlock 1
also_without_userns

PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
ABI=$(landlock_abi)
LDSO=$(readlink -f /lib64/ld-linux-x86-64.so.2 2>/dev/null || true)
LIBC=$(ldd /bin/true | awk '/libc\.so/ { print $3 }')
# usrmerge: /bin, /lib and /lib64 may be symlinks; Landlock rule paths must not be.
EXEC=()
for d in /usr /bin /lib /lib64; do
	[ -e "$d" ] && [ ! -L "$d" ] && EXEC+=(--landlock-exec "$d")
done

scratch() {
	S="$TMP/launch-$MODE"
	rm -rf "$S"
	mkdir -p "$S"
	if [ "$MODE" = unpriv ]; then chown "$UNPRIV_UID:$UNPRIV_GID" "$S"; fi
}

caps_of() { grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb):' | awk '{ print $2 }' | sort -u | tr '\n' ' '; }

# ---- class 4: --landlock-only runs the command with no capabilities ---------------------
case_caps() {
	local out
	scratch
	out=$(nsrun --landlock-only --landlock-rw "$S" -- cat /proc/self/status)
	# Unprivileged, the bounding set can only shrink inside a user namespace (with
	# --landlock-exec); without, no_new_privs keeps exec from granting anything.
	check_eq "landlock-only: no capability in the permitted, effective, inheritable, ambient sets" \
		"0000000000000000 " "$(printf '%s\n' "$out" | grep -v CapBnd | caps_of)"
	if [ "$MODE" = root ]; then
		check_match "landlock-only: an empty bounding set as root" '^CapBnd:[[:space:]]+0+$' "$out"
	else
		check_match "landlock-only --landlock-exec: an empty bounding set unprivileged" \
			'^CapBnd:[[:space:]]+0+$' \
			"$(nsrun --landlock-only --landlock-rw "$S" "${EXEC[@]}" -- cat /proc/self/status)"
	fi
	check_match "landlock-only: no_new_privs is set" '^NoNewPrivs:[[:space:]]+1' "$out"
	out=$(nsrun --landlock-only --landlock-rw "$S" -- sh -c \
		'mknod "$1/mem" c 1 1 && echo MKNOD; head -c1 "$1/mem" >/dev/null 2>&1 && echo READ' \
		sh "$S" 2>&1)
	check_nomatch "landlock-only: mknod of a device in the rw directory fails" 'MKNOD|READ' "$out"
	out=$(nsrun --landlock-only --landlock-rw "$S" -- sh -c \
		'hostname nsrun-attack 2>/dev/null && echo SETHOST; ip addr add 127.9.9.9/32 dev lo 2>/dev/null && echo IPADD; true')
	check_nomatch "landlock-only: sethostname and ip addr on the host fail" 'SETHOST|IPADD' "$out"
	[ "$(hostname)" != nsrun-attack ] || { hostname "$(cat /etc/hostname)"; not_ok "host name changed"; }
	ip addr del 127.9.9.9/32 dev lo 2>/dev/null || true
	if [ "$MODE" = root ]; then
		out=$(nsrun --landlock-only --landlock-rw "$S" --cap-add CAP_NET_BIND_SERVICE -- \
			cat /proc/self/status | caps_of)
		check_eq "landlock-only: --cap-add keeps exactly the asked capability" "0000000000000400 " "$out"
	fi
}
for_each_mode case_caps

# ---- class 5: --landlock-only --landlock-exec runs nothing the command wrote --------------
case_exec() {
	local out
	scratch
	out=$(cd "$S" && nsrun --landlock-only --landlock-rw "$S" "${EXEC[@]}" -- sh -c '
		cp /bin/true ./t && cp "$1" ./x.so || echo COPY-FAILED
		./t 2>/dev/null && echo EXECVE
		"$2" ./t 2>/dev/null && echo LDSO-REL
		"$2" "$PWD/t" 2>/dev/null && echo LDSO-ABS
		LD_PRELOAD="$PWD/x.so" /bin/true 2>&1 | grep -q "cannot be preloaded\|failed to map" || echo PRELOAD
		python3 -c "import ctypes,sys; ctypes.CDLL(sys.argv[1])" "$PWD/x.so" 2>/dev/null && echo DLOPEN
		true' sh "$LIBC" "$LDSO" 2>&1)
	check_nomatch "landlock-only --landlock-exec: the copies were written" 'COPY-FAILED' "$out"
	check_nomatch "landlock-only --landlock-exec: no execve, ld.so, LD_PRELOAD or dlopen of written files" \
		'EXECVE|LDSO|PRELOAD|DLOPEN' "$out"
	out=$(nsrun --landlock-only --landlock-rw "$S" "${EXEC[@]}" -- sh -c \
		'/bin/true && "$1" /bin/true && echo ALLOWED-OK' sh "$LDSO" 2>&1)
	check_match "landlock-only --landlock-exec: listed binaries still run, also through ld.so" \
		'ALLOWED-OK' "$out"
	check_eq "landlock-only without --landlock-exec stays in the caller's mount namespace" \
		"$(as_user readlink /proc/self/ns/mnt)" \
		"$(nsrun --landlock-only --landlock-rw "$S" -- readlink /proc/self/ns/mnt)"
	check_eq "landlock-only --landlock-exec: ids unchanged inside" "$(as_user id -u):$(as_user id -g)" \
		"$(nsrun --landlock-only --landlock-rw "$S" "${EXEC[@]}" -- sh -c 'echo $(id -u):$(id -g)')"
}
for_each_mode case_exec

# ---- class 10: --die-with-parent is airtight -----------------------------------------------
RUNS=${NSRUN_RACE_RUNS:-30}
# race DESC VICTIM NSRUN-ARGS...: starts nsrun RUNS times from a throwaway shell that
# ignores SIGPIPE and SIGKILLs VICTIM (caller: itself; monitor: nsrun) at delays spread
# over 1.5 times a whole run's duration (measured first, so a slow, sanitised or busy
# machine is covered as well as a fast one), then checks that nothing of any run is
# left. The time before nsrun's first instruction is the caller's to cover: it arms
# the parent-death signal before exec and re-checks its parent (perl's prctl).
race() {
	local desc=$1 token i left t0 t1 T
	export VICTIM=$2
	shift 2
	token="nsrun-race-$MODE-$$-$RANDOM"
	t0=$(date +%s%N)
	as_user "$BIN/nsrun" "$@" true
	t1=$(date +%s%N)
	T=$(((t1 - t0) / 1000000))
	for i in $(seq 1 "$RUNS"); do
		export D=$((i * T * 3 / 2 / RUNS))
		as_user sh -c 'trap "" PIPE
			perl -e '\''syscall(157, 1, 9); exit 1 if getppid() != shift; exec @ARGV'\'' $$ "$@" &
			m=$!
			sleep "$(printf %d.%03d $((D / 1000)) $((D % 1000)))"
			if [ "$VICTIM" = caller ]; then kill -9 $$; else kill -9 $m; fi' \
			sh "$BIN/nsrun" "$@" sh -c "sleep 30; : $token" >/dev/null 2>&1 </dev/null &
		wait $! 2>/dev/null
	done
	sleep 1
	left=$(pgrep -fc "$token" || true)
	pkill -9 -f "$token" 2>/dev/null || true
	check_eq "die-with-parent: $desc ($RUNS runs over ${T}ms, nothing left)" 0 "$left"
}
case_die() {
	race "caller killed, pid namespace" caller --ro-bind / / --unshare-pid --die-with-parent --
	race "caller killed, no pid namespace" caller --ro-bind / / --die-with-parent --
	race "monitor killed, pid namespace" monitor --ro-bind / / --unshare-pid --die-with-parent --
	race "monitor killed, --lock-file reaper" monitor --ro-bind / / --lock-file /etc/hostname \
		--die-with-parent --
	race "caller killed, --landlock-only" caller --landlock-only --landlock-rw /tmp --die-with-parent --
}
# The caller SIGKILLed while nsrun still reads its options from --args FD: the parent
# to track is the one nsrun started with, not whoever adopts it meanwhile.
die_while_parsing() {
	local desc=$1 d="$TMP/args-$MODE-$2" left
	shift 2
	export NSRUN_BIN="$BIN/nsrun" TOKEN="nsrun-args-$MODE-$$-$RANDOM"
	mkdir -p "$d" && chmod 0777 "$d" && mkfifo -m 0666 "$d/fifo"
	# sh: the caller, SIGKILLed by itself while nsrun waits for the options that its
	# writer child sends a second later.
	as_user sh -c '(sleep 1; printf "%s\0" "$@") >"$0" & exec 3<"$0"
		"$NSRUN_BIN" --args 3 sh -c "sleep 30; : $TOKEN" >/dev/null 2>&1 </dev/null &
		sleep 0.5; kill -9 $$' "$d/fifo" "$@"
	sleep 3
	left=$(pgrep -fc "$TOKEN" || true)
	pkill -9 -f "$TOKEN" 2>/dev/null || true
	check_eq "die-with-parent: caller killed while --args is read, $desc: nothing runs" 0 "$left"
}
case_die_args() {
	die_while_parsing "pid namespace" 1 --ro-bind / / --unshare-pid --die-with-parent
	die_while_parsing "no pid namespace" 2 --ro-bind / / --die-with-parent
	die_while_parsing "--landlock-only" 3 --landlock-only --landlock-rw /tmp --die-with-parent
}
# The monitor SIGKILLed while the sandbox's first process waits on --block-fd, which
# nothing else wakes (the test holds the fd's other end): it ends with the monitor, and
# the command never runs. Stopped there, it can watch nothing: only the kernel's
# CLONE_PIDFD_AUTOKILL ends it then; without it, it ends once continued.
die_while_blocked() {
	local desc=$1 d="$TMP/block-$MODE-$2" token n left mon='' child='' p
	shift 2
	token="nsrun-block-${MODE//[^a-z]/-}-$$-$RANDOM" # a pattern for pgrep
	mkdir -p "$d" && chmod 0777 "$d" && rm -f "$d/fifo" "$d/ran" && mkfifo -m 0666 "$d/fifo"
	as_user "$BIN/nsrun" "$@" --block-fd 8 sh -c "touch $d/ran; : $token" \
		8<>"$d/fifo" >/dev/null 2>&1 </dev/null &
	for n in $(seq 50); do
		[ "$(pgrep -fc "$token")" = 2 ] && break
		sleep 0.1
	done
	sleep 0.5
	# The monitor is the one whose parent is not the other (their start times may tie).
	for p in $(pgrep -f "$token"); do
		if [ "$(pgrep -P "$p" -f "$token")" != "" ]; then mon=$p; else child=$p; fi
	done
	check "die-with-parent, $desc: the sandbox waits on --block-fd" test -n "$mon" -a -n "$child"
	if [ -z "$mon" ] || [ -z "$child" ]; then
		pkill -9 -f "$token"
		return
	fi
	[ "$STOPPED" = 1 ] && kill -STOP "$child"
	kill -9 "$mon"
	sleep 1
	left=$(pgrep -fc "$token" || true)
	if [ "$STOPPED" = 1 ] && [ "$AUTOKILL" = no ]; then
		check_eq "die-with-parent, $desc, stopped, no CLONE_PIDFD_AUTOKILL: it waits" 1 "$left"
		kill -CONT "$child"
		sleep 1
		left=$(pgrep -fc "$token" || true)
	fi
	check_eq "die-with-parent, $desc: nothing left (autokill: $AUTOKILL)" 0 "$left"
	check "die-with-parent, $desc: the command never ran" test ! -e "$d/ran"
	pkill -9 -f "$token" 2>/dev/null || true
}
case_die_blocked() {
	STOPPED=0 die_while_blocked "pid namespace" 1 --ro-bind / / --unshare-pid --die-with-parent
	STOPPED=0 die_while_blocked "no pid namespace" 2 --ro-bind / / --die-with-parent
	STOPPED=1 die_while_blocked "pid namespace" 3 --ro-bind / / --unshare-pid --die-with-parent
	STOPPED=1 die_while_blocked "no pid namespace" 4 --ro-bind / / --die-with-parent
}
AUTOKILL=$(python3 "$top_srcdir/tests/integration/has-autokill.py")
for_each_mode case_die_blocked

if [ "$(uname -m)" = x86_64 ]; then
	for_each_mode case_die_args
	for_each_mode case_die
else
	skip "die-with-parent races" "the caller wrapper uses x86_64's prctl number"
fi

# ---- low: --landlock-only --new-session from a process group leader ----------------------
case_session() {
	local out
	out=$(as_user setsid -w "$BIN/nsrun" --landlock-only --landlock-rw /tmp --new-session -- \
		sh -c 'echo sid=$(ps -o sid= -p $$ | tr -d " ") me=$$; exit 7' 2>&1)
	local rc=$?
	check_eq "landlock-only --new-session as a group leader: the status passes through" 7 "$rc"
	check_match "landlock-only --new-session as a group leader: a session of its own" \
		'^sid=([0-9]+) me=\1$' "$out"
}
for_each_mode case_session

# ---- medium: under --landlock-only --json-status-fd the command cannot forge the status -----
# The command is nsrun's child there; the status fd is nsrun's alone. It cannot write it,
# reopen it through /proc/PPID/fd (Landlock's domain keeps ptrace access to the monitor
# out), and with --landlock-scope it cannot kill nsrun either. Without the scope it can:
# then the document ends with no "exit-code", which is what a caller must check.
FORGE='{ printf "{ \"exit-code\": 0 }\n" >&5; } 2>/dev/null && echo forged-inherited
{ printf "{ \"exit-code\": 0 }\n" >"/proc/$PPID/fd/5"; } 2>/dev/null && echo forged-reopened
[ -e /proc/self/fd/5 ] && echo fd5-held
exit 3'
case_status_forgery() {
	local out rc st
	scratch
	st="$S/status"
	out=$(nsrun --landlock-only --landlock-rw "$S" --json-status-fd 5 -- sh -c "$FORGE" 5>"$st" 2>&1)
	rc=$?
	check_eq "landlock-only status fd: the command's status passes through" 3 "$rc"
	check_eq "landlock-only status fd: not inherited, not reopened through /proc" "" "$out"
	check_eq "landlock-only status fd: one exit-code document, the real one" '"exit-code": 3' \
		"$(grep -o '"exit-code": [0-9]*' "$st" | paste -sd' ')"
	check_eq "landlock-only status fd: the command holds the caller's fds and no fd of nsrun's" \
		"$(as_user "$PROBE" fds 7</dev/null)" \
		"$(nsrun --landlock-only --landlock-rw "$S" --json-status-fd 5 -- "$PROBE" fds 5>"$st" 7</dev/null)"
	if [ "$ABI" -ge 6 ]; then
		out=$(nsrun --landlock-only --landlock-rw "$S" --landlock-scope --json-status-fd 5 -- \
			sh -c 'kill -KILL $PPID 2>/dev/null || echo refused; exit 4' 5>"$st" 2>&1)
		rc=$?
		check_eq "landlock-only status fd, --landlock-scope: the command cannot kill nsrun" \
			"4 refused" "$rc $out"
		check_match "... and the real exit-code is written" '"exit-code": 4' "$(cat "$st")"
	else
		skip "landlock-only status fd, --landlock-scope" "Landlock ABI $ABI has no scopes (6)"
	fi
	out=$(nsrun --landlock-only --landlock-rw "$S" --json-status-fd 5 -- \
		sh -c 'kill -KILL $PPID; sleep 1; exit 4' 5>"$st" 2>&1)
	rc=$?
	check_eq "landlock-only status fd without --landlock-scope: the command can kill nsrun (documented)" \
		137 "$rc"
	check_eq "... and then the document has no exit-code, nothing forged" "" \
		"$(grep -o '"exit-code"' "$st")"
	check_match "... but the command's pid (the caller can tell it ended early)" '"child-pid": [0-9]+' \
		"$(cat "$st")"
}
for_each_mode case_status_forgery

# ---- pid 1 keeps no fd of nsrun's, even where close_range(2) is missing or refused ------
# pid 1 stays dumpable (as bwrap's), so the command can open what it holds through
# /proc/1/fd: the host's /proc, the staging root. Without close_range the closer must not
# trust the sandbox's /proc, which the plan (here a plain directory over /proc/self/fd) or
# the command shapes.
case_pid1_fds() {
	local out
	out=$(NSRUN_FORCE_ENOSYS=${NSRUN_FORCE_ENOSYS:+$NSRUN_FORCE_ENOSYS,}close_range \
		nsrun --unshare-pid --ro-bind / / --tmpfs /tmp \
		--proc /tmp/p --tmpfs /proc --dir /proc/self/fd --dev /dev -- sh -c \
		'sleep 0.2; for f in /tmp/p/1/fd/*; do echo "${f##*/} $(readlink "$f")"; done' 2>&1)
	check_match "(control) pid 1's fds are listed" '^0 ' "$out"
	check_nomatch "no close_range, /proc/self/fd a plain directory: pid 1 holds no directory or file of nsrun's (only pipes, sockets and /dev/null)" \
		'^[0-9]+ /([^d]|d[^e]|dev/[^n])' "$out"
}
for_each_mode case_pid1_fds

done_testing
