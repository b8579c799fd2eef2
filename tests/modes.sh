# shellcheck shell=bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# modes.sh: what the suites that run attacks share (tests/integration/lib.sh,
# tests/kernels/guest-checks.sh): the "root without a user namespace" mode, and reading
# which capabilities the command holds.

# without_userns ARGS...: sets NS_ARGS to ARGS with the user namespace that --unshare-all
# and --unshare-user-try bring to root taken out (the other namespaces stay), up to `--`;
# an explicit --unshare-user stays, as the case asked for it.
without_userns() {
	NS_ARGS=()
	while [ $# -gt 0 ]; do
		case $1 in
		--) NS_ARGS+=("$@") && return ;;
		--unshare-all) NS_ARGS+=(--unshare-ipc --unshare-pid --unshare-net --unshare-uts --unshare-cgroup-try) ;;
		--unshare-user-try) ;;
		*) NS_ARGS+=("$1") ;;
		esac
		shift
	done
}

# caps_lacking SET TEXT MASK: "none" when the CapSET line (Eff, Bnd, ...) of TEXT, a
# /proc/PID/status, holds none of MASK's bits; else the line's value, or that it is missing.
caps_lacking() {
	local v
	v=$(printf '%s\n' "$2" | sed -n "s/^Cap$1:[[:space:]]*//p")
	if [ -z "$v" ]; then
		echo "no Cap$1 line"
	elif (((16#$v & $3) == 0)); then
		echo none
	else
		echo "Cap$1=$v"
	fi
}
