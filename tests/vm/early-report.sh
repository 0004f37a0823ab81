#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Does a VM's kernel log hold a report from before init started?
#
#   early-report.sh LOG
#
# Exits 0 and prints the report's first line when a line that
# check-log.sh reports comes before "Run /init as init process" (or the
# log has no such line yet), 1 otherwise. No bfly code runs before init:
# init loads the module.
set -uo pipefail

log=$1
vm=$(dirname "$0")
init=$(grep -n -m1 'Run /init as init process' "$log" | cut -d: -f1)
first=$("$vm/check-log.sh" "$log" | sed -n 2p)
[ -n "$first" ] || exit 1
line=${first%%:*}
if [ -z "$init" ] || [ "$line" -lt "$init" ]; then
	echo "$first"
	exit 0
fi
exit 1
