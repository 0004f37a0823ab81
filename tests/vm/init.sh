#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the bfly test VM. The kernel command line selects what it does:
#   bflymode=test    run the end-to-end tests, then the KUnit suites when
#                    the kernel has KUnit; check kmemleak
#                    (bflytests=a,b runs only tests/e2e/a.test.sh and
#                    b.test.sh; bflykunit=no skips KUnit)
#   bflymode=demo    load bfly.ko with bflyargs and show the fabric
#                    (bflyko=PATH: that bfly.ko, e.g. the one DKMS built)
#   bflymode=canary  load the canary module that provokes KASAN, kmemleak
#                    and UBSAN reports
#   bflymode=bench   benchmarks in this VM: Benes routing through the ioctl
#                    and as a user program, all-to-all batches next to
#                    the same code as a user program, memcpy and a
#                    blocked transpose (run-bench.sh);
#                    bflytests=ioctl or bflytests=batch runs only that part
# Test output goes to the second serial port (/dev/ttyS1) between markers;
# the kernel log stays on the console (ttyS0). Powers off when done.

/bin/busybox --install -s /bin
export PATH=/usr/bin:/bin:/sbin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

mode=test
args=
only=
kunit=yes
for w in $(cat /proc/cmdline); do
	case "$w" in
	bflymode=*) mode=${w#bflymode=} ;;
	bflyargs=*) args=$(echo "${w#bflyargs=}" | tr ',' ' ') ;;
	bflytests=*) only=$(echo "${w#bflytests=}" | tr ',' ' ') ;;
	bflykunit=no) kunit= ;;
	bflyko=*) ko=${w#bflyko=} ;;
	esac
done

# kmemleak's own thread scans a minute after boot and every ten minutes,
# each scan 10 s of CPU or more under TCG: kmemleak_scan's two scans at
# the end find the same leaks, so the thread is stopped.
[ -w /sys/kernel/debug/kmemleak ] && echo scan=off > /sys/kernel/debug/kmemleak

export BFLY_KO=${ko:-/lib/bfly/bfly.ko}
export BFLY_KERNEL=$(uname -r)

# selected TEST: no bflytests= list, or TEST's name is in it
selected() {
	[ -z "$only" ] && return 0
	for o in $only; do
		[ "$(basename "$1" .test.sh)" = "$o" ] && return 0
	done
	return 1
}

run_tests() {
	for t in /tests/*.test.sh; do
		selected "$t" || continue
		echo "# $t"
		t0=$(cut -d. -f1 /proc/uptime)
		sh "$t"
		echo "# $t: $(($(cut -d. -f1 /proc/uptime) - t0)) s"
	done
	if [ -n "$kunit" ] && [ -d /sys/kernel/debug/kunit ]; then
		echo "# KUnit"
		# a test that failed may have left the module loaded
		grep -q '^bfly ' /proc/modules && rmmod bfly
		insmod "$BFLY_KO" ports=0 && insmod /lib/bfly/bfly_kunit.ko
		for r in /sys/kernel/debug/kunit/*/results; do
			echo "BFLY-KTAP-BEGIN $(basename "$(dirname "$r")")"
			cat "$r"
			echo "BFLY-KTAP-END"
		done
		rmmod bfly_kunit
		rmmod bfly
	fi
	kmemleak_scan
}

# Ask kmemleak for leaks now; its reports go to the console log.
kmemleak_scan() {
	[ -w /sys/kernel/debug/kmemleak ] || return 0
	# kmemleak reports objects at least 5 s old: scan twice past that.
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak > /dev/console
}

run_demo() {
	# Debian's udevd where the initramfs has it (the package test): the
	# installed rule gives /dev/bflyN its group and mode
	if [ -x /lib/systemd/systemd-udevd ]; then
		mkdir -p /run/udev
		/lib/systemd/systemd-udevd --daemon
	fi
	echo "# insmod $BFLY_KO $args"
	insmod "$BFLY_KO" $args || return
	[ -x /usr/bin/udevadm ] && udevadm settle
	dmesg | grep 'bfly[0-9]*:' | sed 's/^/# dmesg: /'
	for d in /dev/bfly*; do
		ls -l "$d"
		bfly-info "$d"
		echo "sysfs: topology=$(cat /sys/class/bfly/${d#/dev/}/topology)" \
		     "ports=$(cat /sys/class/bfly/${d#/dev/}/ports)" \
		     "node_stages=$(cat /sys/class/bfly/${d#/dev/}/node_stages)"
		ports=$(cat /sys/class/bfly/${d#/dev/}/ports)
		[ "$ports" -le 32 ] || continue
		# Route the reversal i -> N-1-i (refused with its conflicts
		# where the fabric cannot realize it)
		echo "# bfly-route $(seq $((ports - 1)) -1 0 | tr '\n' ' ')"
		bfly-route -d "$d" $(seq $((ports - 1)) -1 0)
	done
	# The same fabrics through the netlink family
	echo "# bflyctl list"
	bflyctl list
	echo "# bflyctl show bfly0"
	bflyctl show bfly0
	echo "# bflyctl new bfly2 16; bflyctl a2a (the RLS all-to-all schedule)"
	dev=$(bflyctl new bfly2 16) && bflyctl a2a "$dev" 2>&1 | cat && bflyctl del "$dev"
	# Faults: a stuck node the looping algorithm routes around, then a
	# broken link no full permutation can avoid
	echo "# bflyctl fault add bfly0 stuck 1 2 cross; bflyctl route bfly0 reverse"
	bflyctl fault add bfly0 stuck 1 2 cross
	bflyctl route bfly0 reverse 2>&1 | cat
	echo "# bflyctl fault add bfly0 link 2 5; the same route"
	bflyctl fault add bfly0 link 2 5
	bflyctl route bfly0 reverse 2>&1 | cat
	echo "# bflyctl show bfly0"
	bflyctl show bfly0
	bflyctl fault clear bfly0
	rmmod bfly && echo "# rmmod bfly: ok"
}

run_bench() {
	case " ${only:-ioctl} " in *" ioctl "*) run_bench_ioctl ;; esac
	case " ${only:-batch} " in *" batch "*) run_bench_batch ;; esac
}

run_bench_ioctl() {
	echo "# ioctl (BFLY_IOC_ROUTE dry run on a benes fabric) and the same code as a user program, alternated"
	for ports in 1024 8192 65536; do
		insmod "$BFLY_KO" topology=benes ports=$ports || return
		bench-ioctl /dev/bfly0 || echo "FAILED bench-ioctl N=$ports: exit $?"
		rmmod bfly
	done
}

run_bench_batch() {
	echo "# all-to-all batches on bfly2 (RLS schedule), the same code as a user program, memcpy and a blocked transpose, alternated"
	insmod "$BFLY_KO" topology=bfly2 ports=256 || return
	bench-batch /dev/bfly0 0 64 1024 4096 || echo "FAILED bench-batch N=256: exit $?"
	rmmod bfly
	insmod "$BFLY_KO" topology=bfly2 ports=1024 || return
	bench-batch /dev/bfly0 0 64 || echo "FAILED bench-batch N=1024: exit $?"
	rmmod bfly
}

exec 3>/dev/ttyS1
echo "BFLY-BEGIN $mode $(uname -r)" >&3
case "$mode" in
test) run_tests >&3 2>&1 ;;
demo) run_demo >&3 2>&1 ;;
bench) run_bench >&3 2>&1 ;;
canary) { insmod /lib/bfly/bfly_kasan_canary.ko; kmemleak_scan; } >&3 2>&1 ;;
*) echo "unknown bflymode=$mode" >&3 ;;
esac
echo "BFLY-END" >&3
# Closing a serial port waits until its output is sent.
exec 3>&-
poweroff -f
