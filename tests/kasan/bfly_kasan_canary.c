// SPDX-License-Identifier: GPL-2.0
/*
 * bfly_kasan_canary: writes one byte past a slab object when loaded, so the
 * test harness can prove that it notices a KASAN report in a VM log.
 * Built only for kernels with CONFIG_KASAN; never load it anywhere else.
 */
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/slab.h>

static int __init bfly_kasan_canary_init(void)
{
	size_t size = 16;
	char *p;

	p = kmalloc(size, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	/* Hide the size from the compiler so it cannot flag the overflow. */
	OPTIMIZER_HIDE_VAR(size);
	p[size] = 'x';
	kfree(p);
	pr_info("bfly_kasan_canary: wrote past a %zu-byte object\n", size);
	return 0;
}

static void __exit bfly_kasan_canary_exit(void)
{
}

module_init(bfly_kasan_canary_init);
module_exit(bfly_kasan_canary_exit);

MODULE_DESCRIPTION("Provokes a KASAN report to test bfly's log checks");
MODULE_LICENSE("GPL");
