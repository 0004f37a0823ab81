#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The bounded random ioctl fuzzer on every topology at three sizes: 3 s a
# fabric on the debug kernel (about 2000 operations a fabric, under
# KASAN, lockdep and kmemleak), 2 s on the stock kernels (about 35000
# operations a fabric, on each of the two). It gives the fabric a
# new set of faults (through netlink) every 64 to 320 operations and runs
# one phase in four under a tight fabric_mem_max; it leaves no fault and
# restores the limit. Prints the seed (BFLY_FUZZ_SEED=<seed> replays the
# same operations) and the operations done.
. /tests/lib.sh

bfly_unload
seed=${BFLY_FUZZ_SEED:-$(date +%s)}
secs=2
debug_kernel && secs=3
echo "# fuzz: seed $seed, $secs s per fabric"
i=0
total=0
for topo in butterfly bfly2 bfly-twice benes; do
	for ports in 2 8 32; do
		i=$((i + 1))
		echo "# fuzz $topo, $ports ports, seed $((seed + i))"
		if ! insmod "$BFLY_KO" topology=$topo ports=$ports; then
			not_ok "insmod topology=$topo ports=$ports"
			continue
		fi
		timeout -s KILL $((secs + 120)) \
			fuzz-ioctl /dev/bfly0 $secs 200000 $((seed + i)) > /tmp/fuzz.out 2>&1
		rc=$?
		sed "s/^\(\(not \)\{0,1\}ok - \)/\1fuzz $topo $ports: /" /tmp/fuzz.out
		ops=$(sed -n 's/^# \([0-9]*\) operations,.*/\1/p' /tmp/fuzz.out)
		total=$((total + ${ops:-0}))
		[ $rc -le 1 ] || not_ok "fuzz $topo $ports: fuzz-ioctl exit status $rc (seed $((seed + i)))"
		check "fuzz $topo $ports: device still works" bfly-info /dev/bfly0
		check "fuzz $topo $ports: rmmod" rmmod bfly
	done
done
echo "# fuzz: $total operations on $i fabrics (seed $seed)"
