-- minimal.sql - the smallest valid user model: one cluster of two CPUs, two OPPs, WFI only.
-- Made-up numbers for tests (tests/golden/platforms.sh); not a real board.
INSERT INTO platform (name, description, cost_unit, source) VALUES
('minimal', 'test model: 2 CPUs, 2 OPPs', 'mW', 'made up for tests');
INSERT INTO clusters (cluster, name, transition_latency_ns, dyn_power_coeff, source) VALUES
(0, 'only', 100000, 100, 'made up');
INSERT INTO cpus (cpu, capacity, source) VALUES (0, 1024, 'made up'), (1, 1024, 'made up');
INSERT INTO cluster_cpus (cluster, cpu, source) VALUES (0, 0, 'made up'), (0, 1, 'made up');
-- em: 100 * 800^2 * 1000 / 1e9 = 64 mW; 100 * 1000^2 * 2000 / 1e9 = 200 mW
INSERT INTO opps (cluster, freq_khz, volt_uv, em_power_mw_given, source) VALUES
(0, 1000000, 800000, NULL, 'made up'),
(0, 2000000, 1000000, NULL, 'made up');
INSERT INTO idle_states (cluster, idx, name, level, entry_latency_us, exit_latency_us,
			 wakeup_latency_us, min_residency_us, source) VALUES
(0, 0, 'WFI', 'cpu', NULL, NULL, 1, 1, 'made up');
