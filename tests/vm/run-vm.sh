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
# A kernel that crashes before it starts init is booted once more.
# BFLY_VM_MEM sets the VM's memory (default 2G). RCU's CPU stall warning
# waits 60 s, not 21: a vCPU the loaded host starves under TCG is no bug.
set -uo pipefail

kernel=$1 initrd=$2 console=$3 results=$4 timeout_s=$5
shift 5

boot() {
	: > "$console"
	: > "$results"
	timeout --foreground -k 5 "$timeout_s" \
		qemu-system-x86_64 \
		-machine q35 -cpu max -smp 2 -m "${BFLY_VM_MEM:-2G}" \
		-accel tcg,thread=multi \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 rcupdate.rcu_cpu_stall_timeout=60 $*" \
		-display none -monitor none -no-reboot \
		-serial "file:$console" -serial "file:$results" \
		-nic none </dev/null
	rc=$?
	# Serial output carries CR LF line ends.
	sed -i 's/\r$//' "$console" "$results"
}

rm -f "$console.boot-crash"
boot "$@"
# A kernel that crashed before starting init ran none of bfly's code: seen
# once in Debian's stock 6.12 kernel on a loaded host, an int3 Oops while
# multi-threaded TCG patched a static key. Boot once more, keeping the
# crashed log beside the new one (tests/run-all.sh reports it).
if ! grep -q 'Run /init as init process' "$console" &&
   grep -qE 'Kernel panic|Oops|BUG:' "$console"; then
	mv "$console" "$console.boot-crash"
	echo "run-vm: the kernel crashed before init; booting again (first log: $console.boot-crash)" >&2
	boot "$@"
fi
exit $rc
