#!/usr/bin/env python3
"""Recorded against plain kernel times for bench/gpu_program_bench.sh, from two Nsight Compute CSV
files (--metrics gpu__time_duration.sum --csv): the first process's kernels in RECORDED (the CLI's
recorded child: its launches are its passes, the hazard scan's and the recording's, so their
median is neither's: their least and most are printed beside it) and every kernel in PLAIN (the
program as written, built by nvcc). Times in ns (ncu --print-units base). Prints one line a kernel
both timed: medians over its launches, and the ratio.
Usage: program_bench_ratios.py LABEL RECORDED.csv PLAIN.csv"""
import csv
import statistics
import sys


def kernel_times(path, first_process_only):
    try:
        lines = [line for line in open(path) if line.startswith('"')]
    except OSError:
        return None
    rows = list(csv.reader(lines))
    if not rows:
        return None
    h = rows[0]
    pid, name, value = h.index("Process ID"), h.index("Kernel Name"), h.index("Metric Value")
    first = None
    times = {}
    for r in rows[1:]:
        first = r[pid] if first is None else first
        if first_process_only and r[pid] != first:
            continue
        kernel = r[name].split("(")[0].split(" ")[-1]
        times.setdefault(kernel, []).append(float(r[value].replace(",", "")))
    return times


def main():
    label, recorded_path, plain_path = sys.argv[1:4]
    recorded = kernel_times(recorded_path, True)
    plain = kernel_times(plain_path, False)
    if not recorded:
        print(f"{label}: no recorded kernels timed ({recorded_path})")
        return
    if not plain:
        print(f"{label}: no plain kernels timed ({plain_path})")
        return
    for kernel in sorted(plain):
        a, b = recorded.get(kernel), plain[kernel]
        if not a:
            print(f"{label}: {kernel}: not in the recorded run")
            continue
        ra, rb = statistics.median(a), statistics.median(b)
        print(f"{label}: {kernel}: recorded {ra / 1e3:.1f} us (its passes {min(a) / 1e3:.1f} to "
              f"{max(a) / 1e3:.1f}), plain {rb / 1e3:.1f} us: {ra / rb:.2f}x "
              f"({len(a)} / {len(b)} launches)")


if __name__ == "__main__":
    main()
