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
#   e2e-<RATE>-runs.csv  scenario,set,metric,run,seconds: every repeat, for the spread
#   e2e-<RATE>.log      the runs' console output
#   sched-delays-<RATE>.txt  with SCHED=1: one deployment of every case, before the timed
#                       ones, under `perf sched record`, and how long the ranks' threads waited
#                       for a CPU after each wake-up (sched_delays.py)
#   wake-latency-<RATE>.json  with SCHED=1: the main threads' delays, for /devices/wake_latency
#   handling-latency-<RATE>.json  with SCHED=1: the other threads' (Gloo's event loop and
#                       workers, woken for each message), for /devices/handling_latency
#   e2e-<RATE>-simulated.csv  with SIMULATE=1: each deployment followed at once by a simulation
#                       of the same case (`uniference run`, with $SIM_SET after the case's
#                       overrides), the medians in the same format, for
#                       `uniference compare e2e-<RATE>.csv --against e2e-<RATE>-simulated.csv`:
#                       the simulator measures its compute on the host as it was a second
#                       after the deployment ran, not minutes or hours later
#   e2e-<RATE>-simulated2.csv  with SIMULATE=1 and SIM_SET2: a second simulation beside each
#                       deployment, with $SIM_SET2 in place of $SIM_SET (another model of the
#                       same run: /devices/host_cores=4 gives four ranks a core each)
#
# Environment: UNIFERENCE (default: build/apps/uniference), N (2), REPEATS (3), CASES, SET
# (overrides for every case, ';'-separated), RESULTS, OMP_NUM_THREADS (1; compare with the
# same), SCHED (1: record the scheduling delays; needs perf, from linux-perf), SIMULATE (1:
# simulate beside each deployment), SIM_SET (';'-separated; with SCHED=1 by default the two
# latency files just written). Needs python3 to read results.json.
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

# One figure of results.json, in seconds, a line per folder: "RUN,SECONDS".
each_seconds() { # KEY DIR...
    python3 - "$@" <<'PY'
import json, sys
key, dirs = sys.argv[1], sys.argv[2:]
for i, d in enumerate(dirs):
    print("%d,%.9g" % (i, json.load(open(d + "/results.json"))[key] * 1e-9))
PY
}

# The median over runs of one figure of results.json, in seconds.
median_seconds() { # KEY DIR...
    python3 - "$@" <<'PY'
import json, statistics, sys
key, dirs = sys.argv[1], sys.argv[2:]
print("%.9g" % (statistics.median(json.load(open(d + "/results.json"))[key] for d in dirs) * 1e-9))
PY
}

# Into array NAME: a --set argument for each ';'-separated assignment.
set_args() { # NAME ASSIGNMENTS
    local -n into=$1
    local a assignments
    into=()
    IFS=';' read -ra assignments <<< "$2"
    for a in "${assignments[@]}"; do [[ -z $a ]] || into+=(--set "$a"); done
}

deploy() { # RATE OUT ARGS...
    local rate=$1 out=$2; shift 2
    "$UNIFERENCE" launch --netns "$(namespaces "$N")" --master-addr "$MASTER" \
        "$ROOT/validation/scenarios/testbed-$rate.json" "$@" --out "$out" --quiet
}

# Inside `testbed.sh run`: the star is up.
inner() {
    local rate=$1 csv=$RESULTS/e2e-$1.csv scenario=../scenarios/testbed-$1.json work case recordings=()
    local simulated=$RESULTS/e2e-$1-simulated.csv sim_set=${SIM_SET:-}
    local simulated2=$RESULTS/e2e-$1-simulated2.csv
    work=$(mktemp -d)
    if [[ ${SCHED:-} == 1 ]]; then
        for case in $CASES; do
            local strategy=${case%%:*}
            local args=()
            set_args args "/parallel/strategy=$strategy;${case#*:};$SET"
            echo "-- $strategy, under perf sched record"
            perf sched record -q -o "$work/$strategy.sched" -- "$0" --deploy "$rate" "$work/$strategy-sched" "${args[@]}"
            recordings+=("$work/$strategy.sched")
        done
        (cd "$work" && python3 "$HERE/sched_delays.py" "${recordings[@]##*/}" --samples "$RESULTS/wake-latency-$rate.json" \
            --handling-samples "$RESULTS/handling-latency-$rate.json") \
            > "$RESULTS/sched-delays-$rate.txt"
        cat "$RESULTS/sched-delays-$rate.txt"
        [[ -n ${SIM_SET+given} ]] ||
            sim_set="/devices/wake_latency=$RESULTS/wake-latency-$rate.json;/devices/handling_latency=$RESULTS/handling-latency-$rate.json"
    fi
    echo "scenario,set,metric,seconds" > "$csv.tmp"
    echo "scenario,set,metric,run,seconds" > "$csv.runs.tmp"
    echo "scenario,set,metric,seconds" > "$simulated.tmp"
    echo "scenario,set,metric,seconds" > "$simulated2.tmp"
    for case in $CASES; do
        local strategy=${case%%:*} sets dirs=() sims=() sims2=() r args=() sim_args=() sim2_args=()
        sets="/parallel/strategy=$strategy;${case#*:};$SET"
        set_args args "$sets"
        set_args sim_args "$sets;$sim_set"
        set_args sim2_args "$sets;${SIM_SET2:-}"
        for (( r = 0; r < REPEATS; r++ )); do
            echo "-- $strategy ($sets), run $r, $(date -u +%H:%M:%S), loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
            deploy "$rate" "$work/$strategy-$r" "${args[@]}"
            dirs+=("$work/$strategy-$r")
            if [[ ${SIMULATE:-} == 1 ]]; then
                "$UNIFERENCE" run "$ROOT/validation/scenarios/testbed-$rate.json" "${sim_args[@]}" \
                    --out "$work/$strategy-$r-sim" --quiet > /dev/null
                sims+=("$work/$strategy-$r-sim")
                if [[ -n ${SIM_SET2:-} ]]; then
                    "$UNIFERENCE" run "$ROOT/validation/scenarios/testbed-$rate.json" "${sim2_args[@]}" \
                        --out "$work/$strategy-$r-sim2" --quiet > /dev/null
                    sims2+=("$work/$strategy-$r-sim2")
                fi
            fi
        done
        for metric in ttft tpot total; do
            echo "$scenario,$sets,$metric,$(median_seconds "${metric}_ns" "${dirs[@]}")" >> "$csv.tmp"
            each_seconds "${metric}_ns" "${dirs[@]}" | sed "s|^|$scenario,$sets,$metric,|" >> "$csv.runs.tmp"
            (( ${#sims[@]} == 0 )) ||
                echo "$scenario,$sets,$metric,$(median_seconds "${metric}_ns" "${sims[@]}")" >> "$simulated.tmp"
            (( ${#sims2[@]} == 0 )) ||
                echo "$scenario,$sets,$metric,$(median_seconds "${metric}_ns" "${sims2[@]}")" >> "$simulated2.tmp"
        done
    done
    mv "$csv.tmp" "$csv"
    mv "$csv.runs.tmp" "${csv%.csv}-runs.csv"
    if [[ ${SIMULATE:-} == 1 ]]; then mv "$simulated.tmp" "$simulated"; else rm "$simulated.tmp"; fi
    if [[ ${SIMULATE:-} == 1 && -n ${SIM_SET2:-} ]]; then mv "$simulated2.tmp" "$simulated2"; else rm "$simulated2.tmp"; fi
    rm -rf "$work"
}

if [[ ${1:-} == --inner ]]; then inner "$2"; exit; fi
if [[ ${1:-} == --deploy ]]; then shift; deploy "$@"; exit; fi  # what perf sched records

[[ -x $UNIFERENCE ]] || { echo "run-e2e.sh: no $UNIFERENCE (build first, or set UNIFERENCE)" >&2; exit 1; }
[[ ${SCHED:-} != 1 ]] || command -v perf >/dev/null || { echo "run-e2e.sh: SCHED=1 needs perf (apt-get install linux-perf)" >&2; exit 1; }
mkdir -p "$RESULTS"
RESULTS=$(cd "$RESULTS" && pwd)  # sched_delays.py runs in the work folder
rates=("$@"); (( ${#rates[@]} )) || rates=(100mbit)
for rate in "${rates[@]}"; do
    "$HERE/testbed.sh" run "$N" "$rate" -- "$0" --inner "$rate" 2>&1 | tee "$RESULTS/e2e-$rate.log"
done
