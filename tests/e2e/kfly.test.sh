#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The k-ary n-fly (kfly) and the flattened butterfly (flatfly): fabrics
# made at load (topology=, radix=, ports=) and the loads refused with a
# reason in the log; then kfly-test on fabrics made by netlink: k = 2
# against the butterfly, destination-digit routing, every setting of the
# 3-ary 2-fly, the figures, port maps and refused input.
. /tests/lib.sh

# All 8! permutations (k = 2 against the butterfly) and all 46656
# settings of the 3-ary 2-fly on the stock kernels; one in 21 and one in
# 13 on the debug kernel, whose ioctls take 0.5 to 1 ms each under
# emulation: its sanitizers need the paths, not every case (the test then
# takes about 25 s; 10 s on stock kernels).
perm_stride=1
set_stride=1
[ -e /sys/kernel/debug/kmemleak ] && perm_stride=21 set_stride=13

bfly_unload
t0=$(cut -d. -f1 /proc/uptime)

# load_good TOPOLOGY RADIX PORTS: the fabric made at load, its figures
load_good() {
	what="insmod topology=$1${2:+ radix=$2} ports=$3"
	if ! insmod "$BFLY_KO" topology=$1 ${2:+radix=$2} ports=$3; then
		not_ok "$what"
		return
	fi
	ok "$what"
	kfly-test device /dev/bfly0 "$(topology_id $1)" "${2:-2}" $3 |
		sed "s/^\(\(not \)\{0,1\}ok - \)/\1$what: /"
	check_eq "$what: sysfs topology" "$1" "$(cat /sys/class/bfly/bfly0/topology)"
	check_eq "$what: sysfs ports" "$3" "$(cat /sys/class/bfly/bfly0/ports)"
	rmmod bfly
}

# load_bad PARAMS: EINVAL, a log line naming radix or ports, nothing left
load_bad() {
	dmesg -c > /dev/null
	out=$(insmod "$BFLY_KO" $1 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && echo "$out" | grep -qF "Invalid argument"; then
		ok "insmod $1 fails: Invalid argument"
	else
		not_ok "insmod $1 fails: Invalid argument (rc=$rc: $out)"
	fi
	if dmesg | grep -qE 'bfly: .*(radix|ports)'; then
		ok "insmod $1 logs: $(dmesg | grep -E 'bfly: .*(radix|ports)' | head -1 | sed 's/^\[[^]]*\] //')"
	else
		not_ok "insmod $1 logs why, naming radix or ports"
		dmesg | tail -3 | sed 's/^/#   /'
	fi
	bfly_loaded && rmmod bfly
	check "insmod $1: no device left" test ! -e /dev/bfly0
}

echo "# fabrics made at load"
load_good kfly 3 27
load_good kfly 5 5
load_good kfly "" 16
load_good flatfly 4 64
load_good butterfly 2 16

# (module-params.test.sh checks the log lines; fabric-new, in kfly-test
# bad, every shape)
echo "# loads refused"
load_bad "topology=kfly radix=0 ports=8"
load_bad "topology=kfly radix=1 ports=8"
load_bad "topology=kfly radix=65 ports=65"
load_bad "topology=butterfly radix=4 ports=16"
load_bad "radix=3 ports=9"
load_bad "topology=kfly radix=3 ports=12"
load_bad "topology=kfly radix=64 ports=16777216"
load_bad "topology=kfly ports=27"
load_bad "topology=flatfly radix=5 ports=5"

echo "# kfly-test on fabrics made by netlink"
if ! insmod "$BFLY_KO" ports=0; then
	not_ok "insmod ports=0"
	exit 0
fi
# Routes applied last: they change the fabric as nothing else does
for part in info maps bad "butterfly $perm_stride" "exhaustive $set_stride" route apply; do
	kfly-test $part
done
# After an oops the module cannot go; leave it so that the VM ends
if dmesg | grep -qE 'Oops|BUG:'; then
	not_ok "kfly: the kernel log has an oops or a BUG; the module stays"
else
	check "rmmod" rmmod bfly
fi
echo "# kfly.test.sh: $(($(cut -d. -f1 /proc/uptime) - t0)) s"
