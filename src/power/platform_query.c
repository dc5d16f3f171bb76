/*
 * platform_query.c - numbers derived from a platform model (EM power and cost of an OPP, the
 * capacity at an OPP, an OPP's index) and the built-in model of a device name; see platform.h.
 * Linux v5.9 sources as named in platform.c's top comment.
 *
 * Differences from those v5.9 functions, and why:
 * - em_opp_power_mw() (_get_power, drivers/opp/of.c) saturates where the kernel's u64 product
 *   would wrap (a coefficient and voltage no real DT has); the EM_MAX_POWER rule then refuses
 *   the model. The kernel reads the voltage of the OPP at or above the frequency
 *   (dev_pm_opp_find_freq_ceil); here each OPP row carries its own.
 * - em_create_perf_table()'s checks (strictly increasing frequencies, 0 < power <=
 *   EM_MAX_POWER) are load rules (platform_validate.c): a model that breaks one is refused with
 *   the row named (exit 3), where the kernel registers no Energy Model and EAS stays off.
 * - The costs are u32, saturated: the kernel's unsigned long cost is at most fmax / freq x
 *   EM_MAX_POWER, far below 2^32 for any real OPP table.
 */
#include "power/platform_priv.h"

#include <stdio.h>
#include <strings.h>

u32 em_opp_power_mw(u32 dyn_power_coeff, u32 volt_uv, u32 freq_khz)
{
	/*
	 * _get_power(): mV = uV / 1000 and MHz = Hz / 1000000 (both truncated; Hz = kHz * 1000, so
	 * MHz = kHz / 1000), then P = C * mV^2 * MHz / 1e9 mW, truncated. Saturates instead of
	 * wrapping for absurd inputs, which the EM_MAX_POWER rule then rejects.
	 */
	u64 mv = volt_uv / 1000, mhz = freq_khz / 1000, p;

	if (__builtin_mul_overflow((u64)dyn_power_coeff, mv, &p) ||
	    __builtin_mul_overflow(p, mv, &p) || __builtin_mul_overflow(p, mhz, &p))
		return UINT32_MAX;
	p /= 1000000000ULL;
	return p > UINT32_MAX ? UINT32_MAX : (u32)p;
}

u32 em_opp_cost(u32 max_khz, u32 power_mw, u32 freq_khz)
{
	/* em_create_perf_table(): cost = fmax * power / freq, div64_u64, so truncated. */
	u64 cost;

	if (!freq_khz)
		return 0;
	cost = (u64)max_khz * power_mw / freq_khz;
	return cost > UINT32_MAX ? UINT32_MAX : (u32)cost;
}

u32 plat_opp_capacity(u32 cpu_scale, u32 freq_khz, u32 max_khz)
{
	u64 freq_scale;

	if (!max_khz)
		return 0;
	freq_scale = ((u64)freq_khz << SCHED_CAPACITY_SHIFT) / max_khz;
	return (u32)(((u64)cpu_scale * freq_scale) >> SCHED_CAPACITY_SHIFT);
}

int plat_cluster_opp_index(const struct plat_cluster *c, u32 freq_khz)
{
	for (int i = 0; i < c->nr_opps; i++)
		if (c->opps[i].freq_khz == freq_khz)
			return i;
	return -1;
}

/*
 * Device strings -> platforms. The SoC model strings are Wattson's device column (perfetto ec5d16b
 * stdlib/wattson/device_infos.sql); the codenames its _wattson_device_map (oriole, raven, bluejay:
 * Tensor; eos, aurora: monaco); the SoC code names from the device trees (gs101, zumapro, hi3660,
 * hi6220).
 */
static const struct {
	const char *device, *platform;
} device_map[] = {
	{"Tensor", "tensor"},       {"gs101", "tensor"},       {"oriole", "tensor"},
	{"raven", "tensor"},        {"bluejay", "tensor"},     {"Tensor G4", "tensor-g4"},
	{"zumapro", "tensor-g4"},   {"Tensor G5", "tensor-g5"}, {"MT6858", "mt6858"},
	{"MT6897", "mt6897"},       {"SM8750", "sm8750"},      {"SXR2230P", "sxr2230p"},
	{"monaco", "monaco"},       {"eos", "monaco"},         {"aurora", "monaco"},
	{"neo", "neo"},             {"hi3660", "hikey960"},    {"hikey960", "hikey960"},
	{"juno", "juno-r0"},        {"juno-r0", "juno-r0"},     {"hi6220", "hikey"},
	{"hikey", "hikey"},
};

static const char *device_lookup(const char *s, size_t len)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(device_map); i++)
		if (strlen(device_map[i].device) == len &&
		    strncasecmp(device_map[i].device, s, len) == 0)
			return device_map[i].platform;
	return NULL;
}

const char *platform_for_device(const char *device)
{
	const char *p, *hit;

	if (!device || !*device)
		return NULL;
	/* the whole string: a SoC model ("Tensor G4") */
	if ((hit = device_lookup(device, strlen(device))))
		return hit;
	/* a fingerprint brand/product/device:release/...: each field, up to the first ':' */
	p = device;
	while (*p && *p != ':') {
		size_t n = strcspn(p, "/:");
		if ((hit = device_lookup(p, n)))
			return hit;
		p += n;
		if (*p == '/')
			p++;
	}
	return NULL;
}
