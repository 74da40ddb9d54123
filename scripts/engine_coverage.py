#!/usr/bin/env python3
"""How many of the corpus's kernels ran on the SIMT engine (docs/ENGINE.md), and why the others
did not, from the reports `scripts/run_corpus.py --save DIR` kept:

    scripts/run_corpus.py --save /tmp/corpus && scripts/engine_coverage.py /tmp/corpus

A kernel counts once per program (by name); one whose launches ran both ways counts as fiber.
"""
import collections
import glob
import json
import os
import re
import sys


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "."
    simt, fiber = [], []
    for path in sorted(glob.glob(os.path.join(folder, "*.emu.json"))):
        program = os.path.basename(path)[: -len(".emu.json")]
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, json.JSONDecodeError):
            continue
        for k in report.get("kernels", []):
            engine = k.get("engine")
            if engine == "simt":
                simt.append((program, k["kernel"]))
            elif engine:
                fiber.append((program, k["kernel"], k.get("engine_reason", "")))
    total = len(simt) + len(fiber)
    print("%d of %d kernels ran on the SIMT engine (%.0f %%)" %
          (len(simt), total, 100.0 * len(simt) / total if total else 0))
    reasons = collections.Counter()
    for _, _, why in fiber:
        reasons[re.sub(r"line \d+", "line N", re.sub(r"call of \w+\(\)", "call of F()", why))] += 1
    for why, n in reasons.most_common():
        print("%4d  %s" % (n, why))
    if "-v" in sys.argv:
        for program, kernel, why in fiber:
            print("  %s %s: %s" % (program, kernel, why))


if __name__ == "__main__":
    main()
