#!/usr/bin/env python3
"""Site by site, do the emulator and a GPU give one program the same figures?

    scripts/compare_backends.py DIR [--out FILE]

DIR holds `run --json` reports as scripts/run_corpus.py --save writes them: NAME.emu.json and
NAME.cuda.json. For each program run on both backends, each launch's sites are matched by (file,
line, column, space, op, size) and their requests, sectors (global) or wavefronts (shared) and
bank conflicts compared (texture reads are left out: the GPU backend does not record them); so
are the barrier passes per barrier line, the warp meetings per line
and kind, and the hazards each backend reports. Prints one line per program (agree, or what
differs) and a summary; exits 1 when a program's figures differ.
"""
import argparse
import collections
import glob
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def site_key(s):
    return (s.get("file"), s["line"], s["column"], s["space"], s["op"], s["size"])


def keyed_sites(launch):
    """Sites by key; two sites of one key (one line reading two buffers) by their order."""
    out, seen = {}, collections.Counter()
    for s in sorted(launch.get("sites", []), key=lambda s: s.get("id", 0)):
        if s["space"] == "texture":
            continue  # recorded on the emulator only (a CUDA array's texels are the driver's)
        k = site_key(s)
        out[k + (seen[k],)] = site_figures(s)
        seen[k] += 1
    return out


def site_figures(s):
    return {k: s.get(k) for k in ("requests", "sectors", "wavefronts", "bank_conflict_max")}


def barrier_passes(launch):
    out = collections.Counter()
    for b in launch.get("barriers", []):
        out[(b.get("file"), b["line"])] += b.get("instances", 0)
    return out


def warp_meetings(launch):
    out = collections.Counter()
    for w in launch.get("warp_ops", []):
        out[(w.get("file"), w["line"], w.get("kind"))] += w.get("count", 0)
    return out


def compare(name, emu, gpu):
    """Returns (sites compared, sites agreeing, [differences])."""
    diffs = []
    compared = agreeing = 0
    le, lg = emu.get("launches", []), gpu.get("launches", [])
    if len(le) != len(lg):
        diffs.append("launches: emu %d, gpu %d" % (len(le), len(lg)))
    for k, (a, b) in enumerate(zip(le, lg)):
        where = "launch %d %s" % (k, a.get("kernel"))
        if a.get("kernel") != b.get("kernel"):
            diffs.append("%s: the GPU launched %s" % (where, b.get("kernel")))
            continue
        sa, sb = keyed_sites(a), keyed_sites(b)
        for key in sorted(set(sa) | set(sb), key=str):
            compared += 1
            fa, fb = sa.get(key), sb.get(key)
            if fa == fb:
                agreeing += 1
                continue
            diffs.append("%s line %s:%s %s %s: emu %s, gpu %s" % (
                where, key[1], key[2], key[3], key[4], fa, fb))
        ba, bb = barrier_passes(a), barrier_passes(b)
        if ba != bb:
            diffs.append("%s barrier passes: emu %s, gpu %s" % (where, dict(ba), dict(bb)))
        wa, wb = warp_meetings(a), warp_meetings(b)
        if wa != wb:
            diffs.append("%s warp meetings: emu %s, gpu %s" % (where, dict(wa), dict(wb)))
        ha = len(a.get("hazards", {}).get("groups", []))
        hb = len(b.get("hazards", {}).get("groups", []))
        if ha or hb:
            diffs.append("%s hazard groups: emu %d, gpu %d" % (where, ha, hb))
    return compared, agreeing, diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--out")
    args = ap.parse_args()
    lines = []
    programs = agreeing_programs = sites = sites_agreeing = 0
    for path in sorted(glob.glob(os.path.join(args.dir, "*.emu.json"))):
        name = os.path.basename(path)[:-len(".emu.json")]
        emu, gpu = load(path), load(path.replace(".emu.json", ".cuda.json"))
        if emu is None or gpu is None:
            lines.append("skip  %-38s a report is missing or unreadable" % name)
            continue
        if not emu.get("ok") or not gpu.get("ok"):
            lines.append("skip  %-38s did not run on both (emu: %s; gpu: %s)" % (
                name, emu.get("failure", "ok")[:80], gpu.get("failure", "ok")[:80]))
            continue
        programs += 1
        n, ok, diffs = compare(name, emu, gpu)
        sites += n
        sites_agreeing += ok
        if not diffs:
            agreeing_programs += 1
            lines.append("agree %-38s %d launches, %d sites" % (
                name, len(emu.get("launches", [])), n))
        else:
            lines.append("DIFF  %-38s %d of %d sites agree" % (name, ok, n))
            lines += ["        " + d for d in diffs[:12]]
            if len(diffs) > 12:
                lines.append("        ... and %d more" % (len(diffs) - 12))
    lines.append("")
    lines.append("%d of %d programs agree site by site; %d of %d sites" % (
        agreeing_programs, programs, sites_agreeing, sites))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 0 if agreeing_programs == programs else 1


if __name__ == "__main__":
    sys.exit(main())
