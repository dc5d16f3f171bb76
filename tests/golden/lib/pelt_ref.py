#!/usr/bin/env python3
# pelt_ref.py - a second, independent PELT for golden tests: one sched_avg signal of running
# time, updated at given times, as the kernel computes it. Usage: pelt_ref.py NS:RUNNING ...
# (each argument one update, e.g. 1003500000:1), prints util_avg after the last. A first
# argument init=NS:UTIL starts from util_avg UTIL last updated at NS instead of zero.
# RUNNING may be a count: a root cfs_rq's load_avg with that many nice-0 tasks queued over the
# interval (load = scale_load_down(load.weight), 1024 each, is util's 1 << 10 per task).
# The arithmetic follows kernel/sched/pelt.c (Debian 5.10 to 7.2): runnable_avg_yN_inv as the
# kernel's generator (Documentation/scheduler/sched-pelt.c) computes it, decay_load(),
# __accumulate_pelt_segments(), accumulate_sum(), ___update_load_sum(), ___update_load_avg(),
# written from the formulas, not from govsim's src/sched/pelt.c. Importable: Avg, decay_load.
import sys
LOAD_AVG_MAX = 47742
Y = 0.5 ** (1 / 32)
YN_INV = [int(((1 << 32) - 1) * Y ** i) for i in range(32)]

def decay_load(val, n):
    if n > 32 * 63:
        return 0
    if n >= 32:
        val >>= n // 32
        n %= 32
    return (val * YN_INV[n]) >> 32

class Avg:
    def __init__(self):
        self.lut = 0; self.util_sum = 0; self.contrib = 0; self.util_avg = 0

    def update(self, now, running):
        delta = now - self.lut
        if delta < 0:
            self.lut = now; return
        delta >>= 10
        if not delta:
            return
        self.lut += delta << 10
        contrib = delta  # p == 0: delta < 1024
        delta += self.contrib
        periods = delta // 1024
        if periods:
            self.util_sum = decay_load(self.util_sum, periods)
            delta %= 1024
            if running:
                c1 = decay_load(1024 - self.contrib, periods)
                c2 = LOAD_AVG_MAX - decay_load(LOAD_AVG_MAX, periods) - 1024
                contrib = c1 + c2 + delta
        self.contrib = delta
        if running:
            self.util_sum += running * (contrib << 10)
        if periods:
            self.util_avg = self.util_sum // (LOAD_AVG_MAX - 1024 + self.contrib)

def main(args):
    a = Avg()
    if args and args[0].startswith('init='):
        # a signal that last updated at NS with util_avg UTIL, its sum UTIL * divider at that
        # instant's period_contrib ((NS >> 10) mod 1024: periods counted from the clock's zero)
        t, u = args.pop(0)[5:].split(':')
        a.lut = int(t)
        a.contrib = (a.lut >> 10) % 1024
        a.util_avg = int(u)
        a.util_sum = a.util_avg * (LOAD_AVG_MAX - 1024 + a.contrib)
    for arg in args:
        t, r = arg.split(':')
        a.update(int(t), int(r))
    print(a.util_avg)


if __name__ == '__main__':
    main(sys.argv[1:])
