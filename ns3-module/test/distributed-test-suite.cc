/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The parts of a simulation cut across processes that one process can check: where
// IbFabricHelper cuts a fabric (the processes and the cut cables counted here from the
// topology's shape), FabricFirstScheduler's order of one nanosecond's events (Ethernet frames'
// arrivals among them, by receiving port), and a transport
// that keeps a message for a channel nobody listens on yet. The runs across processes
// themselves are the distributed-fat-tree example's test and tests/distributed_cli_test.cpp.

#include "ns3/data-rate.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/ethernet-channel.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/fabric-first-scheduler.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-message-transport.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Notes the order events ran in.
void
Note(std::string* order, char name)
{
    *order += name;
}

} // namespace

/**
 * \ingroup uniference-tests
 * Among events of one time, ns-3 keeps the order of scheduling; promoted events go first, by
 * rank and not by when they were scheduled, and later times still come later.
 */
class FabricFirstOrderTestCase : public TestCase
{
  public:
    FabricFirstOrderTestCase()
        : TestCase("a promoted event runs first among its time's, and only among them")
    {
    }

  private:
    void DoRun() override
    {
        Simulator::SetScheduler(ObjectFactory("ns3::FabricFirstScheduler"));
        std::string order;
        Simulator::Schedule(NanoSeconds(5), &Note, &order, 'a');
        Simulator::Schedule(NanoSeconds(5), &Note, &order, 'b');
        Simulator::Schedule(NanoSeconds(4), &Note, &order, 'c');
        FabricFirstScheduler::PromoteNext(7);
        Simulator::Schedule(NanoSeconds(5), &Note, &order, 'd');
        FabricFirstScheduler::PromoteNext(0);
        Simulator::Schedule(NanoSeconds(6), &Note, &order, 'e');
        FabricFirstScheduler::PromoteNext(5);
        EventId removed = Simulator::Schedule(NanoSeconds(5), &Note, &order, 'x');
        FabricFirstScheduler::PromoteNext(3);
        Simulator::ScheduleWithContext(1, NanoSeconds(5), &Note, &order, 'f');
        Simulator::Remove(removed);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(order,
                              "cfdabe",
                              "time first, then promoted by rank, then scheduling order");
    }
};

/**
 * \ingroup uniference-tests
 * Two frames that reach one node at the same nanosecond on two cables arrive in the order of
 * the receiving interfaces, whichever was sent first, and before an ordinary event of that
 * nanosecond scheduled before either: the order a process that received one of them from
 * another process (EthernetRemoteChannel) also gives.
 */
class EthernetArrivalOrderTestCase : public TestCase
{
  public:
    EthernetArrivalOrderTestCase()
        : TestCase("frames of one nanosecond arrive by receiving port, first among its events")
    {
    }

  private:
    /// \param order the log \param device the receiving port \param frame the frame
    static void Arrived(std::string* order, Ptr<EthernetNetDevice> device, Ptr<Packet> frame)
    {
        *order += char('0' + device->GetIfIndex());
    }

    void DoRun() override
    {
        Simulator::SetScheduler(ObjectFactory("ns3::FabricFirstScheduler"));
        std::string order;
        Ptr<Node> receiver = CreateObject<Node>();
        std::vector<Ptr<EthernetNetDevice>> senders;
        for (int cable = 0; cable < 2; ++cable)
        {
            Ptr<EthernetChannel> channel = CreateObject<EthernetChannel>();
            channel->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
            for (Ptr<Node> node : {CreateObject<Node>(), receiver})
            {
                Ptr<EthernetNetDevice> device = CreateObject<EthernetNetDevice>();
                device->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
                device->SetAddress(Mac48Address::Allocate());
                device->SetQueue(CreateObject<DropTailQueue<Packet>>());
                node->AddDevice(device);
                device->Attach(channel);
                if (node == receiver)
                {
                    device->SetFrameReceiveCallback(MakeBoundCallback(&Arrived, &order));
                }
                else
                {
                    senders.push_back(device);
                }
            }
        }
        const Time arrival = senders[0]->GetFrameTime(100) + MicroSeconds(1);
        Simulator::Schedule(arrival, &Note, &order, 'x');
        // The second cable's frame leaves first.
        senders[1]->SendFrame(Create<Packet>(100));
        senders[0]->SendFrame(Create<Packet>(100));
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(order, "01x", "arrivals by receiving interface, then the rest");
    }
};

/**
 * \ingroup uniference-tests
 * A message on a channel without a listener waits, when the transport keeps such messages,
 * and reaches the listener once released; MessageDelivered fired when it arrived.
 */
class KeepUnheardTestCase : public TestCase
{
  public:
    KeepUnheardTestCase()
        : TestCase("a message before its listener is kept, then released to it")
    {
    }

  private:
    void DoRun() override
    {
        IbFabricHelper fabric;
        fabric.Star(2);
        fabric.Install();
        Ptr<RdmaMessageTransport> sender = fabric.GetTransport(0);
        Ptr<RdmaMessageTransport> receiver = fabric.GetTransport(1);
        receiver->SetKeepUnheard(true);
        const uint64_t channel = 77;
        Time arrived(-1);
        receiver->TraceConnectWithoutContext(
            "MessageDelivered",
            MakeBoundCallback(
                +[](Time* at, uint32_t, uint64_t, uint64_t, uint64_t) { *at = Simulator::Now(); },
                &arrived));
        std::vector<uint64_t> cookies;
        Simulator::Schedule(NanoSeconds(1), [&]() {
            sender->Send(1, channel, 41, 1000);
            sender->Send(1, channel, 42, 1000);
        });
        const Time listen = MicroSeconds(50);
        Simulator::Schedule(listen, [&]() {
            receiver->Listen(channel,
                             MakeCallback(+[](std::vector<uint64_t>* got, uint32_t, uint64_t cookie,
                                              uint64_t) { got->push_back(cookie); })
                                 .Bind(&cookies));
            NS_TEST_EXPECT_MSG_EQ(cookies.size(), 0u, "nothing before the release");
            receiver->ReleaseKept(channel);
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(cookies.size(), 2u, "both messages reach the listener");
        NS_TEST_EXPECT_MSG_EQ((cookies == std::vector<uint64_t>{41, 42}), true, "in arrival order");
        NS_TEST_EXPECT_MSG_GT(arrived, Time(0), "MessageDelivered fired");
        NS_TEST_EXPECT_MSG_LT(arrived, listen, "when the message arrived, before its listener");
    }
};

#ifdef NS3_MPI
/**
 * \ingroup uniference-tests
 * SetPartitions cuts by the topology's tiers: a fat-tree's pods and cores, a leaf-spine's
 * leaves and spines, endpoints with their first switch. (Install builds the remote cables but
 * does not initialise them: no MPI is needed to count them.)
 */
class PartitionTestCase : public TestCase
{
  public:
    PartitionTestCase()
        : TestCase("a fabric is cut between its tiers, endpoints with their switch")
    {
    }

  private:
    void DoRun() override
    {
        {
            // k = 4 in 2 processes: pods 0-1 and their endpoints 0-7 in process 0, pods 2-3
            // in 1; cores 0-1 in 0, 2-3 in 1. Each core has one cable per pod, so half of
            // its k cables go to the other process: 4 cores x 2 = 8.
            IbFabricHelper fabric;
            fabric.FatTree(4);
            fabric.SetPartitions(2);
            fabric.Install();
            for (uint32_t id = 0; id < 16; ++id)
            {
                NS_TEST_EXPECT_MSG_EQ(fabric.GetEndpointPartition(id), id / 8, "endpoint " << id);
            }
            NS_TEST_EXPECT_MSG_EQ(fabric.GetNCutCables(), 8u, "fat-tree k=4, 2 processes");
            Simulator::Destroy();
        }
        {
            // 4 leaves of 2 endpoints, 2 spines, 3 processes: leaves in processes 0,0,1,2
            // (l * 3 / 4) and spines in 0,1 (s * 3 / 2). Cut: leaf0-spine1, leaf1-spine1,
            // leaf2-spine0, leaf3-spine0, leaf3-spine1 = 5.
            IbFabricHelper fabric;
            fabric.LeafSpine(4, 2, 2);
            fabric.SetPartitions(3);
            fabric.Install();
            const std::vector<uint32_t> want = {0, 0, 0, 0, 1, 1, 2, 2};
            for (uint32_t id = 0; id < 8; ++id)
            {
                NS_TEST_EXPECT_MSG_EQ(fabric.GetEndpointPartition(id), want[id], "endpoint " << id);
            }
            NS_TEST_EXPECT_MSG_EQ(fabric.GetNCutCables(), 5u, "leaf-spine, 3 processes");
            Simulator::Destroy();
        }
    }
};
#endif

/**
 * \ingroup uniference-tests
 * What a cut across processes builds on, checked in one process.
 */
class DistributedTestSuite : public TestSuite
{
  public:
    DistributedTestSuite()
        : TestSuite("uniference-distributed", UNIT)
    {
        AddTestCase(new FabricFirstOrderTestCase());
        AddTestCase(new EthernetArrivalOrderTestCase());
        AddTestCase(new KeepUnheardTestCase());
#ifdef NS3_MPI
        AddTestCase(new PartitionTestCase());
#endif
    }
};

static DistributedTestSuite g_distributedTestSuite;
