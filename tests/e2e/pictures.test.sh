#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Pictures of fabrics (bflyctl show and route, format dot): the figures of
# Documentation/pictures/ drawn from the device, each printed between
# BFLY-DOT-BEGIN NAME and BFLY-DOT-END for the host to render with
# Graphviz and compare with the checked-in ones (tests/run-all.sh, make
# pictures); the graphs' shape checked here; bad requests refused.
. /tests/lib.sh

bfly_unload
check "insmod ports=0" insmod "$BFLY_KO" ports=0

# picture NAME COMMAND...: COMMAND's DOT (exit status 0, or 1 for a route
# refused for its conflicts) kept as /tmp/NAME.dot and printed
picture() {
	name=$1
	shift
	"$@" > "/tmp/$name.dot" 2> /tmp/picture.err
	rc=$?
	if [ $rc -le 1 ] && head -1 "/tmp/$name.dot" | grep -q '^digraph ' &&
	   tail -1 "/tmp/$name.dot" | grep -qx '}'; then
		ok "$name: a DOT graph (exit $rc)"
	else
		not_ok "$name: exit $rc, $(head -c 200 /tmp/picture.err)"
	fi
	echo "BFLY-DOT-BEGIN $name"
	cat "/tmp/$name.dot"
	echo "BFLY-DOT-END"
}

# count NAME PATTERN: lines of NAME's DOT matching PATTERN
count() {
	grep -c -- "$2" "/tmp/$1.dot"
}

# The RLS paper's Fig. 3: on the 16-port butterfly, its non-admissible
# permutation, the nodes where packets meet asking for one output in red.
fig3=0,14,2,12,4,10,6,8,7,3,5,11,9,13,1,15
b16=$(bflyctl new butterfly 16)
picture rls-fig3-conflict bflyctl route "$b16" dry-run format dot perm $fig3
check_eq "rls-fig3-conflict: conflicting nodes filled red, as many as the device reports" \
	"$(bflyctl -j route "$b16" dry-run perm $fig3 | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["conflict_list"]))')" \
	"$(count rls-fig3-conflict 'fillcolor="#ffd0d0"')"
check "rls-fig3-conflict: deflected packets dashed" grep -q 'style=dashed' /tmp/rls-fig3-conflict.dot
check_eq "rls-fig3-conflict: 32 nodes, 16 inputs, 16 outputs" "32 16 16" \
	"$(count rls-fig3-conflict '^  s[0-9]*n[0-9]* \[pos') $(count rls-fig3-conflict '^  in[0-9]* \[') $(count rls-fig3-conflict '^  out[0-9]* \[')"
check_eq "rls-fig3-conflict: 16 + 48 + 16 links" 80 "$(count rls-fig3-conflict ' -> ')"
bf=$(bflyctl new butterfly 8)

# A Benes route: the reversal, applied, drawn from the device's settings
be=$(bflyctl new benes 8)
check "benes 8: route reverse" bflyctl route "$be" reverse
picture benes-route bflyctl show "$be" format dot
check_eq "benes-route: 20 nodes" 20 "$(count benes-route '^  s[0-9]*n[0-9]* \[pos')"
# each packet's colour from its input to output N-1-i: input 0's hue 0.000
check "benes-route: packet 0's links in its own colour, to output 7" \
	grep -q '^  s4n3:se -> out7 \[color="0.000 0.85 0.80"\]' /tmp/benes-route.dot

# An RLS round on the Butterfly-Butterfly: round 3's labels
b2=$(bflyctl new bfly2 8)
check "bfly2 8: route rls 3" bflyctl route "$b2" rls 3
picture bfly2-rls-round3 bflyctl show "$b2" format dot
check_eq "bfly2-rls-round3: 5 node stages of 4 nodes" 20 "$(count bfly2-rls-round3 '^  s[0-9]*n[0-9]* \[pos')"
check "bfly2-rls-round3: no link without its packet" sh -c "! grep -q 'color=gray' /tmp/bfly2-rls-round3.dot"

# All-to-all charts: conflicts per round and node stage. RLS rounds on the
# butterfly meet internal conflicts; on the Butterfly-Butterfly none.
picture butterfly-rls-chart bflyctl chart "$b16" latin rls format dot
check_eq "butterfly-rls-chart: 16 rounds x 4 node stages of cells" 64 \
	"$(count butterfly-rls-chart '^  c[0-9]*s[0-9]* \[')"
check "butterfly-rls-chart: some round has conflicts" \
	sh -c "grep '^  t[0-9]* ' /tmp/butterfly-rls-chart.dot | grep -qv 'label=\"0\"'"
b2c=$(bflyctl new bfly2 16)
picture bfly2-rls-chart bflyctl chart "$b2c" format dot
check_eq "bfly2-rls-chart: 16 rounds x 7 node stages, every cell 0" "112 112" \
	"$(count bfly2-rls-chart '^  c[0-9]*s[0-9]* \[') $(count bfly2-rls-chart '^  c[0-9]*s[0-9]* \[label="0"')"
refused "chart without a format refused" "missing format dot or format svg" bflyctl chart "$b2c"
refused "chart latin foo refused" "latin 'foo': expected rls, lls or xor" \
	bflyctl chart "$b2c" latin foo format dot

# Faults and loads: a stuck node and a broken link, loads as widths
check "butterfly 8: a stuck node and a broken link" \
	bflyctl fault add "$bf" stuck 1 2 cross link 0 5
picture faults-loads bflyctl show "$bf" loads format dot
check "faults-loads: the stuck node doubled in red" \
	grep -q '^  s1n2 \[.*peripheries=2, color=red' /tmp/faults-loads.dot
check "faults-loads: the broken link dashed red" \
	grep -q '^  s0n2:se -> s1n[0-9]*:[ns]w \[color=red, style=dashed' /tmp/faults-loads.dot
check_eq "faults-loads: every link after a node stage has its load" 24 \
	"$(count faults-loads 'tooltip="load ')"
check "fault clear" bflyctl fault clear "$bf"

# Large fabrics: a window of node stages, small unlabelled nodes
big=$(bflyctl new benes 256)
refused "chart of 256 ports refused" "a chart shows at most 64" bflyctl chart "$big" format dot
check "benes 256: route random" bflyctl route "$big" random seed 5
bflyctl show "$big" format dot stages 6-8 > /tmp/big.dot
check_eq "benes 256, stages 6-8: 384 nodes, 512 links between them" "384 512" \
	"$(count big '^  s[0-9]*n[0-9]* \[pos') $(count big ' -> ')"
check_eq "benes 256, whole: 15 x 128 nodes" 1920 \
	"$(bflyctl show "$big" format dot | grep -c '^  s[0-9]*n[0-9]* \[pos')"

# LCAN link loads: a message set's channels as a heat map, one cell per
# channel, load / capacity from white to red at lambda(M). On T-LCAN(4, 2)
# every bundle has 2 wires, so the transpose's loads grow to the top.
# lambda_of DEV ARGS...: "load/cap" of lambda(M) and ceil(lambda), as -j reports
lambda_of() {
	bflyctl -j msgset "$@" | python3 -c 'import json,sys; s=json.load(sys.stdin)["sets"][0]; print("%d/%d %d" % (s["lambda_load"], s["lambda_cap"], s["bound"]))'
}
# heat_checks NAME DEV ARGS...: NAME's cells, hottest cell and title against -j
heat_checks() {
	name=$1
	shift
	set -- $(lambda_of "$@") "$(bflyctl -j msgset "$@" want load |
		python3 -c 'import json,sys; print(len(json.load(sys.stdin)["sets"][0]["loads"]))')"
	check_eq "$name: one cell per channel" "$3" "$(count "$name" '^  c[0-9]* \[')"
	check "$name: a hottest cell's label is lambda $1" sh -c \
		"grep 'fillcolor=\"0.000 0.850 1.000\"' /tmp/$name.dot | grep -q 'label=\"$1\"'"
	check "$name: the title's ceil(lambda) is $2" grep -q "ceil(lambda) = $2 (lambda = $1)" "/tmp/$name.dot"
}
tl=$(bflyctl new t-lcan 64 radix 4 up 2)
picture tlcan-transpose-loads bflyctl msgset "$tl" pattern transpose format dot
heat_checks tlcan-transpose-loads "$tl" pattern transpose
check "tlcan-transpose-loads: the title names T-LCAN(4, 2), N = 64 and the pattern" \
	grep -q 'label="bfly[0-9]*: t-lcan(4, 2), N = 64, transpose, bidir online, seed 0: 64 of 64 messages in [0-9]* cycles' \
	/tmp/tlcan-transpose-loads.dot
check_eq "tlcan-transpose-loads: 2 panels of the PEs' wires and 4 levels' bundles" "2 2 2 2 2" \
	"$(count tlcan-transpose-loads 'label="PE wires"') $(count tlcan-transpose-loads 'label="level 0 (cap 2)"') $(count tlcan-transpose-loads 'label="level 1 (cap 2)"') $(count tlcan-transpose-loads 'label="level 2 (cap 2)"') $(count tlcan-transpose-loads 'label="level 3 (cap 2)"')"
# The fat tree of CB-LCAN(4, 2) under the worst case: every pair's LCA the top
ft=$(bflyctl new fattree 64 radix 4 up 2)
picture fattree-worst-loads bflyctl msgset "$ft" pattern worst seed 1 format dot
heat_checks fattree-worst-loads "$ft" pattern worst seed 1
check "fattree-worst-loads: the top bundles are the hottest" sh -c \
	"grep -A3 'label=\"level 1 (cap 4)\"' /tmp/fattree-worst-loads.dot | grep -q 'label=\"16/4\".*fillcolor=\"0.000 0.850 1.000\"'"
cu=$(bflyctl new cb-lcan 16 radix 2 up 2)
bflyctl msgset "$cu" pattern transpose mode unidir format dot > /tmp/unidir.dot
check_eq "cb-lcan 16, unidir: one panel, 16 + 4 x 16 wires" "80 1" \
	"$(count unidir '^  c[0-9]* \[') $(count unidir 'label="up: load / capacity"')"
refused "msgset format on a butterfly refused" "heat maps show LCANs" \
	bflyctl msgset "$bf" pattern identity format dot
refused "msgset format with -j refused" "a picture has no JSON form" \
	bflyctl -j msgset "$tl" pattern transpose format dot
refused "msgset format with reps refused" "a heat map shows one set" \
	bflyctl msgset "$tl" pattern random reps 2 format dot
refused "msgset format with want refused" "a heat map draws the loads alone" \
	bflyctl msgset "$tl" pattern random want load format dot
refused "msgset format png refused" "format 'png': expected dot or svg" \
	bflyctl msgset "$tl" pattern random format png

# Refusals
refused "format png refused" "format 'png': expected dot or svg" bflyctl show "$bf" format png
refused "stages 3-1 refused" "stages 3-1: $bf has node stages 0 to 2" \
	bflyctl show "$bf" format dot stages 3-1
refused "stages without a format refused" "stages: only with format dot or svg" \
	bflyctl show "$bf" stages 0-1
refused "a picture in JSON refused" "a picture has no JSON form" bflyctl -j show "$bf" format dot
kf=$(bflyctl new kfly 9 radix 3)
refused "kfly: no picture" "pictures show 2 x 2 fabrics" bflyctl show "$kf" format dot

for d in $b16 $bf $be $b2 $b2c $big $kf $tl $ft $cu; do
	bflyctl del "$d" || not_ok "del $d"
done
check "rmmod" rmmod bfly
