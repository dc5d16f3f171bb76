/*
 * driver.c - runs a fuzz target on files, without libFuzzer, for compilers and builds that have
 * no -fsanitize=fuzzer (gcc, the address+undefined CI build).
 *
 *   fuzz_ftrace [-libfuzzer-options...] FILE|DIR...
 *
 * Every regular file named, or found (not recursively) in a directory named, is passed once to
 * LLVMFuzzerTestOneInput(), in sorted order. Arguments starting with '-' are ignored, so the
 * command line of a libFuzzer regression run ("-runs=0 DIR") works for both builds. Exits 0
 * when every input ran (a failed check aborts), 1 if an input cannot be read.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_input.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "fuzz driver: '%s': cannot open\n", path);
		return 1;
	}
	do {
		if (cap - len < 65536) {
			uint8_t *nbuf = realloc(buf, cap = cap ? 2 * cap : 65536);
			if (!nbuf) {
				free(buf);
				fclose(f);
				fprintf(stderr, "fuzz driver: '%s': out of memory\n", path);
				return 1;
			}
			buf = nbuf;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "fuzz driver: '%s': cannot open directory\n", dir);
		return 1;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		struct stat sb;
		char *path;

		if (e->d_name[0] == '.')
			continue;
		path = malloc(len);
		if (!path)
			break;
		snprintf(path, len, "%s/%s", dir, e->d_name);
		if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
			free(path);
			continue;
		}
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*names));
			if (!nn) {
				free(path);
				break;
			}
			names = nn;
		}
		names[n++] = path;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		rc |= run_file(names[i]);
		(*count)++;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0, count = 0;

	for (int i = 1; i < argc; i++) {
		struct stat sb;

		if (argv[i][0] == '-')
			continue;
		if (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
			rc |= run_dir(argv[i], &count);
		} else {
			rc |= run_file(argv[i]);
			count++;
		}
	}
	printf("%s: %d inputs ran\n", argv[0], count);
	return rc;
}
