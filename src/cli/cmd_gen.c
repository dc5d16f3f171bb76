/* cmd_gen.c - `govsim gen WORKLOAD -o FILE`: deterministic synthetic ftrace text (see trace/gen.h). */
#include "cli/cli.h"

#include <stdio.h>

int cmd_gen(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_fail(EXIT_FAILURE_RT, "gen: not implemented yet");
}
