#!/usr/bin/env bash
# Configures and builds everything into build/: optimised (-O2), without debug info, which
# takes nearly as long to compile as the code itself in the libtorch-heavy files (measured:
# 31 s against 19 s for one bridge file) and would double CI's two builds. For gdb,
# configure a folder of your own with -DCMAKE_BUILD_TYPE=RelWithDebInfo.
#
# Where ccache is installed, compiles go through it, so a second build of the same sources
# (CI's host stage after its fresh-Debian stage, a clone elsewhere) reuses the first's
# objects: paths are made relative to the clone (base_dir), the compiler is known by its
# content rather than its mtime (the chroot's and the host's are the same package), the
# locale ccache hashes is the same everywhere (a chroot's empty LANG and a host's C.UTF-8
# would otherwise miss every object), and the sloppiness is what ccache needs to cache files
# compiled against the precompiled header.
#
#   scripts/build.sh                  against Debian's packaged ns-3, into build/
#   scripts/build.sh --ns3 source     against the ns-3 scripts/build-ns3.sh built from Debian's
#                                     source (release, MPI), into build-ns3src/
#   scripts/build.sh --sanitize       with ASan and UBSan against Debian's ns-3, into build-asan/
#                                     (cmake/sanitizers.cmake; scripts/sanitize.sh runs the suite)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
ns3=package
sanitize=false
while (($#)); do
    case "$1" in
    --sanitize) sanitize=true; shift ;;
    --ns3) ns3=${2:-}; shift 2 || { echo "build.sh: --ns3 takes package or source" >&2; exit 2; } ;;
    --ns3=*) ns3=${1#--ns3=}; shift ;;
    *) echo "build.sh: unknown argument '$1' (--ns3 package|source, --sanitize)" >&2; exit 2 ;;
    esac
done
case "$ns3" in
package) build=build; ns3_args=() ;;
source)
    build=build-ns3src
    prefix=$(./scripts/build-ns3.sh --print-home)/prefix
    if [ ! -f "$prefix/uniference-build-key" ]; then
        echo "build.sh: no ns-3 built from source at $prefix; run ./scripts/build-ns3.sh first" >&2
        exit 1
    fi
    ns3_args=(-DCMAKE_PREFIX_PATH="$prefix")
    ;;
*) echo "build.sh: --ns3 takes package or source, not '$ns3'" >&2; exit 2 ;;
esac
if $sanitize; then
    [ "$ns3" = package ] || { echo "build.sh: --sanitize builds against Debian's ns-3 only" >&2; exit 2; }
    build=build-asan
    ns3_args=(-DUNIFERENCE_SANITIZE=address,undefined
              -DUNIFERENCE_BOOST_SOURCE="$(./scripts/boost-source.sh)")
fi
launcher=()
if command -v ccache >/dev/null; then
    launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;LANG=C;LC_ALL=C;LC_CTYPE=C;LC_MESSAGES=C;CCACHE_BASEDIR=$(pwd -P);CCACHE_COMPILERCHECK=content;CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime;ccache")
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" "${launcher[@]}" "${ns3_args[@]}" >/dev/null
cmake --build "$build" -j"$jobs"
