#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# flatpak-e2e.sh --tap: what Flatpak's own tests never reach, run the way they run (this
# script sources the installed libtest.sh, so check-flatpak.sh runs it from a directory
# that links the installed tests beside it), with FLATPAK_BWRAP naming the bwrap under
# test:
#  - `flatpak run --sandbox`, whose sandbox holds /run/.userns, the bind of
#    /proc/self/ns/user (an nsfs object: --ro-bind-try must bind it, not skip it);
#  - `flatpak enter` into a running app, as the same user: it opens the app's
#    /proc/PID/root/run/.userns and /proc/PID/ns/*, so the sandbox's pid 1 must stay
#    open to its own user (not dumpable = EACCES);
#  - a portal Spawn with sandbox flags (`flatpak-spawn --sandbox --share-pids` /
#    `--expose-pids` inside the app): flatpak-portal runs `flatpak run --sandbox
#    --parent-pid=PID --parent-share-pids`, which passes the app's namespaces as
#    `--userns FD --userns2 FD --pidns FD` to bwrap.
set -euo pipefail
export USE_SYSTEMDIR=no
# libtest.sh exports FLATPAK=" flatpak" (a command prefix) before it starts the session
# bus, and flatpak-portal would run that as the flatpak binary; this names the real one.
export FLATPAK_PORTAL_MOCK_FLATPAK
FLATPAK_PORTAL_MOCK_FLATPAK=$(command -v flatpak)
. "$(dirname "$0")/libtest.sh"
# The running app below ends when app_done exists, whatever happens to this script.
trap 'touch app_done; cleanup' EXIT

skip_without_bwrap
command -v /usr/libexec/flatpak-portal >/dev/null || skip "no flatpak-portal"
SPAWN=/usr/libexec/flatpak-xdg-utils/flatpak-spawn
[ -x "$SPAWN" ] || skip "no flatpak-spawn (flatpak-xdg-utils)"

echo "1..6"

# A runtime with flatpak-spawn, sleep and mv in /usr/bin (make_runtime reuses a runtime-repo that
# holds the ref), then the usual test app on it.
BRANCH=master
"$(dirname "$0")/make-test-runtime.sh" "${TEST_DATA_DIR}/runtime-repo" org.test.Platform "$BRANCH" "" "" "$SPAWN" sleep mv >/dev/null
setup_repo
install_repo

# In the app: the nsfs bind and the namespaces, one per line.
NSINFO='test -e /run/.userns && echo userns-bind=yes || echo userns-bind=no; for n in user pid mnt; do echo "$n=$(readlink /proc/self/ns/$n)"; done'

run --sandbox --command=sh org.test.Hello -c "$NSINFO" >sandbox_out
cat sandbox_out >&2
assert_file_has_content sandbox_out '^userns-bind=yes$'
assert_file_has_content sandbox_out '^pid=pid:\['
ok "run --sandbox: /run/.userns is bound"

# A running app: its sandbox's pid 1 (bwrap's child-pid) and its payload. Its instance
# ID comes from --instance-id-fd (an earlier instance may still be listed by ps).
rm -f app_ns app_done app_instance
run --instance-id-fd=3 --command=sh --filesystem="$(pwd)" org.test.Hello -c \
	"($NSINFO) >$(pwd)/app_ns.tmp; mv $(pwd)/app_ns.tmp $(pwd)/app_ns; while [ ! -e $(pwd)/app_done ]; do sleep 0.2; done" \
	3>app_instance &
APP_JOB=$!
for _ in $(seq 300); do
	[ -e app_ns ] && [ -s app_instance ] && break
	sleep 0.2
done
assert_has_file app_ns
cat app_ns >&2
INSTANCE=$(cat app_instance)
${FLATPAK} ps --columns=instance,application >ps_out
cat ps_out >&2
assert_file_has_content ps_out "^${INSTANCE}[[:space:]]*org\.test\.Hello"
ok "running app listed by flatpak ps"

# flatpak enter: the same user joins the app's namespaces through /proc/PID.
# Flatpak's instance tracking is racy by its own account (flatpak-instance.c): retry.
for try in 1 2 3 4 5; do
	${FLATPAK} enter "$INSTANCE" sh -c "$NSINFO" >enter_out 2>enter_err && break
	echo "# flatpak enter, try $try: $(cat enter_err)" >&2
	${FLATPAK} ps --columns=instance,pid,child-pid,application >&2 || true
	ls -la "$XDG_RUNTIME_DIR/.flatpak" "$XDG_RUNTIME_DIR/.flatpak/$INSTANCE" >&2 || true
	[ "$try" = 5 ] && assert_not_reached "flatpak enter failed"
	sleep 1
done
cat enter_out >&2
for n in user pid mnt; do
	assert_streq "$(grep "^$n=" enter_out)" "$(grep "^$n=" app_ns)"
done
ok "flatpak enter joins the app's user, pid and mount namespaces"

# Portal Spawn with sandbox flags, from inside an app (through its session bus proxy):
# spawn OUT FLAGS... prints the calling instance's namespaces, then the spawned one's.
spawn() {
	local out=$1
	shift
	run --env=NSINFO="$NSINFO" --command=sh org.test.Hello -c \
		'echo CALLER; sh -c "$NSINFO"; echo SPAWNED; exec flatpak-spawn --directory=/ "$@" sh -c "$NSINFO"' \
		sh "$@" >"$out" 2>"$out.err" || {
		cat "$out" "$out.err" >&2
		assert_not_reached "flatpak-spawn $* failed"
	}
	cat "$out" >&2
	sed -n '/^CALLER$/,/^SPAWNED$/p' "$out" >"$out.caller"
	sed -n '/^SPAWNED$/,$p' "$out" >"$out.spawned"
	assert_file_has_content "$out.spawned" '^userns-bind=yes$'
}
# ns OUT NAME: one namespace line of one side.
ns() { grep "^$2=" "$1"; }

spawn share_out --sandbox --share-pids
ok "portal Spawn --sandbox --share-pids runs"

# --share-pids: the sub-sandbox joins the calling instance's user and pid namespaces
# (bwrap --userns/--userns2/--pidns); its mount namespace is its own.
assert_streq "$(ns share_out.spawned user)" "$(ns share_out.caller user)"
assert_streq "$(ns share_out.spawned pid)" "$(ns share_out.caller pid)"
assert_not_streq "$(ns share_out.spawned mnt)" "$(ns share_out.caller mnt)"
ok "portal Spawn --share-pids: the caller's user and pid namespaces"

# --expose-pids: a pid namespace of its own, in the caller's user namespace.
spawn expose_out --sandbox --expose-pids
assert_streq "$(ns expose_out.spawned user)" "$(ns expose_out.caller user)"
assert_not_streq "$(ns expose_out.spawned pid)" "$(ns expose_out.caller pid)"
ok "portal Spawn --expose-pids: the caller's user namespace, a pid namespace of its own"

touch app_done
wait "$APP_JOB" || true
