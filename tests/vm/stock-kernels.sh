#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's stock kernels that bfly.ko must load into: 6.1 (linux-image-amd64)
# and 6.12 (linux-image-6.12-amd64). For each, the image package whose
# version matches the installed headers is downloaded (not installed) and
# its vmlinuz extracted into $BFLY_CACHE/stock.
#
# Prints one line per kernel: "RELEASE VMLINUZ KDIR".
set -euo pipefail

cache=${BFLY_CACHE:-/var/cache/bfly}/stock
mkdir -p "$cache"

for meta in linux-headers-amd64 linux-headers-6.12-amd64; do
	# The headers meta package depends on exactly one versioned package.
	hdr=$(dpkg-query -W -f='${Depends}' "$meta" | tr ',' '\n' |
	      sed -n 's/^ *\(linux-headers-[0-9][^ ]*\).*/\1/p' | head -1)
	release=${hdr#linux-headers-}
	kdir=/usr/src/$hdr
	vmlinuz=$cache/vmlinuz-$release
	[ -d "$kdir" ] || { echo "stock-kernels: $kdir missing ($hdr)" >&2; exit 1; }
	if [ ! -f "$vmlinuz" ]; then
		tmp=$(mktemp -d)
		chmod 755 "$tmp"
		(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "linux-image-$release" >&2)
		dpkg-deb -x "$tmp"/linux-image-"$release"_*.deb "$tmp/x"
		cp "$tmp/x/boot/vmlinuz-$release" "$vmlinuz.tmp"
		mv "$vmlinuz.tmp" "$vmlinuz"
		rm -rf "$tmp"
	fi
	echo "$release $vmlinuz $kdir"
done
