#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-overlay.sh: --overlay-src with --overlay, --tmp-overlay and --ro-overlay (layer
# order, where writes go, read-only), as root and unprivileged, and their errors.
# bwrap has these from 0.11.0 on; Debian's 0.8.0 does not.
. "$top_srcdir/tests/integration/lib.sh"
need_ns

L1="$TMP/lower1"
L2="$TMP/lower2"
mkdir -p "$L1/d" "$L2"
echo one >"$L1/only1"
echo bottom >"$L1/both"
echo two >"$L2/only2"
echo top >"$L2/both"
chmod -R a+rX "$L1" "$L2"
# Copy-up keeps the owner, so the unprivileged user can only copy up a file it owns
# (root's files show as the overflow uid, and copying them up fails with EOVERFLOW).
echo mine >"$L1/mine"
chown $UNPRIV_UID:$UNPRIV_GID "$L1/mine"

setup_work() {
	W="$TMP/ov-$MODE"
	rm -rf "$W"
	mkdir -p "$W/upper" "$W/work"
	echo upper >"$W/upper/fromupper"
	[ "$MODE" = unpriv ] && chown -R $UNPRIV_UID:$UNPRIV_GID "$W"
}

test_tmp_overlay() {
	local out
	out=$(nsrun --ro-bind / / --tmpfs /mnt --overlay-src "$L1" --overlay-src "$L2" --tmp-overlay /mnt/o \
		"$PROBE" ls /mnt/o cat /mnt/o/both mountinfo /mnt/o write /mnt/o/new write /mnt/o/mine \
		cat /mnt/o/mine ls / 2>&1)
	check_eq "--tmp-overlay: union of the layers" "both d mine only1 only2" "$(get ls:/mnt/o "$out")"
	check_eq "--tmp-overlay: the last --overlay-src is on top" 'top\n' "$(get cat:/mnt/o/both "$out")"
	check_eq "--tmp-overlay: an overlay mount" overlay "$(mfield fstype /mnt/o "$out")"
	check_eq "--tmp-overlay: writable" ok "$(get write:/mnt/o/new "$out")"
	check_eq "--tmp-overlay: copy-up of a lower file" 'probe\n' "$(get cat:/mnt/o/mine "$out")"
	check "--tmp-overlay: lower layers unchanged" test ! -e "$L1/new" -a "$(cat "$L1/mine")" = mine
	check_eq "--tmp-overlay: upper and work dirs not visible in the sandbox" \
		"$("$PROBE" ls / | sed 's/^ls:\/=//')" "$(get ls:/ "$out")"
	out=$(nsrun --ro-bind / / --overlay-src "$L1" --tmp-overlay /mnt "$PROBE" ls /mnt 2>&1)
	check_eq "--tmp-overlay with one layer" "both d mine only1" "$(get ls:/mnt "$out")"
}
for_each_mode test_tmp_overlay

test_overlay() {
	local out
	setup_work
	out=$(nsrun --ro-bind / / --overlay-src "$L1" --overlay-src "$L2" --overlay "$W/upper" "$W/work" /mnt \
		"$PROBE" ls /mnt cat /mnt/both write /mnt/new unlink /mnt/only2 2>&1)
	check_eq "--overlay: layers and upper" "both d fromupper mine only1 only2" "$(get ls:/mnt "$out")"
	check_eq "--overlay: top lower layer wins" 'top\n' "$(get cat:/mnt/both "$out")"
	check_eq "--overlay: write ok" ok "$(get write:/mnt/new "$out")"
	check "--overlay: writes land in the upper dir" test -f "$W/upper/new"
	check_eq "--overlay: unlink of a lower file" ok "$(get unlink:/mnt/only2 "$out")"
	check "--overlay: unlink leaves a whiteout, not a host change" test -e "$L2/only2"
}
for_each_mode test_overlay

test_ro_overlay() {
	local out
	out=$(nsrun --ro-bind / / --overlay-src "$L1" --overlay-src "$L2" --ro-overlay /mnt \
		"$PROBE" ls /mnt mountinfo /mnt statfs /mnt write /mnt/new 2>&1)
	check_eq "--ro-overlay: union" "both d mine only1 only2" "$(get ls:/mnt "$out")"
	check_eq "--ro-overlay: an overlay" overlay "$(mfield fstype /mnt "$out")"
	check_match "--ro-overlay: read-only file system" 'flags=ro' "$(get statfs:/mnt "$out")"
	check_eq "--ro-overlay: not writable" errno=EROFS "$(get write:/mnt/new "$out")"
}
for_each_mode test_ro_overlay

test_errors() {
	setup_work
	err_case "--overlay without sources" "bwrap: --overlay requires at least one --overlay-src" \
		--ro-bind / / --overlay "$W/upper" "$W/work" /mnt
	err_case "--tmp-overlay without sources" "bwrap: --tmp-overlay requires at least one --overlay-src" \
		--ro-bind / / --tmp-overlay /mnt
	err_case "--ro-overlay with one source" "bwrap: --ro-overlay requires at least two --overlay-src" \
		--ro-bind / / --overlay-src "$L1" --ro-overlay /mnt
	err_case "--overlay-src followed by another option" \
		"bwrap: --overlay-src must be followed by another --overlay-src or one of --overlay, --tmp-overlay, or --ro-overlay" \
		--ro-bind / / --overlay-src "$L1" --dir /x
	err_case "--overlay-src before the command" \
		"bwrap: --overlay-src must be followed by another --overlay-src or one of --overlay, --tmp-overlay, or --ro-overlay" \
		--ro-bind / / --overlay-src "$L1"
	out=$(bwrap_nsrun --ro-bind / / --overlay-src /nonexistent-layer --tmp-overlay /mnt "$PROBE" pid 2>&1)
	check_eq "missing layer: exit 1" 1 $?
	check_match "missing layer: message names it" '^bwrap: .*/nonexistent-layer' "$out"
}
for_each_mode test_errors

# Layers are named to the kernel as /proc/self/fd/N (bwrap 0.12+), so their own length
# does not count: layers of 2400 bytes, or 20 of 230, mount whole on every kernel.
LONG_A=$(long_name "$TMP/long-a" 2400)
LONG_B=$(long_name "$TMP/long-b" 2400)
mkdir -p "$LONG_A" "$LONG_B"
echo a >"$LONG_A/fa"
echo b >"$LONG_B/fb"
SHORT_LAYERS=()
SHORT_FILES=
for i in $(seq 10 29); do
	d=$(long_name "$TMP/short-$i" 230)
	mkdir -p "$d"
	: >"$d/f$i"
	SHORT_LAYERS+=(--overlay-src "$d")
	SHORT_FILES+=" f$i"
done
# --overlay-hide names its own layers: cut at a page, the lower layer would name one of
# the x's above it, so nsrun refuses.
HIDE_DIR=$(long_name "$TMP/hide" 3800)
while [ ${#HIDE_DIR} -lt 4086 ]; do HIDE_DIR+=/x; done
mkdir -p "$HIDE_DIR"
: >"$HIDE_DIR/keep"
: >"$HIDE_DIR/secret"
chmod -R a+rX "$TMP"

test_long_options() {
	local out rc
	out=$(bwrap_nsrun --ro-bind / / --tmpfs /mnt --overlay-src "$LONG_A" --overlay-src "$LONG_B" \
		--ro-overlay /mnt/o "$PROBE" ls /mnt/o mountinfo /mnt/o 2>&1)
	check_eq "layers of 2400 bytes: both mounted" "fa fb" "$(get ls:/mnt/o "$out")"
	check_match "... named by fd" 'lowerdir=/proc/self/fd/[0-9]+:/proc/self/fd/[0-9]+' "$out"
	out=$(bwrap_nsrun --ro-bind / / --tmpfs /mnt "${SHORT_LAYERS[@]}" --ro-overlay /mnt/o "$PROBE" ls /mnt/o 2>&1)
	check_eq "20 layers of 230 bytes: all mounted" "${SHORT_FILES# }" "$(get ls:/mnt/o "$out")"
	out=$(nsrun --ro-bind / / --overlay-hide "$HIDE_DIR/secret" "$PROBE" ls "$HIDE_DIR" 2>&1)
	rc=$?
	check "--overlay-hide in a directory too deep for the options: not run" test "$rc" -ne 0
	check_eq "--overlay-hide in a directory too deep for the options: no other directory shown" \
		"" "$(get "ls:$HIDE_DIR" "$out")"
	check_match "--overlay-hide in a directory too deep for the options: says why" \
		"path is too long for the overlay's mount options\\): Argument list too long\$" "$out"
}
for_each_mode test_long_options

done_testing
