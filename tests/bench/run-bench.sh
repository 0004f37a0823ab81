#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every benchmark, then one table of their figures (not a pass/fail test):
#   - natively, the programs of tests/bench/Makefile's `all`;
#   - in a VM on Debian's stock 6.12 kernel (TCG), bench-ioctl (the
#     BFLY_IOC_ROUTE ioctl next to the same code as a user program) and
#     bench-batch (the BFLY_IOC_BATCH ioctl next to the same code as a
#     user program, the issue's VM target; and next to memcpy and a
#     blocked transpose, reported without a target: under TCG they
#     compare QEMU's emulation of two access patterns), tests/vm/init.sh's
#     bflymode=bench.
#
#   tests/bench/run-bench.sh [--native | --vm [ioctl|batch]] [--table LOG...]
#
# Each program's whole output goes to build/bench/<program>.log (the VM's to
# vm.log); the table collects their figure lines,
#   ratio: <figure> | <median>x | spread <min>x-<max>x | target <op> <t>x | met
# (a figure without a target: `target - | checked`), and a program that exits non-zero (a wrong result) is listed as FAILED.
# --native runs only the native programs, --vm only the VM (with ioctl or
# batch, only bench-ioctl or bench-batch in it); --table LOG...
# prints the table of logs already written.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
vmdir=$top/tests/vm
out=$top/build/bench
native=1 vm=1 vmpart=
mkdir -p "$out/bin"

table() {
	awk -F'|' '
	function trim(s) { gsub(/^[ \t\r]+|[ \t\r]+$/, "", s); return s }
	FNR == 1 { prog = FILENAME; sub(/.*\//, "", prog); sub(/\.log$/, "", prog) }
	{ sub(/\r$/, "") }
	/^FAILED / { fail[++nf] = $0; next }
	/^ratio:/ {
		f = $1; sub(/^ratio:[ \t]*/, "", f)
		n++
		fig[n] = prog ": " trim(f); r[n] = trim($2); sp[n] = trim($3)
		sub(/^spread /, "", sp[n]); tg[n] = trim($4); st[n] = trim($5)
		sub(/^target /, "", tg[n])
		cnt[st[n]]++
		if (length(fig[n]) > w) w = length(fig[n])
	}
	END {
		printf "%-*s  %8s  %-15s  %-9s  %s\n", w, "figure", "ratio", "spread", "target", "status"
		for (i = 1; i <= n; i++)
			printf "%-*s  %8s  %-15s  %-9s  %s\n", w, fig[i], r[i], sp[i], tg[i], st[i]
		for (i = 1; i <= nf; i++)
			print fail[i]
		printf "%d figures: %d met, %d MISSED, %d WRONG, %d without a target; %d programs FAILED\n",
		       n, cnt["met"], cnt["MISSED"], cnt["WRONG"], cnt["checked"], nf
	}' "$@"
}

case "${1:-}" in
--native) vm= ;;
--vm) native= vmpart=${2:-} ;;
--table) shift; table "$@"; exit 0 ;;
esac

logs=()
[ -z "$native" ] || make -s -C "$top/tests/bench" all
for prog in bench-O2 bench-O3 bench-sched bench-a2a bench-kfly bench-flatfly \
	    bench-lcan bench-hrel bench-mbfly bench-hrel-payload; do
	[ -n "$native" ] || break
	log=$out/$prog.log
	start=$SECONDS
	rc=0
	"$top/tests/bench/$prog" > "$log" 2>&1 || rc=$?
	[ "$rc" = 0 ] || echo "FAILED $prog: exit $rc (see $log)" >> "$log"
	echo "$prog: $((SECONDS - start)) s, $(grep -c '^ratio:' "$log" || true) figures" >&2
	logs+=("$log")
done

# bfly's rounds over Open MPI against MPI_Alltoall(v): figures without a
# target (userspace/mpi, Documentation/mpi.rst)
if [ -n "$native" ] && command -v mpirun > /dev/null; then
	log=$out/bfly-mpi.log
	make -s -C "$top/userspace/mpi" bench > "$log" 2>&1 ||
		echo "FAILED bfly-mpi: exit $? (see $log)" >> "$log"
	logs+=("$log")
fi

if [ -n "$vm" ]; then
	start=$SECONDS
	read -r release vmlinuz kdir < <("$vmdir/stock-kernels.sh" | grep ' /usr/src/linux-headers-6\.12')
	"$vmdir/build-module.sh" "$kdir" "$out/mod" W=1 > "$out/vm-build.log" 2>&1
	make -s -C "$top/tests/bench" static
	cp "$top/tests/bench/bench-ioctl" "$out/bin/bench-ioctl"
	cp "$top/tests/bench/bench-batch" "$out/bin/bench-batch"
	"$vmdir/mkinitramfs.sh" "$out/initrd.cpio.gz" "$out/mod" "$out/bin"
	# 1 GiB buffers at most (N = 256, 4 KiB messages: three of 256 MiB)
	vmrc=0
	BFLY_VM_MEM=4G "$vmdir/run-vm.sh" "$vmlinuz" "$out/initrd.cpio.gz" "$out/console.log" \
		"$out/results.log" 1200 bflymode=bench ${vmpart:+bflytests=$vmpart} || vmrc=$?
	sed -n '/^BFLY-BEGIN/,/^BFLY-END/{/^BFLY-/d;p}' "$out/results.log" > "$out/vm.log"
	grep -q '^BFLY-END' "$out/results.log" ||
		echo "FAILED vm ($release): no end marker, run-vm.sh exit $vmrc (see $out/console.log)" \
			>> "$out/vm.log"
	echo "vm ($release): $((SECONDS - start)) s, $(grep -c '^ratio:' "$out/vm.log" || true) figures" >&2
	logs+=("$out/vm.log")
fi

echo "== figures (whole outputs in $out/*.log)"
table "${logs[@]}"
