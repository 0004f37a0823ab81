#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the bfly kernel modules for one kernel, in a copy of the sources so
# builds for several kernels do not share object files.
#
#   build-module.sh KDIR OUTDIR [make arguments, e.g. W=1 C=1]
#
# The build log goes to OUTDIR/build.log; exits non-zero when the build
# fails or prints any warning.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
kdir=$1
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2

rm -rf "$out"
mkdir -p "$out/tests"
cp -r "$top/Kbuild" "$top/VERSION" "$top/kmod" "$top/uapi" "$out/"
cp -r "$top/tests/kasan" "$out/tests/"

if ! make -j"$(nproc)" -C "$kdir" M="$out" "$@" modules > "$out/build.log" 2>&1; then
	cat "$out/build.log" >&2
	exit 1
fi
# Kbuild's own notice about missing BTF is not a code warning.
if grep -E 'warning:|error:' "$out/build.log" >&2; then
	exit 1
fi
