#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# LCANs (issue 13): cb-lcan, t-lcan and fattree made by netlink, their
# shapes as bflyctl and the ioctl report them, and the shapes refused with
# the reason (Theorem 1, Corollaries 1 and 2).
. "$(dirname "$0")/lib.sh"

bfly_unload
dmesg -c > /dev/null
out=$(insmod "$BFLY_KO" topology=cb-lcan ports=8 2>&1)
check_eq "insmod topology=cb-lcan fails: it needs uppers" 1 \
	"$(echo "$out" | grep -c 'Invalid argument')"
check "insmod topology=cb-lcan logs that up is missing" sh -c \
	"dmesg | grep -q 'bfly: up=0: missing: an LCAN.s switches have u uppers'"

check "insmod ports=0 (LCANs)" insmod "$BFLY_KO" ports=0
refused "new cb-lcan: no up" "up: missing" bflyctl new cb-lcan 8 radix 2
refused "new cb-lcan: N not d^l (Corollary 1)" "Corollary 1" bflyctl new cb-lcan 12 radix 2 up 2
refused "new t-lcan: u must divide d, below it" "u < d" bflyctl new t-lcan 8 radix 2 up 2
refused "new t-lcan: N not u (d/u)^l (Corollary 2)" "Corollary 2" \
	bflyctl new t-lcan 12 radix 4 up 2
refused "new kfly: no uppers" "only an LCAN" bflyctl new kfly 8 radix 2 up 2
refused "new cb-lcan: up 65" "up: 65 is out of range (1 .. 64)" bflyctl new cb-lcan 8 radix 2 up 65
refused "new cb-lcan: too many connectors" "2^26 connectors" \
	bflyctl new cb-lcan 1048576 radix 2 up 64
check_eq "the refusals created nothing" "" "$(bflyctl list)"

cb=$(bflyctl new cb-lcan 8 radix 2 up 2)
check "new cb-lcan 8 radix 2 up 2: $cb" test -c "/dev/$cb"
tl=$(bflyctl new t-lcan 16 radix 4 up 2)
check "new t-lcan 16 radix 4 up 2: $tl" test -c "/dev/$tl"
ft=$(bflyctl new fattree 27 radix 3 up 2)
check "new fattree 27 radix 3 up 2: $ft" test -c "/dev/$ft"
tr=$(bflyctl new cb-lcan 27 radix 3 up 2)
check "new cb-lcan 27 radix 3 up 2 (the TRAC): $tr" test -c "/dev/$tr"

# Equation 1: S_i = N/d (u/d)^i; a T-LCAN is a (d/u)-ary tree of l levels;
# the fat tree's level i has d^(l-1-i) switches of d u^i + u^(i+1) connectors.
for dev in $cb $tl $ft $tr; do
	bflyctl -j show "$dev" > "/tmp/$dev.json"
done
check "cb-lcan(2,2) N=8: 3 levels of 4 switches, 4 connectors each" json_has "/tmp/$cb.json" \
	'{"topology": "cb-lcan", "ports": 8, "radix": 2, "up": 2, "node_stages": 3,
	  "nodes_per_stage": 4, "switches": 12, "port_map_bytes": 48, "degree": 4, "diameter": 6}'
check "t-lcan(4,2) N=16: levels of 4, 2 and 1 switches" json_has "/tmp/$tl.json" \
	'{"topology": "t-lcan", "ports": 16, "radix": 4, "up": 2, "node_stages": 3,
	  "nodes_per_stage": 4, "switches": 7, "port_map_bytes": 42}'
check "fattree(3,2) N=27: 9, 3 and 1 switches, no port maps" json_has "/tmp/$ft.json" \
	'{"topology": "fattree", "ports": 27, "radix": 3, "up": 2, "node_stages": 3,
	  "switches": 13, "port_map_bytes": 0}'
check "cb-lcan(3,2) N=27: levels of 9, 6 and 4 switches" json_has "/tmp/$tr.json" \
	'{"node_stages": 3, "nodes_per_stage": 9, "switches": 19, "port_map_bytes": 95}'
check_eq "ioctl: cb-lcan's topology" cb-lcan "$(info_key /dev/$cb topology)"
check_eq "ioctl: cb-lcan's port-map bytes" 48 "$(info_key /dev/$cb port_map_bytes)"
bflyctl show "$cb" > /tmp/cb.show
check "show cb-lcan: d, u and the levels" \
	grep -qx "  ports            8 (d = 2 downers, u = 2 uppers, l = 3 levels)" /tmp/cb.show
# fabric-get: a fat tree has no settings to send; an LCAN's loads come
# from message sets (attributes: id 2, want 12; want matrix 1, link-load 2)
refused "fabric-get want matrix on a fat tree" "a fat tree has no settings" \
	bflyctl raw fabric-get 2:u32:${ft#bfly} 12:u32:1
refused "fabric-get want link-load on an LCAN" "loads come from message sets" \
	bflyctl raw fabric-get 2:u32:${cb#bfly} 12:u32:2
check "fabric-get dump with matrix and loads, LCANs among the fabrics" sh -c \
	"bflyctl raw dump fabric-get 12:u32:3 > /tmp/dump.out"
check "show cb-lcan loads: points to msgset" sh -c \
	"bflyctl show $cb loads | grep -q 'bflyctl msgset'"
check "show fattree matrix: nothing to draw, no error" bflyctl show "$ft" matrix
refused "set switch on an LCAN: whole settings only" "whole settings" \
	bflyctl set "$cb" stage 0 node 0 cross

# Settings, a byte per connector: set, read back, traced; refused settings
# by the ioctl and netlink leave bytes and generation unchanged
lcan-set-test "/dev/$cb"
lcan-set-test "/dev/$tl"
bflyctl show "$cb" matrix > /tmp/cb.matrix
check "show cb-lcan matrix: the settings arrived whole" sh -c "! grep -q incomplete /tmp/cb.matrix"
check "show cb-lcan matrix: level 0's switches, a byte per connector" \
	grep -qx "  level  0: \[1 0 - -\] \[2 1 0 -\] \[2 - 0 -\] \[3 - - -\]" /tmp/cb.matrix
check "show cb-lcan matrix: level 2's switches" \
	grep -qx "  level  2: \[1 0 - -\] \[- - - -\] \[- - - -\] \[- 2 - -\]" /tmp/cb.matrix
bflyctl show "$tl" matrix > /tmp/tl.matrix
check "show t-lcan matrix: levels of 4, 2 and 1 switches of 6 connectors" \
	grep -qx "  level  2: \[- - - 4 - -\]" /tmp/tl.matrix
bflyctl -j show "$cb" matrix > /tmp/cb.json
check "show -j cb-lcan matrix: lcan_settings per level and switch" jq_true /tmp/cb.json \
	'.lcan_settings | length == 3 and all(length == 4) and
	 .[0][1] == [2, 1, 0, null] and .[2][3] == [null, 2, null, null]'
gen=$(bflyctl -j show "$cb" | jq .generation)
refused "set all on an LCAN: refused by bflyctl with the reason" "a byte per connector" \
	bflyctl set "$cb" all straight
refused "set all map on an LCAN: refused by bflyctl with the reason" "a byte per connector" \
	bflyctl set "$cb" all map 1 0
check_eq "the refused sets changed nothing" "$gen" \
	"$(bflyctl -j show "$cb" | jq .generation)"

# Message sets (BFLY_IOC_MSGSET): the device and the library built natively
# give the same cycles, paths and loads; payload; bad input; a kill.
c64=$(bflyctl new cb-lcan 64 radix 2 up 2)
c256=$(bflyctl new cb-lcan 256 radix 4 up 4)
for dev in $cb $tl $ft $tr $c64 $c256; do
	msgset-test "/dev/$dev" route
done
msgset-test "/dev/$c64" payload
msgset-test "/dev/$tl" payload
msgset-test "/dev/$cb" bad
msgset-test "/dev/$tl" bad
msgset-test "/dev/$c64" signal
# netlink: a fatal signal during msgset is answered ECANCELED (netlink.rst)
nl-signal-test msgset-kill "${c64#bfly}"

# The msgset command: identity in one cycle, the experiments' patterns, JSON
bflyctl msgset "$c64" pattern identity > /tmp/ms.out
check "msgset identity: one cycle, ceil(lambda) 1" \
	grep -q "set 0: 1 cycles, ceil(lambda) 1 (lambda 1/1), 64 of 64 routed" /tmp/ms.out
bflyctl -j msgset "$c64" pattern random reps 5 seed 11 > /tmp/ms.json
check "msgset random reps 5: five sets, every one routed, cycles >= bound" jq_true /tmp/ms.json \
	'(.sets | length) == 5 and .messages == 64 and
	 (.sets | all(.routed == 64 and .cycles >= .bound and .bound >= 1)) and
	 .min_cycles <= .mean_cycles and .mean_cycles <= .max_cycles'
bflyctl -j msgset "$c64" pattern random reps 5 seed 11 > /tmp/ms2.json
check "msgset: one seed, one result" cmp -s /tmp/ms.json /tmp/ms2.json
bflyctl -j msgset "$c64" pattern worst strategy offline > /tmp/ms.json
check "msgset worst: ceil(lambda) is 1 on CB-LCAN(2,2)" jq_true /tmp/ms.json \
	'.sets[0].bound == 1 and .sets[0].routed == 64'
bflyctl msgset "$c64" pattern transpose mode unidir > /tmp/ms.out
check "msgset transpose, uni-directional: routed in cycles" \
	grep -q "64 of 64 routed" /tmp/ms.out
printf '0 1\n1 0\n# comment\n2 3\n' > /tmp/ms.pairs
bflyctl msgset "$cb" file /tmp/ms.pairs > /tmp/ms.out
check "msgset file: three messages" grep -q "3 of 3 routed" /tmp/ms.out

# want paths / load: each message's path and each channel's load by netlink.
# CB-LCAN(2,2) N = 8 has 28 channels (Documentation/lcan.rst, "Channels"):
# 0 -> 4 (LCA level 2) loads PE 0's wire up (0), level 0's group 0 up (8),
# level 1's group 0 up (12), PE 4's wire down (14 + 4), the bundles down
# into level 0's group 2 (14 + 8 + 2) and level 1's group 1 (14 + 12 + 1);
# 1 -> 0 turns at level 0: PE 1 up (1), PE 0 down (14).
printf '0 4\n1 0\n' > /tmp/ms.pairs
bflyctl -j msgset "$cb" file /tmp/ms.pairs want all > /tmp/msw.json
check "msgset want all: cycles, paths and the 28 channels' loads" jq_true /tmp/msw.json \
	'.sets[0] | .loads == [range(28) | if IN(0, 8, 12, 18, 24, 27, 1, 14) then 1 else 0 end] and
	 .levels == 3 and (.paths | length) == 12 and .msg_cycle == [0, 0] and all(.paths[]; . < 2)'
bflyctl msgset "$cb" file /tmp/ms.pairs want paths > /tmp/msw.out
check "msgset want paths: a line per message with its cycle and path" \
	grep -q "^    0 -> 4: cycle 0, up [01] [01] [01], down [0-9] [0-9] [0-9]$" /tmp/msw.out
bflyctl msgset "$cb" file /tmp/ms.pairs > /tmp/msw.out
check "msgset without want: no paths" sh -c "! grep -q ' -> ' /tmp/msw.out"
check_eq "msgset want load: a line of loads" 1 \
	"$(bflyctl msgset "$cb" file /tmp/ms.pairs want load | grep -c "28 channels' loads")"
awk 'BEGIN { for (i = 0; i < 2100; i++) print i % 256, (i * 7) % 256 }' > /tmp/ms.many
refused "msgset want paths: more than an attribute holds" "msgset-want: paths" \
	bflyctl msgset "$c256" file /tmp/ms.many want paths
big=$(bflyctl new cb-lcan 8192 radix 2 up 2)
printf '0 1\n' > /tmp/ms.one
refused "msgset want load: 32764 channels, more than an attribute holds" "msgset-want: load" \
	bflyctl msgset "$big" file /tmp/ms.one want load
check "msgset on 8192 PEs without want load: routed" sh -c \
	"bflyctl msgset $big file /tmp/ms.one | grep -q '1 of 1 routed'"
bflyctl del "$big"

# An LCAN's whole settings through bflyctl set (netlink switch-set)
set -- 1 0 - -  2 1 0 -  2 - 0 -  3 - - -  - 2 1 -  - - - -  2 - 0 -  - 3 - - \
	1 0 - -  - - - -  - - - -  - 2 - -
check "set cb-lcan settings: 48 bytes accepted" bflyctl set "$cb" settings "$@"
check "show cb-lcan matrix: the settings set" sh -c \
	"bflyctl show $cb matrix | grep -qx '  level  1: \[- 2 1 -\] \[- - - -\] \[2 - 0 -\] \[- 3 - -\]'"
gen=$(bflyctl -j show "$cb" | jq .generation)
bad=$(echo "$@" | awk '{ $14 = 3; print }')
# shellcheck disable=SC2086
refused "set cb-lcan settings: two downers to one upper" "used twice" \
	bflyctl set "$cb" settings $bad
refused "set cb-lcan settings: one byte short" "48" bflyctl set "$cb" settings 1 0
refused "set cb-lcan settings: not a connector" "not a connector" \
	bflyctl set "$cb" settings $(echo "$@" | awk '{ $1 = "x"; print }')
check_eq "the refused settings changed nothing" "$gen" \
	"$(bflyctl -j show "$cb" | jq .generation)"
set --

# Bad input by netlink: errno, the extack message, the message at fault
bf=$(bflyctl new butterfly 8)
refused "msgset on a butterfly" "message sets run on an LCAN" \
	bflyctl msgset "$bf" pattern identity
bflyctl del "$bf"
printf '0 1\n9 0\n' > /tmp/ms.pairs
refused "msgset: a source past the last PE" "a source past the last processor" \
	bflyctl msgset "$cb" file /tmp/ms.pairs
refused "msgset: uni-directional on a T-LCAN" "CB-LCAN only" \
	bflyctl msgset "$tl" pattern identity mode unidir
refused "msgset: unknown pattern" "unknown pattern" bflyctl msgset "$cb" pattern spiral
# Attribute numbers: id 2, msgs 49, mode 50 (uapi/linux/bfly_netlink.h)
id=${cb#bfly}
refused "msgset raw: msgs missing" "msgs: missing" bflyctl raw msgset 2:u32:$id
refused "msgset raw: msgs not whole pairs" "whole number of u32 pairs" \
	bflyctl raw msgset 2:u32:$id 49:hex:000000000100
refused "msgset raw: mode 2" "[attribute mode]" \
	bflyctl raw msgset 2:u32:$id 49:hex:0000000001000000 50:u32:2
# msg-paths 61: message 0 -> 4 on CB-LCAN(2,2) N = 8, up by uppers 1 then 0
check "msgset raw: a given path" sh -c \
	"bflyctl raw msgset 2:u32:$id 49:hex:0000000004000000 61:hex:010000000000000000000000000000000000000000000000 | grep -q ."
refused "msgset raw: a given path of the wrong length" "msg-paths: length" \
	bflyctl raw msgset 2:u32:$id 49:hex:0000000004000000 61:hex:01000000
refused "msgset raw: a given tag past the uppers" "past the uppers" \
	bflyctl raw msgset 2:u32:$id 49:hex:0000000004000000 61:hex:020000000000000000000000000000000000000000000000
check "msgset raw: one message routed" sh -c \
	"bflyctl raw msgset 2:u32:$id 49:hex:0000000001000000 | grep -q ."

for dev in $cb $tl $ft $tr $c64 $c256; do
	bflyctl del "$dev"
done
check_eq "every LCAN deleted" "" "$(bflyctl list)"
bfly_unload
