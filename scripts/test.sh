#!/usr/bin/env bash
# Builds and runs the whole test suite: GoogleTest and ns-3 TestSuites, under CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 900
