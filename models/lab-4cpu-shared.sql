-- lab-4cpu-shared.sql - the lab's QEMU guest (4 vCPUs in one SW_ALL cpufreq policy): tools/lab/record's default P-states.
--
-- Not a real chip. tools/lab/ssdt gives each q35 vCPU an ACPI _PSS table so that Linux's
-- acpi-cpufreq driver registers and schedutil chooses among these frequencies; the guest's
-- writes to the P-state control port go nowhere, so the frequency is what the driver believes
-- and the CPU's speed never changes. The numbers here are the _PSS rows tools/lab/record passes
-- by default (--pstates 3000:30000,2400:21000,1800:14000,1200:8000,800:5000, --latency-us 10).
-- The powers are SYNTHETIC: the _PSS power column, invented for the lab, used as the em power.
-- Capacities are 1024 (x86 reports no asymmetry), and the guest CPU has no APERF/MPERF, so the
-- kernel is not frequency-invariant: the lab's facts file says freq_invariant = 0.

INSERT INTO platform (name, description, cost_unit, source) VALUES
('lab-4cpu-shared', 'lab QEMU guest: 4 vCPUs in one SW_ALL cpufreq policy, synthetic _PSS powers', 'mW (_PSS)',
 'tools/lab/ssdt and tools/lab/record defaults (synthetic, not a real chip)');

INSERT INTO frequency_invariance (freq_invariant, source) VALUES
(0, 'QEMU -cpu Nehalem: no aperfmperf flag, so x86 init_freq_invariance() leaves arch_scale_freq_key off');

INSERT INTO cpufreq_driver (name, dvfs_possible_from_any_cpu, source) VALUES
('acpi-cpufreq', 0, 'drivers/cpufreq/acpi-cpufreq.c acpi_cpufreq_cpu_init() never sets dvfs_possible_from_any_cpu');

-- _PSS TransitionLatency 10 us: acpi-cpufreq reports it as cpuinfo.transition_latency 10000 ns.
INSERT INTO clusters (cluster, name, transition_latency_ns, dyn_power_coeff, source) VALUES
(0, 'policy0', 10000, NULL, '_PSD SW_ALL over CPUs 0-3: one policy; _PSS latency 10 us');

INSERT INTO cpus (cpu, capacity, source) VALUES
(0, 1024, 'symmetric x86 guest: every CPU 1024'),
(1, 1024, 'symmetric x86 guest: every CPU 1024'),
(2, 1024, 'symmetric x86 guest: every CPU 1024'),
(3, 1024, 'symmetric x86 guest: every CPU 1024');

INSERT INTO cluster_cpus (cluster, cpu, source) VALUES
(0, 0, 'policy0 related_cpus'),
(0, 1, 'policy0 related_cpus'),
(0, 2, 'policy0 related_cpus'),
(0, 3, 'policy0 related_cpus');

-- No voltages in _PSS; em power = the _PSS power column (synthetic), given directly.
INSERT INTO opps (cluster, freq_khz, volt_uv, em_power_mw_given, source) VALUES
(0, 800000, NULL, 5000, '_PSS {800, 5000, ...} (synthetic power)'),
(0, 1200000, NULL, 8000, '_PSS {1200, 8000, ...} (synthetic power)'),
(0, 1800000, NULL, 14000, '_PSS {1800, 14000, ...} (synthetic power)'),
(0, 2400000, NULL, 21000, '_PSS {2400, 21000, ...} (synthetic power)'),
(0, 3000000, NULL, 30000, '_PSS {3000, 30000, ...} (synthetic power)');

-- The guest has no cpuidle driver: the idle loop's default_idle_call() (HLT) traces cpu_idle
-- state=1 (kernel/sched/idle.c), and index 0 is the polling loop. Latencies are assumptions.
INSERT INTO idle_states (cluster, idx, name, level, entry_latency_us, exit_latency_us,
			 wakeup_latency_us, min_residency_us, source) VALUES
(0, 0, 'POLL', 'cpu', NULL, NULL, 0, 0, 'cpu_idle_poll(); ASSUMED 0 us'),
(0, 1, 'HLT', 'cpu', NULL, NULL, 1, 1, 'default_idle_call() traces state 1; ASSUMED 1 us');
