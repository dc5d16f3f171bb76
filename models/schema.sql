-- schema.sql - the tables a govsim platform model fills.
--
-- govsim loads this file into an empty in-memory SQLite database, then one platform file
-- (models/hikey960.sql, models/juno-r0.sql, or a user's FILE.sql written against these tables),
-- then validates the result (src/power/platform.c) and copies it into struct platform.
--
-- Conventions:
-- * Every data table has a `source` column: where each number comes from (a file, a commit, a
--   function), or the assumption made when no source gives it.
-- * Units are in the column names (_khz, _uv, _us, _ns, _mw). The EAS v1 cost columns
--   (cost_busy.power, cost_idle.power) are in the model's own unit, named once in
--   platform.cost_unit. The `em` power is mW, as the v5.9 Energy Model.
-- * Order matters: OPPs are read in insertion order (rowid) per cluster and must come in strictly
--   increasing frequency; a file with two OPPs swapped is rejected, naming the row.
-- * Constraints that a rule below does not cover precisely are left to the validator, so that a
--   bad model fails with a message naming the table, the row and the rule.

-- Exactly one row: the platform itself.
CREATE TABLE platform (
	name TEXT NOT NULL,        -- "hikey960": what --platform NAME matches for built-ins
	description TEXT NOT NULL, -- one line for `govsim platforms list` (< 256 bytes)
	cost_unit TEXT NOT NULL,   -- unit of cost_busy.power and cost_idle.power (< 32 bytes)
	source TEXT NOT NULL
);

-- Optional, at most one row: whether the kernel is frequency invariant
-- (arch_scale_freq_invariant()). Without a row, 1: arm64 kernels scale PELT by frequency
-- (arch_set_freq_scale() from cpufreq, or AMUs), and so does x86 with APERF/MPERF. 0 for a CPU
-- without frequency counters, such as the lab's QEMU guest: PELT then runs unscaled and
-- schedutil's get_next_freq() starts from policy->cur, not cpuinfo.max_freq.
CREATE TABLE frequency_invariance (
	freq_invariant INTEGER NOT NULL CHECK (freq_invariant IN (0, 1)),
	source TEXT NOT NULL
);

-- Optional, at most one row: the cpufreq driver's policy->dvfs_possible_from_any_cpu. Without a
-- row, 1: cpufreq-dt, scmi-cpufreq, qcom-cpufreq-hw and cppc-cpufreq let any CPU change a
-- policy's frequency. 0 for acpi-cpufreq (the lab's guests): schedutil then ignores an update
-- made from a CPU outside the policy (cpufreq_this_cpu_can_update()), such as a wakeup the
-- waker's CPU enqueues or a new task placed by its parent's CPU.
CREATE TABLE cpufreq_driver (
	name TEXT NOT NULL,
	dvfs_possible_from_any_cpu INTEGER NOT NULL CHECK (dvfs_possible_from_any_cpu IN (0, 1)),
	source TEXT NOT NULL
);

-- Clusters, one per cpufreq policy (the models here have one policy per cluster). Ids are
-- 0..N-1: the index govsim uses for the cluster.
CREATE TABLE clusters (
	cluster INTEGER NOT NULL,
	name TEXT NOT NULL,                   -- "little", "big"
	transition_latency_ns INTEGER NOT NULL, -- cpuinfo.transition_latency
	dyn_power_coeff INTEGER,              -- DT dynamic-power-coefficient (uW/MHz/V^2); NULL: none
	source TEXT NOT NULL
);

-- CPUs, ids 0..N-1, with their arch_scale_cpu_capacity (1..1024, at least one 1024).
CREATE TABLE cpus (
	cpu INTEGER NOT NULL,
	capacity INTEGER NOT NULL,
	source TEXT NOT NULL
);

-- Which policy (cluster) each CPU belongs to: every CPU in exactly one.
CREATE TABLE cluster_cpus (
	cluster INTEGER NOT NULL,
	cpu INTEGER NOT NULL,
	source TEXT NOT NULL
);

-- OPPs per cluster, in strictly increasing frequency. The capacity at each OPP and the `em`
-- power are derived by govsim, not stored:
--   capacity    = cpu_scale * ((freq_khz << 10) / max_khz) >> 10
--   em power mW = C * mV^2 * MHz / 1e9, truncated (v5.9 drivers/opp/of.c _get_power), where C is
--                 clusters.dyn_power_coeff.
-- em_power_mw_given is for clusters without a coefficient only: the EM power (mW) a source
-- states directly; the row's source must say so. NULL otherwise.
CREATE TABLE opps (
	cluster INTEGER NOT NULL,
	freq_khz INTEGER NOT NULL,
	volt_uv INTEGER,          -- NULL when no source gives it (then the cluster needs no C)
	em_power_mw_given INTEGER,
	source TEXT NOT NULL
);

-- Idle states per cluster, cpuidle indices 0..N-1 (the cpu_idle state= of a trace). Latencies as
-- the DT states them; govsim derives the cpuidle exit latency like v5.9 dt_idle_states.c:
-- wakeup_latency_us when given, else entry_latency_us + exit_latency_us. target residency is
-- min_residency_us. level 'cluster': entered only when every CPU of the cluster is idle.
CREATE TABLE idle_states (
	cluster INTEGER NOT NULL,
	idx INTEGER NOT NULL,
	name TEXT NOT NULL,       -- "WFI", "cpu-sleep-0", "cluster-sleep-0"
	level TEXT NOT NULL CHECK (level IN ('cpu', 'cluster')),
	entry_latency_us INTEGER,
	exit_latency_us INTEGER,
	wakeup_latency_us INTEGER,
	min_residency_us INTEGER NOT NULL,
	source TEXT NOT NULL
);

-- EAS v1 sched-energy-costs, busy part: (capacity, power) per OPP, for one CPU (level 'cpu') and
-- for the cluster while any of its CPUs is busy (level 'cluster'). Power in platform.cost_unit.
-- Optional per cluster and level; when present, one row per OPP of the cluster, in OPP order.
CREATE TABLE cost_busy (
	cluster INTEGER NOT NULL,
	level TEXT NOT NULL CHECK (level IN ('cpu', 'cluster')),
	freq_khz INTEGER NOT NULL, -- the OPP this entry belongs to
	capacity INTEGER NOT NULL, -- the cost table's own capacity column
	power INTEGER NOT NULL,
	source TEXT NOT NULL
);

-- EAS v1 sched-energy-costs, idle part: power per idle state (idle_states.idx), per CPU and per
-- cluster, in platform.cost_unit. Missing entries are 0.
CREATE TABLE cost_idle (
	cluster INTEGER NOT NULL,
	level TEXT NOT NULL CHECK (level IN ('cpu', 'cluster')),
	idx INTEGER NOT NULL,
	power INTEGER NOT NULL,
	source TEXT NOT NULL
);

-- ---- Wattson curves (optional) ------------------------------------------------------------------
-- Perfetto's CPU power estimator, Wattson, looks measured power up per CPU and per policy by exact
-- frequency and idle state (src/power/wattson.h; google/perfetto
-- src/trace_processor/plugins/wattson/data/<Folder>/*.csv). `--power-model wattson` uses these
-- tables; a platform without them has no
-- wattson model. The curve tables keep the CSV columns verbatim (device, policy = the first CPU of
-- a cpufreq policy, dep_policy 255 = the DSU) plus a source naming the CSV, its line and commit.
-- All powers are mW: active, idle0 and idle1 per CPU; static once per policy; interconnect once.

-- Exactly one row when the platform has curves: the SoC model string Wattson matches ("Tensor").
CREATE TABLE wattson_device (
	device TEXT NOT NULL,  -- the `device` column of every curve row below (< 32 bytes)
	source TEXT NOT NULL
);

-- Per CPU (optional; a CPU without a row has offset 0 and votes by power): the deep-idle exit
-- offset (the active period after a deepest-idle exit starts this much earlier) and whether the
-- 2D dependency of this CPU is voted by frequency instead of by power (_vote_by_freq).
CREATE TABLE wattson_cpus (
	cpu INTEGER NOT NULL,
	deep_idle_offset_ns INTEGER NOT NULL,
	vote_by_freq INTEGER NOT NULL DEFAULT 0 CHECK (vote_by_freq IN (0, 1)),
	source TEXT NOT NULL
);

-- Nominal cpuidle index -> Wattson state (0 shallow, 1 deepest), as _idle_state_map (optional:
-- without rows the index is used as it is, and 1 is the deepest).
CREATE TABLE wattson_idle_map (
	idx INTEGER NOT NULL,
	state INTEGER NOT NULL CHECK (state IN (0, 1)),
	source TEXT NOT NULL
);

-- cpu_1d.csv: one row per OPP of a policy whose power depends on its own frequency only.
CREATE TABLE wattson_cpu_1d (
	device TEXT NOT NULL,
	policy INTEGER NOT NULL,
	freq_khz INTEGER NOT NULL,
	static REAL NOT NULL,
	active REAL NOT NULL,
	idle0 REAL NOT NULL,
	idle1 REAL NOT NULL,
	source TEXT NOT NULL
);

-- cpu_2d.csv: rows per (OPP, dependency policy, its frequency); the grid may be sparse.
CREATE TABLE wattson_cpu_2d (
	device TEXT NOT NULL,
	policy INTEGER NOT NULL,
	freq_khz INTEGER NOT NULL,
	dep_policy INTEGER NOT NULL,
	dep_freq INTEGER NOT NULL,
	static REAL NOT NULL,
	active REAL NOT NULL,
	idle0 REAL NOT NULL,
	idle1 REAL NOT NULL,
	interconnect REAL NOT NULL,
	source TEXT NOT NULL
);

-- l3.csv: energy per L3 hit and per miss (nJ, unverified) by (CPU0's OPP, its dependency). Used
-- only with DSU PMU counts, which govsim's traces do not carry: loaded and checked, not used.
CREATE TABLE wattson_l3 (
	device TEXT NOT NULL,
	freq_khz INTEGER NOT NULL,
	dep_policy INTEGER NOT NULL,
	dep_freq INTEGER NOT NULL,
	l3_hit REAL NOT NULL,
	l3_miss REAL NOT NULL,
	source TEXT NOT NULL
);

-- ---- Kernel cost table (optional; issue #16) ---------------------------------------------------
-- What the scheduler's own work costs: ns per call on CPU `cpu` at that CPU's max frequency.
-- govsim turns each into capacity-invariant work (ns x capacity(cpu) / 1024) and runs it, like
-- any work, at the capacity and frequency of the CPU where the operation runs
-- (src/kernel/kernel_cost.h).
-- operation is one of: activate_task, deactivate_task (base enqueue/dequeue, root cgroup, no
-- uclamp), cgroup_level (extra per cgroup level at every enqueue and dequeue),
-- uclamp_rq_inc_id, uclamp_rq_dec_id (per clamp id, key on), uclamp_static_branch (the key
-- test while it is off), cpufreq_update_util (one hook call), governor_eval, freq_switch.
-- A platform without rows has no kernel overhead model (counts are still reported).
CREATE TABLE kernel_costs (
	operation TEXT NOT NULL,
	ns REAL NOT NULL,
	cpu INTEGER NOT NULL,  -- the CPU the ns were measured (or assumed) on
	source TEXT NOT NULL
);
