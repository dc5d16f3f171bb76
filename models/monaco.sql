-- monaco.sql - Qualcomm monaco (Pixel Watch): 4 CPUs, Wattson curves (capacity assumed).
-- Written by tools/wattson-model.py monaco from Perfetto's Wattson data (perfetto ec5d16b,
-- Apache-2.0; models/wattson/ has the CSVs, LICENSE and PROVENANCE.md).
-- Every number no source gives is marked 'assumed' in its row: a trace's own cpu_capacity,
-- where it has one, is the better number.

INSERT INTO platform (name, description, cost_unit, source) VALUES
('monaco', 'Qualcomm monaco (Pixel Watch): 4 CPUs, Wattson curves (capacity assumed)', '-', 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql');

INSERT INTO clusters (cluster, name, transition_latency_ns, dyn_power_coeff, source) VALUES
(0, 'cpu', 500000, NULL, 'policy 0 (perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql, Wattson _cpu_to_policy_map); transition latency assumed 500 us');
INSERT INTO cpus (cpu, capacity, source) VALUES
(0, 1024, 'assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max 1708800 kHz of 1708800 kHz'),
(1, 1024, 'assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max 1708800 kHz of 1708800 kHz'),
(2, 1024, 'assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max 1708800 kHz of 1708800 kHz'),
(3, 1024, 'assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max 1708800 kHz of 1708800 kHz');
INSERT INTO cluster_cpus (cluster, cpu, source) VALUES
(0, 0, 'Wattson _cpu_to_policy_map: policy 0'),
(0, 1, 'Wattson _cpu_to_policy_map: policy 0'),
(0, 2, 'Wattson _cpu_to_policy_map: policy 0'),
(0, 3, 'Wattson _cpu_to_policy_map: policy 0');
-- OPPs: the frequencies of the policy's curves; em power assumed: the Wattson active mW of one
-- CPU at the OPP (2D: at the smallest dependency frequency), rounded, made non-decreasing.
INSERT INTO opps (cluster, freq_khz, volt_uv, em_power_mw_given, source) VALUES
(0, 614400, NULL, 9, 'Wattson monaco/cpu_1d.csv; em power assumed from its active power'),
(0, 864000, NULL, 14, 'Wattson monaco/cpu_1d.csv; em power assumed from its active power'),
(0, 1363200, NULL, 25, 'Wattson monaco/cpu_1d.csv; em power assumed from its active power'),
(0, 1708800, NULL, 40, 'Wattson monaco/cpu_1d.csv; em power assumed from its active power');
INSERT INTO idle_states (cluster, idx, name, level, entry_latency_us, exit_latency_us,
			 wakeup_latency_us, min_residency_us, source) VALUES
(0, 0, 'WFI', 'cpu', NULL, NULL, 1, 1, 'cpuidle-psci: ARM WFI state (Wattson idle0)'),
(0, 1, 'cpu-sleep', 'cpu', NULL, NULL, 200, 2000, 'assumed: one deep state (Wattson idle1), latencies as gs101 c2 roughly');
INSERT INTO wattson_device (device, source) VALUES
('monaco', 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql');
INSERT INTO wattson_cpus (cpu, deep_idle_offset_ns, vote_by_freq, source) VALUES
(0, 450000, 0, 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql _device_cpu_deep_idle_offsets, _vote_by_freq'),
(1, 450000, 0, 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql _device_cpu_deep_idle_offsets, _vote_by_freq'),
(2, 450000, 0, 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql _device_cpu_deep_idle_offsets, _vote_by_freq'),
(3, 450000, 0, 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql _device_cpu_deep_idle_offsets, _vote_by_freq');

-- ---- Kernel cost table (issue #16; schema.sql kernel_costs) -----------------------------------
-- Assumed, not measured: each operation is the same capacity-invariant work as on Hikey960
-- (models/hikey960.sql's ns on its capacity-462 A53 x 462/1024, here on capacity-1024 CPU 0).
INSERT INTO kernel_costs (operation, ns, cpu, source) VALUES
('activate_task', 415.75, 0,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('deactivate_task', 500.58, 0,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('cgroup_level', 200.46, 0,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('uclamp_rq_inc_id', 32.69, 0,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('uclamp_rq_dec_id', 30.47, 0,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('uclamp_static_branch', 0.24, 0,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('cpufreq_update_util', 2.26, 0,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('governor_eval', 8.81, 0,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('freq_switch', 4511.72, 0,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)');

-- generated by tools/wattson-sql.sh monaco: do not edit (models/wattson/PROVENANCE.md)
INSERT INTO wattson_cpu_1d (device, policy, freq_khz, static, active, idle0, idle1, source) VALUES
('monaco', 0, 614400, 4.8, 9.41, 0.76, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/monaco/cpu_1d.csv line 2'),
('monaco', 0, 864000, 6.68, 13.64, 0.83, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/monaco/cpu_1d.csv line 3'),
('monaco', 0, 1363200, 12.6, 24.83, 1.1, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/monaco/cpu_1d.csv line 4'),
('monaco', 0, 1708800, 18.39, 39.69, 1.34, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/monaco/cpu_1d.csv line 5');
-- end of generated block
