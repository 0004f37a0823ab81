#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Independent clients agree with bflyctl: the kernel's YNL cli.py, driven by
# Documentation/netlink/specs/bfly.yaml alone, dumps the same fabrics as
# bflyctl -j, field by field (the matrix and link loads as numbers, the
# faults, the counters), creates and deletes fabrics and reports extended
# acks; YNL sends perm, labels and matrix given as JSON lists of numbers;
# every fabric-get message carries each attribute once, counted on the raw
# messages; and libnl's genl-ctrl-list lists the family, its operations and
# its group. cli.py runs five times (a do, a dump, a refusal with its
# extack, hex input, a delete); the other requests go through the YNL
# library cli.py uses in one python3 (ynl-batch.py): a python3 start
# costs seconds under TCG.
. /tests/lib.sh

ynl=/usr/share/bfly/ynl
spec=$ynl/netlink/specs/bfly.yaml
# Without the schema check, which costs seconds a call under TCG: the
# fabric-new and fabric-del calls below validate the spec once each.
cli() { python3 "$ynl/cli.py" --spec "$spec" --no-schema "$@"; }

# ynl-cmp.py WHAT YNL-JSON CTL-JSON...: for each triple, one TAP line per
# fabric, naming every field where the YNL output (a do reply, or the
# messages of a dump: descriptions and matrix and link-load chunks, put
# together by offset) differs from bflyctl -j (show or list). One process
# for all the comparisons: a python3 start costs seconds under TCG.
cat > /tmp/ynl-cmp.py <<'PY'
import json, sys


def numbers(v):
    return isinstance(v, list) and all(isinstance(x, int) for x in v)


def compare(what, ynl_file, ctl_file):
    ynl = json.load(open(ynl_file))
    ctl = json.load(open(ctl_file))
    msgs = ynl if isinstance(ynl, list) else [ynl]
    ctls = ctl if isinstance(ctl, list) else [ctl]
    return check(what, fabrics(msgs), ctls)


# Put each fabric together from its messages.
def fabrics(msgs):
    fabs = {}
    for m in msgs:
        f = fabs.setdefault(m["id"], {"matrix-words": {}, "link-load-entries-got": {}})
        for k, v in m.items():
            if k == "matrix":
                if not numbers(v):
                    f["matrix-bad"] = v
                else:
                    # matrix-offset is in bytes; the words are u64
                    f["matrix-words"][m.get("matrix-offset", 0) // 8] = v
            elif k == "link-load":
                if not numbers(v):
                    f["link-load-bad"] = v
                else:
                    f["link-load-entries-got"][m.get("link-load-offset", 0)] = v
            elif k not in ("matrix-offset", "link-load-offset"):
                f[k] = v
    return fabs


def joined(chunks):
    out = []
    for off in sorted(chunks):
        if off != len(out):
            return None
        out += chunks[off]
    return out


def faults(y):
    out = []
    for x in y.get("fault", []):
        if x["kind"] == "stuck":
            out.append({"kind": "stuck", "stage": x["stage"], "node": x["index"],
                        "state": "cross" if x["state"] else "straight"})
        else:
            out.append({"kind": x["kind"], "stage": x["stage"], "pos": x["index"]})
    return out


def short(v):
    s = json.dumps(v)
    return s if len(s) <= 60 else s[:57] + "..."


def check(what, fabs, ctls):
    failed = 0
    if sorted(fabs) != sorted(c["id"] for c in ctls):
        print(f"not ok - {what}: cli.py has fabrics {sorted(fabs)}, bflyctl "
              f"{sorted(c['id'] for c in ctls)}")
        failed += 1
    for c in ctls:
        y = fabs.get(c["id"], {})
        pairs = [("id", "id"), ("dev-name", "dev"), ("topology", "topology")]
        pairs += [(k, k.replace("-", "_")) for k in
                  ("ports", "ports-log2", "node-stages", "nodes-per-stage",
                   "switches", "generation", "matrix-bytes")]
        diff, n = [], 0
        for yk, ck in pairs:
            n += 1
            if y.get(yk) != c.get(ck):
                diff.append(f"{yk} {short(y.get(yk))} != {ck} {short(c.get(ck))}")
        for k in ("routes", "refusals", "conflicts", "matrix-writes", "batches"):
            n += 1
            yv, cv = y.get("stats", {}).get(k), c.get("stats", {}).get(k.replace("-", "_"))
            if yv != cv:
                diff.append(f"stats.{k} {yv} != {cv}")
        if "faults" in c:
            n += 2
            if y.get("faults-count") != c["faults"]:
                diff.append(f"faults-count {y.get('faults-count')} != faults {c['faults']}")
            if faults(y) != c["fault_list"]:
                diff.append(f"fault {short(faults(y))} != fault_list {short(c['fault_list'])}")
        if "matrix" in c:
            n += 1
            words = joined(y["matrix-words"]) if y["matrix-words"] else None
            if "matrix-bad" in y:
                diff.append(f"matrix is not a list of numbers: {short(y['matrix-bad'])}")
            elif words is None or len(words) * 8 != c["matrix_bytes"]:
                diff.append(f"matrix: {len(words or [])} u64 words for "
                            f"{c['matrix_bytes']} bytes")
            else:
                nps = c["nodes_per_stage"]
                rows = ["".join(str(words[(s * nps + k) // 64] >> ((s * nps + k) % 64) & 1)
                                for k in range(nps)) for s in range(c["node_stages"])]
                if rows != c["matrix"]:
                    diff.append(f"matrix {short(rows)} != {short(c['matrix'])}")
        if "max_link_load" in c:
            n += 1
            if y.get("max-link-load") != c["max_link_load"]:
                diff.append(f"max-link-load {y.get('max-link-load')} != {c['max_link_load']}")
        if "link_loads" in c:
            n += 2
            if y.get("link-load-entries") != c["node_stages"] * c["ports"]:
                diff.append(f"link-load-entries {y.get('link-load-entries')}")
            load = joined(y["link-load-entries-got"]) if y["link-load-entries-got"] else None
            p = c["ports"]
            if "link-load-bad" in y:
                diff.append(f"link-load is not a list of numbers: {short(y['link-load-bad'])}")
            elif load is None or [load[s * p:(s + 1) * p] for s in range(c["node_stages"])] != c["link_loads"]:
                diff.append(f"link-load {short(load)} != link_loads {short(c['link_loads'])}")
        if diff:
            failed += 1
            print(f"not ok - {what} {c['dev']}: cli.py differs from bflyctl -j in: " +
                  "; ".join(diff))
        else:
            print(f"ok - {what} {c['dev']}: cli.py equals bflyctl -j, {n} fields")
    return failed


failed = 0
args = sys.argv[1:]
for k in range(0, len(args), 3):
    try:
        failed += compare(*args[k:k + 3])
    except Exception as e:
        # A crash is a failed check too, not a missing line.
        print(f"not ok - {args[k]}: {type(e).__name__}: {e}")
        failed += 1
sys.exit(1 if failed else 0)
PY

# ynl-attrs.py [ID]: fabric-get on a raw generic netlink socket, a dump of
# every fabric with their matrices and link loads (and a do of fabric ID):
# one TAP line each, naming any attribute a message carries twice but
# multi-attr ones. cli.py keeps the last of two equal attributes, so the
# check reads the messages itself.
cat > /tmp/ynl-attrs.py <<'PY'
import os, socket, struct, sys
import yaml

sys.excepthook = lambda t, e, tb: print(f"not ok - fabric-get, raw: {t.__name__}: {e}")
spec = yaml.safe_load(open(sys.argv[1]))
fabric = [s for s in spec["attribute-sets"] if s["name"] == "fabric"][0]
names, multi, val = {}, set(), 0
for a in fabric["attributes"]:
    val = a.get("value", val)
    names[val] = a["name"]
    if a.get("multi-attr"):
        multi.add(val)
    val += 1
cmds = {o["name"]: i for i, o in enumerate(spec["operations"]["list"])}
ids = {n: v for v, n in names.items()}

NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 1, 4, 0x300
NLMSG_ERROR, NLMSG_DONE, GENL_ID_CTRL = 2, 3, 16
sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
sock.bind((0, 0))
seq = 0


def attrs(buf):
    off = 0
    while off + 4 <= len(buf):
        ln, ty = struct.unpack_from("HH", buf, off)
        yield ty & 0x3fff, buf[off + 4:off + ln]
        off += (ln + 3) & ~3


def request(family, cmd, flags, payload):
    global seq
    seq += 1
    body = struct.pack("BBH", cmd, 1, 0) + payload
    sock.send(struct.pack("IHHII", 16 + len(body), family,
                          NLM_F_REQUEST | NLM_F_ACK | flags, seq, 0) + body)
    out = []
    while True:
        data = sock.recv(1 << 20)
        off = 0
        while off < len(data):
            ln, ty, fl, sq, pid = struct.unpack_from("IHHII", data, off)
            msg = data[off + 16:off + ln]
            off += (ln + 3) & ~3
            if ty == NLMSG_DONE:
                return out
            if ty == NLMSG_ERROR:
                err = struct.unpack_from("i", msg)[0]
                if err:
                    raise OSError(-err, os.strerror(-err))
                return out
            out.append(list(attrs(msg[4:])))


def nla(ty, data):
    return struct.pack("HH", 4 + len(data), ty) + data + b"\0" * (-len(data) % 4)


ctrl = request(GENL_ID_CTRL, 3, 0, nla(2, b"bfly\0"))  # CTRL_CMD_GETFAMILY
family = struct.unpack("H", dict(ctrl[0])[1][:2])[0]    # CTRL_ATTR_FAMILY_ID


def report(what, msgs):
    bad = []
    for i, m in enumerate(msgs):
        seen = {}
        for ty, _ in m:
            seen[ty] = seen.get(ty, 0) + 1
        twice = [f"{names.get(t, t)} {c} times" for t, c in sorted(seen.items())
                 if c > 1 and t not in multi]
        if twice:
            fid = [struct.unpack("I", d)[0] for t, d in m if t == ids["id"]]
            bad.append(f"message {i} (id {fid[0] if fid else '?'}): " + ", ".join(twice))
    if bad:
        print(f"not ok - {what}: {len(bad)} of {len(msgs)} messages repeat attributes: " +
              "; ".join(bad[:4]) + ("; ..." if len(bad) > 4 else ""))
    else:
        print(f"ok - {what}: {len(msgs)} messages, each attribute once (multi-attr aside)")
    return not bad


want = nla(ids["want"], struct.pack("I", 3))  # matrix, link-load
ok = report("fabric-get dump, raw", request(family, cmds["fabric-get"], NLM_F_DUMP, want))
if len(sys.argv) > 2:
    one = nla(ids["id"], struct.pack("I", int(sys.argv[2])))
    ok &= report(f"fabric-get do of id {sys.argv[2]}, raw",
                 request(family, cmds["fabric-get"], 0, one + want))
    ok &= report(f"fabric-get dump of id {sys.argv[2]}, raw",
                 request(family, cmds["fabric-get"], NLM_F_DUMP, one + want))
sys.exit(0 if ok else 1)
PY

# ynl-batch.py YNL-DIR SPEC < REQUESTS: one request a line, "OUT do|dump
# OP JSON", through the YNL library cli.py uses (YnlFamily, the spec
# loaded once, no schema check): the reply goes to OUT as cli.py
# --output-json prints it, an error to OUT with .json changed to .err.
# One process for all of them: a python3 start costs seconds under TCG.
# Binary attributes given as JSON lists of numbers are packed by their
# sub-type in the spec (as ynl.py does itself from Linux 6.17, "tools:
# ynl: support packing binary arrays of scalars"; 6.12's only packs hex
# strings). Without a sub-type the list goes to YNL as it is, which
# refuses it.
cat > /tmp/ynl-batch.py <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
from lib import YnlFamily
from lib.ynl import NlAttr


class YnlEncoder(json.JSONEncoder):
    def default(self, obj):
        if isinstance(obj, bytes):
            return bytes.hex(obj)
        if isinstance(obj, set):
            return list(obj)
        return json.JSONEncoder.default(self, obj)


def packed(op, attrs):
    aset = ynl.ops[op].attr_set
    for name, value in attrs.items():
        a = aset[name]
        if a.type == "binary" and isinstance(value, list) and a.sub_type in NlAttr.type_formats:
            fmt = NlAttr.get_format(a.sub_type)
            attrs[name] = b"".join(fmt.pack(x) for x in value)
    return attrs


ynl = YnlFamily(sys.argv[2], "")
for line in sys.stdin:
    out, mode, op, attrs = line.split(" ", 3)
    err = out.rsplit(".json", 1)[0] + ".err"
    with open(out, "w") as o, open(err, "w") as e:
        try:
            attrs = json.loads(attrs)
            if mode == "do":
                reply = ynl.do(op, packed(op, attrs), None)
            else:
                reply = ynl.dump(op, attrs)
            print(json.dumps(reply, cls=YnlEncoder), file=o)
        except Exception as x:
            print(f"{type(x).__name__}: {x}", file=e)
PY

bfly_unload
check "insmod topology=benes ports=16" insmod "$BFLY_KO" topology=benes ports=16
check "python3 and cli.py are in the VM" test -f "$ynl/cli.py"
for t in butterfly:8 bfly2:32 bfly-twice:8 benes:512; do
	check "bflyctl new ${t%:*} ${t#*:}" bflyctl new "${t%:*}" "${t#*:}"
done
check "cli.py --do fabric-new" sh -c \
	"python3 $ynl/cli.py --spec $spec --do fabric-new --json '{\"topology\": \"butterfly\", \"ports\": 64}' --output-json > /tmp/ynl-new.json"
check "cli.py fabric-new reply names the device" jq_true /tmp/ynl-new.json \
	'.["dev-name"] == "bfly\(.id)" and .topology == "butterfly" and .ports == 64'

# A route and two faults on each: bfly0-5 are benes 16, butterfly 8, bfly2
# 32, bfly-twice 8, benes 512, butterfly 64. The butterflies' permutations
# and the labels are conflict-free: computed on the host by walking each
# fabric with kmod/wiring.c, node k of stage s set to (3s + 5k) % 7 < 3,
# and checked with kmod/selfroute.c's bfly_selfroute_labels().
p1=5,0,3,4,2,7,6,1
l2=409,39,145,371,106,354,424,126,220,485,246,287,259,9,468,23,176,315,53,504,445,237,161,303,90,331,388,70,460,142,192,338
l3=44,7,24,34,21,62,51,9
p5=43,7,27,47,10,51,59,14,16,44,28,39,60,12,45,6,26,35,11,61,58,2,31,42,29,37,56,13,40,4,25,36,21,63,55,5,30,38,22,34,54,1,48,0,23,32,17,62,49,15,19,33,18,46,50,3,57,9,20,41,24,52,53,8
check "route bfly0 random (looping)" bflyctl route bfly0 random seed 5
check "route bfly1 perm (self-routing)" bflyctl route bfly1 perm $p1
check "route bfly2 labels" bflyctl route bfly2 labels $l2
check "route bfly3 labels" bflyctl route bfly3 labels $l3
check "route bfly4 random (looping)" bflyctl route bfly4 random seed 7
check "route bfly5 perm (self-routing)" bflyctl route bfly5 perm $p5
for i in 0 1 2 3 4 5; do
	check "fault add bfly$i stuck 0 1 cross link 1 2" \
		bflyctl fault add "bfly$i" stuck 0 1 cross link 1 2
done

# Field by field: one dump of every fabric, a dump and a do of each with
# its matrix and link loads (bfly4's link loads, 34 KiB, come in a dump
# only), against bflyctl -j list and show. The dump of every fabric goes
# through cli.py; the other requests go through the same YNL library in
# one process (ynl-batch.py), each reply written as cli.py --output-json
# writes it.
cli --dump fabric-get --output-json > /tmp/ynl.json 2> /tmp/ynl.err
check "cli.py --dump fabric-get" sh -c '[ -s /tmp/ynl.json ] || { cat /tmp/ynl.err; false; }'
bflyctl -j list > /tmp/ctl.json
for i in 0 1 2 3 4 5; do
	bflyctl -j show "bfly$i" matrix loads > "/tmp/ctl-$i.json"
done
bflyctl -j show bfly4 matrix > /tmp/ctl-4m.json
for i in 0 1 2 3 4 5; do
	echo "/tmp/ynl-dump-$i.json dump fabric-get {\"id\": $i, \"want\": [\"matrix\", \"link-load\"]}"
	[ $i -eq 4 ] && continue
	echo "/tmp/ynl-do-$i.json do fabric-get {\"id\": $i, \"want\": [\"matrix\", \"link-load\"]}"
done > /tmp/ynl-batch.in
echo '/tmp/ynl-do-4.json do fabric-get {"id": 4, "want": ["matrix"]}' >> /tmp/ynl-batch.in
python3 /tmp/ynl-batch.py "$ynl" "$spec" < /tmp/ynl-batch.in
set -- "dump, list" /tmp/ynl.json /tmp/ctl.json
for i in 0 1 2 3 4 5; do
	[ -s "/tmp/ynl-dump-$i.err" ] &&
		not_ok "cli.py --dump fabric-get id $i: $(tail -1 "/tmp/ynl-dump-$i.err")"
	set -- "$@" "dump, show" "/tmp/ynl-dump-$i.json" "/tmp/ctl-$i.json"
	[ $i -eq 4 ] && continue
	[ -s "/tmp/ynl-do-$i.err" ] &&
		not_ok "cli.py --do fabric-get id $i: $(tail -1 "/tmp/ynl-do-$i.err")"
	set -- "$@" "do, show" "/tmp/ynl-do-$i.json" "/tmp/ctl-$i.json"
done
python3 /tmp/ynl-cmp.py "$@" "do, show matrix" /tmp/ynl-do-4.json /tmp/ctl-4m.json

# Each attribute once per message, on the raw messages
python3 /tmp/ynl-attrs.py "$spec" 3

# Input as lists of numbers: perm (u32), labels (u64), matrix (u64 words),
# three requests through ynl-batch.py in one process; the values to expect
# are computed in the shell and compared with jq.
ba=$(bflyctl new benes 16)
bb=$(bflyctl new benes 16)
b2=$(bflyctl new bfly2 16)
rev=15
for i in 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0; do rev="$rev, $i"; done
bflyctl route "$bb" reverse > /dev/null
bbrev=$(bflyctl -j show "$bb" matrix | jq -c .matrix)
# The labels of packets that go straight through every node of bfly2 16:
# no conflicts (a dry run with conflicts is refused, as on the ioctl).
# Edge stages flip node-label bits 2, 1, 0, 2, 1, 0 (routing.rst): they
# swap link position bit 0 with bit b + 1.
lab=
for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	p=$i l=0
	for b in 2 1 0 2 1 0 -; do
		l=$((l << 1 | (p & 1)))
		[ "$b" = - ] && break
		[ $(((p >> (b + 1) ^ p) & 1)) -eq 1 ] && p=$((p ^ (1 | 1 << (b + 1))))
	done
	lab=${lab:+$lab,}$l
done
# 7 node stages of 8 nodes: 56 bits of one u64 word
word=$((0x00a55af00f3cc3ff))
python3 /tmp/ynl-batch.py "$ynl" "$spec" <<REQ
/tmp/ynl-route.json do route {"id": ${ba#bfly}, "perm": [$rev]}
/tmp/ynl-labels.json do route {"id": ${b2#bfly}, "labels": [$lab], "dry-run": true}
/tmp/ynl-switch.json do switch-set {"id": ${bb#bfly}, "matrix": [$word]}
REQ
check "YNL route $ba with perm as a JSON list (reverse)" sh -c \
	'[ -s /tmp/ynl-route.json ] || { cat /tmp/ynl-route.err; false; }'
check "YNL route reply: looping, no conflicts" jq_true /tmp/ynl-route.json \
	'.method == "looping" and .["conflicts-count"] == 0'
check_eq "YNL route $ba: the matrix bflyctl route $bb reverse sets" \
	"$bbrev" "$(bflyctl -j show "$ba" matrix | jq -c .matrix)"
bflyctl -j route "$b2" dry-run labels "$lab" > /tmp/ctl-labels.json
check "YNL route $b2 dry-run with labels as a JSON list: as bflyctl's" \
	jq -e --slurpfile c /tmp/ctl-labels.json '$c[0] as $c |
	.method == "labels" and $c.method == "labels" and
	.["conflicts-count"] == $c.conflicts and .generation == $c.generation and
	(($c | has("first_conflict_stage") | not) or
	 .["first-conflict-stage"] == $c.first_conflict_stage)' /tmp/ynl-labels.json
check "YNL switch-set $bb with matrix as a JSON list of u64 words" sh -c \
	'[ -s /tmp/ynl-switch.json ] || { cat /tmp/ynl-switch.err; false; }'
rows=
for s in 0 1 2 3 4 5 6; do
	row=
	for k in 0 1 2 3 4 5 6 7; do row=$row$((word >> (s * 8 + k) & 1)); done
	rows=${rows:+$rows,}\"$row\"
done
check_eq "bflyctl show $bb: the bits of that word" \
	"[$rows]" "$(bflyctl -j show "$bb" matrix | jq -c .matrix)"
# 6.12's cli.py still takes hex: u32 in host (little-endian) byte order
hex=
for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	hex=$hex$(printf '%02x000000' $(((i + 3) % 16)))
done
check "cli.py route dry-run with perm as hex (shift 3)" sh -c \
	"python3 $ynl/cli.py --spec $spec --do route --json '{\"id\": ${ba#bfly}, \"perm\": \"$hex\", \"dry-run\": true}' --output-json > /tmp/ynl-hex.json &&
	jq -e '.method == \"looping\" and .[\"conflicts-count\"] == 0' /tmp/ynl-hex.json"

cli --do fabric-new --json '{"topology": "benes", "ports": 12}' > /tmp/ynl-bad.out 2>&1
check "cli.py sees the extack of a refusal" grep -q "ports: not a power of two" /tmp/ynl-bad.out
check "cli.py --do fabric-del" sh -c \
	"python3 $ynl/cli.py --spec $spec --do fabric-del --json '{\"id\": 1}' && ! test -e /dev/bfly1"

# genl-ctrl-list: the family, the spec's operations and the events group
ops=$(python3 -c "import sys, yaml
print(sum('do' in o or 'dump' in o for o in yaml.safe_load(open(sys.argv[1]))['operations']['list']))" "$spec")
genl-ctrl-list -d > /tmp/genl.out 2>&1
check "genl-ctrl-list lists the bfly family" grep -q ' bfly version 1' /tmp/genl.out
sed -n '/ bfly version/,/^0x/p' /tmp/genl.out > /tmp/genl-bfly.out
check_eq "genl-ctrl-list: the spec's $ops operations" "$ops" "$(grep -c 'op ' /tmp/genl-bfly.out)"
check "genl-ctrl-list: the events multicast group" grep -q 'events' /tmp/genl-bfly.out
check "rmmod" rmmod bfly
