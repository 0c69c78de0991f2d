#!/usr/bin/env bash
# End-to-end runs of the strategies deployed on this machine's testbed (run as root), for
# `uniference compare RUNS.csv`:
#
#   run-e2e.sh [RATE ...]            default: 100mbit
#
# For each RATE and each case of $CASES (a strategy and its degrees), with the star up:
# `uniference launch` runs the testbed scenario (validation/scenarios/testbed-<RATE>.json) with
# the case's overrides on $N ranks in the namespaces, $REPEATS times. Writes into $RESULTS
# (default: ../results):
#   e2e-<RATE>.csv      scenario,set,metric,seconds: ttft, tpot and total of every case, the
#                       median of the repeats; the scenario path is relative to the CSV
#   e2e-<RATE>.log      the runs' console output
#   sched-delays-<RATE>.txt  with SCHED=1: one more deployment of every case, after its timed
#                       ones, under `perf sched record`, and how long the ranks' threads waited
#                       for a CPU after each wake-up (sched_delays.py); the main threads' mean
#                       over all cases is the hosts' wake-up latency under this workload
#   wake-latency-<RATE>.json  with SCHED=1: those main threads' delays, for
#                       /devices/wake_latency (the measured distribution in the mean's place)
#
# Environment: UNIFERENCE (default: build/apps/uniference), N (2), REPEATS (3), CASES, SET
# (overrides for every case, ';'-separated), RESULTS, OMP_NUM_THREADS (1; compare with the
# same), SCHED (1: record the scheduling delays; needs perf, from linux-perf). Needs python3 to
# read results.json.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
UNIFERENCE=${UNIFERENCE:-$ROOT/build/apps/uniference}
RESULTS=${RESULTS:-$ROOT/validation/results}
N=${N:-2}
REPEATS=${REPEATS:-3}
CASES=${CASES:-"tp:/parallel/tp=$N pp:/parallel/tp=1;/parallel/pp=$N voltage:/parallel/tp=1;/parallel/sp=$N kilovolts:/parallel/tp=1;/parallel/sp=$N"}
SET=${SET:-"/workload/prompt_tokens=64;/workload/new_tokens=8"}
MASTER=198.18.0.1
# One compute thread per rank: each rank has a core of its own only if it uses one, and
# `uniference compare` measures the simulated ranks' compute with the same setting.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}

namespaces() { local n=$1 i list=(); for (( i = 0; i < n; i++ )); do list+=("uf-tb$i"); done; (IFS=,; echo "${list[*]}"); }

# The median over runs of one figure of results.json, in seconds.
median_seconds() { # KEY DIR...
    python3 - "$@" <<'PY'
import json, statistics, sys
key, dirs = sys.argv[1], sys.argv[2:]
print("%.9g" % (statistics.median(json.load(open(d + "/results.json"))[key] for d in dirs) * 1e-9))
PY
}

# Inside `testbed.sh run`: the star is up.
inner() {
    local rate=$1 csv=$RESULTS/e2e-$1.csv scenario=../scenarios/testbed-$1.json work case recordings=()
    work=$(mktemp -d)
    echo "scenario,set,metric,seconds" > "$csv.tmp"
    for case in $CASES; do
        local strategy=${case%%:*} degree=${case#*:} sets dirs=() r args=()
        sets="/parallel/strategy=$strategy;$degree;$SET"
        IFS=';' read -ra assignments <<< "$sets"
        for a in "${assignments[@]}"; do args+=(--set "$a"); done
        for (( r = 0; r < REPEATS; r++ )); do
            echo "-- $strategy ($sets), run $r, $(date -u +%H:%M:%S), loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
            "$UNIFERENCE" launch --netns "$(namespaces "$N")" --master-addr "$MASTER" \
                "$ROOT/validation/scenarios/testbed-$rate.json" "${args[@]}" --out "$work/$strategy-$r" --quiet
            dirs+=("$work/$strategy-$r")
        done
        for metric in ttft tpot total; do
            echo "$scenario,$sets,$metric,$(median_seconds "${metric}_ns" "${dirs[@]}")" >> "$csv.tmp"
        done
        if [[ ${SCHED:-} == 1 ]]; then
            echo "-- $strategy ($sets), under perf sched record"
            perf sched record -q -o "$work/$strategy.sched" -- \
                "$UNIFERENCE" launch --netns "$(namespaces "$N")" --master-addr "$MASTER" \
                "$ROOT/validation/scenarios/testbed-$rate.json" "${args[@]}" --out "$work/$strategy-sched" --quiet
            recordings+=("$work/$strategy.sched")
        fi
    done
    mv "$csv.tmp" "$csv"
    if (( ${#recordings[@]} )); then
        (cd "$work" && python3 "$HERE/sched_delays.py" "${recordings[@]##*/}" --samples "$RESULTS/wake-latency-$rate.json") \
            > "$RESULTS/sched-delays-$rate.txt"
        cat "$RESULTS/sched-delays-$rate.txt"
    fi
    rm -rf "$work"
}

if [[ ${1:-} == --inner ]]; then inner "$2"; exit; fi

[[ -x $UNIFERENCE ]] || { echo "run-e2e.sh: no $UNIFERENCE (build first, or set UNIFERENCE)" >&2; exit 1; }
[[ ${SCHED:-} != 1 ]] || command -v perf >/dev/null || { echo "run-e2e.sh: SCHED=1 needs perf (apt-get install linux-perf)" >&2; exit 1; }
mkdir -p "$RESULTS"
RESULTS=$(cd "$RESULTS" && pwd)  # sched_delays.py runs in the work folder
rates=("$@"); (( ${#rates[@]} )) || rates=(100mbit)
for rate in "${rates[@]}"; do
    "$HERE/testbed.sh" run "$N" "$rate" -- "$0" --inner "$rate" 2>&1 | tee "$RESULTS/e2e-$rate.log"
done
