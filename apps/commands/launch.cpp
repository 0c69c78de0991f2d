// uniference launch: deploy a scenario for real, as uniference-deploy processes.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/launch.h"

#include <chrono>
#include <stdexcept>

namespace uniference {

namespace {

int launch_main(const std::vector<std::string>& args, const char* argv0) {
  LaunchOptions options;
  double timeout_s = 120;
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "-n") options.ranks = std::stoi(value());
      else if (a == "--netns") options.netns = comma_list(value());
      else if (a == "--master-addr") options.master_addr = value();
      else if (a == "--master-port") options.master_port = std::stoi(value());
      else if (a == "--timeout") {
        const std::string& v = value();
        timeout_s = std::stod(v);
        options.deploy_args.insert(options.deploy_args.end(), {a, v});
      } else if (a == "--backend" || a == "--exchanges" || a == "--rendezvous-timeout" ||
                 a == "--out" || a == "--set" || a == "--job") {
        const std::string& v = value();
        options.deploy_args.insert(options.deploy_args.end(), {a, v});
      } else if (a == "--quiet") options.deploy_args.push_back(a);
      else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
      else options.deploy_args.push_back(a);
    });
    check_launch(options);
  } catch (const std::exception& e) {
    return usage_error(std::string("launch: ") + e.what());
  }
  options.rank_timeout = std::chrono::milliseconds(int64_t(timeout_s * 1000));
  options.deploy_binary = deploy_binary_beside(argv0);
  return reporting_errors([&] { return uniference::launch(options); });
}

}  // namespace

Command launch_command() {
  return {"launch",
          {"(-n N | --netns NS1,NS2,...) SCENARIO.json [--master-addr HOST]\n"
            "[--master-port PORT] [--backend gloo|nccl] [--timeout S]\n"
            "[--exchanges stock|receive-first] [--rendezvous-timeout S] [--out DIR]\n"
            "[--set POINTER=VALUE]... [--job NAME] [--quiet]"},
          {{"launch SCENARIO.json",
            "deploy for real: start the scenario's ranks as uniference-deploy\n"
            "processes on this host (-n N), or one in each network namespace\n"
            "(--netns, with --master-addr the address of the first), over Gloo\n"
            "(default) or NCCL; their output comes prefixed \"[rank r] \"; rank 0\n"
            "prints the summary with real times and writes results.json and\n"
            "trace.json (default out/<scenario name>-deploy). A free port is\n"
            "chosen unless --master-port. --timeout S bounds every communication\n"
            "call (default 120) and --rendezvous-timeout S the wait for all ranks\n"
            "to join (default 60); a rank that fails names the lost peer, and\n"
            "launch exits with the first failing rank's code (uniference-deploy\n"
            "--help). --job NAME deploys one job of a scenario of several (/jobs)\n"
            "as it would be alone. --exchanges: how Gloo's all-to-all and 2-rank\n"
            "all-gather run, receive-first (default) or stock (as torch.distributed\n"
            "runs them); results.json's `collectives` names the preset to simulate\n"
            "it with"}},
          launch_main, kSetKey | kQuietOption};
}

}  // namespace uniference
