#!/usr/bin/env bash
# The two ns-3 builds side by side, in one run (docs/ns3-builds.md): for each build tree,
# benchmarks/star-scale's wall time per 64-byte TCP message on the switched star and its
# instructions per message (callgrind), then benchmarks/serving-rate's requests per wall second
# on scenarios/serving.json, the builds taking turns so that a noisy machine slows both alike.
#
#   benchmarks/ns3-builds.sh [BUILD_A [BUILD_B]]     (default: build build-ns3src)
#   RANKS=64 REPEATS=5 REQUESTS=30 benchmarks/ns3-builds.sh
#
# Instruction counts are steady where wall times are not: they are the figure to compare.
# Instructions per message are the difference between a run of 3 timed laps and a run of 1,
# divided by the messages in the 2 extra laps, so setup and the untimed first lap cancel out.
set -euo pipefail
cd "$(dirname "$0")/.."
builds=("${1:-build}" "${2:-build-ns3src}")
ranks=${RANKS:-64}
repeats=${REPEATS:-5}
requests=${REQUESTS:-30}

for b in "${builds[@]}"; do
    [ -f "$b/CMakeCache.txt" ] || { echo "ns3-builds.sh: no build in '$b' (scripts/build.sh)" >&2; exit 1; }
    cmake --build "$b" -j "$(nproc)" --target star-scale serving-rate uniference >/dev/null
done
command -v valgrind >/dev/null || { echo "ns3-builds.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }

instructions() {  # total instructions of one star-scale run under callgrind
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1/benchmarks/star-scale" \
        --only=switched --ranks="$ranks" --laps="$2" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "== the builds"
for b in "${builds[@]}"; do
    printf '%-14s %s\n' "$b" "$("$b/apps/uniference" --version | sed -n 's/^ *\(library\|logging\|MPI\): *//p' | paste -sd ';' | sed 's/;/; /g')"
done

echo
echo "== switched star, $ranks ranks, one 64-byte TCP message in flight"
declare -A per_message
for b in "${builds[@]}"; do
    one=$(instructions "$b" 1)
    three=$(instructions "$b" 3)
    per_message[$b]=$(( (three - one) / (2 * ranks) ))
    wall=$("$b/benchmarks/star-scale" --only=switched --ranks="$ranks" --laps=20 |
           sed -n 's/.*setup.* \([0-9.]*\) us wall per message.*/\1/p')
    printf '%-14s %9d instructions per message   %8s us wall per message\n' "$b" "${per_message[$b]}" "$wall"
done
a=${builds[0]} s=${builds[1]}
awk -v a="${per_message[$a]}" -v s="${per_message[$s]}" -v na="$a" -v ns="$s" \
    'BEGIN { printf "%s runs a message in %.2fx the instructions of %s\n", ns, s / a, na }'

echo
echo "== serving-rate, $requests requests of scenarios/serving.json over TCP, $repeats turns each"
declare -A rates
for ((i = 0; i < repeats; ++i)); do
    for b in "${builds[@]}"; do
        rate=$("$b/benchmarks/serving-rate" --requests="$requests" |
               sed -n 's/^serving.json (tp 4).* \([0-9.]*\) requests\/s.*/\1/p')
        rates[$b]+="$rate "
    done
done
for b in "${builds[@]}"; do
    printf '%-14s %6s requests per wall second (median; turns: %s)\n' "$b" \
        "$(tr ' ' '\n' <<<"${rates[$b]}" | grep . | median)" "${rates[$b]% }"
done
awk -v a="$(tr ' ' '\n' <<<"${rates[$a]}" | grep . | median)" \
    -v s="$(tr ' ' '\n' <<<"${rates[$s]}" | grep . | median)" -v na="$a" -v ns="$s" \
    'BEGIN { printf "%s serves %.2fx the requests per wall second of %s\n", ns, s / a, na }'
