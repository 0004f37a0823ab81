#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Device node permissions: 0600 root by default, so an unprivileged user
# (nobody, 65534) cannot open it; after the chgrp/chmod the documented
# udev rule does, the group's read-only opens may describe and read the
# fabric but not change it (EBADF), and read-write opens may. The
# fabric's writable sysfs file is root's.
. /tests/lib.sh

bfly_unload
check "insmod" insmod "$BFLY_KO" topology=benes ports=16
check_eq "/dev/bfly0 is mode 600, owner root:root" "600 0 0" \
	"$(stat -c '%a %u %g' /dev/bfly0)"
prefix() { sed "s/^\(\(not \)\{0,1\}ok - \)/\1permissions $1: /"; }

# Each ioctl with each open mode, as root: read access for what reads,
# write access for what changes or drives the fabric
mode-test /dev/bfly0 | prefix "open modes"

runas 65534 65534 perm-test /dev/bfly0 denied | prefix "nobody, mode 0600"

chgrp 65534 /dev/bfly0
chmod 0640 /dev/bfly0
runas 65534 65534 perm-test /dev/bfly0 ro | prefix "group member, mode 0640"
chmod 0660 /dev/bfly0
runas 65534 65534 perm-test /dev/bfly0 rw | prefix "group member, mode 0660"
runas 65534 1000 perm-test /dev/bfly0 denied | prefix "not in the group, mode 0660"

# The fabric's sysfs files: everyone reads them; only root frees the kept
# route workspace (route_ws_bytes, mode 0644)
ws=/sys/class/bfly/bfly0/route_ws_bytes
check_eq "route_ws_bytes is mode 644, owner root" "644 0" "$(stat -c '%a %u' $ws)"
check "nobody reads route_ws_bytes" su -s /bin/sh nobody -c "cat $ws"
refused "nobody cannot write route_ws_bytes" "Permission denied" \
	su -s /bin/sh nobody -c "echo 0 > $ws"
check "root writes 0 to route_ws_bytes" sh -c "echo 0 > $ws"
check "rmmod" rmmod bfly
