/* crash.c - a plugin that kills its process at its first update: in a sweep only its own job
 * fails. */
#include <signal.h>
#include <stddef.h>

#include "govsim/governor.h"

static int crash_init(struct govsim_policy *pol, void **data)
{
	(void)pol;
	*data = NULL;
	return GOVSIM_OK;
}

static void crash_update(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
			 unsigned int flags)
{
	(void)pol, (void)data, (void)cpu, (void)now_ns, (void)flags;
	raise(SIGKILL);
}

__attribute__((visibility("default"))) extern const struct govsim_governor govsim_governor;
const struct govsim_governor govsim_governor = {
	GOVSIM_GOVERNOR_ABI,
	.name = "crash",
	.help = "dies at its first update",
	.init = crash_init,
	.update = crash_update,
};
