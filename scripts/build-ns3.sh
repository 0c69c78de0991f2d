#!/usr/bin/env bash
# Builds ns-3 3.37 from Debian's own source package, the second way to run the project
# (Debian's packaged ns-3 stays the default): the `release` profile (-O3, logging and asserts
# compiled out; not `optimized`, whose -march=native makes binaries that run only where they
# were built and lets FMA contraction move Wi-Fi and LTE results), MPI from Debian's OpenMPI,
# only the modules the project links and what they pull in, and the measured patches in
# patches/ns-3/. Then `./scripts/build.sh --ns3 source` builds the project against it.
#
#   scripts/build-ns3.sh            fetch, patch, configure, build, install (idempotent)
#   scripts/build-ns3.sh --in-tree  also place ns3-module as contrib/uniference in that tree,
#                                   build it with ./ns3, run ./test.py on the module's
#                                   suites and ./ns3 run each of the module's examples
#   scripts/build-ns3.sh --print-home   print where the build lives and exit
#
# Where it lives: $UNIFERENCE_NS3_HOME/ns-3.37 (default ~/.cache/uniference-ns3), outside the
# clone, so that later clones and CI runs on the same machine reuse it; build-ns3/ in the
# clone is a link to it. A build key hashes Debian's source version, the compiler, the
# configure arguments and every patch: a second run with the same key returns at once, and a
# changed key unpacks and builds again in the same folder. The folder's path never changes
# because ns-3 compiles its source path into every object: through ccache, where installed,
# only the files a changed patch touches compile again.
#
# The folder holds ns-3.37/ (the source tree; ./ns3 and ./test.py work in it) and prefix/
# (what `cmake --install` put there: libraries, headers, ns-3's CMake package). The prefix is
# installed before the module is ever placed in the tree, so it never carries a copy of the
# module: a program that loaded both would register the module's TypeIds twice.
#
# Needs dpkg-dev, python3, libopenmpi-dev and ns-3's own build dependencies:
# `./scripts/setup.sh --ns3 source` installs them. The system's apt lists stay untouched:
# the deb-src line lives in a private sources list under the home folder.
set -euo pipefail
cd "$(dirname "$0")/.."
clone=$(pwd -P)

in_tree=false
print_home=false
for arg in "$@"; do
    case "$arg" in
    --in-tree) in_tree=true ;;
    --print-home) print_home=true ;;
    -h | --help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-ns3.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

debian_version=3.37-2
modules="core;network;internet;point-to-point;point-to-point-layout;applications;traffic-control"
modules+=";wifi;mobility;lte;flow-monitor;mpi;csma"
# csma: ns-3's test-runner does not link in tree without it.
configure_args=(-d release --enable-mpi --disable-tests --disable-examples
                --disable-python-bindings --disable-gtk --enable-modules="$modules")
# Installed libraries find one another in the prefix first: Debian's packaged ns-3 has the same
# sonames, and a library reached only through another (spectrum through lte) would otherwise
# load from /usr/lib.
cmake_args=("-DCMAKE_INSTALL_RPATH=\$ORIGIN")
jobs=$(nproc)

home=${UNIFERENCE_NS3_HOME:-$HOME/.cache/uniference-ns3}
patches=()
if [ -d patches/ns-3 ]; then
    mapfile -t patches < <(find patches/ns-3 -name '*.patch' | LC_ALL=C sort)
fi
key=$( {
    echo "debian $debian_version"
    g++ --version | head -1
    printf '%s\n' "${configure_args[@]}" "${cmake_args[@]}"
    for p in "${patches[@]}"; do echo "$p"; cat "$p"; done
} | sha256sum | cut -c1-12)
dir="$home/ns-3.37"
if $print_home; then echo "$dir"; exit 0; fi

tree="$dir/ns-3.37"
prefix="$dir/prefix"
stamp="$prefix/uniference-build-key"

step() { printf '\nbuild-ns3: %s\n' "$*"; }

# ns-3's CMake compiles through ccache where it is installed. Its objects go to a cache of
# their own beside the build, which outlives a CI run's throw-away cache: a new patch, or
# the module built in the tree, recompiles only what changed.
export CCACHE_DIR="$home/ccache"
mkdir -p "$CCACHE_DIR"

if [ "$(cat "$stamp" 2>/dev/null)" != "$key" ]; then
    for tool in dpkg-source python3 mpicxx apt-get; do
        command -v "$tool" >/dev/null || {
            echo "build-ns3.sh: '$tool' is missing; run ./scripts/setup.sh --ns3 source" >&2
            exit 1
        }
    done
    start=$(date +%s)

    # Debian's source package, fetched once through a private apt configuration.
    downloads="$home/downloads"
    if [ ! -f "$downloads/ns3_$debian_version.dsc" ]; then
        step "fetching Debian's ns3 $debian_version source"
        mkdir -p "$downloads/lists/partial"
        codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
        echo "deb-src http://deb.debian.org/debian $codename main" >"$downloads/sources.list"
        apt_private=(-o "Dir::Etc::SourceList=$downloads/sources.list" -o Dir::Etc::SourceParts=/dev/null
                     -o "Dir::State::Lists=$downloads/lists" -o APT::Sandbox::User=root)
        apt-get "${apt_private[@]}" -qq update
        (cd "$downloads" && apt-get "${apt_private[@]}" -qq source --download-only "ns3=$debian_version")
    fi

    # A tree unpacked and configured for this key (an interrupted build) is built on.
    if [ "$(cat "$dir/tree-key" 2>/dev/null)" != "$key" ]; then
        step "unpacking into $dir (Debian's patches, then ${#patches[@]} of ours)"
        rm -rf "$dir"
        mkdir -p "$dir"
        dpkg-source --no-check -x "$downloads/ns3_$debian_version.dsc" "$dir/debian-source" >/dev/null
        mv "$dir/debian-source/ns-3.37" "$tree"
        rm -rf "$dir/debian-source"
        for p in "${patches[@]}"; do
            echo "  $p"
            patch -d "$tree" -p1 --quiet --forward <"$p"
        done

        step "configuring: ${configure_args[*]}"
        (cd "$tree" && ./ns3 configure "${configure_args[@]}" --prefix="$prefix" -- "${cmake_args[@]}" \
            >"$dir/configure.log" 2>&1) || { tail -40 "$dir/configure.log"; exit 1; }
        echo "$key" >"$dir/tree-key"
    fi

    step "building with $jobs jobs (about half an hour on 2 cores; log: $dir/build.log)"
    # cmake --build rather than ./ns3 build, whose -j does not reach ninja in 3.37.
    # Progress: every 50th of ninja's [step/total] lines, with the time.
    (cd "$tree" && cmake --build cmake-cache -j "$jobs" 2>&1) | tee "$dir/build.log" |
        awk '/^\[[0-9]+\/[0-9]+\]/ && ++n % 50 == 0 { cmd = "date +%H:%M:%S"; cmd | getline t; close(cmd); print "  " t " " $1; fflush() }' ||
        { tail -40 "$dir/build.log"; exit 1; }
    (cd "$tree" && cmake --install cmake-cache >"$dir/install.log" 2>&1) || { tail -20 "$dir/install.log"; exit 1; }
    echo "$key" >"$stamp"
    step "built and installed in $(( $(date +%s) - start )) s"
fi

ln -sfn "$dir" "$clone/build-ns3"
echo "build-ns3: ns-3 3.37 (Debian $debian_version, release, MPI, ${#patches[@]} patches) in build-ns3/prefix -> $prefix"

if $in_tree; then
    exec "$clone/scripts/ns3-in-tree.sh" "$tree"
fi
