#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job: build bfly.ko for Debian's stock 6.12 kernel and the
# userspace programs, boot that kernel in QEMU, load bfly.ko and show the
# fabric from inside the VM.
#
#   demo.sh [MODULE PARAMETERS]     default: topology=benes ports=16
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
vm=$top/tests/vm
out=$top/build/demo
params=${*:-topology=benes ports=16}

mkdir -p "$out"
# The 6.12 line of stock-kernels.sh: "RELEASE VMLINUZ KDIR"
read -r release vmlinuz kdir < <("$vm/stock-kernels.sh" | grep ' /usr/src/linux-headers-6\.12')
echo "== building bfly.ko for $release and the userspace programs"
"$vm/build-module.sh" "$kdir" "$out/mod" W=1
make -s -C "$top/userspace"
# The demo does not use the kernel's YNL client: no note when it is absent
BFLY_YNL=no "$vm/mkinitramfs.sh" "$out/initrd.cpio.gz" "$out/mod" "$top/userspace"

echo "== booting Debian's $release kernel in QEMU, insmod bfly.ko $params"
if ! "$vm/run-vm.sh" "$vmlinuz" "$out/initrd.cpio.gz" "$out/console.log" "$out/results.log" \
	300 bflymode=demo "bflyargs=$(echo "$params" | tr ' ' ',')"; then
	echo "demo: the VM did not finish; kernel log:" >&2
	tail -30 "$out/console.log" >&2
	exit 1
fi
sed -n '/^BFLY-BEGIN/,/^BFLY-END/{/^BFLY-/d;p}' "$out/results.log"
grep -q '^# rmmod bfly: ok' "$out/results.log"
