#!/usr/bin/env bash
# Renders a Chrome trace (a run's trace.json) as speedscope shows it, to a PNG, offline:
# speedscope's static page and the trace are served on 127.0.0.1 and headless Chromium
# screenshots speedscope's default "Time Order" view of the first track (rank 0).
#
#   scripts/render-trace.sh TRACE.json OUT.png
#
# A developer tool, not a build dependency (scripts/setup.sh does not install it). Needs:
#   Chromium:    apt-get install chromium          (or set CHROMIUM to a browser binary)
#   speedscope:  npm install --prefix build-tools speedscope
#                (build-tools/ is git-ignored; or set SPEEDSCOPE_DIR to its dist/release)
#   python3, for the local HTTP server.
# Optional: RENDER_SIZE (default 1600,900), RENDER_TITLE (default the trace's file name),
# RENDER_TIMEOUT seconds for Chromium (default 120).
#
# Why a server rather than file://: speedscope loads a profile given by #profileURL= with
# fetch(), which Chromium refuses for file:// pages.
set -euo pipefail

if (($# != 2)); then
    echo "usage: $0 TRACE.json OUT.png" >&2
    exit 2
fi
trace=$1
out=$2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
speedscope=${SPEEDSCOPE_DIR:-$root/build-tools/node_modules/speedscope/dist/release}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
size=${RENDER_SIZE:-1600,900}
limit=${RENDER_TIMEOUT:-120}
title=${RENDER_TITLE:-$(basename "$trace")}

[ -f "$trace" ] || { echo "render-trace: no trace at $trace" >&2; exit 2; }
[ -f "$speedscope/index.html" ] || {
    echo "render-trace: speedscope not found at $speedscope" >&2
    echo "  install it: npm install --prefix build-tools speedscope" >&2
    exit 2
}
[ -n "$chromium" ] || { echo "render-trace: no chromium (apt-get install chromium)" >&2; exit 2; }

work=$(mktemp -d)
server=""
cleanup() {
    if [ -n "$server" ]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$work/site"
cp -R "$speedscope/." "$work/site/"
cp "$trace" "$work/site/trace.json"

# Port 0: the kernel picks a free port; -u so the line that names it is not buffered.
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$work/site" >"$work/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 100); do
    port=$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$work/server.log" | head -n1)
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
[ -n "$port" ] || { echo "render-trace: the HTTP server did not start" >&2; cat "$work/server.log" >&2; exit 1; }

base="http://127.0.0.1:$port"
title=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$title")
url="$base/index.html#profileURL=$base/trace.json&title=$title"

flags=(--headless --disable-gpu --enable-unsafe-swiftshader --use-angle=swiftshader
       --hide-scrollbars --no-first-run --no-default-browser-check --disable-extensions
       --user-data-dir="$work/profile" --window-size="$size"
       --virtual-time-budget=20000 --screenshot="$work/shot.png")
# Chromium's sandbox cannot run as root; anyone else keeps it.
[ "$(id -u)" -ne 0 ] || flags+=(--no-sandbox)

if ! timeout --kill-after=10 "$limit" "$chromium" "${flags[@]}" "$url" >"$work/chromium.log" 2>&1; then
    echo "render-trace: chromium failed or ran past ${limit}s" >&2
    tail -n 20 "$work/chromium.log" >&2
    exit 1
fi
[ -s "$work/shot.png" ] || { echo "render-trace: chromium wrote no screenshot" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
cp "$work/shot.png" "$out"
echo "render-trace: $out"
