// uniference-deploy: one rank of a real deployment of a scenario. It links the shard code
// and never ns-3: the strategy that the simulator runs over SimComm runs here, unchanged,
// over Gloo (TCP between processes) or NCCL.
//
//   RANK=r WORLD_SIZE=n MASTER_ADDR=host MASTER_PORT=port uniference-deploy SCENARIO.json
//
// Started like torchrun starts a worker, or N at once by `uniference launch -n N`.
#include "apps/command_line.h"
#include "apps/compute_check.h"
#include "apps/deploy/deploy_colltest.h"
#include "apps/deploy/deploy_netprofile.h"
#include "apps/deploy/deploy_rank.h"
#include "apps/scenario.h"
#include "apps/scenario_jobs.h"
#include "apps/units.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr int kExitRuntime = 1;
constexpr int kExitUsage = 2;

const char* kUsage = R"(usage: uniference-deploy SCENARIO.json [--backend gloo|nccl] [--exchanges stock|receive-first]
                         [--rank R] [--world-size N]
                         [--local-rank L] [--master-addr HOST] [--master-port PORT]
                         [--rendezvous-timeout SECONDS] [--timeout SECONDS]
                         [--out DIR] [--set POINTER=VALUE]... [--job NAME] [--quiet]
       uniference-deploy colltest [--op OP] [--min-bytes B] [--max-bytes B] [--step-factor F]
                         [--warmup N] [--iters N] [--csv FILE] [--plot FILE.png]
                         [the options above but --out, --set]
       uniference-deploy netprofile [--min-bytes B] [--max-bytes B] [--iters N] [--out FILE]
                         [the options above but --set]

Runs this process's rank of SCENARIO.json's strategy for real, over Gloo (CPU processes,
TCP) or NCCL (one GPU per rank), and prints the same summary as a simulated run with real
times. Rank 0 serves the rendezvous store, gathers every rank's record, prints the summary
and writes results.json and trace.json into the output folder; every rank also writes its
own into DIR/rank<R>/ (real timestamps on one clock: the traces merge).

A scenario of several jobs (/jobs) deploys one of them, named by --job, as the scenario it
would be alone: the same shard code on the job's own world.

colltest runs `uniference colltest`'s sweep of one operation on the real backend instead
(CPU float32 tensors; each iteration after a barrier, its time the slowest rank's); rank 0
prints the nccl-tests-style table and writes the CSV and plot. `uniference colltest
SCENARIO --backend gloo` launches it.

netprofile times a ping-pong between the 2 ranks of the world (sizes min to max by 4, the
median of --iters round trips each), fits t = alpha + beta S, prints it with the star links
it suggests and writes the network profile JSON to --out. `uniference profile-network`
launches it.

The place of this process, as torchrun gives it (flags override the environment):
  RANK, --rank                this process's rank (default 0)
  WORLD_SIZE, --world-size    the number of ranks (default 1); must be the scenario's
  LOCAL_RANK, --local-rank    the local GPU an nccl rank drives (default 0)
  MASTER_ADDR, --master-addr  the host of rank 0 (default 127.0.0.1)
  MASTER_PORT, --master-port  the port rank 0 serves the rendezvous store on (default 29500)

options:
  --backend NAME              gloo (default) or nccl
  --exchanges HOW             gloo: how all-to-all, and all-gather on two ranks, run:
                              receive-first (default; every receive posted before any send,
                              both directions of a pair at once) or stock (Gloo's own
                              schedules, as torch.distributed runs them: a pair's send first,
                              its two directions often one after the other). results.json's
                              `collectives` and colltest's algorithm column name the preset
                              that simulates it (gloo-receive-first or gloo)
  --rendezvous-timeout S      how long ranks wait for each other to join (default 60)
  --timeout S                 how long any communication call may take before the rank
                              gives up, naming the lost peer (default 120)
  --out DIR                   output folder (default: out/<scenario name>-deploy)
  --set POINTER=VALUE         override a scenario key, as `uniference run --set`
  --quiet                     no progress lines on stderr

exit codes: 0 done; 1 runtime error (a peer lost, a timeout, the rendezvous failed: the
message names the rank and the cause); 2 bad scenario or usage (WORLD_SIZE against the
scenario's degrees names the key)
)";

int usage_error(const std::string& message) {
  std::cerr << "uniference-deploy: " << message << "\n\n" << kUsage;
  return kExitUsage;
}

// Flushes and leaves without destructors: a failed communication group's would wait for
// its stuck operations.
[[noreturn]] void leave(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::_Exit(code);
}


std::chrono::milliseconds parse_seconds(const std::string& what, const std::string& text) {
  const std::optional<double> seconds = uniference::parse_number(text);
  if (!seconds || !(*seconds > 0)) {
    throw std::invalid_argument(what + " must be a positive number of seconds, found '" + text + "'");
  }
  return std::chrono::milliseconds(int64_t(*seconds * 1000));
}

std::string from_environment(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  uniference::DeployOptions options;
  uniference::ColltestOptions colltest;
  uniference::NetworkProfileOptions netprofile;
  bool colltest_mode = false, netprofile_mode = false, exchanges_given = false;
  std::string scenario_path, csv, plot, job;
  std::vector<std::string> overrides;
  try {
    std::string rank = from_environment("RANK", "0");
    std::string world = from_environment("WORLD_SIZE", "1");
    std::string local_rank = from_environment("LOCAL_RANK", "0");
    std::string port = from_environment("MASTER_PORT", "29500");
    options.rendezvous.master_addr = from_environment("MASTER_ADDR", "127.0.0.1");
    colltest_mode = !args.empty() && args[0] == "colltest";
    netprofile_mode = !args.empty() && args[0] == "netprofile";
    uniference::for_each_argument(args, colltest_mode || netprofile_mode ? 1 : 0, [&](const std::string& a,
                                                                                const auto& value) {
      if (a == "--backend") options.backend = value();
      else if (a == "--exchanges") {
        options.exchanges = uniference::parse_exchanges(value());
        exchanges_given = true;
      }
      else if (a == "--rank") rank = value();
      else if (a == "--world-size") world = value();
      else if (a == "--local-rank") local_rank = value();
      else if (a == "--master-addr") options.rendezvous.master_addr = value();
      else if (a == "--master-port") port = value();
      else if (a == "--rendezvous-timeout") options.rendezvous.timeout = parse_seconds(a, value());
      else if (a == "--timeout") options.timeout = parse_seconds(a, value());
      else if (a == "--quiet") options.progress = false;
      else if (colltest_mode && a == "--op") colltest.op = value();
      else if (colltest_mode && a == "--min-bytes") colltest.min_bytes = uniference::parse_byte_count(value());
      else if (colltest_mode && a == "--max-bytes") colltest.max_bytes = uniference::parse_byte_count(value());
      else if (colltest_mode && a == "--step-factor") colltest.step_factor = std::stod(value());
      else if (colltest_mode && a == "--warmup") colltest.warmup = uniference::int_argument(a, value());
      else if (colltest_mode && a == "--iters") colltest.iters = uniference::int_argument(a, value());
      else if (colltest_mode && a == "--csv") csv = value();
      else if (colltest_mode && a == "--plot") plot = value();
      else if (netprofile_mode && a == "--min-bytes") netprofile.min_bytes = uniference::parse_byte_count(value());
      else if (netprofile_mode && a == "--max-bytes") netprofile.max_bytes = uniference::parse_byte_count(value());
      else if (netprofile_mode && a == "--iters") netprofile.iters = uniference::int_argument(a, value());
      else if (netprofile_mode && a == "--out") netprofile.out = value();
      else if (!colltest_mode && !netprofile_mode && a == "--out") options.out_dir = value();
      else if (!colltest_mode && !netprofile_mode && a == "--set") overrides.push_back(value());
      else if (!colltest_mode && !netprofile_mode && a == "--job") job = value();
      else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
      else if (colltest_mode || netprofile_mode) throw std::invalid_argument(args[0] + " takes no scenario");
      else if (scenario_path.empty()) scenario_path = a;
      else throw std::invalid_argument("more than one scenario given");
    });
    if (scenario_path.empty() && !colltest_mode && !netprofile_mode) {
      throw std::invalid_argument("needs a scenario file");
    }
    options.placement.rank = uniference::int_argument("RANK", rank);
    options.placement.world = uniference::int_argument("WORLD_SIZE", world);
    options.placement.local_rank = uniference::int_argument("LOCAL_RANK", local_rank);
    options.rendezvous.master_port = uniference::int_argument("MASTER_PORT", port);
    if (options.placement.world < 1) throw std::invalid_argument("WORLD_SIZE must be at least 1");
    if (options.placement.rank < 0 || options.placement.rank >= options.placement.world) {
      throw std::invalid_argument("RANK " + rank + " is not in a world of " + world);
    }
    uniference::deploy_backends().at(options.backend);
    if (exchanges_given && options.backend != "gloo") {
      throw std::invalid_argument("--exchanges is for the gloo backend; " + options.backend +
                                  " runs its own schedules");
    }
    if (colltest_mode) uniference::check_colltest(colltest, options.placement.world);
  } catch (const uniference::HelpRequested&) {
    std::cout << kUsage;
    return 0;
  } catch (const std::exception& e) {
    return usage_error(e.what());
  }

  if (colltest_mode || netprofile_mode) {
    std::string failure;
    try {
      failure = colltest_mode ? uniference::run_deploy_colltest(colltest, options, csv, plot)
                              : uniference::run_deploy_netprofile(netprofile, options);
    } catch (const std::invalid_argument& e) {
      return usage_error(e.what());
    }
    if (!failure.empty()) std::cerr << "uniference-deploy: error: " << failure << "\n";
    leave(failure.empty() ? 0 : kExitRuntime);
  }
  try {
    const uniference::Scenario scenario =
        uniference::job_alone(uniference::load_scenario(scenario_path, overrides), job);
    const uniference::CheckedCompute checked = uniference::check_compute(scenario);
    uniference::check_deployment(scenario, checked, options);
    if (options.out_dir.empty()) {
      options.out_dir = (std::filesystem::path("out") / (scenario.name + "-deploy")).string();
    }
    if (options.progress) {
      std::cerr << "uniference-deploy: rank " << options.placement.rank << " of "
                << options.placement.world << " running " << scenario.name << " on "
                << options.backend << "\n";
    }
    const std::string failure = uniference::run_deploy_rank(scenario, checked, options);
    if (!failure.empty()) {
      std::cerr << "uniference-deploy: error: " << failure << "\n";
      leave(kExitRuntime);
    }
    if (options.progress && options.placement.rank == 0) {
      std::cerr << "uniference-deploy: wrote " << options.out_dir << "\n";
    }
    leave(0);
  } catch (const uniference::ScenarioError& e) {
    std::cerr << "uniference-deploy: " << e.what() << "\n";
    leave(kExitUsage);
  } catch (const std::exception& e) {
    std::cerr << "uniference-deploy: error: " << e.what() << "\n";
    leave(kExitRuntime);
  }
}
