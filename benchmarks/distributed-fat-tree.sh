#!/usr/bin/env bash
# ns-3's distributed engine on the RDMA fabric: one all-reduce on a k=16 fat-tree (1,024
# endpoints) simulated by 1 process (ns-3's default engine), then by 2 and 4 processes under
# mpirun (granted time windows; the fabric cut by pod), taking turns REPEATS times so a noisy
# machine slows them alike. Prints each count's median wall time (the slowest process's
# Simulator::Run), the speedup over one process, and whether the results (every endpoint's
# completion, the wire bytes, the fabric events) are the same as one process's.
#
#   benchmarks/distributed-fat-tree.sh [BUILD]          (default: build-ns3src)
#   K=16 BYTES=4194304 ALGORITHM=ring REPEATS=3 benchmarks/distributed-fat-tree.sh
#
# Needs ns-3 with its mpi module (scripts/build.sh --ns3 source) and mpirun (openmpi-bin).
# More processes than cores are oversubscribed: their figures then say what the
# synchronisation costs, not what the cores could give.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-ns3src}
k=${K:-16}
bytes=${BYTES:-4194304}
algorithm=${ALGORITHM:-ring}
repeats=${REPEATS:-3}
counts=(1 2 4)

[ -f "$build/CMakeCache.txt" ] || { echo "distributed-fat-tree.sh: no build in '$build'" >&2; exit 1; }
cmake --build "$build" -j "$(nproc)" --target distributed-fat-tree >/dev/null 2>&1 ||
    { echo "distributed-fat-tree.sh: '$build' has no distributed-fat-tree: its ns-3 has no mpi module (scripts/build.sh --ns3 source)" >&2; exit 1; }
command -v mpirun >/dev/null || { echo "distributed-fat-tree.sh: needs mpirun (apt-get install openmpi-bin)" >&2; exit 1; }
program="$build/ns3-module/examples/distributed-fat-tree"
args=(--k="$k" --bytes="$bytes" --algorithm="$algorithm")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {  # run COUNT TURN: one simulation, its output kept
    if [ "$1" = 1 ]; then
        "$program" "${args[@]}" --sequential >"$out/$1.$2"
    else
        mpirun --allow-run-as-root --oversubscribe -np "$1" "$program" "${args[@]}" >"$out/$1.$2"
    fi
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
results() { grep -v -e '^# processes' "$1"; }  # all but the wall time and the cut

echo "== all_reduce/$algorithm of $bytes bytes on a k=$k fat-tree ($((k * k * k / 4)) endpoints), $(nproc) cores, $repeats turns"
for ((turn = 0; turn < repeats; ++turn)); do
    for count in "${counts[@]}"; do
        printf '\rturn %d of %d: %d process(es)   ' "$((turn + 1))" "$repeats" "$count" >&2
        run "$count" "$turn"
    done
done
printf '\r%40s\r' '' >&2
head -1 "$out/1.0"
sed -n 's/^# last completion/# last completion/p' "$out/1.0"
one=""
for count in "${counts[@]}"; do
    wall=$(for ((turn = 0; turn < repeats; ++turn)); do
               sed -n 's/.*wall: \([0-9.]*\) s.*/\1/p' "$out/$count.$turn"; done | median)
    cut=$(sed -n 's/.*cables cut: \([0-9]*\);.*/\1/p' "$out/$count.0")
    one=${one:-$wall}
    same=same
    for ((turn = 0; turn < repeats; ++turn)); do
        cmp -s <(results "$out/$count.$turn") <(results "$out/1.0") || same=DIFFERENT
    done
    awk -v c="$count" -v w="$wall" -v o="$one" -v cut="$cut" -v s="$same" \
        'BEGIN { printf "%d process(es): %8.3f s wall   speedup %5.2fx   %4d cables cut   results %s\n", c, w, o / w, cut, s }'
done
