#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build bfly's Debian packages (debian/) with dpkg-buildpackage, unsigned,
# in a copy of the tree's files (git's tracked and untracked, not ignored
# ones), so the checkout keeps no build output.
#
#   build-deb.sh OUTDIR     the .deb, .dsc, .tar.xz, .changes go to OUTDIR
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
version=$(cat "$top/VERSION")
src=$out/bfly-$version

rm -rf "$out"/*
mkdir -p "$src"
(cd "$top" && git ls-files -co --exclude-standard -z | grep -zv '^build/' |
	xargs -0 tar -cf - --no-recursion) | tar -C "$src" -xf -
# dpkg-buildpackage's own -j: the number of cores
(cd "$src" && dpkg-buildpackage -us -uc -j"$(nproc)") > "$out/build.log" 2>&1 ||
	{ tail -40 "$out/build.log" >&2; exit 1; }
ls "$out"/*.deb
