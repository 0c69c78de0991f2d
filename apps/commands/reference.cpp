// uniference reference: the generated lists of schema.json and docs/scenarios.md against
// the registries.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/reference.h"

#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

int reference(const std::vector<std::string>& args, const char*) {
  std::string mode, root;
  bool well_formed = true;
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto&) {
      if (mode.empty() && (a == "--check" || a == "--write")) mode = a;
      else if (!mode.empty() && root.empty()) root = a;
      else well_formed = false;
    });
  } catch (const std::invalid_argument&) {
    well_formed = false;
  }
  if (!well_formed || mode.empty() || root.empty()) {
    return usage_error("reference needs --check or --write and the source root");
  }
  const bool write = mode == "--write";
  try {
    const std::string differ = update_reference(root, write);
    if (differ.empty()) return 0;
    std::cerr << (write ? "uniference: regenerated\n"
                        : "uniference: out of date with the registries "
                          "(run uniference reference --write):\n")
              << differ;
    return write ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "uniference: error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

Command reference_command() {
  return {"reference",
          {"--check|--write SOURCE_ROOT"},
          {{"reference --check|--write SOURCE_ROOT",
            "compare (or regenerate) the generated lists in scenarios/schema.json\n"
            "and docs/scenarios.md with the registries; --check exits 1 on a\n"
            "difference"}},
          reference, 0};
}

}  // namespace uniference
