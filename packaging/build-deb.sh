#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# build-deb.sh TARBALL OUTDIR: builds the nsrun and nsrun-bwrap .debs from a `make dist`
# tarball as Debian would: the tarball becomes nsrun_VERSION.orig.tar.xz, packaging/debian
# (shipped in the tarball) becomes debian/, and dpkg-buildpackage -us -uc builds
# source and binaries into OUTDIR. DEB_BUILD_OPTIONS passes through (e.g. nocheck).
set -eu
tarball=$(readlink -f "$1")
out=$2
name=$(basename "$tarball" .tar.xz)       # nsrun-0.2.0
version=${name#nsrun-}

rm -rf "$out"
mkdir -p "$out"
cp "$tarball" "$out/nsrun_$version.orig.tar.xz"
cd "$out"
tar -xf "nsrun_$version.orig.tar.xz"
cp -R "$name/packaging/debian" "$name/debian"
cd "$name"
dpkg-buildpackage -us -uc
cd ..
ls -1 ./*.deb ./*.dsc ./*.changes
