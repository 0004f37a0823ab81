#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a test VM initramfs: busybox, the init script, the bfly modules,
# the userspace and test programs and the end-to-end test scripts.
#
#   mkinitramfs.sh OUT.cpio.gz MODULE-DIR BIN-DIR...
#
# MODULE-DIR's *.ko files go to /lib/bfly; every executable in each BIN-DIR
# goes to /usr/bin; tests/e2e/*.sh go to /tests. BFLY_ROOT=DIR: DIR's
# files (installed packages, e.g.) are copied over the root first.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$1
moddir=$2
shift 2

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib/bfly,proc,sys,dev,tmp,tests}
[ -z "${BFLY_ROOT:-}" ] || cp -a "$BFLY_ROOT"/. "$root"/
cp /bin/busybox "$root/bin/busybox"
cp "$here/init.sh" "$root/init"
chmod 755 "$root/init"
find "$moddir" -name '*.ko' -exec cp {} "$root/lib/bfly/" \;
for bindir in "$@"; do
	find "$bindir" -maxdepth 1 -type f -perm -u+x -exec cp {} "$root/usr/bin/" \;
done
cp "$top"/tests/e2e/*.sh "$root/tests/"
# An unprivileged user for permission tests
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$root/etc.passwd"
mkdir -p "$root/etc"
mv "$root/etc.passwd" "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"
# and BFLY_ROOT's groups (a package's system group, e.g.)
[ -z "${BFLY_ROOT:-}" ] || [ ! -f "$BFLY_ROOT/etc/group" ] ||
	grep -v '^root:\|^nogroup:' "$BFLY_ROOT/etc/group" >> "$root/etc/group"

# Host programs for the netlink tests: the kernel's YNL cli.py (with
# Debian's python3, python3-yaml, python3-jsonschema) and genl-ctrl-list.
"$here/initramfs-netlink.sh" "$root"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 > "$out"
