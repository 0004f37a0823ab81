#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Batch lists (hrel.rst, "The all-to-all exchange"): the exchange listed
# in order in a batch's layout on bfly2 and bfly-twice, which the kernel
# reads 1024 messages at a time and keeps nowhere, with one message
# changed at the chunks' borders and its read faulting there (hrel-test
# near), with cached and with streaming stores; the hrel command's answer
# (netlink) for the exchange and for a list one swap from it, across a
# chunk border: the rounds the ioctl gives. The round permutations'
# buffer charged before anything runs, and the payload's scratch before
# the report (hrel-test permlimit); a batch list without payload stopped
# by signals between chunks, nothing written (listsignal, N = 256).
. "$(dirname "$0")/lib.sh"

bfly_unload
check "insmod ports=0" insmod "$BFLY_KO" ports=0
b2=$(bflyctl new bfly2 64)
bt=$(bflyctl new bfly-twice 64)
check "two fabrics made: $b2 $bt" test -c "/dev/$bt"

for dev in $b2 $bt; do
	hrel-test "/dev/$dev" near
done
hrel-test "/dev/$b2" signal
hrel-test "/dev/$b2" units
# the round permutations' buffer charged; a batch list stopped by signals
hrel-test "/dev/$b2" permlimit
b256=$(bflyctl new bfly2 256)
hrel-test "/dev/$b256" listsignal
bflyctl del "$b256"
check "payload_stream_bytes=0" sh -c "echo 0 > /sys/module/bfly/parameters/payload_stream_bytes"
hrel-test "/dev/$b2" near
hrel-test "/dev/$b2" units
check "payload_stream_bytes=32M" sh -c "echo 32M > /sys/module/bfly/parameters/payload_stream_bytes"

# message m (pair p) in round (p / N - p mod N) mod N, round r i -> i - r mod N
awk 'BEGIN { for (m = 0; m < 4096; m++) {
	p = m == 1023 ? 1024 : m == 1024 ? 1023 : m; print int(p / 64), p % 64 } }' > /tmp/hb.pairs
for dev in $b2 $bt; do
	bflyctl -j hrel "$dev" alltoall perms > /tmp/hb-a2a.json
	check "hrel -j $dev alltoall perms: 64 rounds, message m in round (m / N - m mod N) mod N" \
		jq_true /tmp/hb-a2a.json '.h == 64 and .colours == 64 and .rounds == 64 and
		.messages == 4096 and (.msg_round as $r | [range(0; 4096) | . as $m |
		select($r[$m] != ((($m / 64 | floor) - ($m % 64) + 64) % 64))] | length == 0) and
		([.round_perms | to_entries[] | .key as $k | .value | to_entries[] |
		select(.value != ((.key - $k + 64) % 64))] | length == 0)'
	bflyctl -j hrel "$dev" file /tmp/hb.pairs perms > /tmp/hb-swap.json
	check "hrel -j $dev, the exchange with messages 1023 and 1024 swapped: the same rounds by pair" \
		jq_true /tmp/hb-swap.json '.h == 64 and .rounds == 64 and .messages == 4096 and
		(.msg_round as $r | [range(0; 4096) | . as $m |
		(if $m == 1023 then 1024 elif $m == 1024 then 1023 else $m end) as $p |
		select($r[$m] != ((($p / 64 | floor) - ($p % 64) + 64) % 64))] | length == 0) and
		([.round_perms | to_entries[] | .key as $k | .value | to_entries[] |
		select(.value != ((.key - $k + 64) % 64))] | length == 0)'
	check "hrel $dev: the swapped list's cycles the exchange's" \
		test "$(jq .cycles /tmp/hb-a2a.json)" = "$(jq .cycles /tmp/hb-swap.json)"
done

# Under a fabric_mem_max the fabric alone fills: no list runs, kept or not
P=/sys/module/bfly/parameters
own=$(cat "/sys/class/bfly/$b2/mem_bytes")
echo $((own + 1)) > $P/fabric_mem_max
hrel-test "/dev/$b2" limit
echo $((256 << 20)) > $P/fabric_mem_max
check_eq "under the limit again: the fabric holds its own memory only" "$own" \
	"$(cat "/sys/class/bfly/$b2/mem_bytes")"

for dev in $b2 $bt; do
	bflyctl del "$dev"
done
check_eq "every fabric deleted" "" "$(bflyctl list)"
bfly_unload
