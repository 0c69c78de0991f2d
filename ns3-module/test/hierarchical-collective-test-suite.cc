/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// On a two-tier network (servers of four endpoints behind a fast local switch, the servers
// joined through a core by slow links), the hierarchical all-to-all beats the direct one: the
// same payload crosses the slow links, but as one aggregated message per pair of servers and
// local index instead of one per pair of endpoints, so fewer connections are opened across
// them and fewer messages (with their headers) share them.

#include "collective-test-util.h"

#include "ns3/collective-helper.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/message-transport-helper.h"
#include "ns3/message-transport.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-star.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::tests;

namespace
{

/// Servers, endpoints per server.
constexpr uint32_t SERVERS = 4;
constexpr uint32_t LOCAL = 4;

/**
 * Build the two-tier network and run one all-to-all on it.
 * \param algorithm the all_to_all algorithm
 * \param bytes S, the send buffer of every endpoint
 * \return seconds from the entry to the last completion
 */
double
TwoTierAllToAll(const std::string& algorithm, uint64_t bytes)
{
    PointToPointHelper fast;
    fast.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    fast.SetChannelAttribute("Delay", StringValue("1us"));
    PointToPointHelper slow;
    slow.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    slow.SetChannelAttribute("Delay", StringValue("100us"));

    InternetStackHelper stack;
    NodeContainer core;
    core.Create(1);
    stack.Install(core);
    std::vector<std::unique_ptr<PointToPointStarHelper>> servers;
    NodeContainer endpoints;
    std::vector<Ipv4Address> addresses;
    Ipv4AddressHelper uplinks("10.200.0.0", "255.255.255.252");
    for (uint32_t s = 0; s < SERVERS; ++s)
    {
        servers.push_back(std::make_unique<PointToPointStarHelper>(LOCAL, fast));
        servers[s]->InstallStack(stack);
        std::ostringstream base;
        base << "10." << s + 1 << ".0.0";
        servers[s]->AssignIpv4Addresses(Ipv4AddressHelper(base.str().c_str(), "255.255.255.0"));
        uplinks.Assign(slow.Install(servers[s]->GetHub(), core.Get(0)));
        uplinks.NewNetwork();
        for (uint32_t l = 0; l < LOCAL; ++l)
        {
            endpoints.Add(servers[s]->GetSpokeNode(l));
            addresses.push_back(servers[s]->GetSpokeIpv4Address(l));
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    MessageTransportHelper transports;
    transports.SetAttribute("SegmentSize", UintegerValue(MSS));
    ApplicationContainer apps = transports.Install(endpoints, addresses);
    std::vector<Ptr<MessageTransport>> participants;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        participants.push_back(DynamicCast<MessageTransport>(apps.Get(i)));
    }

    CollectiveHelper helper("all_to_all", algorithm);
    if (algorithm == "hierarchical")
    {
        helper.SetAttribute("LocalSize", UintegerValue(LOCAL));
    }
    Ptr<Collective> collective = helper.Create();
    collective->Setup(participants, bytes);
    const Time start = MilliSeconds(1);
    std::vector<Time> done = RunCollective(collective, std::vector<Time>(participants.size(), start));
    const bool finished = collective->IsFinished();
    Simulator::Destroy();
    if (!finished)
    {
        return -1;
    }
    return (*std::max_element(done.begin(), done.end()) - start).GetSeconds();
}

/**
 * \ingroup uniference-tests
 * Hierarchical against direct all-to-all on the two-tier network.
 */
class HierarchicalAllToAllTestCase : public TestCase
{
  public:
    HierarchicalAllToAllTestCase()
        : TestCase("hierarchical all-to-all beats direct across slow inter-server links")
    {
    }

  private:
    void DoRun() override
    {
        // 1 KiB and 16 KiB to every endpoint.
        for (uint64_t bytes : {16 * 1024, 16 * 16384})
        {
            const double direct = TwoTierAllToAll("direct", bytes);
            const double hierarchical = TwoTierAllToAll("hierarchical", bytes);
            NS_TEST_ASSERT_MSG_GT(direct, 0.0, "direct completes");
            NS_TEST_ASSERT_MSG_GT(hierarchical, 0.0, "hierarchical completes");
            std::clog << "  two-tier all-to-all of " << bytes << " bytes per endpoint: direct "
                      << direct * 1e3 << " ms, hierarchical " << hierarchical * 1e3
                      << " ms (direct / hierarchical = " << direct / hierarchical << ")"
                      << std::endl;
            NS_TEST_EXPECT_MSG_LT(hierarchical, direct, "hierarchical is faster, S " << bytes);
        }
    }
};

/**
 * \ingroup uniference-tests
 * The suite.
 */
class HierarchicalCollectiveTestSuite : public TestSuite
{
  public:
    HierarchicalCollectiveTestSuite()
        : TestSuite("uniference-hierarchical-collective", UNIT)
    {
        AddTestCase(new HierarchicalAllToAllTestCase);
    }
};

/// The suite's instance.
static HierarchicalCollectiveTestSuite g_hierarchicalCollectiveTestSuite;

} // namespace
