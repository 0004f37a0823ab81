#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad input to the "bfly" generic netlink family: missing, unknown and
# unsupported attributes, wrong types, out-of-range values, a non-power of
# two, unknown ids, and changes by an unprivileged user. Every refusal is a
# non-zero exit with one line on stderr carrying the kernel's extended ack
# message and the attribute it names.
. /tests/lib.sh

bfly_unload
check "insmod topology=benes ports=8" insmod "$BFLY_KO" topology=benes ports=8

# fabric-new (attribute 4 topology, 5 ports)
refused "new: topology missing" "topology: missing" bflyctl raw fabric-new 5:u32:8
refused "new: ports missing" "[attribute ports missing]" bflyctl raw fabric-new 4:u32:4
refused "new: unknown attribute 99" "[attribute 99]" bflyctl raw fabric-new 4:u32:4 5:u32:8 99:u32:1
refused "new: attribute id not accepted" "[attribute id]" bflyctl raw fabric-new 2:u32:1 4:u32:4 5:u32:8
refused "new: ports as u16 (wrong type)" "[attribute ports]" bflyctl raw fabric-new 4:u32:4 5:u16:8
refused "new: topology as a string (wrong type)" "[attribute topology]" bflyctl raw fabric-new 4:str:benes 5:u32:8
# __BFLY_TOPO_MAX (11) is the first number that names no topology.
refused "new: topology 11 out of range" "[attribute topology]" bflyctl raw fabric-new 4:u32:11 5:u32:8
refused "new: topology 2^32-1 out of range" "[attribute topology]" bflyctl raw fabric-new 4:u32:4294967295 5:u32:8
refused "new: topology 0 out of range" "[attribute topology]" bflyctl raw fabric-new 4:u32:0 5:u32:8
refused "new: 12 ports, not a power of two" "ports: not a power of two" bflyctl new benes 12
refused "new: 0 ports" "ports: not a power of two" bflyctl new benes 0
refused "new: 1 port" "ports: fewer than 2 ports" bflyctl new butterfly 1
refused "new: 2^21 ports" "ports: more than 2^20 ports" bflyctl new bfly2 2097152
refused "new: unknown topology name (bflyctl)" "unknown topology 'omega'" bflyctl new omega 8
refused "new: ports not a number (bflyctl)" "is not a number" bflyctl new benes eight

# ids
refused "del: id missing" "id: missing" bflyctl raw fabric-del
refused "del: unknown id" "id: no fabric has this id" bflyctl del bfly77
refused "show: unknown id" "id: no fabric has this id" bflyctl show 77
refused "get: id as u64 (wrong type)" "[attribute id]" bflyctl raw fabric-get 2:u64:0
refused "get: want with an unknown flag" "[attribute want]" bflyctl raw fabric-get 2:u32:0 12:u32:8
refused "show: not a device name" "is not a bfly device" bflyctl show eth0

# switches
refused "set: stage out of range" "switch: stage out of range" bflyctl set bfly0 stage 5 node 0 cross
refused "set: node out of range" "switch: node out of range" bflyctl set bfly0 stage 0 node 4 cross
refused "set: neither switches nor matrix" "switch, matrix, port-map: missing" bflyctl raw switch-set 2:u32:0
refused "set: matrix of the wrong size" "matrix: length differs" bflyctl raw switch-set 2:u32:0 15:hex:00
refused "set: matrix bits past the last switch" "matrix: bits set past the last switch" \
	bflyctl raw switch-set 2:u32:0 15:hex:00000000000f0000
refused "set: bad state word (bflyctl)" "is not a switch state" bflyctl set bfly0 stage 0 node 0 sideways

# routes
refused "route: not a permutation" "perm: not a permutation" bflyctl route bfly0 perm 0,0,1,2,3,4,5,6
refused "route: perm of the wrong length" "perm: length is not 4 * ports bytes" \
	bflyctl raw route 2:u32:0 20:hex:0000000001000000
refused "route: neither perm nor labels" "perm, labels: missing" bflyctl raw route 2:u32:0
refused "route: perm and labels" "not both" bflyctl raw route 2:u32:0 \
	20:hex:0000000001000000020000000300000004000000050000000600000007000000 \
	21:hex:00
refused "route: wrong entry count (bflyctl)" "8 ports" bflyctl route bfly0 perm 0,1,2
dev=$(bflyctl new bfly2 8)
refused "route: a permutation on bfly2" "perm: a permutation routes on butterfly, benes, kfly and flatfly only" \
	bflyctl route "$dev" identity
refused "route: labels too wide" "labels: a label is wider than node-stages bits" \
	bflyctl route "$dev" labels 0,1,2,3,4,5,6,4096
bflyctl del "$dev"

# Unprivileged changes: refused; reading is open
refused "nobody: new" "Operation not permitted" su -s /bin/sh nobody -c "bflyctl new benes 8"
refused "nobody: del" "Operation not permitted" su -s /bin/sh nobody -c "bflyctl del bfly0"
refused "nobody: set" "Operation not permitted" su -s /bin/sh nobody -c "bflyctl set bfly0 all cross"
refused "nobody: route" "Operation not permitted" su -s /bin/sh nobody -c "bflyctl route bfly0 identity"
refused "nobody: stats reset" "Operation not permitted" su -s /bin/sh nobody -c "bflyctl stats bfly0 reset"
check "nobody: list and show work" su -s /bin/sh nobody -c "bflyctl list && bflyctl -j show bfly0"
check_eq "nobody created nothing" 1 "$(bflyctl list | grep -c '^[0-9]')"

# Nothing above changed the fabric
check_eq "bfly0 untouched by every refusal" 0 \
	"$(bflyctl -j show bfly0 | jq .generation)"
check "rmmod" rmmod bfly
check "bflyctl without the module: one-line error" sh -c \
	'! bflyctl list 2>/tmp/e && [ $(wc -l < /tmp/e) -eq 1 ] && grep -q "is bfly.ko loaded" /tmp/e'
