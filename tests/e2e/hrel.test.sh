#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# h-relations (issue 14): BFLY_IOC_HREL through hrel-test on every fabric
# (payload against a model, rounds, permutations, bad input, a signal),
# a fabric with a fault that refuses them, and the hrel command
# through bflyctl (figures, JSON, perms, refusals with their extack).
. "$(dirname "$0")/lib.sh"

bfly_unload
check "insmod ports=0" insmod "$BFLY_KO" ports=0
be=$(bflyctl new benes 64)
bf=$(bflyctl new butterfly 64)
b2=$(bflyctl new bfly2 64)
bt=$(bflyctl new bfly-twice 64)
cb=$(bflyctl new cb-lcan 64 radix 2 up 2)
tl=$(bflyctl new t-lcan 16 radix 4 up 2)
kf=$(bflyctl new kfly 64 radix 4)
ff=$(bflyctl new flatfly 64 radix 4)
k3=$(bflyctl new kfly 27 radix 3)
f3=$(bflyctl new flatfly 27 radix 3)
f2=$(bflyctl new flatfly 32 radix 2)
check "eleven fabrics made: $be $bf $b2 $bt $cb $tl $kf $ff $k3 $f3 $f2" test -c "/dev/$f2"

for dev in $be $bf $b2 $bt $cb $tl $kf $ff $k3 $f3 $f2; do
	hrel-test "/dev/$dev" run
done
hrel-test "/dev/$be" bad
hrel-test "/dev/$cb" bad
hrel-test "/dev/$kf" bad
hrel-test "/dev/$ff" bad
hrel-test "/dev/$be" signal
hrel-test "/dev/$b2" overlap
hrel-test "/dev/$cb" overlap
hrel-test "/dev/$b2" lines
hrel-test "/dev/$be" top
# streaming stores (x86-64) from the first byte: payload and faults alike
check "payload_stream_bytes=0" sh -c "echo 0 > /sys/module/bfly/parameters/payload_stream_bytes"
hrel-test "/dev/$b2" run
hrel-test "/dev/$b2" bad
hrel-test "/dev/$b2" overlap
hrel-test "/dev/$b2" lines
hrel-test "/dev/$b2" top
check "payload_stream_bytes=32M" sh -c "echo 32M > /sys/module/bfly/parameters/payload_stream_bytes"

# A fabric that runs none: one with a fault
check "fault add: a stuck node on $bf" bflyctl fault add "$bf" stuck 1 3 cross
hrel-test "/dev/$bf" refused
check "fault clear on $bf" bflyctl fault clear "$bf"
# blocks sized once: payload_stream_bytes flipping under the relations
mid=$(bflyctl new benes 1024)
hrel-test "/dev/$mid" paramrace
bflyctl del "$mid"
big=$(bflyctl new butterfly 65536)
hrel-test "/dev/$big" hxn
bflyctl del "$big"

# The hrel command
bflyctl hrel "$be" random 4 seed 3 > /tmp/hr.out
check "hrel benes random 4: h 4, 4 colours, 4 rounds" \
	grep -q "h 4, 4 colours, 4 rounds (0 extra)" /tmp/hr.out
bflyctl hrel "$be" alltoall > /tmp/hr.out
check "hrel benes alltoall: h = N = 64 rounds" \
	grep -q "h 64, 64 colours, 64 rounds (0 extra)" /tmp/hr.out
bflyctl hrel "$bf" one-to-one 5 seed 1 > /tmp/hr.out
check "hrel butterfly one-to-one 5: h 5" grep -q "h 5, 5 colours" /tmp/hr.out
for dev in $be $bf $b2 $bt $cb $tl $kf $ff $k3 $f3; do
	bflyctl -j hrel "$dev" random 3 seed 7 perms > "/tmp/hr-$dev.json"
	check "hrel -j $dev random 3 perms: rounds are partial permutations of the messages" \
		jq_true "/tmp/hr-$dev.json" '(.round_perms[0] | length) as $n |
		.h == 3 and .colours == 3 and .messages == 3 * $n and
		.rounds >= 3 and .extra_rounds == .rounds - 3 and
		(.round_perms | length) == .rounds and (.msg_round | length) == .messages and
		all(.round_perms[]; map(select(. != null)) | length == (unique | length)) and
		([.round_perms | to_entries[] | .key as $k | .value[] | select(. != null) | $k] | sort) ==
		(.msg_round | sort)'
done
check "hrel benes -j: rounds == h" jq_true "/tmp/hr-$be.json" '.rounds == 3 and .extra_rounds == 0'
bflyctl -j hrel "$b2" random 3 seed 7 perms > /tmp/hr2.json
check "hrel: one seed, one result" cmp -s "/tmp/hr-$b2.json" /tmp/hr2.json
printf '0 1\n1 0\n# comment\n0 2\n' > /tmp/hr.pairs
bflyctl hrel "$bf" file /tmp/hr.pairs perms > /tmp/hr.out
check "hrel file: three messages, h 2" grep -q "3 messages" /tmp/hr.out
check "hrel file perms: a round line with idle inputs" grep -q "round 0: .* -" /tmp/hr.out

# Refusals by netlink: errno, the extack message, the message at fault
printf '0 1\n70 0\n' > /tmp/hr.pairs
refused "hrel: a source past the last port" \
	"message 1 (70 0): a message's source or destination is no port of the fabric" \
	bflyctl hrel "$be" file /tmp/hr.pairs
bflyctl hrel "$kf" random 4 seed 3 > /tmp/hr.out
check "hrel kfly random 4: h 4, 4 colours" grep -q "h 4, 4 colours" /tmp/hr.out
bflyctl hrel "$ff" random 4 seed 3 > /tmp/hr.out
check "hrel flatfly random 4: h 4, 4 colours, 4 rounds" \
	grep -q "h 4, 4 colours, 4 rounds (0 extra)" /tmp/hr.out
check "fault add again on $bf" bflyctl fault add "$bf" link 0 5
refused "hrel on a fabric with a fault" "without faults; repair them first" \
	bflyctl hrel "$bf" random 1
check "fault clear again" bflyctl fault clear "$bf"
bflyctl hrel "$be" alltoall perms > /tmp/hr.out
check "hrel benes alltoall perms: 64 round lines" test "$(grep -c '^  round ' /tmp/hr.out)" -eq 64
b1k=$(bflyctl new benes 1024)
f1k=$(bflyctl new butterfly 1024)
bflyctl -j hrel "$b1k" random 7 perms > /tmp/hr.json
check "hrel benes 1024 random 7 perms: 7168 messages, 7 rounds of 1024 in one reply" \
	jq_true /tmp/hr.json '.messages == 7168 and .rounds == 7 and (.round_perms | length) == 7 and
		all(.round_perms[]; length == 1024)'
refused "hrel perms past one attribute: butterfly 1024, random 7" \
	"want-round-perms: rounds x N over 16382 entries" bflyctl hrel "$f1k" random 7 perms
bflyctl del "$b1k"
bflyctl del "$f1k"
refused "hrel: unknown argument" "unexpected argument" bflyctl hrel "$be" spiral 2
# Attribute numbers: id 2, msgs 49 (uapi/linux/bfly_netlink.h)
id=${be#bfly}
refused "hrel raw: msgs missing" "msgs: missing" bflyctl raw hrel 2:u32:$id
refused "hrel raw: msgs not whole pairs" "whole number of u32 pairs" \
	bflyctl raw hrel 2:u32:$id 49:hex:000000000100
check "hrel raw: one message" sh -c "bflyctl raw hrel 2:u32:$id 49:hex:0000000001000000 | grep -q ."

# Rounds against h for Documentation/hrel.rst, N = 64 (N = 1024 the same
# way, but for minutes on the debug kernel). The figures are the same on
# every kernel: the debug kernel, where the rest of this test takes the
# same ioctl on every fabric, runs the table on benes and cb-lcan only.
for t in benes butterfly bfly2 bfly-twice; do
	debug_kernel && [ $t != benes ] && continue
	d=$(bflyctl new $t 64)
	BFLY_TOPO=$t hrel-test "/dev/$d" table
	bflyctl del "$d"
done
d=$(bflyctl new cb-lcan 64 radix 2 up 2)
BFLY_TOPO=cb-lcan hrel-test "/dev/$d" table
bflyctl del "$d"
if ! debug_kernel; then
	d=$(bflyctl new t-lcan 64 radix 4 up 2)
	BFLY_TOPO=t-lcan hrel-test "/dev/$d" table
	bflyctl del "$d"
	for r in 2 4; do
		for t in kfly flatfly; do
			d=$(bflyctl new $t 64 radix $r)
			BFLY_TOPO="$t radix $r" hrel-test "/dev/$d" table
			bflyctl del "$d"
		done
	done
fi

for dev in $be $bf $b2 $bt $cb $tl $kf $ff $k3 $f3 $f2; do
	bflyctl del "$dev"
done
check_eq "every fabric deleted" "" "$(bflyctl list)"
bfly_unload
