-- hikey960.sql - HiSilicon Hi3660 (Hikey960): 4x Cortex-A53 + 4x Cortex-A73. The default platform.
--
-- Numbers: the sources below, each row naming its own.
-- DT  = arch/arm64/boot/dts/hisilicon/hi3660.dtsi, Linux v5.9 (same values in v6.14).
-- EAS = Android hikey960 tree erofs/atc19-erofs arch/arm64/boot/dts/hisilicon/hi3660-sched-energy.dtsi
--       (commit 807c8fcb), the same data as LISA libs/utils/platforms/hikey960_energy.py @ 83c6169c6.

INSERT INTO platform (name, description, cost_unit, source) VALUES
('hikey960', 'HiSilicon Hi3660 (Hikey960): 4x Cortex-A53 + 4x Cortex-A73',
 'bogo-mW (EAS v1, normalised)',
 'DT hi3660.dtsi v5.9; EAS hi3660-sched-energy.dtsi (erofs/atc19-erofs 807c8fcb)');

INSERT INTO clusters (cluster, name, transition_latency_ns, dyn_power_coeff, source) VALUES
(0, 'little', 300000, 110, 'DT v5.9: clock-latency-ns 300000 on every cluster0 OPP, no regulator; dynamic-power-coefficient 110 on cpu0'),
(1, 'big',    300000, 550, 'DT v5.9: clock-latency-ns 300000 on every cluster1 OPP, no regulator; dynamic-power-coefficient 550 on cpu4');

-- capacity = (capacity-dmips-mhz * max MHz << 10) / largest such product, truncated
-- (drivers/base/arch_topology.c topology_normalize_cpu_scale, v5.9):
-- A53 (592 * 1844 << 10) / (1024 * 2362) = 462; A73 1024.
INSERT INTO cpus (cpu, capacity, source) VALUES
(0, 462,  'derived: DT capacity-dmips-mhz 592 at 1844 MHz, normalised by topology_normalize_cpu_scale v5.9'),
(1, 462,  'derived: DT capacity-dmips-mhz 592 at 1844 MHz, normalised by topology_normalize_cpu_scale v5.9'),
(2, 462,  'derived: DT capacity-dmips-mhz 592 at 1844 MHz, normalised by topology_normalize_cpu_scale v5.9'),
(3, 462,  'derived: DT capacity-dmips-mhz 592 at 1844 MHz, normalised by topology_normalize_cpu_scale v5.9'),
(4, 1024, 'derived: DT capacity-dmips-mhz 1024 at 2362 MHz, the largest, so 1024'),
(5, 1024, 'derived: DT capacity-dmips-mhz 1024 at 2362 MHz, the largest, so 1024'),
(6, 1024, 'derived: DT capacity-dmips-mhz 1024 at 2362 MHz, the largest, so 1024'),
(7, 1024, 'derived: DT capacity-dmips-mhz 1024 at 2362 MHz, the largest, so 1024');

INSERT INTO cluster_cpus (cluster, cpu, source) VALUES
(0, 0, 'DT v5.9 cpu-map cluster0, opp-shared table: one policy for CPUs 0-3'),
(0, 1, 'DT v5.9 cpu-map cluster0, opp-shared table: one policy for CPUs 0-3'),
(0, 2, 'DT v5.9 cpu-map cluster0, opp-shared table: one policy for CPUs 0-3'),
(0, 3, 'DT v5.9 cpu-map cluster0, opp-shared table: one policy for CPUs 0-3'),
(1, 4, 'DT v5.9 cpu-map cluster1, opp-shared table: one policy for CPUs 4-7'),
(1, 5, 'DT v5.9 cpu-map cluster1, opp-shared table: one policy for CPUs 4-7'),
(1, 6, 'DT v5.9 cpu-map cluster1, opp-shared table: one policy for CPUs 4-7'),
(1, 7, 'DT v5.9 cpu-map cluster1, opp-shared table: one policy for CPUs 4-7');

-- em power is derived from dyn_power_coeff: A53 28, 70, 124, 187, 245 mW; A73 243, 500, 804,
-- 1161, 1571 mW (C * mV^2 * MHz / 1e9, v5.9 of.c).
INSERT INTO opps (cluster, freq_khz, volt_uv, em_power_mw_given, source) VALUES
(0,  533000,  700000, NULL, 'DT v5.9 cluster0 opp00'),
(0,  999000,  800000, NULL, 'DT v5.9 cluster0 opp01'),
(0, 1402000,  900000, NULL, 'DT v5.9 cluster0 opp02'),
(0, 1709000, 1000000, NULL, 'DT v5.9 cluster0 opp03'),
(0, 1844000, 1100000, NULL, 'DT v5.9 cluster0 opp04'),
(1,  903000,  700000, NULL, 'DT v5.9 cluster1 opp10'),
(1, 1421000,  800000, NULL, 'DT v5.9 cluster1 opp11'),
(1, 1805000,  900000, NULL, 'DT v5.9 cluster1 opp12'),
(1, 2112000, 1000000, NULL, 'DT v5.9 cluster1 opp13'),
(1, 2362000, 1100000, NULL, 'DT v5.9 cluster1 opp14');

-- cpuidle (v5.9 cpuidle-psci.c, dt_idle_states.c): state 0 is the driver's own "WFI" (exit
-- latency 1 us, target residency 1 us); states 1 and 2 are the DT states named by their node;
-- with no wakeup-latency-us the exit latency is entry + exit: A53 1050 / 2100 us, A73 950 / 3700 us.
INSERT INTO idle_states (cluster, idx, name, level, entry_latency_us, exit_latency_us,
			 wakeup_latency_us, min_residency_us, source) VALUES
(0, 0, 'WFI',             'cpu',     NULL, NULL, 1,    1,    'cpuidle-psci v5.9: ARM WFI state, exit latency 1 us, target residency 1 us'),
(0, 1, 'cpu-sleep-0',     'cpu',     400,  650,  NULL, 1500, 'DT v5.9 CPU_SLEEP_0'),
(0, 2, 'cluster-sleep-0', 'cluster', 500,  1600, NULL, 3500, 'DT v5.9 CLUSTER_SLEEP_0'),
(1, 0, 'WFI',             'cpu',     NULL, NULL, 1,    1,    'cpuidle-psci v5.9: ARM WFI state, exit latency 1 us, target residency 1 us'),
(1, 1, 'cpu-sleep-1',     'cpu',     400,  550,  NULL, 1500, 'DT v5.9 CPU_SLEEP_1'),
(1, 2, 'cluster-sleep-1', 'cluster', 800,  2900, NULL, 3500, 'DT v5.9 CLUSTER_SLEEP_1');

-- EAS v1 busy-cost-data (capacity, power). The capacities are the cost table's own (e.g. 250 and
-- 390 where the v5.9 derivation gives 249 and 391); LISA maps entry i to OPP i.
INSERT INTO cost_busy (cluster, level, freq_khz, capacity, power, source) VALUES
(0, 'cpu',      533000,  133,   87, 'EAS CPU_COST_A53 busy-cost-data[0]'),
(0, 'cpu',      999000,  250,  164, 'EAS CPU_COST_A53 busy-cost-data[1]'),
(0, 'cpu',     1402000,  351,  265, 'EAS CPU_COST_A53 busy-cost-data[2]'),
(0, 'cpu',     1709000,  429,  388, 'EAS CPU_COST_A53 busy-cost-data[3]'),
(0, 'cpu',     1844000,  462,  502, 'EAS CPU_COST_A53 busy-cost-data[4]'),
(0, 'cluster',  533000,  133,   12, 'EAS CLUSTER_COST_A53 busy-cost-data[0]'),
(0, 'cluster',  999000,  250,   22, 'EAS CLUSTER_COST_A53 busy-cost-data[1]'),
(0, 'cluster', 1402000,  351,   36, 'EAS CLUSTER_COST_A53 busy-cost-data[2]'),
(0, 'cluster', 1709000,  429,   67, 'EAS CLUSTER_COST_A53 busy-cost-data[3]'),
(0, 'cluster', 1844000,  462,  144, 'EAS CLUSTER_COST_A53 busy-cost-data[4]'),
(1, 'cpu',      903000,  390,  404, 'EAS CPU_COST_A72 (attached to the A73 CPUs) busy-cost-data[0]'),
(1, 'cpu',     1421000,  615,  861, 'EAS CPU_COST_A72 (attached to the A73 CPUs) busy-cost-data[1]'),
(1, 'cpu',     1805000,  782, 1398, 'EAS CPU_COST_A72 (attached to the A73 CPUs) busy-cost-data[2]'),
(1, 'cpu',     2112000,  915, 2200, 'EAS CPU_COST_A72 (attached to the A73 CPUs) busy-cost-data[3]'),
(1, 'cpu',     2362000, 1024, 2848, 'EAS CPU_COST_A72 (attached to the A73 CPUs) busy-cost-data[4]'),
(1, 'cluster',  903000,  390,  102, 'EAS CLUSTER_COST_A72 (A73 cluster) busy-cost-data[0]'),
(1, 'cluster', 1421000,  615,  124, 'EAS CLUSTER_COST_A72 (A73 cluster) busy-cost-data[1]'),
(1, 'cluster', 1805000,  782,  221, 'EAS CLUSTER_COST_A72 (A73 cluster) busy-cost-data[2]'),
(1, 'cluster', 2112000,  915,  330, 'EAS CLUSTER_COST_A72 (A73 cluster) busy-cost-data[3]'),
(1, 'cluster', 2362000, 1024,  433, 'EAS CLUSTER_COST_A72 (A73 cluster) busy-cost-data[4]');

-- EAS v1 idle-cost-data in LISA's 3-entry order (WFI, cpu-sleep, cluster-sleep): the DT's 4
-- entries start with active idle (= WFI), which LISA drops (that order is inferred).
INSERT INTO cost_idle (cluster, level, idx, power, source) VALUES
(0, 'cpu',     0,   5, 'EAS CPU_COST_A53 idle-cost-data, LISA order: WFI'),
(0, 'cpu',     1,   0, 'EAS CPU_COST_A53 idle-cost-data, LISA order: cpu-sleep'),
(0, 'cpu',     2,   0, 'EAS CPU_COST_A53 idle-cost-data, LISA order: cluster-sleep'),
(0, 'cluster', 0,  12, 'EAS CLUSTER_COST_A53 idle-cost-data, LISA order: WFI'),
(0, 'cluster', 1,  12, 'EAS CLUSTER_COST_A53 idle-cost-data, LISA order: cpu-sleep'),
(0, 'cluster', 2,   0, 'EAS CLUSTER_COST_A53 idle-cost-data, LISA order: cluster-sleep'),
(1, 'cpu',     0,  18, 'EAS CPU_COST_A72 (A73) idle-cost-data, LISA order: WFI'),
(1, 'cpu',     1,   0, 'EAS CPU_COST_A72 (A73) idle-cost-data, LISA order: cpu-sleep'),
(1, 'cpu',     2,   0, 'EAS CPU_COST_A72 (A73) idle-cost-data, LISA order: cluster-sleep'),
(1, 'cluster', 0, 102, 'EAS CLUSTER_COST_A72 (A73) idle-cost-data, LISA order: WFI'),
(1, 'cluster', 1, 102, 'EAS CLUSTER_COST_A72 (A73) idle-cost-data, LISA order: cpu-sleep'),
(1, 'cluster', 2,   0, 'EAS CLUSTER_COST_A72 (A73) idle-cost-data, LISA order: cluster-sleep');

-- ---- Kernel cost table (issue #16) --------------------------------------------------------------
-- ns per call on CPU 0 (Cortex-A53, capacity 462) at 1844 MHz, derived from the seeds (seeds
-- 000, 001, 003 of the project; docs/kernel-overhead.md has the whole derivation). Relative
-- figures are what carry over from a document's board to govsim's replay, so each cost is a
-- document's relative figure times the round govsim replays for the same workload:
--   R2 = 12676.4 ns: one round of `gen pipe --loops 100000` (CPUs 0-1) on Hikey960 at 1844 MHz,
--        performance governor (span 1.267640 s / 100000);
--   R1 = 13021.3 ns: the same on one CPU (`gen pipe --cpus 0`, 20000 loops, 0.260426 s).
-- In the two-CPU pipe the critical path of a round holds the two wakeups' activate_task (in the
-- waker's try_to_wake_up, before the wakee can run); each side's deactivate_task runs while the
-- other side already runs on the other CPU.
INSERT INTO kernel_costs (operation, ns, cpu, source) VALUES
-- seed 000 (B) case (1), mean of CPU0 (0.921 us) and CPU1 (0.922 us): ftrace function-profiler
-- times, which include the profiler's own cost (an upper bound); reported, never charged (the
-- traced and the emulated kernel both pay it)
('activate_task', 921.5, 0,
 'seed 000 (B) case (1) CONFIG_UCLAMP_TASK unset: activate_task avg 0.921 us (CPU0), 0.922 us (CPU1); function-profiler time, upper bound'),
('deactivate_task', 1109.5, 0,
 'seed 000 (B) case (1): deactivate_task avg 1.105 us (CPU0), 1.114 us (CPU1); function-profiler time, upper bound'),
-- seed 003: throughput 50653, 47188, 44568, 41925 ops/s at depth 0..3 (no uclamp): a round
-- grows by a share k per level; k = 0.0701 makes the largest miss of the three relative
-- throughputs smallest (-6.54/-12.30/-17.38 % for -6.84/-12.01/-17.23 %). k x R2 = 888.6 ns a
-- round, over the round's 2 critical-path enqueues: 444.3 ns per level (dequeue walks the same
-- sched_entities: the same cost)
('cgroup_level', 444.3, 0,
 'seed 003 (Hikey octo-A53, perf bench sched pipe -T): 7.01 % of a round per cgroup level (minimax fit of 3 depths) x R2 / 2 enqueues'),
-- seed 000 (A): uclamp key on costs +2.579 % (case 2, tip with CONFIG_UCLAMP_TASK) and
-- +1.994 % (case 4, static key on through sched_util_clamp_min) over case 1; govsim has one
-- key-on path, at the midpoint 2.286 %: x R2 = 289.82 ns a round = 2 activate_task x 2 clamp
-- ids -> 72.46 ns per id. Dequeue: x 0.932, the ratio of seed 000 (B)'s mean per-call rise of
-- deactivate_task (0.0995 us) to activate_task's (0.10675 us) over cases (2) and (4), CPU0+1
('uclamp_rq_inc_id', 72.46, 0,
 'seed 000 (A): key on +2.286 % (midpoint of cases 2 and 4) x R2 / (2 activate_task x 2 clamp ids)'),
('uclamp_rq_dec_id', 67.53, 0,
 'seed 000 (B): uclamp_rq_inc_id x 0.932 (mean per-call rise of deactivate_task over activate_task, cases 2 and 4)'),
-- seed 000 (A) case (3), key unused: -0.32 %, within the runs' noise; a static branch is one
-- patched instruction: one cycle at 1844 MHz
('uclamp_static_branch', 0.54, 0,
 'assumed: one instruction (the static branch) at 1844 MHz; seed 000 case (3) -0.32 % is noise'),
-- seed 001 (AMD 3900X, one CPU): context-switch update points cost +0.537 % with schedutil
-- (10.71758 -> 10.7751 s); govsim's one-CPU pipe makes +0.992 cpufreq_update_util calls and
-- +3.324 per-CPU governor evaluations a round with them. x R1 = 69.88 ns a round; the hook
-- call assumed 5 ns (a per-CPU pointer load and an indirect call), the rest over the
-- evaluations: (69.88 - 5 x 0.992) / 3.324 = 19.53 ns
('cpufreq_update_util', 5, 0,
 'assumed: per-CPU update_util_data load + indirect call, ~9 cycles at 1844 MHz'),
('governor_eval', 19.53, 0,
 'seed 001: schedutil +0.537 % with context-switch update points x R1, less 0.992 hook calls, over 3.324 evaluations a round'),
('freq_switch', 10000, 0,
 'assumed: CPU time of the sugov:N kthread for one SCPI mailbox frequency request; no seed measures it');
