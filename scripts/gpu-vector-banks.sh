#!/usr/bin/env bash
# Measures, with Nsight Compute on the GPU machine, what one warp-level shared load/store costs in
# wavefronts and bank conflicts at widths 4, 8 and 16 bytes (LDS/LDS.64/LDS.128, STS/...), for the
# address patterns of scripts/vector_banks.cu, and global requests/sectors for 4/8/16-byte
# loads and stores. Usage: scripts/gpu-vector-banks.sh OUT_DIR
#
# Writes under OUT_DIR: table.txt (the result), sass-check.txt (the tested instruction of each
# kernel), ncu-metrics.csv (ncu's raw CSV), source-sass.csv (ncu's per-instruction source page,
# if it worked), vector_banks.sass, run.log and raw.tgz (everything, query-metrics included).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-vector-banks.sh OUT_DIR}
mkdir -p "$out"
work=$(mktemp -d)
log="$out/run.log"
exec > >(tee -a "$log") 2>&1

echo "== device"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee "$work/gpu.txt"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "no ncu on this machine"; exit 1; }
"$ncu" --version 2>&1 | tee "$work/ncu-version.txt"
nvcc --version | tail -2

# Run 1 is the table's; runs 2..REPEATS of the same binary and QUIET runs of the -DQUIET_LD build
# (load kernels with almost no global stores) show which counts move from run to run.
# KREGEX limits which kernels the kernel-level runs profile (default: all), SRC_KREGEX which the
# SourceCounters run profiles (default: all shared kernels); NCU_TIMEOUT is each ncu run's limit.
repeats=${REPEATS:-3}
quiet=${QUIET:-2}
kregex=${KREGEX:-.}
src_kregex=${SRC_KREGEX:-^sh_}
ncu_timeout=${NCU_TIMEOUT:-100}
echo "REPEATS=$repeats QUIET=$quiet KREGEX=$kregex SRC_KREGEX=$src_kregex NCU_TIMEOUT=$ncu_timeout"

echo "== build"
t0=$SECONDS
nvcc -O3 -arch=sm_90 -lineinfo scripts/vector_banks.cu -o "$work/vector_banks" || exit 1
if [ "$quiet" != 0 ]; then
  nvcc -O3 -arch=sm_90 -lineinfo -DQUIET_LD scripts/vector_banks.cu -o "$work/vector_banks_quiet" ||
    echo "quiet build failed"
fi
echo "built in $((SECONDS - t0)) s"
"$cuobjdump" --dump-sass "$work/vector_banks" > "$out/vector_banks.sass" 2>&1 ||
  echo "cuobjdump failed"
"$work/vector_banks" || echo "plain run failed rc=$?"

echo "== metrics"
wanted=(
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  smsp__sass_inst_executed_op_global_ld.sum smsp__sass_inst_executed_op_global_st.sum
)
"$ncu" --query-metrics > "$work/query-metrics.txt" 2>&1
metrics=""
for m in "${wanted[@]}"; do
  if grep -q "^${m%.sum} " "$work/query-metrics.txt"; then
    metrics+="${metrics:+,}$m"
  else
    echo "not available: $m" | tee -a "$work/skipped-metrics.txt"
  fi
done
echo "$metrics" > "$work/metrics.txt"

echo "== ncu (kernel-level metrics): $repeats runs, $quiet of the quiet-load build"
for i in $(seq 1 "$repeats"); do
  t0=$SECONDS
  dest="$work/ncu-metrics-$i.csv"; [ "$i" = 1 ] && dest="$out/ncu-metrics.csv"
  timeout "$ncu_timeout" "$ncu" --clock-control none --metrics "$metrics" --csv -k regex:"$kregex" \
    --log-file "$dest" "$work/vector_banks" > "$work/ncu-metrics-$i.stdout" 2>&1 ||
    echo "ncu metrics run $i rc=$?"
  echo "ncu metrics run $i took $((SECONDS - t0)) s"
done
for i in $(seq 1 "$quiet"); do
  [ -x "$work/vector_banks_quiet" ] || break
  t0=$SECONDS
  timeout "$ncu_timeout" "$ncu" --clock-control none --metrics "$metrics" --csv -k regex:'^sh_ld_' \
    --log-file "$work/ncu-metrics-quiet-$i.csv" "$work/vector_banks_quiet" \
    > "$work/ncu-metrics-quiet-$i.stdout" 2>&1 || echo "ncu quiet run $i rc=$?"
  echo "ncu quiet run $i took $((SECONDS - t0)) s"
done

# Per-instruction view (each kernel has one tested instruction, so the kernel-level metrics
# above already are per-instruction figures; this is a cross-check, with ncu's "ideal" count).
echo "== ncu (SourceCounters, shared kernels)"
t0=$SECONDS
if timeout "$ncu_timeout" "$ncu" --clock-control none --section SourceCounters --import-source no \
  -k regex:"$src_kregex" -o "$work/source" -f "$work/vector_banks" > "$work/source.stdout" 2>&1; then
  "$ncu" -i "$work/source.ncu-rep" --page source --csv --print-source sass \
    > "$out/source-sass.csv" 2> "$work/source-page.err" || echo "source page rc=$?"
else
  echo "SourceCounters run rc=$? (see raw.tgz source.stdout)"
fi
echo "source-counters step took $((SECONDS - t0)) s"

echo "== table"
python3 - "$out" "$work" <<'PY'
import csv, io, os, re, sys
out, work = sys.argv[1], sys.argv[2]

# ---- SASS: the tested instruction of each kernel ----
sass = {}
fn = None
ins_re = re.compile(r'^\s*/\*[0-9a-f]+\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)')
try:
    for line in open(os.path.join(out, 'vector_banks.sass')):
        m = re.search(r'Function : (\S+)', line)
        if m:
            fn = m.group(1); sass.setdefault(fn, []); continue
        m = ins_re.match(line)
        if m and fn:
            op = m.group(2)
            if re.match(r'(LDS|STS|LDG|STG|LDL|STL|LD|ST|ATOMS|LDSM)(\.|$)', op):
                sass[fn].append(((m.group(1) or '').strip() + ' ' + op).strip())
except OSError:
    pass

def expected(k):
    sp, op, w = k.split('_')[0], k.split('_')[1], int(k.split('_')[2][1:])
    if sp == 'sh':
        base = 'LDS' if op == 'ld' else 'STS'
        return base + {4: '', 8: '.64', 16: '.128'}[w]
    base = 'LDG.E' if op == 'ld' else 'STG.E'
    return base + {4: '', 8: '.64', 16: '.128'}[w]

check_lines, seen = [], {}
for k in sorted(sass):
    exp = expected(k)
    fam = ('LDS', 'STS') if k.startswith('sh_') else ('LDG', 'STG')
    tested = [s for s in sass[k] if s.split()[-1].split('.')[0] in fam
              and not (k.startswith('gl_ld') and s.split()[-1].startswith('STG'))]
    others = [s for s in sass[k] if s not in tested]
    ok = len(tested) == 1 and tested[0].split()[-1] == exp
    seen[k] = ' / '.join(tested) or '-'
    check_lines.append('%-26s tested=%-22s expected=%-10s %s   other mem ops: %s' % (
        k, seen[k], exp, 'OK' if ok else 'MISMATCH', ', '.join(others) or '-'))
bad = [l for l in check_lines if 'MISMATCH' in l]
with open(os.path.join(out, 'sass-check.txt'), 'w') as f:
    f.write('\n'.join(check_lines) + '\n')
    f.write('mismatches: %d\n' % len(bad))
print('SASS check: %d kernels, %d mismatches' % (len(check_lines), len(bad)))
for l in bad: print('  ' + l)

# ---- ncu kernel-level metrics ----
def load(path):
    vals = {}
    try:
        text = open(path).read().splitlines()
        start = next(i for i, l in enumerate(text) if l.startswith('"ID"'))
        for row in csv.DictReader(io.StringIO('\n'.join(text[start:]))):
            k = row['Kernel Name'].split('(')[0].strip()
            v = row['Metric Value'].replace(',', '')
            try: v = float(v)
            except ValueError: v = None
            vals.setdefault(k, {})[row['Metric Name']] = v
    except (OSError, StopIteration) as e:
        print('no ncu metrics in %s: %s' % (path, e))
    return vals
vals = load(os.path.join(out, 'ncu-metrics.csv'))
import glob
extra = [load(p) for p in sorted(glob.glob(os.path.join(work, 'ncu-metrics-[0-9]*.csv')))]
quiet = [load(p) for p in sorted(glob.glob(os.path.join(work, 'ncu-metrics-quiet-*.csv')))]

def g(k, m):
    return vals.get(k, {}).get(m)
def fmt(x, nd=4):
    if x is None: return 'n/a'
    if abs(x - round(x)) < 1e-9: return str(int(round(x)))
    return ('%.' + str(nd) + 'f') % x
def div(a, b):
    return None if a is None or not b else a / b

src = {}
sp = os.path.join(out, 'source-sass.csv')
if os.path.exists(sp) and os.path.getsize(sp) > 0:
    header, kern = None, None
    for row in csv.reader(open(sp, errors='replace')):
        if not row: continue
        if row[0] == 'Kernel Name':
            kern = row[1].split('(')[0].strip(); continue
        if row[0] == 'Address':
            header = row; continue
        if header and len(row) >= 2 and re.search(r'\b(LDS|STS)(\.\d+)?\b', row[1]):
            d = dict(zip(header, row))
            src.setdefault(kern, d)

def srcfmt(k):
    d = src.get(k)
    if not d: return '-'
    return '%s/%s/%s' % (d.get('L1 Wavefronts Shared', '?'), d.get('L1 Wavefronts Shared Ideal', '?'),
                         d.get('L1 Conflicts Shared N-Way', '?'))

pats = ['stride1', 'broadcast', 'half_bcast', 'quarter_bcast', 'mod16', 'mod8', 'stride2',
        'column', 'padded', 'swizzled', 'pairswap', 'reverse', 'perm', 'half_active',
        'stride2_64B']
lines = []
gpu = open(os.path.join(work, 'gpu.txt')).read().strip().splitlines()
ver = open(os.path.join(work, 'ncu-version.txt')).read().strip().splitlines()
lines.append('GPU: ' + (gpu[-1] if gpu else '?'))
lines.append('ncu: ' + (ver[-1] if ver else '?'))
lines.append('')
lines.append('Shared memory: one block of 1024 threads (32 warps), one tested instruction per warp')
lines.append('wavef/conflicts = run 1; "runs" = wavefronts in runs 1..N of the same binary;')
lines.append('"quiet" = wavefronts of the -DQUIET_LD build (loads only); "src wf/ideal/nway" = SourceCounters')
lines.append('"other-dir" = instructions/wavefronts of the other direction (ld vs st), should be 0/0')
hdr = '%-26s %-8s %5s %6s %8s %9s %8s %-16s %-10s %-14s %7s  %s' % (
    'kernel', 'sass', 'inst', 'wavef', 'wf/inst', 'conflicts', 'cf/inst', 'runs', 'quiet',
    'src wf/ideal/nway', 'other', 'note')
lines.append(hdr); lines.append('-' * len(hdr))
for op in ('ld', 'st'):
    other = 'st' if op == 'ld' else 'ld'
    for w in (4, 8, 16):
        for p in pats:
            k = 'sh_%s_w%d_%s' % (op, w, p)
            inst = g(k, 'smsp__sass_inst_executed_op_shared_%s.sum' % op)
            wf = g(k, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum' % op)
            cf = g(k, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum' % op)
            owf = g(k, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum' % other)
            oin = g(k, 'smsp__sass_inst_executed_op_shared_%s.sum' % other)
            note = []
            if inst is not None and inst != 32: note.append('inst!=32')
            for x in (div(wf, inst), div(cf, inst)):
                if x is not None and abs(x - round(x)) > 1e-9: note.append('non-integer')
            if (owf or 0) or (oin or 0): note.append('other-direction activity')
            wm = 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum' % op
            runs = ','.join(fmt(r.get(k, {}).get(wm)) for r in [vals] + extra)
            qs = ','.join(fmt(r.get(k, {}).get(wm)) for r in quiet if k in r) or '-'
            if len(set(runs.split(','))) > 1: note.append('varies')
            lines.append('%-26s %-8s %5s %6s %8s %9s %8s %-16s %-10s %-14s %7s  %s' % (
                k, seen.get(k, '?').split()[-1] if k in seen else '?', fmt(inst), fmt(wf),
                fmt(div(wf, inst)), fmt(cf), fmt(div(cf, inst)), runs, qs, srcfmt(k),
                '%s/%s' % (fmt(oin), fmt(owf)), ','.join(sorted(set(note)))))
        lines.append('')
lines.append('Global memory: one block of 1024 threads, each warp its own region')
hdr = '%-22s %-10s %6s %6s %8s %8s %9s %10s %-14s %s' % (
    'kernel', 'sass', 'inst', 'reqs', 'sectors', 'req/inst', 'sect/inst', 'sect/req',
    'sectors runs', 'other-dir req/sect')
lines.append(hdr); lines.append('-' * len(hdr))
for op in ('ld', 'st'):
    other = 'st' if op == 'ld' else 'ld'
    for w in (4, 8, 16):
        for p in ('stride1', 'stride2'):
            k = 'gl_%s_w%d_%s' % (op, w, p)
            inst = g(k, 'smsp__sass_inst_executed_op_global_%s.sum' % op)
            if inst is None and k in vals: inst = 32.0  # one per warp, by construction
            rq = g(k, 'l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum' % op)
            se = g(k, 'l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum' % op)
            orq = g(k, 'l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum' % other)
            ose = g(k, 'l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum' % other)
            sm = 'l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum' % op
            runs = ','.join(fmt(r.get(k, {}).get(sm)) for r in [vals] + extra)
            lines.append('%-22s %-10s %6s %6s %8s %8s %9s %10s %-14s %s' % (
                k, seen.get(k, '?').split()[-1] if k in seen else '?', fmt(inst), fmt(rq),
                fmt(se), fmt(div(rq, inst)), fmt(div(se, inst)), fmt(div(se, rq)), runs,
                '%s/%s' % (fmt(orq), fmt(ose))))

# ---- load patterns at W = 8 and 16 (old and load-only ones): distinct addresses U of the whole
# warp, kernel-level and SourceCounters wavefronts per instruction (per warp). ----
# Each entry: name -> (byte offset of lane l at width W, or None when the lane does not run).
def _e(f, guard=lambda l: True):
    return lambda l, W: f(l, W) * W if guard(l) else None
LDP = [
    ('stride1', _e(lambda l, W: l)), ('broadcast', _e(lambda l, W: 0)),
    ('half_bcast', _e(lambda l, W: l // 16)), ('quarter_bcast', _e(lambda l, W: l // 8)),
    ('mod16', _e(lambda l, W: l % 16)), ('mod8', _e(lambda l, W: l % 8)),
    ('stride2', _e(lambda l, W: 2 * l)), ('column', lambda l, W: l * 128),
    ('padded', lambda l, W: l * (128 + W)),
    ('swizzled', lambda l, W: l * 128 + (l % (128 // W)) * W),
    ('pairswap', _e(lambda l, W: l ^ 1)), ('reverse', _e(lambda l, W: 31 - l)),
    ('perm', _e(lambda l, W: (l * 7) % 32)), ('half_active', _e(lambda l, W: l, lambda l: l < 16)),
    ('stride2_64B', lambda l, W: l * 64),
    ('two_far', _e(lambda l, W: 0 if l < 16 else 8)), ('four_far', _e(lambda l, W: (l // 8) * 4)),
    ('four_near16', _e(lambda l, W: l // 8)), ('mod4', _e(lambda l, W: l % 4)),
    ('mod5', _e(lambda l, W: l % 5)), ('mod6', _e(lambda l, W: l % 6)),
    ('halves4', _e(lambda l, W: l % 4 if l < 16 else 4 + l % 4)),
    ('two_conflict', _e(lambda l, W: 0 if l < 16 else 128 // W)),
    ('alt_conflict', _e(lambda l, W: 128 // W if l % 2 else 0)), ('mod3', _e(lambda l, W: l % 3)),
    ('four_conflict', _e(lambda l, W: (l // 8) * (128 // W))), ('mod2', _e(lambda l, W: l % 2)),
    ('eighths', _e(lambda l, W: l // 4)), ('mod4_far', _e(lambda l, W: (l % 4) * 4)),
    ('quarter_same', _e(lambda l, W: 0 if l % 8 < 4 else 1)),
    ('half_active_bcast', _e(lambda l, W: 0, lambda l: l < 16)),
    ('one_lane', _e(lambda l, W: 0, lambda l: l == 0)),
    ('mod16_far', _e(lambda l, W: (l % 16) * 2)),
    ('quad_pairs', _e(lambda l, W: l % 2 if l % 8 < 4 else 2 + l % 2)),
    ('quad_split3', _e(lambda l, W: 0 if l % 8 < 4 else 1 + l % 2)),
    ('mod2_far', _e(lambda l, W: (l % 2) * 4)),
    ('half_mixed', _e(lambda l, W: 0 if l < 16 else l - 16)),
    ('quarter_one_wide', _e(lambda l, W: l if l < 8 else 0)),
    ('q02_active', _e(lambda l, W: l, lambda l: (l // 8) % 2 == 0)),
    ('quarter_same_conflict', _e(lambda l, W: 0 if l % 8 < 4 else 128 // W)),
    ('quad_aabb', _e(lambda l, W: (l % 4) // 2)),
    ('quad_abba', _e(lambda l, W: 0 if l % 4 in (0, 3) else 1)),
]
def srcnum(k, col):
    d = src.get(k)
    if not d or col not in d: return None
    try: return float(d[col].replace(',', ''))
    except ValueError: return None
lines.append('')
lines.append('Shared LOADS, W = 8 and 16: U = distinct addresses of the warp; wf/inst = kernel-level')
lines.append('wavefronts / instructions; src wf/inst, src ideal/inst = SourceCounters of the LDS line / 32')
hdr = '%-30s %-8s %3s %5s %8s %11s %14s %s' % ('kernel', 'sass', 'U', 'inst', 'wf/inst',
                                             'src wf/inst', 'src ideal/inst', 'note')
lines.append(hdr); lines.append('-' * len(hdr))
for w in (8, 16):
    for name, f in LDP:
        k = 'sh_ld_w%d_%s' % (w, name)
        offs = [f(l, w) for l in range(32)]
        U = len(set(o for o in offs if o is not None))
        inst = g(k, 'smsp__sass_inst_executed_op_shared_ld.sum')
        wf = g(k, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum')
        swf, sid = srcnum(k, 'L1 Wavefronts Shared'), srcnum(k, 'L1 Wavefronts Shared Ideal')
        note = []
        if k in seen and seen[k].split()[-1] != expected(k): note.append('SASS MISMATCH')
        if inst is not None and inst != 32: note.append('inst!=32')
        lines.append('%-30s %-8s %3d %5s %8s %11s %14s %s' % (
            k, seen.get(k, '?').split()[-1] if k in seen else '?', U, fmt(inst),
            fmt(div(wf, inst)), fmt(None if swf is None else swf / 32),
            fmt(None if sid is None else sid / 32), ','.join(note)))
    lines.append('')
if src:
    lines.append('source page columns: ' + ', '.join(next(iter(src.values())).keys()))

missing = [k for k in sass if k not in vals]
if missing:
    lines.append('')
    lines.append('kernels with no ncu row: ' + ', '.join(sorted(missing)))

open(os.path.join(out, 'table.txt'), 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
PY

# At most 8 files come back from OUT: the small helpers travel inside raw.tgz.
tar czf "$out/raw.tgz" -C "$work" --exclude=vector_banks --exclude=vector_banks_quiet --exclude='*.ncu-rep' . 2>/dev/null
ls -la "$out"
echo "done"
