#include "apps/reference.h"

#include "apps/atomic_file.h"
#include "apps/scenario_key_reference.h"
#include "bridge/collective_ops.h"
#include "bridge/collective_presets.h"
#include "bridge/link_presets.h"
#include "bridge/network_presets.h"
#include "bridge/network_registry.h"
#include "bridge/wan_models.h"
#include "compute/compute_meter.h"
#include "compute/model_config.h"
#include "compute/moe/expert_exchange.h"
#include "compute/serving/requests.h"
#include "compute/serving/scheduler.h"
#include "compute/strategy.h"

#include <ns3/collective-helper.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace uniference {

namespace {

using nlohmann::json;

struct Listed {
  std::string key;          // in registered_names()
  std::string schema_path;  // JSON pointer of the enum's owner in schema.json
  std::vector<std::pair<std::string, std::string>> entries;  // name, description
};

template <typename Entry>
std::vector<std::pair<std::string, std::string>> entries_of(const NamedRegistry<Entry>& registry) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Entry& entry : registry.entries()) out.emplace_back(entry.name, entry.description);
  return out;
}

std::vector<Listed> listed() {
  return {
      {"model_presets", "/properties/model/properties/preset", entries_of(model_presets())},
      {"strategies", "/properties/parallel/properties/strategy", entries_of(strategies())},
      {"dispatch_schemes", "/properties/parallel/properties/dispatch",
       entries_of(dispatch_schemes())},
      {"device_profiles", "/properties/devices/properties/profile/anyOf/0",
       entries_of(device_profiles())},
      {"network_presets", "/properties/network/properties/preset", entries_of(network_presets())},
      {"topologies", "/properties/network/properties/topology", entries_of(topologies())},
      {"link_models", "/properties/network/properties/link/properties/model",
       entries_of(link_models())},
      {"transports", "/properties/network/properties/transport/properties/kind",
       entries_of(transport_kinds())},
      {"tcp_variants", "/properties/network/properties/transport/properties/tcp_variant",
       entries_of(tcp_variants())},
      {"link_presets", "/properties/network/properties/link/properties/preset",
       entries_of(link_presets())},
      {"wan_models", "/properties/network/properties/wan/properties/model",
       entries_of(wan_models())},
      {"rdma_congestion_controls",
       "/properties/network/properties/transport/properties/congestion_control",
       entries_of(rdma_congestion_controls())},
      {"collective_presets", "/properties/collectives/properties/preset",
       entries_of(collective_presets())},
      {"workload_kinds", "/properties/workload/properties/kind", entries_of(workload_kinds())},
      {"schedulers", "/properties/workload/properties/scheduler/properties/name",
       entries_of(schedulers())},
      {"length_distributions", "/$defs/length/oneOf/1/properties/distribution",
       entries_of(length_distributions())},
  };
}

std::vector<std::string> names_of(const Listed& list) {
  std::vector<std::string> names;
  for (const auto& entry : list.entries) names.push_back(entry.first);
  return names;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string table(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out = "| Name | What |\n| --- | --- |\n";
  for (const auto& [name, description] : entries) {
    out += "| `" + name + "` | " + description + " |\n";
  }
  return out;
}

// Replaces the text between "<!-- generated: KEY -->" and "<!-- end generated: KEY -->".
std::string replace_section(const std::string& text, const std::string& key,
                            const std::string& body, const std::string& path) {
  const std::string begin = "<!-- generated: " + key + " -->\n";
  const std::string end = "<!-- end generated: " + key + " -->";
  size_t from = text.find(begin);
  size_t to = text.find(end);
  if (from == std::string::npos || to == std::string::npos || to < from) {
    throw std::runtime_error(path + ": no generated section '" + key + "' (markers " + begin +
                             "... " + end + ")");
  }
  from += begin.size();
  return text.substr(0, from) + body + text.substr(to);
}

std::string collective_table() {
  std::string out = "| Operation | Algorithms | Default |\n| --- | --- | --- |\n";
  for (const CollectiveOp& op : collective_ops()) {
    std::string algorithms;
    for (const std::string& a : ns3::CollectiveHelper::GetAlgorithms(op_name(op.op))) {
      algorithms += (algorithms.empty() ? "" : ", ") + ("`" + a + "`");
    }
    out += std::string("| `") + op_name(op.op) + "` | " + algorithms + " | `" +
           op.default_algorithm + "` |\n";
  }
  return out;
}

// Every topology's options: docs/scenarios.md's table and schema.json's property names.
std::string topology_options_table() {
  std::string out = "| Topology | Option | Meaning |\n| --- | --- | --- |\n";
  for (const Topology& topology : topologies().entries()) {
    for (const TopologyOption& option : topology.options) {
      out += "| `" + topology.name + "` | `" + option.name + "` | " + option.description + " |\n";
    }
  }
  return out;
}

std::vector<std::string> topology_option_names() {
  std::vector<std::string> names;
  for (const Topology& topology : topologies().entries()) {
    for (const TopologyOption& option : topology.options) {
      if (std::find(names.begin(), names.end(), option.name) == names.end()) {
        names.push_back(option.name);
      }
    }
  }
  return names;
}

}  // namespace

json registered_names() {
  json names = json::object();
  for (const Listed& list : listed()) names[list.key] = names_of(list);
  json collectives = json::object();
  for (const CollectiveOp& op : collective_ops()) {
    collectives[op_name(op.op)] = ns3::CollectiveHelper::GetAlgorithms(op_name(op.op));
  }
  names["collectives"] = collectives;
  return names;
}

std::string registered_names_help() {
  std::string out;
  for (const Listed& list : listed()) {
    std::string line = "  " + list.key + ":";
    for (const std::string& name : names_of(list)) line += " " + name;
    out += line + "\n";
  }
  for (const CollectiveOp& op : collective_ops()) {
    std::string line = std::string("  collectives/") + op_name(op.op) + ":";
    for (const std::string& a : ns3::CollectiveHelper::GetAlgorithms(op_name(op.op))) {
      line += " " + a + (a == op.default_algorithm ? " (default)" : "");
    }
    out += line + "\n";
  }
  return out;
}

std::string update_reference(const std::string& root, bool write) {
  std::string differ;
  auto settle = [&](const std::string& path, const std::string& old_text,
                    const std::string& new_text) {
    if (old_text == new_text) return;
    differ += path + "\n";
    if (write) write_file_atomically(path, new_text);
  };

  const std::string schema_path = root + "/scenarios/schema.json";
  const std::string schema_text = read_file(schema_path);
  // Ordered, so the file keeps the key order people wrote it in.
  using ordered = nlohmann::ordered_json;
  ordered schema = ordered::parse(schema_text);
  // Every key's entry, from the keys' table; then the names each registry gives.
  std::vector<std::string> operations;
  for (const CollectiveOp& op : collective_ops()) operations.push_back(op_name(op.op));
  const ordered keys = scenario_keys_schema({{"<op>", operations}});
  schema["required"] = keys["required"];
  schema["properties"] = keys["properties"];
  for (const Listed& list : listed()) {
    schema[ordered::json_pointer(list.schema_path)]["enum"] = names_of(list);
  }
  for (const std::string& operation : operations) {
    schema[ordered::json_pointer("/properties/collectives/properties/" + operation +
                                 "/properties/algorithm")]["enum"] =
        ns3::CollectiveHelper::GetAlgorithms(operation);
  }
  schema[ordered::json_pointer("/properties/network/properties/topology_options")]
        ["propertyNames"]["enum"] = topology_option_names();
  settle(schema_path, schema_text, schema.dump(2) + "\n");

  const std::string docs_path = root + "/docs/scenarios.md";
  const std::string docs_text = read_file(docs_path);
  std::string docs = replace_section(docs_text, "scenario_keys", scenario_keys_table(), docs_path);
  for (const Listed& list : listed()) {
    docs = replace_section(docs, list.key, table(list.entries), docs_path);
  }
  docs = replace_section(docs, "collectives", collective_table(), docs_path);
  docs = replace_section(docs, "topology_options", topology_options_table(), docs_path);
  settle(docs_path, docs_text, docs);
  return differ;
}

}  // namespace uniference
