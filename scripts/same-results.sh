#!/usr/bin/env bash
# Every shipped scenario, run by two builds of the project (by default build/, on Debian's
# packaged ns-3, and build-ns3src/, on the ns-3 scripts/build-ns3.sh built from source with
# its patches): their results.json and trace.json must be byte for byte the same (neither
# holds a wall-clock figure; a scenario that turns its trace off is compared by results).
#
#   scripts/same-results.sh [BUILD_A BUILD_B]
set -euo pipefail
cd "$(dirname "$0")/.."
a=${1:-build}
b=${2:-build-ns3src}
for build in "$a" "$b"; do
    [ -x "$build/apps/uniference" ] || { echo "same-results: no $build/apps/uniference; build it first" >&2; exit 1; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "same-results: $a against $b"
for build in "$a" "$b"; do "$build/apps/uniference" --version | sed "s|^|  $build: |"; done

differ=0
for scenario in scenarios/*.json; do
    name=$(basename "$scenario" .json)
    [ "$name" = schema ] && continue
    mkdir -p "$out/$name"
    for build in "$a" "$b"; do
        dir="$out/$name/$(basename "$build")"
        "$build/apps/uniference" run "$scenario" --quiet --out "$dir" >"$dir.log" 2>&1 ||
            { echo "  $name: $build failed:"; tail -5 "$dir.log"; differ=1; continue 2; }
    done
    results="same results.json"
    if ! cmp -s "$out/$name/$(basename "$a")/results.json" "$out/$name/$(basename "$b")/results.json"; then
        results="RESULTS DIFFER"
        differ=1
        diff <(python3 -m json.tool "$out/$name/$(basename "$a")/results.json") \
             <(python3 -m json.tool "$out/$name/$(basename "$b")/results.json") | head -10
    fi
    trace_a="$out/$name/$(basename "$a")/trace.json" trace_b="$out/$name/$(basename "$b")/trace.json"
    if [ ! -e "$trace_a" ] && [ ! -e "$trace_b" ]; then
        trace="no trace (the scenario writes none)"
    elif cmp -s "$trace_a" "$trace_b"; then
        trace="same trace"
    else
        trace="TRACE DIFFERS"
        differ=1
    fi
    printf '  %-18s %s, %s\n' "$name" "$results" "$trace"
done
exit $differ
