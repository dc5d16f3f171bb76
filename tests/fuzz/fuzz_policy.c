/*
 * fuzz_policy.c - libFuzzer target for clamp policy files (src/uclamp/policy.h), read through
 * policy_parse_file() as a user's file would be.
 *
 * Checks, besides the sanitizers: a failed parse returns GS_EPOLICY/GS_EIO/GS_ENOMEM with a
 * message that names the file; a policy that parses is printed by policy_format() as text that
 * parses again to the same text (the normalised form is a fixed point), which is what the
 * results database stores and what a user may feed back.
 * Does not check: applying the actions to tasks (needs the scheduler model; unit tests).
 */
#include <string.h>

#include "core/strbuf.h"
#include "fuzz_input.h"
#include "uclamp/policy.h"

/* policy_format() into a malloc'd string. */
static char *format_policy(const struct policy *p)
{
	struct strbuf sb = STRBUF_INIT;
	char *buf;

	fuzz_check(policy_format(p, &sb) == 0, "policy_format");
	fuzz_check(strlen(strbuf_str(&sb)) == sb.len, "policy_format text length");
	buf = strdup(strbuf_str(&sb));
	fuzz_check(buf != NULL, "malloc");
	strbuf_free(&sb);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_input_path(data, size);
	struct policy p, again;
	struct gs_error err;
	char *text, *text2;
	int rc;

	policy_init(&p);
	gs_error_clear(&err);
	rc = policy_parse_file(&p, path, &err);
	if (rc < 0) {
		fuzz_check(rc == GS_EPOLICY || rc == GS_EIO || rc == GS_ENOMEM, "policy error code");
		fuzz_check(err.code == rc && strstr(err.msg, path) != NULL,
			   "policy error message without the file name");
		policy_release(&p);
		return 0;
	}
	fuzz_check(rc == 0, "policy_parse_file return");

	text = format_policy(&p);
	policy_init(&again);
	rc = policy_parse_file(&again, fuzz_input_path((const uint8_t *)text, strlen(text)), &err);
	if (rc != 0) {
		fprintf(stderr, "fuzz: normalised policy does not parse: %s\n--- text:\n%s", err.msg,
			text);
		abort();
	}
	text2 = format_policy(&again);
	if (strcmp(text, text2) != 0) {
		fprintf(stderr, "fuzz: normalised policy changed:\n--- once:\n%s--- twice:\n%s", text,
			text2);
		abort();
	}
	free(text2);
	free(text);
	policy_release(&again);
	policy_release(&p);
	return 0;
}
