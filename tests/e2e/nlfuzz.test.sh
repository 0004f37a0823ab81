#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The bounded random netlink fuzzer (nlfuzz) on the "bfly" family, as root
# (it creates and deletes its own small fabrics, injects and repairs
# faults, and leaves none) and as user nobody on fabrics with and without
# faults (every changing command must get EPERM, nothing may change).
# 10 s and 5 s of fuzzing on the debug kernel, 6 s and 3 s on stock ones,
# where each second does some ten times the debug kernel's operations.
# Prints the seed;
# BFLY_NLFUZZ_SEED=<seed> replays the same operations.
. /tests/lib.sh

bfly_unload
seed=${BFLY_NLFUZZ_SEED:-$(date +%s)}
secs=6
debug_kernel && secs=10
prefix() { sed "s/^\(\(not \)\{0,1\}ok - \)/\1$1: /"; }

if ! insmod "$BFLY_KO" topology=benes ports=8; then
	not_ok "nlfuzz: insmod"
	exit 0
fi
echo "# nlfuzz: seed $seed"
timeout -s KILL $((secs + 120)) nlfuzz $secs 300000 $seed > /tmp/nlfuzz.out 2>&1
rc=$?
prefix "nlfuzz root" < /tmp/nlfuzz.out
[ $rc -le 1 ] || not_ok "nlfuzz root: exit status $rc (seed $seed)"

# Unprivileged, on one fabric of each topology, two of them with faults
for t in butterfly bfly2 bfly-twice; do
	d=$(bflyctl new $t 8) || not_ok "nlfuzz: bflyctl new $t 8"
	[ $t = bfly2 ] && continue
	bflyctl fault add "$d" stuck 0 1 cross link 1 3 stuck 2 0 straight > /dev/null ||
		not_ok "nlfuzz: bflyctl fault add $d"
done
# What unprivileged requests must not change: all but the counters, which
# routes (dry runs need no privilege) update
unchanged() { bflyctl -j list | jq -c 'map(del(.stats))'; }
before=$(unchanged)
timeout -s KILL $((secs / 2 + 120)) runas 65534 65534 nlfuzz $((secs / 2)) 150000 \
	$((seed + 1)) > /tmp/nlfuzz.out 2>&1
rc=$?
prefix "nlfuzz nobody" < /tmp/nlfuzz.out
[ $rc -le 1 ] || not_ok "nlfuzz nobody: exit status $rc (seed $((seed + 1)))"
check_eq "nlfuzz nobody: bflyctl list unchanged but for the counters" "$before" "$(unchanged)"
for d in /dev/bfly*; do
	bflyctl fault clear "$d" > /dev/null || not_ok "nlfuzz: bflyctl fault clear $d"
done
for d in /dev/bfly*; do
	check "nlfuzz: $d still works" bfly-info "$d"
done
check "nlfuzz: rmmod" rmmod bfly
check "nlfuzz: no /dev/bfly* node after rmmod" sh -c '! ls /dev/bfly* 2>/dev/null'
