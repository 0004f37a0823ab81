#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Netlink requests and signals: a long a2a or route with a timer signal
# firing, or its sender stopped and continued, still gets its reply and
# ack (nl-signal-test, raw requests with NLM_F_ACK); bflyctl a2a survives
# kill -STOP / kill -CONT. A client that leaves a dump unread keeps the
# module in use until it closes its socket (Documentation/bfly.rst).
. /tests/lib.sh

bfly_unload
check "insmod benes 1024" insmod "$BFLY_KO" topology=benes ports=1024
nl-signal-test 0 | sed 's/^\(\(not \)\{0,1\}ok - \)/\1signals: /'

# bflyctl a2a stopped and continued from the shell; a watchdog ends it
# after 300 s so a lost answer fails the test instead of hanging it.
bflyctl a2a bfly0 > /tmp/a2a.out 2>&1 &
pid=$!
(sleep 300; kill -9 $pid 2> /dev/null) &
dog=$!
i=0
while [ $i -lt 20 ] && kill -0 $pid 2> /dev/null; do
	kill -STOP $pid
	sleep 0.05
	kill -CONT $pid
	sleep 0.05
	i=$((i + 1))
done
wait $pid
rc=$?
kill $dog 2> /dev/null
wait $dog 2> /dev/null
check_eq "bflyctl a2a, stopped and continued $i times: exit status" 0 "$rc"
check "bflyctl a2a, stopped and continued: it reports every round" \
	grep -q "1024 rounds" /tmp/a2a.out
sed 's/^/#   /' /tmp/a2a.out

echo "# an unread dump holds the module"
# A matrix of 127 KiB: the dump takes several messages, the client reads one.
big=$(bflyctl new benes 65536)
: > /tmp/hold.out
runas 65534 65534 nl-signal-test hold-dump "${big#bfly}" > /tmp/hold.out &
holder=$!
wait_until 30 grep -q "holding the dump" /tmp/hold.out
check "an unprivileged client holds a dump open" grep -q "holding the dump" /tmp/hold.out
check "rmmod fails while the dump is open" sh -c '! rmmod bfly'
kill $holder
wait $holder 2> /dev/null
check "rmmod works once the client is gone" wait_until 10 rmmod bfly
