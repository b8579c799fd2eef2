#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-files.sh: --dir, --file, --bind-data, --ro-bind-data with their default modes and
# --perms, the modes of parents they create, --symlink (idempotent; the "existing
# destination" error) and --chmod.
. "$top_srcdir/tests/integration/lib.sh"
need_ns

DATA="$TMP/data"
printf 'line1\nline2\n' >"$DATA"
chmod 0644 "$DATA"

test_default_modes() {
	local out
	out=$(nsrun --ro-bind / / --tmpfs /mnt --dir /mnt/d --file 3 /mnt/f --bind-data 4 /mnt/b \
		--ro-bind-data 5 /mnt/r "$PROBE" stat /mnt/d stat /mnt/f stat /mnt/b stat /mnt/r \
		cat /mnt/f cat /mnt/b cat /mnt/r mountinfo /mnt/b mountinfo /mnt/r \
		open-errno /mnt/b w open-errno /mnt/r w 3<"$DATA" 4<"$DATA" 5<"$DATA" 2>&1)
	check_eq "--dir: mode 0755" "dir mode=0755" "$(smode /mnt/d "$out")"
	check_eq "--file: mode 0666" "file mode=0666" "$(smode /mnt/f "$out")"
	check_eq "--bind-data: mode 0600" "file mode=0600" "$(smode /mnt/b "$out")"
	check_eq "--ro-bind-data: mode 0600" "file mode=0600" "$(smode /mnt/r "$out")"
	check_eq "--file: content" 'line1\nline2\n' "$(get cat:/mnt/f "$out")"
	check_eq "--bind-data: content" 'line1\nline2\n' "$(get cat:/mnt/b "$out")"
	check_eq "--ro-bind-data: content" 'line1\nline2\n' "$(get cat:/mnt/r "$out")"
	check_eq "--bind-data: a writable mount" "rw,nosuid,nodev" "$(mflags /mnt/b "$out")"
	check_eq "--ro-bind-data: a read-only mount" "ro,nosuid,nodev" "$(mflags /mnt/r "$out")"
	check_eq "--bind-data: writable" ok "$(get open:/mnt/b "$out")"
	check_eq "--ro-bind-data: not writable" errno=EROFS "$(get open:/mnt/r "$out")"
	out=$(nsrun --ro-bind / / --tmpfs /mnt --bind-data 3 /mnt/b "$PROBE" ls / ls /tmp ls /mnt 3<"$DATA" 2>&1)
	check_nomatch "--bind-data: no temp file left visible" 'bindfile' "$out"
	out=$(nsrun --ro-bind / / --tmpfs /mnt --file 3 /mnt/e "$PROBE" cat /mnt/e 3</dev/null 2>&1)
	check_eq "--file: empty input" "cat:/mnt/e=" "$out"
}
for_each_mode test_default_modes

test_perms() {
	local out
	out=$(nsrun --ro-bind / / --tmpfs /mnt --perms 0700 --dir /mnt/d --perms 0640 --file 3 /mnt/f \
		--perms 0644 --bind-data 4 /mnt/b --perms 0444 --ro-bind-data 5 /mnt/r \
		--perms 01777 --dir /mnt/sticky "$PROBE" stat /mnt/d stat /mnt/f stat /mnt/b stat /mnt/r \
		stat /mnt/sticky 3<"$DATA" 4<"$DATA" 5<"$DATA" 2>&1)
	check_eq "--perms 0700 --dir" "dir mode=0700" "$(smode /mnt/d "$out")"
	check_eq "--perms 0640 --file" "file mode=0640" "$(smode /mnt/f "$out")"
	check_eq "--perms 0644 --bind-data" "file mode=0644" "$(smode /mnt/b "$out")"
	check_eq "--perms 0444 --ro-bind-data" "file mode=0444" "$(smode /mnt/r "$out")"
	check_eq "--perms 01777 --dir" "dir mode=1777" "$(smode /mnt/sticky "$out")"
	out=$(bwrap_nsrun --ro-bind / / --perms 0700 --bind / /mnt "$PROBE" pid 2>&1)
	check_eq "--perms before a bind: error" \
		"bwrap: --perms must be followed by an option that creates a file" "$out"
	out=$(bwrap_nsrun --ro-bind / / --perms 0700 --perms 0700 --dir /mnt "$PROBE" pid 2>&1)
	check_match "--perms twice: error" '^bwrap: ' "$out"
	out=$(bwrap_nsrun --ro-bind / / --perms 8 --dir /mnt "$PROBE" pid 2>&1)
	check_match "--perms not octal: error" '^bwrap: ' "$out"
}
for_each_mode test_perms

# Parents created for an operation: 0755, minus group/other bits its mode denies.
test_parent_modes() {
	local out
	out=$(nsrun --ro-bind / / --tmpfs /mnt --dir /mnt/d1/x --perms 0700 --dir /mnt/d2/x \
		--perms 0750 --dir /mnt/d3/x --file 3 /mnt/f1/x --perms 0640 --file 4 /mnt/f2/x \
		--perms 0604 --file 5 /mnt/f3/x --perms 0644 --bind-data 6 /mnt/b1/x \
		--perms 0700 --tmpfs /mnt/t1/x "$PROBE" stat /mnt/d1 stat /mnt/d2 stat /mnt/d3 stat /mnt/f1 \
		stat /mnt/f2 stat /mnt/f3 stat /mnt/b1 stat /mnt/t1 \
		3<"$DATA" 4<"$DATA" 5<"$DATA" 6<"$DATA" 2>&1)
	check_eq "--dir: parent 0755" "dir mode=0755" "$(smode /mnt/d1 "$out")"
	check_eq "--perms 0700 --dir: parent 0700" "dir mode=0700" "$(smode /mnt/d2 "$out")"
	check_eq "--perms 0750 --dir: parent 0750" "dir mode=0750" "$(smode /mnt/d3 "$out")"
	check_eq "--file: parent 0755" "dir mode=0755" "$(smode /mnt/f1 "$out")"
	check_eq "--perms 0640 --file: parent 0750" "dir mode=0750" "$(smode /mnt/f2 "$out")"
	check_eq "--perms 0604 --file: parent 0705" "dir mode=0705" "$(smode /mnt/f3 "$out")"
	check_eq "--perms 0644 --bind-data: parent 0755" "dir mode=0755" "$(smode /mnt/b1 "$out")"
	check_eq "--perms 0700 --tmpfs: parent 0700" "dir mode=0700" "$(smode /mnt/t1 "$out")"
}
for_each_mode test_parent_modes

test_dir_existing() {
	local out
	out=$(nsrun --ro-bind / / --tmpfs /mnt --perms 0700 --dir /mnt/d --dir /mnt/d --dir /tmp \
		"$PROBE" stat /mnt/d 2>&1)
	check_eq "--dir on an existing directory leaves it unchanged" "dir mode=0700" "$(smode /mnt/d "$out")"
}
for_each_mode test_dir_existing

test_symlink() {
	local out rc w
	w=$(mode_dir sym)
	out=$(nsrun --ro-bind / / --tmpfs /mnt --symlink /dev/null /mnt/abs --symlink ../rel /mnt/a/rel \
		"$PROBE" readlink /mnt/abs readlink /mnt/a/rel lstat /mnt/abs 2>&1)
	check_eq "--symlink: absolute target" "/dev/null" "$(get readlink:/mnt/abs "$out")"
	check_eq "--symlink: relative target, parent created" "../rel" "$(get readlink:/mnt/a/rel "$out")"
	check_match "--symlink: a symlink" '^lstat:/mnt/abs=symlink ' "$out"
	out=$(nsrun --ro-bind / / --tmpfs /mnt --symlink /dev/null /mnt/l --symlink /dev/null /mnt/l \
		"$PROBE" readlink /mnt/l 2>&1)
	rc=$?
	check_eq "--symlink twice, same target: exit 0 (idempotent)" 0 "$rc"
	check_eq "--symlink twice, same target: the link" "readlink:/mnt/l=/dev/null" "$out"
	rm -f "$w/marker"
	out=$(bwrap_nsrun --ro-bind / / --bind "$w" "$w" --tmpfs /mnt --symlink /dev/null /mnt/l \
		--symlink /dev/zero /mnt/l "$PROBE" write "$w/marker" 2>&1)
	rc=$?
	check_eq "--symlink over another link: exit 1" 1 "$rc"
	check_match "--symlink over another link: message" \
		"^bwrap: Can't make symlink .*: existing destination is /dev/null" "$out"
	check "--symlink over another link: command not run" test ! -e "$w/marker"
}
for_each_mode test_symlink

test_chmod() {
	local out rc
	out=$(nsrun --ro-bind / / --tmpfs /mnt --dir /mnt/d --file 3 /mnt/f --chmod 0700 /mnt/d \
		--chmod 0604 /mnt/f --chmod 01777 /mnt "$PROBE" stat /mnt/d stat /mnt/f stat /mnt 3<"$DATA" 2>&1)
	check_eq "--chmod 0700 a directory" "dir mode=0700" "$(smode /mnt/d "$out")"
	check_eq "--chmod 0604 a file" "file mode=0604" "$(smode /mnt/f "$out")"
	check_eq "--chmod 01777 a tmpfs root" "dir mode=1777" "$(smode /mnt "$out")"
	out=$(bwrap_nsrun --ro-bind / / --tmpfs /mnt --chmod 0700 /mnt/missing "$PROBE" pid 2>&1)
	rc=$?
	check_eq "--chmod of a missing path: exit 1" 1 "$rc"
	check_match "--chmod of a missing path: message" "^bwrap: .*/mnt/missing.*No such file or directory" "$out"
}
for_each_mode test_chmod

done_testing
