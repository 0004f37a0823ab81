#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The multibutterfly as a fabric (issue 14): made at load and by netlink
# with d and a seed (0: picked and reported), its expansion reported; an
# h-relation routed with paths on the logical path and Theorem 2's bound
# held (mbfly-hrel-test), through the ioctl and bflyctl; bad d and N, and
# the operations that make no sense on it, refused with the reason.
. "$(dirname "$0")/lib.sh"

bfly_unload
check "insmod topology=mbfly ports=16 d=2 seed=77" insmod "$BFLY_KO" topology=mbfly ports=16 d=2 seed=77
check_eq "ioctl: topology" mbfly "$(info_key /dev/bfly0 topology)"
check_eq "ioctl: d" 2 "$(info_key /dev/bfly0 mbfly_d)"
check_eq "ioctl: seed" 77 "$(info_key /dev/bfly0 mbfly_seed)"
check_eq "ioctl: node stages (columns)" 5 "$(info_key /dev/bfly0 node_stages)"
check_eq "ioctl: measured over every subset" 1 "$(info_key /dev/bfly0 mbfly_exp_exhaustive)"
check "HREL through the ioctl, N=16 h=2" mbfly-hrel-test /dev/bfly0 2 77 2
check "rmmod" rmmod bfly

check "insmod ports=0" insmod "$BFLY_KO" ports=0
refused "new mbfly: d 0" "d: 0 is out of range" bflyctl new mbfly 16 d 0
refused "new mbfly: d 65" "d: 65 is out of range" bflyctl new mbfly 16 d 65
refused "new mbfly: N not a power of two" "N = 2^n ports" bflyctl new mbfly 24 d 2
refused "new mbfly: N too big" "N = 2^n ports" bflyctl new mbfly 2097152 d 2
refused "new benes: no d" "only a multibutterfly" bflyctl new benes 8 d 2
refused "new benes: no seed" "only a multibutterfly" bflyctl new benes 8 seed 4
check_eq "the refusals created nothing" "" "$(bflyctl list)"

mb=$(bflyctl new topology mbfly ports 256 d 8 seed 12345)
check "new topology mbfly ports 256 d 8 seed 12345: $mb" test -c "/dev/$mb"
bflyctl -j show "$mb" > /tmp/mb.json
check "fabric-get: d, seed and the expansion" json_has /tmp/mb.json \
	'{"topology": "mbfly", "ports": 256, "mbfly_d": 8, "seed": 12345, "node_stages": 9,
	  "exp_col": 0, "exp_inputs": 256, "exp_kmax": 8, "exp_exhaustive": 0}'
check "fabric-get: the expansion measured" jq_true /tmp/mb.json '.exp_beta_fp16 > 0 and .exp_subsets > 0'
bflyctl show "$mb" > /tmp/mb.show
check "show: d and seed" grep -q "multibutterfly   d = 8, seed 12345" /tmp/mb.show
check "show: the expansion next to Fact 1" grep -q "Fact 1" /tmp/mb.show
check "HREL through the ioctl, N=256 d=8 h=4" mbfly-hrel-test "/dev/$mb" 8 12345 4
bflyctl hrel "$mb" random 3 > /tmp/mb.hrel
check "bflyctl hrel: Theorem 2's bound held" grep -q "Theorem 2's bound (<= 2 h-bar) held" /tmp/mb.hrel
check "bflyctl hrel: h 3, 1 round" grep -q "h 3, 0 colours, 1 rounds" /tmp/mb.hrel
p0=$(bflyctl new mbfly 64)
bflyctl -j show "$p0" > /tmp/p0.json
check "new mbfly 64 without seed: the device picks one, d 8" \
	jq_true /tmp/p0.json '.seed != 0 and .mbfly_d == 8'

refused "route on mbfly" "routes h-relations (hrel) only" bflyctl route "$mb" identity
refused "a2a on mbfly" "routes h-relations (hrel) only" bflyctl a2a "$mb"
refused "fault add on mbfly" "routes h-relations (hrel) only" bflyctl fault add "$mb" stuck 0 0 straight
refused "fabric-get want matrix on mbfly" "only: no settings" \
	bflyctl raw fabric-get 2:u32:${mb#bfly} 12:u32:1
refused "fabric-get want link-load on mbfly" "no link loads" \
	bflyctl raw fabric-get 2:u32:${mb#bfly} 12:u32:2
refused "hrel on mbfly: h above 256" "h: above 256" sh -c \
	"awk 'BEGIN { for (i = 0; i < 257; i++) print 0, i % 256 }' | bflyctl hrel $mb file -"
check "del" bflyctl del "$mb"
check "del" bflyctl del "$p0"
check "rmmod" rmmod bfly
