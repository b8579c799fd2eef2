#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-supervise.sh: the supervision options (nsrun extensions): --timeout/--kill-after
# (exit 124, every process of the sandbox ended, with and without a pid namespace),
# --forward-signals, Ctrl-C in a pty (the sandbox in the terminal's foreground, or
# --new-session --forward-signals), --rlimit (nofile, nproc, as, the hard limit),
# --netns (a namespace the test made, as root and through --userns unprivileged),
# the status JSON's command-pid and final document, and the usage errors.
. "$top_srcdir/tests/integration/lib.sh"
need_ns

PY=/usr/bin/python3
[ -x "$PY" ] || skip_all "no /usr/bin/python3"
# --dev: a plain --ro-bind / / maps /dev nodev, and sh needs /dev/null for '&'.
SB="--ro-bind / / --dev /dev --bind $TMP/rw $TMP/rw"
mkdir -p "$TMP/rw"
chmod 0777 "$TMP/rw"

# A command that ignores SIGTERM and leaves a daemon, in a session of its own, that
# ignores it too: only SIGKILL to every process of the sandbox ends both.
cat >"$TMP/stubborn.sh" <<'SH'
trap '' TERM
setsid sh -c "trap '' TERM; echo \$\$ > $1/daemon; exec sleep $2" </dev/null &
echo started > "$1/started"
sleep "$2"
SH
# A command that logs the signals it gets; TERM ends it with 7.
cat >"$TMP/siglog.py" <<'PY'
import os, signal, sys, time
d = sys.argv[1]
def h(sig, frame):
    with open(d + "/log", "a") as f:
        f.write(signal.Signals(sig).name + "\n")
    if sig == signal.SIGTERM:
        sys.exit(7)
for s in ("SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGCONT", "SIGWINCH", "SIGTERM"):
    signal.signal(getattr(signal, s), h)
open(d + "/ready", "w").close()
for _ in range(300):
    time.sleep(0.1)
sys.exit(3)
PY
# What the pty runners share: the command on a new terminal as an interactive shell
# would start it, and reading its output until a marker, EOF or a time limit.
cat >"$TMP/ptylib.py" <<'PY'
import os, pty, select, signal, sys, termios, time
def start(argv):
    pid, fd = pty.fork()
    if pid == 0:
        # Without NOFLSH the tty driver flushes its output queue after sending SIGINT,
        # which may drop what the command wrote in between.
        a = termios.tcgetattr(0)
        a[3] |= termios.NOFLSH
        termios.tcsetattr(0, termios.TCSANOW, a)
        # A shell starts background jobs with SIGINT and SIGQUIT ignored, and exec keeps
        # that: the terminal's Ctrl-C must find nsrun as an interactive shell leaves it.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)
        os.execvp(argv[0], argv)
    return pid, fd
def pump(fd, buf, until, secs):
    end = time.time() + secs
    while until not in buf and time.time() < end:
        if select.select([fd], [], [], 0.2)[0]:
            try:
                d = os.read(fd, 1024)
            except OSError:
                return buf
            if not d:
                return buf
            buf += d
    return buf
PY
# The pty runner: the command on a new terminal; Ctrl-C once it says READY.
cat >"$TMP/ptyrun.py" <<'PY'
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptylib import start, pump
pid, fd = start(sys.argv[1:])
buf = pump(fd, b"", b"READY", 10)
os.write(fd, b"\x03")
buf = pump(fd, buf, b"\xff", 10)
st = os.waitpid(pid, 0)[1]
code = os.waitstatus_to_exitcode(st)
# Exit 42 comes only from the handler; its output may be lost when the last slave closes.
print("got-int" if b"GOT-INT" in buf or code == 42 else "no-int", code)
PY
# The same, but Ctrl-Z first: nsrun must stop as its command does (the shell would get
# its terminal back), and continue it when continued; then Ctrl-C.
cat >"$TMP/ptystop.py" <<'PY'
import os, signal, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptylib import start, pump
pid, fd = start(sys.argv[1:])
buf = pump(fd, b"", b"READY", 10)
os.write(fd, b"\x1a")
stopped = False
end = time.time() + 5
while time.time() < end and not stopped:
    p, st = os.waitpid(pid, os.WUNTRACED | os.WNOHANG)
    stopped = p != 0 and os.WIFSTOPPED(st)
    time.sleep(0.05)
os.kill(pid, signal.SIGCONT)
time.sleep(0.5)
os.write(fd, b"\x03")
buf = pump(fd, buf, b"\xff", 10)
st = os.waitpid(pid, 0)[1]
print("stopped" if stopped else "not-stopped",
      "got-int" if b"GOT-INT" in buf else "no-int", os.waitstatus_to_exitcode(st))
PY
# The command on a new terminal run as a shell runs a job (a child in the shell's own
# group); then whether the shell has its terminal back.
cat >"$TMP/ptyback.py" <<'PY'
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptylib import start, pump
shell = ("import os, subprocess, sys\n"
         "code = subprocess.call(sys.argv[1:])\n"
         "print('FG-BACK' if os.tcgetpgrp(0) == os.getpgrp() else 'FG-LOST', code, flush=True)\n")
pid, fd = start([sys.executable, "-c", shell] + sys.argv[1:])
buf = pump(fd, b"", b"\xff", 15)
os.waitpid(pid, 0)
line = [l for l in buf.decode(errors="replace").splitlines() if l.startswith("FG-")]
print(line[0].strip() if line else "no-answer")
PY
# A command that moves the terminal to a group of its own, leaving a process there
# (LEAVE=1) or not.
cat >"$TMP/grabtty.py" <<'PY'
import os, signal, subprocess, sys
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
os.setpgid(0, 0)
os.tcsetpgrp(0, os.getpgrp())
if len(sys.argv) > 1:
    subprocess.Popen(["sleep", sys.argv[1]], stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
sys.exit(5)
PY
# Its handler touches no buffered stream: SIGINT may come while print("READY") still holds
# stdout's lock (the runner acts on READY as soon as it is written), and a print in the
# handler then raises "RuntimeError: reentrant call" (Python 3.13, 14 runs in 40).
cat >"$TMP/ctrlc.py" <<'PY'
import os, signal, sys, time
def h(*a):
    os.write(1, b"GOT-INT\n")
    # Linux may drop what a pty's master has not read when the last slave closes.
    time.sleep(0.2)
    os._exit(42)
signal.signal(signal.SIGINT, h)
print("READY", flush=True)
time.sleep(20)
sys.exit(3)
PY
chmod 0755 "$TMP"/*.sh "$TMP"/*.py

# wait_file PATH: true once PATH exists (5 s at most).
wait_file() {
	local i
	for ((i = 0; i < 50; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# nsrun_exec ARGS...: nsrun in the current mode, as this very process (for `( ... ) &`,
# so that $! is nsrun's pid and signals sent to it reach nsrun, not a subshell).
nsrun_exec() {
	if [ "$MODE" = unpriv ]; then
		exec setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups -- "$BIN/nsrun" "$@"
	fi
	exec "$BIN/nsrun" "$@"
}

# line N FILE
line() { sed -n "${1}p" "$2"; }

now_ms() { date +%s%3N; }

# ---- --timeout / --kill-after ----

test_timeout_kill() {
	local pidns rc t0 t1 d
	# shellcheck disable=SC2086 # $pidns is one or two options
	for pidns in --unshare-pid "--unshare-pid --as-pid-1"; do
		d=$TMP/rw/kill$MODE${pidns##* }
		mkdir -p "$d" && chmod 0777 "$d"
		t0=$(now_ms)
		# shellcheck disable=SC2086
		nsrun $SB $pidns --timeout 0.5 --kill-after 0.7 --json-status-fd 3 \
			sh "$TMP/stubborn.sh" "$d" 61.$RANDOM 3>"$d/json" 2>"$d/err"
		rc=$?
		t1=$(now_ms)
		check_eq "timeout ${pidns:-without pid ns}: exit 124" 124 "$rc"
		check "timeout ${pidns:-without pid ns}: the command had started" test -e "$d/started"
		check "timeout ${pidns:-without pid ns}: waited the timeout and the grace period" \
			test $((t1 - t0)) -ge 1200
		check "timeout ${pidns:-without pid ns}: no longer than needed" test $((t1 - t0)) -lt 4000
		check_match "timeout ${pidns:-without pid ns}: first document is bwrap's" \
			'^\{ "child-pid": [0-9]+, "mnt-namespace": [0-9]+( , )?' "$(line 1 "$d/json")"
		check_match "timeout ${pidns:-without pid ns}: command-pid" \
			'^\{ "command-pid": [0-9]+ \}$' "$(line 2 "$d/json")"
		check_eq "timeout ${pidns:-without pid ns}: final document" \
			'{ "exit-code": 124, "exit-signal": 9, "timed-out": true }' "$(line 3 "$d/json")"
		check_eq "timeout ${pidns:-without pid ns}: three documents" 3 "$(wc -l <"$d/json")"
		check_eq "timeout ${pidns:-without pid ns}: one line on stderr says why" \
			"nsrun: --timeout: the command ran past 0.5 s; ended the sandbox with SIGTERM, then SIGKILL after 0.7 s (--kill-after)" \
			"$(cat "$d/err")"
		# The daemon left the command's session and ignored SIGTERM: it must be gone too.
		check "timeout ${pidns:-without pid ns}: the daemon wrote its pid" test -s "$d/daemon"
		check "timeout ${pidns:-without pid ns}: no process of the sandbox left" \
			sh -c "! pgrep -f 'sleep 61\\.' >/dev/null"
	done
}
for_each_mode test_timeout_kill

# Without a pid namespace no sweep is exact (a process that forks a successor and exits,
# faster than /proc can be read, outlives it): --timeout is refused there.
test_timeout_needs_pidns() {
	local out
	# shellcheck disable=SC2086
	out=$(nsrun $SB --landlock-scope --landlock-rw "$TMP/rw" --timeout 1 true 2>&1)
	check_eq "--timeout without a pid namespace: refused, exit 1, one line" \
		"1 nsrun: --timeout requires --unshare-pid (or --unshare-all), so that no process of the sandbox outlives the deadline and the command cannot signal nsrun" \
		"$? $out"
}
for_each_mode test_timeout_needs_pidns

HELPERS=${NSRUN_HELPERS:-$(dirname "$NSRUN_PROBE")}
if [ -x "$HELPERS/sec-attack" ]; then
	cp "$HELPERS/sec-attack" "$BIN/sec-attack"
fi

# none_left PATTERN [-x]: true once no process matches (5 s at most). A thread group
# whose leader exited is listed (by its name) while a thread runs on.
none_left() {
	local i
	for ((i = 0; i < 50; i++)); do
		pgrep "${2:--f}" "$1" >/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# The deadline is exact in each mode nsrun accepts it for: a thread group whose leader
# exited (a zombie in /proc while its thread runs on), as the command itself and
# below it, and a chain of processes that each fork a successor and exit.
test_deadline_exact() {
	local m l d rc t0 t1 i left lx="lx$$"
	if [ ! -x "$BIN/sec-attack" ]; then
		skip "deadline attacks" "sec-attack helper not built"
		return
	fi
	for m in --unshare-pid "--unshare-pid --as-pid-1"; do
		case $m in
		*as-pid-1) l="timeout --as-pid-1" ;;
		*) l="timeout --unshare-pid" ;;
		esac
		d=$TMP/rw/exact$MODE${l##* }
		mkdir -p "$d" && chmod 0777 "$d"
		# its own name, so that no other suite's process matches it
		cp "$BIN/sec-attack" "$BIN/$lx"
		for how in command child; do
			rm -f "$d/pid"
			t0=$(now_ms)
			if [ $how = command ]; then
				# shellcheck disable=SC2086
				as_user timeout -s KILL 20 "$BIN/nsrun" $SB $m --timeout 0.5 --kill-after 0.5 \
					"$BIN/$lx" leader-exit "$d/pid" 30 >/dev/null 2>&1
			else
				# shellcheck disable=SC2086
				as_user timeout -s KILL 20 "$BIN/nsrun" $SB $m --timeout 0.5 --kill-after 0.5 \
					sh -c '"$0" leader-exit "$1" 30 & sleep 30' "$BIN/$lx" "$d/pid" \
					>/dev/null 2>&1
			fi
			rc=$?
			t1=$(now_ms)
			check_eq "$l: leader exited, thread runs ($how): exit 124" 124 "$rc"
			# a hang is caught above (timeout's SIGKILL: 137); this bounds a slow sweep,
			# with room for a loaded, sanitised CI machine
			diag "$l: leader exited ($how): $((t1 - t0)) ms"
			check "$l: leader exited ($how): in time" test $((t1 - t0)) -lt 15000
			check "$l: leader exited ($how): it wrote its pid" test -s "$d/pid"
			check "$l: leader exited ($how): its thread is gone" \
				none_left "$lx" -x
		done
		left=0
		for i in 1 2 3 4 5; do
			# shellcheck disable=SC2086
			nsrun $SB $m --timeout 0.3 --kill-after 0.2 \
				sh -c '"$0" successors 15 & sleep 30' "$BIN/sec-attack" >/dev/null 2>&1
			rc=$?
			sleep 0.3
			if [ "$rc" != 124 ] || pgrep -f "sec-attack successors 15" >/dev/null; then
				left=$((left + 1))
			fi
			pkill -9 -f "sec-attack successors 15" 2>/dev/null
		done
		check_eq "$l: a chain of successors, 5 runs: 124 and nothing left" 0 "$left"
		# Ended in time: what the command left behind goes too.
		rm -f "$d/daemon"
		# shellcheck disable=SC2086
		nsrun $SB $m --timeout 30 sh -c \
			"setsid sh -c 'echo \$\$ >$d/daemon; exec sleep 62.$$' </dev/null >/dev/null 2>&1 &
			 while [ ! -s $d/daemon ]; do sleep 0.05; done; exit 3"
		rc=$?
		check_eq "$l: ended in time: the command's status" 3 "$rc"
		check "$l: ended in time: the daemon had started" test -s "$d/daemon"
		check "$l: ended in time: the daemon it left is gone" \
			none_left "sleep 62\\.$$"
	done
}
for_each_mode test_deadline_exact

test_timeout_term_enough() {
	local rc d=$TMP/rw/term$MODE t0 t1
	mkdir -p "$d" && chmod 0777 "$d"
	t0=$(now_ms)
	# shellcheck disable=SC2086
	nsrun $SB --unshare-pid --timeout 0.3 --json-status-fd 3 \
		sh -c 'trap "exit 0" TERM; sleep 30 & wait' 3>"$d/json" 2>"$d/err"
	rc=$?
	t1=$(now_ms)
	check_eq "SIGTERM was enough: still exit 124" 124 "$rc"
	check_eq "SIGTERM was enough: stderr says so" \
		"nsrun: --timeout: the command ran past 0.3 s; ended the sandbox with SIGTERM" \
		"$(cat "$d/err")"
	check_eq "SIGTERM was enough: the final document says so" \
		'{ "exit-code": 124, "exit-status": 0, "timed-out": true }' "$(line 3 "$d/json")"
	check "SIGTERM was enough: no grace period waited (default 5s)" test $((t1 - t0)) -lt 3000
	# shellcheck disable=SC2086
	nsrun $SB --unshare-pid --timeout 5 --json-status-fd 3 sh -c 'exit 3' 3>"$d/json2"
	check_eq "within the timeout: the command's status" 3 $?
	check_eq "within the timeout: final document" \
		'{ "exit-code": 3, "exit-status": 3, "timed-out": false }' "$(line 3 "$d/json2")"
	# shellcheck disable=SC2086
	nsrun $SB --unshare-pid --timeout 5 --json-status-fd 3 sh -c 'kill -s USR1 $$' 3>"$d/json3"
	check_eq "within the timeout, killed by a signal: 128+10" 138 $?
	check_eq "killed by a signal: exit-signal" \
		'{ "exit-code": 138, "exit-signal": 10, "timed-out": false }' "$(line 3 "$d/json3")"
	# shellcheck disable=SC2086
	nsrun $SB --unshare-pid --json-status-fd 3 sh -c 'exit 3' 3>"$d/json4"
	check_eq "no new option: bwrap's exit document, unchanged" '{ "exit-code": 3 }' \
		"$(line 2 "$d/json4")"
	check_eq "no new option: bwrap's two documents" 2 "$(wc -l <"$d/json4")"
}
for_each_mode test_timeout_term_enough

# command_pid_term DIR NSRUN-ARGS...: nsrun with --forward-signals --json-status-fd 3 (to
# DIR/json) runs siglog.py DIR; the command-pid document must name it, and a SIGTERM to
# nsrun must end it with its own status 7.
command_pid_term() {
	local d=$1 pid cp
	shift
	(nsrun_exec "$@" --forward-signals --json-status-fd 3 "$PY" "$TMP/siglog.py" "$d" \
		3>"$d/json") &
	pid=$!
	wait_file "$d/ready"
	cp=$(sed -n 's/^{ "command-pid": \([0-9]*\) }$/\1/p' "$d/json")
	check_match "command-pid is the command, seen from outside" "siglog.py" \
		"$(tr '\0' ' ' <"/proc/${cp:-0}/cmdline" 2>/dev/null)"
	kill -TERM "$pid"
	wait "$pid"
	check_eq "forwarded SIGTERM ended the command (7)" 7 $?
}

test_command_pid() {
	local d=$TMP/rw/cpid$MODE
	mkdir -p "$d" && chmod 0777 "$d"
	# shellcheck disable=SC2086
	command_pid_term "$d" $SB --unshare-pid
}
for_each_mode test_command_pid

# ---- --forward-signals ----

test_forward_signals() {
	local d=$TMP/rw/fwd$MODE pid rc s
	mkdir -p "$d" && chmod 0777 "$d"
	# shellcheck disable=SC2086
	(nsrun_exec $SB --forward-signals "$PY" "$TMP/siglog.py" "$d") &
	pid=$!
	wait_file "$d/ready"
	for s in INT HUP QUIT USR1 USR2 CONT WINCH; do
		kill -s "$s" "$pid"
		sleep 0.1
	done
	kill -s TERM "$pid"
	wait "$pid"
	rc=$?
	check_eq "--forward-signals: the command's status after TERM" 7 "$rc"
	check_eq "--forward-signals: every signal reached the command, in order" \
		"SIGINT SIGHUP SIGQUIT SIGUSR1 SIGUSR2 SIGCONT SIGWINCH SIGTERM" \
		"$(tr '\n' ' ' <"$d/log" | sed 's/ $//')"
	# Without it, bwrap's behaviour: USR1 ends nsrun itself.
	d=$TMP/rw/nofwd$MODE
	mkdir -p "$d" && chmod 0777 "$d"
	# shellcheck disable=SC2086
	(nsrun_exec $SB --die-with-parent "$PY" "$TMP/siglog.py" "$d") &
	pid=$!
	wait_file "$d/ready"
	kill -s USR1 "$pid"
	wait "$pid"
	check_eq "without --forward-signals: SIGUSR1 ends nsrun (138)" 138 $?
	check "without --forward-signals: the command got nothing" test ! -e "$d/log"
}
for_each_mode test_forward_signals

# ---- --landlock-only with --json-status-fd: the command becomes nsrun's child ----

test_landlock_only_status() {
	local d=$TMP/rw/llst$MODE out rc pid
	mkdir -p "$d/rw" && chmod -R 0777 "$d"
	out=$(nsrun --landlock-only --landlock-rw "$d/rw" --json-status-fd 3 -- \
		sh -c 'echo $$ >"$1/rw/pid"; touch "$1/denied" 2>/dev/null; exit 3' sh "$d" 3>&1)
	rc=$?
	check_eq "in place with a status fd: the command's status" 3 "$rc"
	check_match "the first document names the command as child-pid, with the Landlock keys" \
		"^\{ \"child-pid\": $(cat "$d/rw/pid" 2>/dev/null), \"landlock-abi\": [0-9]+, " \
		"$(line 1 <(printf '%s\n' "$out"))"
	check_eq "the final document is bwrap's exit-code" '{ "exit-code": 3 }' \
		"$(line 2 <(printf '%s\n' "$out"))"
	check "the boundary held in the child (no write outside --landlock-rw)" test ! -e "$d/denied"
	out=$(nsrun --landlock-only --json-status-fd 3 -- "$d/nosuch" 3>&1 2>/dev/null)
	check_eq "a command not found: 127, no final document" "127 1" \
		"$? $(printf '%s\n' "$out" | wc -l)"
	# Signals sent to nsrun reach the command with --forward-signals, as in a sandbox.
	command_pid_term "$d" --landlock-only --landlock-rw "$d"
	check_eq "the final document says how" '{ "exit-code": 7, "exit-status": 7, "timed-out": false }' \
		"$(line 3 "$d/json")"
	# --report-fd keeps nsrun as the command's parent too: forwarding works there.
	rm -f "$d/ready" "$d/log"
	(nsrun_exec --landlock-only --landlock-rw "$d" --report-fd 9 --forward-signals \
		"$PY" "$TMP/siglog.py" "$d" 9>/dev/null) &
	pid=$!
	wait_file "$d/ready"
	kill -s USR1 "$pid"
	sleep 0.1
	kill -s TERM "$pid"
	wait "$pid"
	check_eq "--landlock-only --report-fd --forward-signals: TERM ended the command (7)" 7 $?
	check_eq "... after USR1, both forwarded" "SIGUSR1 SIGTERM" "$(tr '\n' ' ' <"$d/log" | sed 's/ $//')"
	# Without a status fd nothing changes: nsrun execs the command in place.
	out=$(sh -c 'echo $$; exec "$1" --landlock-only -- sh -c "echo \$\$"' sh "$BIN/nsrun")
	check_eq "without a status fd the command is nsrun itself" 1 \
		"$(printf '%s\n' "$out" | sort -u | wc -l)"
}
for_each_mode test_landlock_only_status

# ---- Ctrl-C in a pty ----

test_ctrl_c() {
	local out
	out=$(as_user "$PY" "$TMP/ptyrun.py" "$BIN/nsrun" --ro-bind / / "$PY" "$TMP/ctrlc.py")
	check_eq "Ctrl-C reaches the command (foreground group), nsrun waits for it" "got-int 42" "$out"
	out=$(as_user "$PY" "$TMP/ptyrun.py" "$BIN/nsrun" --ro-bind / / --unshare-pid "$PY" "$TMP/ctrlc.py")
	check_eq "Ctrl-C reaches the command through pid 1" "got-int 42" "$out"
	out=$(as_user "$PY" "$TMP/ptyrun.py" "$BIN/nsrun" --landlock-only --json-status-fd 3 \
		"$PY" "$TMP/ctrlc.py" 3>"$TMP/llctrlc-$MODE.json")
	check_eq "--landlock-only with a status fd: Ctrl-C reaches the command" "got-int 42" "$out"
	check_eq "... and nsrun, left out of the terminal's group, writes how it ended" \
		'{ "exit-code": 42 }' "$(tail -n1 "$TMP/llctrlc-$MODE.json")"
	out=$(as_user "$PY" "$TMP/ptyrun.py" "$BIN/nsrun" --ro-bind / / --new-session --forward-signals \
		"$PY" "$TMP/ctrlc.py")
	check_eq "--new-session --forward-signals: Ctrl-C forwarded" "got-int 42" "$out"
	# The control: --new-session alone detaches the command from the terminal, so
	# Ctrl-C only ends nsrun (and --die-with-parent the command).
	out=$(as_user "$PY" "$TMP/ptyrun.py" "$BIN/nsrun" --ro-bind / / --new-session --die-with-parent \
		"$PY" "$TMP/ctrlc.py")
	check_eq "--new-session alone: Ctrl-C does not reach the command" "no-int -2" "$out"
}
for_each_mode test_ctrl_c

# Without --new-session the sandbox may move the terminal's foreground to a group of
# its own; after the run the shell must have it back, or its next read fails (EIO).
test_tty_back() {
	local out ns
	for ns in "" --unshare-pid; do
		out=$(as_user "$PY" "$TMP/ptyback.py" "$BIN/nsrun" --ro-bind / / --dev /dev $ns "$PY" "$TMP/grabtty.py")
		check_eq "terminal moved by the command ${ns:-(no pid ns)}: the shell has it back" "FG-BACK 5" "$out"
		out=$(as_user "$PY" "$TMP/ptyback.py" "$BIN/nsrun" --ro-bind / / --dev /dev $ns "$PY" "$TMP/grabtty.py" 2)
		check_eq "terminal moved, a process left there ${ns:-(no pid ns)}: the shell has it back" \
			"FG-BACK 5" "$out"
	done
}
for_each_mode test_tty_back

test_ctrl_z() {
	local out ns
	for ns in "" --unshare-pid; do
		out=$(as_user timeout 40 "$PY" "$TMP/ptystop.py" "$BIN/nsrun" --ro-bind / / $ns \
			"$PY" "$TMP/ctrlc.py")
		check_eq "Ctrl-Z ${ns:-without pid ns}: nsrun stops with its command, continues with it" \
			"stopped got-int 42" "$out"
	done
}
for_each_mode test_ctrl_z

# ---- --rlimit ----

# Opens /dev/null until it fails: "highest-fd errno".
OPENS='import os
hi = -1
try:
    for _ in range(200):
        hi = os.open("/dev/null", os.O_RDONLY)
    print(hi, 0)
except OSError as e:
    print(hi, e.errno)'

test_rlimit_nofile() {
	local out
	# shellcheck disable=SC2086
	out=$(nsrun $SB --rlimit nofile=16 "$PY" -c "$OPENS" 2>&1)
	check_eq "nofile=16: fds 0-15 open, the 17th fails with EMFILE" "15 24" "$out"
	# shellcheck disable=SC2086
	out=$(nsrun $SB "$PY" -c "$OPENS" 2>&1)
	check_match "without --rlimit: 200 opens succeed" '^[0-9]+ 0$' "$out"
	# shellcheck disable=SC2086
	out=$(nsrun $SB --rlimit nofile=16:32 sh -c 'ulimit -Sn; ulimit -Hn' 2>&1)
	check_eq "nofile=16:32: soft and hard" "16 32" "$(echo $out)"
	# shellcheck disable=SC2086
	out=$(nsrun $SB --unshare-pid --proc /proc --rlimit nofile=5 sh -c \
		'ulimit -n; sed -n "s/^Max open files *\([0-9]*\) .*/\1/p" /proc/1/limits' 2>&1)
	check_eq "the command's limit" 5 "$(echo "$out" | head -n1)"
	check "pid 1 keeps nsrun's own limit ($(echo $out))" test "$(echo "$out" | tail -n1)" -gt 5
	out=$(nsrun --landlock-only --rlimit nofile=20 --rlimit core=0 sh -c 'ulimit -n; ulimit -c' 2>&1)
	check_eq "--landlock-only: the launcher sets the limits in place too" "20 0" "$(echo $out)"
}
for_each_mode test_rlimit_nofile

FORKS='import os, time
n = 0
err = 0
kids = []
try:
    while n < 40:
        p = os.fork()
        if p == 0:
            time.sleep(5)
            os._exit(0)
        kids.append(p)
        n += 1
except OSError as e:
    err = e.errno
for p in kids:
    os.kill(p, 9)
    os.waitpid(p, 0)
print(n, err)'

# RLIMIT_NPROC counts the processes of a real uid, and the kernel never applies it to
# uid 0 of the host (INIT_USER, whatever user namespace it is mapped into) nor to a
# holder of CAP_SYS_RESOURCE or CAP_SYS_ADMIN: as root the command therefore drops to
# uid 1000 itself (a limit is inherited across setuid), which is what limits it.
test_rlimit_nproc() {
	local out n drop="" userns=--unshare-user
	if [ "$MODE" = root ]; then
		drop="setpriv --reuid=1000 --regid=1000 --clear-groups --"
		userns=""
	fi
	# shellcheck disable=SC2086
	out=$(nsrun $SB $userns --rlimit nproc=10 $drop "$PY" -c "$FORKS" 2>&1)
	n=${out% *}
	check "nproc=10 stops a fork loop before 10 processes ($out)" test "${n:-99}" -lt 10
	check_eq "nproc=10: fork fails with EAGAIN" 11 "${out#* }"
	# shellcheck disable=SC2086
	out=$(nsrun $SB $userns $drop "$PY" -c "$FORKS" 2>&1)
	check_eq "without --rlimit the same loop forks 40" "40 0" "$out"
}
for_each_mode test_rlimit_nproc

ALLOC='try:
    b = bytearray(512 << 20)
    print("allocated")
except MemoryError:
    print("MemoryError")'

test_rlimit_as() {
	local out
	# shellcheck disable=SC2086
	out=$(nsrun $SB --rlimit as=256M "$PY" -c "$ALLOC" 2>&1)
	check_eq "as=256M stops a 512 MiB allocation" MemoryError "$out"
	# shellcheck disable=SC2086
	out=$(nsrun $SB --rlimit as=unlimited "$PY" -c "$ALLOC" 2>&1)
	check_eq "as=unlimited allows it" allocated "$out"
}
for_each_mode test_rlimit_as

# Raising a hard limit takes CAP_SYS_RESOURCE in the initial user namespace; this
# machine's root may lack it (a container's bounding set), so the test asks.
has_sys_resource() {
	local eff
	eff=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
	[ "$MODE" = root ] && [ $(((0x$eff >> 24) & 1)) = 1 ]
}

test_rlimit_hard() {
	local out rc
	# shellcheck disable=SC2086
	out=$(as_user prlimit --nofile=64:128 -- "$BIN/nsrun" $SB --rlimit nofile=256 \
		sh -c 'ulimit -Hn' 2>&1)
	rc=$?
	if has_sys_resource; then
		check_eq "with CAP_SYS_RESOURCE the hard limit may be raised" "0 256" "$rc $out"
	else
		check_eq "without CAP_SYS_RESOURCE: above the hard limit is an error, exit 1" 1 "$rc"
		check_eq "without CAP_SYS_RESOURCE: one line naming the limit" \
			"nsrun: --rlimit nofile: raising the hard limit to 256 needs CAP_SYS_RESOURCE: Operation not permitted" \
			"$out"
	fi
	# shellcheck disable=SC2086
	out=$(as_user prlimit --nofile=64:128 -- "$BIN/nsrun" $SB --rlimit nofile=200: true 2>&1)
	check_eq "a soft limit above the current hard one: exit 1, one line" \
		"1 nsrun: --rlimit nofile: soft limit 200 is above the hard limit 128: Invalid argument" \
		"$? $out"
}
for_each_mode test_rlimit_hard

# ---- --netns ----

test_netns() {
	local tag hp out want
	tag=71.$RANDOM
	if [ "$MODE" = root ]; then
		unshare -n sleep "$tag" &
	else
		setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups -- unshare -Urn sleep "$tag" &
	fi
	hp=$(wait_pgrep -f "^sleep $tag\$")
	want=$(readlink "/proc/$hp/ns/net")
	check "the test's namespace differs from the host's" test "$want" != "$(readlink /proc/self/ns/net)"
	if [ "$MODE" = root ]; then
		out=$(nsrun --ro-bind / / --netns 4 readlink /proc/self/ns/net 4<"/proc/$hp/ns/net" 2>&1)
	else
		out=$(nsrun --ro-bind / / --userns 3 --netns 4 readlink /proc/self/ns/net \
			3<"/proc/$hp/ns/user" 4<"/proc/$hp/ns/net" 2>&1)
	fi
	check_eq "--netns joins the namespace the test made" "$want" "$out"
	out=$(nsrun --ro-bind / / --netns 4 --unshare-pid cat /proc/net/dev 4<"/proc/$hp/ns/net" 2>&1)
	if [ "$MODE" = root ]; then
		check_match "--netns: the namespace's own lo only" '^ *lo:' "$(echo "$out" | tail -n +3)"
		check_eq "--netns: one interface" 1 "$(echo "$out" | tail -n +3 | wc -l)"
	else
		# By kernel rule: setns needs CAP_SYS_ADMIN over the netns's owner, which a
		# user has only through that user namespace (--userns).
		check_eq "unprivileged without --userns: one line, exit 1" \
			"nsrun: --netns 4: joining needs CAP_SYS_ADMIN over the user namespace that owns it; pass that one with --userns: Operation not permitted" \
			"$out"
	fi
	kill "$hp"
	wait
}
for_each_mode test_netns

# ---- attacks on the deadline (an attacker's review of the supervision layer) ----

# The command stops itself where the sandbox has the terminal: nsrun used to follow the
# stop and, stopped, served no deadline. With --timeout it never stops: exit 124 in time.
cat >"$TMP/ptywait.py" <<'PY'
import os, signal, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptylib import start
pid, fd = start(sys.argv[1:])
end = time.time() + 15
while time.time() < end:
    try:
        os.read(fd, 1024)
    except OSError:
        pass
    p, st = os.waitpid(pid, os.WNOHANG)
    if p:
        print(os.waitstatus_to_exitcode(st))
        sys.exit(0)
    time.sleep(0.05)
os.kill(pid, signal.SIGKILL)
print("hung")
PY

test_deadline_attacks() {
	local out rc t0 t1
	t0=$(now_ms)
	out=$(as_user "$PY" "$TMP/ptywait.py" "$BIN/nsrun" $SB --unshare-pid --timeout 1 \
		--kill-after 1 sh -c 'sleep 30.$$ & kill -STOP $$')
	t1=$(now_ms)
	check_eq "a command that stops itself on the terminal: nsrun still exits 124" 124 "$out"
	check "a command that stops itself: in time" test $((t1 - t0)) -lt 6000
	# In its own pid namespace the command sees no nsrun but its pid 1, which a
	# namespace's processes cannot kill.
	out=$(nsrun $SB --unshare-pid --timeout 1 --kill-after 1 \
		sh -c 'kill -KILL 1 $PPID 2>/dev/null; sleep 30' 2>&1)
	rc=$?
	check_eq "the command cannot kill nsrun's pid 1; the deadline holds" \
		"nsrun: --timeout: the command ran past 1 s; ended the sandbox with SIGTERM 124" \
		"${out//$'\n'/ } $rc"
	# A /proc of another pid namespace would name other processes by the same numbers.
	if [ "$MODE" = root ]; then
		out=$(unshare -p -f "$BIN/nsrun" $SB --unshare-pid --timeout 1 true 2>&1)
	else
		out=$(as_user unshare -Urpf "$BIN/nsrun" $SB --unshare-pid --timeout 1 true 2>&1)
	fi
	check_eq "--timeout under a /proc of another pid namespace: exit 1" 1 $?
	check_match "--timeout under a /proc of another pid namespace: message" \
		"^nsrun: --timeout: /proc belongs to another pid namespace " "$out"
}
for_each_mode test_deadline_attacks

# ---- usage errors: exit 1, one line ----

test_errors() {
	local args out rc
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086
		out=$(nsrun $args true 2>&1)
		rc=$?
		check_eq "error for '$args': exit 1 and one line" "1 1" "$rc $(printf '%s\n' "$out" | wc -l)"
		check_eq "error for '$args': message" "nsrun: $want" "$out"
	done <<'EOF_CASES'
--timeout soon|--timeout takes a DURATION such as 10, 1.5 or 2m, not 'soon'
--timeout 1x|--timeout takes a DURATION such as 10, 1.5 or 2m, not '1x'
--timeout 1 --kill-after -2|--kill-after takes a DURATION such as 10, 1.5 or 2m, not '-2'
--kill-after 1|--kill-after requires --timeout
--timeout 1|--timeout requires --unshare-pid (or --unshare-all), so that no process of the sandbox outlives the deadline and the command cannot signal nsrun
--rlimit nofile|--rlimit takes NAME=SOFT[:HARD], not 'nofile'
--rlimit files=5|--rlimit: unknown resource 'files'
--rlimit nofile=5:4|--rlimit: soft limit above hard limit in 'nofile=5:4'
--rlimit nofile=many|--rlimit: invalid limit 'many' (a number, or unlimited)
--netns x|Invalid fd: x
--netns 0 --unshare-net|--netns cannot be combined with --unshare-net (with --unshare-all, add --share-net)
--unshare-pid --as-pid-1 --forward-signals|Specifying --forward-signals and --as-pid-1 is not permitted
--landlock-only --timeout 1|--landlock-only cannot be combined with --timeout
--landlock-only --forward-signals|--landlock-only cannot be combined with --forward-signals without --json-status-fd or --report-fd (in place, nsrun is the command)
EOF_CASES
	out=$(nsrun --ro-bind / / --netns 0 true </dev/null 2>&1)
	check_eq "--netns on a file that is no namespace: exit 1, one line" "1 1" "$? $(printf '%s\n' "$out" | wc -l)"
}
for_each_mode test_errors

done_testing
