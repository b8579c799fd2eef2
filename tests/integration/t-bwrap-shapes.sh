#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-bwrap-shapes.sh: argument shapes real bwrap callers pass, checked against what
# bubblewrap 0.13.1 does, without needing the oracle: Flatpak's --ro-bind-try of
# /proc/self/ns/user (a magic link), overlay paths with ':' ',' '\' and '"', and the
# overlay mount's options and flags as mountinfo shows them.
. "$top_srcdir/tests/integration/lib.sh"
need_ns

# The options of the mount on $1 (mountinfo field 6, then the super options).
mopts() { awk -v m="$1" '$5 == m { for (i = 7; $i != "-"; i++); print $6, $(i + 3) }' /proc/self/mountinfo; }
export -f mopts

test_userns_file() {
	local out
	# The bound file must be the sandbox's own user namespace, as Flatpak relies on.
	# shellcheck disable=SC2016 # expanded inside the sandbox
	out=$(nsrun --ro-bind / / --unshare-user --tmpfs /run --ro-bind-try /proc/self/ns/user /run/.userns \
		/bin/sh -c 'ns=$(readlink /proc/self/ns/user); [ "$ns" = "user:[$(stat -Lc %i /run/.userns)]" ] &&
			echo same; awk '\''$5 == "/run/.userns" { print $6, $9 }'\'' /proc/self/mountinfo' 2>&1)
	check_eq "--ro-bind-try /proc/self/ns/user: binds the sandbox's user namespace" \
		"same"$'\n'"ro,nosuid,nodev nsfs" "$out"
	out=$(nsrun --ro-bind / / --unshare-user --tmpfs /run --ro-bind /proc/self/ns/user /run/.userns true 2>&1)
	check_eq "--ro-bind /proc/self/ns/user: fails as in bwrap (realpath)" \
		"nsrun: Can't find source path /proc/self/ns/user: No such file or directory" "$out"
	out=$(nsrun --ro-bind / / --tmpfs /run --ro-bind-try /proc/self/ns/nosuch /run/x ls /run 2>&1)
	check_eq "--ro-bind-try of a missing /proc/self/ns entry: skipped" "" "$out"
}

setup_dirs() {
	local d
	W="$TMP/shapes-$MODE"
	rm -rf "$W"
	for d in 'l ":,\' 'u ":,\' 'w ":,\' l2; do mkdir -p "$W/$d"; done
	echo lower >"$W/l \":,\\/f"
	echo top >"$W/l2/g"
	chmod -R a+rX "$W"
	[ "$MODE" = unpriv ] && chown -R $UNPRIV_UID:$UNPRIV_GID "$W"
}

test_overlay_special_chars() {
	local out
	setup_dirs
	out=$(nsrun --ro-bind / / --overlay-src "$W/l \":,\\" --overlay "$W/u \":,\\" "$W/w \":,\\" /mnt \
		/bin/sh -c 'cat /mnt/f && echo new >/mnt/new && echo written' 2>&1)
	check_eq "--overlay with ':,\\\"' and a space in every path: mounts and writes" "lower"$'\n'"written" "$out"
	check_eq "--overlay with ':,\\\"': the write lands in the upper dir" "new" "$(cat "$W/u \":,\\/new" 2>&1)"
}

# bwrap 0.12+ names the layers by fd and mounts overlays nosuid,nodev.
test_overlay_mountinfo() {
	local out
	setup_dirs
	# shellcheck disable=SC2016 # expanded inside the sandbox
	out=$(nsrun --ro-bind / / --overlay-src "$W/l \":,\\" --overlay-src "$W/l2" --ro-overlay /mnt \
		/bin/bash -c 'mopts /mnt' 2>&1)
	check_match "--ro-overlay: nosuid,nodev, one lowerdir= list of fds, userxattr" \
		'^rw,nosuid,nodev,relatime ro,lowerdir=/proc/self/fd/[0-9]+:/proc/self/fd/[0-9]+,redirect_dir=nofollow,userxattr$' "$out"
}

for_each_mode test_userns_file
for_each_mode test_overlay_special_chars
for_each_mode test_overlay_mountinfo
done_testing
