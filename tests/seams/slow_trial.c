/*
 * slow_trial.c - a test seam for tests/golden/trial_signals.sh, loaded with LD_PRELOAD into an
 * unchanged govsim: it interposes alarm(), which only the trace.dat reader's trial child calls
 * (src/trace/dat/dat_sandbox.c arms its time limit with it), and with GOVSIM_FAULT_TRIAL_SLEEP=S makes
 * that child sleep S seconds before it parses, so that a test can signal the program while the
 * child lives. Nothing of this is in the library or the program.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

unsigned int alarm(unsigned int seconds)
{
	static unsigned int (*real_alarm)(unsigned int);
	const char *v = getenv("GOVSIM_FAULT_TRIAL_SLEEP");
	unsigned int left;

	if (!real_alarm)
		*(void **)&real_alarm = dlsym(RTLD_NEXT, "alarm");
	left = real_alarm(seconds);
	if (seconds && v && *v) {
		unsigned int s = (unsigned int)strtoul(v, NULL, 10);
		while (s)
			s = sleep(s);
	}
	return left;
}
