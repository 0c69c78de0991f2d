/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// CollectiveHelper: the algorithms registered by name, unknown names, attributes reaching the
// collectives; and the attribute checks that let user input be validated before it reaches
// ns-3, which aborts on bad names and values.

#include "collective-test-util.h"

#include "ns3/attribute-check.h"
#include "ns3/barrier.h"
#include "ns3/chain-collectives.h"
#include "ns3/collective-helper.h"
#include "ns3/config.h"
#include "ns3/direct-collectives.h"
#include "ns3/halving-doubling-all-reduce.h"
#include "ns3/hierarchical-collectives.h"
#include "ns3/ring-collectives.h"
#include "ns3/simulator.h"
#include "ns3/star-network-helper.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/tree-collectives.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/wait.h>
#include <unistd.h>
#define UNIFERENCE_TEST_CAN_FORK
#endif

using namespace ns3;
using namespace ns3::tests;

namespace
{

/**
 * Run something that should end the program with a fatal error, in a child process.
 * \param action what to run
 * \return what the child wrote to stderr if it aborted, "" if it did not; nothing where
 *         processes cannot be forked
 */
std::optional<std::string>
FatalErrorOf(const std::function<void()>& action)
{
#ifndef UNIFERENCE_TEST_CAN_FORK
    return std::nullopt;
#else
    int pipeEnds[2];
    if (pipe(pipeEnds) != 0)
    {
        return "pipe() failed";
    }
    std::fflush(nullptr);
    pid_t child = fork();
    if (child == 0)
    {
        dup2(pipeEnds[1], STDERR_FILENO);
        close(pipeEnds[0]);
        action();
        _exit(0); // no fatal error: the parent sees a clean exit
    }
    close(pipeEnds[1]);
    std::string text;
    char buffer[512];
    ssize_t got;
    while ((got = read(pipeEnds[0], buffer, sizeof(buffer))) > 0)
    {
        text.append(buffer, got);
    }
    close(pipeEnds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT ? text : "";
#endif
}

/**
 * \param text a text
 * \param part what it should contain
 * \return whether it does
 */
bool
Contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

/**
 * \ingroup uniference-tests
 *
 * The module's algorithms are registered under their operations and names; unknown ones are
 * not, and asking for them is a fatal error that lists the known ones.
 */
class CollectiveRegistryTestCase : public TestCase
{
  public:
    CollectiveRegistryTestCase()
        : TestCase("the module's algorithms are registered by operation and name")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> operations = CollectiveHelper::GetOperations();
        NS_TEST_EXPECT_MSG_EQ(operations.size(), 10, "ten operations");
        NS_TEST_EXPECT_MSG_EQ(std::is_sorted(operations.begin(), operations.end()), true, "order");

        const struct
        {
            const char* operation;
            const char* algorithm;
            TypeId tid;
        } expected[] = {
            {"all_reduce", "ring", RingAllReduce::GetTypeId()},
            {"all_gather", "ring", RingAllGather::GetTypeId()},
            {"broadcast", "ring", RingBroadcast::GetTypeId()},
            {"barrier", "dissemination", Barrier::GetTypeId()},
            {"all_reduce", "tree", TreeAllReduce::GetTypeId()},
            {"all_reduce", "halving_doubling", HalvingDoublingAllReduce::GetTypeId()},
            {"all_reduce", "direct", DirectAllReduce::GetTypeId()},
            {"all_reduce", "hierarchical", HierarchicalAllReduce::GetTypeId()},
            {"reduce_scatter", "ring", RingReduceScatter::GetTypeId()},
            {"all_to_all", "hierarchical", HierarchicalAllToAll::GetTypeId()},
            {"all_to_all", "pairwise", PairwiseAllToAll::GetTypeId()},
            {"reduce", "ring", RingReduce::GetTypeId()},
            {"gather", "direct", DirectGather::GetTypeId()},
            {"gather_v", "direct", DirectGatherV::GetTypeId()},
            {"scatter", "direct", DirectScatter::GetTypeId()},
        };

        for (const auto& entry : expected)
        {
            const std::string name = std::string(entry.operation) + "/" + entry.algorithm;
            NS_TEST_EXPECT_MSG_EQ(std::count(operations.begin(), operations.end(), entry.operation),
                                  1,
                                  "operation " << entry.operation);
            NS_TEST_EXPECT_MSG_EQ(CollectiveHelper::IsRegistered(entry.operation, entry.algorithm),
                                  true,
                                  name);
            NS_TEST_EXPECT_MSG_EQ(CollectiveHelper::GetTypeId(entry.operation, entry.algorithm),
                                  entry.tid,
                                  name);
            std::vector<std::string> algorithms = CollectiveHelper::GetAlgorithms(entry.operation);
            NS_TEST_EXPECT_MSG_EQ(std::count(algorithms.begin(), algorithms.end(), entry.algorithm),
                                  1,
                                  name << " listed");
            Ptr<Collective> collective =
                CollectiveHelper(entry.operation, entry.algorithm).Create();
            NS_TEST_EXPECT_MSG_EQ(collective->GetInstanceTypeId(), entry.tid, name << " created");
        }

        NS_TEST_EXPECT_MSG_EQ(CollectiveHelper::IsRegistered("all_reduce", "star"), false, "");
        NS_TEST_EXPECT_MSG_EQ(CollectiveHelper::IsRegistered("reduce", "hierarchical"), false, "");
        NS_TEST_EXPECT_MSG_EQ(CollectiveHelper::GetAlgorithms("all_to_all_pairs").empty(), true, "");

        // Where processes cannot be forked, the fatal errors go unchecked.
        if (auto error = FatalErrorOf([]() { CollectiveHelper("reduction", "ring"); }))
        {
            NS_TEST_EXPECT_MSG_EQ(Contains(*error,
                                           "unknown collective operation \"reduction\"; known: "
                                           "all_gather, all_reduce, all_to_all, barrier, "
                                           "broadcast, gather, gather_v, reduce, reduce_scatter, scatter"),
                                  true,
                                  "fatal error for an unknown operation: " << *error);
        }
        if (auto error = FatalErrorOf([]() { CollectiveHelper::GetTypeId("barrier", "ring"); }))
        {
            NS_TEST_EXPECT_MSG_EQ(
                Contains(*error, "unknown barrier algorithm \"ring\"; known: dissemination"),
                true,
                "fatal error for an unknown algorithm: " << *error);
        }
    }
};

/**
 * \ingroup uniference-tests
 *
 * Attributes set on the helper reach every collective it creates, as values or strings; an
 * attribute the algorithm does not have is a fatal error that lists those it has.
 */
class CollectiveHelperAttributeTestCase : public TestCase
{
  public:
    CollectiveHelperAttributeTestCase()
        : TestCase("CollectiveHelper::SetAttribute reaches the collectives it creates")
    {
    }

  private:
    void DoRun() override
    {
        CollectiveHelper broadcast("broadcast", "ring");
        broadcast.SetAttribute("Root", UintegerValue(2));
        broadcast.SetAttribute("ChunkBytes", StringValue("4096"));
        for (int k = 0; k < 2; ++k)
        {
            Ptr<Collective> created = broadcast.Create();
            UintegerValue value;
            created->GetAttribute("Root", value);
            NS_TEST_EXPECT_MSG_EQ(value.Get(), 2, "Root");
            created->GetAttribute("ChunkBytes", value);
            NS_TEST_EXPECT_MSG_EQ(value.Get(), 4096, "ChunkBytes from a string");
        }

        CollectiveHelper allReduce("all_reduce", "ring");
        UintegerValue chunkBytes;
        allReduce.Create()->GetAttribute("ChunkBytes", chunkBytes);
        NS_TEST_EXPECT_MSG_EQ(chunkBytes.Get(), 0, "one message per step by default");
        allReduce.SetAttribute("ChunkBytes", UintegerValue(1 << 20));
        allReduce.Create()->GetAttribute("ChunkBytes", chunkBytes);
        NS_TEST_EXPECT_MSG_EQ(chunkBytes.Get(), 1 << 20, "ChunkBytes, inherited from the ring");

        if (auto error = FatalErrorOf([]() {
                CollectiveHelper("all_reduce", "ring").SetAttribute("Window", UintegerValue(1));
            }))
        {
            NS_TEST_EXPECT_MSG_EQ(Contains(*error,
                                           "CollectiveHelper (all_reduce/ring): ns3::RingAllReduce "
                                           "has no attribute \"Window\"; it has: ") &&
                                      Contains(*error, "ChunkBytes"),
                                  true,
                                  "fatal error for an unknown attribute: " << *error);
        }
        if (auto error = FatalErrorOf([]() {
                CollectiveHelper("broadcast", "ring")
                    .SetAttribute("ChunkBytes", StringValue("1MB"));
            }))
        {
            NS_TEST_EXPECT_MSG_EQ(
                Contains(*error, "\"1MB\" is not a valid value for ns3::RingBroadcast::ChunkBytes"),
                true,
                "fatal error for a bad value: " << *error);
        }
    }
};

/**
 * \ingroup uniference-tests
 *
 * CheckAttributeValue accepts good names and values and explains bad ones, without aborting,
 * including the values that ns-3's own parsers abort on.
 */
class CheckAttributeValueTestCase : public TestCase
{
  public:
    CheckAttributeValueTestCase()
        : TestCase("CheckAttributeValue accepts valid attributes and explains invalid ones")
    {
    }

  private:
    /**
     * \param type a TypeId name
     * \param name an attribute
     * \param value a value
     * \return CheckAttributeValue's answer
     */
    static std::string Check(const std::string& type,
                             const std::string& name,
                             const std::string& value)
    {
        return CheckAttributeValue(TypeId::LookupByName(type), name, value);
    }

    void DoRun() override
    {
        const TypeId ring = RingAllReduce::GetTypeId();
        NS_TEST_EXPECT_MSG_EQ(CheckAttributeValue(ring, "ChunkBytes", "1048576"), "", "");
        NS_TEST_EXPECT_MSG_EQ(CheckAttributeValue(ring, "ChunkBytes", UintegerValue(1)), "", "");
        NS_TEST_EXPECT_MSG_EQ(CheckAttributeValue(ring, "Foo", "1"),
                              "ns3::RingAllReduce has no attribute \"Foo\"; it has: ChunkBytes, Channels, Root, "
                              "ElementBytes, MessageOverhead, DataWireFactor, ReadyBytes",
                              "");
        NS_TEST_EXPECT_MSG_EQ(
            CheckAttributeValue(ring, "ChunkBytes", "abc"),
            "\"abc\" is not a valid value for ns3::RingAllReduce::ChunkBytes (uint64_t "
            "0:18446744073709551615)",
            "");
        NS_TEST_EXPECT_MSG_NE(CheckAttributeValue(ring, "ChunkBytes", StringValue("-1")), "", "");
        NS_TEST_EXPECT_MSG_NE(CheckAttributeValue(ring, "ChunkBytes", TimeValue(Seconds(1))),
                              "",
                              "a value of another type");

        const struct
        {
            const char* type;
            const char* name;
            const char* value;
            bool valid;
        } cases[] = {
            // Declared by a parent: TcpSocket declares InitialCwnd.
            {"ns3::TcpSocketBase", "InitialCwnd", "10", true},
            {"ns3::TcpSocket", "InitialCwnd", "abc", false},
            {"ns3::TcpSocket", "InitialCwnd", "10abc", false},
            {"ns3::TcpSocket", "InitialCwnd", "10 ", false},
            {"ns3::TcpSocket", "InitialCwnd", "0x10", false},
            {"ns3::TcpSocket", "InitialCwnd", "99999999999", false},
            {"ns3::TcpSocket", "InitialCwnd", "", false},
            {"ns3::TcpSocket", "ConnTimeout", "3ms", true},
            {"ns3::TcpSocket", "ConnTimeout", "1.5", true},
            {"ns3::TcpSocket", "ConnTimeout", "3xs", false},
            {"ns3::TcpSocket", "ConnTimeout", "abc", false},
            {"ns3::TcpSocket", "ConnTimeout", "1e30s", false},
            {"ns3::TcpSocketBase", "Sack", "false", true},
            {"ns3::TcpSocketBase", "Sack", "maybe", false},
            {"ns3::TcpSocketBase", "UseEcn", "On", true},
            {"ns3::TcpSocketBase", "UseEcn", "Sometimes", false},
            {"ns3::TcpCubic", "Beta", "0.7", true},
            {"ns3::TcpCubic", "Beta", "nan", false},
            {"ns3::TcpCubic", "Beta", "0.7x", false},
            {"ns3::TcpL4Protocol", "SocketType", "ns3::TcpCubic", true},
            {"ns3::TcpL4Protocol", "SocketType", "ns3::TcpNope", false},
            {"ns3::TcpL4Protocol", "SocketType", "ns3::TcpCubic x", false},
            {"ns3::PointToPointNetDevice", "DataRate", "10Gbps", true},
            {"ns3::PointToPointNetDevice", "DataRate", "10 Gbps", false},
            {"ns3::PointToPointNetDevice", "DataRate", "fast", false},
            {"ns3::PointToPointNetDevice", "Mtu", "9000", true},
            {"ns3::PointToPointNetDevice", "Mtu", "70000", false},
            {"ns3::PointToPointChannel", "Delay", "10us", true},
            {"ns3::DropTailQueue<Packet>", "MaxSize", "100p", true},
            {"ns3::DropTailQueue<Packet>", "MaxSize", "100", false},
            // Values that name objects cannot be checked from a string.
            {"ns3::PointToPointNetDevice", "TxQueue", "x", false},
        };

        for (const auto& c : cases)
        {
            const std::string reason = Check(c.type, c.name, c.value);
            NS_TEST_EXPECT_MSG_EQ(reason.empty(),
                                  c.valid,
                                  c.type << "::" << c.name << " = \"" << c.value << "\": \""
                                         << reason << "\"");
        }
        NS_TEST_EXPECT_MSG_EQ(Check("ns3::TcpSocket", "InitialCwnd", "abc"),
                              "\"abc\" is not a valid value for ns3::TcpSocket::InitialCwnd "
                              "(uint32_t 0:4294967295)",
                              "");
        NS_TEST_EXPECT_MSG_EQ(Contains(Check("ns3::TcpSocket", "ConnTimeout", "3xs"), "a time"),
                              true,
                              "");
        NS_TEST_EXPECT_MSG_EQ(
            Contains(Check("ns3::PointToPointNetDevice", "TxQueue", "x"), "cannot be checked"),
            true,
            "");
    }
};

/**
 * \ingroup uniference-tests
 *
 * CheckAttributeDefault accepts exactly the defaults Config::SetDefault can set, and explains
 * the others without aborting.
 */
class CheckAttributeDefaultTestCase : public TestCase
{
  public:
    CheckAttributeDefaultTestCase()
        : TestCase("CheckAttributeDefault agrees with Config::SetDefault and explains refusals")
    {
    }

  private:
    void DoRun() override
    {
        const std::pair<const char*, const char*> good[] = {
            {"ns3::TcpSocket::InitialCwnd", "10"},
            {"ns3::TcpSocket::DelAckTimeout", "1ms"},
            {"ns3::TcpL4Protocol::SocketType", "ns3::TcpCubic"},
            {"ns3::TcpSocketBase::Timestamp", "false"},
            {"ns3::TcpMessageTransport::SegmentSize", "8948"},
            {"ns3::RingBroadcast::ChunkBytes", "65536"},
        };
        for (const auto& [name, value] : good)
        {
            NS_TEST_EXPECT_MSG_EQ(CheckAttributeDefault(name, value), "", name);
            NS_TEST_EXPECT_MSG_EQ(Config::SetDefaultFailSafe(name, StringValue(value)),
                                  true,
                                  name << " accepted by Config::SetDefault");
        }
        // Refused by both (these would not abort Config::SetDefaultFailSafe).
        const std::pair<const char*, const char*> bad[] = {
            {"ns3::TcpSocketBase::InitialCwnd", "10"},
            {"ns3::TcpSocket::NoSuchAttribute", "1"},
            {"ns3::NoSuchType::InitialCwnd", "10"},
            {"ns3::TcpSocket::InitialCwnd", "-5"},
            {"ns3::TcpL4Protocol::SocketType", "ns3::NoSuchTcp"},
        };
        for (const auto& [name, value] : bad)
        {
            NS_TEST_EXPECT_MSG_NE(CheckAttributeDefault(name, value), "", name);
            NS_TEST_EXPECT_MSG_EQ(Config::SetDefaultFailSafe(name, StringValue(value)),
                                  false,
                                  name << " refused by Config::SetDefault");
        }
        Config::Reset();

        NS_TEST_EXPECT_MSG_EQ(CheckAttributeDefault("ns3::TcpSocketBase::InitialCwnd", "10"),
                              "ns3::TcpSocketBase inherits \"InitialCwnd\" from ns3::TcpSocket; a "
                              "default must name the type that declares it: "
                              "ns3::TcpSocket::InitialCwnd",
                              "");
        NS_TEST_EXPECT_MSG_EQ(CheckAttributeDefault("ns3::TcpSocket::InitialCwnd", "abc"),
                              "\"abc\" is not a valid value for ns3::TcpSocket::InitialCwnd "
                              "(uint32_t 0:4294967295)",
                              "");
        NS_TEST_EXPECT_MSG_EQ(CheckAttributeDefault("ns3::RingCollective::Foo", "1"),
                              "ns3::RingCollective has no attribute \"Foo\"; it has: ChunkBytes, Channels",
                              "");
        NS_TEST_EXPECT_MSG_EQ(CheckAttributeDefault("ns3::NoSuchType::Foo", "1"),
                              "\"ns3::NoSuchType::Foo\": no type named ns3::NoSuchType",
                              "");
        for (const char* malformed : {"InitialCwnd", "::InitialCwnd", "ns3::TcpSocket::"})
        {
            NS_TEST_EXPECT_MSG_EQ(
                Contains(CheckAttributeDefault(malformed, "1"), "is not of the form"),
                true,
                malformed);
        }
        // Values ns-3's parsers abort on are refused here, not passed on.
        NS_TEST_EXPECT_MSG_NE(CheckAttributeDefault("ns3::TcpSocket::InitialCwnd", "10abc"),
                              "",
                              "");
        NS_TEST_EXPECT_MSG_NE(CheckAttributeDefault("ns3::TcpSocket::ConnTimeout", "3 ms"), "", "");
    }
};

/**
 * \ingroup uniference-tests
 *
 * CollectiveHelper::Install puts one application per participant on its node; each enters when
 * it starts and reports its own completion, once, after its start.
 */
class CollectiveApplicationTestCase : public TestCase
{
  public:
    CollectiveApplicationTestCase()
        : TestCase("Install runs a collective as one application per participant")
    {
    }

  private:
    /// Records a completion.
    static void Record(std::vector<std::pair<Time, Time>>* seen, Time entered, Time completed)
    {
        seen->emplace_back(entered, completed);
    }

    void DoRun() override
    {
        StarNetworkHelper star;
        InstallStar(star, 3);
        ApplicationContainer apps =
            CollectiveHelper("all_reduce", "ring").Install(star.GetTransports(), 30000);
        NS_TEST_ASSERT_MSG_EQ(apps.GetN(), 3, "one application per participant");
        std::vector<std::vector<std::pair<Time, Time>>> seen(3);
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(apps.Get(i)->GetNode(),
                                  star.GetTransports()[i]->GetNode(),
                                  "on the participant's node");
            apps.Get(i)->SetStartTime(MilliSeconds(1 + 2 * i));
            apps.Get(i)->TraceConnectWithoutContext("Completed", MakeBoundCallback(&Record, &seen[i]));
        }
        Simulator::Run();
        Simulator::Destroy();
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(seen[i].size(), 1, "participant " << i << " completes once");
            NS_TEST_EXPECT_MSG_EQ(seen[i][0].first, MilliSeconds(1 + 2 * i), "entered at its start");
            // Nobody completes a ring all-reduce before the last participant entered.
            NS_TEST_EXPECT_MSG_GT(seen[i][0].second, MilliSeconds(5), "participant " << i);
        }
    }
};

/**
 * \ingroup uniference-tests
 *
 * CollectiveHelper and attribute checks suite.
 */
class CollectiveHelperTestSuite : public TestSuite
{
  public:
    CollectiveHelperTestSuite()
        : TestSuite("uniference-collective-helper")
    {
        AddTestCase(new CollectiveRegistryTestCase);
        AddTestCase(new CollectiveHelperAttributeTestCase);
        AddTestCase(new CheckAttributeValueTestCase);
        AddTestCase(new CheckAttributeDefaultTestCase);
        AddTestCase(new CollectiveApplicationTestCase);
    }
};

/// Registers the suite.
static CollectiveHelperTestSuite g_collectiveHelperTestSuite;
