// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl: JSON output (-j, -p) through json-c, with the calls of a
 * streaming writer: open, key, value, close. A finished top-level value
 * is printed on one line, or indented with -p.
 */
#include <json-c/json.h>

#include "bflyctl.h"

bool json, pretty;

/* The containers open now, outermost first; the key the next value takes */
static struct json_object *jstack[16];
static int jdepth;
static char jkey[64];

static void jprint(struct json_object *v)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
		    (pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
			      JSON_C_TO_STRING_PLAIN);

	puts(json_object_to_json_string_ext(v, flags));
}

/* Put @v in the container open now (it takes @v), or print it. */
static void jadd(struct json_object *v)
{
	struct json_object *top;

	if (!v)
		die("out of memory");
	if (!jdepth) {
		jprint(v);
		json_object_put(v);
		return;
	}
	top = jstack[jdepth - 1];
	if (json_object_is_type(top, json_type_object)) {
		if (json_object_object_add(top, jkey, v))
			die("out of memory");
	} else if (json_object_array_add(top, v)) {
		die("out of memory");
	}
	jkey[0] = 0;
}

void jk(const char *key)
{
	snprintf(jkey, sizeof(jkey), "%s", key);
}

void jopen(char c)
{
	struct json_object *o = c == '{' ? json_object_new_object() :
					    json_object_new_array();

	if (!o || jdepth == ARRAY_SIZE(jstack))
		die("out of memory");
	if (jdepth)
		jadd(json_object_get(o));
	jstack[jdepth++] = o;
}

void jclose(char c)
{
	struct json_object *o = jstack[--jdepth];

	(void)c;
	if (!jdepth)
		jprint(o);
	json_object_put(o);
}

void jstr(const char *s)
{
	jadd(json_object_new_string(s));
}

void jnum(unsigned long long v)
{
	jadd(json_object_new_uint64(v));
}

void jdouble(double v)
{
	jadd(json_object_new_double(v));
}

/* null: a port map entry that connects its input to nothing */
void jnull(void)
{
	struct json_object *top = jdepth ? jstack[jdepth - 1] : NULL;

	/* jadd() takes NULL for out of memory; null is added here */
	if (!top) {
		puts("null");
	} else if (json_object_is_type(top, json_type_object)) {
		if (json_object_object_add(top, jkey, NULL))
			die("out of memory");
		jkey[0] = 0;
	} else if (json_object_array_add(top, NULL)) {
		die("out of memory");
	}
}

void jbool(bool v)
{
	jadd(json_object_new_boolean(v));
}

void jks(const char *key, const char *s)
{
	jk(key);
	jstr(s);
}

void jkn(const char *key, unsigned long long v)
{
	jk(key);
	jnum(v);
}
