#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The pictures of Documentation/pictures/, drawn by the device: the
# pictures end-to-end test prints each figure's DOT between
# "BFLY-DOT-BEGIN NAME" and "BFLY-DOT-END" in a VM's results log.
#
#   tests/pictures.sh update          boot stock 6.12, run the test, write
#                                     Documentation/pictures/NAME.dot and
#                                     NAME.svg (make pictures)
#   tests/pictures.sh check RESULTS   each figure of RESULTS renders with
#                                     Graphviz's neato and equals its
#                                     checked-in DOT; prints TAP lines
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
pics=$top/Documentation/pictures

# extract RESULTS DIR: every figure of RESULTS as DIR/NAME.dot
extract() {
	mkdir -p "$2"
	awk -v dir="$2" '/^BFLY-DOT-BEGIN /{out = dir "/" $2 ".dot"; printf "" > out; next}
		/^BFLY-DOT-END/{out = ""; next}
		out != "" {print > out}' "$1"
}

case ${1:-} in
update)
	"$top/tests/run-e2e.sh" -k 6.12 -u pictures || exit 1
	extract "$top/build/e2e-6.12/results.log" "$pics"
	for d in "$pics"/*.dot; do
		neato -n2 -Tsvg "$d" > "${d%.dot}.svg" || exit 1
		echo "${d#"$top"/} -> $(basename "${d%.dot}.svg")"
	done
	;;
check)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	extract "$2" "$tmp"
	n=0
	for d in "$tmp"/*.dot; do
		[ -e "$d" ] || continue
		name=$(basename "$d" .dot)
		n=$((n + 1))
		if neato -n2 -Tsvg "$d" > "$tmp/$name.svg" 2> "$tmp/$name.err" &&
		   grep -q '</svg>' "$tmp/$name.svg"; then
			echo "ok - picture $name: renders with neato"
		else
			echo "not ok - picture $name: neato: $(head -c 300 "$tmp/$name.err")"
		fi
		if cmp -s "$d" "$pics/$name.dot"; then
			echo "ok - picture $name: as checked in (Documentation/pictures/$name.dot)"
		else
			echo "not ok - picture $name: differs from Documentation/pictures/$name.dot (make pictures)"
			diff -u "$pics/$name.dot" "$d" | head -20 | sed 's/^/#   /'
		fi
	done
	[ "$n" -gt 0 ] || echo "not ok - pictures: the results log has no figure"
	for d in "$pics"/*.dot; do
		[ -e "$tmp/$(basename "$d")" ] ||
			echo "not ok - picture $(basename "$d" .dot): the device drew it no more"
	done
	;;
*)
	sed -n '9,14s/^# \?//p' "$0" >&2
	exit 2
	;;
esac
