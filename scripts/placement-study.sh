#!/usr/bin/env bash
# The placement study of docs/placement-study.md, from its eight scenarios (packed and spread,
# with and without the neighbour, over RDMA and over TCP): runs each (scenarios/placement/),
# prints the table of P99 time per output token by job, and plots it and every request's TPOT
# (out/placement-study/tpot.png, where gnuplot is installed).
#
# Usage: scripts/placement-study.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=out/placement-study
mkdir -p "$out"
cases=()
for transport in "" -tcp; do
  for c in packed-two-jobs packed-neighbour spread-two-jobs spread-neighbour; do
    cases+=("$c$transport")
  done
done
for c in "${cases[@]}"; do
  "$build/apps/uniference" run "scenarios/placement/$c.json" --out "$out/$c" --quiet >/dev/null
done
# One row per case and job: P99 TPOT; one file per case and job of every request's TPOT.
python3 - "$out" "${cases[@]}" <<'PY'
import json, sys
out, cases = sys.argv[1], sys.argv[2:]
print("| case | job | P99 TPOT us | mean TPOT us | P99 TTFT ms |")
print("| --- | --- | ---: | ---: | ---: |")
with open(f"{out}/p99.dat", "w") as table:
    for case in cases:
        results = json.load(open(f"{out}/{case}/results.json"))
        row = [case]
        for job in results["jobs"]:
            if "serving" not in job:
                continue
            s = job["serving"]
            print(f"| {case} | {job['name']} | {s['tpot_ns']['p99'] / 1e3:.1f} | "
                  f"{s['tpot_ns']['mean'] / 1e3:.1f} | {s['ttft_ns']['p99'] / 1e6:.3f} |")
            row.append(f"{s['tpot_ns']['p99'] / 1e3:.1f}")
            with open(f"{out}/{case}-{job['name']}.tpot", "w") as f:
                for r in sorted(job["serving"]["per_request"], key=lambda r: r["id"]):
                    if r["new_tokens"] > 1:
                        f.write(f"{(r['finish_ns'] - r['first_token_ns']) / (r['new_tokens'] - 1) / 1e3:.3f}\n")
        table.write(" ".join(row) + "\n")
PY
if command -v gnuplot >/dev/null; then
  gnuplot <<GP
set terminal pngcairo size 1200,460 font ",10"
set output "$out/tpot.png"
set multiplot layout 1,2
set title "P99 time per output token"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "us"
set yrange [0:*]
set xtics rotate by -20
plot "$out/p99.dat" using 2:xtic(1) title "job a", "" using 3 title "job b"
set title "Job a: every request's TPOT, sorted"
set style data linespoints
set xlabel "requests, fastest first"
set xtics norotate
set key top left
plot for [c in "${cases[*]}"] "< sort -n $out/".c."-a.tpot" using 0:1 title c
unset multiplot
GP
  echo "wrote $out/tpot.png"
fi
