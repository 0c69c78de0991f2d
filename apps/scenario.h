// A scenario: one JSON file that says what to run (model, parallelism, workload), on what
// (devices, network) and what to write. docs/scenarios.md is the reference for the format;
// scenarios/schema.json is the same reference for editors and validators.
//
// Reading checks every key's place, type and range, once, so the rest of the program can
// trust a Scenario. Names (presets, strategies, topologies, algorithms, ns-3 Attributes)
// are kept as written and checked against the registries by scenario_check.h. A bad file
// is reported with the file, the JSON pointer (RFC 6901) of the offending value, what was
// expected and what was found, and nothing else in the run has started.
#pragma once

#include "apps/scenario_error.h"
#include "apps/units.h"
#include "compute/device_profile.h"
#include "compute/replay_table.h"
#include "compute/serving/disaggregation_spec.h"
#include "compute/serving/requests.h"
#include "compute/serving/scheduler.h"
#include "compute/parallel_degrees.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

enum class ComputeMode { kModeled, kMeasured, kReplay };

// "modeled" / "measured", as written in scenario files.
const char* compute_mode_name(ComputeMode mode);

struct ModelSpec {
  std::string preset;  // a model preset name (compute's registry)
  int layers = 0;      // the preset's first `layers` decoder layers only; 0: all of them
};

// /workload kind serving: requests arriving over time, batched by a scheduler.
struct ServingSpec {
  ArrivalSpec arrivals;
  LengthSpec prompt;             // /workload/prompt_tokens
  LengthSpec output;             // /workload/new_tokens
  SchedulerConfig scheduler;     // kv_cache_tokens 0: room for max_batch longest requests
  int64_t slo_ttft_ns = 0;       // 0: no objective
  int64_t slo_tpot_ns = 0;
  Disaggregation disaggregation;  // prefill and decode pools; off unless written
};

struct WorkloadSpec {
  std::string kind = "single";   // a workload kind (compute's registry)
  int prompt_tokens = 0;         // single and batch; serving: the longest prompt
  int new_tokens = 0;            // single and batch; serving: the longest answer
  int batch = 1;                 // prompts served together (batch)
  ServingSpec serving;

  bool is_serving() const { return kind == "serving"; }
  // Serving: the scheduler's KV-cache positions, room for max_batch of the longest
  // requests when the scenario does not say.
  int64_t kv_cache_tokens() const {
    const SchedulerConfig& s = serving.scheduler;
    return s.kv_cache_tokens > 0 ? s.kv_cache_tokens
                                 : s.max_batch * (int64_t(prompt_tokens) + new_tokens - 1);
  }
};

// One rank's device, or the default of every rank.
struct RankDevice {
  std::string profile = "cpu";  // a device profile name, or a profile file ("*.json")
  std::optional<DeviceProfileSpec> file;  // the profile file's contents, when it is one
  double slowdown = 1.0;        // measured time is multiplied by this
  double efficiency = 1.0;      // fraction of peak a modeled device reaches, in (0, 1]
};

// A host's latency as /devices gives it: the mean of an exponential (a duration), or
// measured delays (a file); neither: none.
struct LatencySpec {
  int64_t mean_ns = 0;
  std::vector<int64_t> samples_ns;
};

struct DeviceSpec : RankDevice {
  std::string dtype = "fp32";    // the dtype compute is charged in (fp32, bf16, fp16)
  LatencySpec wake_latency;      // after a blocking wait, until the rank runs (KernelConfig)
  LatencySpec handling_latency;  // from a message's arrival to its listener (NetworkConfig)
  int host_cores = 0;      // ranks share a host's cores (Kernel::share_cores); 0: no sharing
  int ranks_per_host = 0;  // consecutive ranks per host; 0: every rank on one host
  std::vector<RankDevice> ranks;  // per rank, when given (heterogeneous devices)
};

// /network/link/shaper: a token-bucket shaper on both ends of every link, as a Linux testbed's
// `tc ... tbf rate R burst B limit L`.
struct ShaperSpec {
  uint64_t rate_bps = 0;  // tokens per second, in bits
  std::string rate_text;  // as written
  uint32_t burst = 0;     // bucket, bytes: what passes at once after a pause
  uint32_t limit = 0;     // bytes a shaper queues before it drops
};

struct LinkSpec {
  std::string model;                     // a link model name; empty: the topology's first
  std::string rate_text;                 // as written, for display ("1Gbps")
  std::string delay_text;                // as written, for display ("50us")
  uint64_t rate_bps = 0;                 // bits per second
  int64_t delay_ns = 0;                  // one-way propagation delay
  uint32_t mtu = 1500;                   // bytes, IP packet size limit
  std::string preset;                    // a link preset name; its rate and delay are filled in
  std::string profile;                   // a network profile file, as written; likewise
  std::optional<ShaperSpec> shaper;      // none unless written
  // Link model ib only; unset when not written.
  std::optional<uint32_t> ib_mtu;        // payload bytes per packet: 256, 512, ... 4096
  std::optional<uint32_t> vl_buffer;     // receive buffer per virtual lane, bytes
};

struct TransportSpec {
  std::string kind = "tcp";            // a transport name (the bridge's registry)
  std::string tcp_variant = "cubic";   // a TCP variant name (the bridge's registry)
  uint32_t segment_size = 1448;        // TCP payload bytes per segment
  uint32_t snd_buf = 131072;           // TCP send buffer, bytes
  uint32_t rcv_buf = 131072;           // TCP receive buffer, bytes
  bool kind_given = false;             // kind written; else the topology's first transport
  std::vector<std::string> tcp_keys;   // pointers of the TCP keys written, refused for rdma
  std::string congestion_control;      // rdma: a name of the bridge's registry; empty: unset
  std::string level = "packet";        // "packet" or "flow"
};

// /network/switch: the switches of an InfiniBand-like fabric (link model ib).
struct SwitchSpec {
  std::optional<bool> adaptive_routing;  // "adaptive" or "ecmp"
  std::optional<int64_t> latency_ns;     // forwarding latency
  std::string latency_text;              // as written
};

// /network/placement: the endpoint of each rank.
struct PlacementSpec {
  bool packed = true;              // rank r on endpoint r
  bool spread = false;             // /jobs/<n>/placement "spread": a rank per leaf (server) in turn
  std::vector<uint32_t> endpoint;  // otherwise, endpoint[r] for rank r
};

// One entry of /network/ns3_defaults: an ns-3 Attribute default by its Config name.
struct Ns3Default {
  std::string name;   // "ns3::TcpSocket::InitialCwnd"
  std::string value;  // as ns-3 reads it from text ("10")
};

// /network/wan/fade: exponential clear spells and fades.
struct FadeSpec {
  int64_t mean_clear_ns = 0;
  int64_t mean_fade_ns = 0;
  double rate_factor = 0;  // 0: out while faded
  int64_t recovery_ns = 0;
};

// /network/wan/loss: Gilbert-Elliott, in percent as netem's `loss gemodel p r 1-h 1-k`.
struct LossSpec {
  double p = 0, r = 100, one_minus_h = 100, one_minus_k = 0;
};

// /network/wan/budget: a link budget that gives the rate (Shannon capacity).
struct BudgetSpec {
  double bandwidth_hz = 0;
  double snr_db = 0;
};

// /network/wan: the wide-area link of topology edge-cloud.
struct WanSpec {
  std::string model;                    // a wide-area link model name (the bridge's registry)
  uint64_t uplink_bps = 0;              // edge -> cloud; 0 with a budget
  uint64_t downlink_bps = 0;            // cloud -> edge
  std::string rate_text;                // as written, for display ("20Mbps / 100Mbps")
  std::optional<BudgetSpec> budget;     // instead of rates
  std::vector<std::pair<std::string, std::string>> attributes;  // the path's ns-3 Attributes
  std::string trace;                    // as written; model trace only
  std::string trace_path;               // resolved against the scenario's folder
  bool hold = false;                    // outage "hold": packets wait; else "drop"
  std::optional<FadeSpec> fade;         // written
  bool fade_off = false;                // "fade": false
  std::optional<LossSpec> loss;
};

// /network/intra_server_link: the NVLink-like cables inside a server (rail-optimised, two-tier).
struct IntraServerLinkSpec {
  uint64_t rate_bps = 0;  // 0: not written (the nvlink preset's 900 GB/s)
  int64_t delay_ns = 0;   // 0: not written (10 ns)
};

struct NetworkSpec {
  std::string preset;    // a network preset name, filled in before the rest was read; or empty
  std::string topology;  // a topology name (the bridge's registry)
  LinkSpec link;
  TransportSpec transport;
  std::vector<Ns3Default> ns3_defaults;  // in key order
  SwitchSpec switches;
  // /network/topology_options: the topology's sizes by name, checked against the topology.
  std::vector<std::pair<std::string, uint32_t>> topology_options;
  PlacementSpec placement;
  // /network/partition: node names pinned to processes, for runs across processes.
  std::vector<std::pair<std::string, uint32_t>> partition;
  std::optional<WanSpec> wan;
  std::optional<IntraServerLinkSpec> intra_server_link;
};

// One entry of /collectives: the algorithm of an operation and its Attributes.
struct CollectiveSpec {
  std::string operation;  // "all_reduce", ...
  std::string algorithm;  // "ring", ...
  std::vector<std::pair<std::string, std::string>> attributes;  // name, value text
};

// One entry of /faults: a fault injected on purpose (bridge/faults.h has their meaning).
struct FaultSpec {
  std::string kind;    // link_down, switch_down, loss_burst, straggler, rank_crash
  std::string target;  // a cable direction, both directions, a node, or "rankN"
  int rank = -1;       // straggler and rank_crash: N
  int64_t at_ns = 0;
  int64_t for_ns = 0;  // 0: to the end of the run
  double loss = 1;     // loss_burst
  double factor = 1;   // straggler
};

struct OutputSpec {
  bool trace = true;    // trace.json (Chrome / Perfetto)
  bool results = true;  // results.json
  uint32_t link_samples = 200;  // intervals of the trace's link counters; 0: none
  uint64_t trace_max_events = 1000000;  // spans and messages the trace keeps, earliest first
  bool pcap = false;            // one pcap per device (transport tcp)
  bool flow_monitor = false;    // flowmon.xml from ns-3's FlowMonitor (transport tcp)
  bool report = false;          // report.html, made from results.json and trace.json
};

// /jobs/<n>/traffic: background traffic in place of a model.
struct TrafficSpec {
  std::string pattern;     // all_reduce, all_to_all, permutation
  uint64_t bytes = 0;      // each rank's buffer
  int64_t period_ns = 0;   // from one round's start to the next's
  int ranks = 0;
};

struct Scenario;

// One entry of /jobs: a job among others on the scenario's network.
struct JobSpec {
  std::string pointer;  // "/jobs/0", where the scenario gives it
  std::string name;
  int64_t start_ns = 0;
  PlacementSpec placement;  // packed: the lowest endpoints left free
  std::optional<TrafficSpec> traffic;
  // A model job as a scenario of its own: the top-level one with the job's sections in place
  // of the top-level ones, its name and seed, its placement as /network/placement, without
  // /jobs and /faults. What a job reads from it is what it would read alone.
  std::shared_ptr<const Scenario> alone;
  // The sections the job wrote itself ("model", "workload"): an error found in one of them
  // later (a strategy refusing its degrees) is reported under the job's pointer.
  std::vector<std::string> own_sections;

  // `e` moved under the job's pointer when it is about a section the job wrote.
  ScenarioError at_job(const ScenarioError& e) const;
};

struct Scenario {
  std::string source;  // the file name errors are reported against
  std::string name;    // defaults to the file's stem
  std::string description;
  uint64_t seed = 1;
  ModelSpec model;
  ParallelDegrees parallel;
  WorkloadSpec workload;
  DeviceSpec devices;
  ComputeMode compute_mode = ComputeMode::kModeled;
  bool shapes_only = false;  // /compute/shapes_only: meta tensors, no weights, no numbers
  std::shared_ptr<const ReplayTable> replay_table;  // /compute/table, for mode replay
  NetworkSpec network;
  std::vector<CollectiveSpec> collectives;  // in key order
  std::string collective_preset;            // /collectives/preset; empty for none
  int64_t collective_timeout_ns = 0;        // /collectives/timeout; 0: none
  std::vector<FaultSpec> faults;            // /faults, in order
  OutputSpec outputs;
  std::vector<JobSpec> jobs;                // /jobs, in order; empty: the scenario is one job
};

// Reads and checks a scenario file, after applying `overrides` ("/network/link/rate=10Gbps":
// a JSON pointer, '=', and a value read as JSON when it parses as JSON, else as a string).
// Errors name `path` as given by the caller.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {});

// Checks an already parsed document; `source_name` is what errors are reported against and
// whose stem is the default name.
Scenario parse_scenario(const nlohmann::json& document, const std::string& source_name);

// Parses scenario text (syntax errors carry line and column), then checks it.
Scenario parse_scenario_text(const std::string& text, const std::string& source_name);

// Applies one "--set POINTER=VALUE" override to a document; throws ScenarioError naming
// the pointer when it is malformed.
void apply_override(nlohmann::json& document, const std::string& assignment,
                    const std::string& source_name);

}  // namespace uniference
