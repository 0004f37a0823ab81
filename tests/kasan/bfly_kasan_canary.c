// SPDX-License-Identifier: GPL-2.0
/*
 * bfly_kasan_canary: when loaded, commits three bugs the debug test kernel
 * reports: a write one byte past a slab object (KASAN), a leaked object
 * (kmemleak) and an over-wide shift (UBSAN). The test harness loads it in
 * a VM of its own to prove that its log check catches each report.
 * Built only for kernels with CONFIG_KASAN; never load it anywhere else.
 */
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/slab.h>

static int __init bfly_kasan_canary_init(void)
{
	size_t size = 16;
	int shift = 40;
	void *leak;
	char *p;
	u32 one;

	p = kmalloc(size, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	/* Hide the values from the compiler so it cannot flag the bugs. */
	OPTIMIZER_HIDE_VAR(size);
	p[size] = 'x';
	kfree(p);

	leak = kmalloc(64, GFP_KERNEL);
	OPTIMIZER_HIDE_VAR(leak);
	leak = NULL;

	OPTIMIZER_HIDE_VAR(shift);
	one = 1;
	one <<= shift;
	OPTIMIZER_HIDE_VAR(one);

	pr_info("bfly_kasan_canary: out-of-bounds write, leak and bad shift done\n");
	return 0;
}

static void __exit bfly_kasan_canary_exit(void)
{
}

module_init(bfly_kasan_canary_init);
module_exit(bfly_kasan_canary_exit);

MODULE_DESCRIPTION("Provokes KASAN, kmemleak and UBSAN reports to test bfly's log checks");
MODULE_LICENSE("GPL");
