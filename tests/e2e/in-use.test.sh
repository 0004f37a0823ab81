#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A module with an open device cannot be removed; once closed it can.
. /tests/lib.sh

bfly_unload
check "insmod" insmod "$BFLY_KO" topology=butterfly ports=16
exec 4</dev/bfly0
out=$(rmmod bfly 2>&1)
if [ $? -ne 0 ] && bfly_loaded; then
	ok "rmmod refused while /dev/bfly0 is open ($out)"
else
	not_ok "rmmod refused while /dev/bfly0 is open"
fi
check "device still works while rmmod was refused" bfly-info /dev/bfly0
exec 4<&-
check "rmmod after close" rmmod bfly
check "device node gone" test ! -e /dev/bfly0
