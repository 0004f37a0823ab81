#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One route request, the same report through the ioctl and through
# netlink, each in one call: applied, dry run, refused for conflicts,
# refused for faults; and the dry-run permission rule on netlink.
. /tests/lib.sh

# run_same LABEL ARGS...: route-same-test's TAP lines, labelled
run_same() {
	label=$1
	shift
	"$@" | sed "s/^\(\(not \)\{0,1\}ok - \)/\1$label: /"
}

bfly_unload
insmod "$BFLY_KO" topology=butterfly ports=16
run_same "butterfly 16" route-same-test /dev/bfly0
echo "0 16" > /tmp/route-same.fabric
run_same "butterfly 16" runas 65534 65534 route-same-test /tmp/route-same.fabric unpriv
rmmod bfly

insmod "$BFLY_KO" topology=benes ports=16
run_same "benes 16" route-same-test /dev/bfly0
check "benes 16: faults injected" bflyctl fault add bfly0 stuck 2 1 cross link 0 5
run_same "benes 16 with faults" route-same-test /dev/bfly0 faults
rmmod bfly
