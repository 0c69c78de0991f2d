#include "apps/simulation_progress.h"

#include "apps/report.h"
#include "bridge/progress_scheduler.h"

#include <ns3/simulator.h>

#include <cstdio>
#include <utility>

namespace uniference {

SimulationProgress::SimulationProgress(Kernel& kernel, size_t tokens_expected, std::string label)
    : kernel_(kernel), tokens_expected_(tokens_expected), label_(std::move(label)), line_(false) {
  if (line_.enabled()) ProgressScheduler::Install([this] { tick(); });
}

SimulationProgress::~SimulationProgress() {
  if (line_.enabled()) ProgressScheduler::Install(nullptr);
}

void SimulationProgress::tick() {
  if (!line_.due()) return;
  const uint64_t events = ns3::Simulator::GetEventCount();
  const double wall_s = line_.wall_s();
  char rate[48];
  std::snprintf(rate, sizeof rate, "%.0f k events/s", double(events - last_events_) / 1e3 / (wall_s - last_wall_s_));
  last_events_ = events;
  last_wall_s_ = wall_s;
  std::string text = (label_.empty() ? "" : label_ + ": ") + "t=" + format_duration(kernel_.now_ns()) +
                     " simulated, " + rate;
  const size_t tokens = kernel_.record().tokens.size();
  if (tokens_expected_ > 0) {
    text += ", " + std::to_string(tokens) + "/" + std::to_string(tokens_expected_) + " tokens";
    if (tokens > 0 && tokens < tokens_expected_) {
      char left[32];
      std::snprintf(left, sizeof left, ", about %.0f s left",
                    wall_s * double(tokens_expected_ - tokens) / double(tokens));
      text += left;
    }
  }
  line_.show(text, true);
}

}  // namespace uniference
