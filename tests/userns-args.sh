# shellcheck shell=bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# userns-args.sh: the "root without a user namespace" mode of the suites that run
# attacks (tests/integration/lib.sh, tests/kernels/guest-checks.sh).

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
