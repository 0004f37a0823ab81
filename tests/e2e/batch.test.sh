#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# All-to-all batches and RLS labels on every topology and a few sizes,
# through the batch-test program; a long batch interrupted by a signal.
. /tests/lib.sh

bfly_unload
for topo in butterfly bfly2 bfly-twice benes; do
	for ports in 2 4 16 64; do
		echo "# $topo, $ports ports"
		if ! insmod "$BFLY_KO" topology=$topo ports=$ports; then
			not_ok "insmod topology=$topo ports=$ports"
			continue
		fi
		batch-test /dev/bfly0 | sed "s/^\(\(not \)\{0,1\}ok - \)/\1batch $topo $ports: /"
		rmmod bfly
	done
done

# flattened butterflies: every schedule that runs there, with payload
for shape in 16:2 64:4 9:3 27:3; do
	ports=${shape%:*} radix=${shape#*:}
	echo "# flatfly, $ports ports, radix $radix"
	if ! insmod "$BFLY_KO" topology=flatfly ports=$ports radix=$radix; then
		not_ok "insmod topology=flatfly ports=$ports radix=$radix"
		continue
	fi
	batch-test /dev/bfly0 | sed "s/^\(\(not \)\{0,1\}ok - \)/\1batch flatfly $ports radix $radix: /"
	rmmod bfly
done

# streaming stores (x86-64) from the first byte: payload and faults alike
echo "# bfly2, 64 ports, payload_stream_bytes=0"
insmod "$BFLY_KO" topology=bfly2 ports=64 payload_stream_bytes=0 &&
	batch-test /dev/bfly0 | sed "s/^\(\(not \)\{0,1\}ok - \)/\1batch bfly2 64 streaming: /"
bfly_unload

echo "# bfly2, 16 ports, payload_stream_bytes=0"
insmod "$BFLY_KO" topology=bfly2 ports=16 payload_stream_bytes=0 &&
	batch-test /dev/bfly0 | sed "s/^\(\(not \)\{0,1\}ok - \)/\1batch bfly2 16 streaming: /"
bfly_unload

# streaming strips of 1 and 4 KiB messages: N below 8, a multiple of 8, no power of 2
for shape in bfly2:4:2 bfly2:64:2 flatfly:27:3; do
	topo=${shape%%:*} ports=${shape#*:} ports=${ports%:*} radix=${shape##*:}
	echo "# $topo, $ports ports, payload_stream_bytes=0, strips"
	insmod "$BFLY_KO" topology=$topo ports=$ports radix=$radix payload_stream_bytes=0 &&
		batch-test /dev/bfly0 strips |
		sed "s/^\(\(not \)\{0,1\}ok - \)/\1batch $topo $ports strips: /"
	bfly_unload
done

echo "# bfly2, 1024 ports, interrupted"
insmod "$BFLY_KO" topology=bfly2 ports=1024 &&
	batch-test /dev/bfly0 long | sed "s/^\(\(not \)\{0,1\}ok - \)/\1batch bfly2 1024: /"
bfly_unload

echo "# butterfly, 2 ports, huge messages, killed"
insmod "$BFLY_KO" topology=butterfly ports=2 &&
	batch-test /dev/bfly0 killed | sed "s/^\(\(not \)\{0,1\}ok - \)/\1batch butterfly 2: /"
bfly_unload
