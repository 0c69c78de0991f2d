#include "apps/deploy/deploy_colltest.h"

#include "apps/atomic_file.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>

namespace uniference {

namespace {

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::string run_deploy_colltest(const ColltestOptions& colltest, const DeployOptions& options,
                                const std::string& csv, const std::string& plot) {
  const int world = options.placement.world;
  check_colltest(colltest, world);
  DeploySession session(options);
  const std::string unconnected = session.open();
  if (!unconnected.empty()) return unconnected;
  const std::vector<uint64_t> sizes = sweep_sizes(colltest, world);
  return session.run([&] {
    const auto progress = [&](uint64_t bytes) {
      if (options.progress) std::cerr << "uniference colltest: " << bytes << " bytes\n";
    };
    const std::vector<std::vector<int64_t>> mine =
        run_sweep(*session.world(), colltest, sizes, at::TensorOptions().dtype(at::kFloat),
                  steady_ns, progress);
    const std::vector<std::string> parts =
        session.gather_at_zero("colltest", nlohmann::json(mine).dump());
    if (options.placement.rank != 0) return;
    std::vector<std::vector<std::vector<int64_t>>> elapsed;
    for (const std::string& part : parts) {
      elapsed.push_back(nlohmann::json::parse(part).get<std::vector<std::vector<int64_t>>>());
    }
    const std::vector<ColltestRow> rows = sweep_rows(
        colltest, world, sizes, elapsed, [&](uint64_t) { return session.collective_preset(); });
    std::cout << colltest_table(rows);
    if (!csv.empty()) write_file_atomically(csv, colltest_csv(rows));
    if (!plot.empty()) plot_colltest(rows, plot, session.backend());
  });
}

}  // namespace uniference
