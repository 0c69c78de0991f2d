#!/usr/bin/env bash
# Gloo collective sweep on the emulated star testbed (run as root).
#
#   run-gloo-sweep.sh            full sweep: N in $RANKS (2 4) x RATE in $RATES (100mbit 1gbit)
#
# Writes into $RESULTS (default: ../results next to this folder):
#   gloo-<N>ranks-<RATE>.csv       op,ranks,bytes,algorithm,time_s,algbw_GBps,busbw_GBps
#   gloo-<N>ranks-<RATE>-raw.csv   per timed iteration (max over ranks)
#   gloo-<N>ranks-<RATE>.log       rank 0's console output
#   gloo-duplex-<RATE>.txt         2 ranks: one-way vs two-way transfer on one Gloo pair
#   testbed-<RATE>.txt             kernel, qdisc capabilities, tbf parameters, ping RTT,
#                                  TCP goodput of 1 flow and of N concurrent flows (ring)
#   testbed-baseline.txt           same for the unshaped veth star (no tbf), no sweep
#
# Environment: PYTHON (interpreter with torch; default: the first of python3,
# /usr/bin/python3 that imports torch), RANKS, RATES, RESULTS, MASTER_PORT, BASELINE=0/1.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TB=$HERE/testbed.sh
RESULTS=${RESULTS:-$(cd "$HERE/.." && pwd)/results}
RANKS=${RANKS:-"2 4"}
RATES=${RATES:-"100mbit 1gbit"}
BASELINE=${BASELINE:-1}
export MASTER_PORT=${MASTER_PORT:-29500}
SUBNET=198.18.0

pick_python() {
    local c
    for c in ${PYTHON:-} python3 /usr/bin/python3; do
        if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import torch.distributed as d; assert d.is_gloo_available()' 2>/dev/null; then
            command -v "$c"; return
        fi
    done
    echo "run-gloo-sweep.sh: no python3 with torch+gloo found (Debian: apt-get install python3-torch)" >&2
    exit 1
}

# bytes sent by the goodput check: ~2 s worth at RATE (250 MB when unshaped)
goodput_bytes() {
    case ${1,,} in
        none) echo 250000000 ;;
        *) "$PY" - "$1" <<'EOF'
import re, sys
m = re.fullmatch(r"([0-9.]+)(bit|kbit|mbit|gbit)", sys.argv[1].lower())
print(int(float(m.group(1)) * {"bit": 1, "kbit": 1e3, "mbit": 1e6, "gbit": 1e9}[m.group(2)] / 8 * 2))
EOF
        ;;
    esac
}

# ---- executed inside `testbed.sh run` (the testbed is up) ----------------------
inner() { # N RATE TXT SWEEP(0/1)
    local n=$1 rate=$2 txt=$3 sweep=$4
    {
        echo "== $n ranks, rate $rate  ($(date -u +%Y-%m-%dT%H:%M:%SZ), loadavg $(cut -d' ' -f1-3 /proc/loadavg))"
        echo "ping rank0 (${SUBNET}.1) -> rank1 (${SUBNET}.2), 20 x 64 B ICMP (56 B payload), interval 50 ms:"
        ip netns exec uf-tb0 ping -q -c 20 -i 0.05 -s 56 "${SUBNET}.2" | grep -E 'transmitted|rtt' | sed 's/^/  /'
        local gb; gb=$(goodput_bytes "$rate")
        ip netns exec uf-tb1 "$PY" "$HERE/tcp_goodput.py" server "${SUBNET}.2" 5201 "$gb" > "$txt.gp" &
        local spid=$!
        ip netns exec uf-tb0 "$PY" "$HERE/tcp_goodput.py" client "${SUBNET}.2" 5201 "$gb"
        wait $spid
        echo "single TCP flow rank0 -> rank1, $gb B: $(cat "$txt.gp")"
        # n concurrent flows, rank i -> rank (i+1)%n (every link busy in both directions)
        local i j pids=()
        for (( i = 0; i < n; i++ )); do
            j=$(( (i + 1) % n ))
            ip netns exec "uf-tb$j" "$PY" "$HERE/tcp_goodput.py" server "${SUBNET}.$(( j + 1 ))" $(( 5300 + i )) "$gb" > "$txt.gp$i" &
            pids+=($!)
        done
        for (( i = 0; i < n; i++ )); do
            j=$(( (i + 1) % n ))
            ip netns exec "uf-tb$i" "$PY" "$HERE/tcp_goodput.py" client "${SUBNET}.$(( j + 1 ))" $(( 5300 + i )) "$gb" &
            pids+=($!)
        done
        wait "${pids[@]}"
        echo "$n concurrent TCP flows rank i -> rank (i+1)%$n, $gb B each (separate connections):"
        for (( i = 0; i < n; i++ )); do echo "  rank $i -> rank $(( (i + 1) % n )): $(cat "$txt.gp$i")"; rm -f "$txt.gp$i"; done
        rm -f "$txt.gp"
    } >> "$txt"
    tail -n $(( 5 + n + 1 )) "$txt"
    (( sweep )) || return 0

    local tag=gloo-${n}ranks-${rate}
    launch "$n" "$RESULTS/$tag.log" "$HERE/gloo_sweep.py" \
        --out "$RESULTS/$tag.csv" --raw-out "$RESULTS/$tag-raw.csv"
    if (( n == 2 )); then
        echo "-- Gloo pair duplex check ($rate): rank 0 -> 1 only ('uni') vs both directions at once ('bi')"
        launch 2 "$RESULTS/gloo-duplex-$rate.txt" "$HERE/gloo_duplex.py"
    fi
}

# launch N LOG SCRIPT [ARGS..]: one process per rank namespace, rank 0's output -> LOG
launch() {
    local n=$1 log=$2 i rc=0 pids=()
    shift 2
    for (( i = 0; i < n; i++ )); do
        ip netns exec "uf-tb$i" env RANK=$i WORLD_SIZE=$n MASTER_ADDR=${SUBNET}.1 MASTER_PORT="$MASTER_PORT" \
            GLOO_SOCKET_IFNAME=veth0 OMP_NUM_THREADS=1 \
            timeout 1800 "$PY" "$@" \
            > >(if (( i == 0 )); then tee "$log"; else cat >/dev/null; fi) 2>&1 &
        pids+=($!)
    done
    for i in "${!pids[@]}"; do
        if ! wait "${pids[$i]}"; then
            rc=1
            echo "rank $i of $(basename "$1") failed; stopping the other ranks" >&2
            local p; for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
        fi
    done
    return $rc
}

PY=$(pick_python)
if [[ ${1:-} == --inner ]]; then shift; inner "$@"; exit; fi

[[ $(id -u) -eq 0 ]] || { echo "run-gloo-sweep.sh: must run as root" >&2; exit 1; }
mkdir -p "$RESULTS"
"$TB" down
CAPS=$("$TB" caps)
echo "$CAPS"
TORCH=$("$PY" -c 'import torch; print(torch.__version__)')

header() { # RATE
    echo "testbed: star of N network namespaces around a Linux bridge (own namespace), one veth per rank"
    echo "kernel: $(uname -r)   cpus: $(nproc)   torch: $TORCH (gloo, CPU)"
    echo "$CAPS" | grep '^qdisc'
    echo "netem: $(echo "$CAPS" | grep -q 'netem: present' && echo available || echo 'NOT available (no added delay/loss: propagation delay is the veth/bridge path only)')"
    echo "offloads: tso/gso/gro off on both ends of every veth; MTU 1500"
    echo "$("$TB" params "$1")"
}

if (( BASELINE )); then
    header none > "$RESULTS/testbed-baseline.txt"
    "$TB" run 2 none -- "$HERE/run-gloo-sweep.sh" --inner 2 none "$RESULTS/testbed-baseline.txt" 0
fi
for rate in $RATES; do
    header "$rate" > "$RESULTS/testbed-$rate.txt"
    for n in $RANKS; do
        echo "### $n ranks, $rate"
        "$TB" run "$n" "$rate" -- "$HERE/run-gloo-sweep.sh" --inner "$n" "$rate" "$RESULTS/testbed-$rate.txt" 1
    done
done
echo "done; results in $RESULTS"
