#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fabric churn through netlink (churn-test): hundreds of fabrics created
# and deleted while other processes use them and a fixture through ioctls
# and dump them through netlink; fabrics deleted under running batches.
# Then no stale node, and the module unloads. Stops after 300 fabrics:
# about 25 s on the debug kernel, 10 s on stock ones; at most 75 s and 30 s
# of churn on a VM slowed down by others (then 100 fabrics will do).
# BFLY_CHURN_SEED=<seed> replays the choices.
. /tests/lib.sh

bfly_unload
secs=30
[ -e /sys/kernel/debug/kmemleak ] && secs=75
if ! insmod "$BFLY_KO" topology=benes ports=1024; then
	not_ok "churn: insmod topology=benes ports=1024"
	exit 0
fi
timeout -s KILL $((secs + 240)) churn-test $secs 300 2 > /tmp/churn.out 2>&1
rc=$?
cat /tmp/churn.out
[ $rc -le 1 ] || not_ok "churn: churn-test exit status $rc"
check "churn: fixture bfly0 still works" bfly-info /dev/bfly0
check "churn: rmmod" rmmod bfly
check "churn: no /dev/bfly* node after rmmod" sh -c '! ls /dev/bfly* 2>/dev/null'
check "churn: no bfly class device after rmmod" sh -c '! ls /sys/class/bfly/* 2>/dev/null'
