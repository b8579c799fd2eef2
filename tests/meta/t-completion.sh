#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# t-completion.sh: the bash completion works in plain bash (without the bash-completion
# package) and with it, and offers each name once: options, paths, commands, and
# --overlay-hide's PATH names on a fixture where one PATH directory is a link to another
# (a merged /usr). Plain TAP; needs no namespaces.

set -u
LC_ALL=C
export LC_ALL
: "${top_srcdir:?top_srcdir must be set}"
# shellcheck source=tests/tap.sh
. "$top_srcdir/tests/tap.sh"
COMPLETION=$(cd "$top_srcdir" && pwd)/completions/bash/nsrun
BASH_COMPLETION=${NSRUN_BASH_COMPLETION:-/usr/share/bash-completion/bash_completion}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nsrun-compl.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

command -v bash >/dev/null 2>&1 || skip_all "no bash"

# The fixture: usr/bin with curl, cut and a directory, bin -> usr/bin, an empty PATH
# directory first (where a glob finds nothing), and a workspace.
mkdir -p "$TMP/usr/bin/cdir" "$TMP/empty" "$TMP/ws/sub"
for f in curl cut nsrunfixturetool; do
	printf '#!/bin/sh\n' >"$TMP/usr/bin/$f"
	chmod 0755 "$TMP/usr/bin/$f"
done
ln -s usr/bin "$TMP/bin"
: >"$TMP/ws/file"

# complete PRELOAD LINE [SETUP]: what _nsrun offers for LINE (the cursor at its end),
# sorted, one line; PRELOAD is sourced first ("" for none), then SETUP is run (shell
# options a user may have set). Outside a real completion compopt cannot change the
# options of the one running, so a function stands in for it and the options asked for
# are applied as bash would: with -o default (or bashdefault) and no match, readline's
# filename completion. bash-completion 2.12 and later leave a command that has no
# completion of its own to exactly that (_comp_complete_minimal), where 2.11 listed the
# files itself (_minimal).
complete_line() {
	PRELOAD=$1 LINE=$2 SETUP=${3-} COMPLETION=$COMPLETION \
		PATH="$TMP/empty:$TMP/bin:$TMP/usr/bin:/usr/bin:/bin" bash --norc --noprofile -c '
		[ -n "$PRELOAD" ] && . "$PRELOAD"
		. "$COMPLETION"
		eval "$SETUP"
		opts=" "
		compopt() {
			while [ $# -gt 0 ]; do
				[ "$1" = -o ] && opts+="$2 " && shift
				shift
			done
		}
		read -r -a COMP_WORDS <<<"$LINE"
		case $LINE in *" ") COMP_WORDS+=("") ;; esac
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$LINE
		COMP_POINT=${#LINE}
		_nsrun nsrun "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
		if [ ${#COMPREPLY[@]} = 0 ] && [[ $opts == *" default "* || $opts == *" bashdefault "* ]]; then
			mapfile -t COMPREPLY < <(compgen -f -- "${COMP_WORDS[COMP_CWORD]}")
		fi
		printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd" " -' 2>&1
}

run_cases() {
	label=$1 pre=$2
	out=$(complete_line "$pre" "nsrun --unshare-u")
	check_eq "$label: options" "--unshare-user --unshare-user-try --unshare-uts" "$out"
	out=$(complete_line "$pre" "nsrun --overlay-hide nsrunfixture")
	check_eq "$label: --overlay-hide NAME: a PATH name, once though two PATH directories hold it" \
		"nsrunfixturetool" "$out"
	out=$(complete_line "$pre" "nsrun --overlay-hide cu")
	names=$(printf '%s\n' "$out" | tr ' ' '\n')
	n_curl=$(printf '%s\n' "$names" | grep -cx curl)
	n_cut=$(printf '%s\n' "$names" | grep -cx cut)
	check_eq "$label: --overlay-hide NAME: each name once, curl and cut among them" \
		"curl x1, cut x1: $(printf '%s\n' "$names" | sort -u | paste -sd' ' -)" \
		"curl x$n_curl, cut x$n_cut: $out"
	out=$(complete_line "$pre" "nsrun --overlay-hide nsrunfixture" "shopt -s failglob")
	check_eq "$label: --overlay-hide NAME: the user's failglob does not stop it" \
		"nsrunfixturetool" "$out"
	out=$(cd "$TMP/ws" && complete_line "$pre" "nsrun --ro-bind su")
	check_eq "$label: --ro-bind: paths" "sub" "$out"
	out=$(cd "$TMP/ws" && complete_line "$pre" "nsrun --chdir ")
	check_eq "$label: --chdir: directories only" "sub" "$out"
	out=$(complete_line "$pre" "nsrun --ro-bind / / -- nsrunfixture")
	check_eq "$label: COMMAND after --: its name, once" "nsrunfixturetool" "$out"
	out=$(complete_line "$pre" "nsrun --ro-bind / / nsrunfixture")
	check_eq "$label: COMMAND after the options: its name" "nsrunfixturetool" "$out"
	out=$(cd "$TMP/ws" && complete_line "$pre" "nsrun -- nsrunfixturetool fi")
	check_eq "$label: COMMAND's arguments: files" "file" "$out"
	out=$(complete_line "$pre" "nsrun --cap-add cap_net_r")
	check_eq "$label: --cap-add: capability names" "CAP_NET_RAW" "$out"
}

run_cases "plain bash" ""
if [ -r "$BASH_COMPLETION" ]; then
	run_cases "with bash-completion" "$BASH_COMPLETION"
else
	skip "with bash-completion" "no $BASH_COMPLETION (the package is not installed)"
fi

echo "1..$TEST_NUM"
exit "$TEST_FAILED"
