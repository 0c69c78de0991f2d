/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Ring all-reduce and ring all-gather on a star, against the alpha-beta model: each of the
// steps costs a latency alpha derived from the links, and the bytes cross every endpoint's
// link at the payload rate TCP/IP/PPP framing leaves. Both are computed here, from the link
// parameters and header sizes, never from the code under test.

#include "collective-test-util.h"

#include "ns3/data-rate.h"
#include "ns3/ring-all-gather.h"
#include "ns3/ring-all-reduce.h"
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
    }
};

/// Registers the suite.
static RingAllGatherTestSuite g_ringAllGatherTestSuite;
