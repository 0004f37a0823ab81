/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exception-table entry of the module's own user-access asm (x86-64
 * kernels): an access at label @insn that faults goes on at @to, as for
 * the entries unsafe_get_user() and unsafe_put_user() emit
 * (EX_TYPE_UACCESS). Inside a user-access section only.
 */
#ifndef BFLY_UACCESS_ASM_H
#define BFLY_UACCESS_ASM_H

#include <linux/stringify.h>
#include <asm/extable_fixup_types.h>

#define BFLY_EXTABLE_UACCESS(insn, to)					\
	"	.pushsection \"__ex_table\",\"a\"\n"			\
	"	.balign 4\n"						\
	"	.long (" insn ") - .\n"					\
	"	.long (" to ") - .\n"					\
	"	.long " __stringify(EX_TYPE_UACCESS) "\n"		\
	"	.popsection\n"

#endif /* BFLY_UACCESS_ASM_H */
