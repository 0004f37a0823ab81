#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benes routing benchmarks, printed as figures (not a pass/fail test):
#   - natively, the algorithm files built as a user program at -O2 and -O3;
#   - in a VM on Debian's stock 6.12 kernel (TCG), the same user program
#     next to the BFLY_IOC_ROUTE ioctl path of bfly.ko, and all-to-all
#     batch throughput next to memcpy of the same bytes in the same VM.
# The VM gets 10 GiB: a batch of N = 1024 with 4 KiB messages has two
# 4 GiB buffers.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
vm=$top/tests/vm
out=$top/build/bench
mkdir -p "$out/bin"

make -s -C "$top/tests/bench" all
echo "== native"
"$top/tests/bench/bench-O2"
"$top/tests/bench/bench-O3"
"$top/tests/bench/bench-sched"
"$top/tests/bench/bench-a2a"
"$top/tests/bench/bench-kfly"
"$top/tests/bench/bench-flatfly"

echo "== in a VM (QEMU TCG, Debian's stock 6.12 kernel)"
read -r release vmlinuz kdir < <("$vm/stock-kernels.sh" | grep ' /usr/src/linux-headers-6\.12')
"$vm/build-module.sh" "$kdir" "$out/mod" W=1
make -s -C "$top/tests/bench" static
cp "$top/tests/bench/bench-O2-static" "$out/bin/bench-O2"
cp "$top/tests/bench/bench-ioctl" "$out/bin/bench-ioctl"
cp "$top/tests/bench/bench-batch" "$out/bin/bench-batch"
"$vm/mkinitramfs.sh" "$out/initrd.cpio.gz" "$out/mod" "$out/bin"
BFLY_VM_MEM=10G "$vm/run-vm.sh" "$vmlinuz" "$out/initrd.cpio.gz" "$out/console.log" "$out/results.log" \
	1800 bflymode=bench
sed -n '/^BFLY-BEGIN/,/^BFLY-END/{/^BFLY-/d;p}' "$out/results.log"
