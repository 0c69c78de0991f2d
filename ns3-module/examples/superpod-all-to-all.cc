/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// An all-to-all (expert parallelism's dispatch) on a two-tier superpod: IbFabricHelper's
// TwoTier puts gpusPerServer endpoints on each server's switch over intra-server cables (a
// link class of their own) and cables every server switch to every one of tierSwitches
// switches; one RdmaMessageTransport per endpoint, one CollectiveApplication per endpoint, all
// entering at once. Each endpoint sends bytes / n to every other. Prints the time from the
// first entry to the last completion and nccl-tests' algorithm and bus bandwidths (busbw =
// algbw x (n-1)/n for an all-to-all).
//
// The defaults are those of a CloudMatrix384-like superpod (servers of 8, 8 second-tier
// switches, 392 GB/s per endpoint each way, 100 ns cables, 700 ns switches, 1 MiB lane
// buffers, adaptive routing), on 4 servers.
//
//   ./superpod-all-to-all --servers=4 --bytes=8388608 --algorithm=direct
//   ./superpod-all-to-all --algorithm=hierarchical --routing=ECMP

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
#include <vector>

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
    uint32_t servers = 4;
    uint32_t gpusPerServer = 8;
    uint32_t tierSwitches = 8;
    uint64_t bytes = 8 << 20;
    std::string algorithm = "direct";
    std::string rate = "3136Gbps";
    std::string intraRate = "3136Gbps";
    std::string delay = "100ns";
    std::string switchLatency = "700ns";
    std::string routing = "Adaptive";
    // A lane must buffer what the line sends while a credit comes back through a switch
    // (3136 Gbit/s x ~1 us: 392 KB), or credits, not the line, set the rate.
    uint32_t vlBuffer = 1 << 20;

    CommandLine cmd(__FILE__);
    cmd.Usage("All-to-all over RDMA on a two-tier superpod built with IbFabricHelper.");
    cmd.AddValue("servers", "servers", servers);
    cmd.AddValue("gpusPerServer", "endpoints per server, on the server's switch", gpusPerServer);
    cmd.AddValue("tierSwitches", "second-tier switches, each cabled to every server", tierSwitches);
    cmd.AddValue("bytes", "all-to-all size S in bytes: each endpoint sends S/n to each", bytes);
    cmd.AddValue("algorithm", "all_to_all algorithm: " + AlgorithmList("all_to_all"), algorithm);
    cmd.AddValue("rate", "line rate of the cables between server and tier switches", rate);
    cmd.AddValue("intraRate", "line rate of the cables inside a server", intraRate);
    cmd.AddValue("delay", "propagation delay of every cable", delay);
    cmd.AddValue("switchLatency", "forwarding latency of every switch", switchLatency);
    cmd.AddValue("vlBuffer", "receive buffer per virtual lane of every port, bytes", vlBuffer);
    cmd.AddValue("routing", "choice among equal-cost ports: ECMP (per flow) or Adaptive", routing);
    cmd.Parse(argc, argv);

    // User input is checked before anything is built: the helpers abort on bad names.
    std::string error;
    for (const std::string& problem :
         {CheckAttributeValue(IbNetDevice::GetTypeId(), "DataRate", rate),
          CheckAttributeValue(IbNetDevice::GetTypeId(), "DataRate", intraRate),
          CheckAttributeValue(IbNetDevice::GetTypeId(), "VlBufferBytes", UintegerValue(vlBuffer)),
          CheckAttributeValue(IbChannel::GetTypeId(), "Delay", delay),
          CheckAttributeValue(IbSwitch::GetTypeId(), "ForwardingLatency", switchLatency),
          CheckAttributeValue(IbSwitch::GetTypeId(), "Routing", routing)})
    {
        error = error.empty() ? problem : error; // the first problem
    }
    if (servers == 0 || gpusPerServer == 0 || (servers > 1 && tierSwitches == 0))
    {
        error = "needs servers, endpoints per server and, for several servers, a tier switch";
    }
    if (!CollectiveHelper::IsRegistered("all_to_all", algorithm))
    {
        error = "no all_to_all algorithm '" + algorithm + "' (" + AlgorithmList("all_to_all") + ")";
    }
    if (!error.empty())
    {
        std::fprintf(stderr, "superpod-all-to-all: %s\n", error.c_str());
        return 1;
    }

    IbFabricHelper fabric;
    fabric.SetDeviceAttribute("DataRate", StringValue(rate));
    fabric.SetDeviceAttribute("VlBufferBytes", UintegerValue(vlBuffer));
    fabric.SetChannelAttribute("Delay", StringValue(delay));
    fabric.SetSwitchAttribute("ForwardingLatency", StringValue(switchLatency));
    fabric.SetSwitchAttribute("Routing", StringValue(routing));
    const uint32_t intra = fabric.AddLinkClass(DataRate(intraRate), Time(delay));
    fabric.TwoTier(servers, gpusPerServer, tierSwitches, intra);
    fabric.Install();
    const uint32_t n = fabric.GetNEndpoints();

    CollectiveHelper helper("all_to_all", algorithm);
    // Two-hop algorithms exchange inside a server first: tell them its size.
    TypeId::AttributeInformation info;
    if (CollectiveHelper::GetTypeId("all_to_all", algorithm)
            .LookupAttributeByName("LocalSize", &info))
    {
        helper.SetAttribute("LocalSize", UintegerValue(gpusPerServer));
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
    const double busbw = algbw * CollectiveRegistry::GetBusBandwidthFactor("all_to_all", n);
    std::printf("# all_to_all/%s of %llu bytes on a two-tier superpod: %u servers of %u, %u tier "
                "switches; %s inside servers, %s to the tier, %s cables, switches of %s, %s "
                "routing\n",
                algorithm.c_str(),
                static_cast<unsigned long long>(bytes),
                servers,
                gpusPerServer,
                tierSwitches,
                intraRate.c_str(),
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
