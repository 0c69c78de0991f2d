#!/usr/bin/env bash
# The project's own measurement of this machine's testbed, over its own Gloo deployment
# (uniference-deploy), for `uniference compare` (run as root):
#
#   run-colltest.sh [RATE ...]        default: 100mbit 1gbit
#
# For each RATE, with the star up (testbed.sh run): the network profile of a rank pair
# (uniference profile-network), then for N in $RANKS the nccl-tests-style sweep of every op
# in $OPS across N namespaces (uniference colltest --backend gloo), 4 KiB to $MAX_BYTES.
# Writes into $RESULTS (default: ../results):
#   profile-<RATE>.json               the network profile; validation/scenarios reference it
#   colltest-<N>ranks-<RATE>.csv      op,ranks,bytes,...,time_s rows of every op
#   colltest-<RATE>.log               the runs' console output, with load average and time
# With EXCHANGES=stock the deployment runs Gloo's own all-to-all and 2-rank all-gather
# (uniference-deploy --exchanges stock) and the sweeps go to colltest-stock-*.
#
# Environment: UNIFERENCE (default: build/apps/uniference), RANKS ("2 4"), OPS, MAX_BYTES
# (64M), ITERS (3), WARMUP (1), RESULTS, EXCHANGES (receive-first), PROFILE (1; 0 keeps the
# profile the twin scenarios were made from). Keep the machine otherwise idle: the ranks' CPU
# time is part of what is measured.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
UNIFERENCE=${UNIFERENCE:-$ROOT/build/apps/uniference}
RESULTS=${RESULTS:-$ROOT/validation/results}
RANKS=${RANKS:-"2 4"}
OPS=${OPS:-"all_reduce all_gather broadcast all_to_all send_recv"}
MAX_BYTES=${MAX_BYTES:-64M}
ITERS=${ITERS:-3}
WARMUP=${WARMUP:-1}
EXCHANGES=${EXCHANGES:-receive-first}
PROFILE=${PROFILE:-1}
STEM=colltest
[[ $EXCHANGES == receive-first ]] || STEM=colltest-$EXCHANGES
MASTER=198.18.0.1

namespaces() { local n=$1 i list=(); for (( i = 0; i < n; i++ )); do list+=("uf-tb$i"); done; (IFS=,; echo "${list[*]}"); }

# Inside `testbed.sh run`: the star is up.
inner() {
    local rate=$1 n op csv part
    echo "== $rate, $(date -u +%Y-%m-%dT%H:%M:%SZ), loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
    if [[ $PROFILE == 1 ]]; then
        "$UNIFERENCE" profile-network --netns uf-tb0,uf-tb1 --master-addr "$MASTER" \
            --out "$RESULTS/profile-$rate.json"
    fi
    for n in $RANKS; do
        csv=$RESULTS/$STEM-${n}ranks-$rate.csv
        : > "$csv.tmp"
        for op in $OPS; do
            echo "-- $n ranks, $op, $(date -u +%H:%M:%S), loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
            part=$csv.$op
            "$UNIFERENCE" colltest "$ROOT/scenarios/quickstart.json" --backend gloo --exchanges "$EXCHANGES" \
                --netns "$(namespaces "$n")" --master-addr "$MASTER" --ranks "$n" --op "$op" \
                --min-bytes 4K --max-bytes "$MAX_BYTES" --warmup "$WARMUP" --iters "$ITERS" --csv "$part"
            if [[ -s $csv.tmp ]]; then tail -n +2 "$part" >> "$csv.tmp"; else cat "$part" > "$csv.tmp"; fi
            rm -f "$part"
        done
        mv "$csv.tmp" "$csv"
    done
}

if [[ ${1:-} == --inner ]]; then inner "$2"; exit; fi

[[ -x $UNIFERENCE ]] || { echo "run-colltest.sh: no $UNIFERENCE (build first, or set UNIFERENCE)" >&2; exit 1; }
mkdir -p "$RESULTS"
max_ranks=0
for n in $RANKS; do (( n > max_ranks )) && max_ranks=$n; done
rates=("$@"); (( ${#rates[@]} )) || rates=(100mbit 1gbit)
for rate in "${rates[@]}"; do
    "$HERE/testbed.sh" params "$rate"
    "$HERE/testbed.sh" run "$max_ranks" "$rate" -- "$0" --inner "$rate" 2>&1 | tee "$RESULTS/$STEM-$rate.log"
done
