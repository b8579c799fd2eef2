#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# oracle-build.sh SOURCE OUTDIR [VERSION]: provides a reference bwrap for tests/compat and
# `make check-upstream` in OUTDIR (a directory of the build tree, never inside SOURCE:
# CI's copy of shared/ is read-only).
#
# SOURCE is the oracle folder (../shared/oracle: bubblewrap's releases and its build-bwrap
# script) or an executable bwrap. A folder gives VERSION (default 0.13.1, the release nsrun
# follows; 0.12.0 and 0.11.1 are compiled with their own test suites, in OUTDIR/src/tests)
# through its build-bwrap, which reuses an earlier build in OUTDIR, so this costs nothing
# after the first run. A binary is linked as OUTDIR/bwrap (its own directory's src/tests, if
# any, serves check-upstream). Without SOURCE, OUTDIR is removed and the tests fall back to
# the system bwrap.
set -eu
src=$1
out=$2
version=${3:-0.13.1}

if [ -d "$src" ] && [ -x "$src/build-bwrap" ]; then
	mkdir -p "$out"
	# Links left by a binary SOURCE must not be written through.
	[ ! -L "$out/bwrap" ] || rm -f "$out/bwrap" "$out/.built"
	[ ! -L "$out/src" ] || rm -f "$out/src"
	# build-bwrap reuses any earlier build in OUTDIR: one of another version must go.
	if [ -x "$out/bwrap" ] && [ "$("$out/bwrap" --version 2>&1)" != "bubblewrap $version" ]; then
		rm -rf "$out"
		mkdir -p "$out"
	fi
	# Only a C compiler and libcap are needed; configure's CC may carry sanitizer flags.
	bin=$(CC=cc "$src/build-bwrap" --version "$version" "$out")
	[ "$bin" = "$out/bwrap" ] || { echo "oracle-build: build-bwrap printed '$bin'" >&2; exit 1; }
elif [ -f "$src" ] && [ -x "$src" ]; then
	mkdir -p "$out"
	case $src in /*) ;; *) src=$PWD/$src ;; esac
	ln -sfn "$src" "$out/bwrap"
	rm -rf "$out/src"
	[ -d "$(dirname "$src")/src/tests" ] && ln -sfn "$(dirname "$src")/src" "$out/src"
else
	rm -rf "$out"
	echo "oracle: none at '$src'; tests/compat fall back to the system bwrap"
	exit 0
fi
version=$("$out/bwrap" --version 2>&1) || {
	echo "oracle-build: '$out/bwrap --version' failed: $version" >&2
	exit 1
}
echo "oracle: $out/bwrap ($version)"
