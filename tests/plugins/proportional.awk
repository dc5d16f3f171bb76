# proportional.awk - the example governor's decisions worked by hand from a --timeline CSV of
# `govsim run --platform hikey960 --set switch_latency_us=0` (plugins.sh). Each evaluation is one
# row per CPU of the policy (4 on Hikey960); for the group:
#   ratio  = max over its CPUs of int((util_cfs + util_rt) * 1024 / capacity),
#            util_cfs = max(util_avg, util_est.enqueued) (v5.9 cpu_util_cfs with UTIL_EST)
#   target = int(cpuinfo_max_khz * ratio / 1024)
#   freq   = the lowest OPP >= target, else the highest (RELATION_L), in force at once
# and every row must carry that target_khz and freq_khz. Exit 1 on a difference.
function lowest_opp_ge(pol, t,   i) {
	for (i = 0; i < 5; i++)
		if (opp[pol, i] >= t)
			return opp[pol, i];
	return opp[pol, 4];
}
function check(   i, r, ratio, target, want) {
	if (n == 0)
		return;
	if (n != 4) { printf "group at %s: %d rows, want 4\n", gt, n; bad++; }
	ratio = 0;
	for (i = 0; i < n; i++) {
		r = int((cfs[i] + rt[i]) * 1024 / cap[gp]);
		if (r > ratio)
			ratio = r;
	}
	target = int(maxk[gp] * ratio / 1024);
	want = lowest_opp_ge(gp, target);
	for (i = 0; i < n; i++) {
		if (tk[i] != target || fk[i] != want) {
			if (bad < 5)
				printf "%s policy %d: target %s freq %s, by hand %d %d\n", gt, gp, tk[i], fk[i], target, want;
			bad++;
		}
	}
	checked++;
	n = 0;
}
BEGIN {
	n = 0; bad = 0; checked = 0;
	split("533000 999000 1402000 1709000 1844000", l, " ");
	split("903000 1421000 1805000 2112000 2362000", b, " ");
	for (i = 0; i < 5; i++) { opp[0, i] = l[i + 1]; opp[4, i] = b[i + 1]; }
	cap[0] = 462; cap[4] = 1024; maxk[0] = 1844000; maxk[4] = 2362000;
}
NR == 1 { next }
{
	if (n > 0 && ($1 != gt || $3 != gp || n == 4))
		check();
	gt = $1; gp = $3;
	cfs[n] = $4 > $5 ? $4 : $5; rt[n] = $6; tk[n] = $11; fk[n] = $12; n++;
}
END {
	if (dbg) printf "%d decisions\n", checked;
	check();
	if (checked < 100) { printf "only %d decisions checked\n", checked; bad++; }
	exit bad != 0;
}
