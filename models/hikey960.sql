-- hikey960.sql - HiSilicon Hi3660 (Hikey960): 4x Cortex-A53 + 4x Cortex-A73. The default platform.
--
-- Numbers: /work/shared/facts/platforms.md and facts/kernel-v5.9.md §6, each row naming its source.
-- DT  = arch/arm64/boot/dts/hisilicon/hi3660.dtsi, Linux v5.9 (same values in v6.14).
-- EAS = Android hikey960 tree erofs/atc19-erofs arch/arm64/boot/dts/hisilicon/hi3660-sched-energy.dtsi
--       (commit 807c8fcb), the same data as LISA libs/utils/platforms/hikey960_energy.py @ 83c6169c6.

INSERT INTO platform (name, description, cost_unit, source) VALUES
('hikey960', 'HiSilicon Hi3660 (Hikey960): 4x Cortex-A53 + 4x Cortex-A73',
 'bogo-mW (EAS v1, normalised)',
 'facts/platforms.md; DT hi3660.dtsi v5.9; EAS hi3660-sched-energy.dtsi (erofs/atc19-erofs 807c8fcb)');

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
-- 1161, 1571 mW (facts §6.2).
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
-- entries start with active idle (= WFI), which LISA drops (facts §6.3; that order is inferred).
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
