/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Endpoints on ns-3's own 802.11ax: messages cross the cell, no faster than the PHY rate of
// the MCS the stations send at, and every station reaches every other.

#include "ns3/data-rate.h"
#include "ns3/message-transport.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/wifi-cell-helper.h"

#include <vector>

using namespace ns3;

/// The MCS is the fastest whose rate fits the rate asked for.
class WifiCellMcsTestCase : public TestCase
{
  public:
    WifiCellMcsTestCase()
        : TestCase("the cell sends at the fastest HE MCS within the rate asked for")
    {
    }

  private:
    void DoRun() override
    {
        WifiCellHelper cell;
        cell.SetRate(DataRate("100Mbps")); // MCS 7 is 86 Mbit/s, MCS 8 103.2
        NS_TEST_ASSERT_MSG_EQ(cell.GetMcs(), 7u, "100 Mbit/s");
        cell.SetRate(DataRate("1Gbps"));
        NS_TEST_ASSERT_MSG_EQ(cell.GetMcs(), 11u, "above every MCS");
        cell.SetRate(DataRate("1Mbps"));
        NS_TEST_ASSERT_MSG_EQ(cell.GetMcs(), 0u, "below every MCS");
    }
};

/// A message to every other station: all arrive, none faster than the PHY rate allows.
class WifiCellDeliveryTestCase : public TestCase
{
  public:
    WifiCellDeliveryTestCase()
        : TestCase("four stations: every message arrives, within the PHY rate")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        const uint64_t bytes = 200000;
        WifiCellHelper cell;
        cell.SetRate(DataRate("86Mbps"));
        cell.Install(n);
        const std::vector<Ptr<MessageTransport>> transports = cell.GetTransports();
        std::vector<double> delivered;
        const Time start = MilliSeconds(10);
        transports[n - 1]->Listen(1,
                                  MessageTransport::ReceiveCallback([&](uint32_t, uint64_t, uint64_t) {
                                      delivered.push_back((Simulator::Now() - start).GetSeconds());
                                  }));
        // One station after another sends to the last, so the air carries one flow at a time.
        for (uint32_t s = 0; s + 1 < n; ++s)
        {
            Simulator::Schedule(start + Seconds(0.5 * s), [&, s]() {
                transports[s]->Send(n - 1, 1, 0, bytes);
            });
        }
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(delivered.size(), std::size_t(n - 1), "every message arrives");
        // The payload alone at the PHY rate, before any header, gap or acknowledgement.
        const double floor = bytes * 8.0 / WifiCellHelper::HeMcsRate(7).GetBitRate();
        for (uint32_t s = 0; s < delivered.size(); ++s)
        {
            const double took = delivered[s] - 0.5 * s;
            NS_TEST_ASSERT_MSG_GT(took, floor, "station " << s << " beat the PHY rate");
            NS_TEST_ASSERT_MSG_LT(took, 0.5, "station " << s << " took more than its slot");
        }
    }
};

class WifiCellTestSuite : public TestSuite
{
  public:
    WifiCellTestSuite()
        : TestSuite("uniference-wifi-cell")
    {
        AddTestCase(new WifiCellMcsTestCase);
        AddTestCase(new WifiCellDeliveryTestCase);
    }
};

static WifiCellTestSuite g_wifiCellTestSuite;
