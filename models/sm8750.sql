-- sm8750.sql - Qualcomm SM8750: 6+2 CPUs, Wattson curves (capacities assumed).
-- Written by tools/wattson-model.py sm8750 from Perfetto's Wattson data (perfetto ec5d16b,
-- Apache-2.0; models/wattson/ has the CSVs, LICENSE and PROVENANCE.md).
-- Every number no source gives is marked 'assumed' in its row: a trace's own cpu_capacity,
-- where it has one, is the better number.

INSERT INTO platform (name, description, cost_unit, source) VALUES
('sm8750', 'Qualcomm SM8750: 6+2 CPUs, Wattson curves (capacities assumed)', '-', 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql');

INSERT INTO clusters (cluster, name, transition_latency_ns, dyn_power_coeff, source) VALUES
(0, 'little', 500000, NULL, 'policy 0 (perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql, Wattson _cpu_to_policy_map); transition latency assumed 500 us'),
(1, 'big', 500000, NULL, 'policy 6 (perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql, Wattson _cpu_to_policy_map); transition latency assumed 500 us');
INSERT INTO cpus (cpu, capacity, source) VALUES
(0, 826, 'assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max 3532800 kHz of 4377600 kHz'),
(1, 826, 'assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max 3532800 kHz of 4377600 kHz'),
(2, 826, 'assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max 3532800 kHz of 4377600 kHz'),
(3, 826, 'assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max 3532800 kHz of 4377600 kHz'),
(4, 826, 'assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max 3532800 kHz of 4377600 kHz'),
(5, 826, 'assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max 3532800 kHz of 4377600 kHz'),
(6, 1024, 'assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max 4377600 kHz of 4377600 kHz'),
(7, 1024, 'assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max 4377600 kHz of 4377600 kHz');
INSERT INTO cluster_cpus (cluster, cpu, source) VALUES
(0, 0, 'Wattson _cpu_to_policy_map: policy 0'),
(0, 1, 'Wattson _cpu_to_policy_map: policy 0'),
(0, 2, 'Wattson _cpu_to_policy_map: policy 0'),
(0, 3, 'Wattson _cpu_to_policy_map: policy 0'),
(0, 4, 'Wattson _cpu_to_policy_map: policy 0'),
(0, 5, 'Wattson _cpu_to_policy_map: policy 0'),
(1, 6, 'Wattson _cpu_to_policy_map: policy 6'),
(1, 7, 'Wattson _cpu_to_policy_map: policy 6');
-- OPPs: the frequencies of the policy's curves; em power assumed: the Wattson active mW of one
-- CPU at the OPP (2D: at the smallest dependency frequency), rounded, made non-decreasing.
INSERT INTO opps (cluster, freq_khz, volt_uv, em_power_mw_given, source) VALUES
(0, 384000, NULL, 63, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 556800, NULL, 84, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 748800, NULL, 109, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 960000, NULL, 130, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 1152000, NULL, 162, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 1363200, NULL, 195, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 1555200, NULL, 228, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 1785600, NULL, 270, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 1996800, NULL, 313, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 2227200, NULL, 371, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 2400000, NULL, 409, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 2745600, NULL, 500, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 2784000, NULL, 500, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 2918400, NULL, 597, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 3072000, NULL, 686, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 3321600, NULL, 840, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(0, 3532800, NULL, 1032, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 1017600, NULL, 221, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 1209600, NULL, 252, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 1401600, NULL, 295, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 1689600, NULL, 361, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 1958400, NULL, 424, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 2246400, NULL, 495, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 2438400, NULL, 578, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 2649600, NULL, 660, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 2841600, NULL, 744, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 3072000, NULL, 842, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 3283200, NULL, 949, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 3513600, NULL, 1107, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 3840000, NULL, 1493, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 4089600, NULL, 1769, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 4243200, NULL, 1991, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power'),
(1, 4377600, NULL, 2117, 'Wattson SM8750/cpu_1d.csv; em power assumed from its active power');
INSERT INTO idle_states (cluster, idx, name, level, entry_latency_us, exit_latency_us,
			 wakeup_latency_us, min_residency_us, source) VALUES
(0, 0, 'WFI', 'cpu', NULL, NULL, 1, 1, 'cpuidle-psci: ARM WFI state (Wattson idle0)'),
(0, 1, 'cpu-sleep', 'cpu', NULL, NULL, 200, 2000, 'assumed: one deep state (Wattson idle1), latencies as gs101 c2 roughly'),
(1, 0, 'WFI', 'cpu', NULL, NULL, 1, 1, 'cpuidle-psci: ARM WFI state (Wattson idle0)'),
(1, 1, 'cpu-sleep', 'cpu', NULL, NULL, 200, 2000, 'assumed: one deep state (Wattson idle1), latencies as gs101 c2 roughly');
INSERT INTO wattson_device (device, source) VALUES
('SM8750', 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql');
INSERT INTO wattson_cpus (cpu, deep_idle_offset_ns, vote_by_freq, source) VALUES
(0, 0, 0, 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql _device_cpu_deep_idle_offsets, _vote_by_freq'),
(1, 0, 0, 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql _device_cpu_deep_idle_offsets, _vote_by_freq'),
(2, 0, 0, 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql _device_cpu_deep_idle_offsets, _vote_by_freq'),
(3, 0, 0, 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql _device_cpu_deep_idle_offsets, _vote_by_freq'),
(4, 0, 0, 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql _device_cpu_deep_idle_offsets, _vote_by_freq'),
(5, 0, 0, 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql _device_cpu_deep_idle_offsets, _vote_by_freq'),
(6, 0, 0, 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql _device_cpu_deep_idle_offsets, _vote_by_freq'),
(7, 0, 0, 'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql _device_cpu_deep_idle_offsets, _vote_by_freq');

-- ---- Kernel cost table (issue #16; schema.sql kernel_costs) -----------------------------------
-- Assumed, not measured: each operation is the same capacity-invariant work as on Hikey960
-- (models/hikey960.sql's ns on its capacity-462 A53 x 462/1024, here on capacity-1024 CPU 6).
INSERT INTO kernel_costs (operation, ns, cpu, source) VALUES
('activate_task', 415.75, 6,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('deactivate_task', 500.58, 6,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('cgroup_level', 200.46, 6,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('uclamp_rq_inc_id', 32.69, 6,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('uclamp_rq_dec_id', 30.47, 6,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('uclamp_static_branch', 0.24, 6,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('cpufreq_update_util', 2.26, 6,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('governor_eval', 8.81, 6,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)'),
('freq_switch', 4511.72, 6,
 'assumed: Hikey960''s figure (models/hikey960.sql) as the same capacity-invariant work (x 462/1024 on a capacity-1024 CPU)');

-- generated by tools/wattson-sql.sh SM8750: do not edit (models/wattson/PROVENANCE.md)
INSERT INTO wattson_cpu_1d (device, policy, freq_khz, static, active, idle0, idle1, source) VALUES
('SM8750', 0, 384000, 19.92, 62.91, 6.93, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 2'),
('SM8750', 0, 556800, 20.79, 84.08, 7.27, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 3'),
('SM8750', 0, 748800, 22.86, 108.69, 7.41, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 4'),
('SM8750', 0, 960000, 27.53, 129.76, 5.51, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 5'),
('SM8750', 0, 1152000, 27.3, 162.22, 8.46, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 6'),
('SM8750', 0, 1363200, 31.01, 194.58, 9.13, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 7'),
('SM8750', 0, 1555200, 33.91, 227.81, 9.77, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 8'),
('SM8750', 0, 1785600, 41.06, 269.59, 11.2, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 9'),
('SM8750', 0, 1996800, 43.99, 312.84, 14.14, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 10'),
('SM8750', 0, 2227200, 50.97, 370.89, 13.79, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 11'),
('SM8750', 0, 2400000, 59.39, 408.97, 14.49, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 12'),
('SM8750', 0, 2745600, 75.11, 499.97, 18.29, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 13'),
('SM8750', 0, 2784000, 75.11, 499.97, 18.29, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 14'),
('SM8750', 0, 2918400, 107.65, 597.46, 22.03, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 15'),
('SM8750', 0, 3072000, 175.25, 686.03, 27.4, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 16'),
('SM8750', 0, 3321600, 198.56, 839.91, 31.63, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 17'),
('SM8750', 0, 3532800, 224.19, 1032.5, 37.31, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 18'),
('SM8750', 6, 1017600, 24.55, 220.93, 20.35, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 19'),
('SM8750', 6, 1209600, 27.61, 252.23, 20.73, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 20'),
('SM8750', 6, 1401600, 30.35, 294.92, 21.86, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 21'),
('SM8750', 6, 1689600, 37.37, 360.76, 25.44, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 22'),
('SM8750', 6, 1958400, 41.37, 424.19, 27.18, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 23'),
('SM8750', 6, 2246400, 48.57, 494.78, 30.12, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 24'),
('SM8750', 6, 2438400, 50.53, 577.92, 36.63, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 25'),
('SM8750', 6, 2649600, 65.05, 659.9, 38.49, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 26'),
('SM8750', 6, 2841600, 69.73, 744.23, 43.04, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 27'),
('SM8750', 6, 3072000, 78.39, 841.8, 47.28, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 28'),
('SM8750', 6, 3283200, 104.08, 949.18, 54, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 29'),
('SM8750', 6, 3513600, 157.77, 1107, 67.32, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 30'),
('SM8750', 6, 3840000, 348.86, 1493.3, 97.44, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 31'),
('SM8750', 6, 4089600, 373.95, 1768.79, 113.45, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 32'),
('SM8750', 6, 4243200, 534.13, 1990.9, 128.35, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 33'),
('SM8750', 6, 4377600, 558.21, 2116.72, 128.82, 0, 'perfetto ec5d16b src/trace_processor/plugins/wattson/data/SM8750/cpu_1d.csv line 34');
-- end of generated block
