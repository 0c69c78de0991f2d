#!/usr/bin/env bash
# Installs the Debian packages Uniference-ns3 builds against (docs/design.md, platform facts).
# Idempotent: when every package is already present it returns at once.
#
#   scripts/setup.sh                 what README's two commands need (Debian's packaged ns-3)
#   scripts/setup.sh --ns3 source    also what scripts/build-ns3.sh needs to build ns-3 3.37
#                                    from Debian's source: dpkg-source, patch, OpenMPI, python3
#   scripts/setup.sh --fuzz          also clang and libFuzzer's runtime, for scripts/fuzz.sh
#   scripts/setup.sh --browser       also Debian's chromium, in which the HTML report's test
#                                    draws the plots (docs/report.md; skipped without it)
set -euo pipefail

packages=(ns3 libns3-dev libgsl-dev libxml2-dev libsqlite3-dev libtorch-dev libgloo-dev libboost-fiber-dev
          nlohmann-json3-dev libgtest-dev cmake g++ make gnuplot-nox ccache parallel)
case "${1:-}" in
"") ;;
--ns3)
    case "${2:-}" in
    package) ;;
    source) packages+=(dpkg-dev patch bzip2 xz-utils python3 libopenmpi-dev openmpi-bin) ;;
    *) echo "setup.sh: --ns3 takes package or source" >&2; exit 2 ;;
    esac ;;
--fuzz) packages+=(clang libclang-rt-14-dev) ;;  # scripts/fuzz.sh: libFuzzer, ASan, UBSan
--browser) packages+=(chromium) ;;  # tests/report_cli_test.cpp renders reports headless
*) echo "setup.sh: unknown argument '$1' (--ns3 package|source, --fuzz, --browser)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
    echo "setup: all packages present"
    exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
