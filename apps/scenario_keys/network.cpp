// /network: the simulated network between the ranks.
#include "apps/scenario_keys/sections.h"

namespace uniference {

std::vector<ScenarioKey> network_keys() {
  return {
      ScenarioKey(
          "/network", "object", "The simulated network between the ranks.",
          R"({"type": "object", "additionalProperties": false, "anyOf": [{"required": ["preset"]}, {"required": ["topology", "link"]}]})")
          .required(),
      ScenarioKey("/network/preset", "a [network preset](#network-presets)",
                  "A whole `/network` of a well-known cluster (`cm384`, `h800-400g`): its "
                  "topology, options, links, switches and transport, as if written here. Every key "
                  "written beside it wins over the preset's, objects merging key by key "
                  "(`\"link\": {\"rate\": \"1600Gbps\"}` keeps the preset's delay and MTU).")
          .defaults_to("none"),
      ScenarioKey("/network/topology", "a [topology](#topologies)",
                  "How the ranks' nodes are wired.")
          .defaults_to("*required* without a preset"),
      ScenarioKey(
          "/network/topology_options", "object of positive integers",
          "The topology's sizes by name, e.g. `{\"k\": 4}` for a fat-tree; which names a topology "
          "reads and their defaults are in [topology options](#topology-options). An option the "
          "topology does not read is an error at `/network/topology_options/<name>`, one that does "
          "not fit (an odd `k`) too.",
          R"({"type": "object", "propertyNames": {}, "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 4294967295}})")
          .defaults_to("`{}`"),
      ScenarioKey(
          "/network/placement", "`\"packed\"` \\| array of integers ≥ 0",
          "Which endpoint each rank sits on: `\"packed\"` puts rank r on endpoint r; an array "
          "gives the endpoint index of each rank (`[0, 4, 8, 12]`: four ranks in four pods of a k "
          "= 4 fat-tree), one entry per rank, each endpoint at most once. Endpoints are numbered "
          "as the [topology](#topology-options) says. An endpoint that does not exist or is taken "
          "twice is an error at `/network/placement/<rank>`, a length other than the ranks at "
          "`/network/placement`. Topologies whose endpoints are all alike (`star`, `star-routed`, "
          "`wifi-cell`), and those that place ranks by an option (`edge-cloud`, `lte-cell`), "
          "accept only `\"packed\"`.",
          R"({"default": "packed", "oneOf": [{"const": "packed"}, {"type": "array", "minItems": 1, "uniqueItems": true, "items": {"type": "integer", "minimum": 0}}]})"),
      ScenarioKey(
          "/network/partition", "object of integers ≥ 0",
          "For a run cut across processes (`uniference run --processes K`, `mpirun -np K`): "
          "nodes pinned to a process by name, e.g. `{\"spine0\": 1}`; the others go as the "
          "topology cuts (a fat-tree by pod, a leaf-spine by leaf, a two-tier superpod by "
          "server, the star's ranks in blocks with the switch in process 0). A fabric pins its "
          "switches (`leaf0`, `spine1`, `pod0-agg1`: the names of `links` in results.json), and an "
          "endpoint goes with the switch of its first cable; the star pins `hub` and its ranks "
          "(`rank2`). Applies to [topologies](#topologies) that a run can cut "
          "([distributed runs](distributed.md)); a name the topology has not got, or a process "
          "the run has not, is an error at `/network/partition/<name>`. One process ignores it.",
          R"({"type": "object", "propertyNames": {}, "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 4294967295}})")
          .defaults_to("`{}`"),
      ScenarioKey(
          "/network/link", "object",
          "Every link of the topology (for `rail-optimised` and `two-tier`, every link but the "
          "intra-server ones).",
          R"({"type": "object", "additionalProperties": false, "anyOf": [{"required": ["preset"]}, {"required": ["profile"]}, {"required": ["rate", "delay"]}]})")
          .defaults_to("*required* without a preset"),
      ScenarioKey("/network/link/model", "a [link model](#link-models)",
                  "What every link of the topology is. Each topology is built from the link models "
                  "it lists, its natural one first: `ethernet` for `star`, `point-to-point` for "
                  "`star-routed` and `edge-cloud` (its sites' links), `wifi` for `wifi-cell`.")
          .defaults_to("the topology's first"),
      ScenarioKey("/network/link/preset", "a [link preset](#link-presets)",
                  "Rate and delay of a well-known link (`hdr`, `ndr`, `nvlink`, `25gbe`, "
                  "`100gbe`). `rate` and `delay` given beside it win over the preset's.")
          .defaults_to("none"),
      ScenarioKey(
          "/network/link/profile", "string, a `.json` file",
          "A measured link: the network profile `uniference profile-network --out FILE.json` wrote "
          "(docs/deploy.md), relative to the scenario's folder. Its `star_link` gives the rate and "
          "delay, rounded to whole bit/s and ns; `rate` and `delay` given beside it win. Not with "
          "`preset`. A file that cannot be read, is not a network profile or lacks `star_link` is "
          "an error at this key naming the file.",
          R"({"type": "string", "pattern": "\\.json$"})")
          .defaults_to("none"),
      ScenarioKey("/network/link/rate", "string, [data rate](#data-rates)",
                  "Link data rate; positive, a whole number of bit/s. Link model `wifi`: the "
                  "stations send at the fastest HE MCS (20 MHz, one stream) within it.")
          .unit(Unit::kDataRate)
          .defaults_to("*required* without a preset or profile"),
      ScenarioKey("/network/link/delay", "string, [duration](#durations)",
                  "One-way propagation delay; positive, a whole number of ns. Link model `wifi`: "
                  "neighbouring stations stand this far apart at c (33 ns: 10 m).")
          .unit(Unit::kDuration)
          .defaults_to("*required* without a preset or profile"),
      ScenarioKey("/network/link/mtu", "integer, 576 … 9000",
                  "Largest IP packet on the link, bytes.",
                  R"({"type": "integer", "minimum": 576, "maximum": 9000, "default": 1500})"),
      ScenarioKey("/network/link/shaper", "object",
                  "Transport `tcp`: a token-bucket shaper, ns-3's `TbfQueueDisc`, on both ends of "
                  "every link (the rank's device and the switch's or router's port), as `tc qdisc "
                  "add dev D root tbf rate R burst B limit L` shapes a Linux testbed's links "
                  "(validation/). A full bucket leaves at the link's rate, then frames leave at "
                  "the shaper's. Linux charges each packet with its 14-byte Ethernet header; the "
                  "simulated shapers charge the IP packet, at both ends alike, at `rate` × mtu / "
                  "(mtu + 14), so full frames pass exactly as fast as on the testbed (a 52-byte "
                  "ACK is charged 52.5 bytes where Linux charges 66). Refused with `rdma`.",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("none"),
      ScenarioKey("/network/link/shaper/rate", "string, [data rate](#data-rates)",
                  "Rate the bucket refills at.")
          .unit(Unit::kDataRate)
          .required(),
      ScenarioKey("/network/link/shaper/burst", "integer ≥ mtu + 14",
                  "Bucket, bytes: what passes at once after a pause (tc's `burst`). A frame larger "
                  "than the bucket could never leave.",
                  R"({"type": "integer", "minimum": 590, "maximum": 4294967295})")
          .required(),
      ScenarioKey("/network/link/shaper/limit", "integer ≥ mtu + 14",
                  "Bytes queued before the shaper drops (tc's `limit`). On the switch side it is "
                  "exactly this. On a rank's own side the simulated shaper stands for the NIC, "
                  "which holds a sender back rather than drop its packets, so its limit there is "
                  "raised to what the rank's connections can have unacknowledged (2 × snd_buf per "
                  "peer); the testbed's rank-side tbf likewise queues 1000 frames (validation/).",
                  R"({"type": "integer", "minimum": 590, "maximum": 4294967295})")
          .required(),
      ScenarioKey(
          "/network/link/ib_mtu", "`256` \\| `512` \\| `1024` \\| `2048` \\| `4096`",
          "Link model `ib`: payload bytes per packet (the InfiniBand MTU); every packet carries 26 "
          "header bytes on top (local routing header 8, base transport header 12, CRCs 4 + 2). "
          "`/network/link/mtu` keeps its IP meaning and does not apply to `ib` links.",
          R"({"enum": [256, 512, 1024, 2048, 4096], "default": 4096})"),
      ScenarioKey(
          "/network/link/vl_buffer", "integer ≥ ib_mtu + 26",
          "Link model `ib`: receive buffer per virtual lane, bytes. Credit-based flow control lets "
          "a sender transmit only into free buffer, so a link carries at most about buffer / "
          "round-trip time; it must hold one whole packet.",
          R"({"type": "integer", "minimum": 282, "maximum": 4294967295, "default": 65536})"),
      ScenarioKey("/network/switch", "object", "Link model `ib`: the fabric's switches.",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("all defaults"),
      ScenarioKey(
          "/network/switch/routing", "`\"ecmp\"` \\| `\"adaptive\"`",
          "How a switch chooses among equal-cost output ports: `ecmp` hashes each flow (source, "
          "destination) to one path; `adaptive` sends each packet to the least backlogged port.",
          R"({"enum": ["ecmp", "adaptive"], "default": "ecmp"})"),
      ScenarioKey("/network/switch/latency", "string, [duration](#durations), 0 or more",
                  "Forwarding latency of a switch: from a packet's header arriving to the packet "
                  "being able to leave. Switches forward cut-through.",
                  R"({"default": "100ns"})")
          .unit(Unit::kDuration),
      ScenarioKey("/network/transport", "object", "The message transport between the ranks.",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("all defaults"),
      ScenarioKey("/network/transport/kind", "a [transport](#transports)",
                  "Reliable message transport collectives and send/recv run over: `tcp` on `star` "
                  "(Ethernet), `star-routed`, and `fat-tree` and `leaf-spine` (Ethernet switches, "
                  "ECMP by flow hash); `rdma` on `star` (its InfiniBand-like twin, link model `ib` "
                  "by default then) and on the InfiniBand-like topologies. A transport "
                  "runs only over its own link models (`tcp`: `ethernet`, `point-to-point`, "
                  "`wifi`; `rdma`: `ib`). The TCP keys below (`tcp_variant`, `segment_size`, "
                  "`snd_buf`, `rcv_buf`) are refused with `rdma`, `congestion_control` with `tcp`.")
          .defaults_to("the topology's first"),
      ScenarioKey("/network/transport/level", "`\"packet\"` or `\"flow\"`",
                  "How the network is simulated. `packet`: every packet through the devices, "
                  "queues and switches. `flow`: every message is a flow on the same path through "
                  "the same topology, sharing each link max-min fairly with the flows on it, with "
                  "the transport's per-packet headers, handshakes and acknowledgements by the "
                  "rules of [the flow level](network.md#the-flow-level); far faster, and refused "
                  "where it cannot represent the network (wireless cells, wide-area links, "
                  "adaptive routing, pcap, FlowMonitor).",
                  R"({"enum": ["packet", "flow"], "default": "packet"})"),
      ScenarioKey("/network/transport/tcp_variant", "a [TCP variant](#tcp-variants)",
                  "Congestion control.", R"({"default": "cubic"})"),
      ScenarioKey(
          "/network/transport/segment_size", "positive integer ≤ mtu − 52",
          "TCP payload bytes per segment. 52 = IPv4 header 20 + TCP header 20 + timestamp option "
          "12. Without this key segments fill the MTU, so jumbo frames get jumbo segments.",
          R"({"type": "integer", "minimum": 1, "maximum": 8948, "default": 1448})")
          .defaults_to("mtu − 52 (`1448` for the default mtu)"),
      ScenarioKey("/network/transport/snd_buf", "positive integer < 2^32",
                  "TCP send buffer, bytes.",
                  R"({"type": "integer", "minimum": 1, "maximum": 4294967295, "default": 131072})"),
      ScenarioKey("/network/transport/rcv_buf", "positive integer < 2^32",
                  "TCP receive buffer, bytes.",
                  R"({"type": "integer", "minimum": 1, "maximum": 4294967295, "default": 131072})"),
      ScenarioKey("/network/transport/congestion_control",
                  "an [RDMA congestion control](#rdma-congestion-controls)",
                  "Transport `rdma`: the queue pairs' rate control. With `ib` or `dcqcn`, switches "
                  "mark packets leaving congested outputs (`ns3::IbSwitch::MarkingMinBytes` and "
                  "friends can be set in `ns3_defaults`).",
                  R"({"default": "none"})"),
      ScenarioKey(
          "/network/ns3_defaults", "object",
          "ns-3 Attribute defaults by Config name, e.g. `{\"ns3::TcpSocket::InitialCwnd\": "
          "\"10\"}`; values (string, number or boolean) as ns-3 reads them from text. Applied "
          "before the network is built; the keys above are set on the objects themselves and so "
          "win. Each name and value is checked against ns-3's TypeId database before the run (an "
          "unknown name or a bad value is an error at `/network/ns3_defaults/<name>`). An "
          "Attribute that a key above sets (`ns3::TcpSocket::SegmentSize`, `SndBufSize`, "
          "`RcvBufSize`, `ns3::TcpL4Protocol::SocketType`, "
          "`ns3::PointToPointNetDevice::DataRate`/`Mtu`, `ns3::PointToPointChannel::Delay`, "
          "`ns3::EthernetNetDevice::DataRate`/`Mtu`, `ns3::EthernetChannel::Delay`) is refused "
          "here, naming the key that owns it.",
          R"({"type": "object", "propertyNames": {"pattern": "^ns3::[A-Za-z0-9_:]+::[A-Za-z0-9_]+$"}, "additionalProperties": {"type": ["string", "number", "boolean"]}})")
          .defaults_to("`{}`"),
      ScenarioKey("/network/wan", "object",
                  "Topology `edge-cloud`: the wide-area link between the edge site's router and "
                  "the cloud site's, an `ns3::VaryingLinkChannel` (see docs/network.md, [Wide-area "
                  "links](network.md#wide-area-links-satellite-sub-thz-and-replayed-traces)). Its "
                  "delay, rate and availability are asked at each packet's send time. Both ends "
                  "carry `/network/link/mtu`.",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("*required* for `edge-cloud`, refused otherwise"),
      ScenarioKey("/network/wan/model", "a [wide-area link model](#wide-area-link-models)",
                  "The path: `fixed`, `leo`, `geo`, `thz` or `trace`.", R"({"type": "string"})")
          .required(),
      ScenarioKey("/network/wan/rate", "string, [data rate](#data-rates)",
                  "Rate of both directions.")
          .unit(Unit::kDataRate)
          .defaults_to("*required* without `uplink` and `downlink` or a `budget`"),
      ScenarioKey("/network/wan/uplink", "string, [data rate](#data-rates)",
                  "Each direction's rate: edge → cloud, cloud → edge.")
          .unit(Unit::kDataRate)
          .defaults_to("`rate`"),
      ScenarioKey("/network/wan/downlink", "", "Rate cloud -> edge; wins over rate.")
          .unit(Unit::kDataRate)
          .joins_previous_row(),
      ScenarioKey(
          "/network/wan/budget", "object `{\"bandwidth_hz\": B, \"snr_db\": S}`",
          "Instead of rates: both directions at the Shannon capacity B · log2(1 + 10^(S/10)) (50 "
          "GHz at 10 dB: 173 Gbit/s). Not with `rate`, `uplink` or `downlink`.",
          R"({"type": "object", "additionalProperties": false})")
          .defaults_to("none"),
      ScenarioKey("/network/wan/budget/bandwidth_hz", "", "Channel bandwidth, Hz.",
                  R"({"type": "number", "exclusiveMinimum": 0})")
          .required()
          .in_parent_row(),
      ScenarioKey("/network/wan/budget/snr_db", "", "Signal to noise ratio, dB.",
                  R"({"type": "number"})")
          .required()
          .in_parent_row(),
      ScenarioKey(
          "/network/wan/attributes", "object",
          "ns-3 Attributes of the model's `LinkCondition` (`ns3::LeoPassCondition`: `Altitude`, "
          "`MinElevation`, `MaxElevation`, `PassTime`, `Hops`, `HandoverInterval`, "
          "`HandoverOutage`, `HandoverDelayStep`; `ns3::GeoCondition`: `Altitude`, `Elevation`, "
          "`Hops`; `ns3::FixedDelayCondition`: `Delay`), over the model's own defaults; each name "
          "and value is checked against ns-3's TypeId database (an error at "
          "`/network/wan/attributes/<name>`).",
          R"({"type": "object", "additionalProperties": {"type": ["string", "number", "boolean"]}})")
          .defaults_to("`{}`"),
      ScenarioKey("/network/wan/trace", "string, a `.csv` file",
                  "The measured link to replay, relative to the scenario's folder: header "
                  "`time_s,delay_ms,rate_mbps`, then rows at increasing times; each row holds "
                  "until the next, a rate of 0 is an outage. A file that cannot be read or parsed "
                  "is an error here naming the file and line.",
                  R"({"type": "string", "minLength": 1})")
          .defaults_to("*required* for `trace`, refused otherwise"),
      ScenarioKey("/network/wan/outage", "`\"drop\"` \\| `\"hold\"`",
                  "A packet sent while the link is out (a handover, a blocked beam, a trace's rate "
                  "0) is lost, or held at the sender until the outage ends and then sent after the "
                  "packets held before it.",
                  R"({"enum": ["drop", "hold"]})")
          .defaults_to("`\"drop\"`"),
      ScenarioKey(
          "/network/wan/fade", "object, or `false`",
          "Fades: exponential clear spells of mean `mean_clear` (1/λ) alternating with fades of "
          "mean `mean_fade` (D), so the link is faded λD / (1 + λD) of the time. While faded the "
          "rate is `rate_factor` × the clear rate (rain fade; default 0: the link is out, a "
          "blocked beam), and after a fade that took it out it stays out for `recovery` (beam "
          "recovery, default 0). `false` turns off the `thz` model's own blockage.",
          R"({"oneOf": [{"const": false}, {"type": "object", "additionalProperties": false}]})")
          .defaults_to("none (`thz`: human blockage)"),
      ScenarioKey("/network/wan/fade/mean_clear", "",
                  "Mean clear spell: 1 / (fades per clear second).")
          .unit(Unit::kDuration)
          .required()
          .in_parent_row(),
      ScenarioKey("/network/wan/fade/mean_fade", "", "Mean fade.")
          .unit(Unit::kDuration)
          .required()
          .in_parent_row(),
      ScenarioKey("/network/wan/fade/rate_factor", "",
                  "Rate while faded as a fraction of the clear rate; 0: the link is out.",
                  R"({"type": "number", "minimum": 0, "exclusiveMaximum": 1})")
          .in_parent_row(),
      ScenarioKey("/network/wan/fade/recovery", "",
                  "Out after a fade that took the link out (beam recovery).")
          .unit(Unit::kDuration)
          .in_parent_row(),
      ScenarioKey("/network/wan/loss", "object `{\"p\", \"r\", \"1-h\", \"1-k\"}`",
                  "Gilbert-Elliott loss on both ends, in percent, with the meaning and defaults of "
                  "netem's `loss gemodel p r 1-h 1-k` (`r` 100, `1-h` 100, `1-k` 0), so a "
                  "testbed's netem and the simulation take the same numbers.",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("none"),
      ScenarioKey("/network/wan/loss/p", "", "Good -> bad, percent per packet.",
                  R"({"type": "number", "minimum": 0, "maximum": 100})")
          .required()
          .in_parent_row(),
      ScenarioKey("/network/wan/loss/r", "", "Bad -> good, percent per packet; default 100.",
                  R"({"type": "number", "minimum": 0, "maximum": 100})")
          .in_parent_row(),
      ScenarioKey("/network/wan/loss/1-h", "", "Loss in the bad state, percent; default 100.",
                  R"({"type": "number", "minimum": 0, "maximum": 100})")
          .in_parent_row(),
      ScenarioKey("/network/wan/loss/1-k", "", "Loss in the good state, percent; default 0.",
                  R"({"type": "number", "minimum": 0, "maximum": 100})")
          .in_parent_row(),
      ScenarioKey(
          "/network/intra_server_link", "object `{\"rate\", \"delay\"}`",
          "Topologies `rail-optimised` and `two-tier`: the NVLink-like cables between a server's "
          "GPUs and its switch, each key defaulting on its own. Refused on other topologies.",
          R"({"type": "object", "additionalProperties": false})")
          .defaults_to("the `nvlink` preset: 900 GB/s, 10 ns"),
      ScenarioKey("/network/intra_server_link/rate", "",
                  "Data rate in ns-3 DataRate syntax: a decimal number and a unit (bps, b/s, Bps, "
                  "B/s with k/K, M, G, T prefixes, or Ki, Mi, Gi, Ti binary prefixes with b/s or "
                  "B/s), or a bare number of bit/s. Must be positive and a whole number of bit/s.")
          .unit(Unit::kDataRate)
          .in_parent_row(),
      ScenarioKey("/network/intra_server_link/delay", "",
                  "One-way propagation delay: a decimal number and one of ns, us, ms, s. Must be "
                  "positive and a whole number of ns.")
          .unit(Unit::kDuration)
          .in_parent_row(),
  };
}

}  // namespace uniference
