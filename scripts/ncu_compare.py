#!/usr/bin/env python3
"""Compares Warpscope's per-site figures with Nsight Compute's counters, from the folder that
scripts/gpu-ncu.sh fills (NAME.ws.json: `warpscope-cli run --json` on the GPU; NAME.ncu.csv: ncu
on the uninstrumented build; NAME.source.csv: ncu's per-line source page). Prints Markdown.

Usage: scripts/ncu_compare.py NCU_DIR > docs/ncu-agreement.md
"""
import csv
import glob
import json
import os
import sys

M = {
    "ld_req": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "ld_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "st_req": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "st_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "atom_req": "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
    "atom_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "red_req": "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "red_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    "sh_ld_wf": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "sh_st_wf": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "sh_ld_conf": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "sh_st_conf": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "sh_ld_inst": "smsp__sass_inst_executed_op_shared_ld.sum",
    "sh_st_inst": "smsp__sass_inst_executed_op_shared_st.sum",
    "tex_req": "l1tex__t_requests_pipe_tex_mem_texture.sum",
    "tex_sec": "l1tex__t_sectors_pipe_tex_mem_texture.sum",
}


def ncu_metrics(path):
    """The first profiled launch's metrics (every launch of a lesson's run is the same)."""
    lines = [l for l in open(path) if l.startswith('"')]
    rows = list(csv.reader(lines))
    if not rows:
        return None, {}
    head = rows[0]
    i_id, i_name = head.index("ID"), head.index("Kernel Name")
    i_metric, i_value = head.index("Metric Name"), head.index("Metric Value")
    first = rows[1][i_id] if len(rows) > 1 else None
    values, name = {}, None
    for r in rows[1:]:
        if r[i_id] != first:
            continue
        name = r[i_name]
        try:
            values[r[i_metric]] = float(r[i_value].replace(",", ""))
        except ValueError:
            pass
    return name, values


def sass_instructions(path):
    """The first profiled launch's memory instructions: (space, op, executed, sectors, wavefronts)."""
    if not os.path.exists(path):
        return []
    rows = list(csv.reader(open(path)))
    out, head, kernels = [], None, 0
    for r in rows:
        if r and r[0] == "Kernel Name":
            kernels += 1
            if kernels > 1:
                break
            continue
        if r and r[0] == "Address":
            head = r
            continue
        if head is None or len(r) < len(head):
            continue
        def num(h):
            if h not in head or r[head.index(h)] in ("", "-"):
                return 0.0
            return float(r[head.index(h)].replace(",", ""))
        space, op = r[head.index("Address Space")], r[head.index("Access Operation")]
        if space in ("", "-") or num("Instructions Executed") == 0:
            continue
        out.append((space.lower(), op.lower(), num("Instructions Executed"),
                    num("L2 Theoretical Sectors Global"), num("L1 Wavefronts Shared"),
                    r[head.index("Source")].strip()))
    return out


def fmt(x):
    if x is None:
        return "–"
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,.2f}"


def cell(ws, hw):
    if ws is None and hw is None:
        return "–"
    mark = "" if ws == hw else " **≠**"
    return f"{fmt(ws)} / {fmt(hw)}{mark}"


def main(folder):
    names = sorted(os.path.basename(p)[: -len(".ws.json")] for p in glob.glob(folder + "/*.ws.json"))
    summary = []
    per_site = []
    for name in names:
        try:
            ws = json.load(open(f"{folder}/{name}.ws.json"))
        except (OSError, ValueError):
            summary.append(f"| {name} | Warpscope's run failed | | | | |")
            continue
        kernel, hw = ncu_metrics(f"{folder}/{name}.ncu.csv")
        g = lambda k: hw.get(M[k])
        sites = ws["sites"]

        def total(space, op, field):
            v = [s.get(field) or 0 for s in sites if s["space"] == space and s["op"] == op]
            return sum(v) if v else None

        def count(space, op):
            return sum(1 for s in sites if s["space"] == space and s["op"] == op)

        lesson = f"{ws['lesson']} / {ws['variant']}"
        rows = []
        if count("global", "load"):
            rows.append(("global load", cell(total("global", "load", "requests"), g("ld_req")),
                         cell(total("global", "load", "sectors"), g("ld_sec")), count("global", "load")))
        if count("global", "store"):
            rows.append(("global store", cell(total("global", "store", "requests"), g("st_req")),
                         cell(total("global", "store", "sectors"), g("st_sec")), count("global", "store")))
        if count("global", "atomic"):
            req = (g("atom_req") or 0) + (g("red_req") or 0)
            sec = (g("atom_sec") or 0) + (g("red_sec") or 0)
            rows.append(("global atomic", cell(total("global", "atomic", "requests"), req),
                         cell(total("global", "atomic", "sectors"), sec), count("global", "atomic")))
        for op, k in (("load", "ld"), ("store", "st")):
            if count("shared", op):
                req = total("shared", op, "requests")
                wf = total("shared", op, "wavefronts")
                # Conflicts as ncu counts them: wavefronts beyond those the width needs.
                ideal = total("shared", op, "ideal_wavefronts") or req
                rows.append((f"shared {op}", cell(req, g(f"sh_{k}_inst")),
                             cell(wf, g(f"sh_{k}_wf")) + " ; conflicts " +
                             cell(wf - ideal, g(f"sh_{k}_conf")), count("shared", op)))
        if count("texture", "load"):
            rows.append(("texture", cell(total("texture", "load", "requests"), g("tex_req")),
                         cell(total("texture", "load", "sectors"), g("tex_sec")), count("texture", "load")))
        if count("constant", "load"):
            rows.append(("constant", f"{fmt(total('constant', 'load', 'requests'))} / n/a",
                         "n/a (constant cache, not the LSU pipe)", count("constant", "load")))
        for kind, req, sec, n in rows:
            summary.append(f"| {lesson} | {kind} | {n} | {req} | {sec} |")
        # Per instruction, from ncu's SASS source page, where it was collected: when a kind has
        # as many instructions as Warpscope has sites, the pairs (requests, sectors) must match.
        instrs = sass_instructions(f"{folder}/{name}.sass.csv")
        for space, op in (("global", "load"), ("global", "store"), ("shared", "load"), ("shared", "store")):
            ss = [s for s in sites if s["space"] == space and s["op"] == op]
            ii = [i for i in instrs if i[0] == space and i[1] == op]
            if not ss or not instrs:
                continue
            field = "sectors" if space == "global" else "wavefronts"
            ws_pairs = sorted((s["requests"], s[field]) for s in ss)
            hw_pairs = sorted((int(i[2]), int(i[3] if space == "global" else i[4])) for i in ii)
            lines = ", ".join(str(s["line"]) for s in ss)
            sass = "<br>".join(f"`{i[5]}` {fmt(i[2])} × → {fmt(i[3] if space == 'global' else i[4])}" for i in ii)
            verdict = ("same pairs" if ws_pairs == hw_pairs else
                       "differ" if len(ws_pairs) == len(hw_pairs) else
                       f"{len(ii)} instructions for {len(ss)} sites")
            per_site.append(f"| {lesson} | {space} {op} | {lines} | "
                            f"{'; '.join(f'{fmt(r)} → {fmt(v)}' for r, v in ws_pairs)} | {sass} | {verdict} |")
    print("| lesson / variant | kind | sites | requests: Warpscope / ncu | sectors (shared: wavefronts) / ncu |")
    print("|---|---|---|---|---|")
    print("\n".join(summary))
    if per_site:
        print("\n\nPer site against per SASS instruction (ncu's source page, SourceCounters section):\n")
        print("| lesson / variant | kind | site lines | Warpscope: requests → sectors or wavefronts, per site | ncu: instruction, executed → sectors or wavefronts | |")
        print("|---|---|---|---|---|---|")
        print("\n".join(per_site))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
