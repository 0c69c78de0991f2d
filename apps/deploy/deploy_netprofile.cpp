#include "apps/deploy/deploy_netprofile.h"

#include "apps/alpha_beta_fit.h"
#include "apps/atomic_file.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One-way time of `bytes`: the median over `iters` round trips, halved. Rank 0 sends first.
double one_way_seconds(Comm& comm, uint64_t bytes, int iters) {
  at::Tensor buffer = at::zeros({int64_t(bytes)}, at::kByte);
  const int peer = 1 - comm.rank();
  std::vector<double> round_trips;
  for (int i = -1; i < iters; ++i) {  // i = -1: warm-up
    const double start = now_s();
    if (comm.rank() == 0) {
      comm.send(buffer, peer);
      comm.recv(buffer, peer);
    } else {
      comm.recv(buffer, peer);
      comm.send(buffer, peer);
    }
    if (i >= 0) round_trips.push_back(now_s() - start);
  }
  std::sort(round_trips.begin(), round_trips.end());
  return round_trips[round_trips.size() / 2] / 2;
}

}  // namespace

std::string run_deploy_netprofile(const NetworkProfileOptions& profile, const DeployOptions& options) {
  if (options.placement.world != 2) {
    throw std::invalid_argument("profile-network runs a ping-pong between 2 ranks, not " +
                                std::to_string(options.placement.world));
  }
  if (profile.min_bytes < 1 || profile.min_bytes >= profile.max_bytes || profile.iters < 1) {
    throw std::invalid_argument("need 1 <= --min-bytes < --max-bytes and --iters >= 1");
  }
  DeploySession session(options);
  const std::string unconnected = session.open();
  if (!unconnected.empty()) return unconnected;
  return session.run([&] {
    std::vector<TimedSize> samples;
    for (uint64_t bytes = profile.min_bytes; bytes <= profile.max_bytes; bytes *= 4) {
      if (options.progress && options.placement.rank == 0) {
        std::cerr << "uniference profile-network: " << bytes << " bytes\n";
      }
      samples.push_back({bytes, one_way_seconds(*session.world(), bytes, profile.iters)});
    }
    if (options.placement.rank != 0) return;
    const AlphaBeta fit = fit_alpha_beta(samples);
    std::printf("# one-way time of a %s message between 2 ranks (median of %d round trips / 2)\n",
                session.backend().c_str(), profile.iters);
    std::printf("%14s %14s %14s\n", "bytes", "measured(us)", "fit(us)");
    for (const TimedSize& s : samples) {
      std::printf("%14llu %14.1f %14.1f\n", static_cast<unsigned long long>(s.bytes), s.seconds * 1e6,
                  (fit.alpha_s + fit.beta_s_per_byte * double(s.bytes)) * 1e6);
    }
    std::printf("alpha %.1f us, beta %.4f ns/B (%.1f Mbit/s)\nstar links: %s\n", fit.alpha_s * 1e6,
                fit.beta_s_per_byte * 1e9, 8e-6 / fit.beta_s_per_byte, star_link_overrides(fit).c_str());
    std::fflush(stdout);
    if (!profile.out.empty()) {
      write_file_atomically(profile.out,
                            network_profile_json(fit, samples, session.backend()).dump(2) + "\n");
    }
  });
}

}  // namespace uniference
