/*
 * plugin.c - governors loaded at run time: dlopen() of a shared object exporting
 * `const struct govsim_governor govsim_governor` (include/govsim/governor.h), its ABI checked,
 * wrapped as a struct governor (host.c). See governor.h (governor_lookup).
 *
 * The file is checked before dlopen() sees it (plugin_elf.c): a regular file, an ELF shared
 * object as long as its headers say, exporting the symbol as a data object of the struct's size.
 *
 * A plugin stays loaded for the life of the process (the replay keeps pointers into it), and is
 * loaded once: a second lookup of the same file (by its resolved path) returns the same entry.
 */
#include "gov/governor.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/hash.h"
#include "gov/plugin_elf.h"

#define MAX_PLUGINS 16

struct plugin {
	struct governor entry;
	char path[PATH_MAX];
	char sha256[65];
	void *handle;
};

static struct plugin *plugins[MAX_PLUGINS];
static int nr_plugins;

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Check what the plugin declares before anything else of it is read. */
static int plugin_check(const char *path, const struct govsim_governor *g, struct gs_error *err)
{
	if (g->abi_major != GOVSIM_GOV_ABI_MAJOR)
		return gs_error_set(err, GS_EINPUT,
				    "'%s': governor ABI %u.%u, this govsim has ABI %d.%d (rebuild the "
				    "plugin against this govsim's govsim/governor.h)",
				    path, g->abi_major, g->abi_minor, GOVSIM_GOV_ABI_MAJOR,
				    GOVSIM_GOV_ABI_MINOR);
	if (g->abi_minor > GOVSIM_GOV_ABI_MINOR)
		return gs_error_set(err, GS_EINPUT,
				    "'%s': governor ABI %u.%u is newer than this govsim's %d.%d "
				    "(upgrade govsim)",
				    path, g->abi_major, g->abi_minor, GOVSIM_GOV_ABI_MAJOR,
				    GOVSIM_GOV_ABI_MINOR);
	if (!g->name || !g->name[0] || !g->init || !g->update)
		return gs_error_set(err, GS_EINPUT,
				    "'%s': struct govsim_governor without a name, init or update", path);
	if (strlen(g->name) >= 32 || strchr(g->name, '/'))
		return gs_error_set(err, GS_EINPUT,
				    "'%s': governor name '%s': at most 31 characters, no '/'", path,
				    g->name);
	/* runs are stored, selected and compared by governor name: a plugin under a built-in's
	 * name would pass for it */
	if (governor_find(g->name))
		return gs_error_set(err, GS_EINPUT,
				    "'%s': governor plugin names itself '%s', the name of a built-in "
				    "governor (give it a name of its own)",
				    path, g->name);
	return 0;
}

static int plugin_open(const char *file, const struct governor **out, struct gs_error *err)
{
	char real[PATH_MAX];
	struct plugin *pl;
	const struct govsim_governor *g;
	void *handle;
	int ret;

	if (!realpath(file, real))
		return gs_error_set(err, GS_EINPUT, "'%s': governor plugin not found", file);
	for (int i = 0; i < nr_plugins; i++) {
		if (strcmp(plugins[i]->path, real) == 0) {
			*out = &plugins[i]->entry;
			return 0;
		}
	}
	if (nr_plugins == MAX_PLUGINS)
		return gs_error_set(err, GS_EINPUT, "'%s': more than %d governor plugins", file,
				    MAX_PLUGINS);
	/* before anything of it runs: what dlopen() and the hash would trust (plugin_elf.h);
	 * struct govsim_governor only grows at the end with new ABI minors */
	ret = plugin_elf_check(real, file, GOVSIM_GOVERNOR_SYMBOL, sizeof(struct govsim_governor),
			       err);
	if (ret)
		return ret;
	pl = calloc(1, sizeof(*pl));
	if (!pl)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	snprintf(pl->path, sizeof(pl->path), "%s", real);
	ret = gs_file_sha256(real, pl->sha256, err);
	if (ret) {
		free(pl);
		return ret;
	}
	/* RTLD_LOCAL: two plugins may define the same helper names. */
	handle = dlopen(real, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		const char *why = dlerror();

		free(pl);
		return gs_error_set(err, GS_EINPUT, "'%s': cannot load governor plugin: %s", file,
				    why ? why : "unknown error");
	}
	dlerror();
	g = dlsym(handle, GOVSIM_GOVERNOR_SYMBOL);
	if (!g) {
		dlclose(handle);
		free(pl);
		return gs_error_set(err, GS_EINPUT,
				    "'%s': not a govsim governor plugin: no symbol '%s' (define "
				    "const struct govsim_governor %s)",
				    file, GOVSIM_GOVERNOR_SYMBOL, GOVSIM_GOVERNOR_SYMBOL);
	}
	ret = plugin_check(file, g, err);
	if (ret) {
		dlclose(handle);
		free(pl);
		return ret;
	}
	pl->handle = handle;
	pl->entry = (struct governor)GOVERNOR_ENTRY(g->name, g);
	pl->entry.path = pl->path;
	pl->entry.sha256 = pl->sha256;
	plugins[nr_plugins++] = pl;
	*out = &pl->entry;
	return 0;
}

/* NAME in each directory of GOVSIM_PLUGIN_PATH: NAME, NAME.so, libNAME.so. */
static bool plugin_search(const char *name, char *found, size_t size)
{
	static const char *const pre[] = {"", "", "lib"};
	static const char *const suf[] = {"", ".so", ".so"};
	const char *env = getenv("GOVSIM_PLUGIN_PATH");
	const char *dir = env;

	if (!env || !env[0])
		return false;
	while (dir && *dir) {
		const char *end = strchr(dir, ':');
		size_t len = end ? (size_t)(end - dir) : strlen(dir);
		char d[PATH_MAX];

		if (len > 0 && len < sizeof(d)) {
			memcpy(d, dir, len);
			d[len] = '\0';
			for (size_t i = 0; i < GS_ARRAY_SIZE(pre); i++) {
				if (i > 0 && ends_with(name, ".so"))
					break;
				if ((size_t)snprintf(found, size, "%s/%s%s%s", d, pre[i], name,
						     suf[i]) >= size)
					continue; /* too long a path: not a file it could open */
				if (access(found, R_OK) == 0)
					return true;
			}
		}
		dir = end ? end + 1 : NULL;
	}
	return false;
}

int governor_load_plugin(const char *file, const struct governor **out,
			 struct gs_error *err)
{
	char found[PATH_MAX];

	if (!file || !file[0])
		return gs_error_set(err, GS_EINPUT, "--governor-plugin: empty file name");
	if (strchr(file, '/'))
		return plugin_open(file, out, err);
	if (plugin_search(file, found, sizeof(found)))
		return plugin_open(found, out, err);
	/* a file in the current directory */
	if (access(file, R_OK) == 0) {
		snprintf(found, sizeof(found), "./%s", file);
		return plugin_open(found, out, err);
	}
	return gs_error_set(err, GS_EINPUT,
			    "'%s': governor plugin not found (not a file, nor in GOVSIM_PLUGIN_PATH)",
			    file);
}

int governor_lookup(const char *name, const struct governor **out, struct gs_error *err)
{
	char found[PATH_MAX];
	const struct governor *g;

	if (!name)
		name = "schedutil";
	if (governor_is_path(name))
		return governor_load_plugin(name, out, err);
	g = governor_find(name);
	if (g) {
		*out = g;
		return 0;
	}
	if (plugin_search(name, found, sizeof(found)))
		return plugin_open(found, out, err);
	return gs_error_set(err, GS_ENOTFOUND, "unknown governor '%s'", name);
}
