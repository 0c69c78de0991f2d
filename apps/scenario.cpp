#include "apps/scenario.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

namespace uniference {

using nlohmann::json;

ScenarioError::ScenarioError(std::string source, std::string pointer, std::string detail)
    : std::runtime_error(pointer.empty() ? source + ": " + detail
                                         : source + ": " + pointer + ": " + detail),
      source_(std::move(source)),
      pointer_(std::move(pointer)),
      detail_(std::move(detail)) {}

ScenarioError::ScenarioError(std::string source, size_t line, size_t column, std::string detail)
    : std::runtime_error(source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                         detail),
      source_(std::move(source)),
      detail_(std::move(detail)),
      line_(line),
      column_(column) {}

const char* compute_mode_name(ComputeMode mode) {
  switch (mode) {
    case ComputeMode::kModeled:
      return "modeled";
    case ComputeMode::kMeasured:
      return "measured";
  }
  return "modeled";
}

namespace {

// ---------------------------------------------------------------------------------------
// Numbers with units. Decimal text is converted exactly (no binary floating point), so
// "0.3Mbps" is 300000 bit/s and not 299999 after a truncated 0.3 * 1e6.

enum class Parsed { kOk, kMalformed, kNotWhole, kOverflow };

using Wide = unsigned __int128;

// Splits "2.5Mb/s" into the value scaled by `multiplier` (must come out whole) and checks it
// against `limit`. `unit_of` maps the text after the number to a multiplier (0: unknown).
template <typename UnitOf>
Parsed parse_with_unit(const std::string& text, UnitOf unit_of, uint64_t limit, uint64_t* out) {
  size_t i = 0;
  Wide digits = 0;
  int fraction_digits = 0;
  int significant = 0;
  size_t integer_start = i;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    digits = digits * 10 + Wide(text[i] - '0');
    if (digits != 0 && ++significant > 36) return Parsed::kOverflow;
  }
  if (i == integer_start) return Parsed::kMalformed;  // no leading digit: "", ".5", "-1"
  if (i < text.size() && text[i] == '.') {
    ++i;
    size_t fraction_start = i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      digits = digits * 10 + Wide(text[i] - '0');
      ++fraction_digits;
      if ((digits != 0 && ++significant > 36) || fraction_digits > 36) return Parsed::kOverflow;
    }
    if (i == fraction_start) return Parsed::kMalformed;  // "5."
  }
  const uint64_t multiplier = unit_of(text.substr(i));
  if (multiplier == 0) return Parsed::kMalformed;

  const Wide max_wide = ~Wide(0);
  if (digits != 0 && digits > max_wide / multiplier) return Parsed::kOverflow;
  Wide scaled = digits * multiplier;
  Wide power = 1;
  for (int k = 0; k < fraction_digits; ++k) power *= 10;
  if (scaled % power != 0) return Parsed::kNotWhole;
  scaled /= power;
  if (scaled > Wide(limit)) return Parsed::kOverflow;
  *out = uint64_t(scaled);
  return Parsed::kOk;
}

uint64_t rate_unit(const std::string& unit) {
  // ns-3's DataRate spellings, plus T prefixes for the fastest fabrics (the value reaches
  // ns-3 as an integer, so its string parser never sees them).
  static const std::pair<const char*, uint64_t> kUnits[] = {
      {"", 1},  // ns-3 reads a bare number as bit/s
      {"bps", 1},
      {"b/s", 1},
      {"Bps", 8},
      {"B/s", 8},
      {"kbps", 1000},
      {"kb/s", 1000},
      {"Kbps", 1000},
      {"Kb/s", 1000},
      {"kBps", 8000},
      {"kB/s", 8000},
      {"KBps", 8000},
      {"KB/s", 8000},
      {"Kib/s", uint64_t(1) << 10},
      {"KiB/s", uint64_t(8) << 10},
      {"Mbps", 1000000},
      {"Mb/s", 1000000},
      {"MBps", 8000000},
      {"MB/s", 8000000},
      {"Mib/s", uint64_t(1) << 20},
      {"MiB/s", uint64_t(8) << 20},
      {"Gbps", 1000000000},
      {"Gb/s", 1000000000},
      {"GBps", 8000000000},
      {"GB/s", 8000000000},
      {"Gib/s", uint64_t(1) << 30},
      {"GiB/s", uint64_t(8) << 30},
      {"Tbps", 1000000000000},
      {"Tb/s", 1000000000000},
      {"TBps", 8000000000000},
      {"TB/s", 8000000000000},
      {"Tib/s", uint64_t(1) << 40},
      {"TiB/s", uint64_t(8) << 40},
  };
  for (const auto& [name, multiplier] : kUnits) {
    if (unit == name) return multiplier;
  }
  return 0;
}

uint64_t duration_unit(const std::string& unit) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1000;
  if (unit == "ms") return 1000000;
  if (unit == "s") return 1000000000;
  return 0;
}

Parsed parse_rate(const std::string& text, uint64_t* bps) {
  return parse_with_unit(text, rate_unit, std::numeric_limits<uint64_t>::max(), bps);
}

Parsed parse_delay(const std::string& text, int64_t* ns) {
  uint64_t value = 0;
  Parsed result =
      parse_with_unit(text, duration_unit, uint64_t(std::numeric_limits<int64_t>::max()), &value);
  if (result == Parsed::kOk) *ns = int64_t(value);
  return result;
}

// ---------------------------------------------------------------------------------------
// TCP congestion controls of ns-3 3.37, by the lower-case name scenarios use.

struct TcpVariant {
  const char* name;
  const char* type_id;
};

constexpr TcpVariant kTcpVariants[] = {
    {"newreno", "ns3::TcpNewReno"},
    {"cubic", "ns3::TcpCubic"},
    {"bbr", "ns3::TcpBbr"},
    {"bic", "ns3::TcpBic"},
    {"highspeed", "ns3::TcpHighSpeed"},
    {"htcp", "ns3::TcpHtcp"},
    {"hybla", "ns3::TcpHybla"},
    {"illinois", "ns3::TcpIllinois"},
    {"ledbat", "ns3::TcpLedbat"},
    {"linuxreno", "ns3::TcpLinuxReno"},
    {"scalable", "ns3::TcpScalable"},
    {"vegas", "ns3::TcpVegas"},
    {"veno", "ns3::TcpVeno"},
    {"westwood", "ns3::TcpWestwood"},
    {"yeah", "ns3::TcpYeah"},
    {"lp", "ns3::TcpLp"},
    {"dctcp", "ns3::TcpDctcp"},
};

// IPv4 header, TCP header and the timestamp option ns-3 puts on every segment by default
// (10 bytes padded to 12): what a segment needs inside one MTU besides its payload.
constexpr uint32_t kTcpIpOverhead = 20 + 20 + 12;

constexpr uint32_t kMinMtu = 576;  // the smallest datagram every IPv4 host must accept
constexpr uint32_t kMaxMtu = 9000;

// ---------------------------------------------------------------------------------------
// Messages.

// RFC 6901: '~' and '/' inside a key are escaped so the pointer stays unambiguous.
std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string child(const std::string& pointer, const std::string& key) {
  return pointer + "/" + pointer_token(key);
}

// How a found value is shown: scalars as JSON (strings quoted, long ones cut), containers
// by kind, since dumping a whole object into one line of error helps nobody.
std::string describe(const json& value) {
  switch (value.type()) {
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string: {
      // Cut the text, not its JSON form, so no escape or UTF-8 sequence is split.
      const std::string& text = value.get_ref<const std::string&>();
      if (text.size() <= 60) break;
      size_t cut = 56;
      while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
      return json(text.substr(0, cut)).dump(-1, ' ', false, json::error_handler_t::replace) + "...";
    }
    default:
      break;
  }
  // Built in code, a string need not be valid UTF-8; the message must still be made.
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += "\"" + names[i] + "\"";
  }
  return out;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The closest candidate to a misspelling, when it is close enough to be a likely typo.
std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(1, word.size() / 3) + 1;
  for (const std::string& candidate : candidates) {
    size_t distance = edit_distance(word, candidate);
    // A candidate as far away as the word is long shares nothing with it.
    if (distance < best_distance && distance < word.size()) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------
// The checker: every read names its pointer, so every failure can.

class Checker {
 public:
  explicit Checker(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& detail) const {
    throw ScenarioError(source_, pointer, detail);
  }

  [[noreturn]] void fail_found(const std::string& pointer, const std::string& expected,
                               const json& found) const {
    fail(pointer, "expected " + expected + ", found " + describe(found));
  }

  // Checks that `value` is an object holding only `known` keys.
  void object(const json& value, const std::string& pointer,
              const std::vector<std::string>& known) const {
    if (!value.is_object()) {
      if (pointer.empty()) {
        fail(pointer, "expected a JSON object at the top level, found " + describe(value));
      }
      fail_found(pointer, "an object", value);
    }
    for (const auto& item : value.items()) {
      if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
      std::string detail = "unknown key";
      std::string suggestion = closest(item.key(), known);
      if (!suggestion.empty()) detail += " (did you mean \"" + suggestion + "\"?)";
      detail += "; known keys here: ";
      for (size_t i = 0; i < known.size(); ++i) detail += (i ? ", " : "") + known[i];
      fail(child(pointer, item.key()), detail);
    }
  }

  static const json* find(const json& object, const std::string& key) {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }

  const json& require(const json& object, const std::string& pointer, const std::string& key,
                      const std::string& expected) const {
    const json* value = find(object, key);
    if (value == nullptr) fail(child(pointer, key), "missing required key; expected " + expected);
    return *value;
  }

  std::string string(const json& value, const std::string& pointer) const {
    if (!value.is_string() || value.get_ref<const std::string&>().empty()) {
      fail_found(pointer, "a non-empty string", value);
    }
    return value.get<std::string>();
  }

  std::string choice(const json& value, const std::string& pointer,
                     const std::vector<std::string>& choices) const {
    if (value.is_string()) {
      const std::string& text = value.get_ref<const std::string&>();
      if (std::find(choices.begin(), choices.end(), text) != choices.end()) return text;
      std::string suggestion = closest(text, choices);
      if (!suggestion.empty()) {
        fail(pointer, "expected one of " + quoted_list(choices) + ", found " + describe(value) +
                          " (did you mean \"" + suggestion + "\"?)");
      }
    }
    fail_found(pointer, "one of " + quoted_list(choices), value);
  }

  int64_t integer(const json& value, const std::string& pointer, int64_t min, int64_t max,
                  const std::string& expected) const {
    // Integral JSON numbers only: 8.0 is refused rather than silently truncated.
    if (value.is_number_unsigned()) {
      uint64_t v = value.get<uint64_t>();
      if (v <= uint64_t(max) && int64_t(v) >= min) return int64_t(v);
    } else if (value.is_number_integer()) {
      int64_t v = value.get<int64_t>();
      if (v >= min && v <= max) return v;
    }
    fail_found(pointer, expected, value);
  }

  int positive_int(const json& value, const std::string& pointer) const {
    return int(integer(value, pointer, 1, INT_MAX, "a positive integer"));
  }

  uint32_t positive_u32(const json& value, const std::string& pointer) const {
    return uint32_t(integer(value, pointer, 1, UINT32_MAX, "a positive integer below 2^32"));
  }

  uint64_t unsigned64(const json& value, const std::string& pointer) const {
    // Parsed text gives unsigned numbers; a document built in C++ may hold signed ones.
    if (value.is_number_unsigned()) return value.get<uint64_t>();
    if (value.is_number_integer() && value.get<int64_t>() >= 0) {
      return uint64_t(value.get<int64_t>());
    }
    fail_found(pointer, "an unsigned 64-bit integer", value);
  }

  double number(const json& value, const std::string& pointer) const {
    if (!value.is_number()) fail_found(pointer, "a number", value);
    return value.get<double>();
  }

  bool boolean(const json& value, const std::string& pointer) const {
    if (!value.is_boolean()) fail_found(pointer, "true or false", value);
    return value.get<bool>();
  }

 private:
  std::string source_;
};

// ---------------------------------------------------------------------------------------
// The sections of a scenario, in file order.

const std::vector<std::string> kTopKeys = {"$schema", "name",     "description", "seed",
                                           "model",   "parallel", "workload",    "devices",
                                           "compute", "network",  "outputs"};
const std::vector<std::string> kModelPresets = {"tiny", "1b", "8b"};

ModelSpec read_model(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, {"preset"});
  ModelSpec model;
  model.preset =
      check.choice(check.require(value, pointer, "preset", "one of " + quoted_list(kModelPresets)),
                   child(pointer, "preset"), kModelPresets);
  return model;
}

ParallelSpec read_parallel(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, {"strategy", "tp"});
  ParallelSpec parallel;
  parallel.strategy = check.choice(check.require(value, pointer, "strategy", "\"tp\""),
                                   child(pointer, "strategy"), {"tp"});
  parallel.tp = check.positive_int(check.require(value, pointer, "tp", "a positive integer"),
                                   child(pointer, "tp"));
  return parallel;
}

WorkloadSpec read_workload(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, {"prompt_tokens", "new_tokens"});
  WorkloadSpec workload;
  workload.prompt_tokens =
      check.positive_int(check.require(value, pointer, "prompt_tokens", "a positive integer"),
                         child(pointer, "prompt_tokens"));
  workload.new_tokens =
      check.positive_int(check.require(value, pointer, "new_tokens", "a positive integer"),
                         child(pointer, "new_tokens"));
  return workload;
}

DeviceSpec read_devices(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, {"profile", "slowdown", "efficiency"});
  DeviceSpec devices;
  if (const json* v = Checker::find(value, "profile")) {
    devices.profile = check.string(*v, child(pointer, "profile"));
  }
  if (const json* v = Checker::find(value, "slowdown")) {
    std::string at = child(pointer, "slowdown");
    devices.slowdown = check.number(*v, at);
    if (!(devices.slowdown > 0.0)) check.fail_found(at, "a number greater than 0", *v);
  }
  if (const json* v = Checker::find(value, "efficiency")) {
    std::string at = child(pointer, "efficiency");
    devices.efficiency = check.number(*v, at);
    if (!(devices.efficiency > 0.0 && devices.efficiency <= 1.0)) {
      check.fail_found(at, "a number in (0, 1]", *v);
    }
  }
  return devices;
}

ComputeMode read_compute(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, {"mode"});
  const json* mode = Checker::find(value, "mode");
  if (mode == nullptr) return ComputeMode::kModeled;
  std::string text = check.choice(*mode, child(pointer, "mode"), {"modeled", "measured"});
  return text == "measured" ? ComputeMode::kMeasured : ComputeMode::kModeled;
}

const char* const kRateExamples =
    "a data rate such as \"1Gbps\", \"2.5Mb/s\" or \"100000\" (bit/s)";
const char* const kDelayExamples =
    "a duration with a unit such as \"50us\" or \"1.5ms\" (ns, us, ms, s)";

LinkSpec read_link(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, {"rate", "delay", "mtu"});
  LinkSpec link;

  std::string at = child(pointer, "rate");
  const json& rate = check.require(value, pointer, "rate", kRateExamples);
  if (!rate.is_string()) check.fail_found(at, kRateExamples, rate);
  link.rate_text = rate.get<std::string>();
  switch (parse_rate(link.rate_text, &link.rate_bps)) {
    case Parsed::kOk:
      if (link.rate_bps == 0) check.fail_found(at, "a positive data rate", rate);
      break;
    case Parsed::kMalformed:
      check.fail_found(at, kRateExamples, rate);
    case Parsed::kNotWhole:
      check.fail_found(at, "a whole number of bits per second", rate);
    case Parsed::kOverflow:
      check.fail_found(at, "a data rate below 2^64 bit/s", rate);
  }

  at = child(pointer, "delay");
  const json& delay = check.require(value, pointer, "delay", kDelayExamples);
  if (!delay.is_string()) check.fail_found(at, kDelayExamples, delay);
  link.delay_text = delay.get<std::string>();
  switch (parse_delay(link.delay_text, &link.delay_ns)) {
    case Parsed::kOk:
      if (link.delay_ns <= 0) check.fail_found(at, "a positive duration", delay);
      break;
    case Parsed::kMalformed:
      check.fail_found(at, kDelayExamples, delay);
    case Parsed::kNotWhole:
      check.fail_found(at, "a whole number of nanoseconds", delay);
    case Parsed::kOverflow:
      check.fail_found(at, "a duration below 2^63 ns", delay);
  }

  if (const json* v = Checker::find(value, "mtu")) {
    link.mtu = uint32_t(check.integer(*v, child(pointer, "mtu"), kMinMtu, kMaxMtu,
                                      "an integer from 576 to 9000 (bytes)"));
  }
  return link;
}

TransportSpec read_transport(const Checker& check, const json& value, const std::string& pointer,
                             const std::string& mtu_pointer, uint32_t mtu) {
  check.object(value, pointer, {"tcp_variant", "segment_size", "snd_buf", "rcv_buf"});
  TransportSpec transport;
  if (const json* v = Checker::find(value, "tcp_variant")) {
    std::vector<std::string> names;
    for (const TcpVariant& variant : kTcpVariants) names.emplace_back(variant.name);
    transport.tcp_variant = check.choice(*v, child(pointer, "tcp_variant"), names);
    transport.tcp_type_id = tcp_type_id_for(transport.tcp_variant);
  }
  // Without an explicit segment size, segments fill the MTU: a user who sets jumbo frames
  // wants jumbo segments, and one who sets a small MTU should not be told off about a
  // segment size they never wrote.
  const uint32_t max_segment = mtu - kTcpIpOverhead;
  transport.segment_size = max_segment;
  if (const json* v = Checker::find(value, "segment_size")) {
    std::string at = child(pointer, "segment_size");
    transport.segment_size = check.positive_u32(*v, at);
    if (transport.segment_size > max_segment) {
      check.fail(at, "expected at most " + std::to_string(max_segment) + " to fit " + mtu_pointer +
                         " " + std::to_string(mtu) +
                         " (mtu - 20 IPv4 - 20 TCP - 12 timestamp option), found " + describe(*v));
    }
  }
  if (const json* v = Checker::find(value, "snd_buf")) {
    transport.snd_buf = check.positive_u32(*v, child(pointer, "snd_buf"));
  }
  if (const json* v = Checker::find(value, "rcv_buf")) {
    transport.rcv_buf = check.positive_u32(*v, child(pointer, "rcv_buf"));
  }
  return transport;
}

NetworkSpec read_network(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, {"topology", "link", "transport"});
  NetworkSpec network;
  network.topology = check.choice(check.require(value, pointer, "topology", "\"star\""),
                                  child(pointer, "topology"), {"star"});
  const std::string link_pointer = child(pointer, "link");
  network.link = read_link(check, check.require(value, pointer, "link", "an object"), link_pointer);
  const json* transport = Checker::find(value, "transport");
  network.transport =
      read_transport(check, transport ? *transport : json::object(), child(pointer, "transport"),
                     child(link_pointer, "mtu"), network.link.mtu);
  return network;
}

OutputSpec read_outputs(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, {"trace", "results"});
  OutputSpec outputs;
  if (const json* v = Checker::find(value, "trace")) {
    outputs.trace = check.boolean(*v, child(pointer, "trace"));
  }
  if (const json* v = Checker::find(value, "results")) {
    outputs.results = check.boolean(*v, child(pointer, "results"));
  }
  return outputs;
}

// ---------------------------------------------------------------------------------------
// Syntax.

// nlohmann::json keeps the last of two equal keys without a word. In a hand-edited file a
// repeated key is nearly always a mistake (the user edits the first, the second wins), so
// it is found while parsing and reported with its pointer.
class DuplicateKeyFinder {
 public:
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start: {
        Frame frame;
        frame.pointer = next_child_pointer();
        frame.is_object = event == json::parse_event_t::object_start;
        frames_.push_back(std::move(frame));
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!frames_.empty()) frames_.pop_back();
        break;
      case json::parse_event_t::key: {
        Frame& frame = frames_.back();
        frame.key = parsed.get<std::string>();
        if (!frame.keys.insert(frame.key).second && duplicate_.empty()) {
          duplicate_ = child(frame.pointer, frame.key);
        }
        break;
      }
      case json::parse_event_t::value:
        next_child_pointer();  // counts the element of an array
        break;
    }
    return true;
  }

  // Pointer of the first repeated key; empty when there was none.
  const std::string& duplicate() const { return duplicate_; }

 private:
  struct Frame {
    std::string pointer;
    bool is_object = true;
    std::set<std::string> keys;
    std::string key;
    size_t next_index = 0;
  };

  std::string next_child_pointer() {
    if (frames_.empty()) return "";
    Frame& parent = frames_.back();
    if (parent.is_object) return child(parent.pointer, parent.key);
    return parent.pointer + "/" + std::to_string(parent.next_index++);
  }

  std::vector<Frame> frames_;
  std::string duplicate_;
};

// nlohmann's message starts with its own prefix and position; ours carries the position in
// the compiler-like "file:line:column:" form editors jump to.
std::string parse_error_detail(const json::parse_error& error) {
  std::string message = error.what();
  size_t at = message.find("parse error");
  if (at != std::string::npos) {
    size_t colon = message.find(": ", at);
    if (colon != std::string::npos) return message.substr(colon + 2);
  }
  return message;
}

}  // namespace

bool parse_data_rate(const std::string& text, uint64_t* bits_per_second) {
  return parse_rate(text, bits_per_second) == Parsed::kOk;
}

bool parse_duration(const std::string& text, int64_t* nanoseconds) {
  return parse_delay(text, nanoseconds) == Parsed::kOk;
}

std::string tcp_type_id_for(const std::string& variant) {
  for (const TcpVariant& entry : kTcpVariants) {
    if (variant == entry.name) return entry.type_id;
  }
  return "";
}

Scenario parse_scenario(const json& document, const std::string& source_name) {
  Checker check(source_name);
  check.object(document, "", kTopKeys);

  Scenario scenario;
  scenario.source = source_name;
  scenario.name = std::filesystem::path(source_name).stem().string();
  if (scenario.name.empty() || scenario.name == "." || scenario.name == "..") {
    scenario.name = "scenario";
  }

  if (const json* v = Checker::find(document, "$schema")) {
    check.string(*v, "/$schema");  // for editors; its value means nothing to the run
  }
  if (const json* v = Checker::find(document, "name")) {
    scenario.name = check.string(*v, "/name");
    // The name becomes a folder name (out/<name>) and a trace title: keep it one path
    // component, so a scenario can never direct its outputs elsewhere.
    const bool bad_character = std::any_of(scenario.name.begin(), scenario.name.end(), [](char c) {
      return c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
    });
    if (bad_character || scenario.name == "." || scenario.name == "..") {
      check.fail_found("/name",
                       "a name usable as a folder name (no '/', '\\' or control characters; "
                       "not \".\" or \"..\")",
                       *v);
    }
  }
  if (const json* v = Checker::find(document, "description")) {
    if (!v->is_string()) check.fail_found("/description", "a string", *v);
    scenario.description = v->get<std::string>();
  }
  if (const json* v = Checker::find(document, "seed")) {
    scenario.seed = check.unsigned64(*v, "/seed");
  }
  scenario.model = read_model(check, check.require(document, "", "model", "an object"), "/model");
  scenario.parallel =
      read_parallel(check, check.require(document, "", "parallel", "an object"), "/parallel");
  scenario.workload =
      read_workload(check, check.require(document, "", "workload", "an object"), "/workload");
  if (const json* v = Checker::find(document, "devices")) {
    scenario.devices = read_devices(check, *v, "/devices");
  }
  if (const json* v = Checker::find(document, "compute")) {
    scenario.compute_mode = read_compute(check, *v, "/compute");
  }
  scenario.network =
      read_network(check, check.require(document, "", "network", "an object"), "/network");
  if (const json* v = Checker::find(document, "outputs")) {
    scenario.outputs = read_outputs(check, *v, "/outputs");
  }
  return scenario;
}

Scenario parse_scenario_text(const std::string& text, const std::string& source_name) {
  DuplicateKeyFinder duplicates;
  json document;
  try {
    document = json::parse(text, std::ref(duplicates));
  } catch (const json::parse_error& error) {
    // error.byte is the 1-based offset of the character the parser stopped at.
    const size_t offset = error.byte > 0 ? std::min<size_t>(error.byte - 1, text.size()) : 0;
    const size_t line = 1 + size_t(std::count(text.begin(), text.begin() + offset, '\n'));
    const size_t last_newline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
    const size_t column = last_newline == std::string::npos ? offset + 1 : offset - last_newline;
    throw ScenarioError(source_name, line, column, "invalid JSON: " + parse_error_detail(error));
  }
  if (!duplicates.duplicate().empty()) {
    throw ScenarioError(source_name, duplicates.duplicate(),
                        "key appears twice in its object; remove one");
  }
  return parse_scenario(document, source_name);
}

Scenario load_scenario(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw ScenarioError(path, "", "cannot read scenario: is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ScenarioError(path, "", std::string("cannot read scenario: ") + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(path, "", "cannot read scenario: read error");
  return parse_scenario_text(text.str(), path);
}

}  // namespace uniference
