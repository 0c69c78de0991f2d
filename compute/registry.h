// One list per kind of thing a scenario picks by name (strategies, model presets, device
// profiles in compute/; topologies, transports, link models in bridge/). Lookups, error
// messages, scenario checking, --help and the generated docs all read the same list, so
// a new member is one entry and nothing else.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace uniference {

// Entry: any struct with `std::string name` and `std::string description`.
template <typename Entry>
class NamedRegistry {
 public:
  // kind: what a member is called in messages ("strategy", "topology", ...).
  NamedRegistry(std::string kind, std::vector<Entry> entries)
      : kind_(std::move(kind)), entries_(std::move(entries)) {
    for (size_t i = 0; i < entries_.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (entries_[i].name == entries_[j].name) {
          throw std::logic_error(kind_ + " '" + entries_[i].name + "' is registered twice");
        }
      }
    }
  }

  const std::string& kind() const { return kind_; }
  const std::vector<Entry>& entries() const { return entries_; }

  const Entry* find(const std::string& name) const {
    for (const Entry& entry : entries_) {
      if (entry.name == name) return &entry;
    }
    return nullptr;
  }

  // Throws std::invalid_argument naming the known members.
  const Entry& at(const std::string& name) const {
    if (const Entry* entry = find(name)) return *entry;
    std::string known;
    for (const Entry& entry : entries_) known += (known.empty() ? "" : ", ") + entry.name;
    throw std::invalid_argument("unknown " + kind_ + " '" + name + "'; known: " + known);
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Entry& entry : entries_) out.push_back(entry.name);
    return out;
  }

 private:
  std::string kind_;
  std::vector<Entry> entries_;
};

}  // namespace uniference
