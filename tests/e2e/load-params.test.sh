#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Loading bfly.ko with good parameters creates /dev/bfly0 with the right
# geometry; unloading removes it. Every topology at five sizes on the
# stock kernels; at the smallest and the largest on the debug kernel,
# where each load takes seconds (the same code at every size).
. /tests/lib.sh

bfly_unload
sizes="2 8 64 1024 1048576"
debug_kernel && sizes="2 1048576"
for topo in butterfly bfly2 bfly-twice benes; do
	for ports in $sizes; do
		what="insmod topology=$topo ports=$ports"
		if ! insmod "$BFLY_KO" topology=$topo ports=$ports; then
			not_ok "$what"
			continue
		fi
		ok "$what"
		stages=$(node_stages $topo $ports)
		check "$what: /dev/bfly0 is a char device" test -c /dev/bfly0
		check_eq "$what: topology" "$topo" "$(info_key /dev/bfly0 topology)"
		check_eq "$what: ports" "$ports" "$(info_key /dev/bfly0 ports)"
		check_eq "$what: node_stages" "$stages" "$(info_key /dev/bfly0 node_stages)"
		check_eq "$what: nodes_per_stage" "$((ports / 2))" \
			"$(info_key /dev/bfly0 nodes_per_stage)"
		check_eq "$what: switches" "$((stages * ports / 2))" \
			"$(info_key /dev/bfly0 switches)"
		check_eq "$what: sysfs topology" "$topo" "$(cat /sys/class/bfly/bfly0/topology)"
		check_eq "$what: sysfs ports" "$ports" "$(cat /sys/class/bfly/bfly0/ports)"
		check "$what: rmmod" rmmod bfly
		check "$what: /dev/bfly0 removed" test ! -e /dev/bfly0
	done
done

# Defaults: a benes fabric with 8 ports
check "insmod without parameters" insmod "$BFLY_KO"
check_eq "default topology" benes "$(info_key /dev/bfly0 topology)"
check_eq "default ports" 8 "$(info_key /dev/bfly0 ports)"
check "rmmod" rmmod bfly

# ports=0: the module loads with no fabric
check "insmod ports=0" insmod "$BFLY_KO" ports=0
check "ports=0: no device" test ! -e /dev/bfly0
check "ports=0: class registered" test -d /sys/class/bfly
check "rmmod" rmmod bfly
check "class removed on rmmod" test ! -e /sys/class/bfly
