#include "bridge/collective_ops.h"

#include <algorithm>
#include <stdexcept>

namespace uniference {

const std::vector<CollectiveOp>& collective_ops() {
  static const std::vector<CollectiveOp> ops = [] {
    std::vector<CollectiveOp> collectives;
    for (const CollectiveDescription& op : collective_descriptions()) {
      if (op.collective) collectives.push_back(op);
    }
    std::sort(collectives.begin(), collectives.end(),
              [](const CollectiveOp& a, const CollectiveOp& b) { return a.op < b.op; });
    return collectives;
  }();
  return ops;
}

const CollectiveOp& collective_op(OpType op) {
  const CollectiveDescription& entry = describe(op);
  if (!entry.collective) {
    throw std::invalid_argument(std::string(entry.name) + " is not a collective operation");
  }
  return entry;
}

const CollectiveOp* find_collective_op(const std::string& name) {
  const CollectiveDescription* entry = find_description(name);
  return entry != nullptr && entry->collective ? entry : nullptr;
}

}  // namespace uniference
