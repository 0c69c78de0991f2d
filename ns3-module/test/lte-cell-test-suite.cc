/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Endpoints on ns-3's own LTE: a device's messages reach a server behind the core and back,
// within the time TCP's slow start, the backhaul's delay and LTE's radio allow.

#include "ns3/config.h"
#include "ns3/uinteger.h"
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
        // As the lte-cell topology does: ns-3's RLC UM keeps 10 kB and drops the rest, so a
        // window beyond seven segments would wait out a 1 s RTO.
        Config::SetDefault("ns3::LteRlcUm::MaxTxBufferSize", UintegerValue(1 << 20));
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
        Config::SetDefault("ns3::LteRlcUm::MaxTxBufferSize", UintegerValue(10 * 1024));

        // Bounds from TCP and LTE's numbers, not from the code. The message (a hello, a
        // 24-byte header and 100 kB) is 70 segments of 1448 bytes on a new connection with
        // ns-3's initial window of 10 segments (RFC 6928).
        //
        // Floor: even if the window doubled every round trip (RFC 5681 slow start counting
        // bytes), 70 = 10 + 20 + 40 segments take 3 flights: the handshake's round trip, 2
        // more, and the last flight's one-way trip, each round trip at least the backhaul both
        // ways, plus the last flight's 40 segments (1500 bytes each on the air) at the cell's
        // peak rate: 100 resource blocks x 12 subcarriers x 14 symbols per 1 ms subframe x 6
        // bits (64-QAM), coding rate 1, no control or reference-signal overhead: 100.8 Mbit/s.
        const double rttMin = 2 * backhaul.GetSeconds();
        const double peak = 100 * 12 * 14 * 6 / 1e-3;
        const Time floor = Seconds(3.5 * rttMin + 40 * 1500 * 8 / peak);
        // Ceiling: ns-3's NewReno grows the window one segment per ACK and the receiver
        // acknowledges every second segment, so 1.5x a round trip: 10 + 15 + 22 + 33 covers
        // 70 in 4 flights (4.5 round trips with the handshake). A round trip on the radio is at
        // most 3 HARQ round trips of 8 ms (an uplink grant cycle, the uplink transmission, the
        // downlink one), 24 ms. The bytes at a rate no worse than CQI 7 (16-QAM, 1.4766 bits a
        // resource element) on the 100 resource blocks' 12 x 14 - 36 (3 control symbols) - 6
        // (cell reference signals) = 126 data elements per 1 ms: 18.6 Mbit/s.
        const double rttMax = rttMin + 24e-3;
        const double floorRate = 100 * 126 * 1.4766 / 1e-3;
        const Time ceiling = Seconds(4.5 * rttMax + bytes * 8 / floorRate);
        NS_TEST_ASSERT_MSG_GT(up, floor, "the uplink beat TCP and the backhaul: " << up.As(Time::MS));
        NS_TEST_ASSERT_MSG_GT(down, floor, "the downlink beat TCP and the backhaul: " << down.As(Time::MS));
        NS_TEST_ASSERT_MSG_LT(up, ceiling, "the uplink took " << up.As(Time::MS));
        NS_TEST_ASSERT_MSG_LT(down, ceiling, "the downlink took " << down.As(Time::MS));
        std::clog << "LTE: 100 kB up " << up.As(Time::MS) << ", down " << down.As(Time::MS)
                  << ", TCP and LTE allow " << floor.As(Time::MS) << " to " << ceiling.As(Time::MS)
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
