#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-bridge.sh: --bridge, the new network namespace's only way out. The test's own proxy
# (a line server on a UNIX socket and on 127.0.0.1) and a second server the sandbox must
# not reach (TCP on 127.0.0.1 and ::1, UDP, an abstract UNIX socket), all on the host:
# through the bridge the proxy answers; everything else fails, Landlock's TCP rules hold
# connects to the bridge ports where the kernel has them; bad input is exit 1, what the
# host cannot do is 126; nothing of the relay outlives nsrun, SIGKILLed or not. As root
# (with and without a user namespace) and as uid 65534.
# shellcheck disable=SC2016 # snippets expand in the sandboxed shell
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns
command -v python3 >/dev/null || skip_all "python3 is needed for the test's servers"
also_without_userns
cp "$NSRUN_HELPERS/seccomp-deny" "$BIN/seccomp-deny"
cp "$NSRUN_HELPERS/env-filter" "$BIN/env-filter"
[ -x "${NSRUN_HELPERS:-}/force-enosys" ] && cp "$NSRUN_HELPERS/force-enosys" "$BIN/force-enosys"

# Ports from a range the host is unlikely to use; the servers fail loudly if taken.
BASE=$((30000 + $$ % 20000))
PPORT=$BASE      # the proxy on 127.0.0.1
FPORT=$((BASE + 1)) # the server the sandbox must not reach (TCP, UDP, ::1)
ABSTRACT="nsrun-bridge-$$"
PROXY_DIR="$TMP/proxy"
mkdir -p "$PROXY_DIR" && chmod 0777 "$PROXY_DIR"
PSOCK="$PROXY_DIR/sock"

cat >"$TMP/servers.py" <<'EOF'
# The test's servers: each answers a line with "NAME line"; UDP datagrams are logged.
import os, socket, sys, threading
sock, pport, fport, abstract, log, ready = sys.argv[1:7]
def serve(lst, name):
    def one(c):
        with c:
            f = c.makefile("rb")
            for line in f:
                c.sendall(name.encode() + b" " + line)
    while True:
        c, _ = lst.accept()
        threading.Thread(target=one, args=(c,), daemon=True).start()
def tcp(fam, host, port):
    s = socket.socket(fam)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host, int(port)))
    s.listen(64)
    return s
u = socket.socket(socket.AF_UNIX)
u.bind(sock)
os.chmod(sock, 0o777)
u.listen(64)
ls = [(u, "PROXY"), (tcp(socket.AF_INET, "127.0.0.1", pport), "PROXY"),
      (tcp(socket.AF_INET, "127.0.0.1", fport), "SECRET")]
try:
    ls.append((tcp(socket.AF_INET6, "::1", fport), "SECRET"))
except OSError:
    pass
a = socket.socket(socket.AF_UNIX)
a.bind("\0" + abstract)
a.listen(8)
ls.append((a, "SECRET"))
d = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
d.bind(("127.0.0.1", int(fport)))
for s, name in ls:
    threading.Thread(target=serve, args=(s, name), daemon=True).start()
open(ready, "w").close()
while True:
    data = d.recv(100)
    with open(log, "ab") as f:
        f.write(data + b"\n")
EOF

# The client, in the sandbox: one line per check, "OK reply" or "ERR ERRNO-NAME", each
# in one write (clients run side by side on one pipe).
cat >"$TMP/client.py" <<'EOF'
import errno, os, socket, sys
def print(*words):
    os.write(1, (" ".join(words) + "\n").encode())
def err(e):
    print("ERR", errno.errorcode.get(e.errno, str(e.errno)) if e.errno else type(e).__name__)
def line(fam, addr):
    try:
        s = socket.socket(fam)
        s.settimeout(5)
        s.connect(addr)
        s.sendall(b"hello\n")
        print("OK", s.makefile("rb").readline().decode().strip())
    except OSError as e:
        err(e)
what = sys.argv[1]
if what == "tcp":
    line(socket.AF_INET, (sys.argv[2], int(sys.argv[3])))
elif what == "tcp6":
    line(socket.AF_INET6, (sys.argv[2], int(sys.argv[3])))
elif what == "abstract":
    line(socket.AF_UNIX, "\0" + sys.argv[2])
elif what == "udp":
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.sendto(b"UDP-FROM-SANDBOX", (sys.argv[2], int(sys.argv[3])))
        print("SENT")
    except OSError as e:
        err(e)
elif what == "raw":
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
        s.sendto(b"\x08\0\xf7\xff\0\0\0\0", (sys.argv[2], 0))
        print("SENT")
    except OSError as e:
        err(e)
EOF
chmod 0644 "$TMP/servers.py" "$TMP/client.py"

python3 "$TMP/servers.py" "$PSOCK" "$PPORT" "$FPORT" "$ABSTRACT" "$TMP/udp.log" "$TMP/ready" \
	2>"$TMP/servers.err" &
SERVERS=$!
trap 'kill $SERVERS 2>/dev/null; cleanup_tmp' EXIT
for ((i = 0; i < 100; i++)); do [ -e "$TMP/ready" ] && break; sleep 0.1; done
[ -e "$TMP/ready" ] || skip_all "the test's servers did not start: $(cat "$TMP/servers.err")"

# A non-loopback address of the host, for the "other destinations" cases.
HOSTIP=$(ip -4 -o addr show scope global 2>/dev/null | awk '{ sub(/\/.*/, "", $4); print $4; exit }')
: "${HOSTIP:=192.0.2.1}"

SB=(--ro-bind / / --dev /dev --proc /proc --unshare-all --die-with-parent)

# sb_now: SB as the current mode runs it (root without a user namespace: without one), for
# the cases that start nsrun through another program.
sb_now() {
	SBN=("${SB[@]}")
	if [ -n "${NOUSERNS:-}" ]; then
		without_userns "${SB[@]}"
		SBN=("${NS_ARGS[@]}")
	fi
}
BR=(--bridge 8080 "unix:$PSOCK" --bridge 80 "tcp:127.0.0.1:$PPORT")
CLIENT=(python3 "$TMP/client.py")

case_through() {
	local out
	out=$(nsrun "${SB[@]}" "${BR[@]}" -- "${CLIENT[@]}" tcp 127.0.0.1 8080 2>&1)
	check_eq "unix target: the proxy answers through 127.0.0.1:8080" "OK PROXY hello" "$out"
	out=$(nsrun "${SB[@]}" "${BR[@]}" -- "${CLIENT[@]}" tcp 127.0.0.1 80 2>&1)
	check_eq "tcp target: the proxy answers through 127.0.0.1:80 (below 1024)" \
		"OK PROXY hello" "$out"
	# Many connections at once, each its own.
	out=$(nsrun "${SB[@]}" "${BR[@]}" -- sh -c '
		for i in 1 2 3 4 5 6 7 8; do "$@" & done; wait' _ "${CLIENT[@]}" tcp 127.0.0.1 8080 |
		sort | uniq -c | sed 's/^ *//')
	check_eq "eight connections at once are each relayed" "8 OK PROXY hello" "$out"
	out=$(bwrap_nsrun "${SB[@]}" "${BR[@]}" -- "${CLIENT[@]}" tcp 127.0.0.1 8080 2>&1)
	check_eq "under the name bwrap too" "OK PROXY hello" "$out"
}

case_nothing_else() {
	local out
	out=$(nsrun "${SB[@]}" "${BR[@]}" -- "${CLIENT[@]}" tcp 127.0.0.1 "$FPORT" 2>&1)
	check_eq "a direct connect to the second server's port is refused" "ERR ECONNREFUSED" "$out"
	out=$(nsrun "${SB[@]}" "${BR[@]}" -- "${CLIENT[@]}" tcp 127.0.0.1 "$PPORT" 2>&1)
	check_eq "a direct connect to the proxy's own port is refused" "ERR ECONNREFUSED" "$out"
	out=$(nsrun "${SB[@]}" "${BR[@]}" -- "${CLIENT[@]}" tcp "$HOSTIP" "$FPORT" 2>&1)
	check_eq "another address is unreachable at once" "ERR ENETUNREACH" "$out"
	out=$(nsrun "${SB[@]}" "${BR[@]}" -- "${CLIENT[@]}" tcp6 ::1 "$FPORT" 2>&1)
	check_match "IPv6 ::1 reaches nothing of the host's" "^ERR (ECONNREFUSED|EADDRNOTAVAIL|ENETUNREACH)$" "$out"
	out=$(nsrun "${SB[@]}" "${BR[@]}" -- "${CLIENT[@]}" tcp6 ::1 8080 2>&1)
	check_match "... nor is the bridge there (127.0.0.1 only)" "^ERR (ECONNREFUSED|EADDRNOTAVAIL|ENETUNREACH)$" "$out"
	out=$(nsrun "${SB[@]}" "${BR[@]}" -- "${CLIENT[@]}" abstract "$ABSTRACT" 2>&1)
	check_eq "the host's abstract UNIX socket is not there" "ERR ECONNREFUSED" "$out"
	out=$(nsrun "${SB[@]}" "${BR[@]}" -- "${CLIENT[@]}" raw "$HOSTIP" 2>&1)
	check_match "a raw socket reaches no other address" "^ERR (ENETUNREACH|EPERM|EACCES)$" "$out"
	out=$(nsrun "${SB[@]}" "${BR[@]}" -- "${CLIENT[@]}" udp "$HOSTIP" "$FPORT" 2>&1)
	check_eq "UDP to another address is unreachable" "ERR ENETUNREACH" "$out"
	: >"$TMP/udp.log"
	nsrun "${SB[@]}" "${BR[@]}" -- "${CLIENT[@]}" udp 127.0.0.1 "$FPORT" >/dev/null 2>&1
	python3 -c 'import socket, sys; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"CONTROL", ("127.0.0.1", int(sys.argv[1])))' "$FPORT"
	for ((i = 0; i < 50; i++)); do grep -q CONTROL "$TMP/udp.log" && break; sleep 0.1; done
	check_eq "UDP to 127.0.0.1 stays in the sandbox (the host's server got only the control)" \
		CONTROL "$(cat "$TMP/udp.log")"
	if command -v curl >/dev/null; then
		out=$(nsrun "${SB[@]}" "${BR[@]}" --setenv HTTP_PROXY http://127.0.0.1:80 -- \
			curl -sS --noproxy '*' --max-time 5 "http://$HOSTIP:$FPORT/" 2>&1)
		check_match "curl --noproxy '*' to another address fails" "(Couldn't connect|Failed to connect|unreachable)" "$out"
		out=$(nsrun "${SB[@]}" "${BR[@]}" -- \
			curl -sS --noproxy '*' --max-time 5 "http://127.0.0.1:$FPORT/" 2>&1)
		check_match "curl --noproxy '*' to the second server's port fails" "(Couldn't connect|Failed to connect|refused)" "$out"
	else
		skip "curl --noproxy '*'" "no curl (the raw connects above cover it)"
	fi
}

# Landlock's TCP rules (ABI 4) hold connects to the bridge ports: another port is EACCES,
# not ECONNREFUSED; the bridge still works. Below ABI 4 the namespace alone holds.
case_landlock() {
	local d out abi
	d=$(mode_dir ll)
	abi=$(landlock_abi)
	out=$(nsrun "${SB[@]}" "${BR[@]}" --bind "$d" "$d" --landlock-rw "$d" -- sh -c '
		"$@" tcp 127.0.0.1 8080; "$@" tcp 127.0.0.1 9' _ "${CLIENT[@]}" 2>&1 | tr '\n' ' ')
	if [ -n "$abi" ] && [ "$abi" -ge 4 ]; then
		check_eq "--landlock-rw: a connect to another port is refused by Landlock" \
			"OK PROXY hello ERR EACCES " "$out"
		out=$(nsrun "${SB[@]}" "${BR[@]}" --landlock-connect-tcp 9 -- sh -c '
			"$@" tcp 127.0.0.1 80; "$@" tcp 127.0.0.1 9; "$@" tcp 127.0.0.1 10' _ \
			"${CLIENT[@]}" 2>&1 | tr '\n' ' ')
		check_eq "--landlock-connect-tcp adds to the bridge ports" \
			"OK PROXY hello ERR ECONNREFUSED ERR EACCES " "$out"
	elif [ -n "$abi" ]; then
		check_eq "Landlock ABI $abi (no TCP rules): the namespace alone refuses" \
			"OK PROXY hello ERR ECONNREFUSED " "$out"
	else
		skip "Landlock's second layer" "no Landlock"
	fi
	[ -x "$BIN/force-enosys" ] && [ -n "$abi" ] && [ "$abi" -ge 4 ] || return 0
	# An ABI without TCP rules is no reason to refuse: the namespace holds.
	sb_now
	out=$(run_wrapped "$BIN/force-enosys" landlock-abi=3 -- "$BIN/nsrun" "${SBN[@]}" "${BR[@]}" \
		--bind "$d" "$d" --landlock-rw "$d" -- sh -c '
		"$@" tcp 127.0.0.1 8080; "$@" tcp 127.0.0.1 9' _ "${CLIENT[@]}" 2>&1 | tr '\n' ' ')
	check_eq "Landlock ABI 3: runs, the namespace alone refuses" \
		"OK PROXY hello ERR ECONNREFUSED " "$out"
}

case_status() {
	local out
	out=$(nsrun "${SB[@]}" "${BR[@]}" --json-status-fd 3 -- true 3>&1)
	check_match "the first status document names the bridges" \
		"\"bridges\": \[\{\"port\": 8080, \"target\": \"unix:$PSOCK\"\}, \{\"port\": 80, \"target\": \"tcp:127.0.0.1:$PPORT\"\}\] \}" \
		"$(echo "$out" | head -n1)"
}

case_usage() {
	local sb=(--ro-bind / / --bind "$(mode_dir err)" "$(mode_dir err)" --unshare-net)
	err_case "malformed target" \
		"bwrap: --bridge: invalid TARGET 'http://127.0.0.1:3128' (unix:/ABSOLUTE/PATH or tcp:HOST:PORT)" \
		"${sb[@]}" --bridge 80 http://127.0.0.1:3128
	err_case "relative unix target" \
		"bwrap: --bridge: invalid TARGET 'unix:proxy.sock' (unix:/ABSOLUTE/PATH or tcp:HOST:PORT)" \
		"${sb[@]}" --bridge 80 unix:proxy.sock
	err_case "non-loopback host" \
		"bwrap: --bridge: '$HOSTIP' is not a loopback address (127.0.0.0/8, ::1 or localhost); a bridge reaches only the host's own services" \
		"${sb[@]}" --bridge 80 "tcp:$HOSTIP:3128"
	err_case "port 0" "bwrap: --bridge: invalid port '0' (1 to 65535)" "${sb[@]}" --bridge 0 "unix:$PSOCK"
	err_case "port 65536" "bwrap: --bridge: invalid port '65536' (1 to 65535)" \
		"${sb[@]}" --bridge 65536 "unix:$PSOCK"
	err_case "two bridges on one port" "bwrap: --bridge: port 80 is bridged twice" \
		"${sb[@]}" --bridge 80 "unix:$PSOCK" --bridge 80 "tcp:127.0.0.1:$PPORT"
	err_case "without a new network namespace" \
		"bwrap: --bridge requires --unshare-net (or --unshare-all without --share-net): the bridge is meant to be the only way out of a new network namespace" \
		--ro-bind / / --unshare-all --share-net --bridge 80 "unix:$PSOCK"
	err_case "with --netns" "bwrap: --bridge cannot be combined with --netns" \
		--ro-bind / / --netns 0 --bridge 80 "unix:$PSOCK"
	err_case "with --landlock-only" "bwrap: --landlock-only cannot be combined with --bridge" \
		--landlock-only --landlock-rw /tmp --bridge 80 "unix:$PSOCK"
}

case_fail_closed() {
	local w
	w=$(mode_dir fc)
	fail_closed "a missing unix target" "^nsrun: --bridge 80: '$w/none': No such file or directory$" \
		nsrun "${SB[@]}" --bridge 80 "unix:$w/none" -- touch "$w/ran"
	: >"$w/file"
	fail_closed "a unix target that is a regular file" \
		"^nsrun: --bridge 80: '$w/file': Socket operation on non-socket$" \
		nsrun "${SB[@]}" --bridge 80 "unix:$w/file" -- touch "$w/ran"
	# A container's seccomp policy that refuses listen(2): the port cannot be opened.
	"$BIN/seccomp-deny" listen >"$TMP/deny-listen.bpf"
	sb_now
	fail_closed "a port that cannot be bound in the sandbox" \
		"can't listen on 127.0.0.1:80 in the sandbox: Operation not permitted" \
		run_wrapped env python3 -c '
import ctypes, os, sys
prog = open(sys.argv[1], "rb").read()
buf = ctypes.create_string_buffer(prog, len(prog))
class Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
f = Fprog(len(prog) // 8, ctypes.cast(buf, ctypes.c_void_p))
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(38, ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))
if libc.prctl(22, ctypes.c_ulong(2), ctypes.byref(f), ctypes.c_ulong(0), ctypes.c_ulong(0)):
    sys.exit("seccomp: " + os.strerror(ctypes.get_errno()))
os.execv(sys.argv[2], sys.argv[2:])' "$TMP/deny-listen.bpf" "$BIN/nsrun" "${SBN[@]}" \
		--bridge 80 "unix:$PSOCK" -- touch "$w/ran"
}

# The monitor and the relay (MON, RELAY): once COMMAND, the sleep whose arguments are
# ARG, runs, the relay is the monitor's one child still named nsrun.
relay_of() {
	local cmd
	cmd=$(wait_pgrep -f "^sleep $1\$") || return 1
	MON=$(ps -o ppid= -p "$cmd" | tr -d ' ')
	RELAY=$(pgrep -P "$MON" -x nsrun | head -n1)
	[ -n "$RELAY" ]
}

case_relay_life() {
	local job relay out pat="unix:$PSOCK" arg="61.$$"
	out=$(nsrun "${SB[@]}" --bridge 8080 "$pat" -- true 2>&1)
	check_eq "nothing of the relay is left after the sandbox ends" "" \
		"$(pgrep -f -- "--bridge 8080 $pat" | tr '\n' ' ')$out"
	nsrun --ro-bind / / --dev /dev --unshare-net --die-with-parent --bridge 8080 "$pat" \
		-- sleep "$arg" &
	job=$!
	if ! relay_of "$arg"; then
		not_ok "the relay runs beside the sandbox"
		kill -KILL $(pgrep -f "^sleep $arg\$") 2>/dev/null
		wait "$job" 2>/dev/null
		return
	fi
	relay=$RELAY
	ok "the relay runs beside the sandbox"
	check_eq "the relay is in the host's network namespace" "$(readlink /proc/self/ns/net)" \
		"$(readlink "/proc/$relay/ns/net")"
	# The listening socket, and the target's socket pinned by an O_PATH fd (its path).
	check_eq "the relay holds no fd but the listening socket and the pinned target" \
		"2 $PSOCK socket" \
		"$(find "/proc/$relay/fd" -mindepth 1 | wc -l) $(readlink "/proc/$relay/fd/"* | sed 's/:.*//' | sort -u | paste -sd' ')"
	check_match "the relay cannot gain privileges" "NoNewPrivs:.1" "$(cat "/proc/$relay/status")"
	check_eq "the relay is not dumpable (its /proc files are root's)" 0 "$(stat -c %u "/proc/$relay/status")"
	kill -KILL "$MON"
	wait "$job" 2>/dev/null
	for ((i = 0; i < 50; i++)); do [ -z "$(pgrep -f -- "--bridge 8080 $pat")" ] && break; sleep 0.1; done
	check_eq "nothing of the relay is left after SIGKILL of nsrun" "" \
		"$(pgrep -f -- "--bridge 8080 $pat" | tr '\n' ' ')"
}

# --fallback: net and namespaces would take the only way out away; proc and userns keep it.
case_fallback() {
	local out w
	w=$(mode_dir fb)
	out=$(nsrun "${SB[@]}" "${BR[@]}" --fallback proc,userns -- "${CLIENT[@]}" tcp 127.0.0.1 8080 2>&1)
	check_eq "--fallback proc,userns: the bridge works as declared" "OK PROXY hello" "$out"
	sb_now
	fail_closed "--fallback net, lo refused: not without the namespace" \
		"--fallback: net: --bridge needs the new network namespace" \
		run_wrapped "$BIN/env-filter" nonetlink -- "$BIN/nsrun" "${SBN[@]}" "${BR[@]}" \
		--fallback net -- touch "$w/ran"
	fail_closed "--fallback namespaces, lo refused: not without the namespace" \
		"--fallback: namespaces: --landlock-only cannot be combined with" \
		run_wrapped "$BIN/env-filter" nonetlink -- "$BIN/nsrun" "${SBN[@]}" "${BR[@]}" \
		--bind "$w" "$w" --landlock-rw "$w" --fallback namespaces -- touch "$w/ran"
}

# A UNIX target in a directory the sandbox can write: swapped for a symlink to another
# socket (an agent's, docker.sock), the relay still reaches the one it pinned at start.
cat >"$TMP/two.py" <<'EOF'
import os, socket, sys, threading
def serve(path, name):
    s = socket.socket(socket.AF_UNIX)
    s.bind(path)
    os.chmod(path, 0o777)
    s.listen(8)
    def run():
        while True:
            c, _ = s.accept()
            c.sendall(name.encode() + b"\n")
            c.close()
    threading.Thread(target=run, daemon=True).start()
serve(sys.argv[1], "PROXY")
serve(sys.argv[2], "OTHER")
open(sys.argv[3], "w").close()
threading.Event().wait()
EOF
cat >"$TMP/swap.py" <<'EOF'
import os, socket, sys
target, other = sys.argv[1:3]
def fetch():
    s = socket.create_connection(("127.0.0.1", 8080))
    return s.recv(100).decode().strip() or "nothing"
first = fetch()
os.rename(target, target + ".moved")
os.symlink(other, target)
print(first, fetch())
EOF
case_pinned_target() {
	local d="$TMP/pin-$MODE" srv out
	rm -rf "$d" "$TMP/pin-other-$MODE" && mkdir -p "$d" "$TMP/pin-other-$MODE" && chmod 0777 "$d"
	python3 "$TMP/two.py" "$d/proxy.sock" "$TMP/pin-other-$MODE/sock" "$d/ready" &
	srv=$!
	for _ in $(seq 50); do [ -e "$d/ready" ] && break; sleep 0.1; done
	out=$(nsrun "${SB[@]}" --bind "$d" "$d" --bridge 8080 "unix:$d/proxy.sock" -- \
		python3 "$TMP/swap.py" "$d/proxy.sock" "$TMP/pin-other-$MODE/sock" 2>&1)
	check_eq "a UNIX target swapped for a symlink inside: the relay keeps to the socket it pinned" \
		"PROXY PROXY" "$out"
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
}

# A listener the sandbox shuts down (SOCK_DESTROY, which root in its user namespace may
# ask for) must not leave the relay spinning outside the sandbox's cgroup.
case_destroyed_listener() {
	local job relay t0 t1 arg="62.$$"
	[ "$MODE" = root ] || return 0
	# No pid namespace: relay_of finds the monitor as the command's parent.
	nsrun --ro-bind / / --dev /dev --unshare-net --die-with-parent --bridge 8080 "unix:$PSOCK" \
		-- sh -c "ss -K -tln 'sport = :8080' >/dev/null 2>&1; exec sleep $arg" &
	job=$!
	if ! relay_of "$arg"; then
		not_ok "the relay runs beside the sandbox"
		pkill -f "^sleep $arg\$"
		wait "$job"
		return
	fi
	relay=$RELAY
	sleep 0.3
	t0=$(awk '{ print $14 + $15 }' "/proc/$relay/stat")
	sleep 1
	t1=$(awk '{ print $14 + $15 }' "/proc/$relay/stat")
	check "a listener shut down inside: the relay does not spin ($((t1 - t0)) ticks in 1 s)" \
		test $((t1 - t0)) -lt 30
	pkill -f "^sleep $arg\$"
	wait "$job"
}

for_each_mode case_through
for_each_mode case_nothing_else
for_each_mode case_landlock
for_each_mode case_status
for_each_mode case_usage
for_each_mode case_fail_closed
for_each_mode case_relay_life
for_each_mode case_fallback
for_each_mode case_pinned_target
for_each_mode case_destroyed_listener
done_testing
