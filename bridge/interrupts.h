// Stopping a simulation from outside: SIGINT (Ctrl-C) or SIGTERM while a run is under way ends
// it at the simulated time it has reached, through an ns-3 event, so that what it recorded up
// to there is whole and can be written out as a partial result.
//
// A signal handler may do almost nothing, and ns-3 may only be touched from its own thread,
// except for Simulator::ScheduleWithContext, which DefaultSimulatorImpl takes from any thread
// (events queued under a lock, picked up between events). So the handler writes the signal's
// number into a pipe, and a watcher thread turns it into such an event while a run is in
// Simulator::Run; a signal that comes before the run starts stops it as it starts.
#pragma once

#include <functional>

namespace uniference {

// Installs the SIGINT and SIGTERM handlers and the watcher thread, once per process; later
// calls do nothing. Without it the signals keep their default action (the process dies).
void watch_interrupts();

// The signal that asked the process to stop (SIGINT or SIGTERM), or 0.
int interrupt_signal();

// For the length of a Simulator::Run: a watched signal calls `stop` (with the signal) as an
// ns-3 event on the simulation's thread. If one came before, stop_now() is true and the
// caller should not run at all.
class InterruptScope {
 public:
  explicit InterruptScope(std::function<void(int)> stop);
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // A signal came before the scope began: its number, else 0.
  int stop_now() const { return early_; }

 private:
  int early_ = 0;
};

}  // namespace uniference
