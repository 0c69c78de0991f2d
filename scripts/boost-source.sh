#!/usr/bin/env bash
# Prints the folder of Boost 1.74's Fiber and Context sources from Debian's own source
# package (the version of the headers Debian installs), fetched and unpacked once into
# ~/.cache/uniference-ns3 (UNIFERENCE_NS3_HOME) through a private apt configuration, as
# scripts/build-ns3.sh fetches ns-3's. The sanitized build compiles them (cmake/sanitizers.cmake).
set -euo pipefail
home=${UNIFERENCE_NS3_HOME:-$HOME/.cache/uniference-ns3}
version=$(dpkg-query -W -f='${Version}' libboost1.74-dev 2>/dev/null) || {
    echo "boost-source.sh: libboost1.74-dev is not installed (scripts/setup.sh)" >&2
    exit 1
}
tree="$home/boost-$version"
if [ ! -f "$tree/libs/fiber/src/fiber.cpp" ]; then
    downloads="$home/downloads"
    mkdir -p "$downloads/lists/partial"
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    echo "deb-src http://deb.debian.org/debian $codename main" >"$downloads/sources.list"
    apt_private=(-o "Dir::Etc::SourceList=$downloads/sources.list" -o Dir::Etc::SourceParts=/dev/null
                 -o "Dir::State::Lists=$downloads/lists" -o APT::Sandbox::User=root)
    upstream=${version%-*}
    if [ ! -f "$downloads/boost1.74_$upstream.orig.tar.xz" ]; then
        echo "boost-source.sh: fetching Debian's boost1.74 $version source" >&2
        apt-get "${apt_private[@]}" -qq update
        (cd "$downloads" && apt-get "${apt_private[@]}" -qq source --download-only "boost1.74=$version")
    fi
    # Only the two libraries' sources: the whole tree is 60 MB compressed. Debian's patches
    # leave them alone.
    rm -rf "$tree.partial"
    mkdir -p "$tree.partial"
    tar -xJf "$downloads/boost1.74_$upstream.orig.tar.xz" -C "$tree.partial" --strip-components=1 \
        --wildcards '*/libs/fiber/src/*' '*/libs/context/src/*'
    rm -rf "$tree"
    mv "$tree.partial" "$tree"
fi
echo "$tree"
