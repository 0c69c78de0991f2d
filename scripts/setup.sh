#!/usr/bin/env bash
# Installs the Debian packages Uniference-ns3 builds against (docs/design.md, platform facts).
# Idempotent: when every package is already present it returns at once.
set -euo pipefail

packages=(ns3 libns3-dev libgsl-dev libxml2-dev libsqlite3-dev libtorch-dev libgloo-dev libboost-fiber-dev
          nlohmann-json3-dev libgtest-dev cmake g++ make gnuplot-nox ccache)

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
