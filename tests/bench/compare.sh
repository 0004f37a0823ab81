#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# This tree's algorithms against a base revision's, alternated call by
# call in one process (bench-compare.c): Benes routing, the all-to-all
# schedule and the payload copies.
#
#   tests/bench/compare.sh [BASE]     BASE defaults to HEAD~1
#
# The base's files are taken with git archive, flat (kmod/*.c) or in
# kmod/lib/ and kmod/core/, and built into one object whose global symbols
# get the prefix base_.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
base=${1:-HEAD~1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

git -C "$top" archive "$base" kmod uapi | tar -x -C "$tmp"
if [ -d "$tmp/kmod/lib" ]; then
	lib=$tmp/kmod/lib core=$tmp/kmod/core
else
	lib=$tmp/kmod core=$tmp/kmod
fi
# sources DIR-OF-LIB DIR-OF-CORE: the files the benchmarks need
sources() {
	local f
	for f in wiring trace selfroute benes rls schedule topology kfly topo/butterfly \
		 topo/bfly2 topo/bfly_twice topo/benes topo/kfly topo/flatfly; do
		# only the portable files (the flat layout has a kernel topology.c)
		[ -f "$1/$f.c" ] && grep -q "compat.h" "$1/$f.c" && echo "$1/$f.c"
	done
	echo "$2/msgcopy.c"
}
mapfile -t srcs < <(sources "$lib" "$core")

cflags=(-O2 -Wall -Wextra -Wno-unused-label -falign-functions=64 -falign-loops=64)

# build NAME DIR SRC...: the sources into one relocatable object NAME.o,
# the same way for both trees so that neither gets a better code layout
build() {
	local name=$1 dir=$2 s o objs=()
	shift 2
	mkdir -p "$tmp/obj-$name"
	for s in "$@"; do
		o=$tmp/obj-$name/$(echo "$s" | tr / _).o
		cc "${cflags[@]}" -I"$dir" -I"$dir/kmod" -I"$dir/kmod/lib" -c "$s" -o "$o"
		objs+=("$o")
	done
	ld -r -o "$tmp/$name.o" "${objs[@]}"
}

build base "$tmp" "${srcs[@]}"
nm --defined-only -g "$tmp/base.o" | awk '{ print $3, "base_" $3 }' > "$tmp/syms"
objcopy --redefine-syms="$tmp/syms" "$tmp/base.o" "$tmp/base-renamed.o"
mapfile -t this < <(sources "$top/kmod/lib" "$top/kmod/core")
build this "$top" "${this[@]}"
cc "${cflags[@]}" -I"$top" -I"$top/kmod" -I"$top/kmod/lib" -o "$tmp/bench-compare" \
	"$here/bench-compare.c" "$tmp/base-renamed.o" "$tmp/this.o"
echo "base: $(git -C "$top" rev-parse --short "$base"), this: $(git -C "$top" rev-parse --short HEAD)$(git -C "$top" diff --quiet || echo ' + changes')"
"$tmp/bench-compare"
