/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Ring all-reduce and ring all-gather on a star, against the alpha-beta model: each of the
// steps costs a latency alpha derived from the links, and the bytes cross every endpoint's
// link at the payload rate TCP/IP/PPP framing leaves. Both are computed here, from the link
// parameters and header sizes, never from the code under test.

#include "collective-test-util.h"

#include "ns3/data-rate.h"
#include "ns3/ring-collectives.h"
#include "ns3/simulator.h"
#include "ns3/star-network-helper.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>

using namespace ns3;
using namespace ns3::tests;

namespace
{

/**
 * Payload rate of an endpoint's link in a ring: every data frame carries MSS payload bytes,
 * and the same link also carries the acknowledgements of the flow the endpoint receives.
 * \return bytes per second
 */
double
PayloadRate()
{
    return LINK_RATE.GetBitRate() / 8.0 * MSS /
           (DATA_FRAME + static_cast<double>(ACK_FRAME) / SEGMENTS_PER_ACK);
}

/**
 * Latency of one step between neighbours: both hops' propagation, and the hub storing the
 * last frame before forwarding it.
 * \return seconds
 */
double
Alpha()
{
    return 2 * LINK_DELAY.GetSeconds() + Wire(LINK_RATE, DATA_FRAME);
}

/**
 * Time of a ring collective whose steps each fit in TCP's initial window, one step after the
 * other: the connection handshake, then each step's message (the connection's hello frame
 * ahead of the first) leaving back to back and crossing both links, stored and forwarded by
 * the hub, before the step that forwards it can leave.
 * \param steps the number of steps
 * \param chunk the payload of every step
 * \return seconds
 */
double
StepByStep(uint32_t steps, uint64_t chunk)
{
    double time = Handshake(LINK_RATE, LINK_DELAY, 2);
    for (uint32_t step = 0; step < steps; ++step)
    {
        const uint64_t stream = MESSAGE_HEADER + chunk + (step == 0 ? MESSAGE_HEADER : 0);
        time += StreamArrival(LINK_RATE, LINK_DELAY, stream, MSS, 2);
    }
    return time;
}

/**
 * Build a star of n endpoints, run a collective over it with everyone entering at 1 ms.
 * \param collective the collective, not yet set up
 * \param n number of endpoints
 * \param bytes the operation's size
 * \param enterAt when each participant enters; all at 1 ms when empty
 * \return each participant's completion time, or -1 s if it did not complete
 */
std::vector<Time>
RunOnStar(Ptr<Collective> collective,
          uint32_t n,
          uint64_t bytes,
          std::vector<Time> enterAt = std::vector<Time>())
{
    StarNetworkHelper star;
    InstallStar(star, n);
    collective->Setup(star.GetTransports(), bytes);
    if (enterAt.empty())
    {
        enterAt.assign(n, MilliSeconds(1));
    }
    std::vector<Time> completions = RunCollective(collective, enterAt);
    Simulator::Destroy();
    return completions;
}

} // namespace

/**
 * \ingroup uniference-tests
 *
 * A ring collective on a star of n endpoints takes steps x alpha plus its bytes over the link
 * payload rate, within 10%.
 */
class RingTimingTestCase : public TestCase
{
  public:
    /**
     * \param typeName ns3::RingAllReduce or ns3::RingAllGather
     * \param n number of endpoints
     * \param bytes the operation's size
     */
    RingTimingTestCase(std::string typeName, uint32_t n, uint64_t bytes)
        : TestCase(typeName + " of " + std::to_string(bytes) + " bytes on " + std::to_string(n) +
                   " endpoints is within 10% of the alpha-beta model"),
          m_typeName(typeName),
          m_n(n),
          m_bytes(bytes)
    {
    }

  private:
    void DoRun() override
    {
        ObjectFactory factory(m_typeName);
        Ptr<Collective> collective = factory.Create<Collective>();
        std::vector<Time> completions = RunOnStar(collective, m_n, m_bytes);
        Time last;
        for (uint32_t i = 0; i < m_n; ++i)
        {
            NS_TEST_ASSERT_MSG_GT(completions[i], MilliSeconds(1), "participant " << i);
            last = std::max(last, completions[i]);
        }
        const double n = m_n;
        const bool allReduce = m_typeName == "ns3::RingAllReduce";
        // All-reduce: 2(n-1) steps moving 2(n-1)/n S through each link; all-gather: half.
        const double steps = allReduce ? 2 * (n - 1) : n - 1;
        const double expected = Handshake(LINK_RATE, LINK_DELAY, 2) + steps * Alpha() +
                                steps / n * m_bytes / PayloadRate();
        const double measured = (last - MilliSeconds(1)).GetSeconds();
        std::ostringstream note;
        note << m_typeName << " n=" << m_n << " S=" << m_bytes << ": measured " << measured * 1e3
             << " ms, alpha-beta " << expected * 1e3 << " ms";
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, expected, 0.1 * expected, note.str());
        std::clog << "  " << note.str() << " (error " << 100 * (measured - expected) / expected
                  << "%)" << std::endl;
    }

    std::string m_typeName; //!< Collective under test
    uint32_t m_n;           //!< Endpoints
    uint64_t m_bytes;       //!< Operation size
};

/**
 * \ingroup uniference-tests
 *
 * A small ring collective, where latency is a third of the time, takes its steps one after the
 * other, each as long as its message takes across the hub, to 0.1%. Each step's chunk (S/n)
 * is at most the 10 segments of TCP's initial window, so a step leaves back to back, and all
 * its frames are in the device's queue before the participant acknowledges what it receives,
 * so no ACK comes between them.
 */
class RingStepTimingTestCase : public TestCase
{
  public:
    /**
     * \param typeName ns3::RingAllReduce or ns3::RingAllGather
     * \param n number of endpoints
     * \param bytes the operation's size
     */
    RingStepTimingTestCase(std::string typeName, uint32_t n, uint64_t bytes)
        : TestCase(typeName + " of " + std::to_string(bytes) + " bytes on " + std::to_string(n) +
                   " endpoints takes its steps one after the other, to 0.1%"),
          m_typeName(typeName),
          m_n(n),
          m_bytes(bytes)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t chunk = m_bytes / m_n;
        NS_TEST_ASSERT_MSG_EQ(chunk * m_n, m_bytes, "equal chunks");
        // ns-3's TcpSocket InitialCwnd.
        NS_TEST_ASSERT_MSG_LT_OR_EQ((2 * MESSAGE_HEADER + chunk + MSS - 1) / MSS,
                                    10,
                                    "a step fits in the initial window");
        ObjectFactory factory(m_typeName);
        std::vector<Time> completions = RunOnStar(factory.Create<Collective>(), m_n, m_bytes);
        Time last;
        for (uint32_t i = 0; i < m_n; ++i)
        {
            NS_TEST_ASSERT_MSG_GT(completions[i], MilliSeconds(1), "participant " << i);
            last = std::max(last, completions[i]);
        }
        const uint32_t steps = m_typeName == "ns3::RingAllReduce" ? 2 * (m_n - 1) : m_n - 1;
        const double expected = StepByStep(steps, chunk);
        const double measured = (last - MilliSeconds(1)).GetSeconds();
        std::ostringstream note;
        note << m_typeName << " n=" << m_n << " S=" << m_bytes << ": measured " << measured * 1e3
             << " ms, step by step " << expected * 1e3 << " ms";
        // One link's propagation per step is 10% of the time; 0.1% is a microsecond or two.
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, expected, 0.001 * expected, note.str());
        std::clog << "  " << note.str() << " (error " << 100 * (measured - expected) / expected
                  << "%)" << std::endl;
    }

    std::string m_typeName; //!< Collective under test
    uint32_t m_n;           //!< Endpoints
    uint64_t m_bytes;       //!< Operation size
};

/**
 * \ingroup uniference-tests
 *
 * With ChunkBytes, each step travels as messages of at most that size, each forwarded as soon
 * as it has arrived: the same bytes in more messages, and the steps' latencies overlap, so the
 * operation ends sooner than with one message per step.
 */
class RingPipelineTestCase : public TestCase
{
  public:
    /**
     * \param typeName ns3::RingAllReduce or ns3::RingAllGather
     * \param chunkBytes the largest message
     */
    RingPipelineTestCase(std::string typeName, uint64_t chunkBytes)
        : TestCase(typeName + " with ChunkBytes " + std::to_string(chunkBytes) +
                   " moves the same bytes in pipelined messages, and sooner"),
          m_typeName(typeName),
          m_chunkBytes(chunkBytes)
    {
    }

  private:
    /// What a run shows.
    struct Outcome
    {
        Time last;            //!< The last completion, from the entry
        uint64_t messages{0}; //!< Messages delivered
        uint64_t payload{0};  //!< Their bytes
        uint64_t largest{0};  //!< The largest message
    };

    /**
     * \param chunkBytes the ChunkBytes attribute
     * \return what the run shows
     */
    Outcome Run(uint64_t chunkBytes)
    {
        ObjectFactory factory(m_typeName);
        factory.Set("ChunkBytes", UintegerValue(chunkBytes));
        Ptr<Collective> collective = factory.Create<Collective>();
        StarNetworkHelper star;
        InstallStar(star, N);
        Outcome outcome;
        for (auto& transport : star.GetTransports())
        {
            transport->TraceConnectWithoutContext(
                "MessageDelivered",
                Callback<void, uint32_t, uint64_t, uint64_t, uint64_t>(
                    [&outcome](uint32_t, uint64_t, uint64_t, uint64_t bytes) {
                        ++outcome.messages;
                        outcome.payload += bytes;
                        outcome.largest = std::max(outcome.largest, bytes);
                    }));
        }
        collective->Setup(star.GetTransports(), BYTES);
        std::vector<Time> completions =
            RunCollective(collective, std::vector<Time>(N, MilliSeconds(1)));
        Simulator::Destroy();
        for (Time completion : completions)
        {
            NS_TEST_EXPECT_MSG_GT(completion, MilliSeconds(1), "everybody completes");
            outcome.last = std::max(outcome.last, completion - MilliSeconds(1));
        }
        return outcome;
    }

    void DoRun() override
    {
        Outcome whole = Run(0);
        Outcome pipelined = Run(m_chunkBytes);
        const uint64_t steps = m_typeName == "ns3::RingAllReduce" ? 2 * (N - 1) : N - 1;
        const uint64_t chunk = BYTES / N;
        const uint64_t pieces = (chunk + m_chunkBytes - 1) / m_chunkBytes;
        NS_TEST_EXPECT_MSG_EQ(whole.messages, N * steps, "one message per step");
        NS_TEST_EXPECT_MSG_EQ(pipelined.messages, N * steps * pieces, "pieces per step");
        NS_TEST_EXPECT_MSG_EQ(pipelined.payload, whole.payload, "the same bytes");
        NS_TEST_EXPECT_MSG_EQ(whole.payload, N * steps * chunk, "every step carries a chunk");
        NS_TEST_EXPECT_MSG_EQ(pipelined.largest, m_chunkBytes, "no message above ChunkBytes");
        // A step's latency (two propagations and the hub's store-and-forward of a full frame)
        // is hidden behind the next pieces at all but one step.
        const double alpha = 2 * LINK_DELAY.GetSeconds() + Wire(LINK_RATE, DATA_FRAME);
        NS_TEST_EXPECT_MSG_LT(pipelined.last.GetSeconds(),
                              whole.last.GetSeconds() - (steps - 1) * alpha / 2,
                              "pipelined " << pipelined.last.As(Time::US) << ", whole steps "
                                           << whole.last.As(Time::US));
        std::clog << "  " << m_typeName << " n=" << N << " S=" << BYTES << ": whole steps "
                  << whole.last.As(Time::US) << ", pieces of " << m_chunkBytes << " bytes "
                  << pipelined.last.As(Time::US) << std::endl;
    }

    static constexpr uint32_t N = 4;           //!< Endpoints
    static constexpr uint64_t BYTES = 1 << 20; //!< Operation size
    std::string m_typeName;                    //!< Collective under test
    uint64_t m_chunkBytes;                     //!< Largest message
};

/**
 * \ingroup uniference-tests
 *
 * A participant that enters late: the others' messages wait for it, and nobody can hold the
 * reduced result before the late participant's data has gone round.
 */
class LateEntryTestCase : public TestCase
{
  public:
    LateEntryTestCase()
        : TestCase("ring all-reduce waits for a participant that enters late")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        const Time late = MilliSeconds(20);
        std::vector<Time> enterAt(n, MilliSeconds(1));
        enterAt[3] = late;
        std::vector<Time> completions =
            RunOnStar(CreateObject<RingAllReduce>(), n, 1 << 20, enterAt);
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_EXPECT_MSG_GT(completions[i], late, "participant " << i);
        }
    }
};

/**
 * \ingroup uniference-tests
 *
 * A group of one has nothing to exchange.
 */
class SingleParticipantTestCase : public TestCase
{
  public:
    SingleParticipantTestCase()
        : TestCase("ring collectives of one participant complete when it enters")
    {
    }

  private:
    void DoRun() override
    {
        for (Ptr<Collective> collective : {Ptr<Collective>(CreateObject<RingAllReduce>()),
                                           Ptr<Collective>(CreateObject<RingAllGather>())})
        {
            std::vector<Time> completions = RunOnStar(collective, 1, 1 << 20);
            NS_TEST_EXPECT_MSG_EQ(completions[0], MilliSeconds(1), "completes on Enter");
            NS_TEST_EXPECT_MSG_EQ(collective->IsFinished(), true, "finished");
        }
    }
};

/**
 * \ingroup uniference-tests
 *
 * Ring all-reduce suite.
 */
class RingAllReduceTestSuite : public TestSuite
{
  public:
    RingAllReduceTestSuite()
        : TestSuite("uniference-ring-all-reduce")
    {
        for (uint32_t n : {2, 4, 8})
        {
            AddTestCase(new RingTimingTestCase("ns3::RingAllReduce", n, 8 << 20));
        }
        AddTestCase(new RingTimingTestCase("ns3::RingAllReduce", 4, 64 << 10));
        AddTestCase(new RingStepTimingTestCase("ns3::RingAllReduce", 8, 64 << 10));
        AddTestCase(new RingStepTimingTestCase("ns3::RingAllReduce", 4, 32 << 10));
        AddTestCase(new RingPipelineTestCase("ns3::RingAllReduce", 64 << 10));
        AddTestCase(new LateEntryTestCase);
        AddTestCase(new SingleParticipantTestCase);
    }
};

/// Registers the suite.
static RingAllReduceTestSuite g_ringAllReduceTestSuite;

/**
 * \ingroup uniference-tests
 *
 * Ring all-gather suite.
 */
class RingAllGatherTestSuite : public TestSuite
{
  public:
    RingAllGatherTestSuite()
        : TestSuite("uniference-ring-all-gather")
    {
        for (uint32_t n : {2, 4, 8})
        {
            AddTestCase(new RingTimingTestCase("ns3::RingAllGather", n, 8 << 20));
        }
        AddTestCase(new RingTimingTestCase("ns3::RingAllGather", 8, 64 << 10));
        AddTestCase(new RingStepTimingTestCase("ns3::RingAllGather", 8, 64 << 10));
        AddTestCase(new RingPipelineTestCase("ns3::RingAllGather", 100000));
    }
};

/// Registers the suite.
static RingAllGatherTestSuite g_ringAllGatherTestSuite;
