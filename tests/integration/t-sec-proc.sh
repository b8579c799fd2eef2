#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-sec-proc.sh: --proc must not hand the host kernel's control files to the sandbox.
# Started by root, sandbox processes are the host's uid 0 (with --unshare-user and any
# --uid too), whom the kernel lets write sysctls by mode bits alone: core_pattern there
# is code execution as host root. The attacks run for real, as root without and with a
# user namespace and as uid 65534, with and without --cap-drop ALL: writing
# /proc/sys/kernel/core_pattern (the same value back: the host's value never changes),
# opening the other control files for writing, and undoing the read-only covers
# (umount, remount, a fresh procfs, a nested user namespace).
# shellcheck disable=SC2016 # snippets expand in the sandboxed shell
# shellcheck source=tests/integration/lib.sh
. "${top_srcdir:?}/tests/integration/lib.sh"

need_ns

PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
R=(--ro-bind / /)

CORE=/proc/sys/kernel/core_pattern
[ -r "$CORE" ] || skip_all "no $CORE on this kernel"
CORE_BEFORE=$(cat "$CORE")

host_core_unchanged() {
	check_eq "$1: the host's core_pattern is unchanged" "$CORE_BEFORE" "$(cat "$CORE")"
}

# The sandbox shapes an attacker meets: root with and without a user namespace, with
# and without a pid namespace (a fresh procfs, or a bind of the host's), caps kept or
# dropped; uid 65534 always runs in a user namespace.
variants() {
	if [ "$MODE" = root ]; then
		printf '%s\n' "" "--cap-drop ALL" "--unshare-pid" "--unshare-pid --cap-drop ALL" \
			"--unshare-user" "--unshare-user --cap-drop ALL" "--unshare-user --unshare-pid" \
			"--unshare-user --unshare-pid --cap-drop ALL" "--unshare-all --uid 1000" \
			"--unshare-all --cap-drop ALL --uid 1000"
	else
		printf '%s\n' "--unshare-user" "--unshare-all" "--unshare-all --uid 0 --cap-add ALL"
	fi
}

# ---- the finding, verbatim: cat core_pattern > core_pattern ------------------------------
MINI=(--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64
	--proc /proc)
case_core_pattern() {
	local v out denied='Permission denied|Read-only file system'
	[ "$MODE" = root ] && denied='Read-only file system'
	while IFS= read -r v; do
		# shellcheck disable=SC2086 # $v is a list of options
		out=$(nsrun "${MINI[@]}" $v -- sh -c \
			'cat /proc/sys/kernel/core_pattern > /proc/sys/kernel/core_pattern && echo WROTE' 2>&1)
		check_nomatch "core_pattern [${v:-no options}]: the write fails" '^WROTE$' "$out"
		check_match "core_pattern [${v:-no options}]: ... refused (${denied%%|*})" \
			"cannot create /proc/sys/kernel/core_pattern: ($denied)" "$out"
	done < <(variants)
	host_core_unchanged "core_pattern"
}
for_each_mode case_core_pattern

# ---- every control file bwrap means to cover, opened for writing (nothing is written) ----
# Files that this kernel lacks (sysrq-trigger without CONFIG_MAGIC_SYSRQ, modprobe without
# CONFIG_MODULES) are reported once each as skips, not passes.
CONTROL=()
for f in "$CORE" /proc/sys/kernel/modprobe /proc/sys/vm/drop_caches /proc/sys/vm/overcommit_memory \
	/proc/sys/kernel/domainname /proc/sysrq-trigger /proc/irq/default_smp_affinity \
	"$(find /proc/irq -mindepth 2 -maxdepth 2 -name smp_affinity 2>/dev/null | head -n1)" \
	"$(find /proc/bus/pci -mindepth 2 -type f 2>/dev/null | head -n1)"; do
	if [ -n "$f" ] && [ -e "$f" ]; then CONTROL+=("$f"); else skip "control file ${f:-(none found)}" "not on this kernel"; fi
done

case_control_files() {
	local v out f args=() want='errno=(EACCES|EROFS|EPERM)'
	[ "$MODE" = root ] && want='errno=EROFS'
	for f in "${CONTROL[@]}"; do args+=(open-errno "$f" w); done
	while IFS= read -r v; do
		# shellcheck disable=SC2086 # $v is a list of options
		out=$(nsrun "${R[@]}" $v --proc /proc "$PROBE" "${args[@]}" \
			mountinfo /proc/sys mountinfo /proc/irq mountinfo /proc/bus 2>&1)
		for f in "${CONTROL[@]}"; do
			check_match "[${v:-no options}] $f: not writable" "^$want\$" "$(get "open:$f" "$out")"
		done
		[ "$MODE" = root ] || continue
		for f in sys irq bus; do
			check_eq "[${v:-no options}] /proc/$f: a mount of its own" "/proc/$f" \
				"$(mfield mnt "/proc/$f" "$out")"
			check_match "[${v:-no options}] /proc/$f: read-only" '^ro,' \
				"$(mfield opts "/proc/$f" "$out")"
		done
	done < <(variants)
}
for_each_mode case_control_files

# ---- undoing the covers without capabilities ---------------------------------------------
# Each way out ends with the core_pattern write; WROTE-<how> would mean it worked.
UNDO='
try() { how=$1; f=$2; cat "$f" > "$f" 2>/dev/null && echo "WROTE-$how"; }
umount /proc/sys 2>/dev/null; try umount /proc/sys/kernel/core_pattern
umount -l /proc/sys 2>/dev/null; try umount-l /proc/sys/kernel/core_pattern
mount -o remount,bind,rw /proc/sys 2>/dev/null; try remount /proc/sys/kernel/core_pattern
mkdir -p /tmp/p && mount -t proc proc /tmp/p 2>/dev/null && try fresh-proc /tmp/p/sys/kernel/core_pattern
for u in -Urm -Um; do
	unshare $u sh -c "umount /proc/sys; mount -o remount,bind,rw /proc/sys; \
		cat /proc/sys/kernel/core_pattern > /proc/sys/kernel/core_pattern && echo WROTE-nested$u" 2>/dev/null
done
for u in -Urmpf -Umpf; do
	unshare $u sh -c "mount -t proc proc /tmp/p && \
		cat /tmp/p/sys/kernel/core_pattern > /tmp/p/sys/kernel/core_pattern && echo WROTE-nested-proc$u" 2>/dev/null
done
grep " /proc/sys " /proc/self/mountinfo | cut -d" " -f6 | sed "s/^/sys-opts=/"
echo done'

case_undo() {
	local v out vs
	if [ "$MODE" = root ]; then
		vs=("--cap-drop ALL" "--unshare-pid --cap-drop ALL" "--unshare-user --cap-drop ALL"
			"--unshare-user --unshare-pid --cap-drop ALL" "--unshare-all --uid 1000")
	else
		vs=("--unshare-user" "--unshare-all")
	fi
	for v in "${vs[@]}"; do
		# shellcheck disable=SC2086 # $v is a list of options
		out=$(nsrun "${R[@]}" --tmpfs /tmp --dev /dev --proc /proc $v -- sh -c "$UNDO" 2>&1)
		check_match "undo [$v]: the payload ran" '^done$' "$out"
		check_nomatch "undo [$v]: no way to write core_pattern" '^WROTE' "$out"
		if [ "$MODE" = root ]; then
			check_match "undo [$v]: /proc/sys is still read-only" '^sys-opts=ro,' "$out"
		fi
	done
	host_core_unchanged "undo"
}
for_each_mode case_undo

# Documented (man page, SECURITY): a payload that keeps CAP_SYS_ADMIN over its mount
# namespace (root without --cap-drop, as in bwrap) can unmount the covers. Nothing is
# written; this pins the documentation.
case_caps_kept() {
	local v out
	for v in "" "--unshare-user --unshare-pid"; do
		# shellcheck disable=SC2086 # $v is a list of options
		out=$(nsrun "${R[@]}" --proc /proc $v -- sh -c 'umount /proc/sys && echo UNMOUNTED' 2>&1)
		check_eq "documented: root [${v:-no options}] keeping CAP_SYS_ADMIN can unmount the cover" \
			UNMOUNTED "$out"
	done
}
MODE=root
case_caps_kept

# ---- binfmt_misc under the host's /proc/sys (a bind of the host's /proc: no pid ns) ------
# The fixture mounts binfmt_misc in a private mount namespace of the test only.
case_binfmt() {
	local v out wrap=() want='errno=(EACCES|EROFS|EPERM)' vs=("--unshare-user")
	[ "$MODE" = unpriv ] && wrap=(setpriv "--reuid=$UNPRIV_UID" "--regid=$UNPRIV_GID" --clear-groups --)
	[ -n "${NSRUN_FORCE_ENOSYS:-}" ] && wrap+=("$BIN/force-enosys" "$NSRUN_FORCE_ENOSYS" --)
	[ "$MODE" = root ] && want='errno=EROFS' vs=("" "--cap-drop ALL" "--unshare-user --cap-drop ALL")
	for v in "${vs[@]}"; do
		# shellcheck disable=SC2086 # $v is a list of options
		out=$(unshare -m --propagation private -- sh -c \
			'mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || exit 99; exec "$@"' sh \
			"${wrap[@]}" "$BIN/nsrun" "${R[@]}" --proc /proc $v "$PROBE" \
			mountinfo /proc/sys/fs/binfmt_misc open-errno /proc/sys/fs/binfmt_misc/register w \
			open-errno /proc/sys/fs/binfmt_misc/status w 2>&1)
		if [ $? = 99 ]; then
			skip "binfmt_misc [$v]" "cannot mount binfmt_misc here"
			continue
		fi
		check_eq "binfmt_misc [${v:-no options}]: visible in the sandbox" binfmt_misc \
			"$(mfield fstype /proc/sys/fs/binfmt_misc "$out")"
		check_match "binfmt_misc [${v:-no options}]: register not writable" "^$want\$" \
			"$(get open:/proc/sys/fs/binfmt_misc/register "$out")"
		check_match "binfmt_misc [${v:-no options}]: status not writable" "^$want\$" \
			"$(get open:/proc/sys/fs/binfmt_misc/status "$out")"
	done
}
for_each_mode case_binfmt

# Without root nothing is covered (as in bwrap): the kernel already refuses the writes
# above, and a cover would stop a nested sandbox from mounting its own procfs.
case_nested_unpriv() {
	local out
	out=$(nsrun "${R[@]}" --unshare-all --proc /proc --dev /dev -- \
		"$BIN/nsrun" --ro-bind "$BIN" "$BIN" --unshare-user --unshare-pid --proc /proc "$PROBE" pid 2>&1)
	check_eq "unprivileged: a nested sandbox can still mount /proc" "pid=2" "$out"
}
MODE=unpriv
case_nested_unpriv
MODE=root

done_testing
