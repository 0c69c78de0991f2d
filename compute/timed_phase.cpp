#include "compute/timed_phase.h"

#include <utility>

namespace uniference {

namespace {
PhaseSink& sink() {
  static PhaseSink installed;
  return installed;
}
}  // namespace

void set_phase_sink(PhaseSink new_sink) { sink() = std::move(new_sink); }

void phase_begins(const std::string& name) {
  if (const PhaseSink& installed = sink()) installed(name, true);
}

void phase_ends(const std::string& name) {
  if (const PhaseSink& installed = sink()) installed(name, false);
}

}  // namespace uniference
