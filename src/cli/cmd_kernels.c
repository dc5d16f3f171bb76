/* cmd_kernels.c - `govsim kernels list | show NAME`: the kernel profiles (src/kernel/). */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "kernel/profile.h"

static const char kernels_usage[] =
	"usage: govsim kernels list\n"
	"       govsim kernels show NAME\n";

static const char kernels_help[] =
	"\n"
	"The kernels the emulation can follow. A profile is one row of a table of named\n"
	"behaviours (PELT invariance, util_est, uclamp, schedutil, cpufreq relation, EM\n"
	"cost), each with its source: the kernel file, function and line it was read from\n"
	"in the stable tree the profile names. Choose one with --kernel NAME on run, validate\n"
	"and sweep; by default a run follows the kernel release the trace records (mapped\n"
	"to the nearest profile), else v5.9, and says which in its notes.\n"
	"\n"
	"  list        the profiles, one per line: name, the tree read, a summary\n"
	"  show NAME   every behaviour of the profile: value and source\n"
	"\n"
	"exit status: 0 ok, 2 bad command line or unknown profile\n";

static int kernels_list(void)
{
	for (int i = 0; kernel_profiles[i]; i++) {
		const struct kernel_profile *kp = kernel_profiles[i];
		printf("%-12s %s%s\n", kp->name, kp->summary,
		       strcmp(kp->name, KERNEL_PROFILE_DEFAULT) == 0 ? " [default]" : "");
	}
	return EXIT_OK;
}

static int kernels_show(const char *name)
{
	const struct kernel_profile *kp = kernel_profile_find(name);

	if (!kp)
		return cli_usage_error(kernels_usage, "unknown kernel profile '%s' (see 'govsim "
						      "kernels list')",
				       name);
	printf("kernel profile %s: %s\n", kp->name, kp->summary);
	printf("tree read: %s\n\n", kp->tree);
	for (int b = 0; b < KB__COUNT; b++) {
		printf("%-24s %s\n", kernel_behaviour_name((enum kernel_behaviour)b),
		       kernel_profile_value(kp, (enum kernel_behaviour)b));
		printf("%-24s   %s\n", "", kernel_behaviour_what((enum kernel_behaviour)b));
		printf("%-24s   source: %s\n", "", kp->src[b] ? kp->src[b] : "-");
	}
	if (kp->caveats)
		printf("\nnot emulated / picked: %s\n", kp->caveats);
	return EXIT_OK;
}

int cmd_kernels(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error(kernels_usage, "a subcommand is required");
	if (cli_is_help(argv[1])) {
		printf("%s%s", kernels_usage, kernels_help);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "list") == 0 && argc == 2)
		return kernels_list();
	if (strcmp(argv[1], "show") == 0 && argc == 3)
		return kernels_show(argv[2]);
	return cli_usage_error(kernels_usage, "unknown or incomplete subcommand '%s'", argv[1]);
}
