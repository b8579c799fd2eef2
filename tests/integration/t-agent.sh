#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-agent.sh: end-to-end agent-runner scenarios (an agent's bwrap "safe mode" shell tool,
# the man page's agent example and README's recipe), root and unprivileged: the safe mode's sandbox shape,
# plus overlay-hide/allow, plus the Landlock boundary, plus seccomp; fail-closed paths,
# status JSON, --args carrying the whole argv, and a runner killing nsrun on timeout.
# shellcheck disable=SC2016,SC2317,SC2020 # snippets expand in the sandboxed shell; cases run via for_each_mode
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns
need_landlock 1

# A PATH every mode can search (the suite's own PATH may hold root-only directories).
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
cp "$NSRUN_HELPERS/seccomp-deny" "$BIN/seccomp-deny"
[ -x "$BIN/force-enosys" ] || cp "$NSRUN_HELPERS/force-enosys" "$BIN/force-enosys"

# setup_ws: a fresh workspace and an "outside" directory, both writable by the mode's user.
setup_ws() {
	WS="$TMP/ws-$MODE"
	OUT="$TMP/out-$MODE"
	rm -rf "$WS" "$OUT"
	mkdir -p "$WS" "$OUT"
	echo keep >"$OUT/keep"
	echo victim >"$WS/victim"
	if [ "$MODE" = unpriv ] && is_root; then chown -R "$UNPRIV_UID:$UNPRIV_GID" "$WS" "$OUT"; fi
	# the safe mode's sandbox as agent runners pass it to bwrap, apart from the host paths
	SEED=(--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib
		--symlink usr/lib64 /lib64 --ro-bind /etc /etc --proc /proc --dev /dev
		--tmpfs /tmp --bind "$WS" /workspace --chdir /workspace
		--unshare-all --die-with-parent --new-session)
}

# A loopback listener on the host: the sandbox must not reach it.
start_listener() {
	perl -MIO::Socket::INET -e '
		my $s = IO::Socket::INET->new(Listen => 5, LocalAddr => "127.0.0.1", LocalPort => 0,
			ReuseAddr => 1) or die "listen: $!";
		open(my $f, ">", "$ARGV[0].tmp") or die; print $f $s->sockport, "\n"; close $f;
		rename("$ARGV[0].tmp", $ARGV[0]); alarm 120; while (my $c = $s->accept) { close $c }' \
		"$TMP/port" &
	LISTENER=$!
	trap 'kill "$LISTENER" 2>/dev/null; cleanup_tmp' EXIT
	for _ in $(seq 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
	PORT=$(cat "$TMP/port")
}
start_listener

CONNECT='perl -MSocket -e '\''socket(my $s, PF_INET, SOCK_STREAM, 0) or die;
	print(connect($s, pack_sockaddr_in($ARGV[1], inet_aton($ARGV[0]))) ? "connected\n" : "$!\n")'\'''

case_safe_mode_shape() {
	local out host_pidns host_tmp
	setup_ws
	host_pidns=$(readlink /proc/self/ns/pid)
	host_tmp="nsrun-e2e-private-$$-$MODE"
	out=$(nsrun "${SEED[@]}" -- /bin/sh -c '
		echo written >created && echo ws=ok
		echo pwd=$(pwd)
		touch /usr/'"$host_tmp"' 2>/dev/null && echo usr=rw || echo usr=ro
		echo netdevs=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " " | tr "\n" " ")
		echo outside=$('"$CONNECT"' 192.0.2.1 80)
		echo hostlo=$('"$CONNECT"' 127.0.0.1 '"$PORT"')
		echo tmp=$(ls -A /tmp | wc -l)
		echo x >/tmp/'"$host_tmp"' && echo tmpw=ok
		echo pid=$$ pid1=$(cat /proc/1/comm)
		echo pidns=$(readlink /proc/self/ns/pid)
		echo outside-write=$(echo x >/dev/shm/shm-'"$MODE"' && echo ok)' 2>&1)
	check_match "safe mode: the workspace is writable" '^ws=ok$' "$out"
	check_eq "safe mode: ... and the change reaches the host" written "$(cat "$WS/created" 2>&1)"
	check_match "safe mode: cwd is /workspace" '^pwd=/workspace$' "$out"
	check_match "safe mode: /usr is read-only" '^usr=ro$' "$out"
	check "safe mode: ... and nothing was created on the host" test ! -e "/usr/$host_tmp"
	check_match "safe mode: only lo in the network namespace" '^netdevs=lo$' "$out"
	check_match "safe mode: an outside address is unreachable" '^outside=Network is unreachable$' "$out"
	check_eq "safe mode: control: the host listener accepts from the host" connected \
		"$(perl -MSocket -e 'socket(my $s, PF_INET, SOCK_STREAM, 0);
			print(connect($s, pack_sockaddr_in($ARGV[0], inet_aton("127.0.0.1"))) ? "connected" : "$!")' "$PORT")"
	check_match "safe mode: the host's loopback listener is not reachable" '^hostlo=Connection refused$' "$out"
	check_match "safe mode: /tmp starts empty" '^tmp=0$' "$out"
	check_match "safe mode: /tmp is writable" '^tmpw=ok$' "$out"
	check "safe mode: ... and private (nothing on the host's /tmp)" test ! -e "/tmp/$host_tmp"
	check_match "safe mode: own pid namespace, nsrun's init is pid 1" '^pid=2 pid1=nsrun$' "$out"
	check_nomatch "safe mode: pid namespace differs from the host's" "^pidns=$host_pidns\$" "$out"
	check_match "safe mode: control: /dev/shm is writable without Landlock" '^outside-write=ok$' "$out"
}
for_each_mode case_safe_mode_shape

case_hide() {
	local out rc want
	setup_ws
	printf '#!/bin/sh\nrm -f /workspace/victim\necho after-rm\n' >"$WS/calls-rm.sh"
	chmod 0755 "$WS/calls-rm.sh"
	out=$(nsrun "${SEED[@]}" --overlay-hide rm -- /bin/sh -c '
		command -v rm || echo command-v-fails
		for p in /usr/bin/rm /bin/rm; do
			ls -d $p 2>&1 | grep -q "No such file" && echo "enoent $p"
		done
		ls -d /usr >/dev/null && cat /etc/hostname >/dev/null && cp victim copy && echo tools-ok' 2>&1)
	check_eq "hide rm: command -v fails, /usr/bin/rm and /bin/rm ENOENT, ls/cat/cp work" \
		"command-v-fails
enoent /usr/bin/rm
enoent /bin/rm
tools-ok" "$out"
	out=$(nsrun "${SEED[@]}" --overlay-hide rm -- /bin/sh -c './calls-rm.sh' 2>&1)
	check_match "hide rm: a script calling rm gets 'not found'" 'rm: not found' "$out"
	check "hide rm: ... and the file it meant to remove is still there" test -e "$WS/victim"
	check "hide rm: the host's /usr/bin/rm is untouched" test -e /usr/bin/rm

	want=$(for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin; do
		[ -d "$d" ] || continue
		for n in ls cat sh python3; do
			[ -e "$d/$n" ] || continue
			echo "$d:$n"
			l=$n
			while [ -L "$d/$l" ]; do # sh -> dash, python3 -> python3.11
				l=$(readlink "$d/$l")
				case $l in */*) break ;; esac
				echo "$d:$l"
			done
		done
	done | LC_ALL=C sort -u)
	out=$(nsrun "${SEED[@]}" --overlay-allow ls --overlay-allow cat --overlay-allow sh \
		--overlay-allow python3 -- /bin/sh -c '
		for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin; do
			[ -d $d ] || continue
			for f in $(ls -A $d); do echo "$d:$f"; done
		done' 2>&1 | LC_ALL=C sort)
	check_match "allow: the expected set holds /usr/bin/ls" '^/usr/bin:ls$' "$want"
	check_eq "allow: exactly ls, cat, sh, python3 (and their link targets) remain in PATH" "$want" "$out"
	out=$(nsrun "${SEED[@]}" --overlay-allow ls --overlay-allow cat --overlay-allow sh \
		--overlay-allow python3 -- /bin/sh -c '
		ls /etc/hostname && cat /etc/hostname >/dev/null && python3 -c "print(6 * 7)"
		command -v cp || echo no-cp' 2>&1)
	rc=$?
	check_eq "allow: the allowed tools run, others are gone" "/etc/hostname
42
no-cp" "$out"
	check_eq "allow: exit status 0" 0 "$rc"
}
for_each_mode case_hide

case_landlock() {
	local out rc ll
	setup_ws
	ll=(--bind "$OUT" /outside --overlay-hide rm --landlock-rw /workspace --landlock-rw /tmp)
	out=$(nsrun "${SEED[@]}" --bind "$OUT" /outside -- /bin/sh -c \
		'echo x >/outside/control && echo x >/dev/shm/control && echo control-ok' 2>&1)
	check_eq "landlock: control: /outside and /dev/shm are writable mounts" control-ok "$out"
	out=$(nsrun "${SEED[@]}" "${ll[@]}" -- /bin/sh -c '
		echo in >/workspace/in && echo ws=ok
		mkdir sub && echo deep >sub/f && echo ws-sub=ok
		echo t >/tmp/t && echo tmp=ok
		echo x 2>/dev/null >/outside/new || echo outside=denied
		echo x 2>/dev/null >/dev/shm/x || echo shm=denied
		echo x 2>/dev/null >>/outside/keep || echo append=denied
		ls /nonexistent 2>/dev/null; echo x >/dev/null && echo devnull=ok
		command -v rm >/dev/null || echo rm=hidden
		ln -s /outside/keep lnk && { echo x 2>/dev/null >>lnk || echo via-symlink=denied; }
		python3 -c "
import errno, os
try:
    os.unlink(\"/outside/keep\")
    print(\"unlink=ok\")
except OSError as e:
    print(\"unlink=\" + errno.errorcode[e.errno])"' 2>&1)
	check_eq "landlock: inside writes succeed, outside ones fail, 2>/dev/null works" "ws=ok
ws-sub=ok
tmp=ok
outside=denied
shm=denied
append=denied
devnull=ok
rm=hidden
via-symlink=denied
unlink=EACCES" "$out"
	check_eq "landlock: ... the workspace changes reach the host" "in deep" \
		"$(cat "$WS/in" "$WS/sub/f" 2>&1 | tr '\n' ' ' | sed 's/ $//')"
	check "landlock: ... nothing new outside, and keep is intact" \
		test ! -e "$OUT/new" -a "$(cat "$OUT/keep")" = keep

	cp /usr/bin/rm "$WS/myrm"
	if [ "$MODE" = unpriv ] && is_root; then chown "$UNPRIV_UID:$UNPRIV_GID" "$WS/myrm"; fi
	out=$(nsrun "${SEED[@]}" --overlay-hide rm -- /bin/sh -c './myrm victim && echo removed' 2>&1)
	check_eq "hide alone is no boundary: a copy of rm in /workspace runs" removed "$out"
	echo victim >"$WS/victim"
	out=$(nsrun "${SEED[@]}" --overlay-hide rm --landlock-rw /workspace --landlock-rw /tmp \
		--landlock-exec /usr/bin -- /bin/sh -c './myrm victim; echo rc=$?; ls -d /usr >/dev/null && echo ls=ok' 2>&1)
	check_match "landlock-exec /usr/bin: the copied rm cannot be executed (126)" '^rc=126$' "$out"
	check_match "landlock-exec /usr/bin: ... tools in /usr/bin still run" '^ls=ok$' "$out"
	check "landlock-exec /usr/bin: ... and victim survived" test -e "$WS/victim"
	# The dynamic loader must stay executable for /usr/bin's programs, and it maps a program
	# itself (mmap is not an execute access for Landlock): the copy must not run that way either.
	out=$(nsrun "${SEED[@]}" --overlay-hide rm --landlock-rw /workspace --landlock-rw /tmp \
		--landlock-exec /usr/bin -- /bin/sh -c 'for l in /lib64/ld-linux-*.so.* /lib/ld-linux-*.so.*; do
			[ -e "$l" ] && { "$l" ./myrm victim 2>/dev/null; echo "rc=$?"; break; }; done' 2>&1)
	check_match "landlock-exec /usr/bin: the copied rm cannot be run through the dynamic loader" '^rc=(126|127)$' "$out"
	check "landlock-exec /usr/bin: ... and victim survived the loader too" test -e "$WS/victim"
}
for_each_mode case_landlock

case_seccomp() {
	local out
	setup_ws
	# getpriority: a syscall showing the filter is live; 444-446: landlock_create_ruleset,
	# landlock_add_rule, landlock_restrict_self (x86_64 and every other arch: unified numbers).
	# Also the mount API (428-432, 442), mount, unshare and setns: nsrun's own setup (hiding
	# overlays included) must be done before the user's filter applies.
	"$BIN/seccomp-deny" getpriority 444 445 446 428 429 430 431 432 442 mount unshare setns \
		>"$TMP/filter-$MODE"
	out=$(nsrun "${SEED[@]}" --ro-bind "$BIN" /opt/nsrun --bind "$OUT" /outside --overlay-hide rm \
		--landlock-rw /workspace --seccomp 9 -- /bin/sh -c '
		p=/opt/nsrun/nsrun-probe
		$p syscall getpriority write /outside/new write /workspace/in caps | grep -v ^Cap
		command -v rm || echo rm=hidden' 9<"$TMP/filter-$MODE" 2>&1)
	check_eq "seccomp + landlock + hide: filter live, boundary built, rm hidden" \
		"syscall:getpriority=errno=EPERM
write:/outside/new=errno=EACCES
write:/workspace/in=ok
NoNewPrivs=1
Seccomp=2
rm=hidden" "$out"
	check "seccomp + landlock: nothing was written outside" test ! -e "$OUT/new"
}
for_each_mode case_seccomp

# Hiding can be undone by whoever may unmount; the Landlock boundary forbids mount changes.
case_hide_undo() {
	local out
	setup_ws
	out=$(nsrun "${SEED[@]}" --ro-bind "$BIN" /opt/nsrun --overlay-hide rm --landlock-rw /workspace -- \
		/bin/sh -c '/opt/nsrun/nsrun-probe umount /usr/bin umount /usr; command -v rm || echo rm=hidden' 2>&1)
	check_eq "hide + landlock: the payload cannot unmount the hiding overlay" \
		"umount:/usr/bin=errno=EPERM
umount:/usr=errno=EPERM
rm=hidden" "$out"
	if [ "$MODE" = unpriv ]; then
		out=$(nsrun "${SEED[@]}" --ro-bind "$BIN" /opt/nsrun --overlay-hide rm -- \
			/bin/sh -c '/opt/nsrun/nsrun-probe umount /usr/bin; command -v rm || echo rm=hidden' 2>&1)
		check_eq "hide, unprivileged: no capabilities to unmount it either" \
			"umount:/usr/bin=errno=EPERM
rm=hidden" "$out"
	fi
}
for_each_mode case_hide_undo

case_fail_closed() {
	local out rc json
	setup_ws
	out=$(nsrun "${SEED[@]}" --landlock-rw /workspace --landlock-rw /nonexistent-rw -- \
		/bin/sh -c 'touch /workspace/marker1' 2>&1)
	rc=$?
	check_eq "fail-closed: missing --landlock-rw path: exit 126" 126 "$rc"
	check_match "fail-closed: ... with a message naming the path" 'nonexistent-rw' "$out"
	check "fail-closed: ... and the command never ran" test ! -e "$WS/marker1"
	out=$(run_wrapped "$BIN/force-enosys" landlock -- "$BIN/nsrun" "${SEED[@]}" \
		--landlock-rw /workspace -- /bin/sh -c 'touch /workspace/marker2' 2>&1)
	rc=$?
	check_eq "fail-closed: Landlock answering ENOSYS: exit 126" 126 "$rc"
	check "fail-closed: ... and the command never ran" test ! -e "$WS/marker2"
	mkdir -p "$WS/tools"
	out=$(nsrun "${SEED[@]}" --overlay-hide /workspace/tools -- \
		/bin/sh -c 'touch /workspace/marker3' 2>&1)
	rc=$?
	check_eq "fail-closed: --overlay-hide on a writable directory: exit 1" 1 "$rc"
	check_match "fail-closed: ... with a message" '^nsrun: ' "$out"
	check "fail-closed: ... and the command never ran" test ! -e "$WS/marker3"

	nsrun "${SEED[@]}" --landlock-rw /workspace --json-status-fd 5 -- /bin/sh -c 'exit 7' \
		5>"$TMP/json-$MODE" >/dev/null 2>&1
	rc=$?
	json=$(cat "$TMP/json-$MODE")
	check_eq "json: payload status passed on" 7 "$rc"
	check_match "json: landlock-abi" '"landlock-abi": [1-9]' "$json"
	check_match "json: landlock-handled-fs" '"landlock-handled-fs": ' "$json"
	check_match "json: landlock-handled-net" '"landlock-handled-net": ' "$json"
	check_match "json: landlock-scoped" '"landlock-scoped": ' "$json"
	check_eq "json: landlock-abi is the kernel's" \
		"$(landlock_abi)" "$(jkey landlock-abi "$json")"
	check_match "json: exit-code when the command ran" '^\{ *"exit-code": 7 *\}$' \
		"$(printf '%s\n' "$json" | tail -n1)"
	nsrun "${SEED[@]}" --landlock-rw /nonexistent-rw --json-status-fd 5 -- /bin/sh -c 'exit 7' \
		5>"$TMP/json-$MODE" >/dev/null 2>&1
	rc=$?
	json=$(cat "$TMP/json-$MODE")
	check_eq "json: fail-closed run exits 126" 126 "$rc"
	check_match "json: ... still reports the child-pid" '"child-pid": [1-9]' "$json"
	check_nomatch "json: ... and has no exit-code" 'exit-code' "$json"
	nsrun "${SEED[@]}" --json-status-fd 5 -- /bin/sh -c 'exit 0' 5>"$TMP/json-$MODE" >/dev/null 2>&1
	check_nomatch "json: no landlock keys without Landlock options" 'landlock' "$(cat "$TMP/json-$MODE")"
}
for_each_mode case_fail_closed

case_args_fd() {
	local out cmd want rc
	setup_ws
	# bwrap reads options from --args, the command stays on argv (Flatpak's way); the
	# options carry a value with quotes and newlines and a destination with a newline.
	cmd='printf "%s|\n" "$MSG" '\''$HOME `id`'\''; echo "second line" >"/workspace/sub dir
nl/f"'
	mkdir -p "$OUT/d"
	if [ "$MODE" = unpriv ] && is_root; then chown -R "$UNPRIV_UID:$UNPRIV_GID" "$OUT"; fi
	printf '%s\0' "${SEED[@]}" --overlay-hide rm --landlock-rw /workspace \
		--setenv MSG "it's \"quoted\"
two" --bind "$OUT/d" "/workspace/sub dir
nl" >"$TMP/args-$MODE"
	out=$(nsrun --args 3 -- /bin/sh -c "$cmd" 3< <(cat "$TMP/args-$MODE") 2>&1)
	want='it'\''s "quoted"
two|
$HOME `id`|'
	check_eq "--args: options from the fd, quotes and newlines kept verbatim" "$want" "$out"
	check_eq "--args: a destination with a newline, written through to the host" "second line" \
		"$(cat "$OUT/d/f" 2>&1)"
	printf '%s\0' "${SEED[@]}" -- /bin/sh -c 'touch /workspace/args-cmd' >"$TMP/args2-$MODE"
	out=$(nsrun --args 3 3<"$TMP/args2-$MODE" 2>&1)
	rc=$?
	check_eq "--args: a command inside the fd is refused, exit 1 (bwrap drops it: usage)" \
		"1 nsrun: Unexpected argument '/bin/sh' in --args data: COMMAND must be given on the command line" \
		"$rc $(printf '%s\n' "$out" | head -n1)"
	check "--args: ... and nothing ran" test ! -e "$WS/args-cmd"
}
for_each_mode case_args_fd

# descendants PID: PID and every process below it (host pids).
descendants() {
	local p c
	echo "$1"
	# shellcheck disable=SC2013 # the children files are space-separated pids
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do descendants "$c"; done
}
# alive PID: a process that exists and is not a zombie.
alive() { [ -e "/proc/$1" ] && ! awk '{ exit !($3 == "Z") }' "/proc/$1/stat" 2>/dev/null; }
# survivors PID...: those of the PIDs still alive after up to 2 s for them to end.
survivors() {
	local p left
	for _ in $(seq 40); do
		left=
		for p in "$@"; do alive "$p" && left="$left $p"; done
		[ -z "$left" ] && break
		sleep 0.05
	done
	echo "$left"
}

# timeout_with SIG: the runner sends SIG to nsrun while the payload and its children run.
timeout_with() {
	local sig=$1 child nsrun_pid pids p n left bgjob rc
	setup_ws
	nsrun "${SEED[@]}" --info-fd 4 -- /bin/sh -c '
		sleep 60 & echo $! >bg.pid
		(while [ ! -e go ]; do sleep 0.05; done; echo late >late) &
		echo $$ >sh.pid; wait' 4>"$TMP/info-$MODE" >/dev/null 2>&1 &
	bgjob=$!
	for _ in $(seq 100); do [ -s "$WS/sh.pid" ] && [ -s "$WS/bg.pid" ] && break; sleep 0.05; done
	sleep 0.2
	child=$(jkey child-pid "$(cat "$TMP/info-$MODE")")
	nsrun_pid=$(awk '{ print $4 }' "/proc/$child/stat" 2>/dev/null)
	# The waiting child's `sleep 0.05` comes and goes between its tests of "go": look
	# again while it is between two sleeps.
	for _ in $(seq 20); do
		pids=$(descendants "$child")
		n=$(printf '%s\n' "$pids" | grep -c .)
		[ "$n" -ge 5 ] && break
		sleep 0.02
	done
	check "timeout $sig: the sandbox runs init, sh and three children ($n processes)" test "$n" -ge 5
	check_eq "timeout $sig: nsrun is the sandbox's parent" nsrun "$(cat "/proc/$nsrun_pid/comm" 2>&1)"
	kill -"$sig" "$nsrun_pid"
	wait "$bgjob" 2>/dev/null
	rc=$?
	check_eq "timeout $sig: nsrun's status is 128+signal" "$((128 + $(kill -l "$sig")))" "$rc"
	left=$(survivors $pids)
	check_eq "timeout $sig: SIG$sig to nsrun takes the payload and its background children" "" "$left"
	: >"$WS/go"
	sleep 0.5
	check "timeout $sig: ... a child waiting for a trigger never wrote after it" test ! -e "$WS/late"
	for p in $left; do kill -KILL "$p" 2>/dev/null; done
}
case_timeout_kill() { timeout_with KILL; }
case_timeout_term() { timeout_with TERM; }
for_each_mode case_timeout_kill
for_each_mode case_timeout_term

# The runner itself dies (crash, OOM kill): --die-with-parent takes nsrun and the sandbox down.
case_runner_dies() {
	local job child np runner pids left p
	setup_ws
	as_user /bin/sh -c '"$@" & wait' runner "$BIN/nsrun" "${SEED[@]}" --info-fd 4 -- \
		/bin/sh -c 'sleep 60 & echo $$ >sh.pid; wait' 4>"$TMP/rinfo-$MODE" >/dev/null 2>&1 &
	job=$!
	for _ in $(seq 100); do [ -s "$WS/sh.pid" ] && break; sleep 0.05; done
	child=$(jkey child-pid "$(cat "$TMP/rinfo-$MODE")")
	np=$(awk '{ print $4 }' "/proc/$child/stat" 2>/dev/null)
	runner=$(awk '{ print $4 }' "/proc/$np/stat" 2>/dev/null)
	pids="$np $(descendants "$child")"
	check_eq "runner dies: the runner is nsrun's parent" sh "$(cat "/proc/$runner/comm" 2>&1)"
	kill -KILL "$runner"
	wait "$job" 2>/dev/null
	left=$(survivors $pids)
	check_eq "runner dies: nsrun, the payload and its children are gone" "" "$left"
	for p in $left; do kill -KILL "$p" 2>/dev/null; done
}
for_each_mode case_runner_dies

# A runner killing nsrun at once, racing the sandbox's setup (--die-with-parent must not
# be armed too late): no payload may survive.
case_early_kill() {
	local i p left tok killed=0
	setup_ws
	tok="e2e-early-$$-$MODE"
	for i in 0 1 2 3 4 5 6 7 8 9; do
		rm -f "$WS/nsrun.pid"
		# the pid file names the process that execs nsrun, i.e. nsrun itself
		as_user /bin/sh -c 'echo $$ >"$0"; exec "$@"' "$WS/nsrun.pid" "$BIN/nsrun" "${SEED[@]}" \
			--overlay-hide rm --landlock-rw /workspace -- /bin/sh -c "sleep 5; : $tok" >/dev/null 2>&1 &
		p=$!
		for _ in $(seq 100); do [ -s "$WS/nsrun.pid" ] && break; sleep 0.01; done
		perl -e 'select(undef, undef, undef, $ARGV[0])' "0.00$i"
		kill -KILL "$(cat "$WS/nsrun.pid")" 2>/dev/null
		wait "$p" 2>/dev/null
		[ $? = 137 ] && killed=$((killed + 1))
	done
	check_eq "early kill: every run was killed by SIGKILL" 10 "$killed"
	for _ in $(seq 40); do
		left=$(pgrep -f -- "$tok")
		[ -z "$left" ] && break
		sleep 0.05
	done
	check_eq "early kill: no payload outlives nsrun killed during setup (10 runs)" "" "$left"
	for p in $left; do kill -KILL "$p" 2>/dev/null; done
}
for_each_mode case_early_kill

# README's agent recipe, as README prints it (only `nsrun` becomes the binary under
# test, run in the mode): the allowlist hides, --landlock-exec makes hiding a boundary
# (a copy of an allowed tool does not run either), writes stay in the workspace. Its
# first line, the systemd scope for a user's cgroup limits, is left out as README says
# to do as root and where there is no systemd (the suite has no user manager to ask).
README_SCOPE='systemd-run --user --scope -p Delegate=yes --quiet '
readme_block() {
	awk -v start="$1" '$0 ~ start { f = 1 } f && /^```sh$/ { b = 1; next }
		b && /^```$/ { exit } b' "$top_srcdir/README.md" |
		sed -e ':a' -e '/\\$/N; s/\\\n//; ta'
}
case_readme_recipe() {
	local cmd out rc probe
	setup_ws
	cmd=$(readme_block '^A typical agent.s tool runner')
	check_match "README: the recipe is found, in a user's systemd scope" \
		"^${README_SCOPE}nsrun .*--overlay-allow .*--landlock-exec " "$cmd"
	cmd=${cmd#"$README_SCOPE"}
	cmd=${cmd/#nsrun /as_user \"\$BIN/nsrun\" }
	probe='for t in rm curl ldconfig head; do command -v $t >/dev/null && echo visible:$t; done
		[ -x /usr/lib/git-core/git ] && { /usr/lib/git-core/git --version >/dev/null 2>&1 && echo ran:git-core; }
		python3 -c "import shutil, os; shutil.copy(\"/usr/bin/ls\", \"myls\"); os.chmod(\"myls\", 0o755)"
		./myls >/dev/null 2>&1 && echo ran:copy
		echo data >out.txt && echo wrote:ws
		python3 -c "open(\"/etc/nsrun-x\", \"w\")" 2>/dev/null && echo wrote:etc
		python3 -c "import socket; print(\"ifaces:\" + str(len(socket.if_nameindex())))"'
	out=$(cd "$WS" && AGENT_COMMAND=$probe eval "$cmd" 2>"$TMP/recipe-err-$MODE")
	rc=$?
	if [ $rc = 126 ] && grep -q cgroup "$TMP/recipe-err-$MODE"; then
		skip "README: the recipe's cgroup limits" "$(head -n1 "$TMP/recipe-err-$MODE")"
		cmd=${cmd/ --memory-max 4G --pids-max 500/}
		out=$(cd "$WS" && AGENT_COMMAND=$probe eval "$cmd" 2>"$TMP/recipe-err-$MODE")
		rc=$?
	fi
	check_eq "README: the recipe runs and holds (hidden tools absent, copies refused, writes kept in)" \
		"0 wrote:ws ifaces:1" "$rc $(printf '%s\n' "$out" | paste -sd' ')"
	check_eq "README: the write landed in the workspace" data "$(cat "$WS/out.txt" 2>&1)"
}
for_each_mode case_readme_recipe

# README's profile, as printed, in a project with a Makefile: `make test` runs in the
# project (bound at /workspace), with curl hidden, and writes there.
case_readme_profile() {
	local cmd out rc
	setup_ws
	printf 'test:\n\t@pwd; command -v curl || echo no-curl; echo passed >result\n' >"$WS/Makefile"
	[ "$MODE" = unpriv ] && is_root && chown "$UNPRIV_UID:$UNPRIV_GID" "$WS/Makefile"
	cmd=$(readme_block '^\*\*A profile\.\*\*')
	check_match "README: the profile is found" $'^printf .*>~/agent.args\nnsrun --args 3 3<~/agent.args .*-- make test$' "$cmd"
	# ~ is the mode user's home here: a directory of the test's own.
	mkdir -p "$TMP/home-$MODE"
	[ "$MODE" = unpriv ] && is_root && chown "$UNPRIV_UID:$UNPRIV_GID" "$TMP/home-$MODE"
	cmd=${cmd//nsrun --args/\"$BIN/nsrun\" --args}
	# Not the suite's own make's: a sub-make would say "Entering directory".
	# Where curl is not installed at all, --overlay-hide says so on stderr.
	out=$(cd "$WS" && unset MAKEFLAGS MAKELEVEL MFLAGS &&
		HOME="$TMP/home-$MODE" as_user /bin/bash -c "$cmd" 2>"$TMP/profile-err-$MODE")
	rc=$?
	check_eq "README: the profile runs make test in the project, curl hidden" \
		"0 /workspace no-curl" "$rc $(printf '%s\n' "$out" | paste -sd' ')"
	if command -v curl >/dev/null; then
		check_eq "README: ... and says nothing on stderr" "" "$(cat "$TMP/profile-err-$MODE")"
	else
		check_match "README: ... and says that there is no curl to hide" \
			"^nsrun: --overlay-hide 'curl': no such entry" "$(cat "$TMP/profile-err-$MODE")"
	fi
	check_eq "README: make test wrote in the project" passed "$(cat "$WS/result" 2>&1)"
}
for_each_mode case_readme_profile

done_testing
