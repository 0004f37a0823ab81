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
mbfly-hrel-bad "/dev/$m64" others
mbfly-hrel-bad "/dev/$m256" signal
mbfly-hrel-bad "/dev/$m256" kill
# 8191 messages (netlink's most) on 256 ports: the longest relation
nl-signal-test hrel-kill "${m256#bfly}"
refused "netlink hrel on mbfly: h above 256" "h: above 256" sh -c \
	"awk 'BEGIN { for (i = 0; i < 257; i++) print i % 32, 0 }' | bflyctl hrel $m32 file -"
refused "netlink hrel on mbfly: a port out of range" "no port of the fabric" sh -c \
	"printf '0 1\n1 32\n' | bflyctl hrel $m32 file -"
refused "netlink hrel on mbfly: perms with h 2 (one round, no permutation)" \
	"a permutation only for h = 1; ask for the paths (Invalid argument)" \
	bflyctl hrel "$m32" random 2 perms
bflyctl -j hrel "$m32" random 1 seed 4 perms > /tmp/mb-perm.json
check "netlink hrel on mbfly: perms with h 1, the round's permutation the relation's" \
	jq_true /tmp/mb-perm.json '.h == 1 and .rounds == 1 and (.round_perms | length) == 1 and
	(.round_perms[0] | sort) == [range(0; 32)]'
# the same refusals by both frontends: errno and reason
refused "netlink hrel on mbfly: a port out of range, EINVAL as the ioctl's" \
	"no port of the fabric (Invalid argument)" sh -c \
	"printf '0 1\n1 32\n' | bflyctl hrel $m32 file -"
refused "netlink hrel on mbfly: h above 256, E2BIG as the ioctl's" \
	"h: above 256, the most a multibutterfly routes; split the relation (Argument list too long)" \
	sh -c "awk 'BEGIN { for (i = 0; i < 257; i++) print i % 32, 0 }' | bflyctl hrel $m32 file -"
for d in $m64 $m256 $m32; do
	check "del $d" bflyctl del "$d"
done
check_eq "every fabric deleted" "" "$(bflyctl list)"
bfly_unload
