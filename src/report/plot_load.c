/*
 * plot_load.c - the program's side of the plot module (plot_module.h): plot_write_png(),
 * plot_write_svg(), plot_get_layout(), plot_get_layout_svg() and plot_release_static() of
 * plot.h, which load govsim-plot.so on their first call and go through its table. A missing
 * module is an error (exit status 1) of the command that draws, and of no other.
 */
#include "report/plot_module.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "version.h"

#ifndef GOVSIM_PLOT_LIBDIR_REL /* set by the build: <libdir>/govsim, relative to the prefix */
#define GOVSIM_PLOT_LIBDIR_REL "lib/govsim"
#endif
#ifndef GOVSIM_PLOT_LIBDIR /* the same, absolute, as configured */
#define GOVSIM_PLOT_LIBDIR "/usr/local/lib/govsim"
#endif

/* loaded once and kept for the life of the process, like governor plugins (gov/plugin.c) */
static const struct plot_module *module;

/* The folder of the running program, "" when /proc/self/exe cannot be read. */
static void program_dir(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	char *slash;

	buf[n > 0 ? n : 0] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	else
		buf[0] = '\0';
}

/* 1 when path does not exist (look further), 0 with *out set, or an error. */
static int module_open(const char *path, struct gs_error *err)
{
	const struct plot_module *m;
	void *handle;

	if (access(path, F_OK) != 0)
		return 1;
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		const char *why = dlerror();

		return gs_error_set(err, GS_EUNSUPPORTED, "'%s': cannot load the plot module: %s",
				    path, why ? why : "unknown error");
	}
	dlerror();
	m = dlsym(handle, PLOT_MODULE_SYMBOL);
	if (!m || m->abi != PLOT_MODULE_ABI || !m->version ||
	    strcmp(m->version, GOVSIM_VERSION) != 0 || m->plot_size != sizeof(struct plot) ||
	    m->layout_size != sizeof(struct plot_layout) || !m->layout || !m->write ||
	    !m->release) {
		dlclose(handle);
		return gs_error_set(err, GS_EUNSUPPORTED,
				    "'%s': not the plot module of this govsim %s (build or install "
				    "the program and govsim-plot.so together)",
				    path, GOVSIM_VERSION);
	}
	module = m;
	return 0;
}

static int module_get(struct gs_error *err)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	int ret;

	if (module)
		return 0;
	program_dir(dir, sizeof(dir));
	if (dir[0]) {
		snprintf(path, sizeof(path), "%s/%s", dir, PLOT_MODULE_FILE);
		ret = module_open(path, err);
		if (ret <= 0)
			return ret;
		snprintf(path, sizeof(path), "%s/../%s/%s", dir, GOVSIM_PLOT_LIBDIR_REL,
			 PLOT_MODULE_FILE);
		ret = module_open(path, err);
		if (ret <= 0)
			return ret;
	}
	snprintf(path, sizeof(path), "%s/%s", GOVSIM_PLOT_LIBDIR, PLOT_MODULE_FILE);
	ret = module_open(path, err);
	if (ret <= 0)
		return ret;
	return gs_error_set(err, GS_ENOTFOUND,
			    "cannot draw a plot: the plot module %s is neither next to the program "
			    "('%s') nor in '%s' (build it with the program, cmake --build B --target "
			    "govsim, or install both, cmake --install B)",
			    PLOT_MODULE_FILE, dir, GOVSIM_PLOT_LIBDIR);
}

static int layout(const struct plot *p, bool svg, struct plot_layout *out)
{
	int ret = module_get(NULL);

	if (ret) {
		memset(out, 0, sizeof(*out));
		return ret;
	}
	return module->layout(p, svg, out);
}

int plot_get_layout(const struct plot *p, struct plot_layout *out)
{
	return layout(p, false, out);
}

int plot_get_layout_svg(const struct plot *p, struct plot_layout *out)
{
	return layout(p, true, out);
}

static int write_figure(const struct plot *p, bool svg, const char *path, struct gs_error *err)
{
	const char *why = NULL;
	int ret = module_get(err);

	if (ret)
		return ret;
	ret = module->write(p, svg, path, &why);
	if (ret)
		return gs_error_set(err, ret, "'%s': %s", path, why ? why : "cannot write");
	return 0;
}

int plot_write_png(const struct plot *p, const char *path, struct gs_error *err)
{
	return write_figure(p, false, path, err);
}

int plot_write_svg(const struct plot *p, const char *path, struct gs_error *err)
{
	return write_figure(p, true, path, err);
}

void plot_release_static(void)
{
	if (module)
		module->release();
}

/*
 * fontconfig (2.14), which cairo loads, keeps a few blocks from parsing its XML configuration
 * that nothing can free, not even FcFini(); tell LeakSanitizer (GOVSIM_SANITIZE builds) that
 * these are not ours. LSan calls this hook of the program when it is linked in (a hook in the
 * module, loaded later, would come too late); otherwise it is an unused function.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}
