/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A hotspot and its victim on a lossless fabric. Two switches joined by one cable: A and B
// on the first and C and D on the second send to R (the hotspot, on the second switch); V on
// the first sends to W on the second (the victim flow), sharing the cable with A and B.
//
// Max-min fairness gives each hotspot sender a quarter of R's link, so A and B need half the
// shared cable and V could have the other half. Without congestion control the hotspot's
// packets fill the second switch's buffer for the shared cable, whose credits then stop the
// cable for V too: the congestion tree takes the victim down to a fraction of its share. With
// InfiniBand congestion control (or DCQCN) the senders to R are throttled, the buffer drains
// and V gets close to its share. The shares are computed here from the topology.

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const DataRate RATE("100Gbps");
constexpr uint32_t MTU = 4096;
constexpr uint32_t HEADER = 26;
const Time WINDOW_START = MicroSeconds(200);
const Time WINDOW_END = MicroSeconds(600);

/// Endpoint ids, in the order they are added.
enum Host : uint32_t
{
    A,
    B,
    V,
    C,
    D,
    R,
    W,
    HOSTS
};

/// Takes complete messages and does nothing with them.
void
Discard(uint32_t /* src */, uint64_t /* cookie */, uint64_t /* bytes */)
{
}

/// What one run measured.
struct Outcome
{
    double victim{0};      //!< V's payload throughput in the window, fraction of a link
    double hotspot{0};     //!< R's payload throughput in the window, fraction of a link
    double slowestRate{1}; //!< Lowest rate any hotspot sender was allowed, fraction of line
};

/// Counts one receiver's payload inside the window.
struct WindowCounter
{
    uint64_t bytes{0}; //!< Payload bytes that arrived inside the window

    void Arrive(uint32_t /* src */, uint32_t payload)
    {
        Time now = Simulator::Now();
        bytes += (now >= WINDOW_START && now < WINDOW_END) ? payload : 0;
    }
};

/// Follows the lowest rate a congestion control allowed.
struct RateFloor
{
    double lowest{1e300}; //!< bit/s

    void Rate(double /* old */, double now)
    {
        lowest = std::min(lowest, now);
    }
};

/// \param cc a congestion control TypeId name \return what the run measured
Outcome
RunWith(const std::string& cc)
{
    IbFabricHelper fabric;
    fabric.SetDeviceAttribute("DataRate", DataRateValue(RATE));
    fabric.SetDeviceAttribute("Mtu", UintegerValue(MTU));
    fabric.SetDeviceAttribute("HeaderBytes", UintegerValue(HEADER));
    fabric.SetSwitchAttribute("Marking", BooleanValue(true));
    fabric.SetTransportAttribute("CongestionControl", TypeIdValue(TypeId::LookupByName(cc)));
    // InfiniBand returns a BECN for every FECN; DCQCN's receivers send at most one CNP per
    // 50 us per flow.
    fabric.SetTransportAttribute("CnpInterval",
                                 TimeValue(cc == "ns3::Dcqcn" ? MicroSeconds(50) : Time(0)));
    IbFabricHelper::Vertex first = fabric.AddSwitch();
    IbFabricHelper::Vertex second = fabric.AddSwitch();
    for (uint32_t h = 0; h < HOSTS; ++h)
    {
        fabric.Connect(fabric.AddEndpoint(), h <= V ? first : second);
    }
    fabric.Connect(first, second);
    fabric.Install();

    const uint64_t bytes = 64 << 20; // longer than the run: every flow stays active
    WindowCounter victim;
    WindowCounter hotspot;
    fabric.GetTransport(W)->TraceConnectWithoutContext(
        "Arrive",
        MakeCallback(&WindowCounter::Arrive, &victim));
    fabric.GetTransport(R)->TraceConnectWithoutContext(
        "Arrive",
        MakeCallback(&WindowCounter::Arrive, &hotspot));
    fabric.GetTransport(W)->Listen(1, MakeCallback(&Discard));
    fabric.GetTransport(R)->Listen(1, MakeCallback(&Discard));
    RateFloor floor;
    for (uint32_t sender : {A, B, C, D})
    {
        fabric.GetTransport(sender)->Send(R, 1, 0, bytes);
        fabric.GetTransport(sender)->GetCongestionControl(R)->TraceConnectWithoutContext(
            "Rate",
            MakeCallback(&RateFloor::Rate, &floor));
    }
    fabric.GetTransport(V)->Send(W, 1, 0, bytes);
    Simulator::Stop(WINDOW_END);
    Simulator::Run();
    Simulator::Destroy();

    double linkBytes = RATE.GetBitRate() / 8.0 * MTU / (MTU + HEADER) *
                       (WINDOW_END - WINDOW_START).GetSeconds();
    Outcome outcome;
    outcome.victim = victim.bytes / linkBytes;
    outcome.hotspot = hotspot.bytes / linkBytes;
    outcome.slowestRate = std::min(1.0, floor.lowest / RATE.GetBitRate());
    return outcome;
}

/// Congestion control protects the victim; without it the victim collapses.
class IbHotspotTestCase : public TestCase
{
  public:
    IbHotspotTestCase()
        : TestCase("a hotspot is throttled and the victim flow protected by IB congestion "
                   "control and by DCQCN, not without")
    {
    }

  private:
    void DoRun() override
    {
        // Max-min shares: R's link split four ways; the shared cable carries A, B and V.
        const double hotspotShare = 1.0 / 4;
        const double victimShare = 1.0 - 2 * hotspotShare;
        Outcome off = RunWith("ns3::RdmaCongestionControl");
        Outcome ib = RunWith("ns3::IbCongestionControl");
        Outcome dcqcn = RunWith("ns3::Dcqcn");
        for (const auto& [name, o] :
             {std::make_pair("off", off), std::make_pair("ib", ib), std::make_pair("dcqcn", dcqcn)})
        {
            std::cout << "  " << name << ": victim " << o.victim << " of a link (share "
                      << victimShare << "), hotspot " << o.hotspot << ", slowest sender rate "
                      << o.slowestRate << std::endl;
        }
        NS_TEST_EXPECT_MSG_LT(off.victim, 0.5 * victimShare,
                              "without congestion control the victim should suffer");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(ib.victim, 0.8 * victimShare, "IB CC: victim not protected");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(dcqcn.victim, 0.8 * victimShare, "DCQCN: victim not protected");
        NS_TEST_EXPECT_MSG_LT(ib.slowestRate, 2 * hotspotShare, "IB CC: hotspot not throttled");
        NS_TEST_EXPECT_MSG_LT(dcqcn.slowestRate, 2 * hotspotShare, "DCQCN: hotspot not throttled");
        // Throttling must not idle the hotspot's link.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(ib.hotspot, 0.8, "IB CC: hotspot link underused");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(dcqcn.hotspot, 0.8, "DCQCN: hotspot link underused");
    }
};

/// Samples a congestion control's rate and alpha at a time.
struct DcqcnSample
{
    double rate{0};  //!< bit/s
    double alpha{0}; //!< congestion estimate
};

/// Records cc's rate and alpha into *sample.
void
SampleDcqcn(Ptr<Dcqcn> cc, DcqcnSample* sample)
{
    sample->rate = cc->GetRate();
    sample->alpha = cc->GetAlpha();
}

/**
 * DCQCN's laws (Zhu et al., SIGCOMM 2015), fed CNPs by hand and computed here step by step:
 * a CNP cuts the rate to R (1 - alpha / 2) after setting the target to R, and moves alpha to
 * (1 - g) alpha + g; each alpha period without a CNP decays alpha to (1 - g) alpha; each rate
 * period (and each ByteCounter bytes sent) moves the rate halfway to the target, and after
 * FastRecoverySteps such steps raises the target by RateAi first (one counter past them) or
 * RateHai (both counters past them). A wrong gain, decay or rate law fails here.
 */
class DcqcnLawsTestCase : public TestCase
{
  public:
    DcqcnLawsTestCase()
        : TestCase("DCQCN: rate cut, alpha update and decay, fast recovery, additive and hyper "
                   "increase, from the laws")
    {
    }

  private:
    void DoRun() override
    {
        const double line = 100e9;
        const double g = 1.0 / 16;
        const double ai = 40e6;
        const double hai = 400e6;
        const Time period = MicroSeconds(50);
        Ptr<Dcqcn> cc = CreateObjectWithAttributes<Dcqcn>("G",
                                                           DoubleValue(g),
                                                           "AlphaTimer",
                                                           TimeValue(period),
                                                           "RateTimer",
                                                           TimeValue(period),
                                                           "ByteCounter",
                                                           UintegerValue(1'000'000'000),
                                                           "FastRecoverySteps",
                                                           UintegerValue(2));
        cc->SetLineRate(DataRate(static_cast<uint64_t>(line)));
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetRate(), line, 1, "starts at line rate");

        // Two CNPs 1 us apart: alpha starts at 1 and stays there; the rate halves twice.
        double rate = line;
        double target = line;
        double alpha = 1;
        auto cnp = [&]() {
            target = rate;
            rate = rate * (1 - alpha / 2);
            alpha = (1 - g) * alpha + g;
        };
        Simulator::Schedule(Time(0), &Dcqcn::OnCongestionNotification, cc);
        cnp();
        Simulator::Schedule(MicroSeconds(1), &Dcqcn::OnCongestionNotification, cc);
        cnp();
        const double afterCuts = rate;
        NS_TEST_EXPECT_MSG_EQ_TOL(afterCuts, line / 4, 1, "the test's own law: two halvings");

        // Then quiet: periods at 51, 101, 151, 201, 251 us after the start. Fast recovery for
        // two steps, then additive increase (only the timer counts: the byte counter is far).
        std::vector<DcqcnSample> samples(5);
        std::vector<double> wantRate;
        std::vector<double> wantAlpha;
        for (uint32_t k = 1; k <= 5; ++k)
        {
            if (k > 2)
            {
                target = std::min(target + ai, line);
            }
            rate = std::min((rate + target) / 2, line);
            alpha = (1 - g) * alpha;
            wantRate.push_back(rate);
            wantAlpha.push_back(alpha);
            Simulator::Schedule(MicroSeconds(1) + period * k + NanoSeconds(10),
                                &SampleDcqcn,
                                cc,
                                &samples[k - 1]);
        }
        // A third CNP at 260 us, with the alpha the decays left.
        DcqcnSample afterThird;
        Simulator::Schedule(MicroSeconds(260), &Dcqcn::OnCongestionNotification, cc);
        Simulator::Schedule(MicroSeconds(260) + NanoSeconds(10), &SampleDcqcn, cc, &afterThird);
        Simulator::Stop(MicroSeconds(270));
        Simulator::Run();
        for (uint32_t k = 0; k < samples.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(samples[k].rate, wantRate[k], 1, "rate after period " << k + 1);
            NS_TEST_EXPECT_MSG_EQ_TOL(samples[k].alpha, wantAlpha[k], 1e-12, "alpha after period " << k + 1);
        }
        cnp();
        NS_TEST_EXPECT_MSG_EQ_TOL(afterThird.rate, rate, 1, "the third cut uses the decayed alpha");
        NS_TEST_EXPECT_MSG_EQ_TOL(afterThird.alpha, alpha, 1e-12, "and updates it");
        Simulator::Destroy();

        // Hyper increase: the byte counter and the timer both past the fast steps.
        Ptr<Dcqcn> both = CreateObjectWithAttributes<Dcqcn>("G",
                                                             DoubleValue(g),
                                                             "RateTimer",
                                                             TimeValue(period),
                                                             "AlphaTimer",
                                                             TimeValue(period),
                                                             "ByteCounter",
                                                             UintegerValue(10'000),
                                                             "FastRecoverySteps",
                                                             UintegerValue(1));
        both->SetLineRate(DataRate(static_cast<uint64_t>(line)));
        // Two CNPs: the target (50 G) below the line, so every increase of it shows.
        both->OnCongestionNotification();
        both->OnCongestionNotification();
        double r = line / 4;
        double t = line / 2;
        // Two byte-counter steps (20,000 bytes in 1,000-byte packets): fast, then additive.
        for (uint32_t packet = 0; packet < 20; ++packet)
        {
            both->NextPacketGapPs(1000, 80'000);
        }
        r = (r + t) / 2;               // byte step 1: fast recovery
        t = std::min(t + ai, line);    // byte step 2: past the fast steps, timer not: additive
        r = std::min((r + t) / 2, line);
        NS_TEST_EXPECT_MSG_EQ_TOL(both->GetRate(), r, 1, "two byte-counter steps");
        // Two timer periods: timer steps 1 (additive: byte steps past) and 2 (both past: hyper).
        DcqcnSample hyper;
        Simulator::Schedule(period * 2 + NanoSeconds(10), &SampleDcqcn, both, &hyper);
        Simulator::Stop(period * 2 + NanoSeconds(20));
        Simulator::Run();
        t = std::min(t + ai, line);
        r = std::min((r + t) / 2, line);
        t = std::min(t + hai, line);
        r = std::min((r + t) / 2, line);
        NS_TEST_EXPECT_MSG_EQ_TOL(hyper.rate, r, 1, "then additive and hyper increase");
        Simulator::Destroy();
    }
};

class IbCongestionTestSuite : public TestSuite
{
  public:
    IbCongestionTestSuite()
        : TestSuite("uniference-ib-congestion", UNIT)
    {
        AddTestCase(new IbHotspotTestCase());
        AddTestCase(new DcqcnLawsTestCase());
    }
};

static IbCongestionTestSuite g_ibCongestionTestSuite;

} // namespace
