#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""gen-workloads.py SEED COUNT OUTDIR - seeded random workload files.

Writes OUTDIR/random-SEED-I.json (Documentation/workloads.rst) for I in
0..COUNT-1: the small preset, a random policy and preemption mode, and 2-8
kernels on up to four channels with random priorities, arrivals, shapes and
programs (loops with warp- and block-index-dependent counts, barriers,
locks).  Only what the uapi can carry is used, so every file runs both in
vgpu-sim and, through vgpuctl run, in the module (F51 determinism).
"""
import json
import os
import random
import sys

PROGRAMS = [
    ["LOOP 20", "ALU", "ENDLOOP", "EXIT"],
    ["LOOP 8*(1+wid%4)", "ALU", "LOAD", "ENDLOOP", "EXIT"],
    ["LOOP 4*(1+bid%3)", "MMA", "STORE", "ENDLOOP", "EXIT"],
    ["LOOP 10", "ALU", "BAR", "MOV", "ENDLOOP", "EXIT"],
    ["LOOP 6", "LOCK 1", "ALU", "ALU", "UNLOCK 1", "CMP", "ENDLOOP", "EXIT"],
    ["MOV", "LOOP 3", "LOOP 5*(1+wid%2)", "ALU", "BRA", "ENDLOOP", "ENDLOOP",
     "EXIT"],
]


def kernel(rnd, i):
    prog = rnd.choice(PROGRAMS)
    k = {
        "name": "k%d" % i,
        "channel": rnd.randrange(4),
        "priority": rnd.randrange(4),
        "arrival": rnd.choice([0, 0, rnd.randrange(20000)]),
        "grid": rnd.randrange(1, 17),
        "threads": 32 * rnd.randrange(1, 17),
        "regs": rnd.choice([16, 24, 32, 48, 64]),
        "smem": rnd.choice([0, 0, 1024, 8192, 32768]),
        "program": prog,
    }
    if "BAR" not in prog and rnd.random() < 0.2:
        k["flags"] = ["independent"]
    return k


def main():
    seed, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    os.makedirs(out, exist_ok=True)
    for i in range(count):
        rnd = random.Random(seed * 1000 + i)
        wl = {
            "comment": "random workload %d of seed %d (scripts/gen-workloads.py)"
                       % (i, seed),
            "device": {
                "preset": "small",
                "policy": rnd.choice(["rr", "avail", "resource", "power"]),
                "preempt": rnd.choice(["drain", "warp", "switch"]),
            },
            "kernels": [kernel(rnd, j) for j in range(rnd.randrange(2, 9))],
        }
        with open(os.path.join(out, "random-%d-%d.json" % (seed, i)), "w") as f:
            json.dump(wl, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
