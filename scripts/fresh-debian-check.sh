#!/usr/bin/env bash
# Proves README.md's two commands work on a truly clean Debian 12: bootstraps a minimal
# bookworm root (debootstrap --variant=minbase), copies the repository into it and, inside
# chroot as root, runs exactly
#   ./scripts/setup.sh && ./scripts/build.sh && ./build/apps/uniference run scenarios/quickstart.json
#   ./scripts/test.sh
# Needs root (debootstrap, mount, chroot). The root lives under build-fresh-debian/ (ignored)
# and is always unmounted and removed on exit, failure or Ctrl-C. With CCACHE_DIR set, that
# compiler cache is shared with the root's builds.
#
# Usage: scripts/fresh-debian-check.sh [--worktree]
#   default     copy the committed tree (git archive HEAD): what a clean clone holds
#   --worktree  copy the tracked files as they are in the working tree (uncommitted edits too)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd -P)

source_mode=head
# With CCACHE_DIR set, the root's builds share that compiler cache (bind-mounted), so a build
# after this check (CI's host stage) reuses the objects compiled here, and the check reuses
# what earlier builds put there (CI keeps one cache between runs): a cache hit needs the same
# compiler and headers, so a package the root lacks still fails the build.
# Downloaded packages are kept between checks in ~/.cache/uniference-ns3/fresh-debian-debs (or
# $UNIFERENCE_NS3_HOME's): debootstrap's --cache-dir and the root's apt archive. The root still
# installs every package itself, from files apt checks against the signed index; only the
# download is saved (two or three minutes).
shared_ccache=${CCACHE_DIR:-}
debs=${UNIFERENCE_NS3_HOME:-$HOME/.cache/uniference-ns3}/fresh-debian-debs
case "${1:-}" in
    "") ;;
    --worktree) source_mode=worktree ;;
    *) echo "usage: $0 [--worktree]" >&2; exit 2 ;;
esac

if [ "$(id -u)" -ne 0 ]; then
    echo "fresh-debian-check: must run as root (debootstrap, mount, chroot)" >&2
    exit 2
fi

suite=bookworm
t_start=$(date +%s)
summary=()

fmt_secs() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
banner() { echo; echo "== fresh Debian 12: $* =="; }

# --- The host's Debian mirror, so the check downloads from where apt already does. ---------
# Prints "URI SUITE" for every enabled deb source (deb822 .sources and one-line .list).
apt_sources() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk '
            function flush() {
                if (types ~ /(^| )deb( |$)/ && enabled != "no")
                    for (i = 1; i <= nu; i++) for (j = 1; j <= ns; j++) print u[i], s[j]
                types = ""; enabled = ""; nu = 0; ns = 0
            }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            tolower($1) == "types:"   { types = " " substr($0, index($0, ":") + 1) " "; gsub(/[ \t]+/, " ", types) }
            tolower($1) == "enabled:" { enabled = tolower($2) }
            tolower($1) == "uris:"    { for (k = 2; k <= NF; k++) u[++nu] = $k }
            tolower($1) == "suites:"  { for (k = 2; k <= NF; k++) s[++ns] = $k }
            END { flush() }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        # deb [options] URI SUITE COMPONENTS...
        sed -E -n 's/^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+)[[:space:]]+([^[:space:]]+).*/\2 \3/p' "$f"
    done
}
sources=$(apt_sources)
mirror=$(awk -v s="$suite" '$2 == s { print $1; exit }' <<<"$sources")
mirror=${mirror:-http://deb.debian.org/debian}
security=$(awk -v s="$suite-security" '$2 == s { print $1; exit }' <<<"$sources")

# --- Root, mounts and cleanup. --------------------------------------------------------------
mkdir -p build-fresh-debian
root=$(mktemp -d "$repo/build-fresh-debian/root.XXXXXX")
cpu_tmp="$root.cpu"
stage_pid=""
stage_name=""
stage_t0=0

# Mount points under $root, deepest first (mountinfo escapes spaces as \040).
mounts_under_root() {
    local mp
    while read -r _ _ _ _ mp _; do
        mp=$(printf '%b' "$mp")
        case "$mp" in "$root" | "$root"/*) echo "$mp" ;; esac
    done </proc/self/mountinfo | sort -r
}

cleanup() {
    local rc=$? p left t0
    trap - EXIT INT TERM
    set +e
    t0=$(date +%s)
    # Stop what this script started: the running stage and anything still inside the root.
    if [ -n "$stage_pid" ]; then
        kill -TERM "$stage_pid" 2>/dev/null
        summary+=("$(printf '%-24s %s wall  INTERRUPTED' "$stage_name:" "$(fmt_secs $((t0 - stage_t0)))")")
    fi
    for sig in TERM KILL; do
        left=0
        for p in /proc/[0-9]*; do
            if [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ]; then
                kill -"$sig" "${p#/proc/}" 2>/dev/null && left=1
            fi
        done
        ((left)) && sleep 2
    done
    # Every mount under the root, including any debootstrap left behind; lazily if busy.
    mounts_under_root | while read -r mp; do
        umount "$mp" 2>/dev/null || umount -l "$mp"
    done
    if [ -n "$(mounts_under_root)" ]; then
        echo "fresh-debian-check: still mounted under $root; not removing it" >&2
        mounts_under_root >&2
        rc=1
    else
        # --one-file-system: never follow a mount into the host, whatever happened above.
        rm -rf --one-file-system "$root"
        rm -f "$cpu_tmp"
        rmdir build-fresh-debian 2>/dev/null
    fi
    summary+=("$(printf '%-24s %s' "unmount and remove:" "$(fmt_secs $(($(date +%s) - t0)))")")
    echo
    echo "== fresh Debian 12: stage times =="
    printf '  %s\n' "${summary[@]}"
    echo "  total: $(fmt_secs $(($(date +%s) - t_start)))"
    if ((rc == 0)); then echo "== fresh Debian 12: PASSED =="; else echo "== fresh Debian 12: FAILED (exit $rc) =="; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# CPU seconds (user + sys) used so far by this shell's reaped children: `times` in this shell
# (not a subshell, whose counters start at zero), read back through a file.
cpu_now() {
    times >"$cpu_tmp"
    cpu_val=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] }
                             printf "%d", s }' "$cpu_tmp")
}

# Runs one timed stage, reporting wall time and CPU time (CPU / cores estimates the wall time
# on an otherwise idle machine). In the background plus wait, so Ctrl-C or SIGTERM reaches
# the trap at once instead of after the stage ends.
stage() {
    local name=$1 t0 c0 rc=0 dt dc line
    shift
    banner "$name"
    t0=$(date +%s)
    cpu_now
    c0=$cpu_val
    stage_name=$name
    stage_t0=$t0
    "$@" &
    stage_pid=$!
    wait "$stage_pid" || rc=$?
    stage_pid=""
    dt=$(($(date +%s) - t0))
    cpu_now
    dc=$((cpu_val - c0))
    line="$(printf '%-24s %s wall, %s CPU' "$name:" "$(fmt_secs "$dt")" "$(fmt_secs "$dc")")"
    ((rc == 0)) || line+="  FAILED (exit $rc)"
    summary+=("$line")
    echo "== fresh Debian 12: $name took $(fmt_secs "$dt") wall, $(fmt_secs "$dc") CPU (exit $rc) =="
    return "$rc"
}

# Inside the root, as root, with a login-like clean environment (nothing from the host's but
# the shared compiler cache, when there is one).
in_root() {
    local cache=()
    [ -z "$shared_ccache" ] || cache=(CCACHE_DIR=/root/ccache-shared)
    chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" "${cache[@]}" \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/bash -c "cd /root/uniference-ns3 && $1"
}

mount_root() {
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # Same sources as a fresh install: the release, its updates and, if the host has it, security.
    {
        echo "deb $mirror $suite main"
        echo "deb $mirror $suite-updates main"
        [ -z "$security" ] || echo "deb $security $suite-security main"
    } >"$root/etc/apt/sources.list"
    mount -t proc proc "$root/proc"
    mount -t sysfs sysfs "$root/sys"
    mount --bind /dev "$root/dev"
    # apt and dpkg want a pty; libtorch and gloo may use POSIX shared memory.
    mount --bind /dev/pts "$root/dev/pts"
    mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
    mkdir -p "$debs/partial" "$root/var/cache/apt/archives"
    mount --bind "$debs" "$root/var/cache/apt/archives"
    if [ -n "$shared_ccache" ]; then
        mkdir -p "$shared_ccache" "$root/root/ccache-shared"
        mount --bind "$shared_ccache" "$root/root/ccache-shared"
    fi
}

copy_repo() {
    mkdir -p "$root/root/uniference-ns3"
    if [ "$source_mode" = head ]; then
        echo "copying the committed tree: $(git rev-parse --short HEAD)"
        git archive HEAD | tar -x -C "$root/root/uniference-ns3"
    else
        echo "copying tracked files from the working tree (HEAD $(git rev-parse --short HEAD))"
        # --ignore-failed-read: a tracked file deleted in the working tree is simply absent.
        git ls-files -z | tar --null -T - --ignore-failed-read -c | tar -x -C "$root/root/uniference-ns3"
    fi
}

echo "== fresh Debian 12: root $root, mirror $mirror${security:+, security $security} =="

if ! command -v debootstrap >/dev/null; then
    stage "install debootstrap on host" bash -c \
        'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap'
fi
# An https mirror needs CA certificates before apt inside can fetch anything; a real install
# from such a mirror has them too.
include=()
[[ "$mirror $security" != *https://* ]] || include=(--include=ca-certificates)
mkdir -p "$debs"
stage "debootstrap minbase" debootstrap --variant=minbase --cache-dir="$(cd "$debs" && pwd -P)" \
    "${include[@]}" "$suite" "$root" "$mirror"
mount_root
copy_repo
# README.md, command 1, one stage per part (same && chain: set -e stops at the first failure).
stage "setup.sh (apt install)" in_root './scripts/setup.sh'
stage "build.sh" in_root './scripts/build.sh'
stage "quickstart run" in_root './build/apps/uniference run scenarios/quickstart.json'
# README.md, command 2.
stage "test.sh (test suite)" in_root './scripts/test.sh'
