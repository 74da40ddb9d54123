#!/usr/bin/env python3
"""The registers, local memory and shared memory ptxas gives every lesson kernel, as a table.

The emulator runs the lessons without a GPU compiler, so what nvcc would give each kernel is
taken once where nvcc is found and kept in kernels/resources/ (read by the emulator backend;
trace/kernel_resources.h parses it). On a GPU, cudaFuncGetAttributes gives the same figures at
run time.

  resource_table.py --nvcc nvcc --out kernels/resources/sm_90.txt -- -I... lessons_cuda_plain.cu
  resource_table.py --nvcc nvcc --check kernels/resources/sm_90.txt -- -I... lessons_cuda_plain.cu

  resource_table.py --nvcc nvcc --merge kernels/resources/sm_90.txt --out TABLE -- ...

--check exits 1 naming every kernel of the table whose figures differ from the compiler's (a
kernel the table lacks is not an error: the build adds it), and 77 (a skip) when there is no nvcc.
--merge is the build's step: the table as kept, plus the compiler's rows for every kernel it
lacks (a new lesson's), so a lesson needs no entry of its own; without a working nvcc, the table
as kept. Rows already kept are never replaced: the figures do not change with the machine's nvcc.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(sm_\d+a?)'")
FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"Used (\d+) registers(?:, used (\d+) barriers)?(?:, (\d+) bytes smem)?")


def kernel_key(demangled):
    """'void ns::(anonymous namespace)::f<16, 2>(int*)' -> 'f<16,2>' (KernelKey in C++)."""
    name = demangled.replace("(anonymous namespace)::", "")
    if name.startswith("void "):
        name = name[len("void "):]
    depth, end = 0, len(name)
    for i, c in enumerate(name):
        depth += c == "<"
        depth -= c == ">"
        if c == "(" and depth == 0:
            end = i
            break
    name = name[:end]
    depth, start = 0, 0
    for i in range(len(name) - 1):
        depth += name[i] == "<"
        depth -= name[i] == ">"
        if depth == 0 and name[i:i + 2] == "::":
            start = i + 2
    return name[start:].replace(" ", "").replace("&", "")


def demangle(names):
    if not names:
        return []
    out = subprocess.run(["c++filt"], input="\n".join(names) + "\n", capture_output=True,
                         text=True, check=True).stdout.splitlines()
    if len(out) != len(names):
        sys.exit("resource_table.py: c++filt gave %d names for %d" % (len(out), len(names)))
    return out


def compiler_table(nvcc, arch, args):
    version = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"release (\d+\.\d+)", version)
    run = subprocess.run([nvcc, "-std=c++20", "-arch=" + arch, "-DWS_PLAIN_BUILD=1",
                          "--resource-usage", "-cubin", "-o", "/dev/null"] + args,
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("resource_table.py: nvcc failed:\n" + run.stdout + run.stderr)
    mangled, rows, current = [], [], None
    for line in (run.stdout + run.stderr).splitlines():
        e = ENTRY.search(line)
        if e:
            current = [e.group(1), 0, 0, 0]
            continue
        f = FRAME.search(line)
        if f and current:
            current[1:4] = [int(f.group(1)), int(f.group(2)), int(f.group(3))]
            continue
        u = USED.search(line)
        if u and current:
            mangled.append(current[0])
            rows.append((int(u.group(1)), current[1], current[2], current[3],
                         int(u.group(3) or 0), int(u.group(2) or 0)))
            current = None
    table = {}
    for name, row in zip(demangle(mangled), rows):
        key = kernel_key(name)
        if key in table:  # two kernels the views would call by one name: the table cannot tell
            sys.exit("resource_table.py: two kernels are named %s (%s)" % (key, name))
        table[key] = row
    header = "nvcc %s, -arch=%s" % (m.group(1) if m else "?", arch)
    return header, table


def format_table(header, table):
    lines = [
        "# Registers, local memory (stack frame) and shared memory of every lesson kernel, as",
        "# ptxas reports them for the uninstrumented build (nvcc --resource-usage). Made by",
        "# scripts/resource_table.py; the test ResourceTable.MatchesTheCompiler checks it where",
        "# nvcc is found. Bytes; registers per thread, stack bytes per thread.",
        "# compiler: " + header,
        "# kernel registers stack spill_stores spill_loads shared barriers",
    ]
    for name in sorted(table):
        lines.append(name + " " + " ".join(str(v) for v in table[name]))
    return "\n".join(lines) + "\n"


def read_table(path):
    table = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                table[line[0]] = tuple(int(v) for v in line[1:])
    return table


def merge(nvcc, arch, args, kept_path, out):
    text = open(kept_path).read()
    kept = read_table(kept_path)
    added = {}
    if nvcc is None:
        print("resource_table.py: no nvcc: the register table is %s as kept" % kept_path)
    else:
        try:
            _, table = compiler_table(nvcc, arch, args)
            added = {k: v for k, v in table.items() if k not in kept}
        except (SystemExit, OSError, subprocess.SubprocessError) as e:
            print("resource_table.py: nvcc could not compile the lessons (%s): the table as kept"
                  % e)
    if added:
        text += "# Added by the build (%s), not yet in %s:\n" % (os.path.basename(nvcc),
                                                                  kept_path)
        for name in sorted(added):
            text += name + " " + " ".join(str(v) for v in added[name]) + "\n"
        print("resource_table.py: %d kernels the table lacks, from the compiler: %s" %
              (len(added), " ".join(sorted(added))))
    tmp = out + ".new"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, out)
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--nvcc", default="nvcc")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--out")
    p.add_argument("--check")
    p.add_argument("args", nargs="*")
    p.add_argument("--merge")
    a = p.parse_args()
    nvcc = shutil.which(a.nvcc)
    if a.merge:
        return merge(nvcc, a.arch, a.args, a.merge, a.out)
    if nvcc is None:
        print("SKIPPED: no nvcc ('%s') here to compare the table with" % a.nvcc)
        return 77
    if a.check:
        # Register counts change between compiler releases: compare only with the table's own.
        want = re.search(r"# compiler: nvcc (\S+),", open(a.check).read())
        have = re.search(r"release (\d+\.\d+)", subprocess.run(
            [nvcc, "--version"], capture_output=True, text=True).stdout)
        if want and have and want.group(1) != have.group(1):
            print("SKIPPED: the table is nvcc %s's, this is nvcc %s" % (want.group(1),
                                                                         have.group(1)))
            return 77
    header, table = compiler_table(nvcc, a.arch, a.args)
    if a.out:
        with open(a.out, "w") as f:
            f.write(format_table(header, table))
        print("%s: %d kernels (%s)" % (a.out, len(table), header))
        return 0
    kept = read_table(a.check)
    wrong = []
    for name in sorted(kept):
        if kept.get(name) != table.get(name):
            wrong.append("  %s: table %s, compiler %s" % (name, kept.get(name), table.get(name)))
    if wrong:
        print("%s differs from %s (%d kernels); run scripts/resource_table.py --out:\n%s" %
              (a.check, header, len(wrong), "\n".join(wrong)))
        return 1
    print("%s matches %s: %d kernels" % (a.check, header, len(table)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
