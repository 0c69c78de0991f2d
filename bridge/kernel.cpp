#include "bridge/kernel.h"

#include "bridge/fiber_scheduler.h"
#include "bridge/interrupts.h"
#include "bridge/shared_cores.h"
#include "bridge/this_lp.h"
#include "compute/compute_label.h"
#include "compute/timed_phase.h"

#include <ns3/event-id.h>
#include <ns3/simulator.h>

#include <c10/util/Exception.h>

// boost::context::detail::forced_unwind comes with the fiber headers: from
// detail/exception.hpp in the fcontext variant, from fiber_ucontext.hpp (which defines it
// again, so that header must not be included beside it) in the sanitized build's ucontext one.
#include <boost/context/fiber.hpp>
#include <boost/fiber/fiber.hpp>
#include <boost/fiber/operations.hpp>
#include <boost/fiber/protected_fixedsize_stack.hpp>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

namespace uniference {

// A straggler fault's window on one LP (Kernel::add_straggler).
struct SlowWindow {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  double factor = 1;
  size_t fault = 0;
};

struct LogicalProcess {
  enum class State { kIdle, kScheduled, kRunning, kBlocked, kFinished };

  int rank = 0;
  State state = State::kIdle;
  std::unique_ptr<ComputeMeter> meter;
  bool meter_open = false;
  std::string label;     // what the open segment computes (compute_label.h)
  int64_t owed_ns = 0;   // charged to labelled segments, not yet slept
  std::function<void()> body;
  boost::fibers::fiber fiber;
  Baton baton;
  at::ThreadLocalState torch_state;
  GeneratorState random;
  std::mt19937_64 wake_random;  // the host's wake-up latencies, apart from shard code's draws
  bool cancelled = false;
  BlockReason blocked_on;
  int64_t blocked_since_ns = 0;
  uint64_t waits = 0;  // blocking waits so far: a timeout names the wait it was set for
  // Faults: windows in which its compute is slower, and when it crashed (-1: it has not).
  std::vector<SlowWindow> slow;
  int64_t crashed_at_ns = -1;
  bool crashed() const { return crashed_at_ns >= 0; }
  bool background = false;  // Kernel::set_background
  // On a host whose cores it shares: its segments since it last slept, recorded once the
  // host has run them and their times are known.
  CoreHost* host = nullptr;
  struct Segment {
    std::string label;
    int64_t ns = 0;  // solo time
  };
  std::vector<Segment> unrun;
};

struct CoreHost {
  explicit CoreHost(int cores) : cores(cores) {}
  SharedCores cores;
  ns3::EventId next;  // when its next burst ends
};

namespace {
Kernel* g_current_kernel = nullptr;

// Every simulated rank lives in this one process, so their memory adds up.
std::string out_of_memory_text(const std::string& what) {
  return "out of memory: " + what +
         ". Every simulated rank holds its weights in this one process; simulate without "
         "weights with \"compute\": {\"mode\": \"modeled\", \"shapes_only\": true}, or run a "
         "smaller model or fewer ranks";
}

// libtorch's message without its C++ backtrace; an allocator's failure as out of memory.
std::string torch_error_text(const std::string& message) {
  const std::string kAllocate = "you tried to allocate ";
  if (message.find("not enough memory") != std::string::npos ||
      message.find("can't allocate memory") != std::string::npos) {
    const size_t at = message.find(kAllocate);
    std::string what = "the allocator refused a tensor";
    if (at != std::string::npos) {
      const std::string rest = message.substr(at + kAllocate.size());
      const std::string digits = rest.substr(0, rest.find(" bytes"));
      std::ostringstream gigabytes;
      gigabytes.setf(std::ios::fixed);
      gigabytes.precision(1);
      gigabytes << std::strtod(digits.c_str(), nullptr) / 1e9;
      what = "tried to allocate " + digits + " bytes (" + gigabytes.str() + " GB)";
    }
    return out_of_memory_text(what);
  }
  return message;
}

std::string format_time(int64_t ns) {
  std::ostringstream out;
  out << ns / 1000 << '.' << (ns % 1000) / 100 << (ns % 100) / 10 << ns % 10 << " us";
  return out.str();
}

// When compute of `work` ns at full speed, started at `start`, ends on an LP with straggler
// windows: inside a window each ns of work takes `factor` ns (the factors of overlapping
// windows multiply). What a window adds is its fault's cost, charged to `recorder`.
int64_t slowed_end(const std::vector<SlowWindow>& windows, int64_t start, int64_t work,
                   RunRecorder& recorder) {
  int64_t t = start;
  double left = double(work);
  while (left > 0) {
    double factor = 1;
    const SlowWindow* first = nullptr;
    int64_t next = std::numeric_limits<int64_t>::max();  // where the factor changes next
    for (const SlowWindow& w : windows) {
      if (t >= w.start_ns && t < w.end_ns) {
        factor *= w.factor;
        next = std::min(next, w.end_ns);
        if (first == nullptr) first = &w;
      } else if (w.start_ns > t) {
        next = std::min(next, w.start_ns);
      }
    }
    const double takes = left * factor;
    const bool ends_here = double(next - t) >= takes;
    const int64_t piece = ends_here ? int64_t(std::llround(takes)) : next - t;
    if (first != nullptr) {
      const double piece_work = ends_here ? left : double(piece) / factor;
      recorder.fault_cost(first->fault, 0, piece - int64_t(std::llround(piece_work)));
    }
    t += piece;
    if (ends_here) break;
    left -= double(piece) / factor;
  }
  return t;
}
}  // namespace

void Baton::post() {
  {
    std::unique_lock<boost::fibers::mutex> lock(mutex_);
    posted_ = true;
  }
  cv_.notify_one();
}

void Baton::wait() {
  std::unique_lock<boost::fibers::mutex> lock(mutex_);
  cv_.wait(lock, [this] { return posted_; });
  posted_ = false;
}

Kernel::Kernel(KernelConfig config) : config_(config) {}

Kernel::~Kernel() {
  // A kernel that never ran still owns fibers parked at their first instruction.
  cancel_unfinished();
}

int Kernel::add_lp(std::unique_ptr<ComputeMeter> meter, std::function<void()> body) {
  auto lp = std::make_unique<LogicalProcess>();
  lp->rank = static_cast<int>(lps_.size());
  lp->meter = std::move(meter);
  lp->body = std::move(body);
  lps_.push_back(std::move(lp));
  const int rank = lps_.back()->rank;
  set_stream(rank, config_.seed, rank);
  return rank;
}

void Kernel::set_background(int rank) {
  LogicalProcess& lp = *lps_.at(static_cast<size_t>(rank));
  if (!lp.background) ++background_;
  lp.background = true;
}

void Kernel::set_stream(int rank, uint64_t seed, int index) {
  LogicalProcess& lp = *lps_.at(static_cast<size_t>(rank));
  lp.random = lp_generator_state(seed, index);
  lp.wake_random.seed(seed * 0x9E3779B97F4A7C15ull + uint64_t(index));
}

Kernel& Kernel::current() {
  if (g_current_kernel == nullptr) throw std::logic_error("no co-simulation kernel is running");
  return *g_current_kernel;
}

LogicalProcess& Kernel::current_lp() const {
  if (running_ == nullptr) throw std::logic_error("called outside a logical process");
  return *running_;
}

int Kernel::current_rank() const { return current_lp().rank; }

int64_t Kernel::now_ns() const { return ns3::Simulator::Now().GetNanoSeconds(); }

RunOutcome Kernel::run() {
  DeterministicScheduler::install_on_this_thread();
  g_current_kernel = this;
  kernel_torch_state_ = at::ThreadLocalState();
  recorder_.set_ranks(lp_count());
  // Labels reach the LP that runs; one from the kernel's own fiber has nobody to charge.
  set_compute_label_sink([this](const std::string& label) {
    if (running_ != nullptr) label_compute(label);
  });
  // A phase is timed on the LP's clock, its compute so far charged first.
  set_phase_sink([this](const std::string& name, bool begins) {
    if (running_ != nullptr) recorder_.phase(current_rank(), name, begins, lp_clock());
  });

  // Fibers start parked; the t = 0 events below release them in rank order.
  for (auto& lp : lps_) {
    if (!runs_here(lp->rank)) continue;
    LogicalProcess* raw = lp.get();
    lp->fiber = boost::fibers::fiber(std::allocator_arg,
                                     boost::fibers::protected_fixedsize_stack(config_.stack_bytes),
                                     [this, raw] { lp_main(*raw); });
    auto& props = lp->fiber.properties<LpProperties>();
    props.rank = lp->rank;
  }
  // LPs run before the kernel's fiber: each reaches its first wait before time starts.
  boost::this_fiber::yield();
  for (auto& lp : lps_) {
    if (runs_here(lp->rank)) schedule_resume(*lp, 0);
  }

  {
    const InterruptScope interrupts([this](int signal) { interrupt(signal); });
    if (interrupts.stop_now() != 0) {
      interrupt(interrupts.stop_now());
    } else if (!lps_.empty()) {
      ns3::Simulator::Run();
    }
  }

  if (outcome_.status == RunOutcome::Status::kCompleted && finished_ < local_count()) {
    // ns-3 ran dry with LPs still waiting: nothing can ever wake them.
    if (crashed_ > 0 || !faults_so_far().empty()) {
      end_after_fault("ns-3 has nothing left to do and ranks have not finished");
    } else {
      outcome_.status = RunOutcome::Status::kDeadlock;
      outcome_.report = deadlock_report();
    }
  }
  cancel_unfinished();
  set_compute_label_sink({});
  set_phase_sink({});
  g_current_kernel = nullptr;
  return outcome_;
}

// "rank 3 at t=12.000 us: ", the start of an error raised in an LP.
std::string Kernel::where(const LogicalProcess& lp) const {
  return "rank " + std::to_string(lp.rank) + " at t=" + format_time(now_ns()) + ": ";
}

void Kernel::lp_main(LogicalProcess& lp) {
  try {
    lp.baton.wait();  // until the t = 0 resume
    enter(lp);
    resume_compute();
    lp.body();
    settle_compute();
  } catch (const LpCancelled&) {
    // Unwound on purpose after a deadlock or an error elsewhere.
  } catch (const boost::context::detail::forced_unwind&) {
    throw;  // Boost.Context unwinds abandoned stacks with this; it must pass.
  } catch (const c10::Error& e) {
    fail(where(lp) + torch_error_text(e.what_without_backtrace()));
  } catch (const std::bad_alloc&) {
    fail(where(lp) + out_of_memory_text("an allocation failed"));
  } catch (const std::exception& e) {
    fail(where(lp) + e.what());
  } catch (...) {
    fail(where(lp) + "unknown exception");
  }
  if (lp.meter_open) {
    lp.meter->end();
    lp.meter_open = false;
  }
  leave(lp);
  lp.state = LogicalProcess::State::kFinished;
  if (!lp.cancelled) recorder_.finished(lp.rank, now_ns());
  ++finished_;
  if (lp.background) {
    ++background_finished_;
  } else if (finished_ - background_finished_ == lp_count() - background_) {
    foreground_done_ns_ = now_ns();
  }
  if (finished_ == lp_count() && !stopping_) ns3::Simulator::Stop();
  if (crashed_ > 0 && finished_ + crashed_ == local_count()) request_quiescence_check();
  kernel_baton_.post();
}

void Kernel::park(LogicalProcess& lp) {
  leave(lp);
  kernel_baton_.post();
  lp.baton.wait();
  enter(lp);
}

// An LP takes the thread: its libtorch thread-local state and its random stream with it.
void Kernel::enter(LogicalProcess& lp) {
  running_ = &lp;
  lp.state = LogicalProcess::State::kRunning;
  at::ThreadLocalState::setThreadLocalState(lp.torch_state);
  kernel_random_ = swap_default_generator(lp.random);
  if (lp.cancelled) throw LpCancelled{};
}

void Kernel::leave(LogicalProcess& lp) {
  lp.torch_state = at::ThreadLocalState();
  lp.random = swap_default_generator(kernel_random_);
  running_ = nullptr;
}

void Kernel::resume(LogicalProcess* lp) {
  --pending_resumes_;
  if (lp->background) --background_pending_resumes_;
  if (lp->crashed()) request_quiescence_check();
  if (stopping_ || lp->state == LogicalProcess::State::kFinished || lp->crashed()) return;
  auto& props = lp->fiber.properties<LpProperties>();
  props.time_ns = now_ns();
  const int64_t started = config_.account_lp_wall ? steady_clock_ns() : 0;
  lp->baton.post();
  kernel_baton_.wait();
  at::ThreadLocalState::setThreadLocalState(kernel_torch_state_);
  if (config_.account_lp_wall) lp_wall_ns_ += steady_clock_ns() - started;
}

void Kernel::mark_pending(LogicalProcess& lp) {
  lp.state = LogicalProcess::State::kScheduled;
  ++pending_resumes_;
  if (lp.background) ++background_pending_resumes_;
}

void Kernel::schedule_resume(LogicalProcess& lp, int64_t delay_ns) {
  mark_pending(lp);
  ns3::Simulator::Schedule(ns3::NanoSeconds(delay_ns), &Kernel::resume, this, &lp);
}

// Closes the open segment and records it after what is already owed.
static void close_segment(LogicalProcess& lp, RunRecorder& recorder, int64_t now) {
  const int64_t work = lp.meter->end();
  lp.meter_open = false;
  if (work <= 0) return;
  const int64_t start = now + lp.owed_ns;
  const int64_t end = lp.slow.empty() ? start + work : slowed_end(lp.slow, start, work, recorder);
  if (lp.host) {
    lp.unrun.push_back({lp.label, end - start});
  } else {
    recorder.compute(lp.rank, start, end, lp.label);
  }
  lp.owed_ns += end - start;
}

void Kernel::settle_compute() {
  LogicalProcess& lp = current_lp();
  if (lp.meter_open) close_segment(lp, recorder_, now_ns());
  const int64_t owed = lp.owed_ns;
  lp.owed_ns = 0;
  if (owed <= 0) return;
  if (lp.host) {
    compute_on_host(lp, owed);
  } else {
    schedule_resume(lp, owed);
  }
  park(lp);
}

// ---- Ranks sharing a host's cores ----
// A straggler's window stretches a segment's solo time as if the rank had the core to
// itself; the host then shares its cores among the solo times.

void Kernel::share_cores(const std::vector<int>& ranks, int cores) {
  hosts_.push_back(std::make_unique<CoreHost>(cores));
  for (int rank : ranks) {
    LogicalProcess& lp = *lps_.at(size_t(rank));
    if (lp.host) throw std::invalid_argument("rank " + std::to_string(rank) + " is on two hosts");
    lp.host = hosts_.back().get();
  }
}

void Kernel::compute_on_host(LogicalProcess& lp, int64_t owed) {
  mark_pending(lp);
  lp.host->cores.start(lp.rank, owed, now_ns());
  schedule_host(*lp.host);
}

void Kernel::schedule_host(CoreHost& host) {
  ns3::Simulator::Cancel(host.next);
  const int64_t next = host.cores.next_finish_ns();
  if (next < 0) return;
  host.next = ns3::Simulator::Schedule(ns3::NanoSeconds(next - now_ns()), &Kernel::host_due, this, &host);
}

// Records one burst's segments at the times the host ran them; a crash cuts them at the work
// done.
static void record_burst(LogicalProcess& lp, const SharedCores::Burst& burst, RunRecorder& recorder) {
  double work = 0;
  for (const LogicalProcess::Segment& segment : lp.unrun) {
    const double from = std::min(work, burst.done_ns);
    work += double(segment.ns);
    const double to = std::min(work, burst.done_ns);
    if (to > from) recorder.compute(lp.rank, burst.time_at(from), burst.time_at(to), segment.label);
  }
  lp.unrun.clear();
}

void Kernel::host_due(CoreHost* host) {
  for (const SharedCores::Burst& burst : host->cores.finish_due(now_ns())) {
    LogicalProcess& lp = *lps_.at(size_t(burst.rank));
    record_burst(lp, burst, recorder_);
    ns3::Simulator::ScheduleNow(&Kernel::resume, this, &lp);
  }
  schedule_host(*host);
}

void Kernel::label_compute(const std::string& label) {
  LogicalProcess& lp = current_lp();
  if (lp.label == label) return;
  if (lp.meter_open) {
    close_segment(lp, recorder_, now_ns());
    lp.meter->begin();
    lp.meter_open = true;
  }
  lp.label = label;
}

const std::string& Kernel::current_label() const { return current_lp().label; }

void Kernel::resume_compute() {
  LogicalProcess& lp = current_lp();
  if (lp.meter_open) return;
  lp.meter->begin();
  lp.meter_open = true;
}

int64_t Kernel::lp_clock() {
  settle_compute();
  int64_t now = now_ns();
  resume_compute();
  return now;
}

void Kernel::discard_compute() {
  LogicalProcess& lp = current_lp();
  if (lp.meter_open) lp.meter->end();
  lp.meter->begin();
  lp.meter_open = true;
}

void Kernel::block(const BlockReason& reason) {
  LogicalProcess& lp = current_lp();
  lp.state = LogicalProcess::State::kBlocked;
  lp.blocked_on = reason;
  lp.blocked_since_ns = now_ns();
  ++lp.waits;
  if (config_.block_timeout_ns > 0) {
    ns3::Simulator::Schedule(ns3::NanoSeconds(config_.block_timeout_ns), &Kernel::wait_timed_out,
                             this, &lp, lp.waits);
  }
  request_quiescence_check();
  park(lp);
}

void Kernel::advance(int64_t ns) {
  LogicalProcess& lp = current_lp();
  schedule_resume(lp, ns);
  park(lp);
}

void Kernel::wake(int rank) {
  LogicalProcess& lp = *lps_.at(static_cast<size_t>(rank));
  if (lp.state != LogicalProcess::State::kBlocked || lp.crashed()) return;
  schedule_resume(lp, wake_latency(lp));
}

int64_t Kernel::wake_latency(LogicalProcess& lp) const {
  const std::vector<int64_t>& samples = config_.wake_samples_ns;
  if (samples.empty() && config_.wake_mean_ns <= 0) return 0;
  // 53 uniform bits: the same draws on every platform, which std's distributions do not
  // promise.
  const double u = double(lp.wake_random() >> 11) * 0x1.0p-53;
  if (!samples.empty()) {
    return samples[std::min(samples.size() - 1, size_t(u * double(samples.size())))];
  }
  // Inverse CDF of the exponential.
  return int64_t(std::llround(-double(config_.wake_mean_ns) * std::log1p(-u)));
}

void Kernel::request_quiescence_check() {
  if (check_scheduled_ || stopping_) return;
  check_scheduled_ = true;
  // Scheduled after everything the current event has scheduled for now, so any LP it
  // woke is already counted when the check runs.
  ns3::Simulator::ScheduleNow(&Kernel::check_quiescence, this);
}

void Kernel::check_quiescence() {
  check_scheduled_ = false;
  // Across processes nothing here sees another process's messages in flight: a deadlock is
  // what is left blocked when ns-3 runs dry everywhere (run()).
  if (!local_.empty()) return;
  // Background LPs' rounds to come do not count: they would go on while the others wait.
  // Once they have all finished, the background ones finish by themselves.
  if (stopping_ || finished_ == lp_count() || foreground_done_ns_ >= 0 ||
      pending_resumes_ - background_pending_resumes_ > 0) {
    return;
  }
  if (crashed_ > 0 && finished_ - background_finished_ + crashed_ == lp_count() - background_) {
    end_after_fault("every rank that did not crash has finished, so the run cannot finish");
    return;
  }
  if (in_flight_ && in_flight_() > 0) return;
  // With a timeout, the waits end the run when it expires, as the libraries' would.
  if (config_.block_timeout_ns > 0) return;
  if (!faults_so_far().empty()) {
    end_after_fault("every rank that did not crash is blocked and no message is in flight");
    return;
  }
  outcome_.status = RunOutcome::Status::kDeadlock;
  outcome_.report = deadlock_report();
  stopping_ = true;
  ns3::Simulator::Stop();
}

void Kernel::add_straggler(int rank, int64_t start_ns, int64_t end_ns, double factor, size_t fault) {
  lps_.at(size_t(rank))->slow.push_back({start_ns, end_ns, factor, fault});
}

void Kernel::crash_at(int rank, int64_t at_ns) {
  ns3::Simulator::Schedule(ns3::NanoSeconds(at_ns), &Kernel::crash, this, lps_.at(size_t(rank)).get());
}

void Kernel::crash(LogicalProcess* lp) {
  if (stopping_ || lp->state == LogicalProcess::State::kFinished) return;
  lp->crashed_at_ns = now_ns();
  ++crashed_;
  if (lp->host && lp->host->cores.running(lp->rank)) {
    // It stops computing, and its resume (which a crashed LP ignores) comes now.
    record_burst(*lp, lp->host->cores.stop(lp->rank, now_ns()), recorder_);
    schedule_host(*lp->host);
    ns3::Simulator::ScheduleNow(&Kernel::resume, this, lp);
  }
  recorder_.crashed(lp->rank, lp->crashed_at_ns);
  request_quiescence_check();
}

void Kernel::wait_timed_out(LogicalProcess* lp, uint64_t wait) {
  if (stopping_ || lp->crashed() || lp->state != LogicalProcess::State::kBlocked || lp->waits != wait) return;
  std::ostringstream what;
  what << "rank " << lp->rank << ": " << lp->blocked_on.operation;
  if (!lp->blocked_on.peer.empty()) what << " (" << lp->blocked_on.peer << ")";
  what << " did not complete within the timeout of " << format_time(config_.block_timeout_ns)
       << " (/collectives/timeout): waiting since t=" << format_time(lp->blocked_since_ns);
  end_after_fault(what.str());
}

void Kernel::end_after_fault(const std::string& what) {
  const std::string faults = faults_so_far();
  outcome_.status = faults.empty() ? RunOutcome::Status::kError : RunOutcome::Status::kFaulted;
  outcome_.report = "at t=" + format_time(now_ns()) + ": " + what + "\n" + faults + waits();
  stopping_ = true;
  ns3::Simulator::Stop();
}

// The faults that had begun by now, one line each; empty when none had.
std::string Kernel::faults_so_far() const {
  std::ostringstream out;
  for (const FaultRecord& fault : recorder_.record().faults) {
    if (fault.start_ns > now_ns()) continue;
    out << "  fault " << fault.pointer << ": " << fault.kind << " " << fault.target << " at t="
        << format_time(fault.start_ns);
    if (fault.end_ns >= 0) out << " until t=" << format_time(fault.end_ns);
    out << "\n";
  }
  for (const std::string& effect : fault_effects_) out << "  " << effect << "\n";
  return out.str();
}

// What every unfinished rank is doing: blocked in what since when, or crashed when.
std::string Kernel::waits() const {
  std::ostringstream out;
  for (const auto& lp : lps_) {
    if (lp->crashed()) {
      out << "  rank " << lp->rank << ": crashed at t=" << format_time(lp->crashed_at_ns) << "\n";
      continue;
    }
    if (lp->state != LogicalProcess::State::kBlocked) continue;
    out << "  rank " << lp->rank << ": blocked in " << lp->blocked_on.operation;
    if (!lp->blocked_on.peer.empty()) out << " (" << lp->blocked_on.peer << ")";
    if (lp->blocked_on.tag >= 0) out << " tag " << lp->blocked_on.tag;
    out << " since t=" << format_time(lp->blocked_since_ns) << "\n";
  }
  return out.str();
}

void Kernel::fail(const std::string& message) {
  if (outcome_.status == RunOutcome::Status::kError) return;  // keep the first error
  outcome_.status = RunOutcome::Status::kError;
  outcome_.report = message;
  stopping_ = true;
  ns3::Simulator::Stop();
}

void Kernel::interrupt(int signal) {
  if (stopping_) return;
  outcome_.status = RunOutcome::Status::kInterrupted;
  outcome_.signal = signal;
  outcome_.report = std::string("interrupted by ") + (signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal") +
                    " at t=" + format_time(now_ns());
  stopping_ = true;
  ns3::Simulator::Stop();
}

void Kernel::cancel_unfinished() {
  stopping_ = true;
  for (auto& lp : lps_) {
    if (!lp->fiber.joinable()) continue;
    if (lp->state != LogicalProcess::State::kFinished) {
      lp->cancelled = true;
      lp->baton.post();
      kernel_baton_.wait();
    }
    lp->fiber.join();
  }
  at::ThreadLocalState::setThreadLocalState(kernel_torch_state_);
}

void Kernel::run_only(std::vector<bool> local) {
  if (local.size() != lps_.size()) {
    throw std::invalid_argument("run_only: " + std::to_string(local.size()) + " flags for " +
                                std::to_string(lps_.size()) + " LPs");
  }
  local_count_ = static_cast<int>(std::count(local.begin(), local.end(), true));
  local_ = std::move(local);
}

std::string Kernel::deadlock_report() const {
  return "deadlock at t=" + format_time(now_ns()) +
         ": every unfinished rank is blocked and no message is in flight\n" + waits();
}

}  // namespace uniference

namespace uniference::this_lp {

int rank() { return Kernel::current().current_rank(); }

int64_t clock_ns() { return Kernel::current().lp_clock(); }

int64_t now_ns() { return Kernel::current().now_ns(); }

void discard_compute() { Kernel::current().discard_compute(); }

void record_token(int64_t prompt, int64_t /*step*/, int64_t token) {
  Kernel& kernel = Kernel::current();
  kernel.recorder().token(kernel.current_rank(), prompt, token, kernel.lp_clock());
}

void sleep_until(int64_t ns) {
  Kernel& kernel = Kernel::current();
  kernel.settle_compute();
  if (const int64_t wait = ns - kernel.now_ns(); wait > 0) kernel.advance(wait);
  kernel.resume_compute();
}

void record_request(const RequestRecord& record) {
  Kernel& kernel = Kernel::current();
  kernel.recorder().request(kernel.current_rank(), record);
}

void record_memory(uint64_t weights, uint64_t kv_cache, uint64_t activations) {
  Kernel& kernel = Kernel::current();
  kernel.recorder().memory(kernel.current_rank(), weights, kv_cache, activations);
}

}  // namespace uniference::this_lp
