#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Decide whether the all-to-all exchange on the 2-ary n-flat fits in C cycles.

The model is Documentation/routing.rst's: a cycle carries one packet per
directed channel between routers, one injection and one ejection per
terminal; a packet is injected, crosses one channel a cycle on a minimal
route (its differing router digits in any order, waiting between hops as it
likes) and is ejected after its last hop. Detours cannot help where the
bound of routing.rst is met with one spare channel slot or none.

The search covers schedules that look the same from every router: router
r's packets do what router 0's do, with router labels XORed by r. Then the
packets of router 0 (2 terminals, N - 2 of them each, and the other local
terminal) decide everything: in each cycle at most one of them crosses
router digit b, anywhere, at most one leaves local port a and at most one
arrives at local port c. A satisfying assignment is a schedule of the whole
exchange; an unsatisfiable one only rules out symmetric schedules.

The formula goes to the cadical SAT solver (Debian package cadical).

  tools/flatfly-schedule-sat.py N CYCLES [--table]

prints SATISFIABLE or UNSATISFIABLE; with --table, for a satisfiable one,
router 0's packets as C initializers
{ a, c, x, injection, { hop cycle of digit 0, 1, ... }, ejection }
(x: the destination router, 0 for no hop), as
kmod/lib/tests/flatfly_exchange_kunit.c holds the N = 16 one.
"""
import itertools
import os
import subprocess
import sys
import tempfile


class Cnf:
    """Clauses over numbered variables, with named variables on demand."""

    def __init__(self):
        self.names = {}
        self.count = 0
        self.clauses = []

    def var(self, *name):
        if name not in self.names:
            self.count += 1
            self.names[name] = self.count
        return self.names[name]

    def fresh(self):
        self.count += 1
        return self.count

    def at_most_one(self, lits):
        """Pairwise for a few literals, a sequential counter for more."""
        if len(lits) <= 5:
            self.clauses += [[-p, -q] for p, q in itertools.combinations(lits, 2)]
            return
        s = [self.fresh() for _ in lits[:-1]]
        self.clauses.append([-lits[0], s[0]])
        for i in range(1, len(lits) - 1):
            self.clauses += [[-lits[i], s[i]], [-s[i - 1], s[i]], [-lits[i], -s[i - 1]]]
        self.clauses.append([-lits[-1], -s[-1]])


def packets(ports):
    """Router 0's packets: (local a, local c, destination router x, digits)."""
    routers = ports // 2
    dims = routers.bit_length() - 1
    return [(a, c, x, [b for b in range(dims) if x >> b & 1])
            for a in range(2) for x in range(routers) for c in range(2)
            if x or c != a]


def formula(ports, cycles):
    cnf = Cnf()
    cyc = range(1, cycles + 1)
    steps = {}
    for p, (a, c, x, digits) in enumerate(packets(ports)):
        steps[p] = [('in', a)] + [('hop', b) for b in digits] + [('out', c)]
        for st in steps[p]:
            lits = [cnf.var(p, st, t) for t in cyc]
            cnf.clauses.append(lits)
            cnf.at_most_one(lits)
        for t in cyc:
            cnf.at_most_one([cnf.var(p, st, t) for st in steps[p]])
        first, last = steps[p][0], steps[p][-1]
        for st in steps[p][1:]:
            for t in cyc:
                cnf.clauses.append([-cnf.var(p, st, t)] +
                                   [cnf.var(p, first, u) for u in cyc if u < t])
        for st in steps[p][1:-1]:
            for t in cyc:
                cnf.clauses.append([-cnf.var(p, st, t)] +
                                   [cnf.var(p, last, u) for u in cyc if u > t])
    users = {}
    for p, sts in steps.items():
        for st in sts:
            users.setdefault(st, []).append(p)
    for st, ps in users.items():
        for t in cyc:
            cnf.at_most_one([cnf.var(p, st, t) for p in ps])
    return cnf


def solve(cnf):
    with tempfile.NamedTemporaryFile('w', suffix='.cnf', delete=False) as f:
        f.write(f'p cnf {cnf.count} {len(cnf.clauses)}\n')
        for cl in cnf.clauses:
            f.write(' '.join(map(str, cl)) + ' 0\n')
    try:
        out = subprocess.run(['cadical', '-q', f.name], capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)
    if 's SATISFIABLE' not in out:
        return None
    true = set()
    for line in out.splitlines():
        if line.startswith('v'):
            true |= {int(v) for v in line.split()[1:] if int(v) > 0}
    return true


def main():
    args = [a for a in sys.argv[1:] if a != '--table']
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[0] + '\nusage: flatfly-schedule-sat.py N CYCLES [--table]')
    ports, cycles = int(args[0]), int(args[1])
    if ports < 4 or ports & (ports - 1):
        sys.exit('N: a power of two, 4 or more')
    cnf = formula(ports, cycles)
    true = solve(cnf)
    print('SATISFIABLE' if true else 'UNSATISFIABLE')
    if not true or '--table' not in sys.argv:
        return
    dims = (ports // 2).bit_length() - 1
    for p, (a, c, x, digits) in enumerate(packets(ports)):
        when = {st: t for (q, st, t), v in cnf.names.items() if q == p and v in true}
        hops = ', '.join('%2d' % when.get(('hop', b), 0) for b in range(dims))
        print('\t{ %d, %d, %d, %2d, { %s }, %2d },' % (a, c, x, when[('in', a)], hops,
                                                       when[('out', c)]))


if __name__ == '__main__':
    main()
