-- juno-r0.sql - Arm Juno r0: 4x Cortex-A53 (LITTLE) + 2x Cortex-A57 (big), the board of the
-- public real traces in traces/juno-r0/.
--
-- Numbers: from traces/juno-r0/sched_load/plat_info.yml (LISA
-- platform description of a Linux 4.19 kernel; PI below). What PI does not give is taken from the
-- sources named in each row's `source`, or is an assumption that the row states.
-- There is no dynamic-power-coefficient in our sources: the `em` power is PI's per-OPP power
-- (opps.em_power_mw_given), and the `costs` model is PI's nrg-model (LISA EnergyModel: per-CPU
-- active power, no cluster-level power, idle power 0).

INSERT INTO platform (name, description, cost_unit, source) VALUES
('juno-r0', 'Arm Juno r0: 4x Cortex-A53 + 2x Cortex-A57 (LISA plat_info.yml)',
 'mW (LISA nrg-model)',
 'traces/juno-r0/sched_load/plat_info.yml (ARM-software/lisa tests/assets/sched_load)');

-- Transition latency: PI has none. Assumption: the Juno SCP firmware's DVFS latency, 1450 us
-- (ARM-software/SCP-firmware product/juno/scp_ramfw/config_dvfs.c, cpu_group_*_r0 .latency),
-- which the cpufreq driver reports in ns; with the v5.9 rule it gives rate_limit_us 10000.
INSERT INTO clusters (cluster, name, transition_latency_ns, dyn_power_coeff, source) VALUES
(0, 'little', 1450000, NULL, 'PI freq-domains [0,3,4,5]; no dynamic-power-coefficient in PI; transition latency ASSUMED 1450 us from SCP-firmware juno config_dvfs.c (r0), not in PI'),
(1, 'big',    1450000, NULL, 'PI freq-domains [1,2]; no dynamic-power-coefficient in PI; transition latency ASSUMED 1450 us from SCP-firmware juno config_dvfs.c (r0), not in PI');

INSERT INTO cpus (cpu, capacity, source) VALUES
(0, 446,  'PI cpu-capacities orig (Cortex-A53)'),
(1, 1024, 'PI cpu-capacities orig (Cortex-A57)'),
(2, 1024, 'PI cpu-capacities orig (Cortex-A57)'),
(3, 446,  'PI cpu-capacities orig (Cortex-A53)'),
(4, 446,  'PI cpu-capacities orig (Cortex-A53)'),
(5, 446,  'PI cpu-capacities orig (Cortex-A53)');

INSERT INTO cluster_cpus (cluster, cpu, source) VALUES
(0, 0, 'PI freq-domains [0,3,4,5]'),
(0, 3, 'PI freq-domains [0,3,4,5]'),
(0, 4, 'PI freq-domains [0,3,4,5]'),
(0, 5, 'PI freq-domains [0,3,4,5]'),
(1, 1, 'PI freq-domains [1,2]'),
(1, 2, 'PI freq-domains [1,2]');

-- PI gives no voltages (volt_uv NULL). em power: PI nrg-model active_states power (mW), given
-- here because the cluster has no coefficient to derive it from.
INSERT INTO opps (cluster, freq_khz, volt_uv, em_power_mw_given, source) VALUES
(0,  450000, NULL,  42, 'PI freqs; em power = PI nrg-model cpu0 active_states 450000 (given, no coefficient)'),
(0,  575000, NULL,  58, 'PI freqs; em power = PI nrg-model cpu0 active_states 575000 (given, no coefficient)'),
(0,  700000, NULL,  79, 'PI freqs; em power = PI nrg-model cpu0 active_states 700000 (given, no coefficient)'),
(0,  775000, NULL,  97, 'PI freqs; em power = PI nrg-model cpu0 active_states 775000 (given, no coefficient)'),
(0,  850000, NULL, 119, 'PI freqs; em power = PI nrg-model cpu0 active_states 850000 (given, no coefficient)'),
(1,  450000, NULL, 160, 'PI freqs; em power = PI nrg-model cpu1 active_states 450000 (given, no coefficient)'),
(1,  625000, NULL, 239, 'PI freqs; em power = PI nrg-model cpu1 active_states 625000 (given, no coefficient)'),
(1,  800000, NULL, 343, 'PI freqs; em power = PI nrg-model cpu1 active_states 800000 (given, no coefficient)'),
(1,  950000, NULL, 454, 'PI freqs; em power = PI nrg-model cpu1 active_states 950000 (given, no coefficient)'),
(1, 1100000, NULL, 583, 'PI freqs; em power = PI nrg-model cpu1 active_states 1100000 (given, no coefficient)');

-- PI names the idle states (WFI, cpu-sleep-0, cluster-sleep-0; cluster-sleep-0 is a cluster
-- state in its power-domain tree) but gives no latencies. ASSUMED from the Juno DT:
-- ARM-software/linux arch/arm64/boot/dts/arm/juno.dts (commit 096aa6fa): CPU_SLEEP_0 entry 300 /
-- exit 1200 / min-residency 2000 us, CLUSTER_SLEEP_0 300 / 1200 / 2500 us; WFI as the cpuidle
-- driver's own state 0 (exit latency 1 us, target residency 1 us).
INSERT INTO idle_states (cluster, idx, name, level, entry_latency_us, exit_latency_us,
			 wakeup_latency_us, min_residency_us, source) VALUES
(0, 0, 'WFI',             'cpu',     NULL, NULL, 1,    1,    'PI idle state name; latencies ASSUMED: cpuidle ARM WFI state, 1 us / 1 us'),
(0, 1, 'cpu-sleep-0',     'cpu',     300,  1200, NULL, 2000, 'PI idle state name; latencies ASSUMED from ARM-software/linux juno.dts 096aa6fa CPU_SLEEP_0'),
(0, 2, 'cluster-sleep-0', 'cluster', 300,  1200, NULL, 2500, 'PI idle state name; latencies ASSUMED from ARM-software/linux juno.dts 096aa6fa CLUSTER_SLEEP_0'),
(1, 0, 'WFI',             'cpu',     NULL, NULL, 1,    1,    'PI idle state name; latencies ASSUMED: cpuidle ARM WFI state, 1 us / 1 us'),
(1, 1, 'cpu-sleep-0',     'cpu',     300,  1200, NULL, 2000, 'PI idle state name; latencies ASSUMED from ARM-software/linux juno.dts 096aa6fa CPU_SLEEP_0'),
(1, 2, 'cluster-sleep-0', 'cluster', 300,  1200, NULL, 2500, 'PI idle state name; latencies ASSUMED from ARM-software/linux juno.dts 096aa6fa CLUSTER_SLEEP_0');

-- costs model: PI nrg-model cpu nodes, capacity rounded to the nearest integer
-- (236.12 -> 236 ...). The model has no cluster-level power: no 'cluster' rows.
INSERT INTO cost_busy (cluster, level, freq_khz, capacity, power, source) VALUES
(0, 'cpu',  450000,  236,  42, 'PI nrg-model cpu0 active_states 450000: 236.12, 42'),
(0, 'cpu',  575000,  302,  58, 'PI nrg-model cpu0 active_states 575000: 301.71, 58'),
(0, 'cpu',  700000,  367,  79, 'PI nrg-model cpu0 active_states 700000: 367.29, 79'),
(0, 'cpu',  775000,  407,  97, 'PI nrg-model cpu0 active_states 775000: 406.65, 97'),
(0, 'cpu',  850000,  446, 119, 'PI nrg-model cpu0 active_states 850000: 446.0, 119'),
(1, 'cpu',  450000,  419, 160, 'PI nrg-model cpu1 active_states 450000: 418.91, 160'),
(1, 'cpu',  625000,  582, 239, 'PI nrg-model cpu1 active_states 625000: 581.82, 239'),
(1, 'cpu',  800000,  745, 343, 'PI nrg-model cpu1 active_states 800000: 744.73, 343'),
(1, 'cpu',  950000,  884, 454, 'PI nrg-model cpu1 active_states 950000: 884.36, 454'),
(1, 'cpu', 1100000, 1024, 583, 'PI nrg-model cpu1 active_states 1100000: 1024.0, 583');

INSERT INTO cost_idle (cluster, level, idx, power, source) VALUES
(0, 'cpu', 0, 0, 'PI nrg-model cpu0 idle_states WFI: 0'),
(0, 'cpu', 1, 0, 'PI nrg-model cpu0 idle_states cpu-sleep-0: 0'),
(0, 'cpu', 2, 0, 'PI nrg-model cpu0 idle_states cluster-sleep-0: 0'),
(1, 'cpu', 0, 0, 'PI nrg-model cpu1 idle_states WFI: 0'),
(1, 'cpu', 1, 0, 'PI nrg-model cpu1 idle_states cpu-sleep-0: 0'),
(1, 'cpu', 2, 0, 'PI nrg-model cpu1 idle_states cluster-sleep-0: 0');

-- ---- Kernel cost table (issue #16; schema.sql kernel_costs) -----------------------------------
-- Assumed, not measured: the same Cortex-A53 code at Juno's 850 MHz takes the Hikey960 A53's
-- cycles (models/hikey960.sql's ns x 1844/850). No seed measures Juno.
INSERT INTO kernel_costs (operation, ns, cpu, source) VALUES
('activate_task', 1999.11, 0,
 'assumed: Hikey960''s Cortex-A53 figure (models/hikey960.sql) in cycles, on Juno''s A53 at 850 MHz (x 1844/850)'),
('deactivate_task', 2406.96, 0,
 'assumed: Hikey960''s Cortex-A53 figure (models/hikey960.sql) in cycles, on Juno''s A53 at 850 MHz (x 1844/850)'),
('cgroup_level', 963.87, 0,
 'assumed: Hikey960''s Cortex-A53 figure (models/hikey960.sql) in cycles, on Juno''s A53 at 850 MHz (x 1844/850)'),
('uclamp_rq_inc_id', 157.20, 0,
 'assumed: Hikey960''s Cortex-A53 figure (models/hikey960.sql) in cycles, on Juno''s A53 at 850 MHz (x 1844/850)'),
('uclamp_rq_dec_id', 146.50, 0,
 'assumed: Hikey960''s Cortex-A53 figure (models/hikey960.sql) in cycles, on Juno''s A53 at 850 MHz (x 1844/850)'),
('uclamp_static_branch', 1.17, 0,
 'assumed: Hikey960''s Cortex-A53 figure (models/hikey960.sql) in cycles, on Juno''s A53 at 850 MHz (x 1844/850)'),
('cpufreq_update_util', 10.85, 0,
 'assumed: Hikey960''s Cortex-A53 figure (models/hikey960.sql) in cycles, on Juno''s A53 at 850 MHz (x 1844/850)'),
('governor_eval', 42.37, 0,
 'assumed: Hikey960''s Cortex-A53 figure (models/hikey960.sql) in cycles, on Juno''s A53 at 850 MHz (x 1844/850)'),
('freq_switch', 21694.12, 0,
 'assumed: Hikey960''s Cortex-A53 figure (models/hikey960.sql) in cycles, on Juno''s A53 at 850 MHz (x 1844/850)');
