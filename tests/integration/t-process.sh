#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-process.sh: exit status (n, 128+signal), the pid-1 reaper, --as-pid-1, background
# processes, --die-with-parent, --new-session, --chdir and the default cwd, the
# environment options, --argv0, no_new_privs and capabilities.
. "$top_srcdir/tests/integration/lib.sh"
need_ns


test_exit_status() {
	local rc
	nsrun --ro-bind / / "$PROBE" exit 42 >/dev/null 2>&1
	check_eq "exit code passed on" 42 $?
	nsrun --ro-bind / / --unshare-pid "$PROBE" exit 43 >/dev/null 2>&1
	check_eq "exit code passed on through the reaper" 43 $?
	nsrun --ro-bind / / --unshare-pid --as-pid-1 "$PROBE" exit 44 >/dev/null 2>&1
	check_eq "exit code with --as-pid-1" 44 $?
	nsrun --ro-bind / / "$PROBE" exit 0 >/dev/null 2>&1
	check_eq "exit 0" 0 $?
	nsrun --ro-bind / / "$PROBE" kill-self KILL >/dev/null 2>&1
	check_eq "SIGKILL: 137" 137 $?
	nsrun --ro-bind / / "$PROBE" kill-self TERM >/dev/null 2>&1
	check_eq "SIGTERM: 143" 143 $?
	nsrun --ro-bind / / --unshare-pid "$PROBE" kill-self TERM >/dev/null 2>&1
	check_eq "SIGTERM through the reaper: 143" 143 $?
	nsrun --ro-bind / / --unshare-pid "$PROBE" kill-self HUP >/dev/null 2>&1
	rc=$?
	check_eq "SIGHUP through the reaper: 129" 129 "$rc"
}
for_each_mode test_exit_status

test_reaper() {
	local out
	out=$(nsrun --ro-bind / / --unshare-pid --proc /proc "$PROBE" pid zombie 2>&1)
	check_eq "reaper: payload is pid 2" 2 "$(get pid "$out")"
	check_eq "reaper: orphaned zombies are reaped" reaped "$(get zombie "$out")"
	out=$(nsrun --ro-bind / / --unshare-pid --as-pid-1 --proc /proc "$PROBE" pid zombie 2>&1)
	check_eq "--as-pid-1: payload is pid 1" 1 "$(get pid "$out")"
	check_eq "--as-pid-1: no reaper, the orphan stays a zombie of the payload" zombie "$(get zombie "$out")"
	out=$(nsrun --ro-bind / / --unshare-pid --proc /proc "$PROBE" ls /proc/1/task cat /proc/1/status 2>&1)
	check_match "reaper: pid 1 exists" '^ls:/proc/1/task=1$' "$out"
}
for_each_mode test_reaper

# wait_gone PID TENTHS: true once PID has exited.
wait_gone() {
	local i
	for ((i = 0; i < $2; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	! kill -0 "$1" 2>/dev/null
}
# bwrap returns as soon as the payload exits; a background process keeps the pid
# namespace (and pid 1) alive unless --die-with-parent takes it down with the monitor.
test_background() {
	local name="bg${MODE:0:1}$$" start end pid rc bgp
	bgp="$BIN/$name"
	cp "$PROBE" "$bgp"
	start=$(date +%s%N)
	nsrun --ro-bind / / --unshare-pid "$bgp" spawn-bg 3 exit 5 >/dev/null 2>&1
	rc=$?
	end=$(date +%s%N)
	check_eq "background child: payload's status" 5 "$rc"
	check "background child: the launcher does not wait for it" test $(((end - start) / 1000000)) -lt 2500
	pid=$(pgrep -x "$name" | head -n1)
	check "background child: still running in the sandbox" test -n "$pid"
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	nsrun --ro-bind / / --unshare-pid --die-with-parent "$bgp" spawn-bg 3 exit 5 >/dev/null 2>&1
	sleep 0.3
	pid=$(pgrep -x "$name" | head -n1)
	check "background child with --die-with-parent: killed with the sandbox" test -z "$pid"
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	nsrun --ro-bind / / "$bgp" spawn-bg 3 exit 6 >/dev/null 2>&1
	check_eq "background child without a pid namespace: status" 6 $?
	pid=$(pgrep -x "$name" | head -n1)
	check "background child without a pid namespace: keeps running" test -n "$pid"
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
}
for_each_mode test_background

# Kill -9 the shell that started nsrun: with --die-with-parent the payload dies too.
test_die_with_parent() {
	local name="dw${MODE:0:1}$$" sh pid flag pre=() dwp
	dwp="$BIN/$name"
	cp "$PROBE" "$dwp"
	[ "$MODE" = unpriv ] && pre=(setpriv --reuid="$UNPRIV_UID" --regid="$UNPRIV_GID" --clear-groups --)
	for flag in --die-with-parent ""; do
		# Not through as_user: $! must be the shell itself, not a subshell around it.
		"${pre[@]}" sh -c '"$0" $1 --ro-bind / / --unshare-pid "$2" sleep 30 & wait' \
			"$BIN/nsrun" "$flag" "$dwp" >/dev/null 2>&1 &
		sh=$!
		pid=$(wait_pgrep -x "$name")
		if [ -z "$pid" ]; then
			not_ok "${flag:-no flag}: payload started"
			kill -9 "$sh" 2>/dev/null
			continue
		fi
		kill -9 "$sh"
		wait "$sh" 2>/dev/null
		if [ -n "$flag" ]; then
			check "--die-with-parent: payload killed with the parent shell" wait_gone "$pid" 30
		else
			sleep 0.5
			check "no --die-with-parent: payload survives the parent shell" kill -0 "$pid"
		fi
		kill -9 "$pid" 2>/dev/null
	done
}
for_each_mode test_die_with_parent

# A pty from script(1) gives the payload a controlling terminal to lose.
test_new_session() {
	local out su=""
	[ "$MODE" = unpriv ] && su="setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups"
	if ! command -v script >/dev/null; then
		skip "--new-session" "script(1) missing"
		return
	fi
	out=$(script -qec "$su $BIN/nsrun --ro-bind / / $PROBE tty" /dev/null </dev/null | tr -d '\r')
	check_nomatch "without --new-session: the caller's tty" '^tty_nr=0$' "$out"
	check_match "without --new-session: not a session leader" '^session_leader=0$' "$out"
	out=$(script -qec "$su $BIN/nsrun --ro-bind / / --new-session $PROBE tty" /dev/null </dev/null | tr -d '\r')
	check_match "--new-session: no controlling tty" '^tty_nr=0$' "$out"
	check_match "--new-session: a new session" '^session_leader=1$' "$out"
	out=$(script -qec "$su $BIN/nsrun --ro-bind / / --unshare-pid --new-session $PROBE tty" /dev/null </dev/null | tr -d '\r')
	check_match "--new-session with a reaper: no controlling tty" '^tty_nr=0$' "$out"
	check_match "--new-session with a reaper: pid 1 leads the session" '^sid=1$' "$out"
}
for_each_mode test_new_session

test_cwd() {
	local out w="$TMP/cwd-$MODE"
	mkdir -p "$w/elsewhere"
	out=$(cd "$w" && nsrun --ro-bind / / --chdir /usr "$PROBE" cwd getenv PWD 2>&1)
	check_eq "--chdir" "$(printf 'cwd=/usr\ngetenv:PWD=/usr')" "$out"
	out=$(cd "$w" && nsrun --ro-bind / / "$PROBE" cwd getenv PWD 2>&1)
	check_eq "default: the caller's cwd when it exists inside" \
		"$(printf 'cwd=%s\ngetenv:PWD=%s' "$w" "$w")" "$out"
	out=$(cd "$w/elsewhere" && nsrun --ro-bind "$BIN" "$BIN" --dir /home/u --setenv HOME /home/u \
		"$PROBE" cwd getenv PWD 2>&1)
	check_eq "default: \$HOME when the cwd is missing inside" \
		"$(printf 'cwd=/home/u\ngetenv:PWD=/home/u')" "$out"
	out=$(cd "$w/elsewhere" && nsrun --ro-bind "$BIN" "$BIN" --setenv HOME /nonexistent \
		"$PROBE" cwd getenv PWD 2>&1)
	check_eq "default: / when neither exists" "$(printf 'cwd=/\ngetenv:PWD=/')" "$out"
}
for_each_mode test_cwd

test_env() {
	local out
	out=$(env NSRUN_T1=one NSRUN_T2=two "$BIN/nsrun" --version >/dev/null; as_user env NSRUN_T1=one NSRUN_T2=two \
		"$BIN/nsrun" --ro-bind / / --chdir / --setenv NSRUN_T3 three --unsetenv NSRUN_T2 \
		--setenv NSRUN_T1 uno "$PROBE" env 2>&1)
	check_match "--setenv adds" '^env=NSRUN_T3=three$' "$out"
	check_match "--setenv replaces" '^env=NSRUN_T1=uno$' "$out"
	check_nomatch "--unsetenv removes" '^env=NSRUN_T2=' "$out"
	out=$(nsrun --ro-bind / / --chdir / --clearenv "$PROBE" env 2>&1)
	check_eq "--clearenv: only PWD" "env=PWD=/" "$out"
	out=$(nsrun --ro-bind / / --chdir /usr --clearenv --setenv A b "$PROBE" env 2>&1)
	check_eq "--clearenv then --setenv" "$(printf 'env=A=b\nenv=PWD=/usr')" "$out"
	out=$(nsrun --ro-bind / / --chdir / --setenv A b --clearenv "$PROBE" env 2>&1)
	check_eq "--setenv then --clearenv (order matters)" "env=PWD=/" "$out"
	out=$(nsrun --ro-bind / / --chdir / --setenv PWD /bogus "$PROBE" getenv PWD 2>&1)
	check_eq "PWD is always the real cwd" "getenv:PWD=/" "$out"
	out=$(nsrun --ro-bind / / --argv0 custom-name "$PROBE" argv0 2>&1)
	check_eq "--argv0" "argv0=custom-name" "$out"
	out=$(nsrun --ro-bind / / "$PROBE" argv0 2>&1)
	check_eq "argv0 defaults to COMMAND" "argv0=$PROBE" "$out"
}
for_each_mode test_env

test_privs() {
	local out host k
	out=$(nsrun --ro-bind / / "$PROBE" caps 2>&1)
	check_eq "no_new_privs always set" 1 "$(get NoNewPrivs "$out")"
	out=$(nsrun --ro-bind / / --unshare-all --dev /dev "$PROBE" caps 2>&1)
	check_eq "no_new_privs with --unshare-all" 1 "$(get NoNewPrivs "$out")"
	if [ "$MODE" = unpriv ]; then
		for k in CapInh CapPrm CapEff CapBnd CapAmb; do
			check_eq "unprivileged: $k empty" 0000000000000000 "$(get $k "$out")"
		done
	else
		host=$("$PROBE" caps)
		out=$(nsrun --ro-bind / / "$PROBE" caps 2>&1)
		for k in CapInh CapPrm CapEff CapBnd CapAmb; do
			check_eq "root: $k untouched" "$(get $k "$host")" "$(get $k "$out")"
		done
	fi
}
for_each_mode test_privs

# A caller that ignores SIGCHLD: the disposition survives exec, and the kernel would
# reap nsrun's children before it waits for them. bwrap gives the status, and the
# command sees SIGCHLD not ignored.
test_sigchld_ignored() {
	local out rc
	out=$(as_user timeout 30 env --ignore-signal=CHLD "$BIN/nsrun" --ro-bind / / --unshare-pid -- \
		sh -c 'grep SigIgn /proc/self/status; exit 3' 2>&1)
	rc=$?
	check_eq "SIGCHLD ignored by the caller, pid namespace: the status passes" 3 "$rc"
	local ign
	ign=$(printf '%s\n' "$out" | awk '/^SigIgn:/ { print $2 }')
	check_eq "SIGCHLD ignored by the caller: not ignored in the command" 0 \
		"$(((0x${ign:-10000} >> 16) & 1))"
	as_user timeout 30 env --ignore-signal=CHLD "$BIN/nsrun" --ro-bind / / -- sh -c 'exit 3'
	check_eq "SIGCHLD ignored by the caller, no pid namespace: the status passes" 3 "$?"
	# --landlock-only --new-session from a group leader forks and waits (as setsid -w).
	as_user timeout 30 env --ignore-signal=CHLD setsid -w "$BIN/nsrun" --landlock-only \
		--landlock-rw /tmp --new-session -- sh -c 'exit 3'
	check_eq "SIGCHLD ignored by the caller, --landlock-only --new-session: the status passes" 3 "$?"
}
for_each_mode test_sigchld_ignored

done_testing
