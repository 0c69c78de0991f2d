/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A new collective algorithm is one file and one registration line: this file defines a toy
// all-reduce through a central participant, registers it as all_reduce/star-toy, creates it
// by name through CollectiveHelper and times it on a star against what the links allow.

#include "collective-test-util.h"

#include "ns3/abort.h"
#include "ns3/collective-helper.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StarToyAllReduce");

/**
 * \ingroup uniference-tests
 *
 * All-reduce through participant 0: every other participant sends it the whole buffer; once
 * it has entered and holds everybody's buffer it is complete (it can reduce) and sends the
 * buffer back to everybody, who is complete on receiving it.
 */
class StarToyAllReduce : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        // Not in the module's group: the module's documentation need not list it
        // (uniference-doc-coverage).
        static TypeId tid = TypeId("ns3::StarToyAllReduce")
                                .SetParent<Collective>()
                                .SetGroupName("UniferenceTests")
                                .AddConstructor<StarToyAllReduce>();
        return tid;
    }

    double GetBusBandwidthFactor() const override
    {
        return 2.0 * (GetN() - 1) / GetN();
    }

  private:
    /// Cookie of a buffer on its way to participant 0.
    static constexpr uint64_t GATHER = 0;
    /// Cookie of the result on its way back.
    static constexpr uint64_t SCATTER = 1;

    void DoSetup() override
    {
        m_gathered = 0;
    }

    void DoEnter(uint32_t index) override
    {
        if (index == 0)
        {
            ReduceIfReady();
        }
        else
        {
            SendTo(index, 0, GATHER, GetBytes());
        }
    }

    void DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes) override
    {
        NS_ABORT_MSG_UNLESS(
            bytes == GetBytes() && (index == 0) == (cookie == GATHER) && (index == 0 || from == 0),
            "star toy: unexpected message " << cookie << " from " << from << " at " << index);
        if (index == 0)
        {
            ++m_gathered;
            ReduceIfReady();
        }
        else
        {
            Complete(index);
        }
    }

    /// Participant 0 completes and answers once it has entered and holds every buffer.
    void ReduceIfReady()
    {
        if (!HasEntered(0) || m_gathered + 1 < GetN())
        {
            return;
        }
        for (uint32_t i = 1; i < GetN(); ++i)
        {
            SendTo(0, i, SCATTER, GetBytes());
        }
        Complete(0);
    }

    uint32_t m_gathered{0}; //!< Buffers participant 0 has received
};

NS_OBJECT_ENSURE_REGISTERED(StarToyAllReduce);
NS_COLLECTIVE_ALGORITHM_REGISTER(StarToyAllReduce, "all_reduce", "star-toy");

} // namespace ns3

using namespace ns3;
using namespace ns3::tests;

/**
 * \ingroup uniference-tests
 *
 * The toy all-reduce, created by name, completes when the links say: the n - 1 buffers queue
 * up on the hub's link to participant 0, then the n - 1 answers on participant 0's link to the
 * hub, each phase behind a connection handshake.
 */
class StarToyTimingTestCase : public TestCase
{
  public:
    /**
     * \param n number of endpoints
     * \param bytes the buffer size
     */
    StarToyTimingTestCase(uint32_t n, uint64_t bytes)
        : TestCase("all_reduce star-toy of " + std::to_string(bytes) + " bytes on " +
                   std::to_string(n) + " endpoints, created by name, takes the links' time"),
          m_n(n),
          m_bytes(bytes)
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(CollectiveHelper::IsRegistered("all_reduce", "star-toy"),
                              true,
                              "registered by its one line");
        StarNetworkHelper star;
        InstallStar(star, m_n);
        Ptr<Collective> toy = CollectiveHelper("all_reduce", "star-toy").Create();
        NS_TEST_ASSERT_MSG_EQ(toy->GetInstanceTypeId(), StarToyAllReduce::GetTypeId(), "type");
        toy->Setup(star.GetTransports(), m_bytes);
        const Time start = MilliSeconds(1);
        std::vector<Time> completions = RunCollective(toy, std::vector<Time>(m_n, start));
        NS_TEST_EXPECT_MSG_EQ(toy->IsFinished(), true, "finished");
        Simulator::Destroy();
        Time last;
        for (uint32_t i = 0; i < m_n; ++i)
        {
            NS_TEST_ASSERT_MSG_GT(completions[i], start, "participant " << i);
            last = std::max(last, completions[i]);
        }

        const double d = LINK_DELAY.GetSeconds();
        const double handshake = Handshake(LINK_RATE, LINK_DELAY, 2);
        const double fullFrame = Wire(LINK_RATE, DATA_FRAME);
        // Each buffer opens its connection, so the hello frame goes ahead of it; the stream
        // fills whole segments (see the suite).
        const uint64_t segments = (MESSAGE_HEADER + MESSAGE_HEADER + m_bytes) / MSS;
        const double frames = segments * fullFrame;
        const double senders = m_n - 1;
        // Gather: the first data frame crosses a sender's link; from then on the hub's link to
        // participant 0 carries every sender's frames back to back (their links feed it n - 1
        // times faster than it drains).
        const double gathered = handshake + fullFrame + d + senders * frames + d;
        // Answer: participant 0's link carries every answer, and the last ACKs of the other
        // connections' handshakes, back to back; the last frame then crosses the hub.
        const double answered = gathered + handshake + (senders - 1) * Wire(LINK_RATE, ACK_FRAME) +
                                senders * frames + d + fullFrame + d;
        const double measuredGather = (completions[0] - start).GetSeconds();
        const double measured = (last - start).GetSeconds();
        std::ostringstream note;
        note << "star toy n=" << m_n << " S=" << m_bytes << ": participant 0 at "
             << measuredGather * 1e3 << " ms (computed " << gathered * 1e3 << "), last at "
             << measured * 1e3 << " ms (computed " << answered * 1e3 << ")";
        // Half a propagation delay (0.06% to 0.3% of the total) tells a hop, a handshake or a
        // store-and-forward missing from either side apart.
        const double tolerance = d / 2;
        NS_TEST_EXPECT_MSG_EQ_TOL(measuredGather, gathered, tolerance, note.str());
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, answered, tolerance, note.str());
        std::clog << "  " << note.str() << " (errors "
                  << 100 * (measuredGather - gathered) / gathered << "%, "
                  << 100 * (measured - answered) / answered << "%)" << std::endl;
    }

    uint32_t m_n;     //!< Endpoints
    uint64_t m_bytes; //!< Buffer size
};

/**
 * \ingroup uniference-tests
 *
 * Suite of the toy collective that an extra file registers.
 */
class ToyCollectiveTestSuite : public TestSuite
{
  public:
    ToyCollectiveTestSuite()
        : TestSuite("uniference-toy-collective")
    {
        // About 64 KiB, so that handshakes and propagation are a large share of the time, and
        // just enough to fill 45 segments with the hello frame and the message header: every
        // frame is full, so when the last one of the answers leaves participant 0 does not
        // depend on how the flows' last frames interleave in its queue.
        const uint64_t bytes = 45 * MSS - 2 * MESSAGE_HEADER;
        AddTestCase(new StarToyTimingTestCase(4, bytes));
        AddTestCase(new StarToyTimingTestCase(3, bytes));
        AddTestCase(new StarToyTimingTestCase(8, bytes));
    }
};

/// Registers the suite.
static ToyCollectiveTestSuite g_toyCollectiveTestSuite;
