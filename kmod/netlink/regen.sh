#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate the files derived from Documentation/netlink/specs/bfly.yaml
# with the kernel's tools/net/ynl/ynl-gen-c.py:
#   uapi/linux/bfly_netlink.h   the family's enums (--mode uapi)
#   kmod/netlink/bfly_nl.c, .h  per-op policies and the genl_ops table
#
#   kmod/netlink/regen.sh [-o DIR] [KERNEL-SOURCE]
#
# -o DIR writes the files below DIR (DIR/uapi/linux/, DIR/kmod/netlink/)
# instead of the tree, for comparing them with the checked-in ones.
# KERNEL-SOURCE defaults to the unpacked linux-source-6.12 in $BFLY_CACHE.
# ynl-gen-c.py wants the schema at <spec dir>/../genetlink-legacy.yaml and a
# MAINTAINERS file in a parent directory of the spec, so it runs on a copy.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
dest=$top
if [ "${1:-}" = -o ]; then
	dest=$2
	shift 2
	mkdir -p "$dest/uapi/linux" "$dest/kmod/netlink"
fi
ksrc=${1:-$(ls -d "${BFLY_CACHE:-/var/cache/bfly}"/linux-source-6.12-* | head -1)}
gen=$ksrc/tools/net/ynl/ynl-gen-c.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/Documentation/netlink/specs"
touch "$tmp/MAINTAINERS"
cp "$ksrc/Documentation/netlink/genetlink-legacy.yaml" "$tmp/Documentation/netlink/"
spec=$tmp/Documentation/netlink/specs/bfly.yaml
cp "$top/Documentation/netlink/specs/bfly.yaml" "$spec"

python3 "$gen" --mode uapi --header --spec "$spec" -o "$tmp/bfly_netlink.h"
python3 "$gen" --mode kernel --header --spec "$spec" -o "$tmp/bfly_nl.h"
python3 "$gen" --mode kernel --source --spec "$spec" -o "$tmp/bfly_nl.c"

# The generated files include their header as "bfly-nl.h" and the headers
# of definitions defined elsewhere as <linux/X.h>, once per definition; the
# module finds the uapi headers as <uapi/linux/X.h> (Kbuild's -I$(src)).
for f in "$tmp/bfly_nl.h" "$tmp/bfly_nl.c"; do
	sed -i -e 's|#include "bfly-nl.h"|#include "bfly_nl.h"|' \
	       -e 's|#include <linux/bfly.h>|#include <uapi/linux/bfly.h>|' "$f"
	awk '!(/^#include <uapi\/linux\/bfly.h>$/ && seen++)' "$f" > "$f.tmp"
	mv "$f.tmp" "$f"
done

# The family struct is ours (genetlink-legacy): export the multicast groups
# to it as the ops table is.
ngrp=$(grep -c '^	\[BFLY_NLGRP_' "$tmp/bfly_nl.c")
sed -i 's|^static const struct genl_multicast_group bfly_nl_mcgrps\[\]|const struct genl_multicast_group bfly_nl_mcgrps['"$ngrp"']|' \
	"$tmp/bfly_nl.c"
awk -v n="$ngrp" '/^#endif/ { print "extern const struct genl_multicast_group bfly_nl_mcgrps[" n "];\n" } { print }' \
	"$tmp/bfly_nl.h" > "$tmp/bfly_nl.h.tmp"
mv "$tmp/bfly_nl.h.tmp" "$tmp/bfly_nl.h"

# checkpatch --strict wants a blank line between an enum and its MAX define.
awk '{ if (prev == "};" && /^#define/) print ""; print; prev = $0 }' \
	"$tmp/bfly_netlink.h" > "$dest/uapi/linux/bfly_netlink.h"
cp "$tmp/bfly_nl.h" "$tmp/bfly_nl.c" "$dest/kmod/netlink/"
