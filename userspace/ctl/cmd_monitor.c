// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl monitor: the "events" multicast group.
 */
#include "bflyctl.h"

long events_left = -1;

/*
 * A message of nlctrl's "notify" group: when the bfly family is
 * unregistered (rmmod bfly), its events group is gone with it, so the
 * monitor says so and exits with status 1, as "ip monitor" users expect
 * when the source disappears.
 */
int on_ctrl_event(struct nl_msg *msg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[CTRL_ATTR_MAX + 1];

	if (gh->cmd != CTRL_CMD_DELFAMILY ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, CTRL_ATTR_MAX, NULL) ||
	    !tb[CTRL_ATTR_FAMILY_NAME] ||
	    strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]), BFLY_FAMILY_NAME))
		return NL_SKIP;
	fflush(stdout);
	die("the %s family went away (module unloaded)", BFLY_FAMILY_NAME);
	return NL_STOP;
}

int on_event(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[BFLY_A_MAX + 1];
	const char *ev = cmd_name_of(gh->cmd);
	unsigned int id;

	(void)arg;
	if (nlmsg_hdr(msg)->nlmsg_type == GENL_ID_CTRL)
		return on_ctrl_event(msg);
	if (nlmsg_hdr(msg)->nlmsg_type != family_id ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL))
		return NL_SKIP;
	id = get_u32(tb, BFLY_A_ID);
	if (json) {
		bool p = pretty;

		pretty = false;	/* one event per line */
		jopen('{');
		jks("event", ev);
		jkn("id", id);
		if (tb[BFLY_A_DEV_NAME])
			jks("dev", nla_get_string(tb[BFLY_A_DEV_NAME]));
		if (tb[BFLY_A_TOPOLOGY])
			jks("topology", topo_name(nla_get_u32(tb[BFLY_A_TOPOLOGY])));
		if (tb[BFLY_A_PORTS])
			jkn("ports", nla_get_u32(tb[BFLY_A_PORTS]));
		if (tb[BFLY_A_RADIX])
			jkn("radix", nla_get_u32(tb[BFLY_A_RADIX]));
		if (tb[BFLY_A_GENERATION])
			jkn("generation", nla_get_u64(tb[BFLY_A_GENERATION]));
		if (tb[BFLY_A_CONFLICTS_COUNT])
			jkn("conflicts", nla_get_u32(tb[BFLY_A_CONFLICTS_COUNT]));
		if (tb[BFLY_A_FIRST_CONFLICT_STAGE])
			jkn("first_conflict_stage", nla_get_u32(tb[BFLY_A_FIRST_CONFLICT_STAGE]));
		if (tb[BFLY_A_LATIN])
			jks("latin", latin_name(nla_get_u32(tb[BFLY_A_LATIN])));
		if (tb[BFLY_A_ROUNDS])
			jkn("rounds", nla_get_u32(tb[BFLY_A_ROUNDS]));
		if (tb[BFLY_A_CYCLES])
			jkn("cycles", nla_get_u64(tb[BFLY_A_CYCLES]));
		if (tb[BFLY_A_FAULTS_COUNT])
			jkn("faults", nla_get_u32(tb[BFLY_A_FAULTS_COUNT]));
		jclose('}');
		pretty = p;
	} else {
		switch (gh->cmd) {
		case BFLY_CMD_FABRIC_CREATED_NTF:
			printf("created bfly%u: %s, %u ports", id,
			       topo_name(get_u32(tb, BFLY_A_TOPOLOGY)),
			       get_u32(tb, BFLY_A_PORTS));
			if (topo_kxk(get_u32(tb, BFLY_A_TOPOLOGY)))
				printf(", radix %u", get_u32(tb, BFLY_A_RADIX));
			putchar('\n');
			break;
		case BFLY_CMD_FABRIC_DELETED_NTF:
			printf("deleted bfly%u\n", id);
			break;
		case BFLY_CMD_MATRIX_CHANGED_NTF:
			printf("matrix-changed bfly%u: generation %llu\n", id,
			       get_u64(tb, BFLY_A_GENERATION));
			break;
		case BFLY_CMD_CONFLICTS_NTF:
			printf("conflicts bfly%u: %u conflicts, first at node stage %u\n", id,
			       get_u32(tb, BFLY_A_CONFLICTS_COUNT),
			       get_u32(tb, BFLY_A_FIRST_CONFLICT_STAGE));
			break;
		case BFLY_CMD_BATCH_DONE_NTF:
			printf("batch-done bfly%u: %s, %u rounds, %llu cycles, %u conflicts\n",
			       id, latin_name(get_u32(tb, BFLY_A_LATIN)),
			       get_u32(tb, BFLY_A_ROUNDS), get_u64(tb, BFLY_A_CYCLES),
			       get_u32(tb, BFLY_A_CONFLICTS_COUNT));
			break;
		case BFLY_CMD_FAULTS_CHANGED_NTF:
			printf("faults-changed bfly%u: %u fault%s\n", id,
			       get_u32(tb, BFLY_A_FAULTS_COUNT),
			       get_u32(tb, BFLY_A_FAULTS_COUNT) == 1 ? "" : "s");
			break;
		default:
			printf("event %u bfly%u\n", gh->cmd, id);
		}
	}
	fflush(stdout);
	if (events_left > 0 && !--events_left)
		exit(0);
	return NL_OK;
}

int cmd_monitor(int argc, char **argv)
{
	int grp, ctrl_grp, err;

	if (help(argc, argv,
		 "usage: bflyctl [-j] monitor [count N]\n"
		 "Print the family's events as they happen, one line each (with -j one\n"
		 "JSON object per line): created, deleted, matrix-changed, conflicts,\n"
		 "batch-done, faults-changed. With count N, exit after N events. When\n"
		 "the family goes away (rmmod bfly), say so and exit with status 1.\n"))
		return 0;
	if (argc == 2 && !strcmp(argv[0], "count"))
		events_left = parse_u32("count", argv[1]);
	else if (argc)
		die("unexpected argument '%s' (see bflyctl monitor --help)", argv[0]);
	if (!events_left)
		return 0;
	connect_family();
	grp = genl_ctrl_resolve_grp(sk, BFLY_FAMILY_NAME, BFLY_MCGRP_EVENTS);
	if (grp < 0)
		die("multicast group \"%s\" not found", BFLY_MCGRP_EVENTS);
	/* nlctrl's notifications tell when the family goes away */
	ctrl_grp = genl_ctrl_resolve_grp(sk, "nlctrl", "notify");
	if (ctrl_grp < 0)
		die("multicast group \"notify\" of nlctrl not found");
	nl_socket_disable_seq_check(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_event, NULL);
	/* Room for bursts of events; the default is 32 KiB. */
	nl_socket_set_buffer_size(sk, 1 << 20, 0);
	err = nl_socket_add_memberships(sk, grp, ctrl_grp, 0);
	if (err < 0)
		die("cannot join the events groups: %s", nl_geterror(err));
	/*
	 * Always said, once the group is joined, as tcpdump says "listening":
	 * a script that starts a monitor in the background waits for this
	 * line before it makes the changes it wants to see.
	 */
	fprintf(stderr, "bflyctl: monitoring bfly events (Ctrl-C to stop)\n");
	for (;;) {
		err = nl_recvmsgs_default(sk);
		/* ENOBUFS: the kernel dropped events; say so and go on. */
		if (err == -NLE_NOMEM)
			fprintf(stderr, "bflyctl: events lost: the receive buffer overflowed\n");
		else if (err < 0 && err != -NLE_INTR)
			die("netlink: %s", nl_geterror(err));
	}
}

/*
 * raw: TYPE:KIND[:VALUE], KIND u8 u16 u32 u64 str flag hex nest; a nest's
 * VALUE is its attributes, TYPE:KIND[:VALUE] each, separated by '+'.
 */
