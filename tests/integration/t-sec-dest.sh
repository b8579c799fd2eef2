#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-sec-dest.sh: CVE-2026-87766 (GHSA-pxhw-h44j-8pfx), for real, root and uid 65534. An
# app-writable directory is bound into the sandbox (Flatpak's ~/.var/app/ID); a previous
# run of the app planted symbolic links in it, under the destinations of the next run's
# --dir, --file, --bind, --bind-data, --symlink, --chmod, --remount-ro, --tmpfs. bwrap before
# 0.12 resolved them through its staging root, where /oldroot is the host, and made or
# changed files there. Nothing may be created, changed or mounted outside the new root;
# where bubblewrap 0.12+ refuses (a mount onto a symlink), nsrun refuses too, and with
# the oracle at hand its exit status is compared case by case. Last, the links are
# swapped in while setup runs, many times over.
# shellcheck disable=SC2317 # cases run via for_each_mode
. "${top_srcdir:?}/tests/integration/lib.sh"
need_ns
also_without_userns

ORACLE=
if [ -n "${NSRUN_ORACLE_OUT:-}" ] && [ -x "$NSRUN_ORACLE_OUT/bwrap" ] &&
	[ "$("$NSRUN_ORACLE_OUT/bwrap" --version 2>/dev/null)" = "bubblewrap 0.13.1" ]; then
	cp "$NSRUN_ORACLE_OUT/bwrap" "$BIN/bwrap-oracle"
	ORACLE=$BIN/bwrap-oracle
	# Debian's 0.13.1 finds its libraries beside it, by absolute path: they stay where they are.
fi

# victim: a host directory the sandbox never names; app: the app's own data directory.
setup() {
	D="$TMP/dest-$MODE"
	rm -rf "$D"
	mkdir -p "$D/victim/keep" "$D/app" "$D/src"
	echo host >"$D/victim/file"
	echo src >"$D/src/data"
	chmod 0755 "$D/victim"
	[ "$MODE" = unpriv ] && chown -R "$UNPRIV_UID:$UNPRIV_GID" "$D"
	chmod 0755 "$D" "$TMP"
	VICTIM_STATE=$(victim_state)
}

# Everything an attack could change: names, types, modes, contents, and mounts there.
victim_state() {
	(cd "$D/victim" && find . -printf '%p %y %m %s\n' | sort && cat file)
	grep -F " $D/victim" /proc/self/mountinfo | cut -d' ' -f5
}

# plant KIND: the links a previous run left in the app directory. Every link leads to the
# victim: through /oldroot (bwrap's staging view of the host), by its host path, and
# relatively, climbing out of the bound directory.
plant() {
	local t
	rm -rf "${D:?}/app/"*
	case $1 in
	oldroot) t=/oldroot$D/victim ;;
	hostpath) t=$D/victim ;;
	relative) t=$(printf '../%.0s' $(seq 12))oldroot$D/victim ;;
	esac
	as_user ln -s "$t" "$D/app/link"
	as_user ln -s "$t/file" "$D/app/filelink"
}

# The ops, each with its destination under a planted link: the parent is a link, or the
# destination itself.
OPS=(
	"--dir /data/link/made"
	"--file 3 /data/link/made"
	"--file 3 /data/filelink"
	"--bind-data 3 /data/link/made"
	"--ro-bind-data 3 /data/filelink"
	"--bind SRC /data/link/made"
	"--bind SRC /data/link"
	"--ro-bind SRCFILE /data/filelink"
	"--symlink /x /data/link/made"
	"--chmod 0777 /data/link"
	"--chmod 0666 /data/filelink"
	"--remount-ro /data/link"
	"--tmpfs /data/link"
	"--tmpfs /data/link/made"
	"--perms 0777 --dir /data/link/file/.."
)

# run_op TOOL OP...: a Flatpak-like sandbox (host /usr, a private root, the app directory
# at /data) with OP, as the current mode's user. Prints the exit status.
run_op() {
	local tool=$1 args=() a
	shift
	for a in "$@"; do
		case $a in
		SRC) args+=("$D/src") ;;
		SRCFILE) args+=("$D/src/data") ;;
		*) args+=("$a") ;;
		esac
	done
	as_user "$tool" --ro-bind /usr /usr --symlink usr/lib /lib --symlink usr/lib64 /lib64 \
		--symlink usr/bin /bin --proc /proc --dev /dev --bind "$D/app" /data "${args[@]}" \
		/usr/bin/true 3<"$D/src/data" >/dev/null 2>&1
	echo $?
}

case_planted() {
	local kind op rc orc
	for kind in oldroot hostpath relative; do
		for op in "${OPS[@]}"; do
			setup
			plant "$kind"
			# shellcheck disable=SC2086 # OP is words
			rc=$(run_op "$BIN/nsrun" $op)
			check_eq "$kind link, $op: the host outside the new root is unchanged" \
				"$VICTIM_STATE" "$(victim_state)"
			if [ -n "$ORACLE" ]; then
				setup
				plant "$kind"
				# shellcheck disable=SC2086
				orc=$(run_op "$ORACLE" $op)
				check_eq "$kind link, $op: refused or run as bubblewrap 0.13.1 does" \
					"$((orc != 0))" "$((rc != 0))"
				check_eq "$kind link, $op: the oracle left the host unchanged too" \
					"$VICTIM_STATE" "$(victim_state)"
			fi
		done
	done
}
for_each_mode case_planted

# A mount onto a destination that is a symlink is refused, whatever it points at.
case_refused() {
	local out
	setup
	plant oldroot
	out=$(as_user "$BIN/bwrap" --ro-bind /usr /usr --bind "$D/app" /data --bind "$D/src" /data/link \
		/usr/bin/true 2>&1)
	check_eq "--bind onto a planted link: bubblewrap 0.12+'s refusal" \
		"bwrap: Can't mount on symlink destination /data/link" "$out"
	out=$(as_user "$BIN/bwrap" --ro-bind /usr /usr --bind "$D/app" /data --dir /data/link \
		/usr/bin/true 2>&1)
	check_eq "--dir onto a planted link: not a directory" \
		"bwrap: Destination is not a directory /data/link" "$out"
}
for_each_mode case_refused

# The fds ops consume are the caller's: a directory outside the new root must not reach the
# command (from it, ../ leads anywhere on the host), and a number the caller did not open
# must not become a usable fd (such as one of nsrun's own, or one naming "/").
case_op_fds() {
	local out
	setup
	out=$(as_user "$BIN/nsrun" --unshare-all --ro-bind /usr /usr --symlink usr/lib64 /lib64 \
		--symlink usr/lib /lib --symlink usr/bin /bin --proc /proc --ro-bind-fd 7 /data \
		--file 8 /f -- /bin/sh -c 'ls /proc/self/fd/7 /proc/self/fd/8 2>&1 | wc -l; cat /f' \
		7<"$D/src" 8<"$D/src/data" 2>&1)
	check_eq "--ro-bind-fd and --file: neither fd reaches the command" $'2\nsrc' "$out"
	out=$(as_user "$BIN/bwrap" --ro-bind /usr /usr --bind-fd 7 /data /usr/bin/true 7<&- 2>&1)
	check_eq "--bind-fd of a closed fd: refused as bubblewrap does" \
		"bwrap: Can't find source path /proc/self/fd/7: No such file or directory" "$out"
	out=$(as_user "$BIN/bwrap" --ro-bind /usr /usr --file 7 /f /usr/bin/true 7<&- 2>&1)
	check_eq "--file of a closed fd: EBADF" "bwrap: Can't write data to file /f: Bad file descriptor" "$out"
}
for_each_mode case_op_fds

# The link appears while setup runs: a helper swaps the app's "sub" between a directory
# and a link to the victim as fast as it can, while sandboxes make files under it.
case_swap_race() {
	local swapper i runs=${NSRUN_SWAP_RUNS:-150} SWAP_USER=()
	[ "$MODE" = unpriv ] && is_root &&
		SWAP_USER=(setpriv --reuid="$UNPRIV_UID" --regid="$UNPRIV_GID" --clear-groups --)
	setup
	as_user mkdir -p "$D/app/real"
	# exec, so that $! is the swapping shell itself
	# (a setup that finds no "sub" makes it a directory: removed on the next round)
	(exec ${SWAP_USER[@]+"${SWAP_USER[@]}"} bash -c 'd=$1; t=$2; while :; do
		rm -rf "$d/sub"; ln -sfn "$t" "$d/sub"
		rm -rf "$d/sub"; ln -sfn real "$d/sub"
	done' swap "$D/app" "/oldroot$D/victim" 2>/dev/null) &
	swapper=$!
	for ((i = 0; i < runs; i++)); do
		run_op "$BIN/nsrun" --dir /data/sub/made --file 3 /data/sub/f --symlink /x /data/sub/l \
			--bind-data 3 /data/sub/b --chmod 0777 /data/sub >/dev/null
	done
	kill "$swapper" 2>/dev/null
	wait "$swapper" 2>/dev/null
	check_eq "$runs setups racing a swapped link: the host outside the new root is unchanged" \
		"$VICTIM_STATE" "$(victim_state)"
}
for_each_mode case_swap_race

done_testing
