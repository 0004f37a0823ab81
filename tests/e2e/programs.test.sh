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
