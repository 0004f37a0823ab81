#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Add what the netlink end-to-end tests need to an initramfs tree: Debian's
# python3 with its standard library, python3-yaml and python3-jsonschema;
# the kernel's YNL library and cli.py (/usr/share/bfly/ynl) with the bfly
# spec and the genetlink-legacy schema next to it; genl-ctrl-list
# (libnl-utils); jq, which checks bflyctl's JSON (a C program: it starts
# in a fraction of python3's time in a TCG VM). Each program comes with
# the shared libraries ldd lists, and so do the dynamically linked
# programs already in ROOT/usr/bin (bflyctl and libnl). Called by
# mkinitramfs.sh; a missing piece is reported and skipped (the tests then
# fail with a clear message).
# BFLY_YNL=no (demo.sh, the package test, the debug kernel's VMs in a
# full run): no test there runs python3 or YNL, neither is copied (some
# 70 MB unpacked at every boot).
#
#   initramfs-netlink.sh ROOT
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
root=$1
cache=${BFLY_CACHE:-/var/cache/bfly}
ksrc=$(ls -d "$cache"/linux-source-6.12-* 2>/dev/null | head -1 || true)

# copy_libs FILE...: the shared libraries each FILE needs, paths kept
copy_libs() {
	ldd "$@" 2>/dev/null | awk '/=> \// { print $3 } /^\t\/[^ ]* \(/ { print $1 }' |
		sort -u | while read -r lib; do
			[ -e "$root$lib" ] && continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
}

# copy_prog PATH: a host program and its libraries, at the same path
copy_prog() {
	mkdir -p "$root$(dirname "$1")"
	cp -L "$1" "$root$1"
	copy_libs "$1"
}

# mkinitramfs.sh builds in a mktemp -d directory (mode 0700): let the
# unprivileged user of the permission tests reach /bin/sh.
chmod 755 "$root"

# The dynamic loader, by its canonical path too
mkdir -p "$root/lib64"
cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"

# The libraries of the dynamically linked programs mkinitramfs.sh copied
for prog in "$root"/usr/bin/* "$root"/usr/sbin/*; do
	if [ -f "$prog" ] && ldd "$prog" > /dev/null 2>&1; then
		copy_libs "$prog"
	fi
done

if [ -x /usr/bin/jq ]; then
	copy_prog /usr/bin/jq
else
	echo "initramfs-netlink: /usr/bin/jq missing (jq)" >&2
fi

if [ -x /usr/bin/genl-ctrl-list ]; then
	copy_prog /usr/bin/genl-ctrl-list
else
	echo "initramfs-netlink: /usr/bin/genl-ctrl-list missing (libnl-utils)" >&2
fi

py=$(readlink -f /usr/bin/python3)
pyver=$(basename "$py")
if [ "${BFLY_YNL:-}" = no ]; then
	:
elif [ -x "$py" ] && [ -d "/usr/lib/$pyver" ]; then
	copy_prog "$py"
	ln -sf "$pyver" "$root/usr/bin/python3"
	# The standard library without what the tests never import
	mkdir -p "$root/usr/lib/$pyver"
	tar -C "/usr/lib/$pyver" -cf - \
		--exclude=./test --exclude=./idlelib --exclude=./tkinter \
		--exclude=./ensurepip --exclude=./lib2to3 --exclude=./turtledemo \
		--exclude=./pydoc_data --exclude='./config-*' --exclude=./distutils \
		--exclude=./sqlite3 --exclude=./site-packages . |
		tar -C "$root/usr/lib/$pyver" -xf -
	copy_libs "/usr/lib/$pyver"/lib-dynload/*.so
	dist=/usr/lib/python3/dist-packages
	mkdir -p "$root$dist"
	for p in yaml _yaml jsonschema attr attrs pyrsistent _pyrsistent_version.py; do
		[ -e "$dist/$p" ] && cp -r "$dist/$p" "$root$dist/"
	done
	sos=$(find "$root$dist" -name '*.so' | sed "s|^$root||")
	[ -z "$sos" ] || copy_libs $sos
else
	echo "initramfs-netlink: $py or /usr/lib/$pyver missing (python3)" >&2
fi

# YNL: cli.py and lib/, and the spec with its schema one directory up
ynl=$root/usr/share/bfly/ynl
if [ "${BFLY_YNL:-}" = no ]; then
	:
elif [ -n "$ksrc" ] && [ -f "$ksrc/tools/net/ynl/cli.py" ]; then
	mkdir -p "$ynl/lib" "$ynl/netlink/specs"
	cp "$ksrc/tools/net/ynl/cli.py" "$ynl/"
	cp "$ksrc"/tools/net/ynl/lib/*.py "$ynl/lib/"
	cp "$ksrc/Documentation/netlink/genetlink-legacy.yaml" "$ynl/netlink/"
	cp "$top/Documentation/netlink/specs/bfly.yaml" "$ynl/netlink/specs/"
else
	echo "initramfs-netlink: no kernel source with tools/net/ynl in $cache" >&2
fi
