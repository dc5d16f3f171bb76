/*
 * import_lisa.c - a platform from LISA's plat_info.yml (lisa.platforms.platinfo.PlatformInfo
 * saved with to_yaml_map), read with libyaml's document loader; see platform_import.h.
 *
 * What is read, under platform-info: conf: (either level may be absent):
 *   cpu-capacities: {orig: {CPU: capacity}} (or {CPU: capacity})
 *   freq-domains:   [[CPU, ...], ...]                 one cpufreq policy each
 *   freqs:          {CPU: [kHz, ...]}                 the policy's OPPs (its first CPU's list)
 *   nrg-model:      cpu_nodes: [{cpu, active_states: [{kHz: [capacity, power]}],
 *                                idle_states: [{name: power}]}]
 *   kernel: version: release, name
 * The nrg-model's per-CPU busy power becomes both the em power (given, there being no
 * coefficient) and the EAS v1 busy cost; its idle power the idle cost. Python tags
 * (!!python/object, !!omap) only label the nodes: the loader resolves anchors, so a node
 * written once and referenced as *id001 reads the same in both places.
 */
#include "power/platform_import.h"

#include "core/strbuf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct lisa {
	const char *path;
	yaml_document_t doc;
	struct plat_import *m;
	struct gs_error *err;
};

static yaml_node_t *node_at(struct lisa *l, int idx)
{
	return idx ? yaml_document_get_node(&l->doc, idx) : NULL;
}

static unsigned long line_of(const yaml_node_t *n)
{
	return (unsigned long)n->start_mark.line + 1;
}

static int malformed(struct lisa *l, const yaml_node_t *n, const char *what)
{
	return gs_error_set(l->err, GS_EINPUT, "'%s':%lu: %s", l->path, n ? line_of(n) : 1UL,
			    what);
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The value of `key` in mapping `map`, or NULL (also when map is no mapping). */
static yaml_node_t *map_get(struct lisa *l, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		const char *k = scalar(node_at(l, p->key));
		if (k && strcmp(k, key) == 0)
			return node_at(l, p->value);
	}
	return NULL;
}

static int seq_len(const yaml_node_t *n)
{
	return n && n->type == YAML_SEQUENCE_NODE
		       ? (int)(n->data.sequence.items.top - n->data.sequence.items.start)
		       : -1;
}

static yaml_node_t *seq_at(struct lisa *l, yaml_node_t *n, int i)
{
	return node_at(l, n->data.sequence.items.start[i]);
}

static bool to_long(const yaml_node_t *n, long lo, long hi, long *out)
{
	const char *s = scalar(n);
	char *end;
	long v;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static bool to_double(const yaml_node_t *n, double *out)
{
	const char *s = scalar(n);
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*out = strtod(s, &end);
	return !errno && !*end && isfinite(*out) && *out >= 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return (x > y) - (x < y);
}

/* c->source: "<file>:<line> freq-domains [0,1,2,3]", the CPUs as the file lists them (cut at
 * the field's size); 0, or GS_ENOMEM. */
static int domain_source(const struct lisa *l, yaml_node_t *d, struct pimp_cluster *c)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "%s:%lu freq-domains [", l->path, line_of(d));
	for (int k = 0; k < c->nr_cpus; k++)
		strbuf_addf(&sb, "%s%d", k ? "," : "", c->cpus[k]);
	strbuf_addf(&sb, "]");
	strbuf_copy(&sb, c->source, sizeof(c->source));
	ret = strbuf_error(&sb);
	strbuf_free(&sb);
	return ret;
}

/* freq-domains: one cluster per list, its CPUs ascending. */
static int read_domains(struct lisa *l, yaml_node_t *conf)
{
	yaml_node_t *fd = map_get(l, conf, "freq-domains");
	struct plat_import *m = l->m;
	int n = seq_len(fd);

	if (!fd)
		return malformed(l, conf, "no freq-domains: the cpufreq policies are needed");
	if (n < 1 || n > GS_MAX_CLUSTERS)
		return malformed(l, fd, "freq-domains: expected a list of 1 to 16 CPU lists");
	for (int i = 0; i < n; i++) {
		yaml_node_t *d = seq_at(l, fd, i);
		struct pimp_cluster *c = &m->clusters[i];
		int nc = seq_len(d);

		if (nc < 1 || nc > GS_MAX_CPUS)
			return malformed(l, d, "freq-domains: expected a list of CPU numbers");
		for (int k = 0; k < nc; k++) {
			long cpu;
			if (!to_long(seq_at(l, d, k), 0, GS_MAX_CPUS - 1, &cpu))
				return malformed(l, seq_at(l, d, k),
					   "freq-domains: a CPU number 0..63 expected");
			c->cpus[c->nr_cpus++] = (int)cpu;
			if (cpu + 1 > m->nr_cpus)
				m->nr_cpus = (int)cpu + 1;
		}
		if (domain_source(l, d, c))
			return gs_error_set(l->err, GS_ENOMEM, "out of memory");
		qsort(c->cpus, (size_t)c->nr_cpus, sizeof(int), cmp_int);
		c->transition_latency_ns = -1;
	}
	m->nr_clusters = n;
	return 0;
}

/* cpu-capacities: {orig: {CPU: N}}, or the plain {CPU: N} map of older files. */
static int read_capacities(struct lisa *l, yaml_node_t *conf)
{
	yaml_node_t *caps = map_get(l, conf, "cpu-capacities");
	yaml_node_t *orig = map_get(l, caps, "orig");

	if (!caps)
		return 0;
	if (orig)
		caps = orig;
	if (caps->type != YAML_MAPPING_NODE)
		return malformed(l, caps, "cpu-capacities: expected a map of CPU: capacity");
	for (yaml_node_pair_t *p = caps->data.mapping.pairs.start; p < caps->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = node_at(l, p->key), *v = node_at(l, p->value);
		long cpu, cap;

		if (!to_long(k, 0, GS_MAX_CPUS - 1, &cpu))
			continue; /* another view of the capacities (rtapp:) */
		if (!to_long(v, 1, SCHED_CAPACITY_SCALE, &cap))
			return malformed(l, v, "cpu-capacities: a capacity 1..1024 expected");
		l->m->capacity[cpu] = (u32)cap;
		snprintf(l->m->capacity_source[cpu], PIMP_SOURCE_MAX, "%s:%lu cpu-capacities%s",
			 l->path, line_of(v), orig ? " orig" : "");
		if (cpu + 1 > l->m->nr_cpus)
			l->m->nr_cpus = (int)cpu + 1;
	}
	return 0;
}

/* freqs: the first CPU's list gives each policy's OPPs, sorted. */
static int read_freqs(struct lisa *l, yaml_node_t *conf)
{
	yaml_node_t *freqs = map_get(l, conf, "freqs");

	for (int i = 0; i < l->m->nr_clusters; i++) {
		struct pimp_cluster *c = &l->m->clusters[i];
		char key[16];
		yaml_node_t *list;
		u32 khz[GS_MAX_OPPS];
		int n;

		snprintf(key, sizeof(key), "%d", c->cpus[0]);
		list = map_get(l, freqs, key);
		if (!list)
			continue; /* the nrg-model may give them */
		n = seq_len(list);
		if (n < 1 || n > GS_MAX_OPPS)
			return malformed(l, list,
					 "freqs: expected a list of 1 to 32 frequencies (kHz)");
		for (int k = 0; k < n; k++) {
			long v;
			if (!to_long(seq_at(l, list, k), 1, UINT32_MAX, &v))
				return malformed(l, seq_at(l, list, k),
						 "freqs: a frequency in kHz expected");
			khz[k] = (u32)v;
		}
		qsort(khz, (size_t)n, sizeof(u32), cmp_u32);
		for (int k = 0; k < n; k++) {
			struct pimp_opp *o;
			if (k && khz[k] == khz[k - 1])
				continue;
			o = &c->opps[c->nr_opps++];
			o->freq_khz = khz[k];
			o->cost_capacity = -1;
			snprintf(o->source, sizeof(o->source), "%s:%lu freqs[%d]", l->path,
				 line_of(list), c->cpus[0]);
		}
	}
	return 0;
}

/* The nrg-model's node of `cpu` in cpu_nodes, or NULL. */
static yaml_node_t *cpu_node(struct lisa *l, yaml_node_t *nrg, int cpu)
{
	yaml_node_t *nodes = map_get(l, nrg, "cpu_nodes");

	for (int i = 0; i < seq_len(nodes); i++) {
		yaml_node_t *n = seq_at(l, nodes, i);
		long c;
		if (to_long(map_get(l, n, "cpu"), 0, GS_MAX_CPUS - 1, &c) && c == cpu)
			return n;
	}
	return NULL;
}

/* One entry of an !!omap (a one-pair mapping): its key and value. */
static bool omap_entry(struct lisa *l, yaml_node_t *e, yaml_node_t **k, yaml_node_t **v)
{
	if (!e || e->type != YAML_MAPPING_NODE ||
	    e->data.mapping.pairs.top - e->data.mapping.pairs.start != 1)
		return false;
	*k = node_at(l, e->data.mapping.pairs.start->key);
	*v = node_at(l, e->data.mapping.pairs.start->value);
	return *k && *v;
}

static struct pimp_opp *opp_of(struct pimp_cluster *c, u32 khz)
{
	for (int k = 0; k < c->nr_opps; k++)
		if (c->opps[k].freq_khz == khz)
			return &c->opps[k];
	return NULL;
}

/* active_states: {kHz: [capacity, power]}: the policy's powers (and its OPPs without freqs). */
static int read_active(struct lisa *l, struct pimp_cluster *c, yaml_node_t *states)
{
	bool had_freqs = c->nr_opps > 0;

	for (int i = 0; i < seq_len(states); i++) {
		yaml_node_t *e = seq_at(l, states, i), *k, *v;
		double cap, power;
		struct pimp_opp *o;
		long khz;

		if (!omap_entry(l, e, &k, &v) || !to_long(k, 1, UINT32_MAX, &khz) ||
		    seq_len(v) != 2 || !to_double(seq_at(l, v, 0), &cap) ||
		    !to_double(seq_at(l, v, 1), &power))
			return malformed(l, e,
				 "nrg-model active_states: expected kHz: [capacity, power]");
		o = opp_of(c, (u32)khz);
		if (!o && had_freqs)
			continue; /* not an OPP of the policy: freqs decides */
		if (!o) {
			if (c->nr_opps == GS_MAX_OPPS ||
			    (c->nr_opps && c->opps[c->nr_opps - 1].freq_khz >= (u32)khz))
				return malformed(l, e, "nrg-model active_states: more than 32 "
						    "or not in increasing frequency");
			o = &c->opps[c->nr_opps++];
			o->freq_khz = (u32)khz;
			snprintf(o->source, sizeof(o->source), "%s:%lu nrg-model", l->path,
				 line_of(e));
		}
		o->power_mw = lround(power) > 0 ? lround(power) : 1;
		o->cost_capacity = cap;
		o->cost_power = lround(power);
		snprintf(o->source + strlen(o->source), sizeof(o->source) - strlen(o->source),
			 "; power = nrg-model cpu%d active_states %ld (%s:%lu): %.2f, %g",
			 c->cpus[0], khz, l->path, line_of(e), cap, power);
	}
	return 0;
}

/* idle_states: {name: power}: the policy's cpuidle states, in order, and their costs. */
static int read_idle(struct lisa *l, struct pimp_cluster *c, yaml_node_t *states)
{
	for (int i = 0; i < seq_len(states) && c->nr_idle < GS_MAX_IDLE_STATES; i++) {
		yaml_node_t *e = seq_at(l, states, i), *k, *v;
		struct pimp_idle *s = &c->idle[c->nr_idle];
		double power;

		if (!omap_entry(l, e, &k, &v) || !scalar(k) || !to_double(v, &power))
			return malformed(l, e, "nrg-model idle_states: expected name: power");
		snprintf(s->name, sizeof(s->name), "%s", scalar(k));
		/* DT idle-state names: cluster-sleep-N is entered with the whole cluster */
		s->cluster_level = strncmp(s->name, "cluster", 7) == 0;
		s->wakeup_latency_us = -1;
		s->min_residency_us = -1;
		s->cost_power = lround(power);
		snprintf(s->source, sizeof(s->source),
			 "%s:%lu nrg-model cpu%d idle_states %s: %g; level %s by its name", l->path,
			 line_of(e), c->cpus[0], scalar(k), power, s->cluster_level ? "cluster" : "cpu");
		c->nr_idle++;
	}
	return 0;
}

static int read_nrg(struct lisa *l, yaml_node_t *conf)
{
	yaml_node_t *nrg = map_get(l, conf, "nrg-model");
	int rc;

	if (!nrg)
		return 0;
	l->m->has_costs = true;
	for (int i = 0; i < l->m->nr_clusters; i++) {
		struct pimp_cluster *c = &l->m->clusters[i];
		yaml_node_t *node = cpu_node(l, nrg, c->cpus[0]);

		if (!node) {
			l->m->has_costs = false;
			continue;
		}
		if ((rc = read_active(l, c, map_get(l, node, "active_states"))) ||
		    (rc = read_idle(l, c, map_get(l, node, "idle_states"))))
			return rc;
	}
	return 0;
}

static void describe(struct lisa *l, yaml_node_t *conf)
{
	yaml_node_t *kernel = map_get(l, conf, "kernel");
	const char *release = scalar(map_get(l, map_get(l, kernel, "version"), "release"));
	const char *name = scalar(map_get(l, conf, "name"));

	snprintf(l->m->source, sizeof(l->m->source), "%s (LISA plat_info)", l->path);
	snprintf(l->m->description, sizeof(l->m->description),
		 "%s: %d CPUs, imported from LISA plat_info%s%s", name ? name : "a platform",
		 l->m->nr_cpus, release ? ", kernel " : "", release ? release : "");
}

int platform_import_lisa(const char *path, struct plat_import *m, struct gs_error *err)
{
	struct lisa l = {.path = path, .m = m, .err = err};
	yaml_parser_t parser;
	yaml_node_t *conf, *up;
	FILE *f = fopen(path, "rb");
	int rc;

	if (!f)
		return gs_error_set(err, GS_EINPUT, "'%s': cannot open: %s", path, strerror(errno));
	if (!yaml_parser_initialize(&parser)) {
		fclose(f);
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	}
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &l.doc)) {
		rc = gs_error_set(err, GS_EINPUT, "'%s':%lu: not YAML: %s", path,
				  (unsigned long)parser.problem_mark.line + 1,
				  parser.problem ? parser.problem : "parse error");
		yaml_parser_delete(&parser);
		fclose(f);
		return rc;
	}
	yaml_parser_delete(&parser);
	fclose(f);
	conf = yaml_document_get_root_node(&l.doc);
	if (!conf || conf->type != YAML_MAPPING_NODE) {
		rc = gs_error_set(err, GS_EINPUT, "'%s': not a LISA plat_info file (no mapping)",
				  path);
		goto out_doc;
	}
	if ((up = map_get(&l, conf, "platform-info")))
		conf = up;
	if ((up = map_get(&l, conf, "conf")))
		conf = up;
	if ((rc = read_domains(&l, conf)) || (rc = read_capacities(&l, conf)) ||
	    (rc = read_freqs(&l, conf)) || (rc = read_nrg(&l, conf)))
		goto out_doc;
	describe(&l, conf);
out_doc:
	yaml_document_delete(&l.doc);
	return rc;
}
