#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel with an initramfs in QEMU (TCG: no KVM here) and wait for it
# to power off.
#
#   run-vm.sh KERNEL INITRD CONSOLE-LOG RESULTS-LOG TIMEOUT-S CMDLINE...
#
# The kernel log (ttyS0) goes to CONSOLE-LOG, test output (ttyS1) to
# RESULTS-LOG. Exits 0 when the VM powered off by itself, 124 on timeout.
# BFLY_VM_MEM sets the VM's memory (default 2G).
set -uo pipefail

kernel=$1 initrd=$2 console=$3 results=$4 timeout_s=$5
shift 5

: > "$console"
: > "$results"
timeout --foreground -k 5 "$timeout_s" \
	qemu-system-x86_64 \
	-machine q35 -cpu max -smp 2 -m "${BFLY_VM_MEM:-2G}" \
	-accel tcg,thread=multi \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 $*" \
	-display none -monitor none -no-reboot \
	-serial "file:$console" -serial "file:$results" \
	-nic none </dev/null
rc=$?
# Serial output carries CR LF line ends.
sed -i 's/\r$//' "$console" "$results"
exit $rc
