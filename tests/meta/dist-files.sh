#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# dist-files.sh SRCDIR TARBALL: `make check-dist-files`. Every file git tracks in SRCDIR
# must be in TARBALL (a missing EXTRA_DIST entry otherwise shows only when a user's
# build or test needs the file), except what is meant to stay out: CI's scripts and
# git's own files. Needs a git checkout; without one it fails under NSRUN_MUST_WORK=1.
set -eu
src=$1
tarball=$2
if ! git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	echo "check-dist-files: $src is not a git checkout; nothing to compare"
	[ "${NSRUN_MUST_WORK:-0}" = 1 ] && exit 1
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$src" ls-files | grep -v -E '^(\.ci/|\.gitignore$)' | sort >"$tmp/tracked"
tar -tf "$tarball" | sed 's|^[^/]*/||' | sort >"$tmp/dist"
comm -23 "$tmp/tracked" "$tmp/dist" >"$tmp/missing"
if [ -s "$tmp/missing" ]; then
	echo "check-dist-files: tracked but not in $(basename "$tarball") (add them to EXTRA_DIST):"
	sed 's/^/  /' "$tmp/missing"
	exit 1
fi
echo "check-dist-files: all $(wc -l <"$tmp/tracked") tracked files are in $(basename "$tarball")"
