/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The flow level's network against hand-computed max-min fair shares and, on random networks,
// against the definition of max-min fairness; and a message at the flow level over an
// InfiniBand-like star against the cut-through pipeline's formula.

#include "ns3/data-rate.h"
#include "ns3/flow-fifo.h"
#include "ns3/flow-network-helper.h"
#include "ns3/flow-network.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/// A link of `bytesPerSecond` (the tests think in bytes).
uint32_t
AddLink(Ptr<FlowNetwork> network, double bytesPerSecond)
{
    return network->AddLink(DataRate(static_cast<uint64_t>(bytesPerSecond * 8)), nullptr);
}

/// Records when a callback ran.
void
Stamp(Time* at)
{
    *at = Simulator::Now();
}

/**
 * The textbook case: link A (10 MB/s) carries streams 1 and 2, link B (4 MB/s) streams 2 and
 * 3. B is the tighter: 2 MB/s each for streams 2 and 3; stream 1 gets what A has left, 8.
 * Then a chain: stream 4 starts on B alone of a second network where stream 1 reaches B only
 * through stream 2, and must still be recomputed.
 */
class FlowNetworkMaxMinTestCase : public TestCase
{
  public:
    FlowNetworkMaxMinTestCase()
        : TestCase("max-min fair shares by progressive filling, through chains of links")
    {
    }

  private:
    void DoRun() override
    {
        const double mb = 1e6;
        Ptr<FlowNetwork> net = CreateObject<FlowNetwork>();
        const uint32_t a = AddLink(net, 10 * mb);
        const uint32_t b = AddLink(net, 4 * mb);
        const uint32_t s1 = net->AddStream({a});
        const uint32_t s2 = net->AddStream({a, b});
        const uint32_t s3 = net->AddStream({b});
        for (uint32_t s : {s1, s2, s3})
        {
            net->Push(s, 1'000'000'000);
        }
        Simulator::Stop(NanoSeconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ_TOL(net->GetRate(s1), 8 * mb, 1, "stream 1 takes what A has left");
        NS_TEST_EXPECT_MSG_EQ_TOL(net->GetRate(s2), 2 * mb, 1, "stream 2 halves B");
        NS_TEST_EXPECT_MSG_EQ_TOL(net->GetRate(s3), 2 * mb, 1, "stream 3 halves B");
        Simulator::Destroy();

        // L0 (10) - L1 (10) - L2 (4): stream x on L0 and L1, y on L1 and L2. y is held to 4 by
        // L2, x gets 6 of L1. Then z starts on L2 alone: y and z get 2 each, and x, which
        // shares no link with z, must rise to 8.
        Ptr<FlowNetwork> chain = CreateObject<FlowNetwork>();
        const uint32_t l0 = AddLink(chain, 10 * mb);
        const uint32_t l1 = AddLink(chain, 10 * mb);
        const uint32_t l2 = AddLink(chain, 4 * mb);
        const uint32_t x = chain->AddStream({l0, l1});
        const uint32_t y = chain->AddStream({l1, l2});
        const uint32_t z = chain->AddStream({l2});
        chain->Push(x, 1'000'000'000);
        chain->Push(y, 1'000'000'000);
        Simulator::Stop(MicroSeconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ_TOL(chain->GetRate(x), 6 * mb, 1, "x gets what y leaves of L1");
        NS_TEST_EXPECT_MSG_EQ_TOL(chain->GetRate(y), 4 * mb, 1, "y is held by L2");
        chain->Push(z, 1'000'000'000);
        Simulator::Stop(MicroSeconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ_TOL(chain->GetRate(x), 8 * mb, 1, "x rises through y");
        NS_TEST_EXPECT_MSG_EQ_TOL(chain->GetRate(y), 2 * mb, 1, "y halves L2");
        NS_TEST_EXPECT_MSG_EQ_TOL(chain->GetRate(z), 2 * mb, 1, "z halves L2");
        Simulator::Destroy();
    }
};

/**
 * Random networks against the definition rather than a second implementation: rates are
 * max-min fair when no link carries more than its capacity and every stream either runs at
 * its cap or crosses a bottleneck, a full link on which no stream runs faster than it.
 * Streams start and end at random instants, so the rates checked are those the incremental
 * reallocations leave, not only a first allocation.
 */
class FlowNetworkMaxMinPropertyTestCase : public TestCase
{
  public:
    FlowNetworkMaxMinPropertyTestCase()
        : TestCase("random networks: rates are feasible and every stream has a bottleneck")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 random(12345); // a fixed seed: the same networks every run
        for (int trial = 0; trial < 40; ++trial)
        {
            Ptr<FlowNetwork> net = CreateObject<FlowNetwork>();
            const uint32_t nLinks = 3 + random() % 10;
            std::vector<double> capacity;
            for (uint32_t l = 0; l < nLinks; ++l)
            {
                capacity.push_back(1e6 * (1 + random() % 20));
                AddLink(net, capacity.back());
            }
            const uint32_t nStreams = 2 + random() % 30;
            std::vector<double> cap(nStreams, 0);
            for (uint32_t s = 0; s < nStreams; ++s)
            {
                std::vector<uint32_t> links(nLinks);
                for (uint32_t l = 0; l < nLinks; ++l)
                {
                    links[l] = l;
                }
                std::shuffle(links.begin(), links.end(), random);
                links.resize(1 + random() % std::min<uint32_t>(4, nLinks));
                net->AddStream(links);
                if (random() % 5 == 0)
                {
                    cap[s] = 1e5 * (1 + random() % 50);
                    net->SetCap(s, cap[s]);
                }
                // Bytes for 1 to 100 ms at a megabyte per second, from 0 to 20 ms.
                const uint64_t bytes = 1000 * (1 + random() % 100);
                Simulator::Schedule(MicroSeconds(random() % 20000),
                                    [net, s, bytes]() { net->Push(s, bytes); });
            }
            for (int check = 1; check <= 20; ++check)
            {
                Simulator::Stop(MicroSeconds(1500) + NanoSeconds(1));
                Simulator::Run();
                Check(net, capacity, cap, trial);
            }
            Simulator::Destroy();
        }
    }

    void Check(Ptr<FlowNetwork> net,
               const std::vector<double>& capacity,
               const std::vector<double>& cap,
               int trial)
    {
        const double tolerance = 1e-6;
        std::vector<double> load(capacity.size(), 0);
        std::vector<double> fastest(capacity.size(), 0);
        for (uint32_t s = 0; s < cap.size(); ++s)
        {
            for (uint32_t l : net->GetPath(s))
            {
                load[l] += net->GetRate(s);
                fastest[l] = std::max(fastest[l], net->GetRate(s));
            }
        }
        for (uint32_t l = 0; l < capacity.size(); ++l)
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(load[l],
                                        capacity[l] * (1 + tolerance),
                                        "trial " << trial << ": link " << l << " overbooked");
        }
        for (uint32_t s = 0; s < cap.size(); ++s)
        {
            const double rate = net->GetRate(s);
            if (rate == 0)
            {
                continue; // idle: nothing to carry
            }
            bool bottlenecked = cap[s] > 0 && std::abs(rate - cap[s]) <= tolerance * cap[s];
            for (uint32_t l : net->GetPath(s))
            {
                bottlenecked |= load[l] >= capacity[l] * (1 - tolerance) &&
                                rate >= fastest[l] * (1 - tolerance);
            }
            NS_TEST_EXPECT_MSG_EQ(bottlenecked,
                                  true,
                                  "trial " << trial << ": stream " << s << " at " << rate
                                           << " B/s could run faster");
        }
    }
};

/**
 * FlowFifo keeps its order through pops, inserts and the compaction of its dead prefix:
 * a model queue (a counter of what was pushed) says what must come out next.
 */
class FlowFifoTestCase : public TestCase
{
  public:
    FlowFifoTestCase()
        : TestCase("FlowFifo: first in, first out, across compaction and inserts")
    {
    }

  private:
    void DoRun() override
    {
        FlowFifo<int> fifo;
        NS_TEST_EXPECT_MSG_EQ(fifo.empty(), true, "new and empty");
        int next = 0; // the next value to push
        int want = 0; // the next value that must come out
        // Uneven bursts keep a long dead prefix behind a live tail, past the compaction's
        // threshold of 32, many times over.
        for (int round = 0; round < 50; ++round)
        {
            for (int i = 0; i < 40 + round % 7; ++i)
            {
                fifo.push_back(next++);
            }
            for (int i = 0; i < 37 + round % 5 && !fifo.empty(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(fifo.front(), want, "round " << round);
                ++want;
                fifo.pop_front();
            }
        }
        while (!fifo.empty())
        {
            NS_TEST_EXPECT_MSG_EQ(fifo.front(), want, "draining");
            ++want;
            fifo.pop_front();
        }
        NS_TEST_EXPECT_MSG_EQ(want, next, "everything pushed came out");

        // An insert before the back, as a mark for an earlier offset arrives late.
        fifo.push_back(10);
        fifo.push_back(30);
        fifo.pop_front();
        fifo.push_back(40);
        auto at = fifo.begin();
        fifo.insert(at, 20);
        std::vector<int> out;
        for (auto it = fifo.begin(); it != fifo.end(); ++it)
        {
            out.push_back(*it);
        }
        NS_TEST_EXPECT_MSG_EQ((out == std::vector<int>{20, 30, 40}), true, "insert at the front");
        fifo.clear();
        NS_TEST_EXPECT_MSG_EQ(fifo.empty(), true, "cleared");
    }
};

/**
 * Two streams on one 1 MB/s link, of 1000 and 500 bytes: 0.5 MB/s each until the short one
 * ends at 1 ms, then the long one alone carries its last 500 bytes by 1.5 ms. A cap of
 * 0.25 MB/s on one of two streams leaves the other 0.75. A mark already passed runs at once.
 */
class FlowNetworkCompletionTestCase : public TestCase
{
  public:
    FlowNetworkCompletionTestCase()
        : TestCase("streams finish when their shares carry their bytes; caps; passed marks")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FlowNetwork> net = CreateObject<FlowNetwork>();
        const uint32_t link = AddLink(net, 1e6);
        const uint32_t longer = net->AddStream({link});
        const uint32_t shorter = net->AddStream({link});
        Time longEnd;
        Time shortEnd;
        Time half;
        net->When(longer, net->Push(longer, 1000), MakeBoundCallback(&Stamp, &longEnd));
        net->When(shorter, net->Push(shorter, 500), MakeBoundCallback(&Stamp, &shortEnd));
        net->When(longer, 250, MakeBoundCallback(&Stamp, &half));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(shortEnd, MilliSeconds(1), "500 B at 0.5 MB/s");
        NS_TEST_EXPECT_MSG_EQ(half, MicroSeconds(500), "250 B at 0.5 MB/s");
        NS_TEST_EXPECT_MSG_EQ(longEnd, MicroSeconds(1500), "then 500 B at 1 MB/s");
        NS_TEST_EXPECT_MSG_EQ(net->GetLinkBytes(link), 1500, "the link carried both");

        // A mark at an offset already carried runs now.
        Time again(-1);
        net->When(longer, 1000, MakeBoundCallback(&Stamp, &again));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(again, MicroSeconds(1500), "a passed mark runs at once");
        Simulator::Destroy();

        Ptr<FlowNetwork> capped = CreateObject<FlowNetwork>();
        const uint32_t one = AddLink(capped, 1e6);
        const uint32_t slow = capped->AddStream({one});
        const uint32_t fast = capped->AddStream({one});
        capped->SetCap(slow, 0.25e6);
        capped->Push(slow, 1'000'000);
        capped->Push(fast, 1'000'000);
        Simulator::Stop(MicroSeconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ_TOL(capped->GetRate(slow), 0.25e6, 1, "held to its cap");
        NS_TEST_EXPECT_MSG_EQ_TOL(capped->GetRate(fast), 0.75e6, 1, "the rest of the link");
        Simulator::Destroy();
    }
};

/**
 * Resolution 300 us: two streams of 500 B and 1000 B on a 1 MB/s link start at 0 and share
 * it, 0.5 MB/s each. The shorter ends at 1 ms; its share stays idle until the reallocation at
 * 1.2 ms, so the longer has 600 B by then and its last 400 B take 0.4 ms at the whole link:
 * it ends at 1.6 ms (exact rates: 1.5 ms). At 1.1 ms the link has carried 500 + 550 B.
 */
class FlowNetworkResolutionTestCase : public TestCase
{
  public:
    FlowNetworkResolutionTestCase()
        : TestCase("a coarse resolution leaves an ended stream's share idle until it falls due")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FlowNetwork> net = CreateObject<FlowNetwork>();
        net->SetAttribute("Resolution", TimeValue(MicroSeconds(300)));
        const uint32_t link = AddLink(net, 1e6);
        const uint32_t longer = net->AddStream({link});
        const uint32_t shorter = net->AddStream({link});
        Time longEnd;
        Time shortEnd;
        net->When(longer, net->Push(longer, 1000), MakeBoundCallback(&Stamp, &longEnd));
        net->When(shorter, net->Push(shorter, 500), MakeBoundCallback(&Stamp, &shortEnd));
        Simulator::Stop(MicroSeconds(1100));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(net->GetLinkBytes(link), 1050, "500 B, and 550 B at 0.5 MB/s");
        NS_TEST_EXPECT_MSG_EQ_TOL(net->GetRate(longer), 0.5e6, 1, "not yet the whole link");
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(shortEnd, MilliSeconds(1), "500 B at 0.5 MB/s");
        NS_TEST_EXPECT_MSG_EQ(longEnd, MicroSeconds(1600), "600 B by 1.2 ms, then 400 B at 1 MB/s");
        NS_TEST_EXPECT_MSG_EQ(net->GetLinkBytes(link), 1500, "the link carried both");
        Simulator::Destroy();
    }
};

/**
 * A message of three full packets between the two endpoints of an InfiniBand-like star, at
 * the flow level: the packets' wire bytes at line rate, two cables' delay, the switch's
 * latency and the header's serialisation at the cut-through switch, as a packet pipeline
 * takes them.
 */
class FlowTransportOnIbStarTestCase : public TestCase
{
  public:
    FlowTransportOnIbStarTestCase()
        : TestCase("a message at the flow level over an IB star takes the cut-through time")
    {
    }

  private:
    static void Received(Time* at, uint32_t, uint64_t, uint64_t)
    {
        *at = Simulator::Now();
    }

    void DoRun() override
    {
        IbFabricHelper fabric;
        fabric.SetDeviceAttribute("DataRate", DataRateValue(DataRate("200Gbps")));
        fabric.SetDeviceAttribute("Mtu", UintegerValue(4096));
        fabric.SetChannelAttribute("Delay", TimeValue(NanoSeconds(500)));
        fabric.SetSwitchAttribute("ForwardingLatency", TimeValue(NanoSeconds(100)));
        fabric.Star(2);
        fabric.Install();
        FlowNetworkHelper flow;
        std::vector<Ptr<MessageTransport>> transports = flow.Install(fabric.GetTransports());
        Time arrived;
        Time sent;
        transports[1]->Listen(1, MakeBoundCallback(&Received, &arrived));
        transports[0]->Send(1, 1, 0, 3 * 4096, MakeBoundCallback(&Stamp, &sent));
        Simulator::Run();
        const double header = 26;
        const double expected = 3 * (4096 + header) * 8 / 200e9 * 1e9 + 2 * 500 + 100 +
                                header * 8 / 200e9 * 1e9;
        NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(arrived.GetNanoSeconds()),
                                  expected,
                                  2,
                                  "three packets, two cables, one cut-through switch");
        // The acknowledgement (headers and its 4-byte AETH) comes back the same way.
        const double ack = 2 * 500 + 100 + 2 * (header + 4) * 8 / 200e9 * 1e9;
        NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(sent.GetNanoSeconds()),
                                  expected + ack,
                                  2,
                                  "a send completes when acknowledged");
        NS_TEST_EXPECT_MSG_EQ(flow.GetNetwork()->GetLinkBytes(0),
                              3 * (4096 + 26),
                              "the first cable carried the packets' wire bytes");
        Simulator::Destroy();
    }
};

class FlowNetworkTestSuite : public TestSuite
{
  public:
    FlowNetworkTestSuite()
        : TestSuite("uniference-flow-network", UNIT)
    {
        AddTestCase(new FlowNetworkMaxMinTestCase, TestCase::QUICK);
        AddTestCase(new FlowNetworkMaxMinPropertyTestCase, TestCase::QUICK);
        AddTestCase(new FlowFifoTestCase, TestCase::QUICK);
        AddTestCase(new FlowNetworkCompletionTestCase, TestCase::QUICK);
        AddTestCase(new FlowNetworkResolutionTestCase, TestCase::QUICK);
        AddTestCase(new FlowTransportOnIbStarTestCase, TestCase::QUICK);
    }
};

FlowNetworkTestSuite g_flowNetworkTestSuite;

} // namespace
