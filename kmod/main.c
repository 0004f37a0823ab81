// SPDX-License-Identifier: GPL-2.0
/*
 * bfly: a virtual interconnect device modelling butterfly,
 * Butterfly-Butterfly, Benes, k-ary n-fly and flattened butterfly
 * switching fabrics.
 *
 * Module entry points and the parameters that create the first fabric.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

#include "core/core.h"

static enum bfly_topology topology = BFLY_TOPO_BENES;

/* A topology name: checked when given, so a bad one fails the load. */
static int bfly_topology_param_set(const char *val, const struct kernel_param *kp)
{
	size_t len = strlen(val);

	if (bfly_topology_parse(val, kp->arg)) {
		pr_err("topology=%.32s%s: unknown topology (butterfly, bfly2, bfly-twice, benes, kfly, flatfly, cb-lcan, t-lcan, fattree, mbfly)\n",
		       val, len > 32 ? "..." : "");
		return -EINVAL;
	}
	return 0;
}

static int bfly_topology_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", bfly_topology_name(*(enum bfly_topology *)kp->arg));
}

static const struct kernel_param_ops bfly_topology_param_ops = {
	.set = bfly_topology_param_set,
	.get = bfly_topology_param_get,
};

module_param_cb(topology, &bfly_topology_param_ops, &topology, 0444);
MODULE_PARM_DESC(topology,
		 "topology of the fabric created at load: butterfly, bfly2, bfly-twice, benes, kfly, flatfly, cb-lcan, t-lcan, fattree or mbfly (default benes)");

static unsigned int ports = 8;
module_param(ports, uint, 0444);
MODULE_PARM_DESC(ports,
		 "ports of the fabric created at load: a power of two from 2 to 2^20 (of the radix for kfly and flatfly), or 0 for no fabric (default 8)");

static unsigned int radix = 2;
module_param(radix, uint, 0444);
MODULE_PARM_DESC(radix,
		 "switch radix k of the fabric created at load: 2 to 64 for kfly and flatfly, 2 for the others (default 2)");

/* Named up for users; uppers here: up() is the semaphore's */
static unsigned int uppers;
module_param_named(up, uppers, uint, 0444);
MODULE_PARM_DESC(up,
		 "uppers u of each switch of an LCAN created at load (cb-lcan, t-lcan; of a level-0 switch on a fattree), 1 to 64, its radix being d; 0 for the other topologies (default 0)");

/* Named d for users; mbfly_d here: d is too short a global */
static unsigned int mbfly_d;
module_param_named(d, mbfly_d, uint, 0444);
MODULE_PARM_DESC(d,
		 "d of a multibutterfly created at load (mbfly): each splitter input's up- and down-neighbours, 1 to 64; 0 for the default, 8 (default 0; the other topologies take none)");

static unsigned long long mbfly_seed;
module_param_named(seed, mbfly_seed, ullong, 0444);
MODULE_PARM_DESC(seed,
		 "seed of the wiring of a multibutterfly created at load (mbfly); 0: the module picks one and logs it (default 0; the other topologies take none)");

/* d of a multibutterfly when none is given */
#define BFLY_MBFLY_DEFAULT_D 8

/* d of the multibutterfly the parameters ask for */
static unsigned int __init bfly_initial_mbfly_d(void)
{
	return mbfly_d ?: BFLY_MBFLY_DEFAULT_D;
}

/* The checks of radix, up, d and seed against the topology alone. */
static int __init bfly_check_initial_params(const char **why)
{
	if (topology == BFLY_TOPO_MBFLY) {
		if (radix != 2 || uppers) {
			*why = radix != 2 ? "radix: a multibutterfly's radix is 2 (its d is d=)" :
			       "up: only an LCAN's switches have uppers";
			return -EINVAL;
		}
	} else if (mbfly_d || mbfly_seed) {
		*why = mbfly_d ? "d: only a multibutterfly (topology=mbfly) takes d" :
		       "seed: only a multibutterfly (topology=mbfly) takes a seed";
		return -EINVAL;
	}
	return 0;
}

/* The fabric the parameters ask for. */
static struct bfly_fabric *__init bfly_create_initial(const char **why)
{
	int err = bfly_check_initial_params(why);

	if (err)
		return ERR_PTR(err);
	if (topology == BFLY_TOPO_MBFLY)
		return bfly_fabric_create_mbfly(ports, bfly_initial_mbfly_d(), mbfly_seed, why);
	return bfly_fabric_create_up(topology, radix, uppers, ports, why);
}

/*
 * ports=0 creates no fabric, but the other parameters get every check a
 * fabric would give them: only the reasons about the port count do not
 * apply.
 */
static int __init bfly_check_no_fabric(const char **why)
{
	struct bfly_geometry geo;
	int err = bfly_check_initial_params(why);

	if (err)
		return err;
	if (topology == BFLY_TOPO_MBFLY)
		err = bfly_geometry_init_mbfly(&geo, 0, bfly_initial_mbfly_d(), 1, why);
	else
		err = bfly_geometry_init_up(&geo, topology, radix, uppers, 0, why);
	return err && !str_has_prefix(*why, "ports: ") ? err : 0;
}

/* One line in the log naming the parameter at fault and the reason. */
static void __init bfly_log_initial_error(int err, const char *why)
{
	if (err == -EINVAL && str_has_prefix(why, "d: "))
		pr_err("d=%u: %s\n", mbfly_d, why + strlen("d: "));
	else if (err == -EINVAL && str_has_prefix(why, "seed: "))
		pr_err("seed=%llu: %s\n", mbfly_seed, why + strlen("seed: "));
	else if (err == -EINVAL && str_has_prefix(why, "radix: "))
		pr_err("radix=%u: %s\n", radix, why + strlen("radix: "));
	else if (err == -EINVAL && str_has_prefix(why, "up: "))
		pr_err("up=%u: %s\n", uppers, why + strlen("up: "));
	else if (err == -EINVAL)
		pr_err("ports=%u: %s (a power of two from 2 to %u, of the radix for kfly and flatfly)\n",
		       ports, why + str_has_prefix(why, "ports: "),
		       1U << BFLY_MAX_PORTS_LOG2);
	else if (err == -E2BIG && why && str_has_prefix(why, "memory: "))
		pr_err("ports=%u: the expansion measure passes the memory limits (fabric_mem_max, module_mem_max)\n",
		       ports);
	else if (err == -E2BIG)
		pr_err("ports=%u: the fabric's switch matrix passes the memory limits (fabric_mem_max, module_mem_max)\n",
		       ports);
	else
		pr_err("cannot create the fabric: %pe\n", ERR_PTR(err));
}

static int __init bfly_create_initial_fabric(void)
{
	struct bfly_fabric *fab;
	const char *why = NULL;
	int err;

	if (!ports) {
		err = bfly_check_no_fabric(&why);
		if (err)
			bfly_log_initial_error(err, why);
		return err;
	}

	fab = bfly_create_initial(&why);
	if (IS_ERR(fab)) {
		bfly_log_initial_error(PTR_ERR(fab), why);
		return PTR_ERR(fab);
	}
	pr_info("bfly%u: %s fabric, %u ports, radix %u, %u node stages\n", fab->id,
		bfly_topology_name(topology), fab->geo.ports, fab->geo.radix,
		fab->geo.node_stages);
	if (fab->geo.mbfly)
		pr_info("bfly%u: multibutterfly d=%u seed=%llu, expansion: beta %u.%04u at alpha %u/%u (%s)\n",
			fab->id, fab->geo.mbfly_d, fab->geo.mbfly_seed,
			fab->mbfly_exp.beta_fp16 >> 16,
			(u32)(((u64)(fab->mbfly_exp.beta_fp16 & 0xffff) * 10000) >> 16),
			fab->mbfly_exp.kmax, fab->mbfly_exp.inputs,
			fab->mbfly_exp.exhaustive ? "exhaustive" : "sampled");
	bfly_fabric_put(fab);
	return 0;
}

static int __init bfly_init(void)
{
	int err;

	err = bfly_chardev_init();
	if (err)
		return err;

	err = bfly_netlink_init();
	if (err) {
		bfly_chardev_exit();
		return err;
	}

	err = bfly_create_initial_fabric();
	if (err) {
		/* A fabric-new may have run since the family appeared. */
		bfly_fabric_destroy_all();
		bfly_netlink_exit();
		bfly_chardev_exit();
		return err;
	}
	return 0;
}

static void __exit bfly_exit(void)
{
	/*
	 * Every fabric goes first, while the family can still announce it;
	 * a fabric-new that runs meanwhile is refused. Unregistering the
	 * family then waits for the requests still running.
	 */
	bfly_fabric_destroy_all();
	bfly_netlink_exit();
	bfly_chardev_exit();
}

module_init(bfly_init);
module_exit(bfly_exit);

MODULE_DESCRIPTION("Virtual butterfly, Butterfly-Butterfly and Benes switching fabrics");
MODULE_AUTHOR("The bfly developers");
MODULE_VERSION(BFLY_VERSION);
MODULE_LICENSE("GPL");
