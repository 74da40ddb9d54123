#!/usr/bin/env python3
"""Lays out the public-program corpus (tests/programs/corpus) from local git mirrors.

The programs are never committed (tests/programs/corpus/README.md): bring each repository in
(a clone, or the workplace's fetch tool, which leaves a bare mirror per repository) and run

    scripts/corpus_layout.py --mirrors DIR

where DIR holds one folder per repository named OWNER+NAME (as the fetch tool names them), each a
git repository (bare, or with its .git under `repo/`). Every entry of corpus.json gets its files
at the same relative places as in the repository's program folder, taken at the entry's commit
with `git archive`, never changed. Where a program includes a file outside its folder
(`#include "../timer.h"`), the folder one level up is laid out too (at most two levels), as the
README says. Files already there are kept. Prints one line per entry and exits 1 if any failed.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "programs",
                      "corpus")


def git_dir(mirrors, repo):
    base = os.path.join(mirrors, repo.replace("/", "+"))
    for cand in (os.path.join(base, "repo"), base):
        if os.path.isdir(cand):
            return cand
    return None


def copy_folder(gitdir, commit, src, dst):
    """Copies the repository folder `src` at `commit` into `dst` (existing files kept)."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", gitdir, "archive", commit, src or "."],
                                 capture_output=True)
        if archive.returncode != 0:
            raise RuntimeError(archive.stderr.decode(errors="replace").strip())
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        os.makedirs(dst or ".", exist_ok=True)
        subprocess.run(["cp", "-rn", os.path.join(tmp, src or ".") + "/.", (dst or ".") + "/"],
                       check=True)


def includes_up(folder):
    """Whether a source in `folder` includes a file from a folder above it."""
    pattern = re.compile(r'#\s*include\s+"\.\./')
    for name in os.listdir(folder):
        if name.endswith((".cu", ".cuh", ".h", ".hpp", ".cpp")):
            with open(os.path.join(folder, name), errors="replace") as f:
                if pattern.search(f.read()):
                    return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirrors", required=True, help="folder of OWNER+NAME git mirrors")
    args = ap.parse_args()
    os.chdir(CORPUS)
    entries = json.load(open("corpus.json"))
    entries = entries if isinstance(entries, list) else entries["programs"]
    failed = 0
    for e in entries:
        gitdir = git_dir(args.mirrors, e["repo"])
        if gitdir is None:
            print(f"{e['name']}: no mirror of {e['repo']} in {args.mirrors}")
            failed += 1
            continue
        try:
            for path, file in zip(e["paths"], e["files"]):
                src, dst = os.path.dirname(path), os.path.dirname(file)
                copy_folder(gitdir, e["commit"], src, dst)
                for _ in range(2):  # a folder above, where the program's own files include it
                    if not includes_up(dst or "."):
                        break
                    src, dst = os.path.dirname(src), os.path.dirname(dst)
                    if not src or not dst:
                        break
                    try:
                        copy_folder(gitdir, e["commit"], src, dst)
                    except RuntimeError:  # a folder of the mirror that is not all there
                        break
            # Its -I folders: at the place the program's own folder maps to (the layout's prefix
            # for the repository's), or cuda-samples' Common.
            src, dst = os.path.dirname(e["paths"][0]), os.path.dirname(e["files"][0])
            while src and dst and os.path.basename(src) == os.path.basename(dst):
                src, dst = os.path.dirname(src), os.path.dirname(dst)
            # Paths listed beyond the files (a header at the repository's root: timer.h), at
            # the same place under the program's layout.
            for extra in e["paths"][len(e["files"]):]:
                rel = os.path.relpath(extra, src) if src else extra
                target = os.path.join(dst, rel)
                if os.path.exists(target):
                    continue
                show = subprocess.run(["git", "-C", gitdir, "show", f"{e['commit']}:{extra}"],
                                      capture_output=True)
                if show.returncode != 0:
                    raise RuntimeError(show.stderr.decode(errors="replace").strip())
                os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
                with open(target, "wb") as f:
                    f.write(show.stdout)
            for inc in e.get("include_dirs", []):
                if os.path.isdir(inc) and os.listdir(inc):
                    continue
                if inc.endswith("Common"):
                    copy_folder(gitdir, e["commit"], "Common", inc)
                elif inc.startswith(dst + "/"):
                    copy_folder(gitdir, e["commit"], os.path.join(src, inc[len(dst) + 1:]), inc)
            print(f"{e['name']}: laid out")
        except (RuntimeError, subprocess.CalledProcessError) as err:
            print(f"{e['name']}: {err}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
