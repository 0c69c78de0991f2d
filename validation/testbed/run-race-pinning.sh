#!/usr/bin/env bash
# Who wins stock Gloo's pair race (validation/README.md, "Stock Gloo against its preset"): the
# 2-rank all_to_all and send_recv of PyTorch's own Gloo (gloo_sweep.py, 1-8 MiB, 8 timed
# iterations a size) at 100 Mbit/s, first with the ranks placed by the scheduler, then with
# each rank's threads pinned to a core of its own (taskset). Prints, per placement and
# operation, how many iterations ran both directions one after the other (over 1.5 x one
# direction's wire time). Run as root; writes $RESULTS/race-<placement>-raw.csv and the summary.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RESULTS=${RESULTS:-$(cd "$HERE/.." && pwd)/results/stock-gloo}
PY=${PYTHON:-/usr/bin/python3}
export MASTER_PORT=${MASTER_PORT:-29511}

inner() {
    local placement i pids
    for placement in free pinned; do
        pids=()
        for i in 0 1; do
            local pin=()
            [[ $placement == pinned ]] && pin=(taskset -c "$i")
            ip netns exec "uf-tb$i" env RANK=$i WORLD_SIZE=2 MASTER_ADDR=198.18.0.1 MASTER_PORT="$MASTER_PORT" \
                GLOO_SOCKET_IFNAME=veth0 OMP_NUM_THREADS=1 "${pin[@]}" timeout 300 "$PY" "$HERE/gloo_sweep.py" \
                --ops all_to_all,send_recv --min-bytes 1048576 --max-bytes 8388608 --iters 8 \
                --out "$RESULTS/race-$placement.csv" --raw-out "$RESULTS/race-$placement-raw.csv" > /dev/null &
            pids+=($!)
        done
        wait "${pids[@]}"
    done
}

if [[ ${1:-} == --inner ]]; then inner; exit; fi
[[ $(id -u) -eq 0 ]] || { echo "run-race-pinning.sh: must run as root" >&2; exit 1; }
mkdir -p "$RESULTS"
"$HERE/testbed.sh" run 2 100mbit -- "$0" --inner > /dev/null
"$PY" - "$RESULTS" <<'PYEOF' | tee "$RESULTS/race-pinning.txt"
import csv, sys
for placement in ("free", "pinned"):
    rows = list(csv.DictReader(open(f"{sys.argv[1]}/race-{placement}-raw.csv")))
    for op in ("all_to_all", "send_recv"):
        # One direction's wire time: all_to_all sends half of S each way, send_recv all of S.
        ratios = [float(r["time_s"]) / ((int(r["bytes"]) / (2 if op == "all_to_all" else 1)) * 8 / 1e8 * 1538 / 1448)
                  for r in rows if r["op"] == op]
        serial = sum(x > 1.5 for x in ratios)
        print(f"{placement:6s} {op:10s} one direction after the other in {serial} of {len(ratios)} iterations")
PYEOF
