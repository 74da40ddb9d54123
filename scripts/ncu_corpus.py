#!/usr/bin/env python3
"""The corpus's cuda-samples programs against Nsight Compute (docs/programs-ncu.md, second part).

    scripts/ncu_corpus.py NCU_DIR [--cli build/release/app/warpscope-cli]

NCU_DIR holds scripts/gpu-ncu-corpus.sh's `NAME.ncu.csv` files (per launch: global load and store
requests and sectors, as the hardware counted them for the program built by nvcc). Each program is
run here on Warpscope's emulator, unmodified, with its entry's -I, -D and arguments, and its launches
are matched in launch order (ncu profiled the first 40). Prints a markdown table of the first launch
of each kernel: global sectors (loads + stores) on the emulator and on the hardware, and whether
they are within 2%.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "tests", "programs", "corpus")


def ncu_launches(path):
    """[(kernel name, {metric: value})] in launch order."""
    rows = [l for l in open(path) if not l.startswith("==")]
    launches = {}
    for r in csv.DictReader(rows):
        i = int(r["ID"])
        name = r["Kernel Name"].split("(")[0]
        launches.setdefault(i, (name, {}))[1][r["Metric Name"]] = float(
            r["Metric Value"].replace(",", "") or 0)
    return [launches[i] for i in sorted(launches)]


def emulator_launches(cli, entry):
    cmd = [cli, "run", "--json", "--timeout", "120", "--file"]
    cmd += [os.path.join(CORPUS, f) for f in entry["files"]]
    for d in entry.get("include_dirs", []):
        cmd += ["-I", os.path.join(CORPUS, d)]
    for d in entry.get("defines", []):
        cmd += ["-D", d]
    for a in entry.get("args", []):
        cmd += ["--arg=" + a]
    p = subprocess.run(cmd, capture_output=True, text=True,
                       cwd=os.path.join(CORPUS, os.path.dirname(entry["files"][0])))
    j = json.loads(p.stdout)
    out = []
    for l in j.get("launches", []):
        req = sect = 0
        for s in l["sites"]:
            if s["space"] == "global" and s["op"] in ("load", "store"):
                req += s["requests"]
                sect += s["sectors"]
        out.append((l["kernel"], req, sect))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ncu_dir")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "release", "app", "warpscope-cli"))
    args = ap.parse_args()
    corpus = {e["name"]: e for e in json.load(open(os.path.join(CORPUS, "corpus.json")))}
    print("| program | launch | kernel | global sectors: emulator | H200 (ncu) | within 2% |")
    print("|---|---:|---|---:|---:|:---:|")
    within = total = 0
    for f in sorted(os.listdir(args.ncu_dir)):
        if not f.endswith(".ncu.csv"):
            continue
        name = f[: -len(".ncu.csv")]
        hw = ncu_launches(os.path.join(args.ncu_dir, f))
        emu = emulator_launches(args.cli, corpus[name])
        seen = set()
        for i, ((hname, m), (ename, _req, esect)) in enumerate(zip(hw, emu)):
            if hname in seen:
                continue  # the first launch of each kernel
            seen.add(hname)
            hsect = (m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 0) +
                     m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 0))
            ok = abs(esect - hsect) <= 0.02 * max(hsect, 1)
            within += ok
            total += 1
            print("| %s | %d | %s | %d | %d | %s |" % (name, i + 1, ename, esect, int(hsect),
                                                      "yes" if ok else "no"))
    print("\n%d of %d launches within 2%%." % (within, total))


if __name__ == "__main__":
    sys.exit(main())
