// The co-simulation kernel: logical processes (LPs) as Boost.Fibers, stepped by
// ns-3 events, on one OS thread (docs/design.md section 2).
//
// ns-3's event queue is the only clock. An LP is resumed by an ns-3 event at time t,
// runs shard code until its next communication call, and is charged the compute
// time d it used; it then sleeps to t + d (another ns-3 event) before the call takes
// effect, so nothing is ever injected into ns-3's past. Blocking waits park the
// fiber until an ns-3 completion event wakes it. The run ends when every LP has
// returned; if every LP is blocked and nothing of ours is left in flight, the run
// ends with a deadlock report instead.
#pragma once

#include "bridge/lp_random.h"
#include "bridge/run_recorder.h"
#include "compute/compute_meter.h"

#include <ATen/ThreadLocalState.h>
#include <boost/fiber/condition_variable.hpp>
#include <boost/fiber/mutex.hpp>

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace uniference {

// What a blocked LP waits for, for deadlock reports.
struct BlockReason {
  std::string operation;  // "recv", "all_reduce", ...
  std::string peer;       // "rank 3", "group 0 {0,1,2,3}", ...
  int tag = -1;           // point-to-point tag, -1 when none
};

// A one-shot wake-up between two fibers of the same thread.
class Baton {
 public:
  void post();
  void wait();

 private:
  boost::fibers::mutex mutex_;
  boost::fibers::condition_variable cv_;
  bool posted_ = false;
};

// One rank's fiber and everything the kernel keeps about it; defined in kernel.cpp, since
// only the kernel changes it.
struct LogicalProcess;
// A host whose cores several LPs share (Kernel::share_cores); defined in kernel.cpp too.
struct CoreHost;

// AddressSanitizer pads every frame with red zones: a fiber needs a few times the stack.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr size_t kDefaultFiberStack = size_t(8) << 20;
#else
inline constexpr size_t kDefaultFiberStack = size_t(1) << 20;
#endif

struct KernelConfig {
  size_t stack_bytes = kDefaultFiberStack;  // guarded stack per LP fiber
  uint64_t seed = 1;                     // of every LP's own random stream
  // Time every LP resume with the wall clock (lp_wall_ns): two clock reads per fiber
  // switch, so only for overhead accounting.
  bool account_lp_wall = false;
  // Mean of the host's wake-up latency, in simulated ns: the time between the completion that
  // ends an LP's blocking wait and the LP running again (the communication library's threads
  // handing the completion on, and the OS scheduling the waiting thread). Each wait draws an
  // exponentially distributed delay from the LP's own stream, so two ranks never tie by
  // construction, as real hosts never do; 0 (the default) resumes at once.
  int64_t wake_mean_ns = 0;
  // Measured wake-up latencies, in ns: when not empty, each wait draws one of them (each
  // equally likely, from the same stream) instead of the exponential. A host's delays are
  // heavy-tailed (mostly microseconds, now and then milliseconds), and which of two ranks
  // resumes last depends on the tail, not only on the mean.
  std::vector<int64_t> wake_samples_ns;
  // How long a blocking call may wait, in simulated ns, before the run ends with a report
  // naming it, as NCCL's and Gloo's timeouts end a job (/collectives/timeout); 0: forever,
  // and a wait nothing can end is reported as a deadlock at once.
  int64_t block_timeout_ns = 0;
};

// How a run ended. Exit codes used by the apps: 0 completed, 1 error (a fault the run could
// not finish after, or a wait past its timeout, included), 3 deadlock with no fault, and
// 128 + the signal for a run stopped by SIGINT (130) or SIGTERM (143), as shells report them.
struct RunOutcome {
  // kFaulted: the run could not finish after an injected fault (/faults); the report names the
  // fault, the waits it left and the time.
  enum class Status { kCompleted, kDeadlock, kError, kInterrupted, kFaulted };
  Status status = Status::kCompleted;
  std::string report;  // deadlock report, error or interruption message; empty when completed
  int signal = 0;      // kInterrupted: the signal that stopped the run
  int exit_code() const {
    switch (status) {
      case Status::kCompleted: return 0;
      case Status::kDeadlock: return 3;
      case Status::kInterrupted: return 128 + signal;
      default: return 1;
    }
  }
};

// Thrown inside an LP that the kernel unwinds after a deadlock or an error elsewhere.
// Shard code must let it pass (a catch-all that swallows it keeps the LP alive).
struct LpCancelled {};

class Kernel {
 public:
  explicit Kernel(KernelConfig config = {});
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  // Adds an LP whose shard code is `body`; its rank is the number of LPs before it.
  int add_lp(std::unique_ptr<ComputeMeter> meter, std::function<void()> body);
  // Before run(): rank's random streams (its libtorch generator and its wake-up draws) become
  // those of LP `index` of a run seeded with `seed`, so that a job among others (/jobs) draws
  // what it would draw alone. By default LP r's streams are (KernelConfig::seed, r).
  void set_stream(int rank, uint64_t seed, int index);
  // Before run(): rank's LP is background (a job of traffic beside the model jobs, /jobs): a
  // run whose other LPs are all blocked with nothing in flight is a deadlock though it still
  // has rounds to come, so that traffic that goes on until the models finish cannot hide one.
  void set_background(int rank);
  // Whether every LP that is not background had finished before `ns` (strictly).
  bool foreground_finished_before(int64_t ns) const {
    return foreground_done_ns_ >= 0 && foreground_done_ns_ < ns;
  }
  int lp_count() const { return static_cast<int>(lps_.size()); }

  // ---- Faults (/faults), before run(); `fault` indexes the recorder's fault records ----
  // Rank `rank` computes `factor` times slower over [start_ns, end_ns): its compute segments
  // are stretched through the window.
  void add_straggler(int rank, int64_t start_ns, int64_t end_ns, double factor, size_t fault);
  // Rank `rank` stops for good at `at_ns`: it never runs again, and what it was waiting for
  // is forgotten. Messages to it are still delivered to its host.
  void crash_at(int rank, int64_t at_ns);

  // Before run(): `ranks` compute on one host's `cores` CPU cores (bridge/shared_cores.h):
  // while more of them compute at once than it has cores, each computes at cores/n of its
  // speed and its compute spans stretch to match. A rank is on at most one host; a rank on
  // none computes on a device of its own, as before.
  void share_cores(const std::vector<int>& ranks, int cores);
  // Something a fault broke that the report of a run that cannot finish should name ("rank0's
  // connection to rank1 was lost at t=..."), noted when it happens.
  void note_fault_effect(std::string what) { fault_effects_.push_back(std::move(what)); }

  // Before run(), in one process of a distributed simulation (bridge/distributed.h): only
  // the LPs with local[rank] run here, the others in the processes that hold their nodes.
  // The run then ends when ns-3 has nothing left to do in any process (it does not stop when
  // this process's LPs finish: its nodes may still carry other processes' packets), and a
  // deadlock is what is left blocked then, reported for this process's LPs.
  void run_only(std::vector<bool> local);
  // Whether rank's LP runs in this process.
  bool runs_here(int rank) const { return local_.empty() || local_[static_cast<size_t>(rank)]; }

  // Runs ns-3 and the LPs until every LP has returned, a deadlock, an LP throws, or a
  // watched signal stops it (bridge/interrupts.h).
  // The caller owns ns-3's lifetime (Simulator::Destroy after reading results).
  RunOutcome run();

  // ---- Called from LP code (the running LP); shard-side code uses this_lp.h ----
  static Kernel& current();
  // The running LP's rank; throws std::logic_error outside an LP.
  int current_rank() const;
  int64_t now_ns() const;
  // The running LP's clock: charges its compute so far, then reads simulated time.
  int64_t lp_clock();
  // Ends the running LP's compute segment: charges it and sleeps to t + d.
  void settle_compute();
  // Starts the running LP's next compute segment.
  void resume_compute();
  // Ends the running LP's compute segment without charging it and starts a new one:
  // for set-up work (building weights) that is not part of the simulated workload.
  void discard_compute();
  // The running LP now computes `label` (compute_label.h): the segment so far is charged
  // under the old label and a new one starts. The LP does not sleep here; the time is
  // owed, and slept at its next communication call, so a label costs no ns-3 event.
  void label_compute(const std::string& label);
  // The running LP's current compute label ("" before its first).
  const std::string& current_label() const;
  // Parks the running LP until wake() is called for it.
  void block(const BlockReason& reason);
  // Lets `ns` of simulated time pass for the running LP without charging compute.
  void advance(int64_t ns);

  // ---- Called from the ns-3 side ----
  // Makes a blocked LP runnable at the current simulated time.
  void wake(int rank);
  // Something of ours may have finished: check for a deadlock once the current
  // ns-3 event and everything it scheduled for now have run.
  void request_quiescence_check();
  // The network layer's count of messages handed to it and not yet delivered.
  void set_in_flight_probe(std::function<uint64_t()> probe) { in_flight_ = std::move(probe); }

  // Where the kernel, the network side and the runner report what happens.
  RunRecorder& recorder() { return recorder_; }
  const RunRecord& record() const { return recorder_.record(); }

  // Wall time this thread spent running LPs: their shard code and the bridge's work in their
  // calls (not ns-3's own events), in nanoseconds; 0 unless KernelConfig::account_lp_wall.
  int64_t lp_wall_ns() const { return lp_wall_ns_; }

 private:
  LogicalProcess& current_lp() const;
  void schedule_resume(LogicalProcess& lp, int64_t delay_ns);
  int64_t wake_latency(LogicalProcess& lp) const;
  void resume(LogicalProcess* lp);
  void park(LogicalProcess& lp);
  void enter(LogicalProcess& lp);
  void leave(LogicalProcess& lp);
  void lp_main(LogicalProcess& lp);
  std::string where(const LogicalProcess& lp) const;
  void check_quiescence();
  void crash(LogicalProcess* lp);
  // The running LP sleeps until its host's cores have done `owed` ns of its compute.
  void compute_on_host(LogicalProcess& lp, int64_t owed);
  // A burst on `host` may have ended: records and resumes the LPs whose did, then waits for
  // the next.
  void host_due(CoreHost* host);
  void schedule_host(CoreHost& host);
  void mark_pending(LogicalProcess& lp);
  void wait_timed_out(LogicalProcess* lp, uint64_t wait);
  // Ends the run after a fault or a timeout: kFaulted when an injected fault had begun by
  // now, else kError.
  void end_after_fault(const std::string& what);
  std::string faults_so_far() const;
  std::string waits() const;
  void fail(const std::string& message);
  // A watched signal asked the process to stop: end the run where it is.
  void interrupt(int signal);
  void cancel_unfinished();
  std::string deadlock_report() const;

  KernelConfig config_;
  std::vector<std::unique_ptr<LogicalProcess>> lps_;
  std::vector<std::unique_ptr<CoreHost>> hosts_;  // share_cores's
  std::vector<bool> local_;  // run_only's; empty: every LP runs here
  int local_count_ = -1;     // LPs that run here; -1: all
  int local_count() const { return local_count_ < 0 ? lp_count() : local_count_; }
  LogicalProcess* running_ = nullptr;
  Baton kernel_baton_;
  at::ThreadLocalState kernel_torch_state_;
  GeneratorState kernel_random_;
  std::function<uint64_t()> in_flight_;
  int finished_ = 0;
  int crashed_ = 0;
  std::vector<std::string> fault_effects_;
  int pending_resumes_ = 0;
  // set_background's LPs: how many, their resumes to come, and those finished; when the last
  // of the others finished (-1: not yet).
  int background_ = 0;
  int background_pending_resumes_ = 0;
  int background_finished_ = 0;
  int64_t foreground_done_ns_ = -1;
  int64_t lp_wall_ns_ = 0;
  bool check_scheduled_ = false;
  bool stopping_ = false;
  RunOutcome outcome_;
  RunRecorder recorder_;
};

}  // namespace uniference
