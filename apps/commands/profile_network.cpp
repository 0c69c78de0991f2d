// uniference profile-network: a ping-pong between two real ranks, fitted to alpha + beta S.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/launch.h"

#include <filesystem>
#include <stdexcept>

namespace uniference {

namespace {

int profile_network_main(const std::vector<std::string>& args, const char* argv0) {
  LaunchOptions launch;
  launch.ranks = 2;
  launch.deploy_args = {"netprofile"};
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "--netns") launch.netns = comma_list(value());
      else if (a == "--master-addr") launch.master_addr = value();
      else if (a == "--master-port") launch.master_port = std::stoi(value());
      else if (a == "--out") {
        launch.deploy_args.insert(launch.deploy_args.end(),
                                  {a, std::filesystem::absolute(value()).string()});
      } else if (a == "--backend" || a == "--min-bytes" || a == "--max-bytes" || a == "--iters") {
        const std::string& v = value();
        launch.deploy_args.insert(launch.deploy_args.end(), {a, v});
      } else {
        throw std::invalid_argument("unknown option '" + a + "'");
      }
    });
    if (!launch.netns.empty()) {
      if (launch.netns.size() != 2) throw std::invalid_argument("--netns needs exactly 2 namespaces");
      launch.ranks = 0;
    }
    check_launch(launch);
  } catch (const std::exception& e) {
    return usage_error(std::string("profile-network: ") + e.what());
  }
  launch.deploy_binary = deploy_binary_beside(argv0);
  return reporting_errors([&] { return uniference::launch(launch); });
}

}  // namespace

Command profile_network_command() {
  return {"profile-network",
          {"[--backend gloo|nccl] [--netns NS1,NS2 --master-addr HOST]\n"
            "[--min-bytes B] [--max-bytes B] [--iters N] [--out FILE.json]"},
          {{"profile-network",
            "a ping-pong between 2 real ranks (on this host, or in --netns NS1,NS2\n"
            "of an emulated testbed) over the backend (default gloo), sizes\n"
            "--min-bytes (default 8) to --max-bytes (default 16M) by 4, the median\n"
            "of --iters (default 5) round trips; fits t = alpha + beta S, prints it\n"
            "with the star links it suggests (--set lines for a scenario) and\n"
            "writes the network profile JSON to --out"}},
          profile_network_main, 0};
}

}  // namespace uniference
