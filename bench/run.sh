#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench/run.sh: nsrun side by side with bwrap 0.13.1 (the oracle, unpacked from
# ../shared/oracle beside the source tree, else BWRAP or the system bwrap) and, where it
# is installed, crun running the same sandbox as an OCI bundle, in one run, as root and
# as uid/gid 65534 with no groups (dropped by the runners themselves, as
# `setpriv --reuid=65534 --regid=65534 --clear-groups` does, so no extra exec is timed):
#   1. start-up latency of the desktop-app sandbox: p50, p99, min, CPU and peak RSS
#      (bench/pair.c: every tool once per round, in a rotated order, so the drift of a
#      shared machine lands on all alike). Beside them util-linux unshare making the
#      same namespaces with no filesystem (`-U -r -m -i -n -p -f -u -C`: not a peer) and
#      bench/floor.c, this very sandbox with nothing else (no parsing, checks or confined
#      walks): what the kernel asks for it. The floor is checked first to give the same
#      mountinfo, ids, caps and /dev as nsrun, else it is left out;
#   2. sandboxes per second with 1, 2 and 4 in flight (bench/rate.c: batches of
#      RATE_BATCH, every tool and J interleaved batch by batch over RATE_ROUNDS rounds);
#   3. per-submount cost: `--ro-bind / /` with 0, 100, 500 and 1000 extra host tmpfs
#      submounts, each count in a private mount namespace of its own that pair enters,
#      every count and tool interleaved in one run, with `unshare -m` (the kernel's copy
#      of the mount tree, once) as the floor; the slope of each tool's medians is fitted
#      by least squares (bench/report.py).
# crun's bundle differs from the others' sandbox in its root (a directory bound, not a
# tmpfs) and in having no capabilities as root; it runs without cgroups.
# OUT gets summary.txt (the machine, load, versions, the command and the tables),
# bench-results.svg (bench/plot.py) and the raw files; the last lines say where.
# Usage: bench/run.sh [NSRUN] (default ./nsrun), or `make bench` in a build tree.
# Environment: BWRAP=, CRUN= (empty: leave crun out), RUNS (start-up runs, default 200),
# SUBRUNS (runs per submount count, default RUNS/4), RATE_BATCH (default RUNS/2),
# RATE_ROUNDS (default 5), OUT=DIR. Needs root, cc, python3 and util-linux. A plain
# build (sanitizers cost 10x). Not a test. --overlay-hide costs: bench/hide.sh.
set -eu

here=$(cd "$(dirname "$0")" && pwd -P)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
# The raw results stay for the reader (the last lines name them).
OUT=${OUT:-$(mktemp -d /tmp/nsrun-bench.XXXXXX)}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init run 200 "${1:-}"
SUBRUNS=${SUBRUNS:-$((RUNS / 4 > 5 ? RUNS / 4 : 5))}
RATE_BATCH=${RATE_BATCH:-$((RUNS / 2 > 10 ? RUNS / 2 : 10))}
RATE_ROUNDS=${RATE_ROUNDS:-5}
command=("$0" "$NSRUN")
if [ -z "${BWRAP:-}" ]; then
	BWRAP=$("$here/../../shared/oracle/build-bwrap" --version 0.13.1 /tmp/bwrap-oracle-bench-0.13.1 2>/dev/null) ||
		BWRAP=$(command -v bwrap) || bench_die "no bwrap"
fi
CRUN=${CRUN-$(command -v crun || true)}
UNSHARE=$(command -v unshare)
MODES="root unpriv"

for tool in pair floor rate; do
	cc -O2 -o "$OUT/$tool" "$here/$tool.c"
done
# Copies any user can run (a build tree may be 0700), as bench_init made of nsrun.
cp "$BWRAP" "$OUT/bwrap"
BW="$OUT/bwrap"
FL="$OUT/floor"
SUMMARY="$OUT/summary.txt"
NOTES="$OUT/notes.txt"
: >"$NOTES"

# One line, single spaces: pair and rate split commands on spaces.
APP="--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64"
APP="$APP --proc /proc --dev /dev --unshare-all --die-with-parent /bin/true"
UNS="$UNSHARE -U -r -m -i -n -p -f -u -C /bin/true"

note() {
	echo "bench: $*" >&2
	echo "$*" >>"$NOTES"
}

# bench NAME CMD...: one interleaved run (CMD writes OUT/NAME.raw), its log in OUT/NAME.log.
bench() {
	local name=$1
	shift
	"$@" >"$OUT/$name.log" 2>&1 || { note "$name failed, see $OUT/$name.log"; rm -f "$OUT/$name.raw"; }
}

# as MODE CMD...: CMD as root, or as uid/gid 65534 with no groups.
as() {
	if [ "$1" = unpriv ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "${@:2}"
	else
		"${@:2}"
	fi
}

uid_of() { if [ "$1" = unpriv ]; then echo 65534; else echo 0; fi; }

# same_sandbox MODE: whether the floor's sandbox shows what nsrun's does (mount ids,
# devices and peer groups aside).
same_sandbox() {
	local probe='cat /proc/self/mountinfo; grep -E "^(Cap|Uid|Gid|NoNewPriv)" /proc/self/status
		cat /proc/self/uid_map /proc/self/gid_map; ls -la /dev | sed 1d; echo $$'
	local a b
	a=$(as "$1" "$NS" ${APP% *} /bin/sh -c "$probe" 2>&1 | sed -E 's/^[0-9]+ [0-9]+ [0-9]+:[0-9]+ //')
	b=$(as "$1" "$FL" /bin/sh -c "$probe" 2>&1 | sed -E 's/^[0-9]+ [0-9]+ [0-9]+:[0-9]+ //')
	[ -n "$a" ] && [ "$a" = "$b" ]
}

# crun_bundle MODE: OUT/crun-MODE, the desktop-app sandbox as an OCI bundle: a root
# directory with the same symlinks, /usr bound read-only, a fresh /proc (its sys, irq,
# bus and sysrq-trigger read-only) and a tmpfs /dev with devpts, every namespace
# --unshare-all makes (user, pid, net, ipc, uts, cgroup), the caller's id mapped onto
# itself, no capabilities, no new privileges. crun runs it without cgroups
# (--cgroup-manager=disabled: bwrap and nsrun make none), its state in OUT.
crun_bundle() {
	local b="$OUT/crun-$1" id
	id=$(uid_of "$1")
	mkdir -p "$OUT/crun-rootfs/usr" "$OUT/crun-rootfs/proc" "$OUT/crun-rootfs/dev" "$b" "$OUT/crun-state-$1"
	ln -sfn usr/bin "$OUT/crun-rootfs/bin"
	ln -sfn usr/lib "$OUT/crun-rootfs/lib"
	ln -sfn usr/lib64 "$OUT/crun-rootfs/lib64"
	chown "$id:$id" "$OUT/crun-state-$1"
	cat >"$b/config.json" <<EOF
{
 "ociVersion": "1.0.2",
 "process": {"terminal": false, "user": {"uid": $id, "gid": $id}, "args": ["/bin/true"],
  "env": ["PATH=/usr/bin:/bin"], "cwd": "/", "noNewPrivileges": true},
 "root": {"path": "$OUT/crun-rootfs", "readonly": false},
 "mounts": [
  {"destination": "/usr", "type": "bind", "source": "/usr", "options": ["rbind", "ro"]},
  {"destination": "/proc", "type": "proc", "source": "proc", "options": ["nosuid", "nodev", "noexec"]},
  {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev", "mode=755"]},
  {"destination": "/dev/pts", "type": "devpts", "source": "devpts",
   "options": ["nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620"]}
 ],
 "linux": {
  "namespaces": [{"type": "user"}, {"type": "pid"}, {"type": "network"}, {"type": "ipc"},
   {"type": "uts"}, {"type": "mount"}, {"type": "cgroup"}],
  "uidMappings": [{"containerID": $id, "hostID": $id, "size": 1}],
  "gidMappings": [{"containerID": $id, "hostID": $id, "size": 1}],
  "readonlyPaths": ["/proc/sys", "/proc/irq", "/proc/bus", "/proc/sysrq-trigger"]
 }
}
EOF
}

# crun_cmd MODE NAME: the crun command line running OUT/crun-MODE as container NAME.
crun_cmd() {
	echo "$OUT/crun --cgroup-manager=disabled --root $OUT/crun-state-$1 run --bundle $OUT/crun-$1 $2"
}

# CRUN_MODES: the modes in which crun ran its bundle once (exit 0); the others are noted.
CRUN_MODES=
if [ -z "$CRUN" ]; then
	note "crun: not installed (CRUN=PATH adds it): its column is left out"
elif ! cp "$CRUN" "$OUT/crun" 2>/dev/null; then
	note "crun: $CRUN: not found: its column is left out"
else
	for mode in $MODES; do
		crun_bundle "$mode"
		# shellcheck disable=SC2046 # crun_cmd is one line of words
		if err=$(as "$mode" $(crun_cmd "$mode" nsrun-bench-probe) 2>&1 </dev/null); then
			CRUN_MODES="$CRUN_MODES $mode"
		else
			note "crun ($mode): left out, it failed on the bundle: $(echo "$err" | head -n 3 | tr '\n' ' ')"
		fi
	done
fi
has_crun() { case " $CRUN_MODES " in *" $1 "*) return 0 ;; esac; return 1; }

# linkage BINARY: how it was linked ("static PIE" is configure's default, a
# distribution's build is dynamic: --disable-static-pie), as the ELF header says.
linkage() {
	case $(LC_ALL=C readelf -lh "$1" 2>/dev/null) in
	*"Requesting program interpreter"*) echo "dynamically linked" ;;
	*"Type:"*"DYN"*) echo "static PIE" ;;
	*) echo "statically linked" ;;
	esac
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date +%s)

echo "== 1. start-up latency, desktop-app sandbox ($RUNS runs each)"
for mode in $MODES; do
	u=()
	[ "$mode" = unpriv ] && u=(-u 65534)
	extra=()
	has_crun "$mode" && extra+=(crun "$(crun_cmd "$mode" nsrun-bench-pair)")
	if same_sandbox "$mode"; then
		extra+=(floor "$FL")
	else
		note "floor ($mode): bench/floor.c's sandbox differs from nsrun's: left out"
	fi
	bench "app-$mode" "$OUT/pair" -n "$RUNS" -w 5 "${u[@]}" -o "$OUT/app-$mode.raw" \
		nsrun "$NS $APP" bwrap "$BW $APP" "${extra[@]}" unshare "$UNS"
done

echo "== 2. sandboxes per second, 1, 2 and 4 in flight ($RATE_ROUNDS rounds of $RATE_BATCH)"
for mode in $MODES; do
	u=()
	[ "$mode" = unpriv ] && u=(-u 65534)
	extra=()
	has_crun "$mode" && extra+=(crun "$(crun_cmd "$mode" nsrun-bench-%ID)")
	bench "rate-$mode" "$OUT/rate" -j 1,2,4 -b "$RATE_BATCH" -r "$RATE_ROUNDS" "${u[@]}" \
		-o "$OUT/rate-$mode.raw" nsrun "$NS $APP" bwrap "$BW $APP" "${extra[@]}"
done

echo "== 3. --ro-bind / / with N host submounts ($SUBRUNS runs each)"
# One private mount namespace per count, each held by a sleep and given its tmpfs
# submounts; pair enters them (ns=) so that every count and tool interleaves in one run.
HOLDERS=()
bench_cleanup() { if [ ${#HOLDERS[@]} -gt 0 ]; then kill "${HOLDERS[@]}" 2>/dev/null; fi; }
COUNTS="0 100 500 1000"
for n in $COUNTS; do
	"$UNSHARE" -m --propagation private sleep infinity &
	HOLDERS+=("$!")
	# Past unshare's propagation change only once sleep runs.
	while [ "$(cat "/proc/$!/comm" 2>/dev/null)" != sleep ]; do sleep 0.01; done
	[ "$(readlink "/proc/$!/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ] || bench_die "no private mount namespace"
	# shellcheck disable=SC2016 # expanded by the inner bash
	nsenter -t "$!" -m bash -c 'set -e; mount --make-rprivate /
		for ((i = 0; i < $2; i++)); do
			mkdir -p "$1/sub/$i"
			mount -t tmpfs -o size=64k "bench$i" "$1/sub/$i"
		done' bench "$OUT" "$n"
done
for mode in $MODES; do
	u=() floor="$UNSHARE -m /bin/true"
	# As 65534 the floor needs a user namespace of its own to make a mount namespace.
	[ "$mode" = unpriv ] && u=(-u 65534) floor="$UNSHARE -U -r -m /bin/true"
	cases=() i=0
	for n in $COUNTS; do
		mnt=/proc/${HOLDERS[i++]}/ns/mnt
		cases+=("nsrun@$n" "ns=$mnt $NS --ro-bind / / /bin/true" "bwrap@$n" "ns=$mnt $BW --ro-bind / / /bin/true"
			"unshare-m@$n" "ns=$mnt $floor")
	done
	bench "sub-$mode" "$OUT/pair" -n "$SUBRUNS" -w 2 "${u[@]}" -o "$OUT/sub-$mode.raw" "${cases[@]}"
done

{
	echo "nsrun bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(($(date +%s) - started)) s"
	echo "command: RUNS=$RUNS SUBRUNS=$SUBRUNS RATE_BATCH=$RATE_BATCH RATE_ROUNDS=$RATE_ROUNDS ${command[*]}"
	echo "machine: Linux $(uname -r) $(uname -m), $(nproc) cpus ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1))"
	echo "load: $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after"
	echo "nsrun: $NSRUN ($("$NS" --version | head -n1), $(linkage "$NSRUN"))"
	echo "bwrap: $BWRAP ($("$BW" --version))"
	if [ -n "$CRUN_MODES" ]; then echo "crun: $CRUN ($("$OUT/crun" --version | head -n1)), in:$CRUN_MODES"; fi
	echo "unshare: $("$UNSHARE" --version)"
	echo "modes: root, and 65534 (uid/gid 65534, no groups)"
	sed 's/^/note: /' "$NOTES"
	echo
	"$PY" "$here/report.py" "$OUT"
} >"$SUMMARY"
"$PY" "$here/plot.py" "$OUT/results.json" "$OUT/bench-results.svg" \
	"nsrun $("$NS" --version | head -n1 | sed 's/^nsrun //') against $("$BW" --version), Linux $(uname -r), $(nproc) cpus"
cat "$SUMMARY"
echo
echo "summary: $SUMMARY"
echo "plot:    $OUT/bench-results.svg"
echo "raw:     $OUT"
