/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A random permutation on a full-bisection k=8 fat-tree (128 endpoints). Per-flow ECMP hashes
// flows onto paths, and flows that collide share links; per-packet adaptive routing spreads
// every flow over all paths. The test computes what ECMP should give with its own model:
// each flow on a uniformly random one of its equal-cost paths, links shared max-min fairly,
// averaged over many draws. That is the hash-collision model (about 63% of bisection for a
// single stage of n flows on n links, 1 - (1 - 1/n)^n); the simulated mean over 5 seeds must
// be within 10% of it, and adaptive routing must reach at least 85% of bisection.

#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <numeric>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint32_t K = 8;
constexpr uint32_t HALF = K / 2;
constexpr uint32_t ENDPOINTS = K * K * K / 4;
const DataRate RATE("100Gbps");
constexpr uint32_t MTU = 4096;
constexpr uint32_t HEADER = 26;
const Time WINDOW_START = MicroSeconds(40);
const Time WINDOW_END = MicroSeconds(140);

/// \param seed a seed \return a permutation of the endpoints without fixed points
std::vector<uint32_t>
Derangement(uint32_t seed)
{
    std::mt19937 random(seed);
    std::vector<uint32_t> to(ENDPOINTS);
    do
    {
        std::iota(to.begin(), to.end(), 0);
        std::shuffle(to.begin(), to.end(), random);
    } while ([&] {
        for (uint32_t i = 0; i < ENDPOINTS; ++i)
        {
            if (to[i] == i)
            {
                return true;
            }
        }
        return false;
    }());
    return to;
}

/**
 * The links a flow crosses on the fat-tree of IbFabricHelper::FatTree, given the aggregation
 * switch and core switch it goes through (ignored where the flow does not climb that high).
 * Links are directed, named by tuples packed into integers.
 */
std::vector<uint64_t>
Links(uint32_t src, uint32_t dst, uint32_t agg, uint32_t core)
{
    auto pod = [](uint32_t e) { return e / (HALF * HALF); };
    auto edge = [](uint32_t e) { return e / HALF; }; // global edge switch index
    auto id = [](uint64_t kind, uint64_t a, uint64_t b) { return (kind << 40) | (a << 20) | b; };
    std::vector<uint64_t> links{id(0, src, 0), id(1, dst, 0)}; // host up, host down
    if (edge(src) == edge(dst))
    {
        return links;
    }
    uint32_t srcAgg = pod(src) * HALF + agg;
    uint32_t dstAgg = pod(dst) * HALF + agg;
    links.push_back(id(2, edge(src), srcAgg)); // edge up
    links.push_back(id(3, dstAgg, edge(dst))); // aggregation down
    if (pod(src) != pod(dst))
    {
        uint32_t c = agg * HALF + core;
        links.push_back(id(4, srcAgg, c)); // aggregation up
        links.push_back(id(5, c, dstAgg)); // core down
    }
    return links;
}

/// \param paths each flow's links \return max-min fair rates, as fractions of a link
std::vector<double>
MaxMinRates(const std::vector<std::vector<uint64_t>>& paths)
{
    std::vector<double> rate(paths.size(), 0);
    std::vector<bool> frozen(paths.size(), false);
    std::map<uint64_t, double> left;
    for (const auto& path : paths)
    {
        for (uint64_t link : path)
        {
            left[link] = 1.0;
        }
    }
    for (std::size_t round = 0; round < paths.size(); ++round)
    {
        // The tightest link: least capacity left per unfrozen flow on it.
        std::map<uint64_t, uint32_t> users;
        for (std::size_t f = 0; f < paths.size(); ++f)
        {
            if (!frozen[f])
            {
                for (uint64_t link : paths[f])
                {
                    ++users[link];
                }
            }
        }
        if (users.empty())
        {
            break;
        }
        double share = 2.0;
        for (const auto& [link, n] : users)
        {
            share = std::min(share, left[link] / n);
        }
        for (std::size_t f = 0; f < paths.size(); ++f)
        {
            if (frozen[f])
            {
                continue;
            }
            rate[f] += share;
            for (uint64_t link : paths[f])
            {
                left[link] -= share;
            }
        }
        for (std::size_t f = 0; f < paths.size(); ++f)
        {
            for (uint64_t link : paths[f])
            {
                if (!frozen[f] && left[link] < 1e-12)
                {
                    frozen[f] = true;
                }
            }
        }
    }
    return rate;
}

/// \return the hash-collision model's mean throughput, as a fraction of bisection
double
EcmpModel()
{
    std::mt19937 random(12345);
    std::uniform_int_distribution<uint32_t> pick(0, HALF - 1);
    const int draws = 100;
    double sum = 0;
    for (int d = 0; d < draws; ++d)
    {
        std::vector<uint32_t> to = Derangement(1000 + d);
        std::vector<std::vector<uint64_t>> paths;
        for (uint32_t s = 0; s < ENDPOINTS; ++s)
        {
            paths.push_back(Links(s, to[s], pick(random), pick(random)));
        }
        std::vector<double> rates = MaxMinRates(paths);
        sum += std::accumulate(rates.begin(), rates.end(), 0.0) / ENDPOINTS;
    }
    return sum / draws;
}

/// Takes complete messages and does nothing with them.
void
Discard(uint32_t /* src */, uint64_t /* cookie */, uint64_t /* bytes */)
{
}

/// Counts payload delivered inside the measurement window.
struct WindowCounter
{
    uint64_t bytes{0}; //!< Payload bytes that arrived inside the window

    void Arrive(uint32_t /* src */, uint32_t payload)
    {
        Time now = Simulator::Now();
        if (now >= WINDOW_START && now < WINDOW_END)
        {
            bytes += payload;
        }
    }
};

/// \return the simulated throughput of one permutation, as a fraction of bisection
double
Simulate(IbSwitch::Routing routing, uint32_t seed)
{
    IbFabricHelper fabric;
    fabric.SetDeviceAttribute("DataRate", DataRateValue(RATE));
    fabric.SetDeviceAttribute("Mtu", UintegerValue(MTU));
    fabric.SetDeviceAttribute("HeaderBytes", UintegerValue(HEADER));
    fabric.SetSwitchAttribute("Routing", EnumValue(routing));
    fabric.SetSwitchAttribute("HashSeed", UintegerValue(seed * 7919));
    fabric.FatTree(K);
    fabric.Install();
    WindowCounter counter;
    std::vector<uint32_t> to = Derangement(seed);
    for (uint32_t s = 0; s < ENDPOINTS; ++s)
    {
        Ptr<RdmaMessageTransport> receiver = fabric.GetTransport(to[s]);
        receiver->TraceConnectWithoutContext("Arrive",
                                             MakeCallback(&WindowCounter::Arrive, &counter));
        receiver->Listen(1, MakeCallback(&Discard));
        fabric.GetTransport(s)->Send(to[s], 1, 0, 16 << 20);
    }
    Simulator::Stop(WINDOW_END);
    Simulator::Run();
    Simulator::Destroy();
    double payloadRate = RATE.GetBitRate() / 8.0 * MTU / (MTU + HEADER);
    return counter.bytes / ((WINDOW_END - WINDOW_START).GetSeconds() * payloadRate * ENDPOINTS);
}

/// ECMP against the model, adaptive against 85%.
class IbPermutationTestCase : public TestCase
{
  public:
    IbPermutationTestCase()
        : TestCase("random permutation on a k=8 fat-tree: ECMP within 10% of the "
                   "hash-collision model, adaptive routing at least 85% of bisection")
    {
    }

  private:
    void DoRun() override
    {
        double model = EcmpModel();
        double ecmp = 0;
        double adaptive = 0;
        const uint32_t seeds = 5;
        for (uint32_t seed = 1; seed <= seeds; ++seed)
        {
            double e = Simulate(IbSwitch::ECMP, seed);
            double a = Simulate(IbSwitch::ADAPTIVE, seed);
            std::cout << "  seed " << seed << ": ECMP " << e << ", adaptive " << a << std::endl;
            ecmp += e / seeds;
            adaptive += a / seeds;
        }
        std::cout << "  model " << model << ", ECMP mean " << ecmp << ", adaptive mean "
                  << adaptive << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(ecmp, model, 0.1 * model, "ECMP against the collision model");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(adaptive, 0.85, "adaptive routing below 85% of bisection");
    }
};

class IbRoutingTestSuite : public TestSuite
{
  public:
    IbRoutingTestSuite()
        : TestSuite("uniference-ib-routing", UNIT)
    {
        AddTestCase(new IbPermutationTestCase());
    }
};

static IbRoutingTestSuite g_ibRoutingTestSuite;

} // namespace
