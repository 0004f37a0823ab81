#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Hostile callers of the payload paths, every payload streaming
# (payload_stream_bytes=0; hostile-test): message sizes around the copy's
# borders (N = 4 with 1 MiB messages, N = 27 on the systolic schedule),
# each also into a receive buffer read-only from within a slot; on N = 16
# mappings changed by another thread mid-BATCH and mid-HREL, signals (a
# handler, SIGSTOP and SIGCONT, SIGKILL) mid-BATCH and mid-HREL; BATCH
# and HREL processes on a fabric deleted under them through netlink.
. /tests/lib.sh

bfly_unload
for shape in bfly2:4:2:sizes flatfly:27:3:sizes bfly2:16:2:race bfly2:16:2:signals; do
	IFS=: read -r topo ports radix part <<-EOF2
	$shape
	EOF2
	echo "# $topo, $ports ports, payload_stream_bytes=0: $part"
	if ! insmod "$BFLY_KO" topology=$topo ports=$ports radix=$radix payload_stream_bytes=0; then
		not_ok "hostile: insmod topology=$topo ports=$ports"
		continue
	fi
	hostile-test /dev/bfly0 $part 0.7 | sed "s/^\(\(not \)\{0,1\}ok - \)/\1hostile $topo $ports: /"
	rmmod bfly
done

# BATCH and HREL processes while the fabric is deleted under them
if insmod "$BFLY_KO" ports=0 payload_stream_bytes=0; then
	name=$(bflyctl new bfly2 16)
	hostile-test "/dev/$name" churn 60 > /tmp/hostile-churn.out 2>&1 &
	pid=$!
	sleep 1
	check "hostile: bflyctl del $name under running BATCH and HREL" bflyctl del "$name"
	wait $pid
	sed "s/^\(\(not \)\{0,1\}ok - \)/\1hostile: /" /tmp/hostile-churn.out
	check "hostile: rmmod after the churn" rmmod bfly
else
	not_ok "hostile: insmod ports=0"
fi
