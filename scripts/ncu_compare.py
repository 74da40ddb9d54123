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


def source_lines(path, cuh):
    """Per CUDA line of the lesson's file: sectors, ideal sectors, shared wavefronts (ideal)."""
    if not os.path.exists(path):
        return {}
    rows = list(csv.reader(open(path)))
    out, head, inside, seen = {}, None, False, False
    for r in rows:
        if r and r[0] == "File Path":
            if seen and inside:
                break  # the first profiled launch only (later ones repeat it)
            inside = r[1].endswith("/" + cuh)
            seen = seen or inside
            head = None
            continue
        if not inside or not r or r[0] == "Function Name":
            continue
        if r[0] == "Line No":
            head = r
            continue
        if head is None or len(r) < len(head) or not r[0].isdigit():
            continue
        def get(h):
            if h not in head or r[head.index(h)] in ("", "-"):
                return 0.0
            return float(r[head.index(h)].replace(",", ""))
        line = int(r[0])
        o = out.setdefault(line, {"sectors": 0, "ideal": 0, "wavefronts": 0, "wf_ideal": 0,
                                  "inst": 0})
        o["sectors"] += get("L2 Theoretical Sectors Global")
        o["ideal"] += get("L2 Theoretical Sectors Global Ideal")
        o["wavefronts"] += get("L1 Wavefronts Shared")
        o["wf_ideal"] += get("L1 Wavefronts Shared Ideal")
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
            v = [s[field] for s in sites if s["space"] == space and s["op"] == op]
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
                rows.append((f"shared {op}", cell(req, g(f"sh_{k}_inst")),
                             cell(wf, g(f"sh_{k}_wf")) + " ; conflicts " +
                             cell(wf - req, g(f"sh_{k}_conf")), count("shared", op)))
        if count("texture", "load"):
            rows.append(("texture", cell(total("texture", "load", "requests"), g("tex_req")),
                         cell(total("texture", "load", "sectors"), g("tex_sec")), count("texture", "load")))
        if count("constant", "load"):
            rows.append(("constant", f"{fmt(total('constant', 'load', 'requests'))} / n/a",
                         "n/a (constant cache, not the LSU pipe)", count("constant", "load")))
        for kind, req, sec, n in rows:
            summary.append(f"| {lesson} | {kind} | {n} | {req} | {sec} |")
        # Per line, from ncu's source page, where it was collected.
        lines = source_lines(f"{folder}/{name}.source.csv", ws.get("source_file", "") or "")
        if not lines:
            cuh = {"matmul": "matmul.cuh", "vecadd": "vecadd.cuh", "transpose": "transpose.cuh",
                   "texture-2d": "texture_2d.cuh"}.get(ws["lesson"])
            if cuh:
                lines = source_lines(f"{folder}/{name}.source.csv", cuh)
        if lines:
            by_line = {}
            for s in sites:
                by_line.setdefault(s["line"], []).append(s)
            for line in sorted(by_line):
                ss = by_line[line]
                wsec = sum(s["sectors"] or 0 for s in ss if s["space"] == "global")
                wwf = sum(s["wavefronts"] or 0 for s in ss if s["space"] == "shared")
                h = lines.get(line, {})
                code = ss[0]["code"].replace("|", "\\|")
                per_site.append(f"| {lesson} | {line} | `{code}` | {cell(wsec or None, h.get('sectors'))}"
                                f" | {cell(wwf or None, h.get('wavefronts'))} |")
    print("| lesson / variant | kind | sites | requests: Warpscope / ncu | sectors (shared: wavefronts) / ncu |")
    print("|---|---|---|---|---|")
    print("\n".join(summary))
    if per_site:
        print("\n\nPer source line (ncu's source page, SourceCounters section):\n")
        print("| lesson / variant | line | code | global sectors: Warpscope / ncu | shared wavefronts: Warpscope / ncu |")
        print("|---|---|---|---|---|")
        print("\n".join(per_site))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
