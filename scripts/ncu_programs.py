#!/usr/bin/env python3
"""The example programs: the emulator's figures (warpscope-cli run --file, here) against Nsight
Compute's counters for the same unmodified programs compiled by nvcc on a GPU
(scripts/gpu-ncu-programs.sh). Prints a Markdown table per kernel.

  scripts/ncu_programs.py NCU_DIR [WARPSCOPE_CLI [PROGRAMS_DIR]]

PROGRAMS_DIR: the same programs recorded by Warpscope on the GPU (NAME.cuda.json, written by
scripts/gpu-programs.sh): a column of their own.
"""
import csv
import json
import os
import subprocess
import sys

CASES = [  # name, file, -D, args: as scripts/gpu-ncu-programs.sh runs them
    ("transpose", "transpose.cu", ["TILE_DIM=32", "N=256"], []),
    ("vecadd", "vecadd.cu", [], ["4"]),
    ("matmul", "matmul.cu", [], []),
    ("picture", "picture.cu", [], []),
    ("shuffle_reduce", "shuffle_reduce.cu", [], []),
]

# (label, emulator (space, op, figure), ncu metric)
ROWS = [
    ("global load requests", ("global", "load", "requests"),
     "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("global load sectors", ("global", "load", "sectors"),
     "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("global store requests", ("global", "store", "requests"),
     "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    ("global store sectors", ("global", "store", "sectors"),
     "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("global atomic requests", ("global", "atomic", "requests"),
     ["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"]),
    ("shared load requests", ("shared", "load", "requests"),
     "smsp__sass_inst_executed_op_shared_ld.sum"),
    ("shared load wavefronts", ("shared", "load", "wavefronts"),
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("shared store requests", ("shared", "store", "requests"),
     "smsp__sass_inst_executed_op_shared_st.sum"),
    ("shared store wavefronts", ("shared", "store", "wavefronts"),
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
]


def ncu_kernels(path):
    """kernel name (before the parameter list) -> {metric: value}, in launch order."""
    out = []
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    by_id = {}
    for row in csv.DictReader(lines):
        k = by_id.setdefault(row["ID"], {"kernel": row["Kernel Name"].split("(")[0], "m": {}})
        k["m"][row["Metric Name"]] = float(row["Metric Value"].replace(",", "") or 0)
    for i in sorted(by_id, key=int):
        out.append(by_id[i])
    return out


def emu_sum(launch, space, op, figure):
    return sum(s[figure] or 0 for s in launch["sites"] if s["space"] == space and s["op"] == op)


def main():
    ncu_dir = sys.argv[1]
    cli = sys.argv[2] if len(sys.argv) > 2 else "build/release/app/warpscope-cli"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    programs = sys.argv[3] if len(sys.argv) > 3 else None
    if programs:
        print("| program | kernel | figure | emulator | H100 (Warpscope) | H100 (ncu) |")
        print("|---|---|---|---:|---:|---:|")
    else:
        print("| program | kernel | figure | emulator | H100 (ncu) |")
        print("|---|---|---|---:|---:|")
    for name, file, defines, args in CASES:
        cmd = [cli, "run", "--file", os.path.join(root, "examples", file), "--json"]
        for d in defines:
            cmd += ["-D", d]
        for a in args:
            cmd += ["--arg", a]
        emu = json.loads(subprocess.run(cmd, capture_output=True, text=True).stdout)
        kernels = ncu_kernels(os.path.join(ncu_dir, name + ".ncu.csv"))
        gpu = None
        if programs:
            with open(os.path.join(programs, name + ".cuda.json")) as f:
                gpu = json.load(f)["launches"]
        for i, (launch, k) in enumerate(zip(emu["launches"], kernels)):
            for label, (space, op, figure), metric in ROWS:
                e = emu_sum(launch, space, op, figure)
                metrics = metric if isinstance(metric, list) else [metric]
                n = sum(k["m"].get(m, 0) for m in metrics)
                if e == 0 and n == 0:
                    continue
                mark = "" if e == n else " **≠**"
                if gpu is None:
                    print(f"| {file} | {launch['kernel']} | {label} | {int(e)} | {int(n)}{mark} |")
                    continue
                g = emu_sum(gpu[i], space, op, figure)
                gmark = "" if g == e else " **≠**"
                print(f"| {file} | {launch['kernel']} | {label} | {int(e)} | {int(g)}{gmark} "
                      f"| {int(n)}{mark} |")


if __name__ == "__main__":
    main()
