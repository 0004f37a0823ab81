#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The command lines of bfly-info, bfly-route and bflyctl: --help and
# --version, unknown options, and every numeric argument range-checked
# with a one-line message naming it (no silent truncation to 32 bits).
. /tests/lib.sh

progs="bfly-info bfly-route bflyctl"

# --help: usage on stdout, nothing on stderr, exit 0 (-h too)
for p in $progs; do
	for h in --help -h; do
		check "$p $h: usage on stdout, exit 0" sh -c \
			"$p $h > /tmp/help.out 2> /tmp/help.err && grep -q '^usage: $p' /tmp/help.out && [ ! -s /tmp/help.err ]"
	done
done

# --version: "PROGRAM VERSION" on stdout, exit 0; one version for all
for p in $progs; do
	check "$p --version: its name and version, exit 0" sh -c \
		"$p --version > /tmp/version.out 2> /tmp/version.err && grep -qx '$p [0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*' /tmp/version.out && [ ! -s /tmp/version.err ]"
done
check_eq "one version for the three programs" 1 \
	"$(for p in $progs; do $p --version; done | cut -d' ' -f2 | sort -u | wc -l)"

# Unknown options: a message naming it and the usage on stderr, exit 2
for p in $progs; do
	for o in --bogus -Z; do
		check "$p $o: message and usage on stderr, exit 2" sh -c \
			"$p $o > /tmp/opt.out 2> /tmp/opt.err; [ \$? -eq 2 ] && [ ! -s /tmp/opt.out ] && grep -q -- '${o#-}' /tmp/opt.err && grep -q '^usage: $p' /tmp/opt.err"
	done
done

# Arguments checked before any device is opened: no module needed
bfly_unload
check "bfly-info: one DEVICE only, exit 2" sh -c \
	'bfly-info /dev/bfly0 /dev/bfly1 2> /tmp/opt.err; [ $? -eq 2 ] && grep -q "^usage: bfly-info" /tmp/opt.err'

check "insmod benes 16" insmod "$BFLY_KO" topology=benes ports=16
gen() { bflyctl -j show bfly0 | python3 -c 'import json,sys; print(json.load(sys.stdin)["generation"])'; }
gen0=$(gen)
rest="14 13 12 11 10 9 8 7 6 5 4 3 2 1 0"

# bfly-route: values of a permutation
refused "bfly-route: 2^32 + 15 is not 15" "value 1: 4294967311 is out of range" \
	bfly-route 4294967311 $rest
refused "bfly-route: 2^32 + 15 is not a permutation" "not a permutation of 0 .. 15" \
	bfly-route 4294967311 $rest
refused "bfly-route: 2^64 + 15" "value 1: 18446744073709551631 is out of range" \
	bfly-route 18446744073709551631 $rest
refused "bfly-route: 16 on 16 ports" "value 1: 16 is out of range" bfly-route 16 $rest
refused "bfly-route: -1 first" "value 1: -1 is out of range: not a permutation" \
	bfly-route -1 $rest
refused "bfly-route: -1 later" "value 2: -1 is out of range: not a permutation" \
	bfly-route 15 -1 13 12 11 10 9 8 7 6 5 4 3 2 1 0
refused "bfly-route: a repeated entry" "value 2: 15 repeats value 1: not a permutation" \
	bfly-route 15 15 13 12 11 10 9 8 7 6 5 4 3 2 1 0
refused "bfly-route: a repeated entry (dry run)" "not a permutation" \
	bfly-route -n 15 15 13 12 11 10 9 8 7 6 5 4 3 2 1 0
refused "bfly-route: not a number" "value 3: 'x' is not a number" \
	bfly-route 15 14 x 12 11 10 9 8 7 6 5 4 3 2 1 0
refused "bfly-route: trailing junk" "value 1: '15z' is not a number" bfly-route 15z $rest
refused "bfly-route: empty value" "value 1: '' is not a number" bfly-route '' $rest
refused "bfly-route: too few values" "give 16 values" bfly-route 1 0
# labels: node_stages = 7 bits on benes 16
refused "bfly-route -l: a label past 7 bits" "value 1: label 128 is out of range (0 .. 127" \
	bfly-route -n -l 128 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
refused "bfly-route -l: a negative label" "value 2: label -1 is out of range" \
	bfly-route -n -l 0 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0
refused "bfly-route -l: 8 binary digits are a number" "value 1: label 11111111 is out of range" \
	bfly-route -n -l 11111111 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
check_eq "bfly-route: the refusals changed nothing" "$gen0" "$(gen)"
check "bfly-route: 0x hexadecimal, 010 decimal" sh -c \
	'bfly-route -n 0xf 14 13 12 11 010 9 8 7 6 5 4 3 2 1 0 | grep -q "dry run"'
check "bfly-route: the reversal routes" sh -c \
	"bfly-route 15 $rest | grep -q ' 0->15 .* 15->0\$'"
check "bfly-route -l: 7 binary digits route" sh -c \
	'bfly-route -n -l 1111111 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 | grep -q "label self-routing"'

# bflyctl: every numeric argument
gen1=$(gen)
refused "bflyctl route perm: -1" "perm: entry 1: -1 is out of range: not a permutation" \
	bflyctl route bfly0 perm -1,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0
refused "bflyctl route perm: 2^32 + 15" "perm: entry 1: 4294967311 is out of range" \
	bflyctl route bfly0 perm 4294967311,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0
refused "bflyctl route perm: 16 on 16 ports" "perm: entry 3: 16 is out of range" \
	bflyctl route bfly0 perm 15,14,16,12,11,10,9,8,7,6,5,4,3,2,1,0
refused "bflyctl route perm: a repeated entry" "perm: not a permutation" \
	bflyctl route bfly0 perm 15,15,13,12,11,10,9,8,7,6,5,4,3,2,1,0
refused "bflyctl route perm: not a number" "perm: entry 2: 'a' is not a number" \
	bflyctl route bfly0 perm 15,a,13,12,11,10,9,8,7,6,5,4,3,2,1,0
refused "bflyctl route perm: an empty entry" "perm: entry 2: '' is not a number" \
	bflyctl route bfly0 perm 15,,13,12,11,10,9,8,7,6,5,4,3,2,1,0
refused "bflyctl route labels: -1" "labels: entry 1: -1 is out of range" \
	bflyctl route bfly0 dry-run labels -1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
refused "bflyctl route xor 16 on 16 ports" "xor: 16 is out of range (0 .. 15)" \
	bflyctl route bfly0 dry-run xor 16
refused "bflyctl route shift 2^32" "shift: 4294967296 is out of range" \
	bflyctl route bfly0 dry-run shift 4294967296
refused "bflyctl route random seed -1" "seed: -1 is out of range" \
	bflyctl route bfly0 dry-run random seed -1
refused "bflyctl new: ports 2^32 + 16" "ports: 4294967312 is out of range" \
	bflyctl new benes 4294967312
refused "bflyctl show: device 2^32" "device: 4294967296 is out of range" bflyctl show 4294967296
refused "bflyctl set: stage 2^32" "stage: 4294967296 is out of range" \
	bflyctl set bfly0 stage 4294967296 node 0 cross
refused "bflyctl set: node -1" "node: -1 is out of range" bflyctl set bfly0 stage 0 node -1 cross
refused "bflyctl fault add: pos 2^32" "pos: 4294967296 is out of range" \
	bflyctl fault add bfly0 link 0 4294967296
refused "bflyctl monitor count -1" "count: -1 is out of range" bflyctl monitor count -1
refused "bflyctl raw: command 256" "command: 256 is out of range (0 .. 255)" bflyctl raw 256
refused "bflyctl raw: attribute type 65536" "attribute type: 65536 is out of range (0 .. 65535)" \
	bflyctl raw fabric-get 65536:u32:0
refused "bflyctl raw: u8 256" "u8: 256 is out of range (0 .. 255)" bflyctl raw fabric-get 2:u8:256
refused "bflyctl raw: u16 65536" "u16: 65536 is out of range (0 .. 65535)" \
	bflyctl raw fabric-get 2:u16:65536
refused "bflyctl raw: u64 2^64" "u64: 18446744073709551616 is out of range" \
	bflyctl raw fabric-get 2:u64:18446744073709551616
refused "bflyctl raw: hex, odd digits" "hex: '000' is not pairs of hex digits" \
	bflyctl raw switch-set 2:u32:0 15:hex:000
refused "bflyctl raw: hex, not hex" "hex: '0g' is not pairs of hex digits" \
	bflyctl raw switch-set 2:u32:0 15:hex:0g
check_eq "bflyctl: the refusals changed nothing" "$gen1" "$(gen)"
check "bflyctl: 0x hexadecimal, 010 decimal" sh -c \
	'bflyctl route bfly0 dry-run perm 0xf,14,13,12,11,010,9,8,7,6,5,4,3,2,1,0 | grep -q "dry run"'

check "rmmod" rmmod bfly

# ---- k x k fabrics (issue 12) ----
# bflyctl new checks the radix before anything is sent: no module needed
bfly_unload
refused "bflyctl new: radix 1" "radix: 1 is out of range (2 .. 64)" bflyctl new kfly 16 radix 1
refused "bflyctl new: radix 65" "radix: 65 is out of range (2 .. 64)" bflyctl new kfly 16 radix 65
refused "bflyctl new: radix x" "radix: 'x' is not a number" bflyctl new kfly 16 radix x
refused "bflyctl new: radix 2^32 + 4" "radix: 4294967300 is out of range (2 .. 64)" \
	bflyctl new kfly 16 radix 4294967300
refused "bflyctl new: radix -4" "radix: -4 is out of range (2 .. 64)" bflyctl new kfly 16 radix -4

check "insmod kfly 16 radix 4" insmod "$BFLY_KO" topology=kfly ports=16 radix=4
bfly-info /dev/bfly0 > /tmp/info.out
check "bfly-info kfly: k and n, radix and the figures" sh -c \
	'grep -qx "/dev/bfly0: kfly fabric" /tmp/info.out && grep -qx "  ports            16 (k = 4, n = 2)" /tmp/info.out && grep -qx "  radix            4" /tmp/info.out && grep -qx "  degree           8" /tmp/info.out && grep -qx "  port-map bytes   32" /tmp/info.out'
check "bfly-info -k kfly: radix, degree, diameter, routers, channels, bisection, port_map_bytes" sh -c \
	'bfly-info -k /dev/bfly0 > /tmp/info.keys && grep -qx radix=4 /tmp/info.keys && grep -qx degree=8 /tmp/info.keys && grep -qx diameter=3 /tmp/info.keys && grep -qx routers=0 /tmp/info.keys && grep -qx channels=48 /tmp/info.keys && grep -q "^bisection=[0-9]" /tmp/info.keys && grep -qx port_map_bytes=32 /tmp/info.keys'

# bflyctl set: a map of k entries, checked before it is sent
gen2=$(gen)
refused "bflyctl set map: 3 entries on 4 x 4 switches" "map: 3 entries, the switches have 4 ports" \
	bflyctl set bfly0 stage 0 node 0 map 0 1 2
refused "bflyctl set map: 4 on 4 x 4 switches" "map: entry 2: 4 is out of range (0 .. 3, or - or 255 for none)" \
	bflyctl set bfly0 stage 0 node 0 map 0 4 1 2
refused "bflyctl set map: 256" "map: entry 1: 256 is out of range" \
	bflyctl set bfly0 stage 0 node 0 map 256 0 1 2
refused "bflyctl set map: -1" "map: entry 1: -1 is out of range" \
	bflyctl set bfly0 stage 0 node 0 map -1 0 1 2
refused "bflyctl set map: not a number" "map: entry 4: 'z' is not a port" \
	bflyctl set bfly0 stage 0 node 0 map 0 1 2 z
check_eq "bflyctl set: the refusals changed nothing" "$gen2" "$(gen)"
check "bflyctl set map: 0x hexadecimal, - and 255 for none" \
	bflyctl set bfly0 stage 0 node 0 map 0x3 - 255 0

# bfly-route: port maps; the transpose (dest = (i mod 4) 4 + i div 4)
# routes, the identity conflicts in every first-stage switch
tr="0 4 8 12 1 5 9 13 2 6 10 14 3 7 11 15"
bfly-route $tr > /tmp/route.out
check_eq "bfly-route kfly: the transpose routes, exit 0" 0 $?
check "bfly-route kfly: self-routing, one line of four 4-port maps per stage" sh -c \
	"grep -qx '/dev/bfly0: 16 ports, self-routing by destination' /tmp/route.out && [ \$(grep -cE '^  stage  [01]:( \[[0-3] [0-3] [0-3] [0-3]\]){4}\$' /tmp/route.out) -eq 2 ] || { cat /tmp/route.out; false; }"
check "bfly-route kfly: the trace is the transpose" sh -c \
	"grep -q ' 0->0 1->4 2->8 3->12 4->1 .* 15->15\$' /tmp/route.out || { cat /tmp/route.out; false; }"
bfly-route -n 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 > /tmp/route.out
check_eq "bfly-route kfly: the identity is refused, exit 3" 3 $?
check "bfly-route kfly: conflicts with their port" sh -c \
	"grep -q '^refused: [0-9]* internal conflicts, the first in node stage 0' /tmp/route.out && grep -qE '^  stage 0 node [0-9]+: inputs [0-9]+ and [0-9]+ ask for port [0-3]\$' /tmp/route.out || { cat /tmp/route.out; false; }"
refused "bfly-route -l kfly: label 16 past 2 base-4 digits" \
	"value 1: label 16 is out of range (0 .. 15, 2 base-4 digits)" \
	bfly-route -n -l 16 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
refused "bfly-route -l kfly: 34 is no pair of base-4 digits but a number" \
	"value 1: label 34 is out of range" \
	bfly-route -n -l 34 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
check "bfly-route -l kfly: base-4 digit pairs route" sh -c \
	'bfly-route -n -l 00 10 20 30 01 11 21 31 02 12 22 32 03 13 23 33 | grep -q "label self-routing (dry run)"'
check "rmmod (kfly)" rmmod bfly

check "insmod flatfly 16" insmod "$BFLY_KO" topology=flatfly ports=16 radix=2
check "bfly-info flatfly: routers 8" sh -c \
	'bfly-info /dev/bfly0 | grep -qx "  routers          8" && bfly-info -k /dev/bfly0 | grep -qx routers=8'
check "bfly-route flatfly: the digit rotation routes, maps of 2 ports" sh -c \
	"bfly-route 0 8 1 9 2 10 3 11 4 12 5 13 6 14 7 15 > /tmp/route.out && grep -qE '^  stage  0:( \[[01] [01]\]){8}\$' /tmp/route.out && grep -q ' 1->8 .* 15->15\$' /tmp/route.out || { cat /tmp/route.out; false; }"
check "rmmod (flatfly)" rmmod bfly
