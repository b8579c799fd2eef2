#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-doctor.sh: nsrun --doctor and --doctor --json, and each FAIL it reports forced for
# real: user.max_user_namespaces=0 in a child user namespace, a seccomp filter denying
# unshare, Landlock syscalls answering ENOSYS, Ubuntu's AppArmor switch (a file bound
# over the sysctl in a sandbox), a setuid and a group-writable binary; and the run-time
# error that names the cause and points to --doctor.
. "$(dirname "$0")/lib.sh"
need_ns

# doctor_ok DESC OUT STATUS: every line is a check or the summary; status 1 iff a FAIL.
doctor_ok() {
	local bad fails
	bad=$(printf '%s\n' "$2" | grep -Ev '^(OK  |WARN|FAIL) [a-z0-9-]+: |^[0-9]+ ok, [0-9]+ warn, [0-9]+ fail \(as uid [0-9]+\)$' || true)
	check_eq "$1: every line is OK/WARN/FAIL name: text, then the count" "" "$bad"
	fails=$(printf '%s\n' "$2" | grep -c '^FAIL' || true)
	check_eq "$1: exit status 1 exactly when a check fails" "$([ "$fails" -gt 0 ] && echo 1 || echo 0)" "$3"
}

case_plain() {
	local out st=0 json jst=0
	out=$(nsrun --doctor 2>&1) || st=$?
	doctor_ok "--doctor" "$out" "$st"
	for name in kernel mount-api max-user-namespaces unprivileged-userns-clone apparmor-userns \
		userns seccomp overlay whiteouts landlock landlock-rw landlock-exec \
		landlock-connect-tcp landlock-bind-tcp landlock-connect-udp landlock-bind-udp \
		landlock-scope landlock-deny-unix \
		memfd-noexec pidfd cgroup proc loopback binary; do
		check_match "--doctor checks $name" "^(OK  |WARN|FAIL) $name: " "$out"
	done
	check_match "--doctor says which uid it checked" "\\(as uid $(as_user id -u)\\)\$" "$out"
	json=$(nsrun --doctor --json 2>&1) || jst=$?
	check_eq "--doctor --json: same exit status" "$st" "$jst"
	check "--doctor --json: the same checks, in order, with the same levels" python3 -c '
import json, sys
doc = json.loads(sys.argv[1])
text = [l.split(":")[0].split() for l in sys.argv[2].splitlines() if l[:4] in ("OK  ", "WARN", "FAIL")]
want = [[c["status"].upper(), c["name"]] for c in doc["checks"]]
assert want == text, (want, text)
levels = [c["status"] for c in doc["checks"]]
assert doc["status"] == ("fail" if "fail" in levels else "warn" if "warn" in levels else "ok")
assert all(c["fix"] for c in doc["checks"] if c["status"] != "ok")
' "$json" "$out"
	out=$(nsrun --json --ro-bind / / true 2>&1) && st=0 || st=$?
	check_eq "--json without --doctor: exit 1" 1 "$st"
	check_match "--json without --doctor: says so" "--json is only valid with --doctor" "$out"
	out=$(nsrun --doctor extra 2>&1) && st=0 || st=$?
	check_eq "--doctor with a COMMAND: exit 1, saying so" \
		"1 nsrun: --doctor takes no COMMAND (got 'extra')" "$st $out"
}

# A child user namespace owns its own user.max_user_namespaces; 0 there blocks nesting.
case_max_userns() {
	local out st=0
	out=$(as_user unshare -Ur sh -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec "$0" --doctor' \
		"$BIN/nsrun" 2>&1) || st=$?
	check_eq "max_user_namespaces=0: --doctor exits 1" 1 "$st"
	check_match "max_user_namespaces=0: FAIL max-user-namespaces" \
		'^FAIL max-user-namespaces: user.max_user_namespaces is 0.*; do: sysctl' "$out"
	check_match "max_user_namespaces=0: FAIL userns names the cause" \
		'^FAIL userns: .*: user.max_user_namespaces is 0' "$out"
	out=$(as_user unshare -Ur sh -c 'echo 0 >/proc/sys/user/max_user_namespaces &&
		exec "$0" --unshare-user --ro-bind / / true' "$BIN/nsrun" 2>&1) && st=0 || st=$?
	check_eq "max_user_namespaces=0: a sandbox fails with 1" 1 "$st"
	check_match "max_user_namespaces=0: its error names the cause and --doctor" \
		"cause: user.max_user_namespaces is 0; run 'nsrun --doctor'" "$out"
}

case_seccomp() {
	local out st=0
	"$NSRUN_HELPERS/seccomp-deny" unshare >"$TMP/deny-unshare.bpf"
	out=$(nsrun --ro-bind / / --dev /dev --seccomp 3 -- "$BIN/nsrun" --doctor \
		3<"$TMP/deny-unshare.bpf" 2>&1) || st=$?
	check_eq "seccomp denies unshare: --doctor exits 1" 1 "$st"
	check_match "seccomp denies unshare: FAIL seccomp" \
		'^FAIL seccomp: a seccomp filter blocks unshare\(2\): Operation not permitted; do: ' "$out"
	check_match "seccomp denies unshare: the userns line names the filter" \
		'^(WARN|FAIL) userns: .*a seccomp filter' "$out"
	out=$(nsrun --doctor 2>&1) || true
	check_match "without the filter: OK seccomp" '^OK   seccomp: ' "$out"
}

case_landlock_enosys() {
	local out st=0
	out=$(as_user "$BIN/force-enosys" landlock -- "$BIN/nsrun" --doctor 2>&1) || st=$?
	check_eq "Landlock ENOSYS: --doctor exits 1" 1 "$st"
	check_match "Landlock ENOSYS: FAIL landlock" \
		'^FAIL landlock: Landlock is unavailable \(ENOSYS.*exits 126; do: ' "$out"
	check_match "Landlock ENOSYS: each option says it exits 126" \
		'^WARN landlock-scope: --landlock-scope exits 126 here' "$out"
	out=$(as_user "$BIN/force-enosys" landlock -- "$BIN/nsrun" --landlock-only --landlock-rw /tmp \
		true 2>&1) && st=0 || st=$?
	check_eq "Landlock ENOSYS: a boundary exits 126" 126 "$st"
	check_match "Landlock ENOSYS: its error names the cause and --doctor" \
		"Landlock is not supported by this kernel \\(ENOSYS\\).*run 'nsrun --doctor'" "$out"
	out=$(as_user "$BIN/force-enosys" landlock-abi=5 -- "$BIN/nsrun" --doctor 2>&1) || true
	check_match "Landlock ABI 5: --landlock-scope needs ABI 6" \
		'^WARN landlock-scope: .*ABI 6' "$out"
	check_match "Landlock ABI 5: --landlock-connect-tcp works" '^OK   landlock-connect-tcp: ' "$out"
}

# The sysctl file cannot be written here (no AppArmor in this kernel): a sandbox shows one.
case_apparmor() {
	local out want=WARN
	echo 1 >"$TMP/aa-restrict"
	chmod 0644 "$TMP/aa-restrict"
	out=$(nsrun --dev-bind / / --tmpfs /proc/sys/kernel \
		--ro-bind "$TMP/aa-restrict" /proc/sys/kernel/apparmor_restrict_unprivileged_userns \
		-- "$BIN/nsrun" --doctor 2>&1) || true
	[ "$MODE" = unpriv ] && want=FAIL
	check_match "AppArmor restriction on, no profile: $want apparmor-userns" \
		"^$want apparmor-userns: kernel.apparmor_restrict_unprivileged_userns=1 and this nsrun runs unconfined \\(profile not loaded\\).*; do: install the nsrun package" \
		"$out"
	# A sandbox refused a user namespace (here: an unmapped uid, as a user namespace
	# without maps leaves it) names the cause once, from --doctor's reader, and bwrap's
	# name keeps bwrap's words.
	out=$(nsrun --dev-bind / / --tmpfs /proc/sys/kernel \
		--ro-bind "$TMP/aa-restrict" /proc/sys/kernel/apparmor_restrict_unprivileged_userns \
		-- unshare -U -- "$BIN/nsrun" --ro-bind / / true 2>&1)
	check_eq "a refused user namespace: exit 1, one line" "1 1" "$? $(printf '%s\n' "$out" | wc -l)"
	check_match "a refused user namespace: the cause, named once" \
		"^nsrun: No permissions to create a new namespace \\(cause: AppArmor restricts unprivileged user namespaces \\(kernel.apparmor_restrict_unprivileged_userns=1\\) and nsrun runs without its AppArmor profile; run 'nsrun --doctor'\\)$" \
		"$out"
	check_eq "a refused user namespace: the restriction named once" 1 "$(printf '%s\n' "$out" | grep -o "restricts unprivileged" | wc -l)"
	out=$(nsrun --ro-bind / / -- unshare -U -- "$BIN/bwrap" --ro-bind / / true 2>&1)
	check_eq "under the name bwrap: bwrap's text" \
		"1 bwrap: No permissions to create a new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'." \
		"$? $out"
}

case_binary() {
	local out st=0
	mkdir -p "$TMP/bin-$MODE"
	cp "$BIN/nsrun" "$TMP/bin-$MODE/nsrun"
	chmod 0775 "$TMP/bin-$MODE/nsrun"
	out=$(as_user "$TMP/bin-$MODE/nsrun" --doctor 2>&1) || st=$?
	check_eq "group-writable binary: exit 1" 1 "$st"
	check_match "group-writable binary: FAIL binary" "^FAIL binary: '.*' can be replaced by another user \\(mode 0775" "$out"
	# Safe itself, but below a directory others can write: it can be renamed away.
	mkdir -p "$TMP/up-$MODE/open/safe"
	chmod 0777 "$TMP/up-$MODE/open"
	cp "$BIN/nsrun" "$TMP/up-$MODE/open/safe/nsrun"
	out=$(as_user "$TMP/up-$MODE/open/safe/nsrun" --doctor 2>&1) && st=0 || st=$?
	check_eq "binary below a world-writable directory: exit 1" 1 "$st"
	check_match "binary below a world-writable directory: FAIL names it" \
		"^FAIL binary: '.*/open/safe/nsrun' is below '.*/up-$MODE/open', which another user can change" \
		"$out"
	chmod 1777 "$TMP/up-$MODE/open"
	out=$(as_user "$TMP/up-$MODE/open/safe/nsrun" --doctor 2>&1)
	check_match "binary below a sticky directory it owns: OK binary" "^OK +binary: " "$out"
	chmod 4755 "$TMP/bin-$MODE/nsrun"
	out=$(as_user "$TMP/bin-$MODE/nsrun" --doctor 2>&1) && st=0 || st=$?
	check_eq "setuid binary: exit 1" 1 "$st"
	if [ "$MODE" = root ]; then
		check_match "setuid binary: FAIL binary" "^FAIL binary: '.*' is setuid or setgid" "$out"
	else
		# Refused when the setuid bit takes effect; reported when $TMP is nosuid.
		check_match "setuid binary: refused or reported" \
			"refusing to run setuid|^FAIL binary: '.*' is setuid" "$out"
	fi
}

for_each_mode case_plain
for_each_mode case_max_userns
for_each_mode case_seccomp
for_each_mode case_landlock_enosys
for_each_mode case_apparmor
for_each_mode case_binary
done_testing
