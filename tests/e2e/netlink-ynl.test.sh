#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Independent clients agree with bflyctl: the kernel's YNL cli.py, driven by
# Documentation/netlink/specs/bfly.yaml alone, dumps the same fabrics as
# bflyctl -j, creates and deletes fabrics and reports extended acks; and
# libnl's genl-ctrl-list lists the family, its operations and its group.
. /tests/lib.sh

ynl=/usr/share/bfly/ynl
spec=$ynl/netlink/specs/bfly.yaml
cli() { python3 "$ynl/cli.py" --spec "$spec" "$@"; }

bfly_unload
check "insmod topology=benes ports=16" insmod "$BFLY_KO" topology=benes ports=16
check "python3 and cli.py are in the VM" test -f "$ynl/cli.py"
for t in butterfly:4 bfly2:32 bfly-twice:8 benes:1024; do
	check "bflyctl new ${t%:*} ${t#*:}" bflyctl new "${t%:*}" "${t#*:}"
done
check "cli.py --do fabric-new" sh -c \
	"python3 $ynl/cli.py --spec $spec --do fabric-new --json '{\"topology\": \"butterfly\", \"ports\": 64}' --output-json > /tmp/ynl-new.json"
check "cli.py fabric-new reply names the device" python3 -c '
import json
r = json.load(open("/tmp/ynl-new.json"))
assert r["dev-name"] == "bfly%d" % r["id"] and r["topology"] == "butterfly" and r["ports"] == 64, r'
check "route on bfly0 so the generations differ" bflyctl route bfly0 random seed 5

cli --dump fabric-get --output-json > /tmp/ynl.json 2> /tmp/ynl.err
check "cli.py --dump fabric-get" sh -c '[ -s /tmp/ynl.json ] || { cat /tmp/ynl.err; false; }'
bflyctl -j list > /tmp/ctl.json
check "cli.py dump equals bflyctl -j list" python3 - <<'PY'
import json
ynl = json.load(open("/tmp/ynl.json"))
ctl = json.load(open("/tmp/ctl.json"))
assert len(ynl) == len(ctl) == 6, (len(ynl), len(ctl))
for y, c in zip(sorted(ynl, key=lambda f: f["id"]), ctl):
    assert y["id"] == c["id"] and y["dev-name"] == c["dev"], (y, c)
    assert y["topology"] == c["topology"], (y, c)
    for k in ("ports", "ports-log2", "node-stages", "nodes-per-stage", "switches",
              "generation", "matrix-bytes"):
        assert y[k] == c[k.replace("-", "_")], (k, y, c)
    for k in ("routes", "refusals", "conflicts", "matrix-writes", "batches"):
        assert y["stats"][k] == c["stats"][k.replace("-", "_")], (k, y, c)
print("same", len(ynl), "fabrics")
PY
check "cli.py --do fabric-get with want matrix" sh -c \
	"python3 $ynl/cli.py --spec $spec --do fabric-get --json '{\"id\": 0, \"want\": [\"matrix\"]}' --output-json | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r[\"matrix-bytes\"] == 8 and \"matrix\" in r, r'"
cli --do fabric-new --json '{"topology": "benes", "ports": 12}' > /tmp/ynl-bad.out 2>&1
check "cli.py sees the extack of a refusal" grep -q "ports: not a power of two" /tmp/ynl-bad.out
check "cli.py --do fabric-del" sh -c \
	"python3 $ynl/cli.py --spec $spec --do fabric-del --json '{\"id\": 1}' && ! test -e /dev/bfly1"

# genl-ctrl-list: the family, its 9 operations and the events group
genl-ctrl-list -d > /tmp/genl.out 2>&1
check "genl-ctrl-list lists the bfly family" grep -q ' bfly version 1' /tmp/genl.out
sed -n '/ bfly version/,/^0x/p' /tmp/genl.out > /tmp/genl-bfly.out
check_eq "genl-ctrl-list: 9 operations" 9 "$(grep -c 'op ' /tmp/genl-bfly.out)"
check "genl-ctrl-list: the events multicast group" grep -q 'events' /tmp/genl-bfly.out
check "rmmod" rmmod bfly
