#!/usr/bin/env bash
# One size of one operation over real Gloo on 2 ranks, captured whole and read back message by
# message (run as root; needs tcpdump):
#
#   run-capture.sh [OP] [BYTES] [RATE]       default: all_reduce 16M 100mbit
#
# Runs `uniference colltest --backend gloo` (1 warm-up, 3 timed iterations) across the
# testbed with CAPTURE set, then validation/testbed/gloo_streams.py on the capture. Writes
# $RESULTS/capture-OP-BYTES-RATE[-rank-limit-N].txt: the colltest table, the star's counters
# (drops at every shaper, TCP retransmissions) and every data message's timing; the capture
# itself (tens of MB) is kept only with KEEP=1. RANK_LIMIT passes to testbed.sh.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
UNIFERENCE=${UNIFERENCE:-$ROOT/build/apps/uniference}
RESULTS=${RESULTS:-$ROOT/validation/results}
OP=${1:-all_reduce} BYTES=${2:-16M} RATE=${3:-100mbit}

[[ -x $UNIFERENCE ]] || { echo "run-capture.sh: no $UNIFERENCE (build first, or set UNIFERENCE)" >&2; exit 1; }
name=capture-$OP-$BYTES-$RATE${RANK_LIMIT:+-rank-limit-$RANK_LIMIT}
out=$RESULTS/$name.txt
pcap=$(mktemp --suffix=.pcap)
trap 'rm -f "$pcap"' EXIT
{
    echo "# $name: $(date -u +%Y-%m-%dT%H:%M:%SZ), loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
    CAPTURE=$pcap "$HERE/testbed.sh" run 2 "$RATE" -- \
        "$UNIFERENCE" colltest "$ROOT/scenarios/quickstart.json" --backend gloo \
        --netns uf-tb0,uf-tb1 --master-addr 198.18.0.1 --ranks 2 --op "$OP" \
        --min-bytes "$BYTES" --max-bytes "$BYTES" --warmup 1 --iters 3 2>&1 |
        grep -v -e "bytes$" -e "^testbed: frames through"  # the temporary file's name
    python3 "$HERE/gloo_streams.py" "$pcap" --rate "$RATE"
} > "$out"
if [[ ${KEEP:-0} == 1 ]]; then cp "$pcap" "$RESULTS/$name.pcap"; fi
echo "run-capture.sh: wrote $out"
