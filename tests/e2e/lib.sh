#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Helpers for bfly's end-to-end tests, run by busybox sh inside the test VM.
# Each check prints one TAP line, "ok - what" or "not ok - what".

: "${BFLY_KO:=/lib/bfly/bfly.ko}"

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds
check() {
	desc=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then
		ok "$desc"
	else
		not_ok "$desc"
		sed 's/^/#   /' /tmp/check.out
	fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1: expected '$2', got '$3'"
	fi
}

# jq_true FILE FILTER: the jq FILTER's last result for FILE's JSON is
# neither false nor null; else FILE is printed (for check's report)
jq_true() {
	jq -e "$2" "$1" > /dev/null && return 0
	echo "jq: not true: $2"
	head -c 3000 "$1"
	return 1
}

# json_has FILE JSON-OBJECT: FILE's object has every key of JSON-OBJECT,
# each with its value
json_has() {
	jq_true "$1" "($2) as \$w | with_entries(select(.key as \$k | \$w | has(\$k))) == \$w"
}

# wait_until SECONDS COMMAND...: poll COMMAND every 0.1 s until it succeeds;
# false if it has not within SECONDS. For what a background process does
# at its own pace (a monitor joining its group, events arriving), where a
# fixed sleep would be too short on a slow VM.
wait_until() {
	tries=$(($1 * 10))
	shift
	while ! "$@" > /dev/null 2>&1; do
		tries=$((tries - 1))
		[ $tries -gt 0 ] || return 1
		sleep 0.1
	done
}

# count_at_least N FILE PATTERN: FILE has N or more lines matching PATTERN
count_at_least() { [ "$(grep -c "$3" "$2" 2>/dev/null)" -ge "$1" ]; }

# refused DESCRIPTION EXPECTED-TEXT COMMAND...: fails, one stderr line
# containing EXPECTED-TEXT. Its stdout stays in /tmp/refused.out.
refused() {
	desc=$1 want=$2
	shift 2
	"$@" > /tmp/refused.out 2> /tmp/refused.err
	rc=$?
	# the lines counted and the one kept by the shell itself: each
	# process costs much on the debug kernel
	rf_lines=0
	while IFS= read -r rf_line; do
		rf_lines=$((rf_lines + 1))
		rf_err=$rf_line
	done < /tmp/refused.err
	if [ $rc -ne 0 ] && [ $rf_lines -eq 1 ] && case "$rf_err" in *"$want"*) true ;; *) false ;; esac; then
		ok "$desc: $rf_err"
	else
		not_ok "$desc: rc=$rc, expected '$want'"
		sed 's/^/#   /' /tmp/refused.err
	fi
}

# Is this the debug test kernel (KASAN, lockdep, kmemleak)? Its tests
# take the code paths the stock kernels take, under the sanitizers, at
# fewer values or iterations where the stock kernels run them all.
debug_kernel() { [ -e /sys/kernel/debug/kmemleak ]; }

# Is the bfly module loaded?
bfly_loaded() { grep -q '^bfly ' /proc/modules; }

# Unload bfly if a test left it loaded.
bfly_unload() { bfly_loaded && rmmod bfly; true; }

# topology_id NAME and $BFLY_TOPOLOGIES, generated from the YNL spec
. /tests/names.gen.sh

# node_stages TOPOLOGY PORTS
node_stages() {
	n=0
	p=$2
	while [ "$p" -gt 1 ]; do p=$((p / 2)); n=$((n + 1)); done
	case "$1" in
	butterfly) echo $n ;;
	bfly2 | benes) echo $((2 * n - 1)) ;;
	bfly-twice) echo $((2 * n)) ;;
	esac
}

# The value of KEY in bfly-info -k output for DEVICE
info_key() { bfly-info -k "$1" | sed -n "s/^$2=//p"; }
