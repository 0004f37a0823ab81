#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Many threads in several processes on one fabric at once (stress-test),
# while rmmod and a second insmod are tried again and again: both must be
# refused and nothing may break. 10 s a fabric on the debug kernel, 5 s
# on stock ones.
. /tests/lib.sh

bfly_unload
secs=5
debug_kernel && secs=10
for spec in "benes 32" "butterfly 16"; do
	set -- $spec
	what="stress $1 $2"
	if ! insmod "$BFLY_KO" topology=$1 ports=$2; then
		not_ok "$what: insmod"
		continue
	fi
	# The shell holds the device open too: once stress-test has exited
	# (closing its files) it stays a zombie until waited for, and kill -0
	# still succeeds, so without this rmmod could rightly succeed.
	exec 3<> /dev/bfly0
	stress-test /dev/bfly0 $secs 3 7 3<&- > /tmp/stress.out 2>&1 &
	pid=$!
	tries=0
	bad=
	sleep 1
	while kill -0 $pid 2>/dev/null; do
		tries=$((tries + 1))
		if rmmod bfly 2> /tmp/rmmod.err; then
			bad="rmmod succeeded while the device was open"
			break
		fi
		grep -qiE 'temporarily unavailable|busy|in use' /tmp/rmmod.err ||
			bad="rmmod: $(cat /tmp/rmmod.err)"
		bfly_loaded || bad="module gone after a refused rmmod"
		insmod "$BFLY_KO" 2> /dev/null && bad="second insmod succeeded"
		sleep 0.5
	done
	wait $pid
	rc=$?
	exec 3<&-
	sed "s/^\(\(not \)\{0,1\}ok - \)/\1$what: /" /tmp/stress.out
	check_eq "$what: stress-test exit status" 0 $rc
	if [ -z "$bad" ] && [ $tries -gt 0 ]; then
		ok "$what: rmmod refused $tries times while in use ($(cat /tmp/rmmod.err)), insmod again refused"
	else
		not_ok "$what: rmmod/insmod while in use: ${bad:-never tried}"
	fi
	check "$what: device works after the stress" bfly-info /dev/bfly0
	check "$what: rmmod once closed" rmmod bfly
	check "$what: device node gone" test ! -e /dev/bfly0
done
