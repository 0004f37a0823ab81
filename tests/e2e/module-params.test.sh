#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every module parameter, the read-only ones included, given at load time
# with good and bad values, and written at run time. A parameter the
# module has but this test does not know fails the test. The byte sizes'
# parser gets its every value on the stock kernels; on the debug kernel,
# where each load takes seconds, fabric_mem_max gets four that take the
# parser's paths the other sizes' values do not.
. /tests/lib.sh

P=/sys/module/bfly/parameters
KNOWN="batch_max_bytes d fabric_mem_max mem_bytes mem_peak_bytes module_mem_max payload_stream_bytes ports radix seed topology up"
SIZES="batch_max_bytes fabric_mem_max module_mem_max payload_stream_bytes"
READ_ONLY="d mem_bytes mem_peak_bytes ports radix seed topology up"

bfly_unload

# load_ok PARAMS: insmod succeeds; the module stays loaded
load_ok() {
	if out=$(insmod "$BFLY_KO" $1 2>&1); then
		ok "insmod $1 loads"
	else
		not_ok "insmod $1 loads: $out"
		dmesg | tail -3 | sed 's/^/#   /'
	fi
}

# load_bad PARAMS ERROR-TEXT LOG-TEXT: insmod fails with ERROR-TEXT, the
# log has LOG-TEXT, nothing is left behind
load_bad() {
	dmesg -c > /dev/null
	out=$(insmod "$BFLY_KO" $1 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && echo "$out" | grep -qF "$2"; then
		ok "insmod $(echo "$1" | cut -c1-60) fails: $2"
	else
		not_ok "insmod $(echo "$1" | cut -c1-60) fails: $2 (rc=$rc: $out)"
	fi
	if dmesg | grep -qF -- "$3"; then
		ok "insmod $(echo "$1" | cut -c1-60) logs '$3'"
	else
		not_ok "insmod $(echo "$1" | cut -c1-60) logs '$3'"
		dmesg | tail -3 | sed 's/^/#   /'
	fi
	check "... leaves no module" sh -c '! grep -q "^bfly " /proc/modules'
	check "... leaves no device" test ! -e /dev/bfly0
}

echo "# every parameter is known to this test"
load_ok "ports=0"
for p in $(ls $P); do
	case " $KNOWN " in
	*" $p "*) ok "parameter $p is tested" ;;
	*) not_ok "parameter $p is tested: add it to module-params.test.sh" ;;
	esac
	check "parameter $p reads" cat "$P/$p"
done
check "rmmod" rmmod bfly

echo "# byte sizes: plain numbers and K, M, G, T suffixes"
# The four sizes share one parser: every value on fabric_mem_max (four
# on the debug kernel), a good one and two bad ones on each of the others.
for p in $SIZES; do
	good="96M:100663296"
	bad="abc 16E"
	if [ $p = fabric_mem_max ] && debug_kernel; then
		# the parser's paths the others do not take: hex, zero,
		# empty, past 2^64 before any suffix
		good="0x1000:4096 0:0"
		bad="empty 18446744073709551616"
	elif [ $p = fabric_mem_max ]; then
		good="4096:4096 96M:100663296 1G:1073741824 3k:3072 0x1000:4096 1T:1099511627776 0:0"
		bad="abc -1 empty 12Q 1M2 18446744073709551616 16E"
	fi
	for v in $good; do
		load_ok "ports=0 $p=${v%%:*}"
		check_eq "$p=${v%%:*} reads ${v#*:}" "${v#*:}" "$(cat $P/$p)"
		rmmod bfly
	done
	for v in $bad; do
		[ $v = empty ] && v=
		case $v in
		18446744073709551616 | 16E)
			load_bad "ports=0 $p=$v" "Numerical result out of range" "$p=$v: more than" ;;
		*)
			load_bad "ports=0 $p=$v" "Invalid argument" "$p=$v: not a size" ;;
		esac
	done
done

echo "# limits too small for the fabric created at load"
load_bad "ports=1024 fabric_mem_max=4K" "Argument list too long" \
	"ports=1024: the fabric's switch matrix passes the memory limits"
load_bad "ports=1024 module_mem_max=4K" "Argument list too long" \
	"ports=1024: the fabric's switch matrix passes the memory limits"

echo "# read-only figures cannot be given at load"
for p in mem_bytes mem_peak_bytes; do
	for v in 1 0 abc; do
		load_bad "$p=$v" "Invalid argument" "$p: read only"
	done
done

echo "# topology: names only"
long=$(printf '%01100d' 0 | tr 0 a)
load_bad "topology=$long" "Invalid argument" "topology=aaaaaaaaaaaaaaaa"
load_bad "topology=" "Invalid argument" "topology=: unknown topology"
load_bad "topology=benes2" "Invalid argument" "topology=benes2: unknown topology"

echo "# radix: k x k switches for kfly and flatfly"
load_ok "topology=kfly radix=4 ports=64"
check_eq "radix reads its number" 4 "$(cat $P/radix)"
check_eq "the fabric's radix (sysfs)" 4 "$(cat /sys/class/bfly/bfly0/radix)"
check_eq "the fabric's node stages (sysfs)" 3 "$(cat /sys/class/bfly/bfly0/node_stages)"
check "rmmod" rmmod bfly
load_ok "topology=flatfly radix=3 ports=27"
check_eq "the flatfly's radix (sysfs)" 3 "$(cat /sys/class/bfly/bfly0/radix)"
check "rmmod" rmmod bfly
load_ok "topology=kfly ports=8"
check_eq "radix defaults to 2" 2 "$(cat /sys/class/bfly/bfly0/radix)"
check "rmmod" rmmod bfly
load_bad "topology=kfly radix=1 ports=8" "Invalid argument" "radix=1: the switch radix is 2 to 64"
load_bad "topology=kfly radix=65 ports=65" "Invalid argument" "radix=65: the switch radix is 2 to 64"
load_bad "topology=kfly radix=abc" "Invalid argument" "invalid for parameter"
load_bad "topology=kfly radix=-1" "Invalid argument" "invalid for parameter"
load_bad "topology=kfly radix=3 ports=12" "Invalid argument" "ports=12: not a power of k"
load_bad "topology=kfly radix=64 ports=16777216" "Invalid argument" "ports=16777216: at most 2^20"
load_bad "topology=benes radix=4 ports=16" "Invalid argument" "radix=4: the switches of this topology are 2 x 2"
load_bad "topology=flatfly radix=8 ports=8" "Invalid argument" "a flattened butterfly needs k^2 ports at least"

echo "# d and seed: a multibutterfly's"
load_ok "topology=mbfly ports=16 d=2 seed=77"
check_eq "d reads its number" 2 "$(cat $P/d)"
check_eq "seed reads its number" 77 "$(cat $P/seed)"
check "the log reports d, the seed and the expansion" sh -c \
	"dmesg | grep -q 'bfly0: multibutterfly d=2 seed=77, expansion: beta .* at alpha 8/16 (exhaustive)'"
check "rmmod" rmmod bfly
load_ok "topology=mbfly ports=8"
check "seed 0: the module picks one and logs it" sh -c \
	"dmesg | grep -q 'bfly0: multibutterfly d=8 seed=[1-9][0-9]*, expansion'"
check "rmmod" rmmod bfly
load_bad "topology=mbfly ports=8 d=65" "Invalid argument" "d=65: a multibutterfly's d is 1 to 64"
load_bad "topology=mbfly ports=12 d=2" "Invalid argument" "ports=12: a multibutterfly has N = 2^n ports"
load_bad "topology=mbfly ports=2097152 d=2" "Invalid argument" "ports=2097152: a multibutterfly has N = 2^n ports"
load_bad "topology=mbfly ports=8 radix=4" "Invalid argument" "radix=4: a multibutterfly's radix is 2"
load_bad "topology=mbfly ports=8 d=abc" "Invalid argument" "invalid for parameter"
load_bad "topology=mbfly ports=8 seed=-1" "Invalid argument" "invalid for parameter"
load_bad "topology=benes ports=8 d=2" "Invalid argument" "d=2: only a multibutterfly"
load_bad "topology=benes ports=8 seed=5" "Invalid argument" "seed=5: only a multibutterfly"

echo "# up: the uppers of an LCAN's switches"
load_ok "topology=cb-lcan radix=2 up=2 ports=8"
check_eq "up reads its number" 2 "$(cat $P/up)"
check_eq "topology reads cb-lcan" cb-lcan "$(cat $P/topology)"
check "the LCAN made at load: d = 2, u = 2, l = 3" sh -c \
	"bflyctl show bfly0 | grep -q '(d = 2 downers, u = 2 uppers, l = 3 levels)'"
check "rmmod" rmmod bfly
load_ok "topology=t-lcan radix=4 up=2 ports=16"
check "rmmod" rmmod bfly
load_ok "topology=fattree radix=3 up=2 ports=27"
check "rmmod" rmmod bfly
load_ok "topology=butterfly ports=8"
check_eq "up defaults to 0" 0 "$(cat $P/up)"
check "rmmod" rmmod bfly
load_bad "topology=cb-lcan radix=2 ports=8" "Invalid argument" "up=0: missing: an LCAN's switches have u uppers"
load_bad "topology=cb-lcan radix=2 up=65 ports=8" "Invalid argument" "up=65: the uppers u of a switch are 1 to 64"
load_bad "topology=t-lcan radix=4 up=4 ports=16" "Invalid argument" "up=4: a T-LCAN(d,u) needs u < d"
load_bad "topology=kfly radix=2 up=2 ports=8" "Invalid argument" "up=2: only an LCAN's switches have uppers"
load_bad "topology=cb-lcan radix=2 up=2 ports=12" "Invalid argument" "ports=12: "
load_bad "topology=cb-lcan up=abc" "Invalid argument" "invalid for parameter"
load_bad "topology=cb-lcan up=-1" "Invalid argument" "invalid for parameter"

echo "# ports=0: no fabric, and the other parameters are checked all the same"
# The debug kernel, where each load takes seconds, gets one good and one
# bad load on each of the two paths (a multibutterfly's and the others').
load_ok "ports=0 topology=kfly radix=4"
check "rmmod" rmmod bfly
load_ok "ports=0 topology=mbfly d=2 seed=7"
check "rmmod" rmmod bfly
load_bad "ports=0 topology=kfly radix=65" "Invalid argument" "radix=65: the switch radix is 2 to 64"
load_bad "ports=0 topology=mbfly d=65" "Invalid argument" "d=65: a multibutterfly's d is 1 to 64"
if ! debug_kernel; then
	load_ok "ports=0 topology=t-lcan radix=4 up=2"
	check "rmmod" rmmod bfly
	load_bad "ports=0 radix=4" "Invalid argument" "radix=4: the switches of this topology are 2 x 2"
	load_bad "ports=0 topology=cb-lcan radix=2 up=65" "Invalid argument" \
		"up=65: the uppers u of a switch are 1 to 64"
	load_bad "ports=0 topology=t-lcan radix=4 up=4" "Invalid argument" "up=4: a T-LCAN(d,u) needs u < d"
	load_bad "ports=0 topology=cb-lcan radix=2" "Invalid argument" \
		"up=0: missing: an LCAN's switches have u uppers"
	load_bad "ports=0 up=2" "Invalid argument" "up=2: only an LCAN's switches have uppers"
	load_bad "ports=0 d=2" "Invalid argument" "d=2: only a multibutterfly"
	load_bad "ports=0 seed=5" "Invalid argument" "seed=5: only a multibutterfly"
	load_bad "ports=0 topology=mbfly radix=4" "Invalid argument" "radix=4: a multibutterfly's radix is 2"
fi

echo "# run time: sizes are written, read-only parameters are not"
load_ok "topology=butterfly ports=16"
for p in $SIZES; do
	old=$(cat $P/$p)
	check "write $p=64M" sh -c "echo 64M > $P/$p"
	check_eq "$p reads 67108864" 67108864 "$(cat $P/$p)"
	check "write $p=abc fails" sh -c "! echo abc > $P/$p"
	check "write $p=99999999999999999999 fails" sh -c "! echo 99999999999999999999 > $P/$p"
	check_eq "$p unchanged" 67108864 "$(cat $P/$p)"
	echo "$old" > $P/$p
	check_eq "$p restored" "$old" "$(cat $P/$p)"
done
for p in $READ_ONLY; do
	old=$(cat $P/$p)
	check "write $p fails" sh -c "! echo 1 > $P/$p"
	check_eq "$p unchanged" "$old" "$(cat $P/$p)"
done
check_eq "the module's version (modinfo, /sys/module/bfly/version) is the programs'" \
	"$(bfly-info --version | cut -d' ' -f2)" "$(cat /sys/module/bfly/version)"
check_eq "topology reads its name" butterfly "$(cat $P/topology)"
check_eq "ports reads its number" 16 "$(cat $P/ports)"
check "the fabric works after all that" bfly-info /dev/bfly0
check "rmmod" rmmod bfly
