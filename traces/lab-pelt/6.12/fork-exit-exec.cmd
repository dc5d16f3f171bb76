tools/lab/record 6.12 fork-exit --cpus 2 --policy per-cpu --pstates 3000:30000,2400:21000,1800:14000,1200:8000,800:5000 --latency-us 10 --probes --pelt --name fork-exit-exec -o DIR
