/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels bfly builds against (6.1 to 6.12).
 */
#ifndef _BFLY_COMPAT_H
#define _BFLY_COMPAT_H

#include <linux/device.h>
#include <linux/version.h>

/* class_create() lost its owner argument in 6.4. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 4, 0)
#define bfly_class_create(name) class_create(THIS_MODULE, name)
#else
#define bfly_class_create(name) class_create(name)
#endif

#endif /* _BFLY_COMPAT_H */
