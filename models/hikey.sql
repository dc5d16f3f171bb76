-- hikey.sql - HiSilicon Hi6220 (96Boards HiKey): 8x Cortex-A53 in two clusters of 4, one clock.
-- The board of seed 003 (Vincent Guittot's "octo core arm64 (hikey)" perf bench sched pipe
-- table); its kernel_costs table comes from that seed (docs/kernel-overhead.md, "Deriving the
-- HiKey table").
--
-- DT = arch/arm64/boot/dts/hisilicon/hi6220.dtsi, mainline torvalds/linux as stored in the
--      project's source index at commit 5d8dfaa71d87 (a recent mainline). ASSUMED to hold for
--      v5.9 too: the index has no v5.9 copy of this file to compare (no v5.9.1 tree
--      is stored), and the seed's kernel is a June 2020 tip.
-- Kernel rules followed: Linux v5.9 (drivers/opp/of.c _get_power, cpufreq-dt,
--      drivers/base/arch_topology.c, cpuidle-psci + dt_idle_states.c), as for models/hikey960.sql.
-- LISA = ARM-software/lisa libs/utils/platforms/hikey_energy.py @ 97732786: the EAS v1 energy
--      model of this board; it agrees that all 8 CPUs are one frequency domain.

INSERT INTO platform (name, description, cost_unit, source) VALUES
('hikey', 'HiSilicon Hi6220 (HiKey): 8x Cortex-A53, one cpufreq policy',
 'mW (no EAS cost tables)',
 'DT hi6220.dtsi (torvalds/linux 5d8dfaa71d87); cpufreq-dt-platdev allowlist hisilicon,hi6220; LISA hikey_energy.py');

-- One policy for all 8 CPUs: every cpu node (cluster0 cpu0-3 and cluster1 cpu4-7) has
-- `clocks = <&stub_clock 0>` and `operating-points-v2 = <&cpu_opp_table>`, and the table is
-- `opp-shared`, so cpufreq-dt (hi6220 is on cpufreq-dt-platdev's allowlist) makes one policy of
-- the CPUs sharing the table (dev_pm_opp_of_get_sharing_cpus). transition latency: the OPPs'
-- clock-latency-ns 500000; the cpu nodes have no cpu-supply, so no regulator latency is added.
INSERT INTO clusters (cluster, name, transition_latency_ns, dyn_power_coeff, source) VALUES
(0, 'all', 500000, 311, 'DT: one opp-shared cpu_opp_table and one clock (stub_clock 0) for cpu0-7 -> one cpufreq-dt policy; clock-latency-ns 500000 on every OPP, no cpu-supply; dynamic-power-coefficient 311 on every cpu node');

-- No capacity-dmips-mhz in the DT: topology_normalize_cpu_scale (arch_topology.c v5.9) leaves
-- every cpu_scale at SCHED_CAPACITY_SCALE, 1024 (8 identical A53s).
INSERT INTO cpus (cpu, capacity, source) VALUES
(0, 1024, 'DT: no capacity-dmips-mhz, so arch_topology v5.9 keeps cpu_scale 1024'),
(1, 1024, 'DT: no capacity-dmips-mhz, so arch_topology v5.9 keeps cpu_scale 1024'),
(2, 1024, 'DT: no capacity-dmips-mhz, so arch_topology v5.9 keeps cpu_scale 1024'),
(3, 1024, 'DT: no capacity-dmips-mhz, so arch_topology v5.9 keeps cpu_scale 1024'),
(4, 1024, 'DT: no capacity-dmips-mhz, so arch_topology v5.9 keeps cpu_scale 1024'),
(5, 1024, 'DT: no capacity-dmips-mhz, so arch_topology v5.9 keeps cpu_scale 1024'),
(6, 1024, 'DT: no capacity-dmips-mhz, so arch_topology v5.9 keeps cpu_scale 1024'),
(7, 1024, 'DT: no capacity-dmips-mhz, so arch_topology v5.9 keeps cpu_scale 1024');

INSERT INTO cluster_cpus (cluster, cpu, source) VALUES
(0, 0, 'DT cpu-map cluster0 core0; the one opp-shared policy'),
(0, 1, 'DT cpu-map cluster0 core1; the one opp-shared policy'),
(0, 2, 'DT cpu-map cluster0 core2; the one opp-shared policy'),
(0, 3, 'DT cpu-map cluster0 core3; the one opp-shared policy'),
(0, 4, 'DT cpu-map cluster1 core0; the one opp-shared policy'),
(0, 5, 'DT cpu-map cluster1 core1; the one opp-shared policy'),
(0, 6, 'DT cpu-map cluster1 core2; the one opp-shared policy'),
(0, 7, 'DT cpu-map cluster1 core3; the one opp-shared policy');

-- em power = 311 x mV^2 x MHz / 1e9, truncated (v5.9 _get_power): 69, 145, 269, 415, 660 mW.
-- (LISA's EAS v1 cpu busy power, 69/124-125/224/367/670, is another unit and model; not used.)
INSERT INTO opps (cluster, freq_khz, volt_uv, em_power_mw_given, source) VALUES
(0,  208000, 1040000, NULL, 'DT cpu_opp_table opp00'),
(0,  432000, 1040000, NULL, 'DT cpu_opp_table opp01'),
(0,  729000, 1090000, NULL, 'DT cpu_opp_table opp02'),
(0,  960000, 1180000, NULL, 'DT cpu_opp_table opp03'),
(0, 1200000, 1330000, NULL, 'DT cpu_opp_table opp04');

-- cpuidle (v5.9 cpuidle-psci.c, dt_idle_states.c): state 0 is the driver's own WFI (exit latency
-- 1 us, target residency 1 us); then the DT's cpu-idle-states = <&CPU_SLEEP &CLUSTER_SLEEP>.
-- Exit latency: CPU_SLEEP has no wakeup-latency-us, so entry + exit = 700 + 250 = 950 us;
-- CLUSTER_SLEEP's wakeup-latency-us 1500 is used as it is.
-- ASSUMED (a limit of the schema, where a cluster is a cpufreq policy): govsim enters the
-- 'cluster' state only when all 8 CPUs of the one policy are idle, where the hardware has two
-- power domains (cpu0-3, cpu4-7; LISA hikey_energy.py cluster_pds) each entering it on its own.
INSERT INTO idle_states (cluster, idx, name, level, entry_latency_us, exit_latency_us,
			 wakeup_latency_us, min_residency_us, source) VALUES
(0, 0, 'WFI',           'cpu',     NULL, NULL, 1,    1,    'cpuidle-psci v5.9: ARM WFI state, exit latency 1 us, target residency 1 us'),
(0, 1, 'cpu-sleep',     'cpu',     700,  250,  NULL, 1000, 'DT CPU_SLEEP: entry 700, exit 250, min-residency 1000 us'),
(0, 2, 'cluster-sleep', 'cluster', 1000, 700,  1500, 2700, 'DT CLUSTER_SLEEP: entry 1000, exit 700, wakeup 1500, min-residency 2700 us; ASSUMED entered when all 8 CPUs idle (one policy in govsim, two power domains on the SoC)');

-- No EAS v1 cost tables (cost_busy/cost_idle): LISA's hikey_energy.py has them, but its
-- cluster level is per physical cluster (two inside the one policy), which this schema cannot
-- express, and its two stored versions disagree (cluster WFI 47 or 107, cpu 432 MHz 124 or 125).
-- `--power-model costs` is therefore unavailable on hikey; `em` (idle 0) is.

-- ---- Kernel cost table (issue #16) --------------------------------------------------------------
-- ns per call on CPU 0 (Cortex-A53, capacity 1024) at 1200 MHz, derived from seed 003 (Vincent
-- Guittot, LKML 2020-06-24, "[PATCH v2 0/2] sched: Optionally skip uclamp logic in fast path":
-- 20 x `perf bench sched pipe -T -l 50000` on this board, throughput in ops/s, stdev ~0.25 % per
-- figure; docs/kernel-overhead.md, "Deriving the HiKey table"). As for Hikey960, a cost is the
-- document's relative figure times the round govsim replays for the same workload:
--   RT = 17331.62 ns: one round of `govsim gen pipe --loops 100000` (CPUs 0-1) replayed with
--        `--platform hikey --governor performance` at 1200 MHz, no cost table (span 1.733162 s /
--        100000); the trace is taken as run by the default traced kernel (uclamp built in, key
--        off), so the uclamp-less base round is R0 = RT - 2 x uclamp_static_branch = 17040.22 ns.
-- (The board's own round is 1 / 50653 s = 19.74 us: govsim's synthetic round is 12 % shorter.)
-- In the two-CPU pipe a round's critical path holds the two wakeups' enqueues; each dequeue runs
-- while the other side already runs on the other CPU. Each cost below is one number chosen by
-- one rule: it minimises the largest miss over the seed's rows it serves.
INSERT INTO kernel_costs (operation, ns, cpu, source) VALUES
-- "tip uclamp disabled" 50653, 47188, 44568, 41925 ops/s at depth 0..3: -6.84/-12.01/-17.23 %.
-- A round grows by k x R0 per level; k = 7.013 % minimises the largest miss (govsim -6.55/-12.30/
-- -17.38 %, misses 0.29/0.29/0.15 pp); k x R0 = 1195.0 ns a round over its 2 critical-path
-- enqueues: 597.50 ns per level (dequeue walks the same sched_entities: the same cost)
('cgroup_level', 597.50, 0,
 'seed 003 (HiKey, perf bench sched pipe -T, tip uclamp disabled, depth 0-3): 7.013 % of R0 per level (minimax over 3 depths) x R0 / 2 enqueues'),
-- "tip uclamp enabled" (June 2020 tip/sched/core: no static key, so govsim --kernel v5.4-early;
-- task and cgroup uclamp) vs disabled: -3.66, -3.37, -3.92, -3.98 % at depth 0..3. Per round
-- 2 enqueues x 2 clamp ids; 184.65 ns per id minimises the largest miss (govsim -4.15, -3.89,
-- -3.66, -3.46 %: misses -0.49, -0.52, +0.26, +0.52 pp). A constant cost per enqueue falls
-- relative to a round that grows with depth; the seed's figures do not fall (3.66 -> 3.98 %):
-- no kernel term grows with depth (uclamp_tg_restrict reads one task group's precomputed
-- effective clamp), so the two 0.52-pp rows are left as misses, within the seed's noise (the
-- difference of two figures of 0.25 % stdev: 0.35 pp).
('uclamp_rq_inc_id', 184.65, 0,
 'seed 003 (HiKey): tip uclamp enabled vs disabled, -3.37 .. -3.98 % at depth 0-3 (no static key): minimax over 4 depths x round / (2 enqueues x 2 clamp ids)'),
-- Dequeue is off the pipe's critical path: seed 003 cannot see it. Hikey960's ratio (x 0.932,
-- seed 000 (B)'s mean per-call rise of deactivate_task over activate_task's) was measured on
-- Hikey960 CPU0/1, Cortex-A53s: the same core as the HiKey's.
('uclamp_rq_dec_id', 172.09, 0,
 'uclamp_rq_inc_id x 0.932: seed 000 (B) deactivate/activate per-call rise ratio, measured on Hikey960 CPU0-1 (Cortex-A53, the HiKey''s core)'),
-- "/w patch uclamp enabled" vs "/w patch uclamp disabled" (the v2 patch: uclamp built in, the
-- sched_uclamp_used key off, no user): 49661/50615, 46611/47198, 43803/44609, 41243/41735 =
-- -1.88, -1.24, -1.81, -1.18 % at depth 0..3. Per round 2 critical-path enqueues; 145.70 ns each
-- minimises the largest miss (govsim -1.68, -1.57, -1.48, -1.39 %: misses 0.20/0.33/0.33/0.21 pp).
-- The kernel runs far less than that per call with the key off: uclamp_rq_inc/dec (v5.9
-- kernel/sched/core.c) start with `if (!static_branch_unlikely(&sched_uclamp_used)) return;`,
-- "constructed such that a NOP is generated when sched_uclamp_used is disabled": one patched
-- NOP inlined in enqueue_task/dequeue_task (~1 cycle, 0.8 ns at 1200 MHz). The seed's 1.2-1.9 %
-- (6x its 0.25 % stdev) is what a kernel with uclamp compiled in costs this board with no user:
-- not the branch. The series' own account (Qais Yousef, v6 cover letter, 2020-06-30): "the root
-- cause of the overhead is believed to be system specific or related to potential certain
-- code/data layout issues, leading to worse I/D $ performance"; on v6, the version merged for
-- v5.9, Vincent Guittot measured "-1.61% similarly to v2" (2020-07-03). govsim books it on the
-- one per-call hook it has.
('uclamp_static_branch', 145.70, 0,
 'seed 003 (HiKey): /w patch uclamp enabled vs disabled (key off, no user), -1.18 .. -1.88 % at depth 0-3: minimax x round / 2 enqueues; far more than the one NOP the v5.9 static branch runs: the compiled-in cost of uclamp on this board, booked per call'),
-- Reported, never charged (both kernels pay them, or the traced kernel made its own calls).
-- No seed measures them on the HiKey: ASSUMED, the Hikey960 Cortex-A53 figures
-- (models/hikey960.sql, at 1844 MHz) as the same cycles on the HiKey's A53 at 1200 MHz
-- (x 1844/1200), as models/juno-r0.sql does for Juno's A53.
('activate_task', 1416.04, 0,
 'assumed: Hikey960 A53 activate_task (seed 000 (B), 921.5 ns at 1844 MHz) as cycles at 1200 MHz (x 1844/1200)'),
('deactivate_task', 1704.93, 0,
 'assumed: Hikey960 A53 deactivate_task (seed 000 (B), 1109.5 ns at 1844 MHz) as cycles at 1200 MHz (x 1844/1200)'),
('cpufreq_update_util', 7.68, 0,
 'assumed: Hikey960 A53 figure (5 ns at 1844 MHz, itself assumed) as cycles at 1200 MHz (x 1844/1200)'),
('governor_eval', 30.01, 0,
 'assumed: Hikey960 A53 figure (seed 001 derived, 19.53 ns at 1844 MHz) as cycles at 1200 MHz (x 1844/1200)'),
('freq_switch', 15366.67, 0,
 'assumed: Hikey960 figure (10000 ns, itself assumed) x 1844/1200; the HiKey also asks its clock through a mailbox (stub_clock, mboxes)');
