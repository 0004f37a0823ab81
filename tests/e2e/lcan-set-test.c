// SPDX-License-Identifier: GPL-2.0
/*
 * An LCAN's switch settings end to end (issue 13): a byte per connector
 * of every switch (uapi BFLY_MATRIX_PORT_MAP; Documentation/lcan.rst).
 *
 *   lcan-set-test /dev/bflyN    on CB-LCAN(2,2) N = 8 or T-LCAN(4,2) N = 16
 *
 * A hand-made valid setting is set by SET_MATRIX, read back by GET_MATRIX
 * and traced to the processors the wiring rules give; then settings the
 * switches cannot hold, each one byte away from the valid one, are
 * refused with EINVAL by the ioctl and by netlink switch-set (with an
 * extack naming the byte at fault), the bytes and the generation
 * unchanged.
 */
#include <sys/socket.h>
#include <sys/utsname.h>

#include "e2e-util.h"
#include "nl-kit.h"

#define U BFLY_PORT_UNSET
#define TOP BFLY_TRACE_TOP
#define LOST BFLY_TRACE_LOST

/*
 * CB-LCAN(2,2) N = 8: 3 levels of 4 switches of 4 connectors (downers 0,
 * 1; uppers 2, 3), entry = 16 level + 4 switch + connector. Upper k of
 * (H, Lo) at level i goes to switch (H / 2) 2^(i+1) + 2 Lo + k of level
 * i + 1, downer H % 2. PEs 0 <-> 1 turn at level 0; 2 <-> 4 turn at
 * level 2 (up by uppers 0); PE 3 turns back to itself; PE 6 leaves the
 * top by level-2 switch 3's upper 0 (output 6); PEs 5 and 7 meet
 * connectors set to nothing.
 */
static const __u8 cb_set[48] = {
	/* level 0 */ 1, 0, U, U,   2, 1, 0, U,   2, U, 0, U,   3, U, U, U,
	/* level 1 */ U, 2, 1, U,   U, U, U, U,   2, U, 0, U,   U, 3, U, U,
	/* level 2 */ 1, 0, U, U,   U, U, U, U,   U, U, U, U,   U, 2, U, U,
};

static const __u32 cb_trace[8] = { 1, 0, 4, 3, 2, LOST, TOP | 6, LOST };

/*
 * T-LCAN(4,2) N = 16: levels of 4, 2 and 1 switches of 6 connectors
 * (downers 0-3, uppers 4, 5), entry = first_conn[level] + 6 switch +
 * connector, first_conn = 0, 24, 36. Upper k of switch s goes to switch
 * s / 2, downer 2 (s % 2) + k. PEs 0 <-> 5 turn at level 1; PE 15 leaves
 * the top (output 0); the others are lost.
 */
static const __u8 t_set[42] = {
	/* level 0 */ 4, U, U, U, U, 0,   U, 5, U, U, 1, U,
		      U, U, U, U, U, U,   U, U, U, 4, U, U,
	/* level 1 */ 2, U, U, 1, U, U,   U, U, 5, U, U, U,
	/* level 2 */ U, U, U, 4, U, U,
};

static const __u32 t_trace[16] = {
	5, LOST, LOST, LOST, LOST, 0, LOST, LOST,
	LOST, LOST, LOST, LOST, LOST, LOST, LOST, TOP | 0,
};

/* A setting one byte away from the valid one, and why it is refused */
struct bad {
	const char *what;
	unsigned int byte;
	__u8 value;
	const char *why;
};

static const struct bad cb_bad[] = {
	{ "two downers to one upper (connector used twice)", 13, 3, "used twice" },
	{ "a packet that came down going up", 18, 3, "came down can only go down" },
	{ "a wire arriving on an upper of the top level", 35, 3, "upper of the top level" },
	{ "a connector number out of range (4 of 4)", 7, 4, "does not have" },
	{ "a connector number out of range (254)", 3, 254, "does not have" },
};

static const struct bad t_bad[] = {
	{ "two downers to one upper (connector used twice)", 1, 4, "used twice" },
	{ "a packet that came down going up", 28, 5, "came down can only go down" },
	{ "a wire arriving on an upper of the top level", 40, 0, "upper of the top level" },
	{ "a connector number out of range (6 of 6)", 2, 6, "does not have" },
};

static struct bfly_info info;
static int fd;
static __u32 id;

/* GET_MATRIX as port maps: 0 or -1. */
static int get_maps(__u8 *m, size_t bytes, __u64 *gen)
{
	struct bfly_matrix a = {
		.size = sizeof(a), .flags = BFLY_MATRIX_PORT_MAP,
		.matrix_ptr = (uintptr_t)m, .matrix_bytes = bytes,
	};

	if (ioctl(fd, BFLY_IOC_GET_MATRIX, &a))
		return -1;
	*gen = a.generation;
	return 0;
}

/* SET_MATRIX as port maps: what ioctl() returns. */
static int set_maps(const __u8 *m, size_t bytes)
{
	struct bfly_matrix a = {
		.size = sizeof(a), .flags = BFLY_MATRIX_PORT_MAP,
		.matrix_ptr = (uintptr_t)m, .matrix_bytes = bytes,
	};

	return ioctl(fd, BFLY_IOC_SET_MATRIX, &a);
}

/* netlink switch-set of whole port maps: 0 or -errno, nl_extack set. */
static int nl_set_maps(const __u8 *m, size_t bytes)
{
	msg_start(family, NLM_F_ACK, BFLY_CMD_SWITCH_SET);
	put_u32(BFLY_A_ID, id);
	put(BFLY_A_PORT_MAP, m, bytes);
	return nl_call();
}

/* Does the running kernel format extack messages (6.2 and later)? */
static int extack_formats(void)
{
	struct utsname u;
	unsigned int a = 0, b = 0;

	return !uname(&u) && sscanf(u.release, "%u.%u", &a, &b) == 2 &&
	       (a > 6 || (a == 6 && b >= 2));
}

static void part_valid(const __u8 *set, size_t bytes, const __u32 *want)
{
	__u8 back[64];
	__u32 perm[16], i;
	__u64 gen0 = 0, gen1 = 0, tgen = 0;
	int ok;

	tap_check(!get_maps(back, bytes, &gen0), "GET_MATRIX port maps (%zu bytes)", bytes);
	for (i = 0, ok = 1; i < bytes; i++)
		ok &= back[i] == U;
	tap_check(ok, "a new LCAN has nothing connected (every byte 255)");
	tap_check(!set_maps(set, bytes), "SET_MATRIX: a valid setting (%s)",
		  strerror(errno));
	ok = !get_maps(back, bytes, &gen1) && !memcmp(back, set, bytes);
	tap_check(ok && gen1 == gen0 + 1, "GET_MATRIX: the same bytes, generation %llu -> %llu",
		  (unsigned long long)gen0, (unsigned long long)gen1);
	tap_check(!trace(fd, perm, info.ports, &tgen) && tgen == gen1, "TRACE the setting");
	for (i = 0, ok = 1; i < info.ports; i++) {
		if (perm[i] != want[i])
			printf("# PE %u: traced %#x, expected %#x\n", i, perm[i], want[i]);
		ok &= perm[i] == want[i];
	}
	tap_check(ok, "TRACE: each PE reaches the PE, top output or loss the wiring gives");

	/* The same bytes by netlink: accepted, one more generation */
	tap_check(!nl_set_maps(set, bytes), "netlink switch-set port-map: the valid setting");
	tap_check(!get_maps(back, bytes, &gen0) && !memcmp(back, set, bytes) &&
		  gen0 == gen1 + 1, "netlink: the same bytes, a new generation");
}

static void part_bad(const __u8 *set, size_t bytes, const struct bad *bad, size_t n)
{
	__u8 m[64], back[64];
	__u64 gen0, gen;
	char where[32];
	size_t k;
	int err;

	if (get_maps(back, bytes, &gen0)) {
		tap_check(0, "GET_MATRIX before the bad settings");
		return;
	}
	for (k = 0; k < n; k++) {
		memcpy(m, set, bytes);
		m[bad[k].byte] = bad[k].value;
		TAP_ERRNO(set_maps(m, bytes), EINVAL, bad[k].what);
		tap_check(!get_maps(back, bytes, &gen) && !memcmp(back, set, bytes) &&
			  gen == gen0, "ioctl %s: bytes and generation unchanged", bad[k].what);
		err = nl_set_maps(m, bytes);
		tap_check(err == -EINVAL && strstr(nl_extack, bad[k].why),
			  "netlink %s: EINVAL, extack \"%s\"", bad[k].what, nl_extack);
		snprintf(where, sizeof(where), "byte %u:", bad[k].byte);
		if (extack_formats())
			tap_check(!!strstr(nl_extack, where),
				  "netlink %s: the extack names %s", bad[k].what, where);
		tap_check(!get_maps(back, bytes, &gen) && !memcmp(back, set, bytes) &&
			  gen == gen0, "netlink %s: bytes and generation unchanged", bad[k].what);
	}
	/* Wrong lengths and the bit matrix layout */
	TAP_ERRNO(set_maps(set, bytes - 1), EINVAL, "SET_MATRIX one byte short");
	{
		__u64 bits[1] = { 0 };

		TAP_ERRNO(set_matrix(fd, bits, sizeof(bits)), EOPNOTSUPP,
			  "SET_MATRIX as a bit matrix (an LCAN's settings are port maps)");
	}
	tap_check(!get_maps(back, bytes, &gen) && gen == gen0,
		  "the wrong lengths left the generation unchanged");
}

int main(int argc, char **argv)
{
	const char *name;
	int one = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: lcan-set-test /dev/bflyN\n");
		return 2;
	}
	name = strrchr(argv[1], '/');
	if (!name || sscanf(name, "/bfly%u", &id) != 1)
		return 2;
	fd = open_fabric(argv[1], &info);
	if (fd < 0 || nl_open())
		return 1;
	/* The extended ack: the reason, and the byte at fault */
	setsockopt(nlfd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nlfd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	if (info.topology == BFLY_TOPO_CB_LCAN && info.ports == 8 && info.radix == 2 &&
	    info.uppers == 2) {
		part_valid(cb_set, sizeof(cb_set), cb_trace);
		part_bad(cb_set, sizeof(cb_set), cb_bad, sizeof(cb_bad) / sizeof(cb_bad[0]));
	} else if (info.topology == BFLY_TOPO_T_LCAN && info.ports == 16 && info.radix == 4 &&
		   info.uppers == 2) {
		part_valid(t_set, sizeof(t_set), t_trace);
		part_bad(t_set, sizeof(t_set), t_bad, sizeof(t_bad) / sizeof(t_bad[0]));
	} else {
		tap_check(0, "%s: neither CB-LCAN(2,2) N = 8 nor T-LCAN(4,2) N = 16", argv[1]);
	}
	close(fd);
	return tap_failed ? 1 : 0;
}
