// Faults injected on purpose (bridge/faults.h): each kind on a real run, its effect against
// what physics or a fault-free reference run says it must be, and runs that cannot finish
// ending with a report that names the fault, never hanging.
#include "test_support.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace uniference::test {
namespace {

constexpr int64_t kMs = 1'000'000;

// The simulated time of the report's "<prefix>=<n> us", in ns; -1 when absent.
int64_t report_time(const std::string& report, const std::string& prefix) {
  std::smatch match;
  if (!std::regex_search(report, match, std::regex(prefix + "=([0-9]+)\\.([0-9]{3}) us"))) return -1;
  return std::stoll(match[1]) * 1000 + std::stoll(match[2]);
}

// Rank 0 sends 4 MB to rank 1 over the star (1 Gbit/s, 50 us links), TCP with Linux's minimum
// retransmission timeout; the faults, if any, are injected. Returns the outcome; `record` gets
// the run's record.
constexpr int64_t kMinRtoNs = 200 * kMs;
RunOutcome send_through_faults(const std::vector<Fault>& faults, RunRecord* record) {
  NetworkConfig network;
  // As Linux: ns-3's own 200 ms delayed acknowledgement would equal this timeout, and every
  // message ending on an odd segment would time out spuriously.
  network.ns3_defaults = {{"ns3::TcpSocketBase::MinRto", "200ms"}, {"ns3::TcpSocket::DelAckTimeout", "40ms"}};
  SimCluster cluster(network);
  for (int r = 0; r < 2; ++r) {
    cluster.add_rank(modeled_meter(), [](Comm& comm) {
      at::Tensor data = at::ones({1'000'000});
      if (comm.rank() == 0) comm.send(data, 1);
      else comm.recv(data, 0);
    });
  }
  cluster.build_network();
  cluster.inject_faults(faults);
  RunOutcome outcome = cluster.run();
  *record = cluster.record();
  return outcome;
}

Fault link_fault(FaultKind kind, const std::string& target, int64_t at_ns, int64_t for_ns) {
  Fault fault;
  fault.kind = kind;
  fault.pointer = "/faults/0";
  fault.target = target;
  fault.at_ns = at_ns;
  fault.for_ns = for_ns;
  return fault;
}

// A cable down for 50 ms in the middle of the transfer: TCP's retransmission timer, restarted by
// the last acknowledgement before the cut (at most one round trip, well under 1 ms, before it),
// fires one minimum RTO later, when the cable is back, and the transfer completes from there.
// So the receive ends at least RTO - 1 ms after the cut, and at most RTO plus the whole
// fault-free transfer again (slow start from one segment) after it.
void expect_recovered_after_rto(const std::vector<Fault>& faults) {
  RunRecord clean, faulted;
  ASSERT_EQ(send_through_faults({}, &clean).status, RunOutcome::Status::kCompleted);
  const int64_t transfer = clean.ranks[1].finish_ns;
  ASSERT_GT(transfer, 30 * kMs) << "4 MB at 1 Gbit/s take at least 32 ms";
  const RunOutcome outcome = send_through_faults(faults, &faulted);
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  const int64_t cut = faults.front().at_ns;
  EXPECT_GE(faulted.ranks[1].finish_ns, cut + kMinRtoNs - 1 * kMs);
  EXPECT_LE(faulted.ranks[1].finish_ns, cut + kMinRtoNs + transfer);
  EXPECT_GE(faulted.ranks[1].finish_ns - transfer, 50 * kMs) << "the outage itself adds at least its length";
  ASSERT_EQ(faulted.faults.size(), faults.size());
  EXPECT_GT(faulted.faults[0].packets_lost, 0u);
  EXPECT_EQ(faulted.faults[0].start_ns, cut);
  EXPECT_EQ(faulted.faults[0].end_ns, cut + 50 * kMs);
}

TEST(Faults, LinkDownIsRecoveredByTcpsRetransmissionTimer) {
  expect_recovered_after_rto({link_fault(FaultKind::kLinkDown, "rank0 <-> hub", 10 * kMs, 50 * kMs)});
}

TEST(Faults, SwitchDownTakesEveryCableOfTheSwitch) {
  expect_recovered_after_rto({link_fault(FaultKind::kSwitchDown, "hub", 10 * kMs, 50 * kMs)});
}

TEST(Faults, OneDirectionDownLosesOnlyItsPackets) {
  // Only the acknowledgements' direction: the data all arrive, and only acknowledgements are
  // lost; the sender's timer still fires, as it hears nothing.
  RunRecord record;
  const RunOutcome outcome =
      send_through_faults({link_fault(FaultKind::kLinkDown, "hub -> rank0", 10 * kMs, 50 * kMs)}, &record);
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  EXPECT_GT(record.faults[0].packets_lost, 0u);
  EXPECT_GE(record.ranks[1].finish_ns, 10 * kMs + kMinRtoNs - 1 * kMs);
}

TEST(Faults, LossBurstLosesItsShareAndTheTransferCompletes) {
  RunRecord clean, lossy;
  ASSERT_EQ(send_through_faults({}, &clean).status, RunOutcome::Status::kCompleted);
  Fault burst = link_fault(FaultKind::kLossBurst, "rank0 -> hub", 10 * kMs, 20 * kMs);
  burst.loss = 0.3;
  const RunOutcome outcome = send_through_faults({burst}, &lossy);
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  EXPECT_GT(lossy.faults[0].packets_lost, 0u);
  // No more than the frames the cable could carry in the window at line rate (1 Gbit/s,
  // 1538 bytes per full frame on the wire): 20 ms x 1e9 / (1538 x 8) = 1625.
  EXPECT_LE(lossy.faults[0].packets_lost, 1625u);
  EXPECT_GT(lossy.ranks[1].finish_ns, clean.ranks[1].finish_ns);
  EXPECT_DOUBLE_EQ(lossy.faults[0].loss, 0.3);
}

TEST(Faults, ACableForeverDownEndsTheRunWithAReport) {
  RunRecord record;
  const RunOutcome outcome =
      send_through_faults({link_fault(FaultKind::kLinkDown, "rank0 <-> hub", 10 * kMs, 0)}, &record);
  ASSERT_EQ(outcome.status, RunOutcome::Status::kFaulted) << outcome.report;
  EXPECT_EQ(outcome.exit_code(), 1);
  EXPECT_NE(outcome.report.find("fault /faults/0: link_down rank0 <-> hub at t=10000.000 us"), std::string::npos)
      << outcome.report;
  EXPECT_NE(outcome.report.find("rank 1: blocked in recv"), std::string::npos) << outcome.report;
}

TEST(Faults, AnUnknownCableIsRefusedWithTheNamesThereAre) {
  RunRecord record;
  try {
    send_through_faults({link_fault(FaultKind::kLinkDown, "rank0 <-> spine", 0, 0)}, &record);
    FAIL() << "no error";
  } catch (const FaultTargetError& e) {
    EXPECT_EQ(e.pointer, "/faults/0/target");
    EXPECT_NE(std::string(e.what()).find("no cable direction \"rank0 -> spine\""), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("\"hub -> rank0\""), std::string::npos) << e.what();
  }
}

// Rank 1 computes one long matrix product while rank 0 waits for it in a barrier; returns the
// run's outcome and its record in *record.
RunOutcome long_compute_run(const std::vector<Fault>& faults, RunRecord* record) {
  DeviceProfile slow = device_profile("a100", "bf16");
  slow.slowdown = 1e5;
  SimCluster cluster(NetworkConfig{});
  const at::Tensor a = at::ones({256, 256});
  for (int r = 0; r < 2; ++r) {
    cluster.add_rank(make_modeled_meter(slow), [&](Comm& comm) {
      at::Tensor b = at::mm(a, a);
      comm.barrier();
    });
  }
  cluster.build_network();
  cluster.inject_faults(faults);
  const RunOutcome outcome = cluster.run();
  *record = cluster.record();
  return outcome;
}

// The same run, completed; returns rank 1's compute span.
Span long_compute(const std::vector<Fault>& faults, RunRecord* record) {
  EXPECT_EQ(long_compute_run(faults, record).status, RunOutcome::Status::kCompleted);
  for (const Span& span : record->spans) {
    if (span.rank == 1 && span.kind == Span::Kind::kCompute) return span;
  }
  ADD_FAILURE() << "rank 1 computed nothing";
  return {};
}

// A fault of `kind` on rank 1 from `at_ns`, as /faults/0.
Fault rank1_fault(FaultKind kind, int64_t at_ns) {
  Fault fault;
  fault.kind = kind;
  fault.pointer = "/faults/0";
  fault.target = "rank1";
  fault.rank = 1;
  fault.at_ns = at_ns;
  return fault;
}

Fault straggler(int64_t at_ns, int64_t for_ns, double factor) {
  Fault fault = rank1_fault(FaultKind::kStraggler, at_ns);
  fault.for_ns = for_ns;
  fault.factor = factor;
  return fault;
}

TEST(Faults, AStragglerForTheWholeRunTakesFactorTimesAsLong) {
  RunRecord clean, slow;
  const Span base = long_compute({}, &clean);
  const Span slowed = long_compute({straggler(0, 0, 3)}, &slow);
  const int64_t work = base.end_ns - base.start_ns;
  ASSERT_GT(work, 1 * kMs);
  EXPECT_EQ(slowed.end_ns - slowed.start_ns, 3 * work);
  EXPECT_EQ(slow.faults[0].compute_added_ns, 2 * work);
  EXPECT_EQ(slow.ranks[0].compute_ns, clean.ranks[0].compute_ns) << "rank 0 is not the straggler";
  // Rank 0 waits in the barrier for rank 1's extra time.
  EXPECT_EQ(slow.ranks[0].finish_ns - clean.ranks[0].finish_ns, 2 * work);
}

TEST(Faults, AStragglerWindowInsideOneComputationStretchesOnlyItsPart) {
  RunRecord clean, slow;
  const Span base = long_compute({}, &clean);
  const int64_t work = base.end_ns - base.start_ns;
  // Over [W/4, W/2) each ns of work takes 2: by then W/4 of work is done, the window does
  // (W/4)/2 = W/8, and the rest, W - W/4 - W/8, follows: the end is W/2 + 5W/8 = W + W/8.
  const int64_t a = base.start_ns + work / 4, b = base.start_ns + work / 2;
  const Span slowed = long_compute({straggler(a, b - a, 2)}, &slow);
  const int64_t expected_end = b + (work - (a - base.start_ns) - (b - a) / 2);
  EXPECT_NEAR(double(slowed.end_ns), double(expected_end), 1.0);
  EXPECT_NEAR(double(slow.faults[0].compute_added_ns), double(b - a) / 2, 1.0);
}

TEST(Faults, ACrashCutsTheComputeItInterrupted) {
  RunRecord clean;
  const Span base = long_compute({}, &clean);
  const int64_t crash_ns = base.start_ns + (base.end_ns - base.start_ns) / 2;
  RunRecord crashed;
  const RunOutcome outcome = long_compute_run({rank1_fault(FaultKind::kRankCrash, crash_ns)}, &crashed);
  ASSERT_EQ(outcome.status, RunOutcome::Status::kFaulted) << outcome.report;
  EXPECT_NE(outcome.report.find("rank 0: blocked in barrier"), std::string::npos) << outcome.report;
  int64_t last_end = 0;
  for (const Span& span : crashed.spans) {
    if (span.rank == 1 && span.kind == Span::Kind::kCompute) last_end = std::max(last_end, span.end_ns);
  }
  EXPECT_EQ(last_end, crash_ns) << "the product was cut where the rank crashed";
  EXPECT_EQ(crashed.ranks[1].compute_ns, crash_ns - base.start_ns);
}

// Three ranks all-reduce in a loop; rank 2 crashes in the middle. `timeout_ns` is the
// collectives' timeout (0: none).
RunOutcome all_reduce_with_crash(int64_t crash_ns, int64_t timeout_ns) {
  KernelConfig kernel;
  kernel.block_timeout_ns = timeout_ns;
  SimCluster cluster(NetworkConfig{}, kernel);
  for (int r = 0; r < 3; ++r) {
    cluster.add_rank(modeled_meter(), [](Comm& comm) {
      at::Tensor x = at::ones({100'000});
      for (int i = 0; i < 20; ++i) comm.all_reduce(x);
    });
  }
  cluster.build_network();
  Fault crash;
  crash.kind = FaultKind::kRankCrash;
  crash.pointer = "/faults/0";
  crash.target = "rank2";
  crash.rank = 2;
  crash.at_ns = crash_ns;
  cluster.inject_faults({crash});
  return cluster.run();
}

TEST(Faults, ACrashedRankLeavesTheOthersBlockedAndTheRunReportsIt) {
  const RunOutcome outcome = all_reduce_with_crash(5 * kMs, 0);
  ASSERT_EQ(outcome.status, RunOutcome::Status::kFaulted) << outcome.report;
  EXPECT_EQ(outcome.exit_code(), 1);
  EXPECT_NE(outcome.report.find("rank 2: crashed at t=5000.000 us"), std::string::npos) << outcome.report;
  EXPECT_NE(outcome.report.find("fault /faults/0: rank_crash rank2"), std::string::npos) << outcome.report;
  EXPECT_NE(outcome.report.find("rank 0: blocked in all_reduce"), std::string::npos) << outcome.report;
  EXPECT_NE(outcome.report.find("rank 1: blocked in all_reduce"), std::string::npos) << outcome.report;
}

TEST(Faults, WithATimeoutTheWaitEndsTheRunOneTimeoutAfterItBegan) {
  const int64_t timeout = 30 * kMs;
  const RunOutcome outcome = all_reduce_with_crash(5 * kMs, timeout);
  ASSERT_EQ(outcome.status, RunOutcome::Status::kFaulted) << outcome.report;
  EXPECT_NE(outcome.report.find("did not complete within the timeout of 30000.000 us"), std::string::npos)
      << outcome.report;
  const int64_t began = report_time(outcome.report, "waiting since t");
  const int64_t ended = report_time(outcome.report, "^at t");
  ASSERT_GE(began, 0) << outcome.report;
  EXPECT_EQ(ended, began + timeout) << outcome.report;
  EXPECT_GE(began, 5 * kMs - 1 * kMs) << "the wait the crash left began about when it crashed";
}

TEST(Faults, ATimeoutWithNoFaultIsAnErrorNamingTheWait) {
  KernelConfig kernel;
  kernel.block_timeout_ns = 3 * kMs;
  SimCluster cluster(NetworkConfig{}, kernel);
  for (int r = 0; r < 2; ++r) {
    cluster.add_rank(modeled_meter(), [](Comm& comm) {
      at::Tensor x = at::empty({4});
      if (comm.rank() == 1) comm.recv(x, 0);  // rank 0 never sends
    });
  }
  const RunOutcome outcome = cluster.run();
  ASSERT_EQ(outcome.status, RunOutcome::Status::kError) << outcome.report;
  EXPECT_EQ(outcome.exit_code(), 1);
  EXPECT_NE(outcome.report.find("rank 1: recv (rank 0)"), std::string::npos) << outcome.report;
  EXPECT_EQ(report_time(outcome.report, "^at t"), report_time(outcome.report, "waiting since t") + 3 * kMs)
      << outcome.report;
}

}  // namespace
}  // namespace uniference::test
