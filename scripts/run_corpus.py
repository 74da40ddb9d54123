#!/usr/bin/env python3
"""Runs the public-program corpus (tests/programs/corpus/corpus.json) through warpscope-cli, as a
new user would: each program unmodified, with only its own arguments, -I and -D.

    scripts/run_corpus.py [--cli build/release/app/warpscope-cli] [--backend emu|cuda]
                          [--only NAME ...] [--jobs 2] [--json OUT] [--save DIR]

Prints one line per program (ran, its own check, launches, hazards, time) and a summary; exits 1
when a program did not run as written. The corpus test (tests/programs/corpus_test.cpp) asserts the
same per program; this script is for a whole-corpus look and for the GPU machine.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "tests", "programs", "corpus")


def run_one(cli, entry, backend, timeout, save=None, engine=None):
    cmd = [cli, "run", "--backend", backend, "--json"]
    if engine:
        cmd += ["--engine", engine]
    cmd += ["--file"]
    cmd += [os.path.join(CORPUS, f) for f in entry["files"]]
    for d in entry.get("include_dirs", []):
        cmd += ["-I", os.path.join(CORPUS, d)]
    for d in entry.get("defines", []):
        cmd += ["-D", d]
    for a in entry.get("args", []):
        cmd += ["--arg=" + a]
    if "timeout_s" in entry:  # a program near the CLI's default 30 s limit
        cmd += ["--timeout", str(entry["timeout_s"])]
    start = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           cwd=os.path.join(CORPUS, os.path.dirname(entry["files"][0])))
    except subprocess.TimeoutExpired:
        return {"name": entry["name"], "ok": False, "why": "warpscope-cli did not return",
                "seconds": timeout}
    seconds = time.time() - start
    if save:  # each program's whole report, for scripts/compare_backends.py
        with open(os.path.join(save, "%s.%s.json" % (entry["name"], backend)), "w") as f:
            f.write(p.stdout)
    try:
        j = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"name": entry["name"], "ok": False, "seconds": seconds,
                "why": (p.stderr.strip().splitlines() or ["no output"])[-1][:300]}
    check = entry.get("checks_output")
    stdout = j.get("stdout", "")
    hazards = sum(len(l.get("hazards", {}).get("groups", [])) for l in j.get("launches", []))
    launches = len(j.get("launches", []))
    expected = "expect_failure" in entry and backend in entry.get("expect_failure_backends",
                                                                 [backend])
    if expected:  # a real bug, or a feature refused by name (on the backends named)
        found = entry["expect_failure"] in j.get("failure", "")
        return {"name": entry["name"], "ok": found, "seconds": seconds, "launches": launches,
                "hazards": hazards,
                "why": "" if found else "expected %r, got %r" % (entry["expect_failure"],
                                                                 j.get("failure", "")[:200])}
    ran = j.get("ok", False) and j.get("exit_code") == 0
    absent = entry.get("fails_if_output_has")  # a check that prints only what is wrong
    passed = (ran and (check is None or check in stdout) and
              (absent is None or absent not in stdout) and
              launches >= entry.get("min_launches", 1) and hazards == 0)
    why = ""
    if not j.get("ok", False):
        why = j.get("failure", "")[:300]
    elif j.get("exit_code") != 0:
        why = "exited with status %s: %s" % (j.get("exit_code"),
                                             (stdout + j.get("stderr", "")).strip()[-200:])
    elif check is not None and check not in stdout:
        why = "its own check (%r) is not in its output: %s" % (check, stdout.strip()[-200:])
    elif absent is not None and absent in stdout:
        why = "its own check printed %r: %s" % (absent, stdout.strip()[-200:])
    elif launches < entry.get("min_launches", 1):
        why = "no launch recorded"
    elif hazards:
        why = "%d hazard groups reported in a race-free program" % hazards
    return {"name": entry["name"], "ok": passed, "why": why, "seconds": seconds,
            "launches": len(j.get("launches", [])), "hazards": hazards}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "release", "app", "warpscope-cli"))
    ap.add_argument("--backend", default="emu")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--json")
    ap.add_argument("--save", help="keep each program's `run --json` report in this folder")
    ap.add_argument("--engine", help="the emulator's engine: simt (the default) or fiber")
    args = ap.parse_args()
    if args.save:
        os.makedirs(args.save, exist_ok=True)
    with open(os.path.join(CORPUS, "corpus.json")) as f:
        corpus = json.load(f)
    if args.only:
        corpus = [e for e in corpus if e["name"] in args.only]
    missing = [e["name"] for e in corpus if not os.path.exists(os.path.join(CORPUS, e["files"][0]))]
    if missing:  # not fetched into this checkout (the corpus README): said, not run
        print("not in this checkout, skipped: " + ", ".join(missing))
        corpus = [e for e in corpus if e["name"] not in missing]
    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_one, args.cli, e, args.backend, args.timeout, args.save,
                               args.engine) for e in corpus]
        for fut in futures:
            r = fut.result()
            results.append(r)
            mark = "ok  " if r["ok"] else "FAIL"
            print("%s %-38s %6.1fs launches %-4s hazards %-3s %s" % (
                mark, r["name"], r["seconds"], r.get("launches", "-"), r.get("hazards", "-"),
                r.get("why", "")), flush=True)
    n_ok = sum(r["ok"] for r in results)
    print("\n%d of %d ran as written, passing their own checks" % (n_ok, len(results)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if n_ok == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
