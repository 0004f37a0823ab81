#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scan a VM's kernel log for reports that fail a test run: KASAN, UBSAN,
# lockdep, kmemleak, WARN, BUG, Oops, panics, stalls and hung tasks.
#
#   check-log.sh LOG
#
# Prints every matching line (at most 100) and exits 1 if
# there is any, 0 if the log is clean.
set -uo pipefail

log=$1
patterns=(
	'BUG: '				# KASAN, sleeping in atomic, bad page, ...
	'WARNING: '			# WARN_ON, lockdep warnings
	'UBSAN: '
	'Oops'
	'kernel BUG at'
	'Kernel panic'
	'general protection fault'
	'unreferenced object 0x'	# kmemleak
	'possible recursive locking'
	'possible circular locking'
	'inconsistent lock state'
	'INFO: task .* blocked for more than'
	'rcu_.*detected stalls'
	'Call Trace:'
)
regex=$(IFS='|'; echo "${patterns[*]}")
if grep -nE "$regex" "$log" > /dev/null; then
	echo "check-log: reports in $log:"
	grep -nE "$regex" "$log" | head -100
	exit 1
fi
exit 0
