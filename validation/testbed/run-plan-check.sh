#!/usr/bin/env bash
# The planner against the testbed (docs/planner.md, "On the testbed"), as root:
#
#   run-plan-check.sh [SPEC ...]     default: scenarios/plans/testbed-2.json and testbed-4.json
#
# First this host's replay table ($RESULTS/replay-tiny-testbed.csv, which the testbed-*-replay
# specs plan with). Then for each spec (a plan over validation/scenarios/testbed-100mbit.json):
# `uniference plan` (compute measured or replayed on this host: keep it otherwise idle), then
# the two best plans of its packet-level check deployed on the 100 Mbit/s star with run-e2e.sh,
# $REPEATS times each (default 5), each deployment followed by a simulation of the same case. Into $RESULTS/plan-<spec's
# stem>/ (default validation/results): plan.csv, and per plan <name>/e2e-100mbit.csv,
# e2e-100mbit-runs.csv and e2e-100mbit-simulated.csv. Prints and writes summary.txt: each plan's
# TPOT as the plan simulated it, as simulated beside the deployment (compute measured a second
# after it ran), and as measured (median and spread of the repeats), and whether the measured
# order keeps the plan's.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
UNIFERENCE=${UNIFERENCE:-$ROOT/build/apps/uniference}
# Relative to the clone, so that what the plan prints names no path of this machine.
cd "$ROOT"
RESULTS=${RESULTS:-validation/results}
export REPEATS=${REPEATS:-5}
specs=("$@")
(( ${#specs[@]} )) || specs=(scenarios/plans/testbed-2.json scenarios/plans/testbed-4.json)
# The replay table the *-replay specs plan with: this host's operator times, measured now, one
# thread as each deployed rank runs (a table from another hour would plan for another host).
OMP_NUM_THREADS=1 "$UNIFERENCE" profile --out "$RESULTS/replay-tiny-testbed.csv"

for spec in "${specs[@]}"; do
    name=$(basename "$spec" .json)
    out=$RESULTS/plan-$name
    rm -rf "$out"
    mkdir -p "$out"
    "$UNIFERENCE" plan "$spec" -j 1 --out "$out/plan" --quiet | tee "$out/plan.txt"
    cp "$out/plan/plan.csv" "$out/"
    rm -rf "$out/plan"  # each candidate's outputs: plan.csv has their figures
    # The two best plans the check simulated: name, devices, the run-e2e case.
    python3 - "$out/plan.csv" > "$out/cases.txt" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["packet_exit"] == "0"]
rows.sort(key=lambda r: float(r["packet_tpot_ns"]))
for r in rows[:2]:
    sets = ["/parallel/%s=%s" % (k, r[k]) for k in ("tp", "pp", "dp", "sp")]
    if r["stages"]:
        sets.append("/parallel/stages=[%s]" % r["stages"].replace(" ", ","))
    print(r["plan"], r["devices"], r["strategy"] + ":" + ";".join(sets))
PY
    while read -r plan devices case; do
        N=$devices CASES=$case SIMULATE=1 RESULTS=$out/$plan "$HERE/run-e2e.sh" 100mbit > "$out/$plan.log" 2>&1
    done < "$out/cases.txt"
    python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, statistics, sys
out = sys.argv[1]
planned = {r["plan"]: float(r["packet_tpot_ns"]) * 1e-9 for r in csv.DictReader(open(out + "/plan.csv"))
           if r["packet_exit"] == "0"}
plans = [line.split()[0] for line in open(out + "/cases.txt")]
def tpot(path):
    for line in open(path):
        if ",tpot," in line:
            return float(line.rsplit(",", 1)[1])
measured = {}
print("plan                  planned ms  simulated beside ms  measured ms (spread)  measured/planned  measured/beside")
for p in plans:
    runs = [float(l.rsplit(",", 1)[1]) for l in open("%s/%s/e2e-100mbit-runs.csv" % (out, p)) if ",tpot," in l]
    m = statistics.median(runs)
    measured[p] = (m, (max(runs) - min(runs)) / m)
    beside = tpot("%s/%s/e2e-100mbit-simulated.csv" % (out, p))
    print("%-20s %11.3f %20.3f %12.3f (%4.1f%%) %17.3f %16.3f" % (p, planned[p] * 1e3, beside * 1e3,
          m * 1e3, 100 * measured[p][1], m / planned[p], m / beside))
if len(plans) == 2:
    a, b = plans
    gap = abs(planned[b] - planned[a]) / planned[a]
    spread = max(measured[a][1], measured[b][1])
    kept = measured[a][0] <= measured[b][0]
    print("planned gap %.1f%%, testbed spread %.1f%%: measured order %s the plan's%s" %
          (100 * gap, 100 * spread, "keeps" if kept else "reverses",
           "" if gap > spread else " (the gap is within the testbed's spread)"))
PY
done
