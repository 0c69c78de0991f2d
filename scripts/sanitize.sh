#!/usr/bin/env bash
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer (docs/sanitizers.md).
# Builds build-asan/ (scripts/build.sh --sanitize: Boost.Fiber compiled from Debian's source
# with ucontext switches that ASan is told of) and runs every test but the deployment and
# testbed ones (labels deploy, testbed): those start real Gloo process groups and launchers
# against wall-clock deadlines (a rendezvous, a 10 s operation timeout) that the sanitizers'
# slowdown would miss, which would say nothing about memory; nor the installed package's user
# program (installed_package.*), which a user builds with their own flags, not ours: linked
# against sanitized libraries without the sanitizer's runtime first, it cannot start.
#
# Nor the tests whose time goes to starting the sanitized binary over and over, or to what
# is not ours, when what they run is run here by others (docs/sanitizers.md):
#   *Cli.*, Cases/*           the command line: each case a process start (two seconds under
#                             ASan, before any work); every shipped scenario still runs through
#                             the binary in GoldenResults, and the readers' error paths are
#                             fuzzed under ASan and UBSan (scripts/fuzz.sh)
#   ReportOfShippedScenario   the report drawn in headless Chromium: Chromium's time
#   RingAlphaBeta             the ring all-reduce at twelve sizes: one code path, which
#                             RingAllReduce and the ns-3 suites run
# Together these were 39% of the sanitized suite's time. Extra arguments go to ctest.
#
# Options, each for a reason:
#   detect_leaks=0           ns-3's and libtorch's process-lifetime singletons (TypeIds,
#                            the operator registry) are never freed, by design.
#   halt_on_error=1          a report fails the test that made it, at once.
#   allocator_may_return_null=1
#                            an allocation too large to make returns null, as glibc's does,
#                            instead of ending the process: the out-of-memory tests ask for
#                            more than any machine has and check the one-line report the run
#                            gives when libtorch's allocator fails.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh --sanitize
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-asan -j"$(nproc)" --output-on-failure -LE 'deploy|testbed' \
      -E '^installed_package\.|Cli\.|^Cases/|ReportOfShippedScenario|RingAlphaBeta' "$@"
