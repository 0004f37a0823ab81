#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run some end-to-end tests in one VM: the fast way to try one group.
#
#   tests/run-e2e.sh [-k test|6.1|6.12] [-u] [TEST...]
#
# TEST is a name from tests/e2e/TEST.test.sh (all of them when none is
# given); -k picks the kernel (default: the debug test kernel), -u also
# runs the KUnit suites (debug kernel only). Builds the module and the
# programs, boots the VM, prints its TAP lines and ends with
# "N passed, N failed" counting them and the kernel log check.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
vm=$top/tests/vm
kernel=test
kunit=no
while getopts 'k:u' opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	u) kunit=yes ;;
	*) sed -n '4,13s/^# \?//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
out=$top/build/e2e-$kernel
mkdir -p "$out"

if [ "$kernel" = test ]; then
	kdir=$("$vm/build-test-kernel.sh") || exit 1
	image=$kdir/arch/x86/boot/bzImage
	# without LA57 (tests/vm/run-vm.sh says why)
	export BFLY_VM_CPU=max,la57=off
else
	read -r _ image kdir < <("$vm/stock-kernels.sh" | grep " /usr/src/linux-headers-$kernel\.")
	[ -n "${image:-}" ] || { echo "run-e2e: no stock kernel $kernel" >&2; exit 1; }
fi
"$vm/build-module.sh" "$kdir" "$out/mod" || exit 1
make -s -C "$top/userspace" all || exit 1
make -s -C "$top/tests/e2e" all || exit 1
"$vm/mkinitramfs.sh" "$out/initrd.cpio.gz" "$out/mod" "$top/userspace" "$top/tests/e2e" || exit 1
"$vm/run-vm.sh" "$image" "$out/initrd.cpio.gz" "$out/console.log" "$out/results.log" \
	"${BFLY_VM_TIMEOUT:-900}" bflymode=test "bflykunit=$kunit" \
	"bflytests=$(IFS=,; echo "$*")"
rc=$?

grep -E '^(not )?ok |^# ' "$out/results.log"
passed=$(grep -cE '^ok ' "$out/results.log")
failed=$(grep -cE '^not ok ' "$out/results.log")
if [ $rc -ne 0 ] || ! grep -q '^BFLY-END' "$out/results.log"; then
	echo "run-e2e: the VM did not finish (exit $rc); kernel log: $out/console.log"
	failed=$((failed + 1))
fi
if "$vm/check-log.sh" "$out/console.log" > "$out/check-log.txt"; then
	passed=$((passed + 1))
else
	echo "not ok - kernel log has no KASAN/UBSAN/lockdep/kmemleak/WARN/BUG report"
	sed 's/^/#   /' "$out/check-log.txt"
	failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
