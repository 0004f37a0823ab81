#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every ioctl on an open file of a deleted fabric answers ENODEV
# (deleted-test), on a fabric of each family: the request is valid, the
# fabric gone before it starts.
. /tests/lib.sh

bfly_unload
if ! insmod "$BFLY_KO" ports=0; then
	not_ok "deleted: insmod ports=0"
	exit 0
fi
for shape in "benes 8" "butterfly 8" "bfly2 8" "bfly-twice 8" "kfly 9 radix 3" \
	"flatfly 16 radix 4" "flatfly 8 radix 2" "cb-lcan 16 radix 2 up 2" \
	"t-lcan 16 radix 4 up 2" "fattree 16 radix 4 up 2" "mbfly 16 d 4 seed 3"; do
	# shellcheck disable=SC2086 # the shape is words
	name=$(bflyctl new $shape) || { not_ok "deleted: bflyctl new $shape"; continue; }
	deleted-test "/dev/$name" "$name" | sed "s/^\(\(not \)\{0,1\}ok - \)/\1$shape: /"
done
check "deleted: rmmod" rmmod bfly
