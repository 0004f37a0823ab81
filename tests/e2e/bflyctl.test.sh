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
check "pretty JSON parses" sh -c 'bflyctl -j -p list | python3 -c "import json,sys; json.load(sys.stdin)"'
check "-j -p is indented" sh -c "[ \$(bflyctl -j -p show $d1 | wc -l) -gt 10 ]"
check_eq "-jp is -j -p" "$(bflyctl -j -p show $d1)" "$(bflyctl -jp show $d1)"
check_eq "-pj is -j -p" "$(bflyctl -j -p show $d1)" "$(bflyctl -pj show $d1)"
check_eq "-p alone prints text" "$(bflyctl list)" "$(bflyctl -p list)"
check_eq "--pretty alone prints text" "$(bflyctl show $d1)" "$(bflyctl --pretty show $d1)"

benes=$(bflyctl -j list | python3 -c 'import json,sys; print([f["dev"] for f in json.load(sys.stdin) if f["topology"] == "benes" and f["ports"] == 16][0])')
bfly=$(bflyctl -j list | python3 -c 'import json,sys; print([f["dev"] for f in json.load(sys.stdin) if f["topology"] == "butterfly" and f["ports"] == 16][0])')

# show for people: N <= 32 draws the switches
check "show $benes draws 8 node rows" sh -c "[ \$(bflyctl show $benes | grep -c 'node [0-9]*\$') -eq 8 ]"
check "show --help" sh -c 'bflyctl show --help | grep -q "usage: bflyctl"'
for c in list show new del set route a2a stats monitor raw; do
	check "$c --help exits 0 with a usage line" sh -c "bflyctl $c --help | grep -q '^usage: bflyctl'"
done

# set switches, then read them back
check "set $benes stage 0 node 3 cross" bflyctl set "$benes" stage 0 node 3 cross stage 6 node 7 cross
check_eq "matrix shows the two crossed switches" "00010000 00000001" \
	"$(bflyctl -j show "$benes" matrix | python3 -c 'import json,sys; m=json.load(sys.stdin)["matrix"]; print(m[0], m[6])')"
check "set $benes all straight" bflyctl set "$benes" all straight
check_eq "matrix all straight" "0" \
	"$(bflyctl -j show "$benes" matrix | python3 -c 'import json,sys; print(sum(r.count("1") for r in json.load(sys.stdin)["matrix"]))')"

# route: looping on benes always succeeds; the generation grows
gen0=$(bflyctl -j show "$benes" | python3 -c 'import json,sys; print(json.load(sys.stdin)["generation"])')
check "route $benes random permutation" bflyctl route "$benes" random seed 7
check "route $benes reverse (JSON: looping, applied)" sh -c \
	"bflyctl -j route $benes reverse | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r[\"method\"] == \"looping\" and r[\"applied\"] and r[\"conflicts\"] == 0, r'"
gen1=$(bflyctl -j show "$benes" | python3 -c 'import json,sys; print(json.load(sys.stdin)["generation"])')
check_eq "generation grew by 2 routes" "$((gen0 + 2))" "$gen1"
check "route dry-run leaves the generation" sh -c \
	"bflyctl route $benes dry-run shift 3 >/dev/null && [ \$(bflyctl -j show $benes | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"generation\"])') -eq $gen1 ]"
check "route with labels on bfly2" sh -c "bflyctl -j route \$(bflyctl -j list | python3 -c 'import json,sys; print([f[\"dev\"] for f in json.load(sys.stdin) if f[\"topology\"] == \"bfly2\" and f[\"ports\"] == 2][0])') dry-run labels 0,1"

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
		"bflyctl -j stats $bfly | python3 -c 'import json,sys; s=json.load(sys.stdin); assert s[\"refusals\"] >= 1 and s[\"conflicts\"] >= 1, s'"
else
	not_ok "a random permutation on butterfly 16 has conflicts"
fi
check "stats reset" bflyctl stats "$bfly" reset
check_eq "stats after reset" "0 0 0" \
	"$(bflyctl -j stats "$bfly" | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["routes"], s["refusals"], s["conflicts"])')"

# show with link loads: every link carries one packet under a matrix
check "show loads: max link load 1" sh -c \
	"bflyctl -j show $benes loads | python3 -c 'import json,sys; f=json.load(sys.stdin); assert f[\"max_link_load\"] == 1 and len(f[\"link_loads\"]) == f[\"node_stages\"], f'"

# a2a: a schedule-only all-to-all run. RLS on bfly2 with N = 16: 16
# rounds without conflict in (2n - 1) + (N - 1) = 22 cycles (Remark V.1);
# lls on a butterfly conflicts and is split.
b2=$(bflyctl -j list | python3 -c 'import json,sys; print([f["dev"] for f in json.load(sys.stdin) if f["topology"] == "bfly2" and f["ports"] == 16][0])')
bf=$(bflyctl -j list | python3 -c 'import json,sys; print([f["dev"] for f in json.load(sys.stdin) if f["topology"] == "butterfly" and f["ports"] == 16][0])')
check "a2a $b2 (rls): 16 rounds, 22 cycles, no conflict" sh -c \
	"bflyctl -j a2a $b2 | python3 -c 'import json,sys; r=json.load(sys.stdin); assert (r[\"rounds\"], r[\"cycles\"], r[\"conflicts\"]) == (16, 22, 0), r'"
check "a2a $bf latin lls: conflicts found, all 16 rounds run" sh -c \
	"bflyctl -j a2a $bf latin lls | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r[\"rounds\"] == 16 and r[\"conflicts\"] > 0 and r[\"cycles\"] > 4 + 15, r'"
check "a2a $benes: runs" bflyctl a2a "$benes"
check "a2a piped prints no progress" sh -c "! bflyctl a2a $benes 2>&1 | grep -q running"

# A large fabric: its matrix (124 KiB) comes in several dump messages
check "new benes 65536" sh -c 'bflyctl new benes 65536 > /tmp/big.dev'
big=$(cat /tmp/big.dev)
check "set switches at both ends of the large matrix" bflyctl set "$big" \
	stage 0 node 0 cross stage 15 node 12345 cross stage 30 node 32767 cross
check "large matrix dumped in chunks is complete and right" sh -c \
	"bflyctl -j show $big matrix | python3 -c 'import json,sys; m=json.load(sys.stdin)[\"matrix\"]; assert len(m) == 31 and all(len(r) == 32768 for r in m); assert [(s, k) for s, r in enumerate(m) for k, c in enumerate(r) if c == \"1\"] == [(0, 0), (15, 12345), (30, 32767)]'"
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
for dev in $(bflyctl -j list | python3 -c 'import json,sys; print(" ".join(f["dev"] for f in json.load(sys.stdin)))'); do
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
	"$(python3 -c 'import json; print(" ".join(sorted(e["dev"] for e in map(json.loads, open("/tmp/monitor.json")) if e["event"] == "deleted")))')"
