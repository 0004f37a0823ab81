#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Allocation failures at every allocation site of every ioctl, injected
# one by one through /proc/thread-self/fail-nth (alloc-fail-test), in the slab
# allocator (failslab) and the page allocator (fail_page_alloc: the
# kmalloc of more than 8 KiB, the vmalloc fallback of kvmalloc and the
# pages vmalloc maps). Skipped on kernels without fault injection
# (Debian's stock kernels).
#
# The 256-port fabric's batch buffers (the done bitmap, the caller's
# square) pass a page, so kvmalloc's first try can fail and vmalloc take
# over; user pages (__GFP_HIGHMEM) are left alone.
. /tests/lib.sh

fs=/sys/kernel/debug/failslab
fp=/sys/kernel/debug/fail_page_alloc
if [ ! -e /proc/self/fail-nth ] || [ ! -d $fs ] || [ ! -d $fp ]; then
	ok "faults skipped: no fail-nth"
	exit 0
fi

bfly_unload
saved=
for f in $fs/ignore-gfp-wait $fs/verbose $fp/ignore-gfp-wait $fp/verbose $fp/min-order; do
	saved="$saved $f=$(cat $f)"
done
# Fail sleeping (GFP_KERNEL) allocations too, pages of every order; no
# stack dump per fault.
echo N > $fs/ignore-gfp-wait
echo 0 > $fs/verbose
echo N > $fp/ignore-gfp-wait
echo 0 > $fp/verbose
echo 0 > $fp/min-order
# The last two carry injected fabric faults (a stuck node and a broken
# link), so that the allocations of the fault paths fail too: the fault
# list's copy, the hit bitmaps, the stuck-aware looping's workspace.
for spec in "benes 16" "butterfly 16" "bfly2 16" "bfly-twice 8" "benes 256" \
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
	timeout -s KILL 120 alloc-fail-test /dev/bfly0 > /tmp/alloc-fail.out 2>&1
	rc=$?
	sed "s/^\(\(not \)\{0,1\}ok - \)/\1$what: /" /tmp/alloc-fail.out
	check_eq "$what: alloc-fail-test exit status" 0 $rc
	check "$what: device works after the faults" bfly-info /dev/bfly0
	check "$what: rmmod" rmmod bfly
done
for kv in $saved; do
	echo "${kv#*=}" > "${kv%%=*}"
done
