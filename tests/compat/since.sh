# shellcheck shell=bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# since.sh: cases whose output is bubblewrap's only from a given release on. nsrun follows
# bubblewrap 0.13.1; a user's machine without ../shared compares with the installed bwrap
# (Debian 12: 0.8.0, Debian 13: 0.12.0), and a case below skips against a release older
# than the one named, with the reason, where the outputs differ. CI's reference is 0.13.1,
# so nothing skips there. Found by running tests/compat against 0.8.0, 0.11.1 and 0.12.0.
#
#   since CASE-GLOB RELEASE REASON
shopt -s extglob # cases are extended globs

since '--symlink over a directory' 0.9.0 \
	'an existing --symlink destination is compared with the link asked for'

since '@(*past the name limit|--overlay-src longer than fsconfig takes)' 0.12.0 \
	'setup works on file descriptors, so only each name the kernel is given counts'
since '@(--symlink to DEST/|--symlink to a dangling DEST/|--perms --dir DEST/: made as a parent)' 0.12.0 \
	"a destination's trailing / is dropped"
since '@(--dir past a dangling symlink|--symlink past a dangling symlink|--file through a dangling symlink|--file to a symlink to a file, with a /|absolute symlink in a destination parent)' 0.12.0 \
	'destinations are resolved inside the new root, their last component never followed'
since '--chmod missing' 0.12.0 '--chmod opens its path first ("Can'"'"'t open")'
since '@(--overlay|--tmp-overlay|--ro-overlay|--overlay with*)' 0.12.0 \
	'overlay directories are named by file descriptor, overlays mounted nosuid,nodev'
since '--userns with --unshare-user' 0.12.0 'the message reads "is not compatible with"'
since 'codex: --proc refused under a masked /proc' 0.12.0 \
	'the --proc mount is made on a file descriptor of its destination'

since '--remount-ro of a path that is no mount point' 0.13.0 'mount_setattr() names the failure'
since 'empty path argument' 0.13.0 'an empty path argument is refused'
since 'several --sync-fd*' 0.13.1 'every --sync-fd is held'
# Seen where the host stacks two mounts on /dev/shm (this project's test VM, and a
# container that binds its /dev): before 0.13 the covered one kept its flags.
since '@(--dev over host submounts|--bind / over host submounts)' 0.13.0 \
	'covered submounts get nosuid,nodev too (mount_setattr over the whole tree)'
