#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-idmap.sh: --uid-map/--gid-map and --idmap (issue 39). The maps the kernel shows, the
# ids the command runs as, where the files it writes land on the host (stat from outside),
# who writes the maps (root itself; a user through newuidmap/newgidmap, with /etc/subuid
# and /etc/subgid lines this suite adds for its own user and removes, never touching the
# others), and the refusals: ids the caller does not own (126), usage errors (1), and an
# idmapped bind where the caller, the kernel or the filesystem cannot (126).
. "$top_srcdir/tests/integration/lib.sh"
need_ns

# The range this suite delegates to uid 65534 (nobody) when it may: far from the ranges
# distributions hand out (100000 and up, in 65536 steps).
SUB_START=2000000000
SUB_COUNT=65536
SUB_LINE=
UNPRIV_NAME=$(getent passwd $UNPRIV_UID | cut -d: -f1)
ADDED_SUBUID=''
ADDED_SUBGID=''

# undelegate FILE HOW: removes only the line this suite added (HOW: added), or the file
# it created (HOW: created) when nothing else was written to it meanwhile.
undelegate() {
	local f=$1 rest
	[ -n "$2" ] || return 0
	rest=$(grep -vxF "$SUB_LINE" "$f")
	if [ "$2" = created ] && [ -z "$rest" ]; then
		rm -f "$f"
	else
		printf '%s
' "$rest" >"$f"
	fi
}
cleanup_subids() {
	undelegate /etc/subuid "$ADDED_SUBUID"
	undelegate /etc/subgid "$ADDED_SUBGID"
	umount "$TMP/idm" 2>/dev/null
	cleanup_tmp
}
trap cleanup_subids EXIT

# delegate FILE: adds the suite's line for uid 65534 unless its user already has one.
delegate() {
	local f=$1
	if [ -e "$f" ] && grep -q "^$UNPRIV_NAME:" "$f"; then
		return 1
	fi
	[ -e "$f" ] && echo added || echo created
	printf '%s\n' "$SUB_LINE" >>"$f"
}

HELPERS=
if [ -x /usr/bin/newuidmap ] && [ -x /usr/bin/newgidmap ] && [ -n "$UNPRIV_NAME" ]; then
	SUB_LINE="$UNPRIV_NAME:$SUB_START:$SUB_COUNT"
	ADDED_SUBUID=$(delegate /etc/subuid) && ADDED_SUBGID=$(delegate /etc/subgid) && HELPERS=1
fi

# map_lines: the text with each line's fields separated by one space (as /proc prints
# maps in columns).
map_lines() { awk '{ $1 = $1; print }'; }

test_usage() {
	err_case "--uid-map without --unshare-user" "bwrap: --uid-map requires --unshare-user" \
		--uid-map 0:0:1 --ro-bind / /
	err_case "--gid-map without --unshare-user" "bwrap: --gid-map requires --unshare-user" \
		--gid-map 0:0:1 --ro-bind / /
	err_case "--uid-map: not a map" "bwrap: --uid-map takes INSIDE:OUTSIDE:COUNT (got '0:1')" \
		--unshare-user --uid-map 0:1 --ro-bind / /
	err_case "--uid-map: overlapping ranges" \
		"bwrap: --uid-map: range 5:2000:1 overlaps 0:1000:10" \
		--unshare-user --uid-map 0:1000:10 --uid-map 5:2000:1 --ro-bind / /
	err_case "--uid-map: a range of 0 ids" "bwrap: --uid-map: a range of 0 ids" \
		--unshare-user --uid-map 0:1000:0 --ro-bind / /
	err_case "--uid outside --uid-map" "bwrap: --uid 70000 is not an inside id of --uid-map" \
		--unshare-user --uid-map "0:$UNPRIV_UID:1" --uid 70000 --ro-bind / /
	err_case "--uid-map holds no id of the caller, no --uid" \
		"~--uid-map maps no inside id onto your uid [0-9]+: name the one the command runs as with --uid" \
		--unshare-user --uid-map 0:1234567:1 --ro-bind / /
	err_case "--uid-map with --disable-userns" \
		"bwrap: --uid-map cannot be combined with --disable-userns (its nested namespace would map one id only)" \
		--unshare-user --uid-map "0:$UNPRIV_UID:1" --disable-userns --ro-bind / /
	err_case "--idmap without --unshare-user" \
		"bwrap: --idmap requires --unshare-user (the mapping is onto the sandbox's user namespace)" \
		--ro-bind / / --idmap --bind /tmp /mnt
	err_case "--idmap before --tmpfs" \
		"bwrap: --idmap must be followed by --bind, --ro-bind or --dev-bind" \
		--unshare-user --ro-bind / / --idmap --tmpfs /mnt
	err_case "--idmap twice" "bwrap: --idmap given twice for the same action" \
		--unshare-user --ro-bind / / --idmap --idmap --bind /tmp /mnt
}
for_each_mode test_usage

# Root writes any map itself: several ranges, and a command that runs as a delegated id.
test_root_maps() {
	local out d
	out=$(nsrun --unshare-user --uid-map 0:0:1 --uid-map 1:100000:65536 \
		--gid-map 0:0:1 --gid-map "1 100000 65536" --ro-bind / / \
		sh -c 'cat /proc/self/uid_map /proc/self/gid_map; id -u; id -g' 2>&1)
	check_eq "root: both ranges in uid_map and gid_map, uid 0" \
		"$(printf '0 0 1\n1 100000 65536\n0 0 1\n1 100000 65536\n0\n0')" \
		"$(printf '%s\n' "$out" | map_lines)"
	d=$(mode_dir rootmaps)
	chmod 1777 "$d"
	rm -f "$d/f"
	out=$(nsrun --unshare-user --uid-map 0:100000:65536 --gid-map 0:100000:65536 \
		--uid 1000 --gid 1000 --ro-bind / / --tmpfs /tmp --tmpfs /mnt --bind "$d" /mnt/w \
		sh -c 'id -u; id -g; stat -c %u:%g /tmp; touch /mnt/w/f; grep ^CapEff /proc/self/status' 2>&1)
	check_eq "root: --uid 1000 of 0:100000:65536 runs as 1000, the setup's tmpfs is its own, no capabilities" \
		"$(printf '1000\n1000\n1000:1000\nCapEff:\t0000000000000000')" "$out"
	check_eq "root: a file it writes in a plain bind is 101000 on the host" \
		"101000:101000" "$(stat -c %u:%g "$d/f" 2>&1)"
}
for_each_mode_root() { MODE=root; "$1"; }
for_each_mode_root test_root_maps

# A user's one line onto its own ids needs no helper; any other map is newuidmap's.
test_user_maps() {
	local out d marker
	out=$(nsrun --unshare-user --uid-map "0:$UNPRIV_UID:1" --gid-map "0:$UNPRIV_GID:1" \
		--ro-bind / / sh -c 'cat /proc/self/uid_map /proc/self/gid_map; id -u' 2>&1)
	check_eq "user: one line onto its own ids, written without a helper" \
		"$(printf '0 %s 1\n0 %s 1\n0' $UNPRIV_UID $UNPRIV_GID)" "$(printf '%s\n' "$out" | map_lines)"
	if [ -z "$HELPERS" ]; then
		if [ "${NSRUN_MUST_WORK:-0}" = 1 ]; then
			not_ok "user: newuidmap/newgidmap (package uidmap) and a free /etc/subuid line for $UNPRIV_NAME"
		else
			skip "user: maps through newuidmap/newgidmap" \
				"newuidmap/newgidmap are not installed (package uidmap), or $UNPRIV_NAME already has subordinate ids"
		fi
		return
	fi
	d=$(mode_dir usermaps)
	rm -f "$d/f"
	out=$(nsrun --unshare-user --uid-map "0:$UNPRIV_UID:1" --uid-map "1:$SUB_START:$SUB_COUNT" \
		--gid-map "0:$UNPRIV_GID:1" --gid-map "1:$SUB_START:$SUB_COUNT" --uid 1000 --gid 1000 \
		--ro-bind / / --tmpfs /tmp --tmpfs /mnt --bind "$d" /mnt/w \
		sh -c 'cat /proc/self/uid_map /proc/self/gid_map; id -u; id -g; stat -c %u /tmp' 2>&1)
	check_eq "user: newuidmap/newgidmap wrote both ranges; the command is 1000" \
		"$(printf '0 %s 1\n1 %s %s\n0 %s 1\n1 %s %s\n1000\n1000\n1000' \
			$UNPRIV_UID $SUB_START $SUB_COUNT $UNPRIV_GID $SUB_START $SUB_COUNT)" \
		"$(printf '%s\n' "$out" | map_lines)"
	# uid 0 inside is the caller: it may write where the caller may, and it lands as the
	# caller; uid 1000 inside is a delegated id, which a 0755 directory of the caller's refuses.
	out=$(nsrun --unshare-user --uid-map "0:$UNPRIV_UID:1" --uid-map "1:$SUB_START:$SUB_COUNT" \
		--gid-map "0:$UNPRIV_GID:1" --gid-map "1:$SUB_START:$SUB_COUNT" --uid 0 --gid 0 \
		--ro-bind / / --tmpfs /mnt --bind "$d" /mnt/w sh -c 'touch /mnt/w/f && id -u' 2>&1)
	check_eq "user: uid 0 inside writes" "0" "$out"
	check_eq "user: its file is the caller's on the host" "$UNPRIV_UID:$UNPRIV_GID" \
		"$(stat -c %u:%g "$d/f" 2>&1)"
	# A caller already under no_new_privs (a service's NoNewPrivileges=, another sandbox):
	# the helpers would run without their privileges; nsrun says so, not "not delegated".
	fail_closed "user: newuidmap under the caller's no_new_privs" \
		"newuidmap/newgidmap cannot get their privileges: no_new_privs is already set" \
		as_user setpriv --no-new-privs -- "$BIN/nsrun" --unshare-user \
		--uid-map "0:$UNPRIV_UID:1" --uid-map "1:$SUB_START:$SUB_COUNT" --ro-bind / / \
		--bind "$d" "$d" touch "$d/marker"
	# --fallback keeps the helpers' process for a second attempt (the monitor sets
	# no_new_privs in the first); here the host's /proc is masked and the first answer
	# (a bind of it) needs no second: the maps are written and nothing waits on the process.
	out=$(unshare -m --propagation private -- sh -c 'for p in /proc/keys /proc/timer_list /proc/kcore; do
		[ -e $p ] && mount --bind /dev/null $p && exec "$@"; done; exit 99' \
		mask timeout 60 setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups -- \
		"$BIN/nsrun" --fallback proc --unshare-user --unshare-pid \
		--uid-map "0:$UNPRIV_UID:1" --uid-map "1:$SUB_START:$SUB_COUNT" --ro-bind / / --proc /proc \
		cat /proc/self/uid_map 2>/dev/null)
	check_eq "user: --fallback with newuidmap's maps ends" \
		"$(printf '0 %s 1\n1 %s %s' $UNPRIV_UID $SUB_START $SUB_COUNT)" \
		"$(printf '%s\n' "$out" | map_lines)"
	# The attacks: ids not delegated to the caller, root's above all.
	d=$(mode_dir attack)
	chmod 0777 "$d"
	fail_closed "user: a map onto root's uid" "newuidmap refused the map .*/etc/subuid" \
		nsrun --unshare-user --uid-map 0:0:1 --uid 0 --ro-bind / / \
		--bind "$d" "$d" touch "$d/marker"
	fail_closed "user: a range past its delegation" "newuidmap refused the map .*/etc/subuid" \
		nsrun --unshare-user --uid-map "0:$UNPRIV_UID:1" \
		--uid-map "1:$SUB_START:$((SUB_COUNT + 1))" --ro-bind / / \
		--bind "$d" "$d" touch "$d/marker"
	fail_closed "user: gids of someone else" "newgidmap refused the map .*/etc/subgid" \
		nsrun --unshare-user --gid-map "0:$UNPRIV_GID:1" --gid-map 1:0:1 \
		--ro-bind / / --bind "$d" "$d" touch "$d/marker"
}
MODE=unpriv
test_user_maps
MODE=root

kernel_at_least() {
	local v
	v=$(uname -r | sed 's/[^0-9.].*//')
	[ "$(printf '%s\n%s\n' "$1" "$v" | sort -V | head -n1)" = "$1" ]
}

# --idmap: the caller's files are the command's, and what it writes lands as the caller's.
mkdir -p "$TMP/idm"
mount -t tmpfs -o mode=0755 tmpfs "$TMP/idm"
touch "$TMP/idm/mine"
test_idmap_root() {
	local out m base=(--unshare-user --uid-map 0:100000:65536 --gid-map 0:100000:65536
		--uid 1000 --gid 1000 --ro-bind / / --tmpfs /mnt)
	# What a command would write if it ran: the suite's directory, at its own path, as
	# the command's uid may write there.
	m=$(mode_dir idmap-marker)
	chmod 0777 "$m"
	if ! kernel_at_least 6.3; then
		fail_closed "root: --idmap on a tmpfs before Linux 6.3" "does not support idmapped mounts" \
			nsrun "${base[@]}" --idmap --bind "$TMP/idm" /mnt/w --bind "$m" "$m" touch "$m/marker"
		return
	fi
	rm -f "$TMP/idm/new"
	out=$(nsrun "${base[@]}" --idmap --bind "$TMP/idm" /mnt/w \
		sh -c 'stat -c %u:%g /mnt/w/mine; touch /mnt/w/new && echo wrote; grep " /mnt/w " /proc/self/mountinfo' 2>&1)
	check_eq "root: the caller's file shows as the command's" "1000:1000" "$(printf '%s\n' "$out" | sed -n 1p)"
	check_eq "root: uid 1000 inside writes to a 0755 directory of root's" "wrote" \
		"$(printf '%s\n' "$out" | sed -n 2p)"
	check_match "root: the mount is idmapped, nosuid, nodev" "nosuid,nodev.*idmapped" \
		"$(printf '%s\n' "$out" | sed -n 3p)"
	check_eq "root: its file lands as the caller's (0:0) on the host" "0:0" \
		"$(stat -c %u:%g "$TMP/idm/new" 2>&1)"
	# The same bind without --idmap: root's directory stays root's, as nobody's.
	out=$(nsrun "${base[@]}" --bind "$TMP/idm" /mnt/w sh -c 'stat -c %u /mnt/w/mine; touch /mnt/w/x' 2>&1)
	check_match "root: without --idmap the file is nobody's and the write is refused" \
		"^65534.*Permission denied" "$(printf '%s\n' "$out" | tr '\n' ' ')"
	out=$(nsrun "${base[@]}" --idmap --ro-bind "$TMP/idm" /mnt/w sh -c 'stat -c %u /mnt/w/mine; touch /mnt/w/y' 2>&1)
	check_match "root: --idmap --ro-bind maps and stays read-only" \
		"^1000 .*Read-only file system" "$(printf '%s\n' "$out" | tr '\n' ' ')"
	out=$(nsrun "${base[@]}" --idmap --bind-try "$TMP/no-such" /mnt/w true 2>&1)
	check_eq "root: --idmap --bind-try of a missing source is skipped" "" "$out"
	fail_closed "root: --idmap of a procfs" "the filesystem .* does not support idmapped mounts" \
		nsrun "${base[@]}" --idmap --bind /proc /mnt/w --bind "$m" "$m" touch "$m/marker"
	fail_closed "root: --idmap without the new mount API" "need the new mount API .*Linux 5.12" \
		nsrun "${base[@]}" --debug-opt=force-mount-setattr-fallback --idmap --bind "$TMP/idm" /mnt/w \
		--bind "$m" "$m" touch "$m/marker"
}
for_each_mode_root test_idmap_root

test_idmap_user() {
	local d
	d=$(mode_dir idmap-user)
	fail_closed "user: --idmap of the host's filesystem needs root" \
		"idmapping a mount of the host's needs CAP_SYS_ADMIN" \
		nsrun --unshare-user --ro-bind / / --tmpfs /mnt --idmap --bind "$d" /mnt/w \
		--bind "$d" "$d" touch "$d/marker"
}
MODE=unpriv
test_idmap_user
MODE=root

done_testing
