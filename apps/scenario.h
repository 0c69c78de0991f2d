// A scenario: one JSON file that says what to run (model, parallelism, workload), on what
// (devices, network) and what to write. docs/scenarios.md is the reference for the format;
// scenarios/schema.json is the same reference for editors and validators.
//
// Every value is checked here, once, so the rest of the program can trust a Scenario.
// A bad file is reported with the file, the JSON pointer (RFC 6901) of the offending
// value, what was expected and what was found, and nothing else in the run has started.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace uniference {

// A scenario that cannot be used. what() reads
//   "<source>: <pointer>: <detail>"   e.g. quickstart.json: /workload/new_tokens: expected ...
//   "<source>:<line>:<column>: invalid JSON: <detail>"   for syntax errors
//   "<source>: <detail>"              for the whole file (cannot open, top level not an object)
// The runner maps it to exit code 2 (DESIGN.md section 6). Code outside this file that finds
// a scenario value unusable (compute rejecting tp for a model) throws it too, with the path
// of the value it rejects, so the user sees one kind of error for one kind of mistake.
class ScenarioError : public std::runtime_error {
 public:
  ScenarioError(std::string source, std::string pointer, std::string detail);
  // A syntax error at a 1-based line and column.
  ScenarioError(std::string source, size_t line, size_t column, std::string detail);

  const std::string& source() const { return source_; }
  // JSON pointer of the offending value ("/network/link/rate"); empty for the whole file.
  const std::string& pointer() const { return pointer_; }
  // What was expected and what was found, without source and pointer.
  const std::string& detail() const { return detail_; }
  // Position of a syntax error; 0 for errors about values.
  size_t line() const { return line_; }
  size_t column() const { return column_; }

 private:
  std::string source_;
  std::string pointer_;
  std::string detail_;
  size_t line_ = 0;
  size_t column_ = 0;
};

enum class ComputeMode { kModeled, kMeasured };

// "modeled" / "measured", as written in scenario files.
const char* compute_mode_name(ComputeMode mode);

struct ModelSpec {
  std::string preset;  // "tiny", "1b" or "8b"
};

struct ParallelSpec {
  std::string strategy;  // "tp"
  int tp = 1;            // tensor-parallel degree: the number of ranks
};

struct WorkloadSpec {
  int prompt_tokens = 0;
  int new_tokens = 0;
};

struct DeviceSpec {
  std::string profile = "cpu";  // a compute profile name; compute/ validates it
  double slowdown = 1.0;        // measured time is multiplied by this
  double efficiency = 1.0;      // fraction of peak a modeled device reaches, in (0, 1]
};

struct LinkSpec {
  std::string rate_text;   // as written, for display ("1Gbps")
  std::string delay_text;  // as written, for display ("50us")
  uint64_t rate_bps = 0;   // bits per second
  int64_t delay_ns = 0;    // one-way propagation delay
  uint32_t mtu = 1500;     // bytes, IP packet size limit
};

struct TransportSpec {
  std::string tcp_variant = "cubic";          // as written: "cubic", "newreno", ...
  std::string tcp_type_id = "ns3::TcpCubic";  // the ns-3 TypeId name it stands for
  uint32_t segment_size = 1448;               // TCP payload bytes per segment
  uint32_t snd_buf = 131072;                  // TCP send buffer, bytes
  uint32_t rcv_buf = 131072;                  // TCP receive buffer, bytes
};

struct NetworkSpec {
  std::string topology;  // "star"
  LinkSpec link;
  TransportSpec transport;
};

struct OutputSpec {
  bool trace = true;    // trace.json (Chrome / Perfetto)
  bool results = true;  // results.json
};

struct Scenario {
  std::string source;  // the file name errors are reported against
  std::string name;    // defaults to the file's stem
  std::string description;
  uint64_t seed = 1;
  ModelSpec model;
  ParallelSpec parallel;
  WorkloadSpec workload;
  DeviceSpec devices;
  ComputeMode compute_mode = ComputeMode::kModeled;
  NetworkSpec network;
  OutputSpec outputs;
};

// Reads and checks a scenario file. Errors name `path` as given by the caller.
Scenario load_scenario(const std::string& path);

// Checks an already parsed document; `source_name` is what errors are reported against and
// whose stem is the default name.
Scenario parse_scenario(const nlohmann::json& document, const std::string& source_name);

// Parses scenario text (syntax errors carry line and column), then checks it.
Scenario parse_scenario_text(const std::string& text, const std::string& source_name);

// ns-3 DataRate strings: a decimal number and a unit (bps, b/s, Bps, B/s with k/K, M, G, T
// prefixes; Ki, Mi, Gi, Ti binary prefixes with b/s and B/s), or a bare number of bits per
// second. Returns false for anything else, for a rate that is not a whole number of bits per
// second, and beyond 2^64 - 1. Zero parses; the scenario rejects it itself, with its path.
bool parse_data_rate(const std::string& text, uint64_t* bits_per_second);

// Durations: a decimal number and one of ns, us, ms, s. Returns false for anything else, for
// a duration that is not a whole number of nanoseconds, and beyond 2^63 - 1 ns. Zero parses;
// the scenario rejects it itself, with its path.
bool parse_duration(const std::string& text, int64_t* nanoseconds);

// The ns-3 TypeId name of a tcp_variant ("cubic" -> "ns3::TcpCubic"); empty if unknown.
std::string tcp_type_id_for(const std::string& variant);

}  // namespace uniference
