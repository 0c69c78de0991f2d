/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Endpoints on ns-3's own LTE: a device's messages reach a server behind the core and back,
// no sooner than the backhaul's propagation delay allows.

#include "ns3/data-rate.h"
#include "ns3/lte-cell-helper.h"
#include "ns3/message-transport.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <vector>

using namespace ns3;

class LteCellDeliveryTestCase : public TestCase
{
  public:
    LteCellDeliveryTestCase()
        : TestCase("a device and a server exchange messages through the eNB and the core")
    {
    }

  private:
    void DoRun() override
    {
        const Time backhaul = MilliSeconds(10);
        const uint64_t bytes = 100000;
        LteCellHelper cell;
        cell.SetBackhaulAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
        cell.SetBackhaulAttribute("Delay", TimeValue(backhaul));
        cell.Install(1, 1);
        const std::vector<Ptr<MessageTransport>> transports = cell.GetTransports();
        Time sent;
        Time up;
        Time down;
        transports[1]->Listen(1, MessageTransport::ReceiveCallback([&](uint32_t, uint64_t, uint64_t) {
                                  up = Simulator::Now() - sent;
                                  sent = Simulator::Now();
                                  transports[1]->Send(0, 1, 0, bytes);
                              }));
        transports[0]->Listen(1, MessageTransport::ReceiveCallback([&](uint32_t, uint64_t, uint64_t) {
                                  down = Simulator::Now() - sent;
                                  Simulator::Stop();
                              }));
        Simulator::Schedule(Seconds(1), [&]() {
            sent = Simulator::Now();
            transports[0]->Send(1, 1, 0, bytes);
        });
        Simulator::Stop(Seconds(30));
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_GT(up, Time(0), "the device's message never reached the server");
        NS_TEST_ASSERT_MSG_GT(down, Time(0), "the server's answer never reached the device");
        // A new connection's handshake and the message: at least two crossings of the backhaul.
        NS_TEST_ASSERT_MSG_GT(up, backhaul * 2, "faster than the backhaul allows");
        NS_TEST_ASSERT_MSG_GT(down, backhaul * 2, "faster than the backhaul allows");
        NS_TEST_ASSERT_MSG_LT(up, Seconds(5), "the uplink took " << up.As(Time::S));
        NS_TEST_ASSERT_MSG_LT(down, Seconds(5), "the downlink took " << down.As(Time::S));
        std::clog << "LTE: 100 kB up " << up.As(Time::MS) << ", down " << down.As(Time::MS)
                  << "\n";
    }
};

class LteCellTestSuite : public TestSuite
{
  public:
    LteCellTestSuite()
        : TestSuite("uniference-lte-cell")
    {
        AddTestCase(new LteCellDeliveryTestCase);
    }
};

static LteCellTestSuite g_lteCellTestSuite;
