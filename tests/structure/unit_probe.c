/*
 * unit_probe.c - a call a unit test's link must refuse (tests/structure/unit_links.sh).
 *
 * It includes a header of sched/ alone, so linked as a unit test is (govsim_unit_libs in
 * tests/CMakeLists.txt: the libraries of the folders it includes, and of the folders those
 * may use) it gets sched/, kernel/, uclamp/ and core/; its call into store/, through a
 * declaration of its own, is then an undefined reference. Linked with the whole library, the
 * same call links. Never run.
 */
#include "sched/sched.h"

struct gs_error;
int store_check(const char *path, struct gs_error *err);

int main(void)
{
	return store_check("", 0) != 0;
}
