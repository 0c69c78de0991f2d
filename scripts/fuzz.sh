#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ with clang (into build-fuzz/) and runs each from
# seeds in the repository: the shipped scenarios for the scenario reader; the device profiles
# and validation/'s CSV and JSON files, each under every reader's selector byte, for the
# side-file readers. Runs are reproducible (fixed seed, a fresh corpus from the repository).
# A finding (an exception other than ScenarioError, a sanitizer report, an input slower than
# 1 s) ends the script with exit 1 and its input kept in build-fuzz/findings/.
#
# Usage: scripts/fuzz.sh [--runs N]   (default 1000000 runs per target)
# Needs clang and libFuzzer's runtime: scripts/setup.sh --fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=1000000
case "${1:-}" in
    "") ;;
    --runs) runs=${2:?--runs needs a number} ;;
    *) echo "usage: $0 [--runs N]" >&2; exit 2 ;;
esac
if ! command -v clang++ >/dev/null; then
    echo "fuzz.sh: clang++ not found; scripts/setup.sh --fuzz installs it" >&2
    exit 2
fi

CXX=clang++ cmake -S tests/fuzz -B build-fuzz -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-fuzz -j"$(nproc)"

rm -rf build-fuzz/corpus build-fuzz/findings
mkdir -p build-fuzz/corpus/scenario_reader_fuzz build-fuzz/corpus/side_file_fuzz build-fuzz/findings
cp scenarios/*.json build-fuzz/corpus/scenario_reader_fuzz/
# Side files: every candidate under each of the five readers (the first byte picks one).
n=0
while IFS= read -r -d '' file; do
    [ "$(stat -c %s "$file")" -le 65536 ] || continue
    for selector in 0 1 2 3 4; do
        n=$((n + 1))
        { printf "\\$(printf '%03o' "$selector")"; cat "$file"; } > "build-fuzz/corpus/side_file_fuzz/seed-$n"
    done
done < <(find devices validation -type f \( -name '*.csv' -o -name '*.json' \) -print0 | sort -z)

status=0
for target in scenario_reader_fuzz side_file_fuzz; do
    log=build-fuzz/$target.log
    echo "== $target: $runs runs from $(ls build-fuzz/corpus/$target | wc -l) seeds"
    if ./build-fuzz/$target -seed=1 -runs="$runs" -timeout=1 -rss_limit_mb=2048 \
           -artifact_prefix=build-fuzz/findings/$target- -print_final_stats=1 \
           build-fuzz/corpus/$target > "$log" 2>&1; then
        grep -E '^Done [0-9]+ runs|stat::number_of_executed_units' "$log" | tail -2
    else
        status=1
        echo "fuzz.sh: $target found a problem; its input is in build-fuzz/findings/" >&2
        grep -E 'exception other than|ERROR:|SUMMARY' "$log" | head -5 >&2
    fi
done
exit $status
