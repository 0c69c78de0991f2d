/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A collective in a plain ns-3 program: stations, each on a long link to a hub (20 ms one way
// by default, as a LEO bent pipe with its ground segment), all-reduce a buffer with each
// algorithm asked for, one CollectiveApplication per participant over TcpMessageTransport.
// Prints, per algorithm, the time from entry to the last completion and nccl-tests' bus
// bandwidth.
//
//   ./collective-long-links --algorithms=ring,tree,halving_doubling --bytes=1048576

#include "ns3/collective-application.h"
#include "ns3/collective-helper.h"
#include "ns3/command-line.h"
#include "ns3/simulator.h"
#include "ns3/star-network-helper.h"
#include "ns3/string.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/// Keeps the latest completion of any participant.
void
KeepLatest(Time* latest, Time /* entered */, Time completed)
{
    *latest = std::max(*latest, completed);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string algorithms = "ring,tree,halving_doubling";
    uint64_t bytes = 1 << 20;
    uint32_t stations = 4;
    std::string rate = "100Mbps";
    std::string delay = "20ms";

    CommandLine cmd(__FILE__);
    cmd.Usage("All-reduce over long star links with each algorithm named, in plain ns-3.");
    cmd.AddValue("algorithms", "comma-separated all_reduce algorithms", algorithms);
    cmd.AddValue("bytes", "all-reduce size S in bytes", bytes);
    cmd.AddValue("stations", "participants", stations);
    cmd.AddValue("rate", "link data rate", rate);
    cmd.AddValue("delay", "link one-way propagation delay", delay);
    cmd.Parse(argc, argv);

    // Names are checked before anything is built: CollectiveHelper aborts on an unknown one.
    std::stringstream names(algorithms);
    for (std::string algorithm; std::getline(names, algorithm, ',');)
    {
        if (!CollectiveHelper::IsRegistered("all_reduce", algorithm))
        {
            std::fprintf(stderr,
                         "collective-long-links: no all_reduce algorithm '%s'\n",
                         algorithm.c_str());
            return 1;
        }
    }

    std::printf("# all_reduce of %llu bytes on %u stations, links %s, %s one way\n",
                static_cast<unsigned long long>(bytes),
                stations,
                rate.c_str(),
                delay.c_str());
    std::printf("%-18s %14s %12s\n", "algorithm", "time (ms)", "busbw (MB/s)");
    std::stringstream list(algorithms);
    for (std::string algorithm; std::getline(list, algorithm, ',');)
    {
        StarNetworkHelper star;
        star.SetLinkAttribute("DataRate", StringValue(rate));
        star.SetLinkAttribute("Delay", StringValue(delay));
        star.Install(stations);
        ApplicationContainer apps =
            CollectiveHelper("all_reduce", algorithm).Install(star.GetTransports(), bytes);
        Time last;
        for (uint32_t i = 0; i < apps.GetN(); ++i)
        {
            apps.Get(i)->TraceConnectWithoutContext("Completed",
                                                    MakeBoundCallback(&KeepLatest, &last));
        }
        // Every participant enters at 1 s, when the transports have long been listening.
        apps.Start(Seconds(1));
        Simulator::Run();
        Simulator::Destroy();
        const double seconds = (last - Seconds(1)).GetSeconds();
        const double busbw = double(bytes) / seconds * 2 * (stations - 1) / stations / 1e6;
        std::printf("%-18s %14.3f %12.3f\n", algorithm.c_str(), seconds * 1e3, busbw);
    }
    return 0;
}
