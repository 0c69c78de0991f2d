/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Every registered algorithm computes exactly what its operation's definition says, for groups
// of 2, 3, 4, 7, 8 and 16 over a real star of TCP links: the data travel inside the schedule's
// own messages and partial sums, so a wrong schedule gives a wrong result. The expected values
// come from the definitions (sums, concatenations, transposes), computed here in plain loops.

#include "collective-test-util.h"

#include "ns3/collective-data.h"
#include "ns3/collective-helper.h"
#include "ns3/scheduled-collective.h"
#include "ns3/simulator.h"
#include "ns3/star-network-helper.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tests;

namespace
{

/// Element size the tests declare: the buffers hold doubles.
constexpr uint32_t ELEMENT_BYTES = 8;

/**
 * \param participant a participant
 * \param element an element
 * \return a value that tells both apart, exact in a double
 */
double
Value(uint32_t participant, uint64_t element)
{
    return (participant + 1) * 100000.0 + element;
}

/**
 * \ingroup uniference-tests
 * One algorithm of one operation on one group size, with optional Attributes.
 */
class ScheduleExactnessTestCase : public TestCase
{
  public:
    /**
     * \param operation the operation
     * \param algorithm the algorithm
     * \param n the group size
     * \param attributes Attribute names and values to set
     */
    ScheduleExactnessTestCase(std::string operation,
                              std::string algorithm,
                              uint32_t n,
                              std::vector<std::pair<std::string, uint64_t>> attributes)
        : TestCase(operation + " by " + algorithm + " on " + std::to_string(n) + Describe(attributes) +
                   " computes its definition"),
          m_operation(operation),
          m_algorithm(algorithm),
          m_n(n),
          m_attributes(attributes)
    {
    }

  private:
    /**
     * \param attributes Attributes
     * \return them as text
     */
    static std::string Describe(const std::vector<std::pair<std::string, uint64_t>>& attributes)
    {
        std::ostringstream out;
        for (const auto& [name, value] : attributes)
        {
            out << " " << name << "=" << value;
        }
        return out.str();
    }

    void DoRun() override
    {
        const uint32_t n = m_n;
        const uint32_t root = n > 2 ? n - 2 : 0; // not participant 0, where a bug would hide
        const std::string& op = m_operation;
        // Blocks of 5 elements where the operation needs whole blocks; otherwise an uneven size.
        const bool perBlock = op == "all_gather" || op == "reduce_scatter" ||
                              op == "all_to_all" || op == "gather" || op == "gather_v" ||
                              op == "scatter";
        const uint64_t count = op == "barrier" ? 0 : perBlock ? 5 * uint64_t(n) : 5 * uint64_t(n) + 3;
        const uint64_t block = count / n;

        Ptr<VectorCollectiveData> data = Create<VectorCollectiveData>(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            VectorCollectiveData::Buffers& b = data->Get(i);
            uint64_t in = 0;
            uint64_t out = 0;
            if (op == "all_reduce" || op == "broadcast" || op == "reduce")
            {
                out = count;
            }
            else if (op == "all_gather" || op == "gather" || op == "gather_v")
            {
                in = block;
                out = count;
            }
            else if (op == "reduce_scatter" || op == "scatter")
            {
                in = count;
                out = block;
            }
            else if (op == "all_to_all")
            {
                in = count;
                out = count;
            }
            b.input.resize(in);
            b.output.assign(out, -1.0);
            for (uint64_t e = 0; e < in; ++e)
            {
                b.input[e] = Value(i, e);
            }
            if (op == "all_reduce" || op == "broadcast" || op == "reduce")
            {
                for (uint64_t e = 0; e < out; ++e)
                {
                    b.output[e] = Value(i, e);
                }
            }
        }

        StarNetworkHelper star;
        InstallStar(star, n);
        CollectiveHelper helper(m_operation, m_algorithm);
        helper.SetAttribute("ElementBytes", UintegerValue(ELEMENT_BYTES));
        helper.SetAttribute("Root", UintegerValue(root));
        for (const auto& [name, value] : m_attributes)
        {
            // As text, which integer and boolean Attributes both read.
            helper.SetAttribute(name, StringValue(std::to_string(value)));
        }
        Ptr<ScheduledCollective> collective = DynamicCast<ScheduledCollective>(helper.Create());
        NS_TEST_ASSERT_MSG_NE(collective, nullptr, "a scheduled collective");
        collective->SetData(data);
        collective->Setup(star.GetTransports(), count * ELEMENT_BYTES);
        // Staggered entries: messages reach some participants before they enter.
        std::vector<Time> enterAt;
        for (uint32_t i = 0; i < n; ++i)
        {
            enterAt.push_back(MicroSeconds(100 * ((i * 7) % n)));
        }
        RunCollective(collective, enterAt);
        NS_TEST_ASSERT_MSG_EQ(collective->IsFinished(), true, "every participant completes");
        Simulator::Destroy();

        for (uint32_t i = 0; i < n; ++i)
        {
            const std::vector<double>& got = data->Get(i).output;
            // Built from the definition alone, size included: an output the schedule left
            // short, empty or untouched where it should not be fails.
            std::vector<double> want;
            if (op == "all_reduce" || (op == "reduce" && i == root))
            {
                for (uint64_t e = 0; e < count; ++e)
                {
                    double sum = 0;
                    for (uint32_t j = 0; j < n; ++j)
                    {
                        sum += Value(j, e);
                    }
                    want.push_back(sum);
                }
            }
            else if (op == "reduce" || op == "broadcast")
            {
                // A broadcast gives the root's values; a reduce leaves a non-root's as they were.
                for (uint64_t e = 0; e < count; ++e)
                {
                    want.push_back(Value(op == "broadcast" ? root : i, e));
                }
            }
            else if (op == "all_gather" || ((op == "gather" || op == "gather_v") && i == root))
            {
                for (uint64_t e = 0; e < count; ++e)
                {
                    want.push_back(Value(e / block, e % block));
                }
            }
            else if (op == "gather" || op == "gather_v")
            {
                want.assign(count, -1.0); // a non-root's output is not written
            }
            else if (op == "reduce_scatter")
            {
                for (uint64_t e = 0; e < block; ++e)
                {
                    double sum = 0;
                    for (uint32_t j = 0; j < n; ++j)
                    {
                        sum += Value(j, i * block + e);
                    }
                    want.push_back(sum);
                }
            }
            else if (op == "scatter")
            {
                for (uint64_t e = 0; e < block; ++e)
                {
                    want.push_back(Value(root, i * block + e));
                }
            }
            else if (op == "all_to_all")
            {
                for (uint64_t e = 0; e < count; ++e)
                {
                    want.push_back(Value(e / block, i * block + e % block));
                }
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(op, "barrier", "no definition here for " << op);
            }
            NS_TEST_ASSERT_MSG_EQ(got.size(), want.size(), "participant " << i << "'s output size");
            for (uint64_t e = 0; e < want.size(); ++e)
            {
                NS_TEST_ASSERT_MSG_EQ(got[e],
                                      want[e],
                                      "participant " << i << ", output element " << e);
            }
        }
    }

    std::string m_operation; //!< Operation
    std::string m_algorithm; //!< Algorithm
    uint32_t m_n;            //!< Group size
    std::vector<std::pair<std::string, uint64_t>> m_attributes; //!< Attributes to set
};

/**
 * \ingroup uniference-tests
 * Every registered algorithm, on every group size of the list.
 */
class ScheduleExactnessTestSuite : public TestSuite
{
  public:
    ScheduleExactnessTestSuite()
        : TestSuite("uniference-schedule-exactness", UNIT)
    {
        for (const std::string& operation : CollectiveHelper::GetOperations())
        {
            for (const std::string& algorithm : CollectiveHelper::GetAlgorithms(operation))
            {
                TypeId tid = CollectiveHelper::GetTypeId(operation, algorithm);
                if (!tid.IsChildOf(ScheduledCollective::GetTypeId()))
                {
                    continue; // timing-only models, registered by other tests
                }
                for (uint32_t n : {2, 3, 4, 7, 8, 16})
                {
                    std::vector<std::pair<std::string, uint64_t>> attributes;
                    TypeId::AttributeInformation info;
                    if (tid.LookupAttributeByName("LocalSize", &info))
                    {
                        attributes.emplace_back("LocalSize", n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : 1);
                    }
                    AddTestCase(new ScheduleExactnessTestCase(operation, algorithm, n, attributes));
                    if (n == 7)
                    {
                        // Gloo's wire protocol: headers, and a rendezvous before every message.
                        auto gloo = attributes;
                        gloo.emplace_back("MessageOverhead", 96);
                        gloo.emplace_back("ReadyBytes", 48);
                        AddTestCase(new ScheduleExactnessTestCase(operation, algorithm, n, gloo));
                    }
                    // The receive-first exchanges, where the algorithm has them.
                    if (tid.LookupAttributeByName("ReceiveFirst", &info))
                    {
                        auto receiveFirst = attributes;
                        receiveFirst.emplace_back("ReceiveFirst", 1);
                        AddTestCase(new ScheduleExactnessTestCase(operation, algorithm, n, receiveFirst));
                    }
                    // Pieces of three elements and two channels, where the algorithm has them.
                    if (tid.LookupAttributeByName("ChunkBytes", &info))
                    {
                        attributes.emplace_back("ChunkBytes", 3 * ELEMENT_BYTES);
                        if (tid.LookupAttributeByName("Channels", &info))
                        {
                            attributes.emplace_back("Channels", 2);
                        }
                        AddTestCase(new ScheduleExactnessTestCase(operation, algorithm, n, attributes));
                    }
                }
            }
        }
    }
};

/// The suite's instance.
static ScheduleExactnessTestSuite g_scheduleExactnessTestSuite;

} // namespace
