#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the bfly debug test kernel from Debian's linux-source-6.12 and the
# config fragment tests/vm/test-kernel.config. The unpacked source and the
# build are cached under $BFLY_CACHE (default /var/cache/bfly), keyed by the
# source package version and the fragment, so a second run builds nothing.
#
# Prints the path of the build directory (holding arch/x86/boot/bzImage) on
# stdout; progress goes to stderr. Runs at the same time take turns
# through a lock file in the cache.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${BFLY_CACHE:-/var/cache/bfly}
fragment=$here/test-kernel.config
tarball=/usr/src/linux-source-6.12.tar.xz

[ -f "$tarball" ] || { echo "build-test-kernel: $tarball missing (package linux-source-6.12)" >&2; exit 1; }

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
src=$cache/linux-source-6.12-$srcver
key=$( (echo "$srcver"; cat "$fragment") | sha256sum | cut -c1-16)
out=$cache/test-kernel-$key

mkdir -p "$cache"
# One build at a time: a second run (another test run on this machine)
# waits here and then finds the finished build.
exec 9>"$cache/.build-test-kernel.lock"
flock 9
if [ -f "$out/.bfly-done" ]; then
	echo "$out"
	exit 0
fi

if [ ! -f "$src/.bfly-unpacked" ]; then
	echo "build-test-kernel: unpacking $tarball" >&2
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" -xf "$tarball" --strip-components=1
	touch "$src.tmp/.bfly-unpacked"
	mv "$src.tmp" "$src"
fi

echo "build-test-kernel: configuring $out" >&2
rm -rf "$out"
mkdir -p "$out"
make -s -C "$src" O="$out" tinyconfig >&2
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$fragment" >&2
make -s -C "$src" O="$out" olddefconfig >&2

# Every fragment line must have survived olddefconfig: a dropped option
# (an unmet dependency) would silently weaken the test kernel.
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" "$out/.config" || { echo "build-test-kernel: not set: $line" >&2; missing=1; } ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		! grep -q "^$opt=" "$out/.config" || { echo "build-test-kernel: still set: $opt" >&2; missing=1; } ;;
	esac
done < "$fragment"
[ $missing -eq 0 ] || exit 1

echo "build-test-kernel: building (this takes a few minutes)" >&2
make -s -C "$src" O="$out" -j"$(nproc)" all >&2
touch "$out/.bfly-done"
echo "$out"
