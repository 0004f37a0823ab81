// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl: the radix and the figures of a fabric (uapi 5), and the
 * settings of k x k switches as port maps, or of an LCAN's switches a
 * byte per connector, in text and JSON.
 */
#include "bflyctl.h"

/* n with @ports = @radix^n, or 0 when @ports is no power of @radix */
unsigned int radix_exponent(unsigned int ports, unsigned int radix)
{
	unsigned int n = 0;

	if (radix < 2)
		return 0;
	while (ports > 1 && ports % radix == 0) {
		ports /= radix;
		n++;
	}
	return ports == 1 ? n : 0;
}

/* The lines of show after the geometry: radix, degree, ... */
void print_figures(const struct fabric *f)
{
	printf("  radix            %u\n", f->radix);
	printf("  degree           %u\n", f->degree);
	printf("  diameter         %u\n", f->diameter);
	if (f->topology == BFLY_TOPO_FLATFLY || f->routers)
		printf("  routers          %u\n", f->routers);
	printf("  channels         %llu\n", f->channels);
	if (f->bisection)
		printf("  bisection        %llu\n", f->bisection);
	else
		printf("  bisection        not computed\n");
	printf("  port-map bytes   %llu\n", f->port_map_bytes);
}

void json_figures(const struct fabric *f)
{
	jkn("radix", f->radix);
	jkn("degree", f->degree);
	jkn("diameter", f->diameter);
	jkn("routers", f->routers);
	jkn("channels", f->channels);
	jkn("bisection", f->bisection);
	jkn("port_map_bytes", f->port_map_bytes);
}

/* The map of node @node of node stage @s: radix bytes */
static const unsigned char *port_map(const struct fabric *f, unsigned int s,
				     unsigned int node)
{
	return f->matrix + ((unsigned long long)s * f->nodes_per_stage + node) * f->radix;
}

/* Do the port maps fill the buffer the kernel said they take? */
static bool port_maps_whole(const struct fabric *f)
{
	return f->matrix && f->matrix_got == f->matrix_bytes && f->radix &&
	       f->matrix_bytes == (unsigned long long)f->node_stages *
				  f->nodes_per_stage * f->radix;
}

/*
 * An LCAN (u uppers): level i has S_i = N/d (u/d)^i switches of d + u
 * connectors (Equation 1, CB-LCANs and T-LCANs alike), a byte per
 * connector, level after level. Fills @sw and returns the levels, or 0
 * when the settings are not whole or not of that shape.
 */
static unsigned int lcan_levels(const struct fabric *f, unsigned long long *sw)
{
	unsigned long long s, bytes = 0;
	unsigned int i;

	if (!f->matrix || f->matrix_got != f->matrix_bytes || f->radix < 2 ||
	    !f->node_stages || f->node_stages > 32 || f->ports % f->radix)
		return 0;
	for (i = 0, s = f->ports / f->radix; i < f->node_stages; i++) {
		sw[i] = s;
		bytes += s * (f->radix + f->up);
		s = s * f->up / f->radix;
	}
	return bytes == f->matrix_bytes ? f->node_stages : 0;
}

/* An LCAN's settings: one line per level, one [..] per switch */
static void print_lcan_settings(const struct fabric *f)
{
	unsigned int i, c, conns = f->radix + f->up, levels;
	unsigned long long sw[32], s, e = 0;

	levels = lcan_levels(f, sw);
	if (!levels) {
		printf("\n  (the settings arrived incomplete)\n");
		return;
	}
	printf("\n  settings, one [...] per switch, a byte per connector (downers 0 .. %u,\n"
	       "  uppers %u .. %u): entry c is the connector the wire arriving on\n"
	       "  connector c leaves by, - for none:\n", f->radix - 1, f->radix, conns - 1);
	for (i = 0; i < levels; i++) {
		printf("  level %2u:", i);
		for (s = 0; s < sw[i]; s++) {
			printf(" [");
			for (c = 0; c < conns; c++, e++) {
				if (f->matrix[e] == BFLY_PORT_UNSET)
					printf("%s-", c ? " " : "");
				else
					printf("%s%u", c ? " " : "", f->matrix[e]);
			}
			putchar(']');
		}
		putchar('\n');
	}
}

/* "lcan_settings": per level, per switch, an array of d + u connectors or null */
static void json_lcan_settings(const struct fabric *f)
{
	unsigned int i, c, conns = f->radix + f->up, levels;
	unsigned long long sw[32], s, e = 0;

	levels = lcan_levels(f, sw);
	if (!levels)
		return;
	jk("lcan_settings");
	jopen('[');
	for (i = 0; i < levels; i++) {
		jopen('[');
		for (s = 0; s < sw[i]; s++) {
			jopen('[');
			for (c = 0; c < conns; c++, e++) {
				if (f->matrix[e] == BFLY_PORT_UNSET)
					jnull();
				else
					jnum(f->matrix[e]);
			}
			jclose(']');
		}
		jclose(']');
	}
	jclose(']');
}

/*
 * One line per node stage, each switch's map between brackets: entry p
 * is the output port of input port p, '-' for none. An LCAN's settings
 * per level instead.
 */
void print_port_maps(const struct fabric *f)
{
	const unsigned char *m;
	unsigned int s, k, p;

	if (f->up) {
		print_lcan_settings(f);
		return;
	}
	if (!port_maps_whole(f)) {
		printf("\n  (the port maps arrived incomplete)\n");
		return;
	}
	printf("\n  port maps, one per switch (entry p: the output port of input port p,\n"
	       "  - for none):\n");
	for (s = 0; s < f->node_stages; s++) {
		printf("  stage %2u:", s);
		for (k = 0; k < f->nodes_per_stage; k++) {
			m = port_map(f, s, k);
			printf(" [");
			for (p = 0; p < f->radix; p++) {
				if (m[p] == BFLY_PORT_UNSET)
					printf("%s-", p ? " " : "");
				else
					printf("%s%u", p ? " " : "", m[p]);
			}
			putchar(']');
		}
		putchar('\n');
	}
}

/*
 * "port_maps": per node stage, per switch, an array of radix ports or
 * null; an LCAN's "lcan_settings" instead
 */
void json_port_maps(const struct fabric *f)
{
	const unsigned char *m;
	unsigned int s, k, p;

	if (f->up) {
		json_lcan_settings(f);
		return;
	}
	if (!port_maps_whole(f))
		return;
	jk("port_maps");
	jopen('[');
	for (s = 0; s < f->node_stages; s++) {
		jopen('[');
		for (k = 0; k < f->nodes_per_stage; k++) {
			m = port_map(f, s, k);
			jopen('[');
			for (p = 0; p < f->radix; p++) {
				if (m[p] == BFLY_PORT_UNSET)
					jnull();
				else
					jnum(m[p]);
			}
			jclose(']');
		}
		jclose(']');
	}
	jclose(']');
}
