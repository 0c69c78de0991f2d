/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// An all-reduce over RDMA on a k-ary fat-tree: IbFabricHelper builds the InfiniBand-like
// fabric (k^3/4 endpoints, each with an RdmaMessageTransport on one port; 5k^2/4 switches;
// shortest-path tables), CollectiveHelper puts one CollectiveApplication per endpoint, and
// all of them enter at once. Prints the time from the first entry to the last completion and
// nccl-tests' algorithm and bus bandwidths (busbw = algbw x 2(n-1)/n for an all-reduce).
//
//   ./rdma-fat-tree-all-reduce --k=4 --bytes=16777216 --algorithm=ring
//   ./rdma-fat-tree-all-reduce --algorithm=halving_doubling --routing=Adaptive

#include "ns3/attribute-check.h"
#include "ns3/collective-application.h"
#include "ns3/collective-helper.h"
#include "ns3/collective-registry.h"
#include "ns3/command-line.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-switch.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdio>
#include <string>

using namespace ns3;

namespace
{

/// The earliest entry and the latest completion of any participant.
struct Span
{
    Time first = Time::Max(); //!< Earliest entry
    Time last;                //!< Latest completion
};

/// A participant completed.
void
Record(Span* span, Time entered, Time completed)
{
    span->first = std::min(span->first, entered);
    span->last = std::max(span->last, completed);
}

/// \return the operation's algorithms, comma-separated, for the help text
std::string
AlgorithmList(const std::string& operation)
{
    std::string list;
    for (const std::string& algorithm : CollectiveHelper::GetAlgorithms(operation))
    {
        list += (list.empty() ? "" : ", ") + algorithm;
    }
    return list;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t k = 4;
    uint64_t bytes = 16 << 20;
    std::string algorithm = "ring";
    std::string rate = "400Gbps";
    std::string delay = "100ns";
    std::string switchLatency = "100ns";
    std::string routing = "ECMP";

    CommandLine cmd(__FILE__);
    cmd.Usage("All-reduce over RDMA on an InfiniBand-like k-ary fat-tree.");
    cmd.AddValue("k", "ports per switch, even: k^3/4 endpoints", k);
    cmd.AddValue("bytes", "all-reduce size S in bytes (each endpoint's buffer)", bytes);
    cmd.AddValue("algorithm", "all_reduce algorithm: " + AlgorithmList("all_reduce"), algorithm);
    cmd.AddValue("rate", "line rate of every cable", rate);
    cmd.AddValue("delay", "propagation delay of every cable", delay);
    cmd.AddValue("switchLatency", "forwarding latency of every switch", switchLatency);
    cmd.AddValue("routing", "choice among equal-cost ports: ECMP (per flow) or Adaptive", routing);
    cmd.Parse(argc, argv);

    // User input is checked before anything is built: the helpers abort on bad names.
    std::string error;
    for (const std::string& problem :
         {CheckAttributeValue(IbNetDevice::GetTypeId(), "DataRate", rate),
          CheckAttributeValue(IbChannel::GetTypeId(), "Delay", delay),
          CheckAttributeValue(IbSwitch::GetTypeId(), "ForwardingLatency", switchLatency),
          CheckAttributeValue(IbSwitch::GetTypeId(), "Routing", routing)})
    {
        error = error.empty() ? problem : error; // the first problem
    }
    if (k < 2 || k % 2 != 0)
    {
        error = "k must be even and at least 2";
    }
    if (!CollectiveHelper::IsRegistered("all_reduce", algorithm))
    {
        error = "no all_reduce algorithm '" + algorithm + "' (" + AlgorithmList("all_reduce") + ")";
    }
    if (!error.empty())
    {
        std::fprintf(stderr, "rdma-fat-tree-all-reduce: %s\n", error.c_str());
        return 1;
    }

    IbFabricHelper fabric;
    fabric.SetDeviceAttribute("DataRate", StringValue(rate));
    fabric.SetChannelAttribute("Delay", StringValue(delay));
    fabric.SetSwitchAttribute("ForwardingLatency", StringValue(switchLatency));
    fabric.SetSwitchAttribute("Routing", StringValue(routing));
    fabric.FatTree(k);
    fabric.Install();
    const uint32_t n = fabric.GetNEndpoints();

    CollectiveHelper helper("all_reduce", algorithm);
    // Two-level algorithms see an edge switch's k/2 endpoints as one server.
    TypeId::AttributeInformation info;
    if (CollectiveHelper::GetTypeId("all_reduce", algorithm)
            .LookupAttributeByName("LocalSize", &info))
    {
        helper.SetAttribute("LocalSize", UintegerValue(k / 2));
    }
    ApplicationContainer apps = helper.Install(fabric.GetTransports(), bytes);
    Span span;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        apps.Get(i)->TraceConnectWithoutContext("Completed", MakeBoundCallback(&Record, &span));
    }
    apps.Start(Seconds(0));
    Simulator::Run();
    Simulator::Destroy();

    const double seconds = (span.last - span.first).GetSeconds();
    const double algbw = double(bytes) / seconds;
    const double busbw = algbw * CollectiveRegistry::GetBusBandwidthFactor("all_reduce", n);
    std::printf("# all_reduce/%s of %llu bytes on a k=%u fat-tree: %u endpoints, %u switches, "
                "%s cables of %s, switches of %s, %s routing\n",
                algorithm.c_str(),
                static_cast<unsigned long long>(bytes),
                k,
                n,
                fabric.GetNSwitches(),
                rate.c_str(),
                delay.c_str(),
                switchLatency.c_str(),
                routing.c_str());
    std::printf("%-18s %14s %14s %14s\n", "algorithm", "time (us)", "algbw (GB/s)", "busbw (GB/s)");
    std::printf("%-18s %14.3f %14.3f %14.3f\n",
                algorithm.c_str(),
                seconds * 1e6,
                algbw / 1e9,
                busbw / 1e9);
    return 0;
}
