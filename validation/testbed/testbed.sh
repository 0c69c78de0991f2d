#!/usr/bin/env bash
# Emulated star testbed built from Linux network namespaces.
#
#   testbed.sh caps                      report which qdiscs this kernel offers
#   testbed.sh up N RATE                 build the star (RATE e.g. 100mbit, 1gbit, or none)
#   testbed.sh down                      remove everything this script created
#   testbed.sh run N RATE -- CMD [ARG..] up, run CMD in the root namespace, print the
#                                        star's counters (stats), down (always)
#   testbed.sh stats                     packets sent and dropped by every shaper, and every
#                                        rank's TCP retransmissions and loss recoveries
#   testbed.sh params RATE               print the tbf parameters used for RATE
#
# The hub-side tbf queues `limit` bytes, a switch port's buffer: what does not fit is dropped.
# The rank-side tbf stands for the rank's NIC and queues 1000 frames (Linux's default
# txqueuelen), as a host queues what its own TCP sends rather than drop it (TCP small queues
# let a socket put up to tcp_limit_output_bytes there); RANK_LIMIT=BYTES sets it instead
# (RANK_LIMIT=75000 at 100mbit is the switch-port limit on both ends, under which the ranks'
# TCP loses 5-10% of what it sends at its own veth: validation/README.md).
#
# With CAPTURE=FILE, run records every frame through rank 0's hub port (ufb0, both
# directions, whole frames) into FILE while CMD runs, for validation/testbed/gloo_streams.py
# (needs tcpdump).
#
# Topology: N namespaces uf-tb0..uf-tb<N-1>, one per rank, each with one veth
# ("veth0", address 198.18.0.<i+1>/24) whose peer ("ufb<i>") is a port of the
# Linux bridge "br0" living in its own namespace uf-tb-br (the "hub").  The root
# namespace gets no address and no interface.  With RATE != none a tbf qdisc
# shapes BOTH directions of every rank's link: egress of veth0 (rank -> hub, the
# rank's NIC) and egress of ufb<i> (hub -> rank, the switch port).  This is a
# full-duplex star with RATE per direction per link, like the simulator's star.
#
# Needs root, iproute2 (ip, tc), ethtool, ping (iputils-ping).  Addresses are in 198.18.0.0/15
# (RFC 2544 benchmarking range) and never leave the namespaces.
set -euo pipefail

PREFIX=uf-tb
BR_NS=uf-tb-br
PROBE_NS=uf-tb-probe
MTU=1500
SUBNET=198.18.0
RANK_IF=veth0

die() { echo "testbed.sh: $*" >&2; exit 1; }

# The tools `up` runs, named with their Debian packages, so a missing one is said as such
# rather than surfacing later as an unreachable rank or offloads left on.
need_tools() {
    local tool missing=()
    for tool in ip:iproute2 tc:iproute2 ethtool:ethtool ping:iputils-ping; do
        command -v "${tool%%:*}" >/dev/null || missing+=("${tool%%:*} (apt-get install ${tool#*:})")
    done
    (( ${#missing[@]} == 0 )) || die "missing tools: ${missing[*]}"
}

# rate string (tc syntax, *bit units only) -> bits per second (integer)
rate_bps() {
    local r=${1,,}
    [[ $r =~ ^([0-9]+(\.[0-9]+)?)(bit|kbit|mbit|gbit|tbit)$ ]] \
        || die "rate '$1' not understood (use e.g. 100mbit, 1gbit)"
    local num=${BASH_REMATCH[1]} unit=${BASH_REMATCH[3]} mul
    case $unit in
        bit) mul=1 ;; kbit) mul=1000 ;; mbit) mul=1000000 ;;
        gbit) mul=1000000000 ;; tbit) mul=1000000000000 ;;
    esac
    awk -v n="$num" -v m="$mul" 'BEGIN { printf "%.0f\n", n * m }'
}

# burst = max(rate x 1 ms, 2 x MTU) bytes; limit = burst + rate x 5 ms bytes
tbf_burst() { local b; b=$(( $1 / 8 / 1000 )); (( b < 2 * MTU )) && b=$(( 2 * MTU )); echo $b; }
tbf_limit() { echo $(( $(tbf_burst "$1") + $1 / 8 * 5 / 1000 )); }
rank_limit() { echo "${RANK_LIMIT:-$(( 1000 * (MTU + 14) ))}"; }

cmd_params() {
    local rate=$1
    if [[ ${rate,,} == none ]]; then echo "tbf: none (unshaped veth)"; return; fi
    local bps; bps=$(rate_bps "$rate")
    echo "tbf: rate $rate ($bps bit/s) burst $(tbf_burst "$bps") B limit $(tbf_limit "$bps") B" \
         "(burst = max(rate x 1 ms, 2 x MTU), limit = burst + rate x 5 ms), MTU $MTU," \
         "on egress of bridge-side veth; the same with limit $(rank_limit) B" \
         "($([[ -n ${RANK_LIMIT:-} ]] && echo RANK_LIMIT || echo 1000 frames)) on egress of rank-side veth"
}

cmd_caps() {
    ip netns del "$PROBE_NS" 2>/dev/null || true
    ip netns add "$PROBE_NS"
    # shellcheck disable=SC2064
    trap "ip netns del $PROBE_NS 2>/dev/null || true" RETURN
    ip -n "$PROBE_NS" link add p0 type veth peer name p1
    ip -n "$PROBE_NS" link set p0 up
    echo "kernel: $(uname -r)"
    local q args
    for q in netem tbf htb fq fq_codel; do
        case $q in
            netem) args="delay 1ms" ;; tbf) args="rate 1mbit burst 3000 limit 30000" ;;
            htb) args="default 1" ;; *) args="" ;;
        esac
        # shellcheck disable=SC2086
        if ip netns exec "$PROBE_NS" tc qdisc add dev p0 root $q $args 2>/dev/null; then
            echo "qdisc $q: present"
            ip netns exec "$PROBE_NS" tc qdisc del dev p0 root 2>/dev/null || true
        else
            echo "qdisc $q: ABSENT"
        fi
    done
}

offloads_off() { # ns dev
    ip netns exec "$1" ethtool -K "$2" tso off gso off gro off >/dev/null 2>&1 \
        || echo "testbed.sh: warning: could not turn offloads off on $1/$2" >&2
}

shape() { # ns dev bps [limit]
    ip netns exec "$1" tc qdisc replace dev "$2" root tbf rate "$3bit" \
        burst "$(tbf_burst "$3")" limit "${4:-$(tbf_limit "$3")}"
}

cmd_up() {
    local n=${1:-} rate=${2:-}
    [[ $n =~ ^[0-9]+$ ]] && (( n >= 1 && n <= 250 )) || die "usage: up N RATE (1 <= N <= 250)"
    [[ -n $rate ]] || die "usage: up N RATE"
    need_tools
    [[ -z ${RANK_LIMIT:-} || ${RANK_LIMIT} =~ ^[0-9]+$ ]] || die "RANK_LIMIT: bytes, not '$RANK_LIMIT'"
    local bps=0
    [[ ${rate,,} == none ]] || bps=$(rate_bps "$rate")
    if ip netns list | awk '{print $1}' | grep -qE "^${PREFIX}(-br|[0-9]+)$"; then
        die "testbed namespaces already exist; run '$0 down' first"
    fi
    trap 'echo "testbed.sh: up failed, tearing down" >&2; cmd_down' ERR

    ip netns add "$BR_NS"
    ip -n "$BR_NS" link set lo up
    ip netns exec "$BR_NS" sysctl -qw net.bridge.bridge-nf-call-iptables=0 2>/dev/null || true
    ip netns exec "$BR_NS" sysctl -qw net.bridge.bridge-nf-call-ip6tables=0 2>/dev/null || true
    ip netns exec "$BR_NS" sysctl -qw net.bridge.bridge-nf-call-arptables=0 2>/dev/null || true
    ip -n "$BR_NS" link add br0 type bridge stp_state 0 forward_delay 0
    ip -n "$BR_NS" link set br0 up

    local i ns
    for (( i = 0; i < n; i++ )); do
        ns=$PREFIX$i
        ip netns add "$ns"
        ip -n "$ns" link set lo up
        # created inside the hub namespace, peer moved straight into the rank ns:
        # nothing ever appears in the root namespace.
        ip -n "$BR_NS" link add "ufb$i" mtu $MTU type veth peer name "$RANK_IF" netns "$ns"
        ip -n "$ns" link set "$RANK_IF" mtu $MTU
        ip -n "$ns" addr add "$SUBNET.$(( i + 1 ))/24" dev "$RANK_IF"
        ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 2>/dev/null || true
        ip -n "$BR_NS" link set "ufb$i" master br0
        offloads_off "$ns" "$RANK_IF"
        offloads_off "$BR_NS" "ufb$i"
        if (( bps > 0 )); then
            shape "$ns" "$RANK_IF" "$bps" "$(rank_limit)"
            shape "$BR_NS" "ufb$i" "$bps"
        fi
        ip -n "$BR_NS" link set "ufb$i" up
        ip -n "$ns" link set "$RANK_IF" up
    done
    # wait until every rank can reach rank 0 (bridge ports forwarding, ARP done)
    local ok
    for (( i = 1; i < n; i++ )); do
        ok=0
        for _ in $(seq 50); do
            if ip netns exec "$PREFIX$i" ping -c1 -W1 -q "$SUBNET.1" >/dev/null 2>&1; then ok=1; break; fi
            sleep 0.1
        done
        (( ok )) || die "rank $i cannot reach $SUBNET.1"
    done
    trap - ERR
    echo "testbed up: $n ranks, star via bridge in $BR_NS, $(cmd_params "$rate")"
}

cmd_down() {
    local ns
    for ns in $(ip netns list | awk '{print $1}' | grep -E "^${PREFIX}([0-9]+|-br|-probe)$" || true); do
        ip netns del "$ns" 2>/dev/null || true
    done
}

# The kernel's own counters of the star: what each tbf sent and dropped (a rank's TCP sees
# a drop at its own veth as a loss, as at the hub), and what each rank's TCP retransmitted.
cmd_stats() {
    local ns dev
    for ns in $(ip netns list | awk '{print $1}' | grep -E "^${PREFIX}([0-9]+|-br)$" | sort -V); do
        if [[ $ns == "$BR_NS" ]]; then
            for dev in $(ip -n "$ns" -o link show type veth | awk -F'[ :@]+' '{print $2}'); do
                tbf_counters "$ns" "$dev" "$dev (hub -> rank)"
            done
            continue
        fi
        tbf_counters "$ns" "$RANK_IF" "$ns $RANK_IF (rank -> hub)"
        echo "stats: $ns tcp: $(ip netns exec "$ns" nstat -asz 2>/dev/null | awk '
            $1 == "TcpOutSegs" { out = $2 } $1 == "TcpRetransSegs" { re = $2 }
            $1 == "TcpExtTCPSackRecovery" { sack = $2 } $1 == "TcpExtTCPTimeouts" { rto = $2 }
            $1 == "TcpExtTCPLostRetransmit" { lost = $2 }
            END { printf "%d segments sent, %d retransmitted, %d SACK recoveries, %d lost retransmissions, %d timeouts", out, re, sack, lost, rto }')"
    done
}
tbf_counters() { # ns dev label: a shaped device's line of `stats` (none where unshaped)
    ip netns exec "$1" tc -s qdisc show dev "$2" | tr -d ',' | awk -v label="$3" \
        '/^ Sent/ { printf "stats: %s tbf: %s bytes, %s packets, %s dropped\n", label, $2, $4, $7 }'
}

cmd_run() {
    local n=${1:-} rate=${2:-}
    shift 2 || die "usage: run N RATE -- CMD..."
    [[ ${1:-} == -- ]] && shift
    (( $# > 0 )) || die "usage: run N RATE -- CMD..."
    if [[ -n ${CAPTURE:-} ]]; then
        command -v tcpdump >/dev/null || die "CAPTURE needs tcpdump (apt-get install tcpdump)"
    fi
    local capture=
    trap 'stop_capture; cmd_down' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    cmd_up "$n" "$rate"
    if [[ -n ${CAPTURE:-} ]]; then
        # tcpdump drops its privileges to its own user: the file is made for it first.
        : > "$CAPTURE" && chmod a+w "$CAPTURE"
        ip netns exec "$BR_NS" tcpdump -i ufb0 -s 0 -U -w "$CAPTURE" 2>/dev/null &
        capture=$!
        sleep 1  # until it listens
    fi
    # In the background, so that a signal to this script tears down at once instead of
    # after the command (bash runs traps only between foreground commands); the command
    # is stopped first. stdin stays the script's.
    "$@" 0<&0 &
    local child=$! rc=0
    trap 'kill -TERM $child 2>/dev/null; wait $child; exit 130' INT
    trap 'kill -TERM $child 2>/dev/null; wait $child; exit 143' TERM
    wait $child || rc=$?
    stop_capture
    cmd_stats
    return $rc
}
stop_capture() {
    [[ -n ${capture:-} ]] || return 0
    kill -INT "$capture" 2>/dev/null || true
    wait "$capture" 2>/dev/null || true
    capture=
    echo "testbed: frames through ufb0 in $CAPTURE"
}

[[ $(id -u) -eq 0 ]] || die "must run as root"
case ${1:-} in
    caps)   cmd_caps ;;
    params) shift; cmd_params "${1:?RATE}" ;;
    up)     shift; cmd_up "$@" ;;
    down)   cmd_down ;;
    run)    shift; cmd_run "$@" ;;
    stats)  cmd_stats ;;
    *)      sed -n '2,/^# Topology/{/^# Topology/!p}' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
