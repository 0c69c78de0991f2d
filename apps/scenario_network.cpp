#include "apps/scenario_network.h"

#include "apps/scenario_files.h"
#include "apps/scenario_keys.h"
#include "apps/scenario_values.h"
#include "bridge/link_presets.h"
#include "bridge/network_presets.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace uniference {

namespace {

// IPv4 header, TCP header and the timestamp option ns-3 puts on every segment by default
// (10 bytes padded to 12): what a segment needs inside one MTU besides its payload.
constexpr uint32_t kTcpIpOverhead = 20 + 20 + 12;

constexpr uint32_t kMinMtu = 576;  // the smallest datagram every IPv4 host must accept
constexpr uint32_t kMaxMtu = 9000;

// InfiniBand's MTUs: payload bytes per packet.
const std::vector<int64_t> kIbMtus = {256, 512, 1024, 2048, 4096};

void read_ib_link_keys(const Checker& check, const json& value, const std::string& pointer,
                       LinkSpec& link) {
  if (const json* v = Checker::find(value, "ib_mtu")) {
    const std::string at = child(pointer, "ib_mtu");
    const int64_t mtu = check.integer(*v, at, 0, 4096, "one of 256, 512, 1024, 2048 or 4096");
    if (std::find(kIbMtus.begin(), kIbMtus.end(), mtu) == kIbMtus.end()) {
      check.fail_found(at, "one of 256, 512, 1024, 2048 or 4096 (payload bytes per packet)", *v);
    }
    link.ib_mtu = uint32_t(mtu);
  }
  if (const json* v = Checker::find(value, "vl_buffer")) {
    const std::string at = child(pointer, "vl_buffer");
    const uint32_t mtu = link.ib_mtu.value_or(4096);
    const uint32_t packet = mtu + kIbHeaderBytes;
    link.vl_buffer = check.positive_u32(*v, at);
    // A lane whose buffer cannot hold one packet never gets the credits to send it.
    if (*link.vl_buffer < packet) {
      check.fail(at, "expected at least " + std::to_string(packet) + " to hold one packet of " +
                         child(pointer, "ib_mtu") + " " + std::to_string(mtu) + " + " +
                         std::to_string(kIbHeaderBytes) + " header bytes, found " + describe(*v));
    }
  }
}

ShaperSpec read_shaper(const Checker& check, const json& value, const std::string& pointer,
                       const std::string& mtu_pointer, uint32_t mtu) {
  check.object(value, pointer, scenario_keys_under("/network/link/shaper"));
  ShaperSpec shaper;
  shaper.rate_bps = read_rate(check, check.require(value, pointer, "rate", kRateExamples),
                              child(pointer, "rate"), &shaper.rate_text);
  // A frame larger than the bucket never gets the tokens to leave; Linux drops it, and a
  // simulated link would stall.
  const uint32_t frame = mtu + kEthernetHeaderBytes;
  for (const char* key : {"burst", "limit"}) {
    const std::string at = child(pointer, key);
    const uint32_t bytes = check.positive_u32(
        check.require(value, pointer, key, "a positive integer (bytes)"), at);
    if (bytes < frame) {
      check.fail(at, "expected at least " + std::to_string(frame) + " to hold one frame of " +
                         mtu_pointer + " " + std::to_string(mtu) + " + " +
                         std::to_string(kEthernetHeaderBytes) + " Ethernet header bytes, found " +
                         std::to_string(bytes));
    }
    (std::string(key) == "burst" ? shaper.burst : shaper.limit) = bytes;
  }
  return shaper;
}

LinkSpec read_link(const Checker& check, const json& value, const std::string& pointer,
                   const std::string& source) {
  check.object(value, pointer, scenario_keys_under("/network/link"));
  LinkSpec link;
  if (const json* v = Checker::find(value, "model")) link.model = check.string(*v, child(pointer, "model"));
  // A preset gives the rate and delay the link does not write itself, read as if written.
  const LinkPreset* preset = nullptr;
  json preset_rate, preset_delay;
  if (const json* v = Checker::find(value, "preset")) {
    const std::string at = child(pointer, "preset");
    link.preset = check.string(*v, at);
    preset = link_presets().find(link.preset);
    if (preset == nullptr) check.choice(*v, at, link_presets().names());
    preset_rate = preset->rate;
    preset_delay = preset->delay;
  }

  if (const json* v = Checker::find(value, "profile")) {
    const std::string at = child(pointer, "profile");
    if (preset != nullptr) check.fail(at, "give a preset or a profile, not both");
    link.profile = check.string(*v, at);
    const MeasuredStarLink measured =
        read_network_profile(check, at, beside_scenario(source, link.profile));
    preset_rate = std::to_string(measured.rate_bps);
    preset_delay = std::to_string(measured.delay_ns) + "ns";
  }
  const bool filled = preset != nullptr || !link.profile.empty();

  const json* rate = Checker::find(value, "rate");
  if (rate == nullptr && !filled) check.require(value, pointer, "rate", kRateExamples);
  link.rate_bps = read_rate(check, rate ? *rate : preset_rate, child(pointer, "rate"), &link.rate_text);

  const json* delay = Checker::find(value, "delay");
  if (delay == nullptr && !filled) check.require(value, pointer, "delay", kDelayExamples);
  if (delay == nullptr) delay = &preset_delay;
  link.delay_ns = read_duration(check, *delay, child(pointer, "delay"), &link.delay_text, false);

  if (const json* v = Checker::find(value, "mtu")) {
    link.mtu = uint32_t(check.integer(*v, child(pointer, "mtu"), kMinMtu, kMaxMtu,
                                      "an integer from 576 to 9000 (bytes)"));
  }
  if (const json* v = Checker::find(value, "shaper")) {
    link.shaper = read_shaper(check, *v, child(pointer, "shaper"), child(pointer, "mtu"), link.mtu);
  }
  read_ib_link_keys(check, value, pointer, link);
  return link;
}

TransportSpec read_transport(const Checker& check, const json& value, const std::string& pointer,
                             const std::string& mtu_pointer, uint32_t mtu) {
  check.object(value, pointer, scenario_keys_under("/network/transport"));
  TransportSpec transport;
  if (const json* v = Checker::find(value, "kind")) {
    transport.kind = check.string(*v, child(pointer, "kind"));
    transport.kind_given = true;
  }
  for (const char* key : {"tcp_variant", "segment_size", "snd_buf", "rcv_buf"}) {
    if (Checker::find(value, key)) transport.tcp_keys.push_back(child(pointer, key));
  }
  if (const json* v = Checker::find(value, "congestion_control")) {
    transport.congestion_control = check.string(*v, child(pointer, "congestion_control"));
  }
  if (const json* v = Checker::find(value, "level")) {
    transport.level = check.choice(*v, child(pointer, "level"), {"packet", "flow"});
  }
  if (const json* v = Checker::find(value, "tcp_variant")) {
    transport.tcp_variant = check.string(*v, child(pointer, "tcp_variant"));
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



// Sizes by name; which names a topology reads is the bridge's to check.
std::vector<std::pair<std::string, uint32_t>> read_topology_options(const Checker& check,
                                                                    const json& value,
                                                                    const std::string& pointer) {
  if (!value.is_object()) check.fail_found(pointer, "an object of option names and sizes", value);
  std::vector<std::pair<std::string, uint32_t>> options;
  for (const auto& item : value.items()) {
    options.emplace_back(item.key(), check.positive_u32(item.value(), child(pointer, item.key())));
  }
  return options;
}

// "packed", or the endpoint of each rank; whether the endpoints exist is the topology's to say.
}  // namespace

PlacementSpec read_placement(const Checker& check, const json& value, const std::string& pointer,
                             bool spread_too) {
  const char* const expected = spread_too ? "\"packed\", \"spread\" or an array of endpoint indexes, one per rank"
                                          : "\"packed\" or an array of endpoint indexes, one per rank";
  PlacementSpec placement;
  if (value.is_string() && value.get<std::string>() == "packed") return placement;
  if (spread_too && value.is_string() && value.get<std::string>() == "spread") {
    placement.spread = true;
    return placement;
  }
  if (!value.is_array() || value.empty()) check.fail_found(pointer, expected, value);
  placement.packed = false;
  for (size_t r = 0; r < value.size(); ++r) {
    const std::string at = child(pointer, std::to_string(r));
    const auto endpoint = uint32_t(
        check.integer(value[r], at, 0, UINT32_MAX - 1, "an endpoint index (an integer from 0)"));
    auto taken = std::find(placement.endpoint.begin(), placement.endpoint.end(), endpoint);
    if (taken != placement.endpoint.end()) {
      check.fail(at, "endpoint " + std::to_string(endpoint) + " already holds rank " +
                         std::to_string(taken - placement.endpoint.begin()) +
                         "; one rank per endpoint");
    }
    placement.endpoint.push_back(endpoint);
  }
  return placement;
}

namespace {

SwitchSpec read_switch(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, scenario_keys_under("/network/switch"));
  SwitchSpec switches;
  if (const json* v = Checker::find(value, "routing")) {
    switches.adaptive_routing =
        check.choice(*v, child(pointer, "routing"), {"ecmp", "adaptive"}) == "adaptive";
  }
  if (const json* v = Checker::find(value, "latency")) {
    switches.latency_ns =
        read_duration(check, *v, child(pointer, "latency"), &switches.latency_text, true);
  }
  return switches;
}

// /network/wan/fade: {mean_clear, mean_fade, rate_factor, recovery}, or false for none.
FadeSpec read_fade(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, scenario_keys_under("/network/wan/fade"));
  FadeSpec fade;
  std::string text;
  fade.mean_clear_ns = read_duration(
      check, check.require(value, pointer, "mean_clear", kDelayExamples), child(pointer, "mean_clear"),
      &text, false);
  fade.mean_fade_ns = read_duration(
      check, check.require(value, pointer, "mean_fade", kDelayExamples), child(pointer, "mean_fade"),
      &text, false);
  if (const json* v = Checker::find(value, "rate_factor")) {
    const std::string at = child(pointer, "rate_factor");
    fade.rate_factor = check.number(*v, at);
    if (fade.rate_factor < 0 || fade.rate_factor >= 1) {
      check.fail_found(at, "a fraction from 0 (the link is out while faded) to below 1", *v);
    }
  }
  if (const json* v = Checker::find(value, "recovery")) {
    fade.recovery_ns = read_duration(check, *v, child(pointer, "recovery"), &text, true);
  }
  return fade;
}

// /network/wan/loss: netem's gemodel, in percent.
LossSpec read_loss(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, scenario_keys_under("/network/wan/loss"));
  LossSpec loss;
  auto percent = [&](const char* key, double& field) {
    const json* v = Checker::find(value, key);
    if (v == nullptr) return;
    const std::string at = child(pointer, key);
    field = check.number(*v, at);
    if (field < 0 || field > 100) check.fail_found(at, "a percentage from 0 to 100", *v);
  };
  check.require(value, pointer, "p", "the percentage chance of moving to the bad state");
  percent("p", loss.p);
  percent("r", loss.r);
  percent("1-h", loss.one_minus_h);
  percent("1-k", loss.one_minus_k);
  return loss;
}

WanSpec read_wan(const Checker& check, const json& value, const std::string& pointer,
                 const std::string& source) {
  check.object(value, pointer, scenario_keys_under("/network/wan"));
  WanSpec wan;
  wan.model = check.string(check.require(value, pointer, "model", "a wide-area link model name"),
                           child(pointer, "model"));
  // One rate for both directions, or each its own; a link budget instead of either.
  const json* rate = Checker::find(value, "rate");
  const json* uplink = Checker::find(value, "uplink");
  const json* downlink = Checker::find(value, "downlink");
  const json* budget = Checker::find(value, "budget");
  if (budget != nullptr) {
    const std::string at = child(pointer, "budget");
    if (rate || uplink || downlink) check.fail(at, "give a budget or rates, not both");
    check.object(*budget, at, scenario_keys_under("/network/wan/budget"));
    BudgetSpec spec;
    spec.bandwidth_hz =
        check.number(check.require(*budget, at, "bandwidth_hz", "the channel's bandwidth in Hz"),
                     child(at, "bandwidth_hz"));
    if (spec.bandwidth_hz <= 0) {
      check.fail_found(child(at, "bandwidth_hz"), "a positive bandwidth in Hz", (*budget)["bandwidth_hz"]);
    }
    spec.snr_db = check.number(check.require(*budget, at, "snr_db", "the signal to noise ratio in dB"),
                               child(at, "snr_db"));
    wan.budget = spec;
  } else {
    if (rate == nullptr && (uplink == nullptr || downlink == nullptr)) {
      check.require(value, pointer, "rate",
                    std::string(kRateExamples) + " for both directions (or uplink and downlink)");
    }
    std::string up_text, down_text;
    wan.uplink_bps = read_rate(check, uplink ? *uplink : *rate,
                               child(pointer, uplink ? "uplink" : "rate"), &up_text);
    wan.downlink_bps = read_rate(check, downlink ? *downlink : *rate,
                                 child(pointer, downlink ? "downlink" : "rate"), &down_text);
    wan.rate_text = up_text == down_text ? up_text : up_text + " up / " + down_text + " down";
  }
  if (const json* v = Checker::find(value, "attributes")) {
    const std::string at = child(pointer, "attributes");
    if (!v->is_object()) check.fail_found(at, "an object of ns-3 Attribute names and values", *v);
    for (const auto& item : v->items()) {
      wan.attributes.emplace_back(item.key(), attribute_text(check, item.value(), child(at, item.key())));
    }
  }
  if (const json* v = Checker::find(value, "trace")) {
    const std::string at = child(pointer, "trace");
    wan.trace = check.string(*v, at);
    // Read when the scenario is checked, by the model that replays it.
    wan.trace_path = beside_scenario(source, wan.trace);
  }
  if (const json* v = Checker::find(value, "outage")) {
    wan.hold = check.choice(*v, child(pointer, "outage"), {"drop", "hold"}) == "hold";
  }
  if (const json* v = Checker::find(value, "fade")) {
    if (v->is_boolean() && !v->get<bool>()) {
      wan.fade_off = true;
    } else {
      wan.fade = read_fade(check, *v, child(pointer, "fade"));
    }
  }
  if (const json* v = Checker::find(value, "loss")) wan.loss = read_loss(check, *v, child(pointer, "loss"));
  return wan;
}

// /network/intra_server_link: the cables inside a server of rail-optimised and two-tier.
IntraServerLinkSpec read_intra_server_link(const Checker& check, const json& value,
                                           const std::string& pointer) {
  check.object(value, pointer, scenario_keys_under("/network/intra_server_link"));
  IntraServerLinkSpec link;
  std::string text;
  if (const json* v = Checker::find(value, "rate")) {
    link.rate_bps = read_rate(check, *v, child(pointer, "rate"), &text);
  }
  if (const json* v = Checker::find(value, "delay")) {
    link.delay_ns = read_duration(check, *v, child(pointer, "delay"), &text, false);
  }
  return link;
}

}  // namespace

NetworkSpec read_network(const Checker& check, const json& written, const std::string& pointer,
                         const std::string& source) {
  check.object(written, pointer, scenario_keys_under("/network"));
  std::string preset_name;
  json value = written;
  if (const json* v = Checker::find(written, "preset")) {
    const std::string at = child(pointer, "preset");
    preset_name = check.string(*v, at);
    const NetworkPreset* preset = network_presets().find(preset_name);
    if (preset == nullptr) check.choice(*v, at, network_presets().names());
    // The written keys over the preset's, objects merged key by key (RFC 7396).
    value = json::parse(preset->network);
    value.merge_patch(written);
    value.erase("preset");
  }
  NetworkSpec network;
  network.preset = preset_name;
  network.topology = check.string(check.require(value, pointer, "topology", "a topology name"),
                                  child(pointer, "topology"));
  const std::string link_pointer = child(pointer, "link");
  network.link =
      read_link(check, check.require(value, pointer, "link", "an object"), link_pointer, source);
  const json* transport = Checker::find(value, "transport");
  network.transport =
      read_transport(check, transport ? *transport : json::object(), child(pointer, "transport"),
                     child(link_pointer, "mtu"), network.link.mtu);
  if (const json* v = Checker::find(value, "ns3_defaults")) {
    const std::string at = child(pointer, "ns3_defaults");
    if (!v->is_object()) check.fail_found(at, "an object of ns-3 Attribute names and values", *v);
    for (const auto& item : v->items()) {
      network.ns3_defaults.push_back(
          Ns3Default{item.key(), attribute_text(check, item.value(), child(at, item.key()))});
    }
  }
  if (const json* v = Checker::find(value, "topology_options")) {
    network.topology_options = read_topology_options(check, *v, child(pointer, "topology_options"));
  }
  if (const json* v = Checker::find(value, "placement")) {
    network.placement = read_placement(check, *v, child(pointer, "placement"));
  }
  if (const json* v = Checker::find(value, "partition")) {
    const std::string at = child(pointer, "partition");
    if (!v->is_object()) check.fail_found(at, "an object of node names and process numbers", *v);
    for (const auto& item : v->items()) {
      network.partition.emplace_back(
          item.key(), uint32_t(check.integer(item.value(), child(at, item.key()), 0, UINT32_MAX,
                                             "a process number (an integer from 0)")));
    }
  }
  if (const json* v = Checker::find(value, "switch")) {
    network.switches = read_switch(check, *v, child(pointer, "switch"));
  }
  if (const json* v = Checker::find(value, "wan")) {
    network.wan = read_wan(check, *v, child(pointer, "wan"), source);
  }
  if (const json* v = Checker::find(value, "intra_server_link")) {
    network.intra_server_link = read_intra_server_link(check, *v, child(pointer, "intra_server_link"));
  }
  return network;
}

}  // namespace uniference
