#!/usr/bin/env bash
# The module as an ns-3 user gets it: `cmake --install` of this build into a fresh prefix,
# then a user's program (this folder) configured with find_package(uniference) against that
# prefix alone, built and run. Its one message must take the link's alpha-beta time, computed
# here from the link: delay + (payload + headers) x 8 / rate, the headers being the module's
# message header (24 bytes), TCP with timestamps (32), IPv4 (20) and PPP (2).
#
#   run.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work.install.log" 2>&1 || { cat "$work.install.log"; exit 1; }
test -f "$work/prefix/lib/cmake/uniference/uniferenceConfig.cmake"
cmake -S "$here" -B "$work/user" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/user" >/dev/null
bytes=1000 rate_bps=10000000 delay_s=0.005
line=$("$work/user/one-message" --bytes=$bytes --rate=${rate_bps}bps --delay=${delay_s}s)
echo "$line"
measured=$(echo "$line" | sed -n 's/.*: \([0-9.]*\) s$/\1/p')
awk -v m="$measured" -v b=$bytes -v r=$rate_bps -v d=$delay_s 'BEGIN {
    expected = d + (b + 24 + 32 + 20 + 2) * 8 / r
    error = (m - expected) / expected
    printf "alpha-beta: %.9f s, measured %.9f s, error %+.3f%%\n", expected, m, 100 * error
    exit (error < -0.002 || error > 0.002) ? 1 : 0
}'
