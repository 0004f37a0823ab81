#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run every bfly test: builds with W=1 and sparse, checkpatch, the KUnit
# suites and end-to-end tests in the debug test kernel, the KASAN canary,
# and the end-to-end tests again in Debian's stock 6.1 and 6.12 kernels.
#
# Prints one line per group of checks, every failure in full, and ends with
# "N passed, N failed"; exits 1 on any failure. Everything slow to rebuild
# (kernel source, test kernel, stock kernel images) is cached in
# $BFLY_CACHE (default /var/cache/bfly); per-run output goes to build/.
#
#   tests/run-all.sh [-t GROUP[,GROUP...]] [-k KERNEL[,KERNEL...]]
#
# -t runs only the named groups: build (userspace, benchmarks, W=1 and
# sparse), native, mpi (libbfly and bfly-mpi), checkpatch, kernel-doc,
# regen, kunit, canary, package (Debian packages, lintian, make install,
# pkg-config, DKMS for stock 6.1 and a stock 6.1 VM that loads its
# bfly.ko), e2e (every end-to-end test), or the name of one end-to-end
# test (tests/e2e/NAME.test.sh).
# -k runs the VMs of the named kernels only: debug, 6.1, 6.12.
# make check passes T= and KERNELS= as -t and -k.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
vm=$top/tests/vm
out=$top/build/test
export BFLY_CACHE=${BFLY_CACHE:-/var/cache/bfly}
vm_timeout=${BFLY_VM_TIMEOUT:-1500}

groups=
kernels=
while getopts 't:k:' opt; do
	case $opt in
	t) groups=,$OPTARG, ;;
	k) kernels=,$OPTARG, ;;
	*) sed -n '13,22s/^# \?//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

# want GROUP: no -t, or GROUP is in it
want() { [ -z "$groups" ] || [[ $groups == *",$1,"* ]]; }
# want_kernel debug|6.1|6.12: no -k, or the kernel is in it
want_kernel() { [ -z "$kernels" ] || [[ $kernels == *",$1,"* ]]; }

# The end-to-end tests asked for: bflytests= for the VMs ("" for all of
# them), or e2e_none when no end-to-end test is wanted.
e2e_tests=
e2e_none=
if [ -n "$groups" ] && ! want e2e; then
	for g in ${groups//,/ }; do
		[ -f "$top/tests/e2e/$g.test.sh" ] && e2e_tests+=${e2e_tests:+,}$g
		case $g in
		build | native | mpi | checkpatch | kernel-doc | regen | kunit | canary | package | e2e) ;;
		*) [ -f "$top/tests/e2e/$g.test.sh" ] ||
			{ echo "run-all: no group or end-to-end test named $g" >&2; exit 2; } ;;
		esac
	done
	[ -n "$e2e_tests" ] || e2e_none=yes
fi
for k in ${kernels//,/ }; do
	case $k in
	debug | 6.1 | 6.12) ;;
	*) echo "run-all: no kernel named $k (debug, 6.1, 6.12)" >&2; exit 2 ;;
	esac
done

passed=0
failed=0
start=$(date +%s)
rm -rf "$out"
mkdir -p "$out/logs"

log() { printf '[%4ds] %s\n' $(($(date +%s) - start)) "$*"; }
pass() { passed=$((passed + 1)); echo "PASS: $*" >> "$out/results.txt"; }
fail() {
	failed=$((failed + 1))
	echo "FAIL: $*" >> "$out/results.txt"
	echo "FAIL: $*"
}

# run_check NAME COMMAND...: one check; its output is shown when it fails
run_check() {
	local name=$1 logf
	shift
	logf=$out/logs/$(echo "$name" | tr -c 'A-Za-z0-9.-' '_').log
	if "$@" > "$logf" 2>&1; then
		pass "$name"
	else
		fail "$name"
		tail -40 "$logf" | sed 's/^/    /'
	fi
}

# count_tap PREFIX FILE: one check per "ok"/"not ok" line of FILE (TAP
# test numbers, "ok 3 - what", are accepted and dropped)
count_tap() {
	local prefix=$1 file=$2 n_ok=0 n_bad=0 line
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) pass "$prefix: ${line#ok - }"; n_ok=$((n_ok + 1)) ;;
		"not ok - "*) fail "$prefix: ${line#not ok - }"; n_bad=$((n_bad + 1)) ;;
		"#   "*) [ $n_bad -gt 0 ] && echo "    ${line#\#   }" ;;
		esac
	done < <(sed -E 's/^(not )?ok [0-9]+ - /\1ok - /' "$file")
	log "$prefix: $n_ok passed, $n_bad failed"
	[ $((n_ok + n_bad)) -gt 0 ] || fail "$prefix: no end-to-end result at all"
}

# count_kunit PREFIX RESULTS-FILE: parse each suite's KTAP with kunit.py
count_kunit() {
	local prefix=$1 file=$2 suites=0 n_ok=0 n_bad=0 word name ktap
	local kunit_py=$KSRC/tools/testing/kunit/kunit.py
	while read -r ktap; do
		suites=$((suites + 1))
		if ! python3 "$kunit_py" parse --json="$ktap.json" "$ktap" > "$ktap.parse" 2>&1; then
			fail "$prefix: kunit.py parse $(basename "$ktap" .ktap)"
			grep -E 'FAILED|not ok|Expected|# ' "$ktap.parse" | head -30 | sed 's/^/    /'
		fi
		while read -r word name; do
			case "$word" in
			PASS) pass "$prefix: $name"; n_ok=$((n_ok + 1)) ;;
			SKIP) ;;
			*) fail "$prefix: $name"; n_bad=$((n_bad + 1)) ;;
			esac
		done < <(python3 "$vm/kunit-cases.py" "$ktap.json")
	done < <(awk -v dir="$(dirname "$file")" '
		/^BFLY-KTAP-BEGIN / { f = dir "/" $2 ".ktap"; printf "" > f; print f; next }
		/^BFLY-KTAP-END/ { f = ""; next }
		f != "" { print >> f }' "$file")
	log "$prefix: $suites suites, $n_ok cases passed, $n_bad failed"
	[ $suites -gt 0 ] || fail "$prefix: no KUnit suite reported"
}

# vm_start NAME KERNEL MODULE-DIR MODE [ARG...]: pack an initramfs and run
# a VM with bflymode=MODE and the kernel arguments ARG; QEMU's exit status
# goes to $out/NAME.rc. Counts nothing, so several can run in the
# background at once.
vm_start() {
	local name=$1 kernel=$2 moddir=$3 mode=$4 cpu=max ynl=
	shift 4
	# the debug kernel without LA57 (tests/vm/run-vm.sh says why)
	[ "$moddir" = "$out/mod-test" ] && cpu=max,la57=off
	# python3 and YNL only where a test uses them: not in the canary,
	# nor in the debug kernel's two VMs, which run no userland test
	[ "$name" = canary ] || [ "$name" = test-kernel-2 ] ||
		{ [ "$name" = test-kernel ] && [ ${#debug_vms[@]} -gt 1 ]; } && ynl=no
	BFLY_YNL=$ynl "$vm/mkinitramfs.sh" "$out/$name.cpio.gz" "$moddir" "$top/userspace" "$top/tests/e2e"
	# in a subshell of its own, whose "times" are this VM's CPU seconds
	(BFLY_VM_CPU=$cpu "$vm/run-vm.sh" "$kernel" "$out/$name.cpio.gz" "$out/$name.console.log" \
		"$out/$name.results.log" "$vm_timeout" "bflymode=$mode" "$@"
	 rc=$?
	 times > "$out/$name.cpu"
	 exit $rc)
	echo $? > "$out/$name.rc"
}

# vm_booted NAME: one check that the VM ran to its end; sets $console and
# $results
vm_booted() {
	local name=$1 rc first
	console=$out/$name.console.log
	results=$out/$name.results.log
	rc=$(cat "$out/$name.rc" 2>/dev/null || echo none)
	[ -s "$out/$name.cpu" ] && log "$name: the VM's CPU time (user system): $(tail -1 "$out/$name.cpu")"
	if [ -f "$console.boot-crash" ]; then
		log "$name: the kernel crashed or reported before init (before bfly was loaded) and was booted again; first log: $console.boot-crash"
		first=$("$vm/check-log.sh" "$console.boot-crash" | sed -n 's/^\([0-9]*\):.*/\1/p' | head -1)
		[ -z "$first" ] || sed -n "$first,$((first + 40))s/^/    /p" "$console.boot-crash"
	fi
	if [ "$rc" = 0 ] && grep -q '^BFLY-END' "$results"; then
		pass "$name: VM booted, ran and powered off"
	else
		fail "$name: VM booted, ran and powered off (qemu exit $rc)"
		tail -20 "$console" | sed 's/^/    /'
	fi
}

# vm_results NAME: count a test VM's end-to-end and KUnit results and
# check its kernel log
vm_results() {
	local name=$1
	vm_booted "$name"
	[ -n "$e2e_none" ] || count_tap "$name" "$results"
	# the figures the pictures test drew: rendered, and as checked in
	if grep -q '^BFLY-DOT-BEGIN' "$results"; then
		"$top/tests/pictures.sh" check "$results" > "$out/logs/$name-pictures.log" 2>&1
		count_tap "$name: pictures" "$out/logs/$name-pictures.log"
	fi
	if grep -q '^BFLY-KTAP-BEGIN' "$results" ||
	   { [ "$name" = test-kernel ] && want kunit; }; then
		count_kunit "$name: kunit" "$results"
	fi
	run_check "$name: kernel log has no KASAN/UBSAN/lockdep/kmemleak/WARN/BUG report" \
		"$vm/check-log.sh" "$console"
}

# The harness must notice sanitizer reports: the canary VM provoked some.
# A report before init boots the VM again (run-vm.sh), one after fails.
canary_results() {
	local report kind early=$out/logs/early-report

	vm_booted canary
	printf '%s\n' '[ 0.1] x' '[ 0.2] BUG: KASAN: wild-memory-access in f' \
		'[ 0.3] Run /init as init process' > "$early.before"
	printf '%s\n' '[ 0.1] x' '[ 0.3] Run /init as init process' \
		'[ 0.4] BUG: KASAN: slab-out-of-bounds in g' > "$early.after"
	if "$vm/early-report.sh" "$early.before" > /dev/null &&
	   ! "$vm/early-report.sh" "$early.after" > /dev/null &&
	   ! "$vm/early-report.sh" "$console" > /dev/null; then
		pass "canary: early-report.sh tells a report before init from one after"
	else
		fail "canary: early-report.sh tells a report before init from one after"
	fi

	report=$out/logs/canary-check.log
	if "$vm/check-log.sh" "$console" > "$report"; then
		fail "canary: check-log fails a log with sanitizer reports"
	else
		pass "canary: check-log fails a log with sanitizer reports"
	fi
	for kind in 'KASAN:BUG: KASAN: slab-out-of-bounds' 'kmemleak:unreferenced object' \
		    'UBSAN:UBSAN: shift-out-of-bounds'; do
		if grep -q "${kind#*:}" "$report"; then
			pass "canary: check-log reports the provoked ${kind%%:*} report"
		else
			fail "canary: check-log reports the provoked ${kind%%:*} report"
		fi
	done
}

log "debug test kernel: build, or reuse the cached one"
if ! tkdir=$("$vm/build-test-kernel.sh" 2> "$out/logs/test-kernel-build.log"); then
	fail "test kernel: build"
	tail -30 "$out/logs/test-kernel-build.log" | sed 's/^/    /'
	tkdir=
else
	pass "test kernel: build"
fi
KSRC=$(ls -d "$BFLY_CACHE"/linux-source-6.12-* | head -1)
checkpatch=$KSRC/scripts/checkpatch.pl

log "Debian's stock kernels: download, or reuse the cached ones"
mapfile -t stock < <("$vm/stock-kernels.sh" 2> "$out/logs/stock-kernels.log")
[ ${#stock[@]} -eq 2 ] || fail "stock kernels: download"
# Keep the stock kernels -k asks for: "6.1" names 6.1.0-N-amd64
picked=()
for s in "${stock[@]}"; do
	release=${s%% *}
	want_kernel "${release%.*-*}" && picked+=("$s")
done
stock=("${picked[@]}")
want_kernel debug || tkdir=

# What the VMs run: the end-to-end tests asked for, KUnit if asked for
vm_args=(bflytests="${e2e_tests:-}")
[ -n "$e2e_none" ] && vm_args=(bflytests=-)
want kunit || vm_args+=(bflykunit=no)
vms=yes
[ -n "$e2e_none" ] && ! want kunit && ! want canary && vms=

log "building userspace programs and the debug kernel's module"
# The VMs need the programs and the modules whether or not -t names build.
# The debug kernel's VMs start once the programs and their module are
# built; the stock kernels' modules are built meanwhile (below), before
# their VMs start.
if want build || [ -n "$vms" ]; then
	run_check "userspace: build with no warning" \
		sh -c "make -s -C '$top/userspace' clean && make -s -j$(nproc) -C '$top/userspace' all CFLAGS='-O2 -g -Werror' &&
		       make -s -C '$top/tests/e2e' clean && make -s -j$(nproc) -C '$top/tests/e2e' all CFLAGS='-O2 -g -Werror'"
fi
if [ -n "$tkdir" ] && { want build || [ -n "$vms" ]; }; then
	run_check "bfly.ko: W=1 build, test kernel" "$vm/build-module.sh" "$tkdir" "$out/mod-test" W=1
fi

# The VMs mostly keep one CPU busy each. The debug kernel is the slowest
# (KASAN, lockdep, kmemleak): with every end-to-end test asked for, two
# debug VMs share them, every other test each (test-kernel also runs
# KUnit, test-kernel-2 not), one before each stock kernel; the canary
# runs last.
log "VMs: debug test kernel in two halves and canary, alongside Debian's stock kernels"
test_vm=
[ -n "$tkdir" ] && [ -f "$out/mod-test/bfly.ko" ] && test_vm=yes
[ -n "$vms" ] || test_vm=
# The test VM runs when it has end-to-end tests or KUnit to run
test_e2e=yes
[ -z "$e2e_none" ] || want kunit || test_e2e=
# When every test runs: the tests that drive the kernel from userspace
# programs (the bflyctl CLI, the kernel's Python YNL client, the example
# programs) spend their time starting processes; they run on the newest
# stock kernel only. The kernel paths they take run everywhere in the
# other tests (netlink-bad, nlfuzz, fuzz, batch, route, churn, ...). The
# debug kernel's tests are split in two halves so that the two chains of
# VMs end together, by the seconds in tests/e2e/costs.txt (split_debug).
userland_tests=" bflyctl netlink-ynl pictures programs "
# split_debug: sets kernel_tests (every test but the userland ones) and
# halves[0], halves[1], the debug kernel's two VMs' tests. The first
# chain also runs KUnit (about 80 s, loading bfly_kunit.ko included) and
# then the kernel tests on the first stock kernel; the second runs every
# test on the other stock kernel and then the canary (about 50 s). Each
# test, the longest first, goes to the chain that ends sooner so far.
split_debug() {
	local costs=$top/tests/e2e/costs.txt t debug on_stock load0 load1 name
	local -A dcost scost
	while read -r t debug on_stock; do
		[[ $t == "#"* || -z $t ]] && continue
		dcost[$t]=$debug
		scost[$t]=$on_stock
	done < "$costs"
	kernel_tests=
	load0=0
	load1=0
	want kunit && load0=80
	want canary && load1=50
	for t in "$top"/tests/e2e/*.test.sh; do
		t=$(basename "$t" .test.sh)
		if [ -z "${dcost[$t]:-}" ]; then
			log "$t: not in tests/e2e/costs.txt, counted as 30 s (debug) and 10 s (stock)"
			dcost[$t]=30
			scost[$t]=10
		fi
		[ "${scost[$t]}" = - ] && scost[$t]=0
		[ ${#stock[@]} -gt 0 ] && load1=$((load1 + scost[$t]))
		[[ $userland_tests == *" $t "* ]] && continue
		kernel_tests+=${kernel_tests:+,}$t
		[ ${#stock[@]} -gt 1 ] && load0=$((load0 + scost[$t]))
	done
	halves=("" "")
	while read -r debug name; do
		if [ "$load0" -le "$load1" ]; then
			halves[0]+=${halves[0]:+,}$name
			load0=$((load0 + debug))
		else
			halves[1]+=${halves[1]:+,}$name
			load1=$((load1 + debug))
		fi
	done < <(for t in ${kernel_tests//,/ }; do echo "${dcost[$t]} $t"; done | sort -k1,1nr -k2)
	log "debug kernel VMs: ${halves[0]} (with KUnit, about $load0 s in its chain); ${halves[1]} (about $load1 s)"
}
debug_vms=(test-kernel)
debug_args=("${vm_args[@]}")
stock_args=("${vm_args[@]}")
if [ -n "$test_e2e" ] && [ -z "$e2e_tests" ] && [ -z "$e2e_none" ]; then
	split_debug
	debug_vms=(test-kernel test-kernel-2)
	debug_args=("bflytests=${halves[0]}" "${vm_args[@]:1}")
	debug_args2=("bflytests=${halves[1]}" "${vm_args[@]:1}" bflykunit=no)
	stock_args=("bflytests=$kernel_tests" "${vm_args[@]:1}")
fi
# The stock kernels run end-to-end tests only
[ -n "$e2e_none" ] && stock=()
debug_start() {
	[ -n "$test_vm" ] && [ -n "$test_e2e" ] || return 0
	if [ "$1" = test-kernel ]; then
		vm_start test-kernel "$tkdir/arch/x86/boot/bzImage" "$out/mod-test" test \
			"${debug_args[@]}"
	else
		vm_start test-kernel-2 "$tkdir/arch/x86/boot/bzImage" "$out/mod-test" test \
			"${debug_args2[@]}"
	fi
}
# stock_start KERNEL all|kernel: every test, or all but the userland ones,
# once the stock kernels' modules are built (or failed to build)
stock_start() {
	local release vmlinuz kdir
	read -r release vmlinuz kdir <<< "$1"
	while [ ! -e "$out/stock-modules.done" ]; do
		sleep 2
	done
	if [ "$2" = all ]; then
		set -- "${vm_args[@]}"
	else
		set -- "${stock_args[@]}"
	fi
	[ -f "$out/mod-$release/bfly.ko" ] && vm_start "stock-$release" "$vmlinuz" \
		"$out/mod-$release" test "$@"
	return 0
}
# The first half also runs KUnit: the shorter stock run follows it.
(debug_start test-kernel
 [ ${#stock[@]} -gt 1 ] && stock_start "${stock[0]}" kernel
 [ ${#debug_vms[@]} -gt 1 ] || { [ -n "$test_vm" ] && want canary &&
	vm_start canary "$tkdir/arch/x86/boot/bzImage" "$out/mod-test" canary; }) &
([ ${#debug_vms[@]} -gt 1 ] && debug_start test-kernel-2
 [ ${#stock[@]} -gt 1 ] && stock_start "${stock[1]}" all
 [ ${#stock[@]} -eq 1 ] && stock_start "${stock[0]}" all
 [ ${#debug_vms[@]} -gt 1 ] && [ -n "$test_vm" ] && want canary &&
	vm_start canary "$tkdir/arch/x86/boot/bzImage" "$out/mod-test" canary) &

# The stock kernels' modules, while the debug kernel's VMs run; their
# VMs wait for stock-modules.done
[ ${#stock[@]} -eq 0 ] ||
	log "building the stock kernels' modules (the debug kernel's VMs run meanwhile)"
for s in "${stock[@]}"; do
	read -r release vmlinuz kdir <<< "$s"
	if want build || [ -n "$vms" ]; then
		# one build for both: sparse (C=1) reports as W=1 does, "warning:"
		run_check "bfly.ko: W=1 build with sparse (C=1), stock $release" \
			"$vm/build-module.sh" "$kdir" "$out/mod-$release" W=1 C=1
	fi
done
touch "$out/stock-modules.done"

# The checks below need no VM: they run meanwhile, at a lower priority,
# in the cycles the VMs leave.
renice -n 10 $$ > /dev/null
# Installation and packaging (tests/package/check.sh) works in its own
# copy of the tree and starts now, beside the checks below: much of it
# (lintian, dpkg, its VM's boot) keeps one core busy. Its one VM boots
# stock 6.1 for a demo with the installed files and DKMS's bfly.ko.
package_pid=
if want package; then
	log "packaging: Debian packages, lintian, make install, pkg-config, DKMS (meanwhile)"
	"$top/tests/package/check.sh" "$out/package" > "$out/logs/package.log" 2>&1 &
	package_pid=$!
fi
if want build; then
	run_check "benchmarks: build with no warning (run by make bench)" \
		sh -c "make -s -C '$top/tests/bench' clean all static CFLAGS='-Werror'"
fi

if want regen; then
	log "generated netlink code matches the spec"
	run_check "regen: kmod/netlink/regen.sh reproduces the checked-in files" \
		sh -c "rm -rf '$out/regen' && '$top/kmod/netlink/regen.sh' -o '$out/regen' '$KSRC' &&
		       for f in uapi/linux/bfly_netlink.h kmod/netlink/bfly_nl.c kmod/netlink/bfly_nl.h; do
			       diff -u \"$top/\$f\" \"$out/regen/\$f\" || exit 1
		       done"
fi

native=$top/tests/native
want native && log "native: the library's KUnit suites as user programs (-O2, small cache blocks, ASan+UBSan)"
want native && for variant in "plain:cc" "asan-ubsan:cc -g -fsanitize=address,undefined -fno-sanitize-recover=all"; do
	name=${variant%%:*}
	if make -s -j"$(nproc)" -C "$native" clean > /dev/null &&
	   make -s -j"$(nproc)" -C "$native" all CC="${variant#*:}" \
		> "$out/logs/native-$name-build.log" 2>&1; then
		# KTAP as the VM prints it, counted by kunit.py; both programs at once
		pids=()
		for prog in kunit-native kunit-native-tiny; do
			mkdir -p "$out/native-$name-$prog"
			{ "$native/$prog" > "$out/native-$name-$prog/results.log" 2>&1
			  echo $? > "$out/native-$name-$prog/rc"; } &
			pids+=($!)
		done
		wait "${pids[@]}"  # not the VMs'
		for prog in kunit-native kunit-native-tiny; do
			label="native $name kunit${prog#kunit-native}"
			rc=$(cat "$out/native-$name-$prog/rc")
			[ "$rc" = 0 ] || fail "$label: exit status $rc"
			count_kunit "$label" "$out/native-$name-$prog/results.log"
		done
	else
		fail "native $name: build"
		tail -20 "$out/logs/native-$name-build.log" | sed 's/^/    /'
	fi
done
make -s -C "$native" clean
# The SAT model of Documentation/routing.rst: the 2-ary 3-flat's exchange
# fits in 10 cycles, the bound, and not in 9
want native && run_check "tools/flatfly-schedule-sat.py: 2-ary 3-flat in 10 cycles, not 9" \
	sh -c "'$top/tools/flatfly-schedule-sat.py' 8 10 | grep -qx SATISFIABLE &&
	       '$top/tools/flatfly-schedule-sat.py' 8 9 | grep -qx UNSATISFIABLE"

# The LCAN experiments tool (Documentation/lcan-experiments.rst): builds with -Werror,
# runs its quick experiments, repeats a seed's figures, refuses a bad N
want native && run_check "tools/lcan-experiments: quick experiments" \
	make -s -C "$top/tools" clean check

# libbfly (the schedules for user programs) and bfly-mpi, its rounds over
# Open MPI on this machine's cores, every received byte checked
want mpi && log "libbfly and bfly-mpi (Open MPI: 4, 8 and 6 ranks)"
want mpi && run_check "libbfly: builds with -Werror, its tests pass, exports libbfly_* only" \
	make -s -C "$top/userspace/libbfly" clean check CFLAGS='-O2 -g -Werror'
want mpi && run_check "bfly-mpi: all-to-alls and h-relations over MPI, every byte (mpirun -np 4, 8, 6)" \
	make -s -C "$top/userspace/mpi" clean check CFLAGS='-O2 -g -Werror'


# checkpatch: 40 files per perl (its start-up costs as much as a file), one
# batch per core; a file passes when no report names it
want checkpatch && log "checkpatch --strict"
if want checkpatch; then
	rm -rf "$out/checkpatch" && mkdir -p "$out/checkpatch"
	find "$top/kmod" "$top/uapi" "$top/userspace" "$top/tests" "$top/tools" -name '*.[ch]' \
	     ! -name '*.mod.c' | sort > "$out/checkpatch/files"  # kbuild writes *.mod.c
	xargs -P "$(nproc)" -n 40 sh -c 'perl "$0" --strict --no-tree --quiet -f "$@" \
		> "$(mktemp "'"$out"'/checkpatch/batch.XXXXXX")" 2>&1 || echo "exit $?"' \
		"$checkpatch" < "$out/checkpatch/files" > "$out/checkpatch/exits"
	cat "$out"/checkpatch/batch.* > "$out/logs/checkpatch.log"
	while read -r f; do
		if grep -qF "FILE: $f:" "$out/logs/checkpatch.log"; then
			fail "checkpatch: ${f#"$top"/}"
			grep -F -B1 -A3 "FILE: $f:" "$out/logs/checkpatch.log" | sed 's/^/    /'
		else
			pass "checkpatch: ${f#"$top"/}"
		fi
	done < "$out/checkpatch/files"
	# a batch that failed with no file named (perl's own error) is a failure too
	if [ -s "$out/checkpatch/exits" ] && ! grep -q "FILE: " "$out/logs/checkpatch.log"; then
		fail "checkpatch: a batch failed without naming a file"
		head -20 "$out/logs/checkpatch.log" | sed 's/^/    /'
	fi
fi

want kernel-doc && log "kernel-doc"
want kernel-doc && while read -r f; do
	run_check "kernel-doc: ${f#"$top"/}" sh -c "perl '$KSRC/scripts/kernel-doc' -Wall -none '$f' 2>&1 | grep . && exit 1 || exit 0"
done < <(find "$top/kmod" "$top/uapi" -name '*.[ch]' | sort)
want kernel-doc && run_check "Documentation: every .rst parses without a docutils warning" \
	python3 "$top/tests/rst-check.py" "$top"/Documentation/*.rst

if [ -n "$package_pid" ]; then
	wait "$package_pid"
	count_tap package "$out/logs/package.log"
fi
wait
if [ -n "$test_vm" ]; then
	if [ -n "$test_e2e" ]; then
		for v in "${debug_vms[@]}"; do
			vm_results "$v"
		done
	fi
	want canary && canary_results
fi
for s in "${stock[@]}"; do
	read -r release vmlinuz kdir <<< "$s"
	[ -f "$out/mod-$release/bfly.ko" ] && vm_results "stock-$release"
done

log "done in $(($(date +%s) - start)) s; every check is listed in ${out#"$top"/}/results.txt"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
