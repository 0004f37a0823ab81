#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Injected faults (stuck nodes, broken links) end to end: bflyctl fault
# add, del, clear and list, show with its fault list, drawing and JSON;
# every refusal with its extended ack and the fabric unchanged after it;
# at most 64 faults, all or nothing; routes refused, dry-run and allowed;
# a2a; the faults-changed events; changes by an unprivileged user. Then
# the ioctls (ROUTE, TRACE, BATCH) through fabric-fault-test, with the
# faults bflyctl added.
. /tests/lib.sh

# refused_same DEV DESCRIPTION EXPECTED-TEXT COMMAND...: refused, and
# bflyctl show DEV (faults, drawing, counters) is the same before and after.
# The debug kernel runs each refusal only: the stock kernels compare the
# fabric around the same kernel paths, and two more bflyctl processes a
# refusal cost about a third of this test there.
refused_same() {
	rdev=$1
	shift
	if debug_kernel; then
		refused "$@"
		return
	fi
	bflyctl show "$rdev" > /tmp/ff.before 2>&1
	refused "$@"
	bflyctl show "$rdev" > /tmp/ff.after 2>&1
	if cmp -s /tmp/ff.before /tmp/ff.after; then
		ok "$1: $rdev unchanged"
	else
		not_ok "$1: $rdev unchanged"
		diff /tmp/ff.before /tmp/ff.after | sed 's/^/#   /'
	fi
}

# changed DEV COUNT DESCRIPTION COMMAND...: a fault change that succeeds,
# printing "DEV: COUNT fault(s)"; the event it must cause is noted
changed() {
	cdev=$1 count=$2 desc=$3
	shift 3
	out=$("$@" 2> /tmp/ff.err)
	rc=$?
	case "$count" in 1) word=fault ;; *) word=faults ;; esac
	if [ $rc -eq 0 ] && [ "$out" = "$cdev: $count $word" ]; then
		ok "$desc: $out"
		echo "${cdev#bfly}:$count" >> /tmp/ff.events
	else
		not_ok "$desc: rc=$rc, '$out', expected '$cdev: $count $word'"
		sed 's/^/#   /' /tmp/ff.err
	fi
}

# json DEV FILTER: the jq FILTER is true of bflyctl -j show DEV
json() {
	bflyctl -j show "$1" > /tmp/ff.json && jq_true /tmp/ff.json "$2"
}

# fault_test WHAT MODE DEV FAULT...: fabric-fault-test, its TAP lines
# prefixed, and its exit status
fault_test() {
	ftwhat=$1
	shift
	fabric-fault-test "$@" > /tmp/ff.tap 2>&1
	rc=$?
	sed "s/^\(\(not \)\{0,1\}ok - \)/\1fault-test $ftwhat: /" /tmp/ff.tap
	check_eq "fault-test $ftwhat: exit status" 0 $rc
}

bfly_unload
rm -f /tmp/ff.events
check "insmod ports=0" insmod "$BFLY_KO" ports=0

# A second process watches the events of everything below.
# Emptied first: the background shell truncates them only later.
: > /tmp/ff-monitor.json
: > /tmp/ff-monitor.err
bflyctl -j monitor > /tmp/ff-monitor.json 2> /tmp/ff-monitor.err &
mon=$!
check "monitor: joined the events group" wait_until 60 grep -q monitoring /tmp/ff-monitor.err

bf=$(bflyctl new butterfly 8)
be=$(bflyctl new benes 8)
check "new butterfly 8 ($bf) and benes 8 ($be)" test -c "/dev/$bf" -a -c "/dev/$be"

# ---- add, list, show ----
check "show: faults 0 on a new fabric" sh -c "bflyctl show $bf | grep -qx '  faults           0'"
check "show -j: no faults" json "$bf" '.faults == 0 and .fault_list == []'
changed "$bf" 1 "add a stuck node" bflyctl fault add "$bf" stuck 2 1 cross
changed "$bf" 3 "add two broken links in one command" bflyctl fault add "$bf" link 0 5 link 2 7
bflyctl show "$bf" > /tmp/ff.show
sed 's/^/# /' /tmp/ff.show
check "show: faults 3" grep -qx '  faults           3' /tmp/ff.show
check "show: the stuck node, one line" grep -qx '    stuck  stage 2 node 1 cross' /tmp/ff.show
check "show: the first broken link" grep -qx '    link   stage 0 pos 5 broken' /tmp/ff.show
check "show: the second broken link" grep -qx '    link   stage 2 pos 7 broken' /tmp/ff.show
check "show: legend of the stuck marker" grep -qF '{=} {X} stuck straight, stuck cross' /tmp/ff.show
check "show: legend of the broken-link marker" grep -qF '/ after a node: one of its output links is broken' /tmp/ff.show
check "show: node 1 drawn stuck cross in stage 2" grep -qE '^ +2,3 +\[.\]-\[.\]-\{X\}  node 1$' /tmp/ff.show
check "show: node 2 of stage 0 has a broken output link" grep -qE '^ +4,5 +\[.\]/\[.\]-\[.\]  node 2$' /tmp/ff.show
check "show: node 3 of the last stage has a broken output link" grep -qE '^ +6,7 +\[.\]-\[.\]-\[.\]/ node 3$' /tmp/ff.show
check "show: nodes without faults drawn as before" grep -qE '^ +0,1 +\[.\]-\[.\]-\[.\]  node 0$' /tmp/ff.show
check "show -j: the fault list, in the order added" json "$bf" \
	'.faults == 3 and .fault_list == [{"kind": "stuck", "stage": 2, "node": 1, "state": "cross"}, {"kind": "link", "stage": 0, "pos": 5}, {"kind": "link", "stage": 2, "pos": 7}]'
bflyctl -j -p show "$bf" > /tmp/ff.json
check "show -j -p parses" jq_true /tmp/ff.json '.fault_list | length == 3'
bflyctl -j list > /tmp/ff.json
check "list -j: faults of every fabric" jq_true /tmp/ff.json 'map(.faults) == [3, 0]'
check_eq "fault list" "$bf: 3 faults|  stuck  stage 2 node 1 cross|  link   stage 0 pos 5 broken|  link   stage 2 pos 7 broken" \
	"$(bflyctl fault list "$bf" | tr '\n' '|' | sed 's/|$//')"
bflyctl -j fault list "$bf" > /tmp/ff.json
check "fault list -j" jq_true /tmp/ff.json \
	".id == ${bf#bfly} and .faults == 3 and .fault_list[0].state == \"cross\""
bflyctl -j fault add "$be" stuck 0 1 straight > /tmp/ff.json
check "fault add -j" jq_true /tmp/ff.json ". == {\"id\": ${be#bfly}, \"faults\": 1}"
echo "${be#bfly}:1" >> /tmp/ff.events
check "fault --help" sh -c 'bflyctl fault --help | grep -q "^usage: bflyctl"'

# ---- refusals: the extended ack, the fabric unchanged ----
refused_same "$bf" "add: node out of range" "no such node [attribute fault #1] (Invalid argument)" \
	bflyctl fault add "$bf" stuck 0 4 cross
refused_same "$bf" "add: stage out of range" "no such node [attribute fault #1]" \
	bflyctl fault add "$bf" stuck 3 0 straight
refused_same "$bf" "add: link position out of range" "no such link [attribute fault #1] (Invalid argument)" \
	bflyctl fault add "$bf" link 0 8
refused_same "$bf" "add: link stage out of range" "no such link" bflyctl fault add "$bf" link 3 0
refused_same "$bf" "add: the second fault bad, neither added" "no such link [attribute fault #2]" \
	bflyctl fault add "$bf" stuck 0 0 cross link 1 99
refused_same "$bf" "add: stuck node without its state" \
	"fault: a stuck node needs its state (0 straight, 1 cross) [attribute fault #1.state missing]" \
	bflyctl raw fault-add 2:u32:${bf#bfly} 31:nest:1:u32:1+2:u32:0+3:u32:0
refused_same "$bf" "add: fault without its kind" "fault: needs kind, stage and index [attribute fault #1.kind missing]" \
	bflyctl raw fault-add 2:u32:${bf#bfly} 31:nest:2:u32:0+3:u32:0
refused_same "$bf" "add: fault without its index" "[attribute fault #1.index missing]" \
	bflyctl raw fault-add 2:u32:${bf#bfly} 31:nest:1:u32:2+2:u32:0
refused_same "$bf" "add: unknown kind 3" "[attribute fault #1.kind]" \
	bflyctl raw fault-add 2:u32:${bf#bfly} 31:nest:1:u32:3+2:u32:0+3:u32:0
refused_same "$bf" "add: state 2" "[attribute fault #1.state]" \
	bflyctl raw fault-add 2:u32:${bf#bfly} 31:nest:1:u32:1+2:u32:0+3:u32:0+4:u32:2
refused_same "$bf" "add: a broken link with a state" "a broken link has no state" \
	bflyctl raw fault-add 2:u32:${bf#bfly} 31:nest:1:u32:2+2:u32:0+3:u32:0+4:u32:1
refused_same "$bf" "add: no fault at all" "fault: missing: give one fault nest or more" \
	bflyctl raw fault-add 2:u32:${bf#bfly}
refused_same "$bf" "add: the stuck node again (EEXIST)" \
	"the node already has a fault [attribute fault #1] (File exists)" \
	bflyctl fault add "$bf" stuck 2 1 straight
refused_same "$bf" "add: the broken link again (EEXIST)" "the link is already broken [attribute fault #2] (File exists)" \
	bflyctl fault add "$bf" stuck 0 0 cross link 2 7
refused_same "$bf" "add: one node twice in a request (EEXIST)" \
	"the request names this node or link twice [attribute fault #2] (File exists)" \
	bflyctl fault add "$bf" stuck 1 2 cross stuck 1 2 straight
refused_same "$bf" "del: no such fault (ENOENT)" \
	"fault: the fabric has no such fault (or it is named twice) [attribute fault #1] (No such file or directory)" \
	bflyctl fault del "$bf" stuck 0 0
refused_same "$bf" "del: a fault and a non-fault: neither repaired" "no such fault (or it is named twice) [attribute fault #2]" \
	bflyctl fault del "$bf" link 0 5 link 0 4
refused_same "$bf" "del: one fault named twice" "[attribute fault #2]" \
	bflyctl fault del "$bf" link 0 5 link 0 5
refused_same "$bf" "del: faults and all-faults" "all-faults: give fault nests or all-faults, not both" \
	bflyctl raw fault-del 2:u32:${bf#bfly} 31:nest:1:u32:2+2:u32:0+3:u32:5 33:flag
refused_same "$bf" "del: nothing named" "fault, all-faults: missing" bflyctl raw fault-del 2:u32:${bf#bfly}
refused "add: unknown fabric" "id: no fabric has this id" bflyctl fault add bfly77 link 0 0
refused "clear: unknown fabric" "id: no fabric has this id" bflyctl fault clear bfly77
refused "add: bad state word (bflyctl)" "'sideways' is not a switch state" bflyctl fault add "$bf" stuck 0 0 sideways
refused "add: incomplete fault (bflyctl)" "incomplete fault: expected 'stuck STAGE NODE straight|cross'" \
	bflyctl fault add "$bf" stuck 0 0
refused "add: unknown fault kind (bflyctl)" "expected 'stuck' or 'link', got 'node'" bflyctl fault add "$bf" node 0 0
refused "unknown fault command (bflyctl)" "unknown fault command 'repair'" bflyctl fault repair "$bf"

# ---- unprivileged users ----
refused_same "$bf" "nobody: fault add (EPERM)" "Operation not permitted" \
	runas 65534 65534 bflyctl fault add "$bf" link 1 1
refused_same "$bf" "nobody: fault del (EPERM)" "Operation not permitted" \
	runas 65534 65534 bflyctl fault del "$bf" link 0 5
refused_same "$bf" "nobody: fault clear (EPERM)" "Operation not permitted" \
	runas 65534 65534 bflyctl fault clear "$bf"
check_eq "nobody: fault list works" "$bf: 3 faults" "$(runas 65534 65534 bflyctl fault list "$bf" | head -1)"

# ---- del, clear ----
changed "$bf" 2 "del a broken link" bflyctl fault del "$bf" link 0 5
changed "$bf" 0 "del the other two at once (a stuck node without its state)" \
	bflyctl fault del "$bf" link 2 7 stuck 2 1
check "show: faults 0 after del" sh -c "bflyctl show $bf | grep -qx '  faults           0'"
check "show: no legend without faults" sh -c "! bflyctl show $bf | grep -q 'stuck straight'"
changed "$bf" 2 "add two again" bflyctl fault add "$bf" stuck 0 0 straight link 1 3
changed "$bf" 0 "clear" bflyctl fault clear "$bf"
check_eq "clear on a fabric without faults" "$bf: 0 faults" "$(bflyctl fault clear "$bf")"

# ---- at most 64 faults, all or nothing ----
b16=$(bflyctl new benes 16)
links=
for s in 0 1 2 3; do
	for p in $(seq 0 15); do
		links="$links link $s $p"
	done
done
# 63 in one command (the last one left out)
changed "$b16" 63 "63 faults in one command" bflyctl fault add "$b16" ${links% link 3 15}
refused_same "$b16" "64th and 65th in one request (ENOSPC): neither added" \
	"a fabric holds at most 64 faults [attribute fault #2] (No space left on device)" \
	bflyctl fault add "$b16" stuck 6 0 cross stuck 6 1 cross
changed "$b16" 64 "the 64th fault" bflyctl fault add "$b16" stuck 6 0 cross
refused_same "$b16" "the 65th fault (ENOSPC)" "a fabric holds at most 64 faults [attribute fault #1] (No space left on device)" \
	bflyctl fault add "$b16" link 3 15
check "show lists all 64" sh -c "[ \$(bflyctl show $b16 | grep -cE '^    (stuck|link) ') -eq 64 ]"
changed "$b16" 0 "clear 64 faults" bflyctl fault clear "$b16"
refused_same "$b16" "65 faults in one request (ENOSPC)" "fault: a fabric holds at most 64 faults" \
	bflyctl fault add "$b16" $links link 4 0
changed "$b16" 64 "64 faults in one request" bflyctl fault add "$b16" $links
changed "$b16" 0 "clear" bflyctl fault clear "$b16"

# ---- routes ----
# Benes routes every permutation, and a broken link hits exactly one
# packet of each.
br=$(bflyctl new benes 8)
changed "$br" 1 "a broken link for the routes" bflyctl fault add "$br" link 2 3
gen=$(bflyctl -j show "$br" | jq .generation)
bflyctl route "$br" identity > /tmp/ff.out 2> /tmp/ff.err
rc=$?
check_eq "route hit by a fault: exit 1" 1 $rc
check "route hit by a fault: one-line error with the extack" sh -c \
	'[ $(wc -l < /tmp/ff.err) -eq 1 ] && grep -qF "faults: packets of the route would meet a fault: route refused, matrix unchanged" /tmp/ff.err && grep -qF "(No route to host)" /tmp/ff.err'
check "route hit by a fault: reported refused, 1 input affected" sh -c \
	'grep -q "refused" /tmp/ff.out && grep -qx "  faults 1: affected 1, stuck unmet 0" /tmp/ff.out'
check "route hit by a fault: generation unchanged" json "$br" ".generation == $gen"
check "route dry-run: affected 1" sh -c \
	"bflyctl route $br dry-run reverse | grep -qx '  faults 1: affected 1, stuck unmet 0'"
bflyctl -j route "$br" dry-run shift 3 > /tmp/ff.json
check "route dry-run -j: the counts" jq_true /tmp/ff.json '[.faults, .affected, .stuck_unmet, .applied] == [1, 1, 0, false]'
check "route allow-faults: applied with the faults reported" sh -c \
	"bflyctl route $br allow-faults identity > /tmp/ff.out && grep -q applied /tmp/ff.out && grep -qx '  faults 1: affected 1, stuck unmet 0 (allowed)' /tmp/ff.out"
check "route allow-faults: generation + 1" json "$br" ".generation == $gen + 1"
bflyctl -j route "$br" allow-faults dry-run identity > /tmp/ff.json
check "route dry-run allow-faults in either order" jq_true /tmp/ff.json '(.applied | not) and .affected == 1'
changed "$br" 0 "clear" bflyctl fault clear "$br"
check "route on a fabric without faults prints no fault line" sh -c \
	"bflyctl route $br identity > /tmp/ff.out && grep -q applied /tmp/ff.out && ! grep -q faults /tmp/ff.out"
bflyctl -j route "$br" dry-run reverse > /tmp/ff.json
check "route -j without faults: faults 0, affected 0" jq_true /tmp/ff.json '[.faults, .affected, .stuck_unmet] == [0, 0, 0]'

# A stuck node of the middle stage: some routes need it in the other state.
changed "$br" 1 "a stuck node in the middle stage" bflyctl fault add "$br" stuck 2 1 cross
seed=
for s in $(seq 1 40); do
	bflyctl route "$br" dry-run random seed $s | grep -q 'stuck unmet 1$' && seed=$s && break
done
if [ -n "$seed" ]; then
	ok "a random permutation needs the stuck node in the other state (seed $seed)"
	refused "route with the stuck node unmet: refused" "packets of the route would meet a fault" \
		bflyctl route "$br" random seed $seed
	check "route with the stuck node unmet: its 2 packets affected, stuck unmet 1" \
		grep -qx "  faults 1: affected 2, stuck unmet 1" /tmp/refused.out
else
	not_ok "a random permutation needs the stuck node in the other state"
fi
changed "$br" 0 "clear" bflyctl fault clear "$br"
bflyctl del "$br"

# Benes: a stuck node outside the middle stage is honoured by every route.
check "benes, stuck node of stage 0: 10 random routes succeed" sh -c \
	"for s in 1 2 3 4 5 6 7 8 9 10; do bflyctl route $be random seed \$s | grep -qx '  faults 1: affected 0, stuck unmet 0' || exit 1; done"

# ---- a2a ----
check "a2a benes, honoured stuck node: succeeds, faults 1, affected 0" sh -c \
	"bflyctl a2a $be > /tmp/ff.out && grep -q 'faults 1, affected 0' /tmp/ff.out"
bflyctl -j a2a "$be" > /tmp/ff.json
check "a2a -j: faults and affected" jq_true /tmp/ff.json '[.rounds, .faults, .affected] == [8, 1, 0]'
# A broken link hits one message of every round: N in all.
changed "$be" 2 "a broken link on benes" bflyctl fault add "$be" link 2 3
check "a2a benes, broken link: faults 2, affected 8 (one message a round)" sh -c \
	"bflyctl a2a $be > /tmp/ff.out && grep -q 'faults 2, affected 8' /tmp/ff.out"
b2=$(bflyctl new bfly2 8)
changed "$b2" 1 "a broken link on bfly2" bflyctl fault add "$b2" link 4 0
bflyctl -j a2a "$b2" > /tmp/ff.json
check "a2a -j bfly2, broken link: 8 rounds, affected 8" jq_true /tmp/ff.json '[.rounds, .faults, .affected, .conflicts] == [8, 1, 8, 0]'
changed "$b2" 0 "clear bfly2" bflyctl fault clear "$b2"
check "a2a bfly2 after clear: succeeds, no fault line" sh -c \
	"bflyctl a2a $b2 > /tmp/ff.out && ! grep -q faults /tmp/ff.out"
changed "$be" 0 "clear benes" bflyctl fault clear "$be"

# ---- events ----
# Emptied first: the background shell truncates them only later.
: > /tmp/ff-mon.txt
: > /tmp/ff-mon.err
bflyctl monitor count 1 > /tmp/ff-mon.txt 2> /tmp/ff-mon.err &
m1=$!
wait_until 60 grep -q monitoring /tmp/ff-mon.err
changed "$bf" 1 "a change while a text monitor listens" bflyctl fault add "$bf" link 1 2
wait_until 60 grep -q faults-changed /tmp/ff-mon.txt
kill $m1 2>/dev/null
wait $m1 2>/dev/null
check_eq "monitor prints faults-changed" "faults-changed $bf: 1 fault" "$(cat /tmp/ff-mon.txt)"
changed "$bf" 0 "clear" bflyctl fault clear "$bf"
wait_until 60 count_at_least "$(wc -l < /tmp/ff.events)" /tmp/ff-monitor.json faults-changed
kill $mon
wait $mon 2>/dev/null
check_eq "monitor -j: one faults-changed event per change, none for refusals" \
	"$(tr '\n' ' ' < /tmp/ff.events)" \
	"$(jq -r 'select(.event == "faults-changed") | "\(.id):\(.faults)"' /tmp/ff-monitor.json | tr '\n' ' ')"

# ---- the kernel's YNL cli.py, driven by the spec alone, agrees ----
# (stock kernels: python3 starts in seconds there, in tens of seconds on
# the debug kernel, where bflyctl's requests above took the same paths)
ynl=/usr/share/bfly/ynl
if debug_kernel; then
	echo "# cli.py: on the stock kernels"
elif [ -f "$ynl/cli.py" ]; then
	python3 "$ynl/cli.py" --spec "$ynl/netlink/specs/bfly.yaml" --no-schema --do fault-add \
		--json "{\"id\": ${bf#bfly}, \"fault\": [{\"kind\": \"stuck\", \"stage\": 1, \"index\": 3, \"state\": 1}, {\"kind\": \"link\", \"stage\": 0, \"index\": 2}]}" \
		--output-json > /tmp/ff-ynl.json 2>&1
	check "cli.py --do fault-add: two faults in one request" \
		jq_true /tmp/ff-ynl.json '."faults-count" == 2'
	check_eq "bflyctl lists what cli.py added" "$bf: 2 faults|  stuck  stage 1 node 3 cross|  link   stage 0 pos 2 broken" \
		"$(bflyctl fault list "$bf" | tr '\n' '|' | sed 's/|$//')"
	python3 "$ynl/cli.py" --spec "$ynl/netlink/specs/bfly.yaml" --no-schema --do fabric-get \
		--json "{\"id\": ${bf#bfly}}" --output-json > /tmp/ff-ynl.json 2>&1
	bflyctl -j show "$bf" > /tmp/ff.json
	check "cli.py fabric-get: the fault nests as bflyctl -j show has them" python3 - <<'PY'
import json
y = json.load(open("/tmp/ff-ynl.json"))
c = json.load(open("/tmp/ff.json"))
assert y["faults-count"] == c["faults"] == 2, (y, c)
conv = [{"kind": f["kind"], "stage": f["stage"], "index": f.get("node", f.get("pos")),
         "state": {"cross": 1, "straight": 0}.get(f.get("state"), 0)} for f in c["fault_list"]]
assert y["fault"] == conv, (y["fault"], conv)
PY
	bflyctl fault clear "$bf" > /dev/null
else
	not_ok "cli.py is in the VM"
fi

# ---- the ioctls, through fabric-fault-test ----
bflyctl del "$b16"
bflyctl del "$b2"
# fault_run TOPOLOGY PORTS "MODES" FAULT...: a new fabric with the faults
# (added with bflyctl), fabric-fault-test in each mode, then a clean run
# after fault clear
fault_run() {
	topo=$1 ports=$2 modes=$3
	shift 3
	dev=$(bflyctl new "$topo" "$ports")
	what="$topo $ports $*"
	faults="$*"
	args=
	for f in $faults; do
		set -- $(echo "$f" | tr ':' ' ')
		case "$1" in
		stuck) args="$args stuck $2 $3 $([ "$4" = 1 ] && echo cross || echo straight)" ;;
		link) args="$args link $2 $3" ;;
		esac
	done
	if ! bflyctl fault add "$dev" $args > /dev/null; then
		not_ok "$what: fault add$args"
		bflyctl del "$dev"
		return
	fi
	for mode in $modes; do
		fault_test "$what: $mode" "$mode" "/dev/$dev" $faults
	done
	bflyctl fault clear "$dev" > /dev/null
	fault_test "$what: clean after fault clear" clean "/dev/$dev"
	bflyctl del "$dev"
}
fault_run butterfly 8 "route batch" stuck:2:1:1
fault_run butterfly 8 "route" stuck:0:3:0
fault_run butterfly 16 "route batch bad" link:1:6
fault_run benes 8 "route batch" stuck:0:1:1
fault_run benes 16 "route batch" stuck:5:3:0
fault_run benes 16 "route batch" stuck:3:2:1
fault_run benes 8 "route batch bad" link:2:3
fault_run benes 16 "route batch" stuck:0:0:1 stuck:3:2:0 link:4:9
fault_run bfly2 8 "route batch bad" link:4:0
fault_run bfly2 16 "route batch" stuck:3:5:1
fault_run bfly2 16 "batch" stuck:0:0:0 link:6:11
fault_run bfly-twice 8 "route" stuck:1:2:1 link:3:4

# ---- the end ----
for d in $(bflyctl -j list | jq -r '.[].dev'); do
	bflyctl del "$d" || not_ok "del $d"
done
check "rmmod" rmmod bfly
check "module unloaded" sh -c '! grep -q "^bfly " /proc/modules'
