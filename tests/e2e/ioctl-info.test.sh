#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# BFLY_IOC_GET_INFO on every topology, with every bad input, through the
# ioctl-info-test program.
. /tests/lib.sh

bfly_unload
for topo in butterfly bfly2 bfly-twice benes; do
	for ports in 4 256; do
		echo "# $topo, $ports ports"
		if ! insmod "$BFLY_KO" topology=$topo ports=$ports; then
			not_ok "insmod topology=$topo ports=$ports"
			continue
		fi
		ioctl-info-test /dev/bfly0 "$(topology_id $topo)" $ports \
			"$(node_stages $topo $ports)" | sed "s/^\(\(not \)\{0,1\}ok - \)/\1$topo $ports: /"
		rmmod bfly
	done
done
