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
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
launcher=()
if command -v ccache >/dev/null; then
    launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;LANG=C;LC_ALL=C;LC_CTYPE=C;LC_MESSAGES=C;CCACHE_BASEDIR=$(pwd -P);CCACHE_COMPILERCHECK=content;CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime;ccache")
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" "${launcher[@]}" >/dev/null
cmake --build build -j"$jobs"
