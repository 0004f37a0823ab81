# SPDX-License-Identifier: GPL-2.0
#
# The portable algorithm library's files, relative to kmod/lib: the one
# list the module (Kbuild) and the native builds (tests/native,
# tests/bench, tests/e2e) take them from. A new family's topo/ file and
# algorithm files go here.

BFLY_LIB_SRCS := topology.c topo/butterfly.c topo/bfly2.c topo/bfly_twice.c \
	topo/benes.c topo/kfly.c topo/flatfly.c topo/lcan.c topo/mbfly.c wiring.c trace.c \
	selfroute.c benes.c benes_fault.c linkload.c fault.c kfly.c kfly_split.c settings.c flatfly.c \
	flatfly_exchange.c flatfly_rls.c rls.c schedule.c lcan.c lcan_cycles.c hrel.c \
	hrel_degree.c hrel_unwind.c hrel_scatter.c hrel_walk.c hrel_round.c hrel_choose.c mbfly.c mbfly_route.c mbfly_route_book.c
