#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bflyctl end to end, through the "bfly" generic netlink family: create
# fabrics of every topology, show them (JSON checked against the ioctl
# view of bfly-info -k), route, a2a, stats, monitor events from a second
# process, delete (also while a file is open on the device).
. /tests/lib.sh

bfly_unload
check "insmod ports=0" insmod "$BFLY_KO" ports=0
check "bflyctl list: no fabric yet" sh -c '[ -z "$(bflyctl list)" ]'
check_eq "bflyctl -j list: empty array" "[]" "$(bflyctl -j list)"

# A second process watches the events of everything below.
# Emptied first: the background shell truncates them only later.
: > /tmp/monitor.json
: > /tmp/monitor.err
bflyctl -j monitor > /tmp/monitor.json 2> /tmp/monitor.err &
mon=$!
check "monitor: joined the events group" wait_until 60 grep -q monitoring /tmp/monitor.err

# Every topology, several sizes: the device node exists when new returns.
devs=
for topo in butterfly bfly2 bfly-twice benes; do
	for ports in 2 16 256; do
		what="new $topo $ports"
		dev=$(bflyctl new $topo $ports 2>/tmp/new.err)
		if [ $? -ne 0 ] || [ -z "$dev" ]; then
			not_ok "$what: $(cat /tmp/new.err)"
			continue
		fi
		ok "$what: $dev"
		check "$what: /dev/$dev is there at once" test -c "/dev/$dev"
		check_eq "$what: ioctl topology" "$topo" "$(info_key /dev/$dev topology)"
		check_eq "$what: ioctl ports" "$ports" "$(info_key /dev/$dev ports)"
		devs="$devs $dev"
	done
done

# JSON from list and show matches the ioctl view (bfly-info -k)
for dev in $devs; do
	bfly-info -k "/dev/$dev" > "/tmp/$dev.keys"
	bflyctl -j show "$dev" matrix > "/tmp/$dev.json"
done
bflyctl -j list > /tmp/list.json
check "show -j and list -j parse and match bfly-info -k" python3 - $devs <<'PY'
import json, sys
lst = {f["dev"]: f for f in json.load(open("/tmp/list.json"))}
for dev in sys.argv[1:]:
    keys = dict(l.strip().split("=", 1) for l in open(f"/tmp/{dev}.keys"))
    show = json.load(open(f"/tmp/{dev}.json"))
    for view in (show, lst[dev]):
        for k in ("id", "ports", "ports_log2", "node_stages", "nodes_per_stage", "switches"):
            assert view[k] == int(keys[k]), (dev, k, view[k], keys[k])
        assert view["topology"] == keys["topology"], (dev, view["topology"])
        assert view["dev"] == dev
    assert len(show["matrix"]) == show["node_stages"], dev
    assert all(len(r) == show["nodes_per_stage"] for r in show["matrix"]), dev
print("checked", len(sys.argv) - 1, "fabrics")
PY
# -p only prettifies -j, as in iproute2
d1=$(echo $devs | cut -d' ' -f1)
check "pretty JSON parses" sh -c 'bflyctl -j -p list | jq empty'
check "-j -p is indented" sh -c "[ \$(bflyctl -j -p show $d1 | wc -l) -gt 10 ]"
check_eq "-jp is -j -p" "$(bflyctl -j -p show $d1)" "$(bflyctl -jp show $d1)"
check_eq "-pj is -j -p" "$(bflyctl -j -p show $d1)" "$(bflyctl -pj show $d1)"
check_eq "-p alone prints text" "$(bflyctl list)" "$(bflyctl -p list)"
check_eq "--pretty alone prints text" "$(bflyctl show $d1)" "$(bflyctl --pretty show $d1)"

benes=$(bflyctl -j list | jq -r '[.[] | select(.topology == "benes" and .ports == 16)][0].dev')
bfly=$(bflyctl -j list | jq -r '[.[] | select(.topology == "butterfly" and .ports == 16)][0].dev')

# show for people: N <= 32 draws the switches
check "show $benes draws 8 node rows" sh -c "[ \$(bflyctl show $benes | grep -c 'node [0-9]*\$') -eq 8 ]"
check "show --help" sh -c 'bflyctl show --help | grep -q "usage: bflyctl"'
for c in list show new del set route a2a stats monitor raw; do
	check "$c --help exits 0 with a usage line" sh -c "bflyctl $c --help | grep -q '^usage: bflyctl'"
done

# set switches, then read them back
check "set $benes stage 0 node 3 cross" bflyctl set "$benes" stage 0 node 3 cross stage 6 node 7 cross
check_eq "matrix shows the two crossed switches" "00010000 00000001" \
	"$(bflyctl -j show "$benes" matrix | jq -r '"\(.matrix[0]) \(.matrix[6])"')"
check "set $benes all straight" bflyctl set "$benes" all straight
check_eq "matrix all straight" "0" \
	"$(bflyctl -j show "$benes" matrix | jq '[.matrix[] | indices("1") | length] | add')"

# route: looping on benes always succeeds; the generation grows
gen0=$(bflyctl -j show "$benes" | jq .generation)
check "route $benes random permutation" bflyctl route "$benes" random seed 7
check "route $benes reverse (JSON: looping, applied)" sh -c \
	"bflyctl -j route $benes reverse | jq -e '.method == \"looping\" and .applied and .conflicts == 0' > /dev/null"
gen1=$(bflyctl -j show "$benes" | jq .generation)
check_eq "generation grew by 2 routes" "$((gen0 + 2))" "$gen1"
check "route dry-run leaves the generation" sh -c \
	"bflyctl route $benes dry-run shift 3 >/dev/null && [ \$(bflyctl -j show $benes | jq .generation) -eq $gen1 ]"
check "route with labels on bfly2" sh -c "bflyctl -j route \$(bflyctl -j list | jq -r '[.[] | select(.topology == \"bfly2\" and .ports == 2)][0].dev') dry-run labels 0,1"

# A butterfly route with conflicts: refused, listed, counted
conflicted=
for seed in 1 2 3 4 5 6 7 8; do
	if ! bflyctl route "$bfly" random seed $seed > /tmp/route.out 2> /tmp/route.err; then
		conflicted=$seed
		break
	fi
done
if [ -n "$conflicted" ]; then
	ok "a random permutation on butterfly 16 has conflicts (seed $conflicted)"
	check "refused route: one-line error naming the reason" sh -c \
		'[ $(wc -l < /tmp/route.err) -eq 1 ] && grep -q "internal conflicts" /tmp/route.err'
	check "refused route: conflicts listed" grep -q "conflict: stage" /tmp/route.out
	check "stats count the refusal" sh -c \
		"bflyctl -j stats $bfly | jq -e '.refusals >= 1 and .conflicts >= 1' > /dev/null"
else
	not_ok "a random permutation on butterfly 16 has conflicts"
fi
check "stats reset" bflyctl stats "$bfly" reset
check_eq "stats after reset" "0 0 0" \
	"$(bflyctl -j stats "$bfly" | jq -r '"\(.routes) \(.refusals) \(.conflicts)"')"

# show with link loads: every link carries one packet under a matrix
check "show loads: max link load 1" sh -c \
	"bflyctl -j show $benes loads | jq -e '.max_link_load == 1 and (.link_loads | length) == .node_stages' > /dev/null"

# a2a: a schedule-only all-to-all run. RLS on bfly2 with N = 16: 16
# rounds without conflict in (2n - 1) + (N - 1) = 22 cycles (Remark V.1);
# lls on a butterfly conflicts and is split.
b2=$(bflyctl -j list | jq -r '[.[] | select(.topology == "bfly2" and .ports == 16)][0].dev')
bf=$(bflyctl -j list | jq -r '[.[] | select(.topology == "butterfly" and .ports == 16)][0].dev')
check "a2a $b2 (rls): 16 rounds, 22 cycles, no conflict" sh -c \
	"bflyctl -j a2a $b2 | jq -e '[.rounds, .cycles, .conflicts] == [16, 22, 0]' > /dev/null"
check "a2a $bf latin lls: conflicts found, all 16 rounds run" sh -c \
	"bflyctl -j a2a $bf latin lls | jq -e '.rounds == 16 and .conflicts > 0 and .cycles > 4 + 15' > /dev/null"
check "a2a $benes: runs" bflyctl a2a "$benes"
check "a2a piped prints no progress" sh -c "! bflyctl a2a $benes 2>&1 | grep -q running"

# A large fabric: its matrix (124 KiB) comes in several dump messages
check "new benes 65536" sh -c 'bflyctl new benes 65536 > /tmp/big.dev'
big=$(cat /tmp/big.dev)
check "set switches at both ends of the large matrix" bflyctl set "$big" \
	stage 0 node 0 cross stage 15 node 12345 cross stage 30 node 32767 cross
check "large matrix dumped in chunks is complete and right" sh -c \
	"bflyctl -j show $big matrix | jq -e '.matrix | length == 31 and all(length == 32768) and [to_entries[] | .key as \$s | .value | indices(\"1\")[] | [\$s, .]] == [[0, 0], [15, 12345], [30, 32767]]' > /dev/null"
check "route refuses a permutation too large for one attribute" sh -c \
	"bflyctl route $big identity 2>&1 | grep -q 'at most 8192 ports'"

# Delete a fabric in use: the open file then fails with ENODEV
exec 4< "/dev/$benes"
check "del $benes while open" bflyctl del "$benes"
check "/dev/$benes is gone" test ! -e "/dev/$benes"
check "the open file gets ENODEV" python3 -c '
import errno, fcntl, struct
try:
    fcntl.ioctl(4, 0xC040BF00, struct.pack("I", 64) + bytes(60))
except OSError as e:
    assert e.errno == errno.ENODEV, e
else:
    raise SystemExit("ioctl succeeded")'
exec 4<&-
check "del $benes again: no such fabric" sh -c "bflyctl del $benes 2>&1 | grep -q 'no fabric has this id'"
check_eq "del again fails with one line" 1 "$(bflyctl del "$benes" 2>&1 | wc -l)"

# Delete everything; the monitor saw every event
for dev in $(bflyctl -j list | jq -r '.[].dev'); do
	bflyctl del "$dev" || not_ok "del $dev"
done
check_eq "no fabric left" "" "$(bflyctl list)"
wait_until 60 count_at_least 13 /tmp/monitor.json '"deleted"'
kill $mon
wait $mon 2>/dev/null
check "monitor: JSON lines with every kind of event" python3 - <<'PY'
import json
ev = [json.loads(l) for l in open("/tmp/monitor.json")]
kinds = {e["event"] for e in ev}
assert {"created", "deleted", "matrix-changed", "conflicts"} <= kinds, kinds
created = [e for e in ev if e["event"] == "created"]
deleted = [e for e in ev if e["event"] == "deleted"]
assert len(created) == 13 and len(deleted) == 13, (len(created), len(deleted))
assert all(e["dev"] == "bfly%d" % e["id"] for e in created)
PY

# The largest requests netlink carries: 8192 ports of perm, 4096 of labels
# (a request of more than a page: bflyctl's messages grow to fit)
big=$(bflyctl new benes 8192)
check "bflyctl route on 8192 ports (32 KiB of perm)" \
	sh -c "bflyctl route $big reverse > /tmp/big.out"
check "... routed by looping" grep -q looping /tmp/big.out
bflyctl del "$big" > /dev/null
big=$(bflyctl new bfly2 4096)
# labels 0 .. N-1 conflict on bfly2: the kernel's answer lists them
bflyctl route "$big" dry-run labels "$(seq -s, 0 4095)" > /tmp/big.out 2>&1
check "bflyctl route on 4096 ports of labels (32 KiB): the kernel answers" \
	grep -q conflict /tmp/big.out
check "... and the request was not too large" sh -c '! grep -q "too large" /tmp/big.out'
bflyctl del "$big" > /dev/null

check "rmmod" rmmod bfly

# rmmod deletes every fabric, and a monitor hears of each, then of the
# family going away.
check "insmod benes 8" insmod "$BFLY_KO" topology=benes ports=8
check "two more fabrics" sh -c 'bflyctl new butterfly 4 && bflyctl new bfly2 16'
# Emptied first: the background shell truncates them only later.
: > /tmp/monitor.json
: > /tmp/monitor.err
bflyctl -j monitor > /tmp/monitor.json 2> /tmp/monitor.err &
mon=$!
check "monitor: joined the events group" wait_until 60 grep -q monitoring /tmp/monitor.err
check "rmmod with three fabrics" rmmod bfly
check "monitor: a deleted event for each of the three" \
	wait_until 60 count_at_least 3 /tmp/monitor.json '"deleted"'
# Then the family goes away: the monitor says so and exits with status 1
# (it would otherwise wait forever on a group that no longer exists).
if wait_until 60 grep -q "the bfly family went away" /tmp/monitor.err; then
	ok "monitor: says the family went away: $(tail -n 1 /tmp/monitor.err)"
else
	not_ok "monitor: says the family went away"
	sed 's/^/#   /' /tmp/monitor.err
	kill $mon
fi
wait $mon
check_eq "monitor: exit status 1 after rmmod" 1 $?
check_eq "monitor: bfly0, bfly1, bfly2 deleted" "bfly0 bfly1 bfly2" \
	"$(jq -r 'select(.event == "deleted") | .dev' /tmp/monitor.json | sort | tr '\n' ' ' | sed 's/ $//')"

# ---- k x k fabrics: kfly and flatfly (issue 12) ----
check "insmod ports=0 (k x k fabrics)" insmod "$BFLY_KO" ports=0
refused "new kfly: radix 1" "radix: 1 is out of range (2 .. 64)" bflyctl new kfly 64 radix 1
refused "new kfly: radix 65" "radix: 65 is out of range (2 .. 64)" bflyctl new kfly 64 radix 65
refused "new kfly: radix x" "radix: 'x' is not a number" bflyctl new kfly 64 radix x
refused "new kfly: radix without K" "radix: missing K" bflyctl new kfly 64 radix
refused "new kfly: a word after radix K" "unexpected argument 'extra'" \
	bflyctl new kfly 64 radix 4 extra
refused "new: the unknown topology message lists kfly and flatfly" \
	"(butterfly, bfly2, bfly-twice, benes, kfly, flatfly, cb-lcan, t-lcan, fattree, mbfly)" \
	bflyctl new omega 8
check_eq "the refusals created nothing" "" "$(bflyctl list)"

kf=$(bflyctl new kfly 64 radix 4 2>/tmp/new.err)
check "new kfly 64 radix 4: $kf, /dev/$kf is there" test -c "/dev/$kf"
ff=$(bflyctl new topology flatfly ports 16 radix 2 2>>/tmp/new.err)
check "new topology flatfly ports 16 radix 2: $ff, /dev/$ff is there" test -c "/dev/$ff"
k2=$(bflyctl new kfly 8 2>>/tmp/new.err)
check "new kfly 8 (radix absent: 2): $k2" test -c "/dev/$k2"
sed 's/^/#   /' /tmp/new.err
check_eq "kfly: ioctl topology" kfly "$(info_key /dev/$kf topology)"
check_eq "kfly: ioctl radix" 4 "$(info_key /dev/$kf radix)"
check_eq "flatfly: ioctl topology" flatfly "$(info_key /dev/$ff topology)"
check_eq "kfly without radix: ioctl radix 2" 2 "$(info_key /dev/$k2 radix)"

# show -j and list -j carry the radix and the figures, as bfly-info -k
for dev in $kf $ff $k2; do
	bfly-info -k "/dev/$dev" > "/tmp/$dev.keys"
	bflyctl -j show "$dev" matrix > "/tmp/$dev.json"
done
bflyctl -j list > /tmp/list.json
check "kfly/flatfly: show -j and list -j match bfly-info -k, figures included" \
	python3 - $kf $ff $k2 <<'PY'
import json, sys
lst = {f["dev"]: f for f in json.load(open("/tmp/list.json"))}
for dev in sys.argv[1:]:
    keys = dict(l.strip().split("=", 1) for l in open(f"/tmp/{dev}.keys"))
    show = json.load(open(f"/tmp/{dev}.json"))
    for view in (show, lst[dev]):
        for k in ("id", "ports", "node_stages", "nodes_per_stage", "switches", "radix",
                  "degree", "diameter", "routers", "channels", "bisection", "port_map_bytes"):
            assert view[k] == int(keys[k]), (dev, k, view[k], keys[k])
        assert view["topology"] == keys["topology"], (dev, view["topology"])
    # port maps instead of the matrix: per stage, per switch, k entries
    assert "matrix" not in show, dev
    pm = show["port_maps"]
    assert len(pm) == show["node_stages"], dev
    assert all(len(st) == show["nodes_per_stage"] for st in pm), dev
    assert all(len(m) == show["radix"] for st in pm for m in st), dev
print("checked", len(sys.argv) - 1, "fabrics")
PY
# The figures of the header's definitions: the 4-ary 3-fly has 3 node
# stages of 16 switches of degree 2k = 8, (n + 1) N channels, n + 1 on a
# path; the flat 2-ary 4-fly has N/k = 8 routers of degree k + (k-1)(n-1) = 5
# and 8 * 3 directed channels between them.
check "kfly 64 radix 4: its figures" json_has "/tmp/$kf.json" \
	'{"ports": 64, "radix": 4, "node_stages": 3, "nodes_per_stage": 16, "switches": 48,
	  "degree": 8, "diameter": 4, "routers": 0, "channels": 256, "port_map_bytes": 192}'
check "flatfly 16 radix 2: its figures" json_has "/tmp/$ff.json" \
	'{"ports": 16, "radix": 2, "routers": 8, "degree": 5, "channels": 24}'
check "flatfly 16 radix 2: port-map bytes" jq_true "/tmp/$ff.json" '.port_map_bytes == .node_stages * 16'

# show for people: the radix, the figures, the port maps
bflyctl show "$kf" matrix > /tmp/kf.show
check "show kfly: radix and k, n" sh -c \
	'grep -qx "  radix            4" /tmp/kf.show && grep -qx "  ports            64 (k = 4, n = 3)" /tmp/kf.show'
check "show kfly: the figures" sh -c \
	'for w in degree diameter channels bisection "port-map bytes"; do grep -q "^  $w  *[0-9a-z]" /tmp/kf.show || exit 1; done'
check "show kfly: no routers line" sh -c '! grep -q "^  routers" /tmp/kf.show'
check "show kfly matrix: one line per node stage, 16 maps of 4 ports each" sh -c \
	"[ \$(grep -cE '^  stage  *[0-9]+:( \[[-0-9]+ [-0-9]+ [-0-9]+ [-0-9]+\]){16}\$' /tmp/kf.show) -eq 3 ] || { cat /tmp/kf.show; false; }"
bflyctl show "$ff" > /tmp/ff.show
ffstages=$(jq .node_stages "/tmp/$ff.json")
check "show flatfly: routers 8" grep -qx "  routers          8" /tmp/ff.show
check "show flatfly (N <= 32): the port maps without asking" sh -c \
	"[ \$(grep -cE '^  stage  *[0-9]+:( \[[-0-9]+ [-0-9]+\]){8}\$' /tmp/ff.show) -eq $ffstages ] || { cat /tmp/ff.show; false; }"

# set: one node's map, read back in text and JSON
# pm DEV FILTER: the port maps through the jq FILTER, e.g. '.[0][5]', each
# result compact, on one line
pm() { bflyctl -j show "$1" matrix | jq -c ".port_maps | $2" | tr '\n' ' ' | sed 's/ $//'; }
check "set $kf stage 0 node 5 map 2 0 1 3" bflyctl set "$kf" stage 0 node 5 map 2 0 1 3
check_eq "kfly: the map read back (JSON)" "[2,0,1,3]" "$(pm "$kf" '.[0][5]')"
check "kfly: the map read back (text)" sh -c \
	"bflyctl show $kf matrix | grep -E '^  stage  0:' | cut -d']' -f6 | grep -qx ' \[2 0 1 3'"
check "set two nodes, unset ports as - and 255" bflyctl set "$kf" \
	stage 1 node 0 map 1 - 0 255 stage 2 node 15 map 3 2 1 0
check_eq "kfly: unset ports are null in JSON" "[1,null,0,null] [3,2,1,0]" \
	"$(pm "$kf" '.[1][0], .[2][15]')"
check "kfly: unset ports are - in text" sh -c \
	"bflyctl show $kf matrix | grep -E '^  stage  1:' | grep -q '^  stage  1: \[1 - 0 -\]'"
gen=$(bflyctl -j show "$kf" | jq .generation)
refused "set map: 3 entries on 4 x 4 switches" "map: 3 entries, the switches have 4 ports" \
	bflyctl set "$kf" stage 0 node 0 map 0 1 2
refused "set map: 5 entries on 4 x 4 switches" "map: 5 entries" \
	bflyctl set "$kf" stage 0 node 0 map 0 1 2 3 0
refused "set map: no entries" "map: 0 entries" bflyctl set "$kf" stage 0 node 0 map
refused "set map: a port of 4 or more" "map: entry 2: 4 is out of range (0 .. 3, or - or 255 for none)" \
	bflyctl set "$kf" stage 0 node 0 map 0 4 1 2
refused "set map: not a number" "map: entry 1: 'x' is not a port" \
	bflyctl set "$kf" stage 0 node 0 map x 0 1 2
refused "set map: wrong count in the second switch" "map: 2 entries" \
	bflyctl set "$kf" stage 0 node 0 map 0 1 2 3 stage 0 node 1 map 0 1
refused "set map: not one-to-one (the kernel)" "map" \
	bflyctl set "$kf" stage 0 node 0 map 0 0 1 2
refused "set all cross on 4 x 4 switches" "has 4 x 4 switches" bflyctl set "$kf" all cross
check_eq "kfly: the refusals changed nothing" "$gen" \
	"$(bflyctl -j show "$kf" | jq .generation)"
check "set $kf all map 3 2 1 0" bflyctl set "$kf" all map 3 2 1 0
check "kfly: every map 3 2 1 0" sh -c \
	"bflyctl -j show $kf matrix | jq -e 'all(.port_maps[][]; . == [3, 2, 1, 0])' > /dev/null"
check "set $kf all straight: identity maps" sh -c \
	"bflyctl set $kf all straight && bflyctl -j show $kf matrix | jq -e 'all(.port_maps[][]; . == [0, 1, 2, 3])' > /dev/null"
check "set $ff all cross (radix 2): maps 1 0" sh -c \
	"bflyctl set $ff all cross && bflyctl -j show $ff matrix | jq -e 'all(.port_maps[][]; . == [1, 0])' > /dev/null"
check "set $ff stage 0 node 1 map 0 1" bflyctl set "$ff" stage 0 node 1 map 0 1
check_eq "flatfly: the map read back" "[0,1]" "$(pm "$ff" '.[0][1]')"
check "-j set: id and generation" sh -c \
	"bflyctl -j set $kf stage 0 node 0 map 0 1 2 3 | jq -e '.id == ${kf#bfly} and .generation > 0' > /dev/null"

# route: destination-digit self-routing. Rotating the digits (dest =
# (i mod k) N/k + i div k) follows the wiring: no conflict, every switch
# straight through. The identity conflicts (inputs 0 .. k-1 share a
# first-stage switch and a top digit).
# rot N K: the labels i mod K * N / K + i / K, comma-separated
rot() { awk -v n="$1" -v k="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s%d", i ? "," : "", i % k * n / k + int(i / k); print "" }'; }
rot64=$(rot 64 4)
rot16=$(rot 16 2)
check "set $kf all map 3 2 1 0 before routing" bflyctl set "$kf" all map 3 2 1 0
check "route $kf: digit rotation, self-routing, applied" sh -c \
	"bflyctl -j route $kf perm $rot64 | jq -e '.method == \"self-routing\" and .applied and .conflicts == 0' > /dev/null"
check "route $kf: the rotation set every switch straight through" sh -c \
	"bflyctl -j show $kf matrix | jq -e 'all(.port_maps[][]; . == [0, 1, 2, 3])' > /dev/null"
check "route $ff: digit rotation, applied" sh -c \
	"bflyctl route $ff perm $rot16 | grep -q 'self-routing, applied, no conflicts'"
bflyctl route "$kf" identity > /tmp/route.out 2> /tmp/route.err
check_eq "route $kf identity: refused, exit 1" 1 $?
check "refused kfly route: conflicts listed with their port" sh -c \
	"grep -q 'refused' /tmp/route.out && grep -qE '^  conflict: stage [0-9]+ node [0-9]+, inputs [0-9]+ and [0-9]+, port [0-9]+\$' /tmp/route.out || { cat /tmp/route.out; false; }"
check "refused kfly route: one-line error" sh -c \
	'[ $(wc -l < /tmp/route.err) -eq 1 ] && grep -q "internal conflicts" /tmp/route.err'
check "route -j on kfly: every conflict has its port" sh -c \
	"bflyctl -j route $kf dry-run identity 2>/dev/null | jq -e '.conflict_list | length > 0 and all(.port >= 0 and .port < 4)' > /dev/null"
check "route labels on kfly (base-4 digits): label self-routing" sh -c \
	"bflyctl -j route $kf dry-run labels $rot64 | jq -e '.method == \"labels\" and .conflicts == 0' > /dev/null"
refused "route xor 64 on kfly 64" "xor: 64 is out of range (0 .. 63)" \
	bflyctl route "$kf" dry-run xor 64
k3=$(bflyctl new kfly 9 radix 3)
refused "route xor on 9 ports (kfly radix 3): no power of two" "xor: N = 9 is no power of two" \
	bflyctl route "$k3" dry-run xor 1
check "route on kfly 9 radix 3: digit rotation" \
	bflyctl route "$k3" perm "$(rot 9 3)"
check "show kfly 9 radix 3: ports 9 (k = 3, n = 2), 3 x 3 maps" sh -c \
	"bflyctl show $k3 > /tmp/k3.show && grep -qx '  ports            9 (k = 3, n = 2)' /tmp/k3.show && grep -qE '^  stage  0:( \[[0-9] [0-9] [0-9]\]){3}\$' /tmp/k3.show || { cat /tmp/k3.show; false; }"

# all-to-all on a flatfly: the rounds on its routers, against the bound 19
check "a2a on flatfly 16: 16 rounds, the bound 19, a channel load" sh -c \
	"bflyctl -j a2a $ff | jq -e '.rounds == 16 and .cycles_bound == 19 and .cycles >= 19 and .max_link_load >= 1' > /dev/null"
for how in "" minimal; do
	bflyctl a2a "$ff" $how > /tmp/a2a.out 2>&1
	check "a2a on flatfly 16 $how (text with the bound): $(cat /tmp/a2a.out)" grep -qE \
		"^$ff: all-to-all \(.*\): 16 rounds, [0-9]+ cycles \(at least 19\), max link load [0-9]+, " /tmp/a2a.out
done
# the systolic square: pipelined, one load per channel, N + n cycles
check "a2a on flatfly 16 latin systolic: 20 cycles, the bound 19, load 1" sh -c \
	"bflyctl -j a2a $ff latin systolic | jq -e '.latin == \"systolic\" and .cycles == 20 and .cycles_bound == 19 and .max_link_load == 1 and .conflicts == 0' > /dev/null"
f9=$(bflyctl new flatfly 9 radix 3)
check "a2a on flatfly 9 radix 3 latin systolic: 11 cycles, the bound" sh -c \
	"bflyctl -j a2a $f9 latin systolic | jq -e '.rounds == 9 and .cycles == 11 and .cycles_bound == 11' > /dev/null"
refused "a2a on flatfly 9 radix 3, default square: no power of two" "systolic schedule only" \
	bflyctl a2a "$f9"
bflyctl del "$f9"

# faults and all-to-all schedules of a kfly are not modelled
refused "a2a on kfly: not supported" "Operation not supported" bflyctl a2a "$kf"
refused "fault add on kfly: not supported" "Operation not supported" \
	bflyctl fault add "$kf" link 0 0

# del
for dev in $kf $ff $k2 $k3; do
	check "del $dev" bflyctl del "$dev"
	check "/dev/$dev is gone" test ! -e "/dev/$dev"
done
check_eq "no fabric left" "" "$(bflyctl list)"
check "rmmod (k x k fabrics)" rmmod bfly
