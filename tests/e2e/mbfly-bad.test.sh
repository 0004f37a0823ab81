#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad input and signals on the multibutterfly's h-relation (issue 14):
# every refusal BFLY_IOC_HREL gives on an mbfly, nothing in the receive
# buffer and no memory kept; a caught signal (EINTR, a prefix of whole
# messages moved) and SIGKILL inside a big relation; the netlink hrel
# killed inside the routing (ECANCELED). The fabric is unchanged after
# each (mbfly-hrel-bad, nl-signal-test hrel-kill). The stage limit's
# EAGAIN needs a forced limit: KUnit bfly_hrel_mbfly.bfly_hm_budget.
. "$(dirname "$0")/lib.sh"

bfly_unload
check "insmod ports=0" insmod "$BFLY_KO" ports=0
m64=$(bflyctl new mbfly 64 d 4 seed 5)
m256=$(bflyctl new mbfly 256 d 8 seed 6)
m32=$(bflyctl new mbfly 32 d 8 seed 7)
check "three multibutterflies: $m64 $m256 $m32" test -c "/dev/$m32"
mbfly-hrel-bad "/dev/$m64" bad
mbfly-hrel-bad "/dev/$m256" signal
mbfly-hrel-bad "/dev/$m256" kill
# 8191 messages (netlink's most) on 256 ports: the longest relation
nl-signal-test hrel-kill "${m256#bfly}"
refused "netlink hrel on mbfly: h above 256" "h: above 256" sh -c \
	"awk 'BEGIN { for (i = 0; i < 257; i++) print i % 32, 0 }' | bflyctl hrel $m32 file -"
refused "netlink hrel on mbfly: a port out of range" "no port of the fabric" sh -c \
	"printf '0 1\n1 32\n' | bflyctl hrel $m32 file -"
for d in $m64 $m256 $m32; do
	check "del $d" bflyctl del "$d"
done
check_eq "every fabric deleted" "" "$(bflyctl list)"
bfly_unload
