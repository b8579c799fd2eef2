# shellcheck shell=bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# allowlist.sh: the differences from bubblewrap 0.13.1 that the differential suites
# accept, each because nsrun(1)'s COMPATIBILITY section documents it.
#
#   allow CASE LINE-REGEX MAN-SENTENCE
#
# CASE is a case name of t-compat.sh or t-flatpak.sh (a bash extended glob); LINE-REGEX (grep -E) must
# match every changed line of that case's output, as compat_check shows them ("bwrap:
# LINE" for a line only bwrap printed, "nsrun: LINE" for one only nsrun printed); and
# MAN-SENTENCE is text of the COMPATIBILITY section as `man nsrun` renders it (spacing
# aside), which tests/compat/t-allowlist.sh looks for. Anything else that differs fails.
# Keep this list short: a difference nobody documented is a bug to fix, not to list.

# Sourcing this file fills ALLOW_CASE, ALLOW_LINES and ALLOW_MAN, index by index.
shopt -s extglob # allowlist cases are extended globs
ALLOW_CASE=()
ALLOW_LINES=()
ALLOW_MAN=()
allow() {
	ALLOW_CASE+=("$1")
	ALLOW_LINES+=("$2")
	ALLOW_MAN+=("$3")
}

# --help and the usage text printed when there is no command: the same options, grouped.
allow '@(--help|no arguments|no command)' '^(bwrap|nsrun): ( {4}--[a-z]| {20,}[A-Za-z]|[A-Z][A-Za-z ()-]*:$|$)' \
	'--help groups the options by topic, and its descriptions of some options are worded differently'

# bwrap's intermediate process for --pidns prints a second line after the real error.
allow '--pidns not a namespace' '^bwrap: bwrap: Unexpected short read from pid socket$' \
	'When joining a PID namespace fails, bubblewrap prints a second line,'

# Numbers with a leading space or sign.
allow 'fd with a leading space' '.' \
	'Numbers (file descriptors, user and group IDs, modes) are parsed strictly: bubblewrap accepts'

# Covered host submounts (a second /dev/shm or /dev/pts mount stacked on the first) get a
# recursive bind's flags from nsrun's one mount_setattr call; bwrap's walk skips them. The
# case blanks mount ids and device numbers, which depend on what else mounts meanwhile.
allow '@(--dev over host submounts|--bind / over host submounts)' \
	'^(bwrap: +/ /dev/(shm|pts) rw,relatime|nsrun: +/ /dev/(shm|pts) r[ow],nosuid,nodev,relatime) - (tmpfs tmpfs rw,size=[0-9]+k|devpts devpts rw,mode=600,ptmxmode=000)$' \
	'This is stricter: covered submounts get the flags too. They are unreachable, so nothing but /proc/self/mountinfo shows the difference.'

# Root without a user namespace, --cap-add of capabilities the bounding set lacks (mkosi's
# "all" in a container): bwrap's capset fails and it keeps the caps as they were.
allow 'mkosi: --cap-add all over --bind / /' '^(bwrap|nsrun): Cap(Inh|Amb)=[0-9a-f]+$' \
	'bubblewrap then leaves the capabilities as they were, even those'
