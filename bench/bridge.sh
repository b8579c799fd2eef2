#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/bridge.sh: what --bridge costs a connection, against a direct loopback connection
# and against socat doing the same relay (TCP-LISTEN to TCP on the host). A server on
# 127.0.0.1 sinks bytes and echoes 1-byte messages; a client times itself (so nsrun's
# start-up is not counted): throughput, SIZE MiB sent and acknowledged; latency, ROUNDS
# round trips of 1 byte. The cases run interleaved round by round, so machine drift
# lands on all alike. Prints per case the median and min of the rounds.
# Usage: bench/bridge.sh [NSRUN] (default ./nsrun); REPEAT=N rounds (default 7),
# SIZE=MiB (default 256), ROUNDS=N round trips (default 10000). Needs python3; socat
# for its column (left out, and said so, without it). Not a test; run as any user.
set -eu

REPEAT=${REPEAT:-7}
SIZE=${SIZE:-256}
ROUNDS=${ROUNDS:-10000}
PIDS=()
bench_cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
BENCH_ANY_USER=1 bench_init bridge 0 "${1:-}"
BASE=$((40000 + $$ % 10000))
SPORT=$BASE           # the server
XPORT=$((BASE + 1))   # socat's relay

cat >"$OUT/server.py" <<'EOF'
# "T<size>\n": reads size bytes, answers "ok\n". "L": echoes each byte until EOF.
import socket, sys, threading
def one(c):
    with c:
        kind = c.recv(1)
        if kind == b"T":
            hdr = b""
            while not hdr.endswith(b"\n"):
                hdr += c.recv(1)
            left = int(hdr)
            while left > 0:
                left -= len(c.recv(min(left, 1 << 20)))
            c.sendall(b"ok\n")
        else:
            c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            while True:
                b = c.recv(1)
                if not b:
                    return
                c.sendall(b)
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(64)
open(sys.argv[2], "w").close()
while True:
    c, _ = s.accept()
    threading.Thread(target=one, args=(c,), daemon=True).start()
EOF
cat >"$OUT/client.py" <<'EOF'
# client.py PORT SIZE_MIB ROUNDS: prints "MiB/s us-per-round-trip".
import socket, sys, time
port, size, rounds = int(sys.argv[1]), int(sys.argv[2]) << 20, int(sys.argv[3])
buf = b"x" * (1 << 20)
c = socket.create_connection(("127.0.0.1", port))
t = time.monotonic()
c.sendall(b"T%d\n" % size)
for _ in range(size >> 20):
    c.sendall(buf)
c.makefile("rb").readline()
mbs = (size >> 20) / (time.monotonic() - t)
c.close()
c = socket.create_connection(("127.0.0.1", port))
c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
c.sendall(b"L")
for _ in range(100):
    c.sendall(b"x"); c.recv(1)
t = time.monotonic()
for _ in range(rounds):
    c.sendall(b"x"); c.recv(1)
us = (time.monotonic() - t) / rounds * 1e6
print("%.0f %.1f" % (mbs, us))
EOF
chmod 0644 "$OUT"/*.py

python3 "$OUT/server.py" "$SPORT" "$OUT/ready" &
PIDS+=($!)
for ((i = 0; i < 100; i++)); do [ -e "$OUT/ready" ] && break; sleep 0.1; done
CASES="direct bridge"
if command -v socat >/dev/null; then
	socat "TCP-LISTEN:$XPORT,bind=127.0.0.1,reuseaddr,fork" "TCP:127.0.0.1:$SPORT" &
	PIDS+=($!)
	CASES="$CASES socat"
	sleep 0.5
else
	echo "(no socat: its column is left out)"
fi

run_case() {
	case $1 in
	direct) python3 "$OUT/client.py" "$SPORT" "$SIZE" "$ROUNDS" ;;
	socat) python3 "$OUT/client.py" "$XPORT" "$SIZE" "$ROUNDS" ;;
	bridge)
		"$NSRUN" --ro-bind / / --dev /dev --proc /proc --unshare-all --die-with-parent \
			--bridge 8080 "tcp:127.0.0.1:$SPORT" -- \
			python3 "$OUT/client.py" 8080 "$SIZE" "$ROUNDS"
		;;
	esac
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $REPEAT rounds of $SIZE MiB and $ROUNDS round trips"
for ((r = 0; r < REPEAT; r++)); do
	for c in $CASES; do
		echo "$c $(run_case "$c")" >>"$OUT/raw"
	done
done
python3 - "$OUT/raw" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    c, mbs, us = line.split()
    rows.setdefault(c, []).append((float(mbs), float(us)))
base = rows["direct"]
print("%-8s %12s %12s %14s %14s" % ("case", "MiB/s med", "MiB/s max", "rtt us med", "rtt us min"))
for c, v in rows.items():
    m = [x[0] for x in v]; u = [x[1] for x in v]
    print("%-8s %12.0f %12.0f %14.1f %14.1f" % (c, statistics.median(m), max(m),
          statistics.median(u), min(u)))
d = statistics.median([x[1] for x in base])
for c, v in rows.items():
    if c != "direct":
        print("%s adds %.1f us per round trip (median)" % (c, statistics.median([x[1] for x in v]) - d))
EOF
