#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad module parameters: insmod fails with EINVAL and the kernel log has a
# one-line message naming the parameter and the reason. Nothing is left.
. /tests/lib.sh

bfly_unload

# bad_load PARAMS EXPECTED-LOG-TEXT [ERROR-TEXT]
bad_load() {
	err=${3:-Invalid argument}
	dmesg -c >/dev/null
	out=$(insmod "$BFLY_KO" $1 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && echo "$out" | grep -q "$err"; then
		ok "insmod $1 fails: $err"
	else
		not_ok "insmod $1 fails: $err (rc=$rc: $out)"
	fi
	if dmesg | grep -qF "$2"; then
		ok "insmod $1 logs '$2'"
	else
		not_ok "insmod $1 logs '$2'"
		dmesg | tail -3 | sed 's/^/#   /'
	fi
	check "insmod $1 leaves no module" sh -c '! grep -q "^bfly " /proc/modules'
	check "insmod $1 leaves no device" test ! -e /dev/bfly0
}

bad_load "ports=12" "bfly: ports=12: not a power of two"
bad_load "ports=1" "bfly: ports=1: fewer than 2 ports"
bad_load "ports=3" "bfly: ports=3: not a power of two"
bad_load "ports=2097152" "bfly: ports=2097152: more than 2^20 ports"
bad_load "ports=2147483648" "bfly: ports=2147483648: more than 2^20 ports"
bad_load "topology=omega" "bfly: topology=omega: unknown topology"
bad_load "topology=Benes ports=8" "bfly: topology=Benes: unknown topology"
bad_load "ports=abc" "invalid for parameter \`ports'"
bad_load "ports=-8" "invalid for parameter \`ports'"
# kstrtouint's overflow error, from the kernel's parameter parser
bad_load "ports=4294967296" "invalid for parameter \`ports'" "Numerical result out of range"
# a multibutterfly whose expansion measure's workspace (over 512 KiB) alone
# passes fabric_mem_max: the log names the measure, not the matrix
bad_load "topology=mbfly ports=4096 d=64 seed=3 fabric_mem_max=256K" \
	"bfly: ports=4096: the expansion measure passes the memory limits" \
	"Argument list too long"

# After all that, a good load still works and gets id 0.
check "good insmod after bad ones" insmod "$BFLY_KO" topology=bfly2 ports=16
check "device is bfly0" test -c /dev/bfly0
check "rmmod" rmmod bfly
