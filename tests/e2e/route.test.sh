#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The routing ioctls on every topology and a few sizes, through the
# route-test program.
. /tests/lib.sh

bfly_unload
for topo in butterfly bfly2 bfly-twice benes; do
	for ports in 2 16 1024; do
		echo "# $topo, $ports ports"
		if ! insmod "$BFLY_KO" topology=$topo ports=$ports; then
			not_ok "insmod topology=$topo ports=$ports"
			continue
		fi
		route-test /dev/bfly0 | sed "s/^\(\(not \)\{0,1\}ok - \)/\1route $topo $ports: /"
		rmmod bfly
	done
done
