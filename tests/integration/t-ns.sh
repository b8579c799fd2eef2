#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-ns.sh: namespaces. Each --unshare-* (and -try) creates exactly its namespace,
# --unshare-all/--share-net, the implied userns (unprivileged only), uid/gid maps with
# and without --dev, --uid/--gid, --hostname, and a loopback-only network.
. "$top_srcdir/tests/integration/lib.sh"
need_ns

HOST_NS=$("$PROBE" ns)
ALL_NS="cgroup ipc mnt net pid user uts time"

# ns_expect DESC "ARGS" "NS-THAT-DIFFER": the others must equal the host's.
ns_expect() {
	local desc=$1 args=$2 differ=$3 out n want have
	# shellcheck disable=SC2086
	out=$(nsrun --ro-bind / / $args "$PROBE" ns 2>&1)
	for n in $ALL_NS; do
		want=$(get "ns.$n" "$HOST_NS")
		have=$(get "ns.$n" "$out")
		case " $differ " in
		*" $n "*)
			if [ -n "$have" ] && [ "$have" != "$want" ] && [ "${have#errno}" = "$have" ]; then
				ok "$desc: new $n namespace"
			else
				not_ok "$desc: new $n namespace"
				diag "host: $want" "sandbox: $have" "$out"
			fi
			;;
		*) check_eq "$desc: same $n namespace as the host" "$want" "$have" ;;
		esac
	done
}

test_each_unshare() {
	local implied=""
	[ "$MODE" = unpriv ] && implied=user
	ns_expect "no --unshare" "" "mnt $implied"
	ns_expect "--unshare-ipc" "--unshare-ipc" "mnt ipc $implied"
	ns_expect "--unshare-pid" "--unshare-pid" "mnt pid $implied"
	ns_expect "--unshare-net" "--unshare-net" "mnt net $implied"
	ns_expect "--unshare-uts" "--unshare-uts" "mnt uts $implied"
	ns_expect "--unshare-cgroup" "--unshare-cgroup" "mnt cgroup $implied"
	ns_expect "--unshare-cgroup-try" "--unshare-cgroup-try" "mnt cgroup $implied"
	ns_expect "--unshare-user" "--unshare-user" "mnt user"
	ns_expect "--unshare-user-try" "--unshare-user-try" "mnt user"
	ns_expect "--unshare-all" "--unshare-all" "mnt user ipc pid net uts cgroup"
	ns_expect "--unshare-all --share-net" "--unshare-all --share-net" "mnt user ipc pid uts cgroup"
	ns_expect "--unshare-net --share-net" "--unshare-net --share-net" "mnt $implied"
}
for_each_mode test_each_unshare

test_net() {
	local out host
	out=$(nsrun --ro-bind / / --unshare-net "$PROBE" netdevs 2>&1)
	check_eq "--unshare-net: only lo, up" "netdev:lo=up,loopback,running" "$out"
	out=$(nsrun --ro-bind / / --unshare-all "$PROBE" netdevs 2>&1)
	check_eq "--unshare-all: only lo, up" "netdev:lo=up,loopback,running" "$out"
	host=$("$PROBE" netdevs)
	out=$(nsrun --ro-bind / / --unshare-all --share-net "$PROBE" netdevs 2>&1)
	check_eq "--share-net: the host's interfaces" "$host" "$out"
}
for_each_mode test_net

# Map contents: bwrap maps the caller's uid alone; --dev (devpts) forces a second
# userns so the inner map points at uid 0 of the first one.
test_maps() {
	local out me=65534
	[ "$MODE" = root ] && me=0
	if [ "$MODE" = root ]; then
		out=$(nsrun --ro-bind / / "$PROBE" uidmap gidmap 2>&1)
		check_eq "root: no user namespace unless asked" \
			"$(printf 'uidmap=0 0 4294967295\ngidmap=0 0 4294967295')" "$out"
	fi
	out=$(nsrun --ro-bind / / --unshare-user "$PROBE" uidmap gidmap ids 2>&1)
	check_eq "--unshare-user: uid_map" "$me $me 1" "$(get uidmap "$out")"
	check_eq "--unshare-user: gid_map" "$me $me 1" "$(get gidmap "$out")"
	check_eq "--unshare-user: uid" "$me" "$(get uid "$out")"
	check_eq "--unshare-user: gid" "$me" "$(get gid "$out")"
	out=$(nsrun --ro-bind / / --unshare-user --dev /dev "$PROBE" uidmap gidmap ids 2>&1)
	check_eq "--dev: uid_map" "$me 0 1" "$(get uidmap "$out")"
	check_eq "--dev: gid_map" "$me 0 1" "$(get gidmap "$out")"
	check_eq "--dev: uid" "$me" "$(get uid "$out")"
	out=$(nsrun --ro-bind / / --unshare-user --uid 1234 --gid 5678 "$PROBE" uidmap gidmap ids 2>&1)
	check_eq "--uid 1234: uid" "1234" "$(get uid "$out")"
	check_eq "--gid 5678: gid" "5678" "$(get gid "$out")"
	check_eq "--uid 1234: euid" "1234" "$(get euid "$out")"
	check_eq "--gid 5678: egid" "5678" "$(get egid "$out")"
	if [ "$MODE" = root ]; then
		check_eq "--uid as root: uid_map (second userns)" "1234 0 1" "$(get uidmap "$out")"
		check_eq "--gid as root: gid_map (second userns)" "5678 0 1" "$(get gidmap "$out")"
	else
		check_eq "--uid: uid_map" "1234 65534 1" "$(get uidmap "$out")"
		check_eq "--gid: gid_map" "5678 65534 1" "$(get gidmap "$out")"
	fi
	out=$(nsrun --ro-bind / / --unshare-user --uid 1234 --gid 5678 --dev /dev "$PROBE" uidmap gidmap 2>&1)
	check_eq "--uid with --dev: uid_map" "1234 0 1" "$(get uidmap "$out")"
	check_eq "--gid with --dev: gid_map" "5678 0 1" "$(get gidmap "$out")"
	if [ "$MODE" = unpriv ]; then
		out=$(nsrun --ro-bind / / --uid 4321 "$PROBE" ids 2>&1)
		check_eq "unprivileged: --uid works with the implied userns" "4321" "$(get uid "$out")"
	fi
	out=$(nsrun --ro-bind / / --unshare-all "$PROBE" uidmap 2>&1)
	check_eq "--unshare-all: uid_map" "$me $me 1" "$(get uidmap "$out")"
}
for_each_mode test_maps

test_hostname() {
	local out host
	host=$(uname -n)
	out=$(nsrun --ro-bind / / --unshare-uts --hostname sandbox-name "$PROBE" hostname 2>&1)
	check_eq "--hostname sets the sandbox's name" "hostname=sandbox-name" "$out"
	check_eq "--hostname leaves the host's name" "$host" "$(uname -n)"
	out=$(nsrun --ro-bind / / --unshare-all --hostname other "$PROBE" hostname 2>&1)
	check_eq "--unshare-all --hostname" "hostname=other" "$out"
	out=$(nsrun --ro-bind / / --unshare-uts "$PROBE" hostname 2>&1)
	check_eq "--unshare-uts keeps the name" "hostname=$host" "$out"
}
for_each_mode test_hostname

done_testing
