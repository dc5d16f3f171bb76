/* bad_abi.c - a plugin built for another ABI major (or, with GOVSIM_TEST_NEWER_MINOR, for a
 * newer minor than this govsim's): govsim must refuse it (exit 3). */
#include <stddef.h>

#include "govsim/governor.h"

static int bad_init(struct govsim_policy *pol, void **data)
{
	(void)pol;
	*data = NULL;
	return GOVSIM_OK;
}

static void bad_update(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
		       unsigned int flags)
{
	(void)pol, (void)data, (void)cpu, (void)now_ns, (void)flags;
}

__attribute__((visibility("default"))) extern const struct govsim_governor govsim_governor;
const struct govsim_governor govsim_governor = {
#ifdef GOVSIM_TEST_NEWER_MINOR
	.abi_major = GOVSIM_GOV_ABI_MAJOR,
	.abi_minor = GOVSIM_GOV_ABI_MINOR + 1,
#else
	.abi_major = GOVSIM_GOV_ABI_MAJOR + 1,
	.abi_minor = 0,
#endif
	.name = "bad_abi",
	.help = "built for the next ABI major",
	.init = bad_init,
	.update = bad_update,
};
