// SPDX-License-Identifier: GPL-2.0
/*
 * bfly_kunit: the KUnit suites of bfly, built as one test module that
 * calls into bfly.ko. Load bfly.ko first; results appear in the kernel log
 * and in /sys/kernel/debug/kunit/<suite>/results.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit tests for the bfly fabric module");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
