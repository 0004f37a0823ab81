/* SPDX-License-Identifier: GPL-2.0 */
/* Native stand-in for <linux/mm.h> (kmod/lib/tests). */
#include <linux/slab.h>
