tools/lab/record 6.12 periodic4 --cpus 4 --policy shared --pstates 3000:30000,2400:21000,1800:14000,1200:8000,800:5000 --latency-us 10 --probes --pelt --name periodic4-shared -o DIR
