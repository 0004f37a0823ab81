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
# A kernel that crashes or reports before it starts init is booted
# again, up to three boots in all.
# BFLY_VM_MEM sets the VM's memory (default 2G). RCU's CPU stall warning
# waits 60 s, not 21: a vCPU the loaded host starves under TCG is no bug.
# BFLY_VM_CPU sets QEMU's -cpu (default max); the debug kernel's VMs pass
# max,la57=off (4-level paging; 2 GB need no more): with 5-level paging
# its KASAN once reported a wild-memory-access on an early interrupt's
# irq_desc (an ff11... address, 5-level's direct map, from identify_cpu)
# before init. The stock kernels keep LA57: hrel-test's "top" part maps
# the last pages of the 5-level address space there. no_timer_check: a
# vCPU the loaded host starves fails the kernel's check of the IO-APIC
# timer ("IO-APIC + timer doesn't work!", a panic before init); the timer
# works, the check is skipped.
set -uo pipefail

vm=$(dirname "$0")
kernel=$1 initrd=$2 console=$3 results=$4 timeout_s=$5
shift 5

boot() {
	local qemu
	: > "$console"
	: > "$results"
	timeout --foreground -k 5 "$timeout_s" \
		qemu-system-x86_64 \
		-machine q35 -cpu "${BFLY_VM_CPU:-max}" -smp 2 -m "${BFLY_VM_MEM:-2G}" \
		-accel tcg,thread=multi \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 rcupdate.rcu_cpu_stall_timeout=60 no_timer_check $*" \
		-display none -monitor none -no-reboot \
		-serial "file:$console" -serial "file:$results" \
		-nic none </dev/null &
	qemu=$!
	early=
	# Until init starts, a report ends the boot: nothing of bfly's ran.
	while kill -0 "$qemu" 2>/dev/null &&
	      ! grep -q 'Run /init as init process' "$console"; do
		if "$vm/early-report.sh" "$console" > /dev/null; then
			early=1
			kill "$qemu"
			break
		fi
		sleep 1
	done
	wait "$qemu"
	rc=$?
	# Serial output carries CR LF line ends.
	sed -i 's/\r$//' "$console" "$results"
}

# crashed_early: the boot ended with a crash or report before init
crashed_early() {
	[ -n "$early" ] ||
		{ ! grep -q 'Run /init as init process' "$console" &&
		  grep -qE 'Kernel panic|Oops|BUG:' "$console"; }
}

rm -f "$console.boot-crash"
boot "$@"
# A kernel that crashed, or reported, before starting init ran none of
# bfly's code. Seen: in Debian's stock 6.12 kernel on a loaded host, an
# int3 Oops while multi-threaded TCG patched a static key; in the debug
# kernel, a KASAN wild-memory-access in do_raw_spin_lock 6 ms into boot,
# once in two boots in a row (27 Nov 2026), and the IO-APIC timer panic
# (both before la57=off and no_timer_check above; the retry stays as a
# safety net, and costs a boot's 15-20 s of CPU: the report is caught
# within a second). Boot up to three times in all, keeping the first log
# beside the new one (tests/run-all.sh reports it). A report after init
# starts fails the run.
for again in 2 3; do
	crashed_early || break
	[ -f "$console.boot-crash" ] || mv "$console" "$console.boot-crash"
	echo "run-vm: the kernel crashed or reported before init; boot $again of 3 (first log: $console.boot-crash)" >&2
	boot "$@"
done
exit $rc
