#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-keyboard.sh: --ignore-keyboard-signals (bubblewrap PR #732, an nsrun extension).
# nsrun runs in a process group of its own, started with SIGINT and SIGQUIT at their
# defaults as an interactive shell starts a job; SIGINT and SIGQUIT go to the whole group
# as a terminal sends them, then SIGINT to nsrun alone. With the option nsrun survives
# them and the command, which handles them, gets them and ends as it chooses; without it
# nsrun dies (the control that shows the signals are real). The dispositions: nsrun's
# own ignore both, in the sandbox too (a pid 1 that is no namespace's init, --pidns's
# relay: none of the group's processes may die of them), the command's are the caller's
# (default, or ignored when the caller ignored them). With --forward-signals they are not forwarded, other signals are.
# On a real terminal with --new-session, Ctrl-C and Ctrl-\ reach nsrun alone, which
# survives them. With --landlock-only and a status fd the command is nsrun's child, which
# takes back the caller's dispositions too.
. "$top_srcdir/tests/integration/lib.sh"
need_ns
also_without_userns

PY=/usr/bin/python3
[ -x "$PY" ] || skip_all "no /usr/bin/python3"

# The command: writes its SigIgn, logs the signals it handles, ends 0 once told to.
cat >"$TMP/cmd.py" <<'PY'
import os, signal, sys, time
d = sys.argv[1]
with open("/proc/self/status") as f:
    ign = [l.split()[1] for l in f if l.startswith("SigIgn:")][0]
with open(d + "/cmd-sigign", "w") as f:
    f.write(ign)
def h(sig, frame):
    with open(d + "/log", "a") as f:
        f.write(signal.Signals(sig).name + "\n")
for s in (signal.SIGINT, signal.SIGQUIT, signal.SIGUSR1):
    signal.signal(s, h)
open(d + "/ready", "w").close()
for _ in range(200):
    if os.path.exists(d + "/go"):
        sys.exit(0)
    time.sleep(0.05)
sys.exit(3)
PY
# The caller: nsrun in a new process group, INT as asked (default or ignored), QUIT at
# its default; the signals once the command is ready; prints nsrun's SigIgn and how it
# ended (128+N for signal N), and how many of the group's processes the signals ended.
cat >"$TMP/launch.py" <<'PY'
import os, signal, sys, time
d, ign, usr1 = sys.argv[1], sys.argv[2] == "1", sys.argv[3] == "1"
argv = sys.argv[5:]
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN if ign else signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)
    os.execvp(argv[0], argv)
os.setpgid(pid, pid) if os.getpgid(pid) != pid else None
for _ in range(200):
    if os.path.exists(d + "/ready"):
        break
    time.sleep(0.05)
with open("/proc/%d/status" % pid) as f:
    nsign = [l.split()[1] for l in f if l.startswith("SigIgn:")][0]
# The live processes of nsrun's group: nsrun's own (pid 1, a relay) and the command.
def group():
    live = set()
    for p in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/stat" % p) as f:
                st = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(st[2]) == pid and st[0] != "Z":
            live.add(p)
    return live
before = group()
for send in (lambda: os.killpg(pid, signal.SIGINT), lambda: os.killpg(pid, signal.SIGQUIT),
             lambda: os.kill(pid, signal.SIGINT)) + ((lambda: os.kill(pid, signal.SIGUSR1)),) * usr1:
    try:
        send()
    except ProcessLookupError:
        pass
    time.sleep(0.3)
lost = len(before - group())
open(d + "/go", "w").close()
_, st = os.waitpid(pid, 0)
code = os.WEXITSTATUS(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st)
print("nsrun-sigign=%s lost=%d status=%d" % (nsign, lost, code))
PY

# A terminal: COMMAND on a new pty as an interactive shell starts a job (INT and QUIT at
# their defaults); Ctrl-C then Ctrl-\ typed once it prints "ready"; prints its output
# and how it ended.
cat >"$TMP/onterm.py" <<'PY'
import os, pty, select, signal, sys, time
pid, fd = pty.fork()
if pid == 0:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)
    os.execvp(sys.argv[1], sys.argv[1:])
out, keys, end = b"", [b"\x03", b"\x1c"], time.time() + 20
while time.time() < end:
    if b"ready" in out and keys:
        os.write(fd, keys.pop(0))
        time.sleep(0.3)
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            b = os.read(fd, 4096)
        except OSError:
            break
        if not b:
            break
        out += b
_, st = os.waitpid(pid, 0)
code = os.WEXITSTATUS(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st)
print(out.decode(errors="replace").replace("\r", "").replace("\n", " ") + " status=%d" % code)
PY

# run_kb NAME CALLER_IGNORES_INT SEND_USR1 NSRUN_ARGS...: one run; sets D, OUT.
run_kb() {
	local name=$1 ign=$2 usr1=$3
	shift 3
	D=$(mode_dir "$name")
	rm -f "$D"/*
	OUT=$(run_in_mode "$PY" "$TMP/launch.py" "$D" "$ign" "$usr1" -- "$BIN/nsrun" "$@" \
		--ro-bind / / --dev /dev --bind "$D" "$D" "$PY" "$TMP/cmd.py" "$D" 2>&1)
}

# In a SigIgn mask, (mask >> 1) & 3 is SIGINT's bit (1) and SIGQUIT's (2).
test_keyboard() {
	local ns ign
	for ns in "--unshare-pid" ""; do
		# shellcheck disable=SC2086 # ns is one option or none
		run_kb kb 0 0 --ignore-keyboard-signals $ns
		check_match "${ns:-no pid ns}: nsrun survives INT and QUIT to its group and INT alone" \
			"lost=0 status=0\$" "$OUT"
		ign=$(printf '%s\n' "$OUT" | sed -n 's/.*nsrun-sigign=\([0-9a-f]*\).*/\1/p')
		check_eq "${ns:-no pid ns}: nsrun ignores SIGINT and SIGQUIT ($ign)" 3 \
			"$(((16#${ign:-0} >> 1) & 3))"
		check_eq "${ns:-no pid ns}: the command got the group's INT and QUIT" \
			"$(printf 'SIGINT\nSIGQUIT')" "$(sort -u "$D/log" 2>/dev/null)"
		ign=$(cat "$D/cmd-sigign" 2>/dev/null)
		check "${ns:-no pid ns}: the command does not inherit the ignored state ($ign)" \
			test -n "$ign" -a "$(((16#${ign:-0} >> 1) & 3))" = 0
		# The control: the same signals end nsrun without the option.
		# shellcheck disable=SC2086
		run_kb kb-none 0 0 $ns
		check_match "${ns:-no pid ns}: without the option the group's SIGINT ends nsrun" \
			"status=130\$" "$OUT"
	done
	# nsrun's pid 1 where it is no namespace's init (--lock-file without a pid namespace)
	# ignores them too: a QUIT that ended it would release the lock and end nsrun (131)
	# with the command still running, unwatched.
	L=$(mode_dir kb-lockfile)
	: >"$L/lock"
	run_kb kb-lock 0 0 --ignore-keyboard-signals --lock-file "$L/lock"
	check_match "--lock-file, no pid ns: nsrun and its pid 1 survive INT and QUIT" \
		"lost=0 status=0\$" "$OUT"
	check_eq "--lock-file, no pid ns: the command got the group's INT and QUIT" \
		"$(printf 'SIGINT\nSIGQUIT')" "$(sort -u "$D/log" 2>/dev/null)"
	ign=$(cat "$D/cmd-sigign" 2>/dev/null)
	check "--lock-file, no pid ns: the command does not inherit the ignored state ($ign)" \
		test -n "$ign" -a "$(((16#${ign:-0} >> 1) & 3))" = 0
	# And the relay that --pidns with --unshare-pid leaves outside the nested pid namespace,
	# joining a sandbox started for it (as t-caps.sh does).
	if [ -z "${NOUSERNS:-}" ]; then
		local bg pid i
		rm -f "$L/info"
		nsrun --ro-bind / / --unshare-user --unshare-pid --die-with-parent --info-fd 3 \
			sleep 60 3>"$L/info" >/dev/null 2>&1 &
		bg=$!
		for ((i = 0; i < 50; i++)); do
			pid=$(jkey child-pid "$(cat "$L/info" 2>/dev/null)")
			[ -n "$pid" ] && [ -e "/proc/$pid/ns/pid" ] && break
			sleep 0.1
		done
		run_kb kb-relay 0 0 --ignore-keyboard-signals --userns 3 --pidns 4 --unshare-pid \
			3<"/proc/$pid/ns/user" 4<"/proc/$pid/ns/pid"
		check_match "--pidns --unshare-pid: nsrun and its relay survive INT and QUIT" \
			"lost=0 status=0\$" "$OUT"
		kill "$bg" 2>/dev/null
		wait "$bg" 2>/dev/null
	fi
	# A caller that ignores SIGINT passes that on, as without the option.
	run_kb kb-ign 1 0 --ignore-keyboard-signals --unshare-pid
	ign=$(cat "$D/cmd-sigign" 2>/dev/null)
	check "the caller's ignored SIGINT reaches the command ignored, SIGQUIT not ($ign)" \
		test -n "$ign" -a "$(((16#${ign:-0} >> 1) & 3))" = 1
	# With --forward-signals: INT and QUIT ignored, USR1 still forwarded.
	run_kb kb-fwd 0 1 --ignore-keyboard-signals --forward-signals --unshare-pid
	check_match "with --forward-signals: nsrun survives" "status=0\$" "$OUT"
	check "with --forward-signals: USR1 sent to nsrun alone is forwarded" \
		grep -qx SIGUSR1 "$D/log"
	# A real terminal's Ctrl-C and Ctrl-\: with --new-session the sandbox is in a session of
	# its own, so they reach nsrun's group alone; nsrun ignores them and the command ends
	# as it would have. The control: without the option Ctrl-C ends nsrun.
	OUT=$(run_in_mode "$PY" "$TMP/onterm.py" "$BIN/nsrun" --new-session --ignore-keyboard-signals \
		--unshare-pid --ro-bind / / --dev /dev sh -c 'echo ready; sleep 2; echo survived')
	check_match "terminal, --new-session: Ctrl-C and Ctrl-\\ leave nsrun and the command running" \
		"ready .*survived .*status=0\$" "$OUT"
	OUT=$(run_in_mode "$PY" "$TMP/onterm.py" "$BIN/nsrun" --new-session --unshare-pid \
		--ro-bind / / --dev /dev sh -c 'echo ready; sleep 2; echo survived')
	check_match "terminal, --new-session, without the option: Ctrl-C ends nsrun" "status=130\$" "$OUT"
	# --landlock-only with a status fd: the command is nsrun's child, which takes back
	# the caller's dispositions as a sandbox's process does.
	if [ -n "$(landlock_abi)" ]; then
		D=$(mode_dir kb-ll)
		rm -f "$D"/*
		OUT=$(run_in_mode "$PY" "$TMP/launch.py" "$D" 0 0 -- "$BIN/nsrun" --landlock-only \
			--json-status-fd 9 --ignore-keyboard-signals --landlock-rw "$D" \
			"$PY" "$TMP/cmd.py" "$D" 9>/dev/null 2>&1)
		check_match "--landlock-only --json-status-fd: nsrun survives" "status=0\$" "$OUT"
		ign=$(cat "$D/cmd-sigign" 2>/dev/null)
		check "--landlock-only --json-status-fd: the command's INT and QUIT are not ignored ($ign)" \
			test -n "$ign" -a "$(((16#${ign:-0} >> 1) & 3))" = 0
		# --report-fd too makes nsrun the command's parent, which stays to report.
		rm -f "$D"/*
		OUT=$(run_in_mode "$PY" "$TMP/launch.py" "$D" 0 0 -- "$BIN/nsrun" --landlock-only \
			--report-fd 9 --ignore-keyboard-signals --landlock-rw "$D" \
			"$PY" "$TMP/cmd.py" "$D" 9>/dev/null 2>&1)
		check_match "--landlock-only --report-fd: nsrun survives" "lost=0 status=0\$" "$OUT"
		ign=$(cat "$D/cmd-sigign" 2>/dev/null)
		check "--landlock-only --report-fd: the command's INT and QUIT are not ignored ($ign)" \
			test -n "$ign" -a "$(((16#${ign:-0} >> 1) & 3))" = 0
	fi
	err_case "--landlock-only without a status fd" \
		"bwrap: --landlock-only cannot be combined with --ignore-keyboard-signals without --json-status-fd or --report-fd (in place, nsrun is the command)" \
		--landlock-only --ignore-keyboard-signals
}
for_each_mode test_keyboard

done_testing
