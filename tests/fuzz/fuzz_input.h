/*
 * fuzz_input.h - what the fuzz targets share: the fuzz input as a file path.
 *
 * The readers and the policy parser open paths, so a target writes its input into one memfd
 * (created once per process, truncated and rewritten for every input) and passes
 * "/proc/self/fd/N": every open() of that path starts at offset 0 and sees exactly the input,
 * with no change to the library's API and no file on disk.
 */
#ifndef GOVSIM_FUZZ_INPUT_H
#define GOVSIM_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Something the library promised did not hold: abort so that the fuzzer keeps the input. */
static inline void fuzz_check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz: invariant failed: %s\n", what);
		abort();
	}
}

/*
 * Write data[0..size) into the process's memfd and return its path (a static buffer). Aborts if
 * the memfd cannot be made or written: that is the harness failing, not the library.
 */
static inline const char *fuzz_input_path(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	size_t done = 0;

	if (fd < 0) {
		fd = memfd_create("govsim-fuzz-input", MFD_CLOEXEC);
		fuzz_check(fd >= 0, "memfd_create");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	fuzz_check(ftruncate(fd, 0) == 0, "ftruncate memfd");
	while (done < size) {
		ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);
		fuzz_check(n > 0, "write memfd");
		done += (size_t)n;
	}
	return path;
}

#endif
