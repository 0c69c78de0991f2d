/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// One all-reduce on an RDMA fat-tree, simulated by several processes at once on ns-3's
// distributed engine (MpiInterface, granted time windows): IbFabricHelper cuts the fabric by
// pod, each process runs its pods' nodes, and the cables between processes carry the
// fabric's packets and credits as MPI messages (IbRemoteChannel). The cut cables' delay is the
// lookahead. Process 0 prints what every process saw, gathered: each endpoint's completion
// time, the bytes every port put on the wire, and the fabric events run, which are the same
// whatever the number of processes (IbEventQueue orders a nanosecond's events by port, not
// by when they were scheduled).
//
//   ./distributed-fat-tree --k=8                    # one process, ns-3's default engine
//   mpirun -np 4 ./distributed-fat-tree --k=8       # four processes, pods 0-1, 2-3, ...
//   mpirun -np 2 ./distributed-fat-tree --k=16 --summary   # 1,024 endpoints; no list

#include "ns3/collective-application.h"
#include "ns3/collective-helper.h"
#include "ns3/command-line.h"
#include "ns3/global-value.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-event-queue.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-switch.h"
#include "ns3/mpi-interface.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <mpi.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A participant completed: note when.
void
Completed(std::vector<int64_t>* completions, uint32_t member, Time /* entered */, Time completed)
{
    (*completions)[member] = completed.GetNanoSeconds();
}

/// \return the element-wise sum of every process's values, on process 0
std::vector<int64_t>
SumOnFirst(const std::vector<int64_t>& mine, bool distributed)
{
    std::vector<int64_t> all(mine.size());
    if (!distributed)
    {
        return mine;
    }
    MPI_Reduce(mine.data(),
               all.data(),
               static_cast<int>(mine.size()),
               MPI_INT64_T,
               MPI_SUM,
               0,
               MpiInterface::GetCommunicator());
    return all;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t k = 8;
    uint64_t bytes = 1 << 20;
    std::string algorithm = "ring";
    std::string rate = "400Gbps";
    std::string delay = "500ns";
    bool summary = false;
    bool sequential = false;

    CommandLine cmd(__FILE__);
    cmd.Usage("One all-reduce on an RDMA fat-tree, on ns-3's distributed engine under mpirun.");
    cmd.AddValue("k", "ports per switch, even: k^3/4 endpoints, k pods", k);
    cmd.AddValue("bytes", "all-reduce size S in bytes", bytes);
    cmd.AddValue("algorithm", "all_reduce algorithm", algorithm);
    cmd.AddValue("rate", "line rate of every cable", rate);
    cmd.AddValue("delay", "propagation delay of every cable (the lookahead)", delay);
    cmd.AddValue("summary", "print totals only, not every endpoint", summary);
    cmd.AddValue("sequential", "ns-3's default engine, without MPI (one process)", sequential);
    cmd.Parse(argc, argv);

    if (!sequential)
    {
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue("ns3::DistributedSimulatorImpl"));
        MpiInterface::Enable(&argc, &argv);
    }
    const uint32_t process = sequential ? 0 : MpiInterface::GetSystemId();
    const uint32_t processes = sequential ? 1 : MpiInterface::GetSize();

    IbFabricHelper fabric;
    fabric.SetDeviceAttribute("DataRate", StringValue(rate));
    fabric.SetChannelAttribute("Delay", StringValue(delay));
    fabric.FatTree(k);
    fabric.SetPartitions(processes);
    fabric.Install();
    const uint32_t n = fabric.GetNEndpoints();

    CollectiveHelper helper("all_reduce", algorithm);
    ApplicationContainer apps = helper.Install(fabric.GetTransports(), bytes);
    std::vector<int64_t> completions(n, 0);
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        Ptr<CollectiveApplication> app = DynamicCast<CollectiveApplication>(apps.Get(i));
        app->TraceConnectWithoutContext(
            "Completed",
            MakeBoundCallback(&Completed, &completions, app->GetIndex()));
    }
    apps.Start(Seconds(0));

    const auto started = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    // What this process saw: its endpoints' completions, its ports' bytes, its fabric events.
    std::vector<int64_t> totals{0, static_cast<int64_t>(IbEventQueue::Get().GetEventCount())};
    for (const Ptr<IbNetDevice>& port : fabric.GetPorts())
    {
        if (port->GetNode()->GetSystemId() == process)
        {
            totals[0] += static_cast<int64_t>(port->GetTxBytes());
        }
    }
    Simulator::Destroy();
    completions = SumOnFirst(completions, !sequential);
    totals = SumOnFirst(totals, !sequential);
    double slowest = wall;
    if (!sequential)
    {
        MPI_Reduce(&wall, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MpiInterface::GetCommunicator());
    }

    if (process == 0)
    {
        int64_t last = 0;
        for (int64_t t : completions)
        {
            last = std::max(last, t);
        }
        std::printf("# all_reduce/%s of %" PRIu64 " bytes on a k=%u fat-tree: %u endpoints, "
                    "%s cables of %s\n",
                    algorithm.c_str(),
                    bytes,
                    k,
                    n,
                    rate.c_str(),
                    delay.c_str());
        std::printf("# processes: %u; cables cut: %u; wall: %.3f s (the slowest process)\n",
                    processes,
                    fabric.GetNCutCables(),
                    slowest);
        std::printf("# last completion: %" PRId64 " ns; wire bytes: %" PRId64
                    "; fabric events: %" PRId64 "\n",
                    last,
                    totals[0],
                    totals[1]);
        std::printf("%-10s %16s\n", "endpoint", "completed (ns)");
        for (uint32_t i = 0; !summary && i < n; ++i)
        {
            std::printf("%-10u %16" PRId64 "\n", i, completions[i]);
        }
    }
    if (!sequential)
    {
        MpiInterface::Disable();
    }
    return 0;
}
