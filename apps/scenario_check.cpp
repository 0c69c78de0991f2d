#include "apps/scenario_check.h"

#include "apps/json_checker.h"
#include "apps/registered.h"
#include "bridge/flow_level.h"
#include "bridge/collective_ops.h"
#include "bridge/network_registry.h"
#include "bridge/wan_models.h"
#include "compute/strategy.h"

#include <ns3/attribute-check.h>
#include <ns3/collective-helper.h>
#include <ns3/scheduled-collective.h>
#include <ns3/trace-condition.h>
#include <ns3/varying-link-helper.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

namespace uniference {

namespace {

// The ns-3 Attributes the scenario's own keys set on the objects they build: an
// ns3_defaults entry for one of them would be overridden without a word, so it is refused.
const std::map<std::string, std::string>& attributes_set_by_keys() {
  static const std::map<std::string, std::string> keys = {
      {"ns3::PointToPointNetDevice::DataRate", "/network/link/rate"},
      {"ns3::PointToPointChannel::Delay", "/network/link/delay"},
      {"ns3::PointToPointNetDevice::Mtu", "/network/link/mtu"},
      {"ns3::EthernetNetDevice::DataRate", "/network/link/rate"},
      {"ns3::EthernetChannel::Delay", "/network/link/delay"},
      {"ns3::EthernetNetDevice::Mtu", "/network/link/mtu"},
      {"ns3::IbNetDevice::DataRate", "/network/link/rate"},
      {"ns3::IbChannel::Delay", "/network/link/delay"},
      {"ns3::IbNetDevice::Mtu", "/network/link/ib_mtu"},
      {"ns3::IbNetDevice::VlBufferBytes", "/network/link/vl_buffer"},
      {"ns3::IbSwitch::Routing", "/network/switch/routing"},
      {"ns3::IbSwitch::ForwardingLatency", "/network/switch/latency"},
      {"ns3::IbSwitch::Marking", "/network/transport/congestion_control"},
      {"ns3::RdmaMessageTransport::CongestionControl", "/network/transport/congestion_control"},
      {"ns3::TcpL4Protocol::SocketType", "/network/transport/tcp_variant"},
      {"ns3::TcpSocket::SegmentSize", "/network/transport/segment_size"},
      {"ns3::TcpSocket::SndBufSize", "/network/transport/snd_buf"},
      {"ns3::TcpSocket::RcvBufSize", "/network/transport/rcv_buf"},
      {"ns3::VaryingLinkChannel::OutageMode", "/network/wan/outage"},
  };
  return keys;
}

// The keys of the InfiniBand-like fabric: refused on other links and transports, so that a
// key never silently does nothing; the topology's options and the placement, checked against
// the topology's size for `ranks` ranks.
void check_fabric(const Scenario& scenario, uint32_t ranks, NetworkConfig& net) {
  const std::string& source = scenario.source;
  const NetworkSpec& spec = scenario.network;
  const bool ib = net.link_model == "ib";
  auto only = [&](bool written, const std::string& pointer, const std::string& what) {
    if (written) {
      throw ScenarioError(source, pointer,
                          "applies to " + what + " only; this scenario's is '" +
                              (what == "transport rdma" ? net.transport : net.link_model) + "'");
    }
  };
  only(!ib && spec.link.ib_mtu, "/network/link/ib_mtu", "link model ib");
  only(!ib && spec.link.vl_buffer, "/network/link/vl_buffer", "link model ib");
  only(!ib && spec.switches.adaptive_routing, "/network/switch/routing", "link model ib");
  only(!ib && spec.switches.latency_ns, "/network/switch/latency", "link model ib");
  if (net.transport == "rdma" && !spec.transport.tcp_keys.empty()) {
    throw ScenarioError(source, spec.transport.tcp_keys.front(),
                        "applies to transport tcp only; this scenario's is 'rdma'");
  }
  only(!spec.transport.congestion_control.empty() && net.transport != "rdma",
       "/network/transport/congestion_control", "transport rdma");
  if (ib) {
    net.rdma.mtu = spec.link.ib_mtu.value_or(net.rdma.mtu);
    net.rdma.vl_buffer = spec.link.vl_buffer.value_or(net.rdma.vl_buffer);
    net.rdma.adaptive_routing = spec.switches.adaptive_routing.value_or(false);
    if (spec.switches.latency_ns) net.rdma.switch_latency = ns3::NanoSeconds(*spec.switches.latency_ns);
  }
  if (!spec.transport.congestion_control.empty()) {
    net.rdma.congestion_control =
        registered(rdma_congestion_controls(), spec.transport.congestion_control, source,
                   "/network/transport/congestion_control")
            .type_id();
  }

  for (const auto& [name, value] : spec.topology_options) net.topology_options[name] = value;
  if (!spec.placement.packed) net.placement = spec.placement.endpoint;
  const TopologyShape shape = topology_shape(net, ranks);
  if (shape.problem.empty()) return;
  std::string pointer = "/network/topology";
  if (!shape.option.empty()) {
    pointer = child("/network/topology_options", shape.option);
  } else if (shape.placement_rank >= 0) {
    pointer = child("/network/placement", std::to_string(shape.placement_rank));
  } else if (!net.placement.empty()) {
    pointer = "/network/placement";
  } else if (!net.topology_options.empty()) {
    pointer = "/network/topology_options";
  }
  throw ScenarioError(source, pointer, shape.problem);
}

// "topology 'a'" or "topologies a and b": the topologies an error says a key applies to.
std::string topologies_named(const std::vector<std::string>& names) {
  if (names.size() == 1) return "topology '" + names.front() + "'";
  std::string out = "topologies ";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

// /network/wan: the wide-area link of a topology whose sites it joins, which needs one and
// alone takes one.
void check_wan(const Scenario& scenario, const Topology& topology, NetworkConfig& net) {
  const std::string& source = scenario.source;
  const std::optional<WanSpec>& spec = scenario.network.wan;
  if (!spec) {
    if (topology.has_wide_area_link) {
      throw ScenarioError(source, "/network/wan",
                          "missing; topology '" + topology.name +
                              "' joins its sites by a wide-area link: give its model (one of " +
                              quoted_list(wan_models().names()) + ") and rate");
    }
    return;
  }
  if (!topology.has_wide_area_link) {
    const std::string takers = topologies_named(topologies_with(&Topology::has_wide_area_link));
    throw ScenarioError(source, "/network/wan",
                        "applies to " + takers + " only; this scenario's is '" + net.topology + "'");
  }
  const WanModel& model = registered(wan_models(), spec->model, source, "/network/wan/model");
  WanConfig& wan = net.wan;
  wan.model = model.name;
  if (spec->budget) {
    const ns3::DataRate rate =
        ns3::VaryingLinkHelper::ShannonRate(spec->budget->bandwidth_hz, spec->budget->snr_db);
    if (rate.GetBitRate() == 0) {
      throw ScenarioError(source, "/network/wan/budget",
                          "gives no rate: bandwidth x log2(1 + SNR) is below 1 bit/s");
    }
    wan.uplink = wan.downlink = rate;
  } else {
    wan.uplink = ns3::DataRate(spec->uplink_bps);
    wan.downlink = ns3::DataRate(spec->downlink_bps);
  }
  const ns3::TypeId condition = ns3::TypeId::LookupByName(model.condition);
  for (const auto& [name, value] : spec->attributes) {
    const std::string pointer = child("/network/wan/attributes", name);
    if (name == "File") {
      throw ScenarioError(source, pointer, "give the trace file as /network/wan/trace");
    }
    const std::string problem = ns3::CheckAttributeValue(condition, name, value);
    if (!problem.empty()) throw ScenarioError(source, pointer, problem);
    wan.attributes.emplace_back(name, value);
  }
  if (model.reads_file) {
    if (spec->trace.empty()) {
      throw ScenarioError(source, "/network/wan/trace",
                          "missing; model '" + model.name +
                              "' replays a CSV file (time_s,delay_ms,rate_mbps)");
    }
    std::ifstream in(spec->trace_path);
    if (!in) throw ScenarioError(source, "/network/wan/trace", "cannot read " + spec->trace_path);
    std::vector<ns3::TraceCondition::Sample> samples;
    const std::string problem = ns3::TraceCondition::Parse(in, spec->trace_path, samples);
    if (!problem.empty()) throw ScenarioError(source, "/network/wan/trace", problem);
    wan.attributes.emplace_back("File", spec->trace_path);
  } else if (!spec->trace.empty()) {
    std::string readers;
    for (const WanModel& reader : wan_models().entries()) {
      if (reader.reads_file) readers += (readers.empty() ? "'" : " or '") + reader.name + "'";
    }
    throw ScenarioError(source, "/network/wan/trace",
                        "applies to model " + readers + " only; this link's is '" + model.name +
                            "'");
  }
  wan.hold = spec->hold;
  wan.no_fade = spec->fade_off;
  if (spec->fade) {
    FadeConfig fade;
    fade.mean_clear_s = double(spec->fade->mean_clear_ns) * 1e-9;
    fade.mean_fade_s = double(spec->fade->mean_fade_ns) * 1e-9;
    fade.rate_factor = spec->fade->rate_factor;
    fade.recovery = ns3::NanoSeconds(spec->fade->recovery_ns);
    wan.fade = fade;
  }
  if (spec->loss) {
    wan.loss = LossConfig{spec->loss->p / 100, spec->loss->r / 100, spec->loss->one_minus_h / 100,
                          spec->loss->one_minus_k / 100};
  }
}

// Whether the algorithm can carry blocks of different sizes (all_to_all_v): asked of one
// instance, as the run would ask it.
bool takes_uneven_splits(const std::string& operation, const std::string& algorithm) {
  const auto scheduled = ns3::DynamicCast<ns3::ScheduledCollective>(
      ns3::CollectiveHelper(operation, algorithm).Create());
  return scheduled && scheduled->TakesUnevenSplits();
}

NetworkConfig checked_network(const Scenario& scenario, uint32_t ranks) {
  const std::string& source = scenario.source;
  const NetworkSpec& spec = scenario.network;
  NetworkConfig net;
  net.handling_mean_ns = scenario.devices.handling_latency.mean_ns;
  net.handling_samples_ns = scenario.devices.handling_latency.samples_ns;
  const Topology& topology = registered(topologies(), spec.topology, source, "/network/topology");
  net.topology = topology.name;
  // Without a transport kind, the topology's own, as for the link model.
  net.transport = spec.transport.kind_given ? registered(transport_kinds(), spec.transport.kind,
                                                         source, "/network/transport/kind")
                                                  .name
                                            : topology.transports.front();
  // Without a link model, the topology's first that the transport runs over.
  net.link_model =
      spec.link.model.empty()
          ? default_link_model(topology, net.transport)
          : registered(link_models(), spec.link.model, source, "/network/link/model").name;
  std::string problem = check_network_combination(net);
  if (!problem.empty()) throw ScenarioError(source, "/network/topology", problem);
  net.level = spec.transport.level;
  net.link_rate = ns3::DataRate(spec.link.rate_bps);
  net.link_delay = ns3::NanoSeconds(spec.link.delay_ns);
  if (spec.link.shaper) {
    if (!topology.takes_shaper) {
      const std::string takers = topologies_named(topologies_with(&Topology::takes_shaper));
      throw ScenarioError(source, "/network/link/shaper",
                          "applies to " + takers + " only; this scenario's is '" + net.topology +
                              "'");
    }
    if (net.transport != "tcp") {
      throw ScenarioError(source, "/network/link/shaper",
                          "applies to transport tcp only (a tbf shaper on Ethernet or IP "
                          "links); this scenario's is '" + net.transport + "'");
    }
    net.shaper = {ns3::DataRate(spec.link.shaper->rate_bps), spec.link.shaper->burst,
                  spec.link.shaper->limit};
  }
  check_fabric(scenario, ranks, net);
  if (!spec.partition.empty()) {
    const std::vector<std::string>& cut_on = topology.cut_on;
    if (std::find(cut_on.begin(), cut_on.end(), net.transport) == cut_on.end()) {
      throw ScenarioError(source, "/network/partition",
                          "applies to networks a run can cut across processes; topology '" +
                              net.topology + "' over " + net.transport + " is not one");
    }
    net.partition.insert(spec.partition.begin(), spec.partition.end());
  }
  if (const auto& intra = spec.intra_server_link) {
    if (!topology.has_intra_server_links) {
      throw ScenarioError(source, "/network/intra_server_link",
                          "applies to " +
                              topologies_named(topologies_with(&Topology::has_intra_server_links)) +
                              ", whose servers have intra-server cables; this scenario's is '" +
                              net.topology + "'");
    }
    if (intra->rate_bps > 0) net.rdma.intra_rate = ns3::DataRate(intra->rate_bps);
    if (intra->delay_ns > 0) net.rdma.intra_delay = ns3::NanoSeconds(intra->delay_ns);
  }
  check_wan(scenario, topology, net);
  net.mtu = spec.link.mtu;
  net.tcp_variant = registered(tcp_variants(), spec.transport.tcp_variant, source,
                               "/network/transport/tcp_variant")
                        .type_id();
  net.segment_size = spec.transport.segment_size;
  net.snd_buf = spec.transport.snd_buf;
  net.rcv_buf = spec.transport.rcv_buf;
  const FlowLevelProblem flow = flow_level_problem(net);
  if (!flow.reason.empty()) throw ScenarioError(source, flow.pointer, flow.reason);

  for (const Ns3Default& entry : spec.ns3_defaults) {
    const std::string pointer = child("/network/ns3_defaults", entry.name);
    auto owner = attributes_set_by_keys().find(entry.name);
    if (owner != attributes_set_by_keys().end()) {
      throw ScenarioError(source, pointer,
                          entry.name + " is set by " + owner->second +
                              " (or its default); set it there, not in both places");
    }
    problem = ns3::CheckAttributeDefault(entry.name, entry.value);
    if (!problem.empty()) throw ScenarioError(source, pointer, problem);
    net.ns3_defaults.emplace_back(entry.name, entry.value);
  }

  if (!scenario.collective_preset.empty()) {
    if (collective_presets().find(scenario.collective_preset) == nullptr) {
      throw ScenarioError(source, "/collectives/preset",
                          "expected a collective preset: one of " +
                              quoted_list(collective_presets().names()) + ", found \"" +
                              scenario.collective_preset + "\"");
    }
    net.collective_preset = scenario.collective_preset;
  }
  for (const CollectiveSpec& spec_of_op : scenario.collectives) {
    const std::string pointer = child("/collectives", spec_of_op.operation);
    const CollectiveOp* op = find_collective_op(spec_of_op.operation);
    if (op == nullptr) {
      std::vector<std::string> names;
      for (const CollectiveOp& known : collective_ops()) names.push_back(op_name(known.op));
      std::string detail = "unknown collective operation; known: " + quoted_list(names);
      std::string suggestion = closest(spec_of_op.operation, names);
      if (!suggestion.empty()) detail += " (did you mean \"" + suggestion + "\"?)";
      throw ScenarioError(source, pointer, detail);
    }
    const std::string& algorithm = spec_of_op.algorithm;
    if (!ns3::CollectiveHelper::IsRegistered(spec_of_op.operation, algorithm)) {
      std::vector<std::string> names = ns3::CollectiveHelper::GetAlgorithms(spec_of_op.operation);
      throw ScenarioError(source, child(pointer, "algorithm"),
                          "expected an algorithm of " + spec_of_op.operation + ": one of " +
                              quoted_list(names) + ", found \"" + algorithm + "\"");
    }
    // Expert parallelism exchanges uneven blocks (all_to_all_v), which an algorithm of equal
    // blocks cannot split: refused here, at its pointer, before the run would refuse it.
    const Strategy* strategy = strategies().find(scenario.parallel.strategy);
    if (strategy != nullptr && strategy->spreads_experts && op->op == OpType::kAllToAll &&
        !takes_uneven_splits(spec_of_op.operation, algorithm)) {
      throw ScenarioError(source, child(pointer, "algorithm"),
                          "the hierarchical all-to-all takes equal blocks only, and strategy ep "
                          "sends each peer its own number of tokens; use direct or pairwise");
    }
    const ns3::TypeId tid = ns3::CollectiveHelper::GetTypeId(spec_of_op.operation, algorithm);
    for (const auto& [name, value] : spec_of_op.attributes) {
      problem = ns3::CheckAttributeValue(tid, name, value);
      if (!problem.empty()) {
        throw ScenarioError(source, child(child(pointer, "attributes"), name), problem);
      }
    }
    net.collectives[op->op] = CollectiveChoice{algorithm, spec_of_op.attributes};
  }
  return net;
}

// pcap and FlowMonitor read ns3::Packets and IP headers; the RDMA fabric's packets are
// neither, so asking for them there would silently write nothing.
void check_outputs(const Scenario& scenario, const NetworkConfig& net) {
  if (scenario.outputs.report && !scenario.jobs.empty()) {
    throw ScenarioError(scenario.source, "/outputs/report",
                        "shows one job; results.json lists every job of /jobs");
  }
  if (net.level == "flow") {
    const std::string why = "; this scenario's /network/transport/level is 'flow', which has no "
                            "packets (the trace's link counters show the flows' load)";
    if (scenario.outputs.pcap) throw ScenarioError(scenario.source, "/outputs/pcap", "needs packets" + why);
    if (scenario.outputs.flow_monitor) {
      throw ScenarioError(scenario.source, "/outputs/flow_monitor", "needs packets" + why);
    }
  }
  if (net.transport == "tcp") return;
  const auto refuse = [&](bool asked, const std::string& pointer, const std::string& what) {
    if (!asked) return;
    throw ScenarioError(scenario.source, pointer,
                        "applies to transport tcp only (" + what +
                            "); this scenario's is '" + net.transport + "'");
  };
  refuse(scenario.outputs.pcap, "/outputs/pcap",
         "the fabric's packets are not ns-3 packets; see the trace's link counters");
  refuse(scenario.outputs.flow_monitor, "/outputs/flow_monitor",
         "FlowMonitor classifies IP flows; the fabric has no IP");
}

// What a fault needs of the network besides its target's name, which only the built network
// can check: ranks that exist, and, for a link fault, packets. On the RDMA fabric a link fault
// also turns on the queue pairs' retransmission, with NCCL's defaults unless the scenario sets
// them (/network/ns3_defaults): 4.096 us x 2^NCCL_IB_TIMEOUT (20) and NCCL_IB_RETRY_CNT (7).
std::vector<Fault> checked_faults(const Scenario& scenario, NetworkConfig& net, int ranks) {
  std::vector<Fault> faults;
  for (size_t i = 0; i < scenario.faults.size(); ++i) {
    const FaultSpec& spec = scenario.faults[i];
    const std::string at = child("/faults", std::to_string(i));
    Fault fault;
    for (FaultKind kind : {FaultKind::kLinkDown, FaultKind::kSwitchDown, FaultKind::kLossBurst,
                           FaultKind::kStraggler, FaultKind::kRankCrash}) {
      if (spec.kind == fault_kind_name(kind)) fault.kind = kind;
    }
    if (spec.rank >= ranks) {
      throw ScenarioError(scenario.source, child(at, "target"),
                          "this scenario has ranks rank0 to rank" + std::to_string(ranks - 1) +
                              ", not " + spec.target);
    }
    if (is_link_fault(fault.kind) && net.level == "flow") {
      throw ScenarioError(scenario.source, child(at, "kind"),
                          spec.kind + " needs packets to lose; this scenario's "
                          "/network/transport/level is 'flow' (use level \"packet\")");
    }
    const std::string timeout = "ns3::RdmaMessageTransport::RetransmitTimeout";
    const bool timeout_set = std::any_of(net.ns3_defaults.begin(), net.ns3_defaults.end(),
                                         [&](const auto& entry) { return entry.first == timeout; });
    if (is_link_fault(fault.kind) && net.transport == "rdma" && !timeout_set) {
      net.ns3_defaults.emplace_back(timeout, "4294967296ns");
    }
    fault.pointer = at;
    fault.target = spec.target;
    fault.rank = spec.rank;
    fault.at_ns = spec.at_ns;
    fault.for_ns = spec.for_ns;
    fault.loss = spec.loss;
    fault.factor = spec.factor;
    faults.push_back(std::move(fault));
  }
  return faults;
}

// Each job's ranks and compute, and the endpoints its array gives (an endpoint holds one rank);
// place_jobs gives the others theirs.
std::vector<CheckedJob> checked_jobs(const Scenario& scenario) {
  std::vector<CheckedJob> jobs;
  std::map<uint32_t, std::pair<const JobSpec*, size_t>> taken;  // endpoint -> job, rank
  int first = 0;
  for (const JobSpec& spec : scenario.jobs) {
    CheckedJob job;
    job.spec = &spec;
    job.first_rank = first;
    if (spec.traffic) {
      job.ranks = spec.traffic->ranks;
      if (spec.traffic->pattern == "all_to_all" && spec.traffic->bytes % (4 * uint64_t(job.ranks)) != 0) {
        throw ScenarioError(scenario.source, child(child(spec.pointer, "traffic"), "bytes"),
                            "an all_to_all of " + std::to_string(spec.traffic->bytes) + " bytes does not split into " +
                                std::to_string(job.ranks) + " blocks of whole fp32 elements");
      }
    } else {
      try {
        job.compute = check_compute(*spec.alone);
      } catch (const ScenarioError& e) {
        throw spec.at_job(e);
      }
      job.ranks = job.compute.ranks;
    }
    const std::string at = child(spec.pointer, "placement");
    if (!spec.placement.packed) {
      if (int(spec.placement.endpoint.size()) != job.ranks) {
        throw ScenarioError(scenario.source, at,
                            "gives " + std::to_string(spec.placement.endpoint.size()) +
                                " endpoints for the job's " + std::to_string(job.ranks) + " ranks");
      }
      job.endpoints = spec.placement.endpoint;
      for (size_t r = 0; r < job.endpoints.size(); ++r) {
        const auto [it, fresh] = taken.emplace(job.endpoints[r], std::make_pair(&spec, r));
        if (!fresh) {
          throw ScenarioError(scenario.source, child(at, std::to_string(r)),
                              "endpoint " + std::to_string(job.endpoints[r]) + " already holds rank " +
                                  std::to_string(it->second.second) + " of job \"" +
                                  it->second.first->name + "\" (" + it->second.first->pointer +
                                  "); an endpoint holds one rank");
        }
      }
    }
    first += job.ranks;
    jobs.push_back(std::move(job));
  }
  if (std::all_of(jobs.begin(), jobs.end(), [](const CheckedJob& job) { return job.spec->traffic.has_value(); })) {
    throw ScenarioError(scenario.source, "/jobs",
                        "every job is traffic, which runs until the model jobs finish; give one a model");
  }
  return jobs;
}

// The endpoints of the jobs without an array, in job order: "packed" takes the lowest free ones;
// "spread" one in each group of `shape` (a leaf, an edge switch, a server) in turn, the lowest
// free there, over the groups the network has (at least `shape.endpoints`, and every endpoint an
// array names).
void place_jobs(std::vector<CheckedJob>& jobs, const TopologyShape& shape) {
  std::set<uint32_t> taken;
  uint32_t endpoints = shape.endpoints;
  for (const CheckedJob& job : jobs) {
    for (uint32_t endpoint : job.endpoints) {
      taken.insert(endpoint);
      endpoints = std::max(endpoints, endpoint + 1);
    }
  }
  const auto lowest_free = [&](uint32_t from, uint32_t below) {
    for (uint32_t e = from; e < below; ++e) {
      if (taken.count(e) == 0) return e;
    }
    return below;
  };
  const uint32_t group = shape.group == 0 ? std::max(endpoints, 1u) : shape.group;
  const uint32_t groups = (endpoints + group - 1) / group;
  for (CheckedJob& job : jobs) {
    if (!job.endpoints.empty()) continue;
    uint32_t next_group = 0;
    for (int r = 0; r < job.ranks; ++r) {
      uint32_t endpoint = UINT32_MAX;
      for (uint32_t tried = 0; job.spec->placement.spread && tried < groups && endpoint == UINT32_MAX; ++tried) {
        const uint32_t g = (next_group + tried) % groups;
        const uint32_t free = lowest_free(g * group, std::min(endpoints, (g + 1) * group));
        if (free < std::min(endpoints, (g + 1) * group)) {
          endpoint = free;
          next_group = g + 1;
        }
      }
      // Packed, or every group full: the lowest free endpoint, past the network's if need be
      // (the topology then says whether it has it).
      if (endpoint == UINT32_MAX) endpoint = lowest_free(0, UINT32_MAX);
      taken.insert(endpoint);
      job.endpoints.push_back(endpoint);
    }
  }
}

// The network for every job's ranks, each on its endpoint; a placement the topology refuses is
// reported at the job's placement.
NetworkConfig checked_job_network(const Scenario& scenario, const std::vector<CheckedJob>& jobs) {
  Scenario placed = scenario;
  placed.network.placement.packed = false;
  placed.network.placement.endpoint.clear();
  for (const CheckedJob& job : jobs) {
    for (uint32_t endpoint : job.endpoints) placed.network.placement.endpoint.push_back(endpoint);
  }
  const auto ranks = uint32_t(placed.network.placement.endpoint.size());
  try {
    return checked_network(placed, ranks);
  } catch (const ScenarioError& e) {
    const std::string placement = "/network/placement";
    if (e.pointer().rfind(placement, 0) != 0) throw;
    // "/network/placement/<world rank>": the job's rank, under its own key.
    const std::string rest = e.pointer().substr(placement.size());
    const int rank = rest.size() > 1 ? std::stoi(rest.substr(1)) : 0;
    for (const CheckedJob& job : jobs) {
      if (rank < job.first_rank || rank >= job.first_rank + job.ranks) continue;
      const std::string at = child(job.spec->pointer, "placement");
      if (job.spec->placement.packed) {
        const std::string how = job.spec->placement.spread ? "\"spread\"" : "\"packed\"";
        throw ScenarioError(e.source(), at, how + " puts rank " + std::to_string(rank - job.first_rank) +
                                                " on endpoint " + std::to_string(job.endpoints[size_t(rank - job.first_rank)]) +
                                                ": " + e.detail());
      }
      throw ScenarioError(e.source(), rest.size() > 1 ? child(at, std::to_string(rank - job.first_rank)) : at,
                          e.detail());
    }
    throw;
  }
}

}  // namespace

CheckedScenario check_scenario(const Scenario& scenario) {
  CheckedScenario checked;
  static_cast<CheckedCompute&>(checked) = check_compute(scenario);
  if (!scenario.jobs.empty()) {
    checked.jobs = checked_jobs(scenario);
    checked.ranks = checked.jobs.back().first_rank + checked.jobs.back().ranks;
    // The network's size for every rank, packed, says how many endpoints and groups it has.
    const NetworkConfig sized = checked_network(scenario, uint32_t(checked.ranks));
    place_jobs(checked.jobs, topology_shape(sized, uint32_t(checked.ranks)));
    checked.network = checked_job_network(scenario, checked.jobs);
  } else {
    checked.network = checked_network(scenario, uint32_t(checked.ranks));
  }
  check_outputs(scenario, checked.network);
  checked.faults = checked_faults(scenario, checked.network, checked.ranks);
  return checked;
}

}  // namespace uniference
