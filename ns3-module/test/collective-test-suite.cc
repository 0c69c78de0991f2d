/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Broadcast, barrier, collectives at once, and bus bandwidth factors, on a star. Expected times
// come from the link parameters and header sizes, computed here.

#include "collective-test-util.h"

#include "ns3/barrier.h"
#include "ns3/collective-helper.h"
#include "ns3/data-rate.h"
#include "ns3/ring-collectives.h"
#include "ns3/chain-collectives.h"
#include "ns3/simulator.h"
#include "ns3/star-network-helper.h"
#include "ns3/tcp-message-transport.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

using namespace ns3;
using namespace ns3::tests;

/**
 * \ingroup uniference-tests
 *
 * A pipelined broadcast reaches everybody, within 10% of the time the chunks take when each
 * hop forwards a chunk as soon as it has it all and its link is free.
 */
class BroadcastTestCase : public TestCase
{
  public:
    /**
     * \param n number of endpoints
     * \param root the root's index
     * \param bytes the buffer size
     * \param chunkBytes the largest message
     */
    BroadcastTestCase(uint32_t n, uint32_t root, uint64_t bytes, uint64_t chunkBytes)
        : TestCase("ring broadcast of " + std::to_string(bytes) + " bytes in chunks of " +
                   std::to_string(chunkBytes) + " from " + std::to_string(root) + " of " +
                   std::to_string(n) + " reaches everybody in pipelined time"),
          m_n(n),
          m_root(root),
          m_bytes(bytes),
          m_chunkBytes(chunkBytes)
    {
    }

  private:
    void DoRun() override
    {
        StarNetworkHelper star;
        InstallStar(star, m_n);
        CollectiveHelper helper("broadcast", "ring");
        helper.SetAttribute("Root", UintegerValue(m_root));
        helper.SetAttribute("ChunkBytes", UintegerValue(m_chunkBytes));
        Ptr<Collective> broadcast = helper.Create();
        broadcast->Setup(star.GetTransports(), m_bytes);
        uint32_t callbacks = 0;
        broadcast->SetCompletionCallback(
            Callback<void, uint32_t>([&callbacks](uint32_t) { ++callbacks; }));
        const Time start = MilliSeconds(1);
        std::vector<Time> completions = RunCollective(broadcast, std::vector<Time>(m_n, start));
        NS_TEST_EXPECT_MSG_EQ(broadcast->IsFinished(), true, "finished");
        NS_TEST_EXPECT_MSG_EQ(callbacks, m_n, "one completion callback per participant");
        Time last;
        for (uint32_t i = 0; i < m_n; ++i)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(completions[i], start, "participant " << i);
            last = std::max(last, completions[i]);
        }
        Simulator::Destroy();

        // Hop by hop along the ring: a hop opens its connection when its sender forwards the
        // first chunk; it sends chunk k once the chunk has arrived and chunk k - 1 is out; a
        // chunk arrives one stream time, two propagations and the hub's store-and-forward of
        // its last frame after it started.
        const uint64_t chunks = std::max<uint64_t>(1, (m_bytes + m_chunkBytes - 1) / m_chunkBytes);
        std::vector<double> ready(chunks, 0.0);
        for (uint32_t hop = 1; hop < m_n; ++hop)
        {
            double linkFree = ready[0] + Handshake(LINK_RATE, LINK_DELAY, 2);
            for (uint64_t k = 0; k < chunks; ++k)
            {
                const uint64_t payload = std::min(m_chunkBytes, m_bytes - k * m_chunkBytes);
                // The connection's hello frame goes ahead of the first chunk.
                const uint64_t stream = payload + MESSAGE_HEADER + (k == 0 ? MESSAGE_HEADER : 0);
                double lastFrame = 0;
                const double begin = std::max(ready[k], linkFree);
                linkFree = begin + StreamTime(stream, &lastFrame);
                ready[k] = linkFree + 2 * LINK_DELAY.GetSeconds() + lastFrame;
            }
        }
        const double expected = ready[chunks - 1];
        const double measured = (last - start).GetSeconds();
        std::ostringstream note;
        note << "broadcast n=" << m_n << " S=" << m_bytes << " chunk=" << m_chunkBytes
             << ": measured " << measured * 1e3 << " ms, pipeline model " << expected * 1e3
             << " ms";
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, expected, 0.1 * expected, note.str());
        std::clog << "  " << note.str() << " (error " << 100 * (measured - expected) / expected
                  << "%)" << std::endl;
    }

    uint32_t m_n;          //!< Endpoints
    uint32_t m_root;       //!< Root index
    uint64_t m_bytes;      //!< Buffer size
    uint64_t m_chunkBytes; //!< Largest message
};

/**
 * \ingroup uniference-tests
 *
 * Nobody leaves a barrier before the last participant has entered, and everybody leaves soon
 * after: within one connection set-up and one crossing of the hub per round.
 */
class BarrierTestCase : public TestCase
{
  public:
    /**
     * \param n number of endpoints
     * \param late the participant that enters last
     */
    BarrierTestCase(uint32_t n, uint32_t late)
        : TestCase("barrier of " + std::to_string(n) + " holds everybody until participant " +
                   std::to_string(late) + " enters"),
          m_n(n),
          m_late(late)
    {
    }

  private:
    void DoRun() override
    {
        StarNetworkHelper star;
        InstallStar(star, m_n);
        Ptr<Barrier> barrier = CreateObject<Barrier>();
        barrier->Setup(star.GetTransports(), 0);
        std::vector<Time> enterAt;
        for (uint32_t i = 0; i < m_n; ++i)
        {
            enterAt.push_back(MicroSeconds(1000 + 100 * i));
        }
        const Time lastEntry = MilliSeconds(5);
        enterAt[m_late] = lastEntry;
        std::vector<Time> completions = RunCollective(barrier, enterAt);
        const uint32_t rounds = barrier->GetRounds();
        Simulator::Destroy();

        // A round's empty message, with the connection's hello ahead of it when it is the
        // first on its connection.
        const double smallFrame = 2 * MESSAGE_HEADER + ACK_FRAME;
        const double perRound = Handshake(LINK_RATE, LINK_DELAY, 2) + 2 * LINK_DELAY.GetSeconds() +
                                2 * Wire(LINK_RATE, smallFrame);
        // A participant also waits for its socket to take its last round's message, whose
        // connection may still be opening: at most one more handshake.
        const Time bound =
            lastEntry + Seconds(rounds * perRound + Handshake(LINK_RATE, LINK_DELAY, 2));
        for (uint32_t i = 0; i < m_n; ++i)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(completions[i], lastEntry, "participant " << i);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(completions[i], bound, "participant " << i);
        }
    }

    uint32_t m_n;    //!< Endpoints
    uint32_t m_late; //!< The last to enter
};

/**
 * \ingroup uniference-tests
 *
 * Several collectives at once on the same transports keep to their own channels.
 */
class ConcurrentCollectivesTestCase : public TestCase
{
  public:
    ConcurrentCollectivesTestCase()
        : TestCase("collectives running at once over the same transports all complete")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        StarNetworkHelper star;
        InstallStar(star, n);
        std::vector<Ptr<Collective>> collectives;
        for (const std::string& operation : CollectiveHelper::GetOperations())
        {
            for (const std::string& algorithm : CollectiveHelper::GetAlgorithms(operation))
            {
                collectives.push_back(CollectiveHelper(operation, algorithm).Create());
                collectives.back()->Setup(star.GetTransports(), 256 << 10);
            }
        }
        collectives.push_back(CreateObject<RingAllReduce>());
        collectives.back()->Setup(star.GetTransports(), 100 << 10);
        std::set<uint64_t> channels;
        for (auto& collective : collectives)
        {
            channels.insert(collective->GetChannel());
            NS_TEST_EXPECT_MSG_GT_OR_EQ(collective->GetChannel(),
                                        Collective::FIRST_CHANNEL,
                                        "channel in the collectives' range");
            for (uint32_t i = 0; i < n; ++i)
            {
                Simulator::Schedule(MicroSeconds(1000 + 37 * i), &Collective::Enter, collective, i);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(channels.size(), collectives.size(), "one channel each");
        Simulator::Run();
        for (auto& collective : collectives)
        {
            NS_TEST_EXPECT_MSG_EQ(collective->IsFinished(),
                                  true,
                                  collective->GetInstanceTypeId().GetName() << " finished");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup uniference-tests
 *
 * Bus bandwidth factors follow nccl-tests, and buffers split into nearly equal chunks.
 */
class BusBandwidthTestCase : public TestCase
{
  public:
    BusBandwidthTestCase()
        : TestCase("bus bandwidth factors are nccl-tests' and chunks split evenly")
    {
    }

  private:
    void DoRun() override
    {
        // nccl-tests' bus bandwidth factors for 8 ranks.
        std::vector<Ptr<MessageTransport>> transports;
        for (uint32_t i = 0; i < 8; ++i)
        {
            transports.push_back(CreateObject<TcpMessageTransport>());
            transports.back()->SetEndpointId(i);
        }
        Ptr<Collective> allReduce = CollectiveHelper("all_reduce", "ring").Create();
        allReduce->Setup(transports, 1);
        NS_TEST_EXPECT_MSG_EQ_TOL(allReduce->GetBusBandwidthFactor(), 1.75, 1e-12, "all-reduce");
        Ptr<Collective> allGather = CollectiveHelper("all_gather", "ring").Create();
        allGather->Setup(transports, 1);
        NS_TEST_EXPECT_MSG_EQ_TOL(allGather->GetBusBandwidthFactor(), 0.875, 1e-12, "all-gather");
        NS_TEST_EXPECT_MSG_EQ(Collective::GetChunkBytes(10, 4, 0), 3, "first chunks larger");
        NS_TEST_EXPECT_MSG_EQ(Collective::GetChunkBytes(10, 4, 1), 3, "first chunks larger");
        NS_TEST_EXPECT_MSG_EQ(Collective::GetChunkBytes(10, 4, 2), 2, "last chunks smaller");
        allReduce->Dispose();
        allGather->Dispose();
        for (auto& transport : transports)
        {
            transport->Dispose();
        }
    }
};

/**
 * \ingroup uniference-tests
 *
 * Suite of the collectives other than the ring all-reduce and all-gather.
 */
class CollectiveTestSuite : public TestSuite
{
  public:
    CollectiveTestSuite()
        : TestSuite("uniference-collective")
    {
        AddTestCase(new BusBandwidthTestCase);
        AddTestCase(new BroadcastTestCase(4, 0, 8 << 20, 1 << 20));
        AddTestCase(new BroadcastTestCase(5, 3, 5 << 19, 1 << 20));
        AddTestCase(new BroadcastTestCase(3, 1, 0, 1 << 20));
        for (uint32_t late : {0, 2, 4})
        {
            AddTestCase(new BarrierTestCase(5, late));
        }
        AddTestCase(new BarrierTestCase(8, 7));
        AddTestCase(new BarrierTestCase(2, 1));
        AddTestCase(new ConcurrentCollectivesTestCase);
    }
};

/// Registers the suite.
static CollectiveTestSuite g_collectiveTestSuite;
