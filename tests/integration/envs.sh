# shellcheck shell=bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# envs.sh: the places users run sandboxes in, built for real, for the integration
# tests. Source it after lib.sh (it needs root to build them; `need_ns` first).
#
#   env_run ENV -- CMD [ARGS...]
# runs CMD inside ENV as the current MODE's user (lib.sh: root, or unpriv = uid 65534)
# and returns CMD's status. Before CMD runs, the environment checks from inside, as that
# user, that it is what it claims; where it is not, or where it could not be built,
# env_run prints "envs.sh: ..." on stderr and returns 99 without running CMD. CMD gets
# no stdin redirection and the caller's stdout and stderr. ENV is one of:
#   docker      Docker's default seccomp profile where it bears on sandboxes (clone with
#               namespace flags, unshare, setns, mounts -> EPERM; clone3 -> ENOSYS; see
#               tests/helpers/env-filter.c), its 14 capabilities (bounding set; root
#               keeps them, 65534 has none), no_new_privs, a pid namespace and a fresh
#               /proc masked as Docker masks it (read-only /proc/sys, bus, fs, irq,
#               sysrq-trigger; /dev/null over kcore, keys, timer_list...; tmpfs over
#               acpi, scsi). CMD is pid 1 there, as a container's command is.
#   nouserns    an outer user namespace with user.max_user_namespaces=0: creating
#               another fails with ENOSPC. root is the namespace's root (host root,
#               mapped to itself, with every capability in it); unpriv is uid 65534
#               inside, without capabilities.
#   nested      a user namespace made by uid 65534: root is its root (root-owned files
#               show as the overflow uid), unpriv is uid 65534 inside it.
#   maskedproc  host /proc masked as container runtimes mask it (ENV docker's binds),
#               then a user namespace with its own mount namespace, where those mounts
#               are locked: the kernel refuses a new procfs (mount_too_revealing).
#               root and unpriv as in nested, but root is host root mapped to itself.
#   nonewaddr   a seccomp supervisor (root, outside) that refuses sendto/sendmsg of
#               RTM_NEWADDR on NETLINK_ROUTE with EPERM; everything else continues.
# env_uid ENV: the host uid CMD's files get in ENV for the current MODE.
# env_dir ENV NAME: a fresh directory $TMP/env-ENV-MODE-NAME, which CMD can write (0777),
# printed.

ENVS="docker nouserns nested maskedproc nonewaddr"
ENV_BROKEN=99
[ -x "${NSRUN_HELPERS:-}/env-filter" ] && cp "$NSRUN_HELPERS/env-filter" "$BIN/env-filter"

# Docker's default capabilities (moby's oci/caps/defaults.go), and their CapBnd mask.
ENV_DOCKER_CAPS=chown,dac_override,fowner,fsetid,kill,setgid,setuid,setpcap,net_bind_service
ENV_DOCKER_CAPS+=,net_raw,sys_chroot,mknod,audit_write,setfcap
ENV_DOCKER_CAPMASK=00000000a80425fb

# The runtimes' masks (runc's readonlyPaths and maskedPaths for /proc, as Docker passes
# them): bound read-only over themselves; /dev/null over a file, a read-only tmpfs over a
# directory. Run as host root in a private mount namespace.
# shellcheck disable=SC2016 # expanded by the shell that runs it
ENV_MASK_PROC='
for p in /proc/bus /proc/fs /proc/irq /proc/sys /proc/sysrq-trigger; do
	[ -e "$p" ] || continue
	mount --bind "$p" "$p" && mount -o remount,bind,ro "$p" || exit 1
done
for p in /proc/asound /proc/acpi /proc/kcore /proc/keys /proc/latency_stats /proc/timer_list \
	/proc/timer_stats /proc/sched_debug /proc/scsi; do
	if [ -d "$p" ]; then
		mount -t tmpfs -o ro tmpfs "$p" || exit 1
	elif [ -e "$p" ]; then
		mount --bind /dev/null "$p" || exit 1
	fi
done
'

# The checks each environment makes from inside, as CMD's user ($1 is the MODE; bash).
# shellcheck disable=SC2016 # expanded by the shell that runs them
ENV_CHECK_COMMON='
mode=$1
envfail() { echo "envs.sh: environment $ENV_NAME ($mode) is not what it claims: $*" >&2; exit 99; }
field() { sed -n "s/^$1:[[:space:]]*//p" /proc/self/status; }
refused() { # refused ERRNO-TEXT CMD...: CMD fails, saying ERRNO-TEXT
	local out
	out=$("${@:2}" 2>&1) && envfail "$* succeeded"
	[[ $out == *"$1"* ]] || envfail "${*:2}: $out (expected $1)"
}
in_userns() { [ "$(tr -s " " </proc/self/uid_map)" != " 0 0 4294967295" ]; }
masked() { # a mount over an entry of /proc, and /proc/sys read-only
	grep -Eq "^([^ ]+ ){4}/proc/[^ ]+ " /proc/self/mountinfo || envfail "/proc is not masked"
	grep -Eq "^([^ ]+ ){4}/proc/sys ro[, ]" /proc/self/mountinfo || envfail "/proc/sys is not read-only"
}
want_uid() { [ "$(id -u)" = "$1" ] || envfail "uid $(id -u), not $1"; }
'
# shellcheck disable=SC2016,SC2034 # expanded by the shell that runs it; read through ENV_CHECK_$1
ENV_CHECK_docker='
refused "Operation not permitted" unshare -U true
refused "Operation not permitted" unshare -m true
[ "$(field CapBnd)" = "$ENV_CAPMASK" ] || envfail "CapBnd $(field CapBnd)"
if [ "$mode" = root ]; then want=$ENV_CAPMASK; want_uid 0; else want=0000000000000000; want_uid 65534; fi
[ "$(field CapEff)" = "$want" ] || envfail "CapEff $(field CapEff)"
[ "$(field NoNewPrivs)" = 1 ] || envfail "no_new_privs is not set"
[ "$(field Seccomp)" = 2 ] || envfail "no seccomp filter"
[ "$$" = 1 ] || envfail "not pid 1 of a pid namespace"
masked
'
# shellcheck disable=SC2016,SC2034 # expanded by the shell that runs it; read through ENV_CHECK_$1
ENV_CHECK_nouserns='
in_userns || envfail "not in a user namespace"
[ "$(cat /proc/sys/user/max_user_namespaces)" = 0 ] || envfail "user.max_user_namespaces is not 0"
refused "No space left on device" unshare -U true
if [ "$mode" = root ]; then want_uid 0; else want_uid 65534; [ "$(field CapEff)" = 0000000000000000 ] || envfail "CapEff $(field CapEff)"; fi
'
# shellcheck disable=SC2016,SC2034 # expanded by the shell that runs it; read through ENV_CHECK_$1
ENV_CHECK_nested='
in_userns || envfail "not in a user namespace"
[ "$(stat -c %u /proc/sys/kernel/overflowuid)" = "$(cat /proc/sys/kernel/overflowuid)" ] ||
	envfail "root-owned files do not show as the overflow uid"
unshare -U true || envfail "cannot nest another user namespace"
if [ "$mode" = root ]; then want_uid 0; else want_uid 65534; fi
'
# shellcheck disable=SC2016,SC2034 # expanded by the shell that runs it; read through ENV_CHECK_$1
ENV_CHECK_maskedproc='
in_userns || envfail "not in a user namespace"
masked
refused "Operation not permitted" unshare -Urmpf --mount-proc true
if [ "$mode" = root ]; then want_uid 0; else want_uid 65534; fi
'
# shellcheck disable=SC2016,SC2034 # expanded by the shell that runs it; read through ENV_CHECK_$1
ENV_CHECK_nonewaddr='
refused "Operation not permitted" unshare -Urn ip addr add 10.7.7.7/8 dev lo
unshare -Urn ip link set lo up || envfail "cannot bring lo up"
'

# The command that runs last in every environment: the checks (ENV_CHECK, from the
# environment), then "ready" on fd 9, which env_run reads, then CMD without fd 9, with
# the caller's environment.
# shellcheck disable=SC2016 # expanded by the shell that runs it
ENV_INNER="$ENV_CHECK_COMMON"'eval "$ENV_CHECK"; echo ready >&9; exec 9>&-; shift
PATH=$ENV_PATH; unset ENV_NAME ENV_CAPMASK ENV_CHECK ENV_PATH; exec "$@"'

# _env_inner ENV: sets ENV_INNER_ARGV, the argv prefix that checks ENV from inside and
# runs the rest.
_env_inner() {
	local check=ENV_CHECK_$1
	ENV_INNER_ARGV=(env "ENV_NAME=$1" "ENV_CAPMASK=$ENV_DOCKER_CAPMASK" "ENV_PATH=$PATH" "PATH=$PATH:/usr/sbin:/sbin"
		"ENV_CHECK=${!check}" bash -c "$ENV_INNER" "env-$1" "$MODE")
}

_env_drop() { [ "$MODE" = unpriv ] && echo "--reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups"; }

_env_docker() {
	# shellcheck disable=SC2046 # _env_drop's words
	unshare -m -p -f --mount-proc --propagation private -- \
		bash -c "$ENV_MASK_PROC"' exec "$@"' mask \
		setpriv $(_env_drop) --bounding-set=-all,+${ENV_DOCKER_CAPS//,/,+} --inh-caps=-all \
		--no-new-privs -- "$BIN/env-filter" docker -- "${ENV_INNER_ARGV[@]}" "$@"
}

_env_nouserns() {
	# shellcheck disable=SC2016
	local set='echo 0 >/proc/sys/user/max_user_namespaces || exit 1; exec "$@"'
	if [ "$MODE" = root ]; then
		unshare -U --map-root-user -- bash -c "$set" set "${ENV_INNER_ARGV[@]}" "$@"
	else
		# uid 65534 keeps its capabilities in the namespace for the write, then loses them.
		setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups -- \
			unshare -U --map-user=$UNPRIV_UID --map-group=$UNPRIV_GID --keep-caps -- \
			bash -c "$set" set setpriv --inh-caps=-all --ambient-caps=-all -- \
			"${ENV_INNER_ARGV[@]}" "$@"
	fi
}

_env_nested() {
	if [ "$MODE" = root ]; then
		setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups -- \
			unshare -U --map-root-user -- "${ENV_INNER_ARGV[@]}" "$@"
	else
		setpriv --reuid=$UNPRIV_UID --regid=$UNPRIV_GID --clear-groups -- \
			unshare -U --map-user=$UNPRIV_UID --map-group=$UNPRIV_GID -- "${ENV_INNER_ARGV[@]}" "$@"
	fi
}

# The masks are made by host root; the user namespace is root's own (mapped to itself)
# or uid 65534's, with a mount namespace of its own, where the masks are locked.
_env_maskedproc() {
	local userns=(unshare -U -m --map-root-user)
	[ "$MODE" = unpriv ] && userns=(setpriv "--reuid=$UNPRIV_UID" "--regid=$UNPRIV_GID" --clear-groups --
		unshare -U -m "--map-user=$UNPRIV_UID" "--map-group=$UNPRIV_GID")
	unshare -m --propagation private -- bash -c "$ENV_MASK_PROC"' exec "$@"' mask \
		"${userns[@]}" -- "${ENV_INNER_ARGV[@]}" "$@"
}

_env_nonewaddr() {
	# shellcheck disable=SC2046 # _env_drop's words
	"$BIN/env-filter" nonewaddr -- setpriv $(_env_drop) -- "${ENV_INNER_ARGV[@]}" "$@"
}

env_run() {
	local name=$1 ready rc
	shift
	[ "${1:-}" = -- ] && shift
	case " $ENVS " in *" $name "*) ;; *)
		echo "envs.sh: no environment '$name' (one of: $ENVS)" >&2
		return $ENV_BROKEN
		;;
	esac
	[ -x "$BIN/env-filter" ] || { echo "envs.sh: no env-filter helper in \$NSRUN_HELPERS" >&2 && return $ENV_BROKEN; }
	ready=$(mktemp "$TMP/env-ready.XXXXXX")
	_env_inner "$name"
	"_env_$name" "$@" 9>"$ready"
	rc=$?
	if [ "$(cat "$ready")" != ready ]; then
		echo "envs.sh: environment $name ($MODE) was not built or failed its checks (status $rc)" >&2
		rm -f "$ready"
		return $ENV_BROKEN
	fi
	rm -f "$ready"
	return $rc
}

env_uid() {
	case "$1:$MODE" in
	nested:*) echo $UNPRIV_UID ;;
	*:root) echo 0 ;;
	*) echo $UNPRIV_UID ;;
	esac
}

env_dir() {
	local d="$TMP/env-$1-$MODE-$2"
	rm -rf "$d"
	mkdir -p "$d"
	chmod 0777 "$d"
	echo "$d"
}
