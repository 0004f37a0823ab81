#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Allocation failures at every allocation site of every ioctl, injected
# one by one through /proc/thread-self/fail-nth and failslab (fault-test).
# Skipped on kernels without fault injection (Debian's stock kernels).
#
# Fabrics are small, so every allocation is a slab one (kvmalloc of at
# most a page never falls back to vmalloc); the page allocator and the
# vmalloc fallback of larger buffers are not covered (no
# CONFIG_FAIL_PAGE_ALLOC in the test kernel).
. /tests/lib.sh

fs=/sys/kernel/debug/failslab
if [ ! -e /proc/self/fail-nth ] || [ ! -d $fs ]; then
	ok "faults skipped: no fail-nth"
	exit 0
fi

bfly_unload
old_wait=$(cat $fs/ignore-gfp-wait)
old_verbose=$(cat $fs/verbose)
# Fail sleeping (GFP_KERNEL) allocations too; no stack dump per fault.
echo N > $fs/ignore-gfp-wait
echo 0 > $fs/verbose
# The last two carry injected fabric faults (a stuck node and a broken
# link), so that the allocations of the fault paths fail too: the fault
# list's copy, the hit bitmaps, the stuck-aware looping's workspace.
for spec in "benes 16" "butterfly 16" "bfly2 16" "bfly-twice 8" \
	    "benes 16 stuck 1 3 cross link 2 7" "bfly2 16 stuck 4 2 straight link 1 9"; do
	set -- $spec
	what="faults $1 $2"
	if ! insmod "$BFLY_KO" topology=$1 ports=$2; then
		not_ok "$what: insmod"
		continue
	fi
	shift 2
	if [ $# -gt 0 ]; then
		what="$what with fabric faults"
		check "$what: fault add $*" bflyctl fault add bfly0 "$@"
	fi
	timeout -s KILL 120 fault-test /dev/bfly0 > /tmp/faults.out 2>&1
	rc=$?
	sed "s/^\(\(not \)\{0,1\}ok - \)/\1$what: /" /tmp/faults.out
	check_eq "$what: fault-test exit status" 0 $rc
	check "$what: device works after the faults" bfly-info /dev/bfly0
	check "$what: rmmod" rmmod bfly
done
echo "$old_wait" > $fs/ignore-gfp-wait
echo "$old_verbose" > $fs/verbose
