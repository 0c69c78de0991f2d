/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A LEO bent pipe in a plain ns-3 program: a terminal and a gateway on a VaryingLinkChannel
// whose delay follows a satellite across the sky, pinged with UDP echo every interval through
// one pass. Prints each request's one-way delay to the gateway beside the serving satellite's
// elevation; requests sent in a handover's outage never arrive.
//
//   ./leo-pass --altitude=550000 --maxElevation=60 --handoverOutage=50ms --interval=5s

#include "ns3/command-line.h"
#include "ns3/double.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/leo-pass-condition.h"
#include "ns3/node-container.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/udp-echo-helper.h"
#include "ns3/uinteger.h"
#include "ns3/varying-link-channel.h"
#include "ns3/varying-link-helper.h"

#include <cstdio>
#include <map>

using namespace ns3;

namespace
{

/// Request uid (which the packet keeps across the link) to its send time.
std::map<uint64_t, Time> g_sent;

/// The client sent a request.
void
Sent(Ptr<const Packet> packet)
{
    g_sent[packet->GetUid()] = Simulator::Now();
}

/// A request reached the gateway: print it with the elevation at which it left.
void
Arrived(Ptr<LeoPassCondition> pass, Ptr<const Packet> packet)
{
    auto request = g_sent.find(packet->GetUid());
    if (request == g_sent.end())
    {
        return;
    }
    const Time sent = request->second;
    g_sent.erase(request);
    std::printf("%10.3f %12.2f %14.3f\n",
                sent.GetSeconds(),
                pass->GetElevation(sent),
                (Simulator::Now() - sent).GetSeconds() * 1e3);
}

} // namespace

int
main(int argc, char* argv[])
{
    double altitude = 550e3;
    double maxElevation = 90;
    std::string handoverOutage = "0s";
    std::string interval = "5s";

    CommandLine cmd(__FILE__);
    cmd.Usage("UDP echo across one LEO pass on a VaryingLinkChannel, in plain ns-3.");
    cmd.AddValue("altitude", "orbit altitude, metres", altitude);
    cmd.AddValue("maxElevation", "elevation at the pass's closest approach, degrees", maxElevation);
    cmd.AddValue("handoverOutage", "link outage at each 15 s handover", handoverOutage);
    cmd.AddValue("interval", "time between pings", interval);
    cmd.Parse(argc, argv);

    NodeContainer nodes(2); // terminal, gateway
    VaryingLinkHelper leo;
    leo.SetDataRates(DataRate("20Mbps"), DataRate("100Mbps"));
    leo.SetPath("ns3::LeoPassCondition",
                "Altitude",
                DoubleValue(altitude),
                "MaxElevation",
                DoubleValue(maxElevation),
                "HandoverOutage",
                StringValue(handoverOutage));
    NetDeviceContainer devices = leo.Install(nodes.Get(0), nodes.Get(1));
    InternetStackHelper().Install(nodes);
    Ipv4InterfaceContainer addresses =
        Ipv4AddressHelper("10.9.0.0", "255.255.255.0").Assign(devices);

    auto channel = DynamicCast<VaryingLinkChannel>(devices.Get(0)->GetChannel());
    auto pass = DynamicCast<LeoPassCondition>(channel->GetConditions().front());
    const Time duration = pass->GetPassDuration();

    UdpEchoServerHelper server(9);
    ApplicationContainer gateway = server.Install(nodes.Get(1));
    gateway.Start(Seconds(0));
    gateway.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&Arrived, pass));
    UdpEchoClientHelper client(addresses.GetAddress(1), 9);
    client.SetAttribute("Interval", StringValue(interval));
    const auto pings = uint32_t(duration.GetSeconds() / Time(interval).GetSeconds()) + 1;
    client.SetAttribute("MaxPackets", UintegerValue(pings));
    client.SetAttribute("PacketSize", UintegerValue(64));
    ApplicationContainer ping = client.Install(nodes.Get(0));
    ping.Start(Seconds(0));
    ping.Get(0)->TraceConnectWithoutContext("Tx", MakeCallback(&Sent));

    std::printf("# LEO pass at %.0f km, %.0f degrees at its highest: %.1f s above the horizon "
                "limit\n",
                altitude / 1e3,
                maxElevation,
                duration.GetSeconds());
    std::printf("%10s %12s %14s\n", "sent (s)", "elevation", "one way (ms)");
    Simulator::Stop(duration + Seconds(1));
    Simulator::Run();
    Simulator::Destroy();
    for (const auto& [uid, sent] : g_sent)
    {
        std::printf("%10.3f %12.2f %14s\n", sent.GetSeconds(), pass->GetElevation(sent), "lost");
    }
    return 0;
}
