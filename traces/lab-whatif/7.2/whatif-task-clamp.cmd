tools/lab/record 7.2 whatif-task --cpus 2 --policy per-cpu --pstates 3000:30000,2400:21000,1800:14000,1200:8000,800:5000 --latency-us 10 --probes --accel icount --name whatif-task-clamp -o DIR
