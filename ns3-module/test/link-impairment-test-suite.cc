/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Impairments of a link: Gilbert-Elliott bursty loss with netem's parameters, and a fading
// (blocked) beam. Expected values are computed here: the loss chain's stationary loss rate
// and burst length, the blocked fraction lambda D / (1 + lambda D), and packets per interval
// at the link's rate (or the attenuated rate) from the packet size.

#include "link-test-util.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/fade-condition.h"
#include "ns3/fault-error-model.h"
#include "ns3/gilbert-elliott-error-model.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/varying-link-helper.h"

#include <cmath>
#include <vector>

using namespace ns3;
using namespace ns3::tests;

/// Fault windows: a whole outage loses exactly the packets inside it (and none at its end, which
/// is exclusive), a burst loses its share (binomial bounds), and outside them the inner model
/// decides. Packets are offered once per microsecond over 3 ms.
class FaultWindowTestCase : public TestCase
{
  public:
    FaultWindowTestCase()
        : TestCase("Fault windows: an outage loses its packets, a burst its share, else the inner model")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FaultErrorModel> model = CreateObject<FaultErrorModel>();
        model->AssignStreams(7);
        // Outside the windows every packet is lost by the inner model: so a packet kept must
        // have been inside a window that spared it.
        Ptr<RateErrorModel> inner = CreateObject<RateErrorModel>();
        inner->SetAttribute("ErrorRate", DoubleValue(0));
        model->SetAttribute("Inner", PointerValue(inner));
        const uint32_t outage = model->AddWindow(MicroSeconds(1000), MicroSeconds(1500), 1.0);
        const uint32_t burst = model->AddWindow(MicroSeconds(2000), MicroSeconds(2800), 0.25);
        std::vector<bool> lost(3000);
        for (int us = 0; us < 3000; ++us)
        {
            Simulator::Schedule(MicroSeconds(us), [&lost, model, us]() {
                lost[us] = model->IsCorrupt(Create<Packet>(100));
            });
        }
        Simulator::Run();
        Simulator::Destroy();

        int outageLost = 0;
        int burstLost = 0;
        int otherLost = 0;
        for (int us = 0; us < 3000; ++us)
        {
            (us >= 1000 && us < 1500 ? outageLost : us >= 2000 && us < 2800 ? burstLost : otherLost) +=
                lost[us];
        }
        NS_TEST_ASSERT_MSG_EQ(outageLost, 500, "the outage loses every packet of its 500 us");
        NS_TEST_ASSERT_MSG_EQ(model->GetDrops(outage), 500u, "and counts them");
        NS_TEST_ASSERT_MSG_EQ(otherLost, 0, "outside the windows the inner model (rate 0) keeps all");
        // 800 draws at 0.25: mean 200, standard deviation sqrt(800 * 0.25 * 0.75) = 12.2; five
        // of them either side.
        NS_TEST_ASSERT_MSG_GT(burstLost, 139, "the burst loses about a quarter");
        NS_TEST_ASSERT_MSG_LT(burstLost, 261, "the burst loses about a quarter");
        NS_TEST_ASSERT_MSG_EQ(model->GetDrops(burst), uint64_t(burstLost), "and counts them");

        // The inner model still decides outside the windows: at rate 1 it loses everything.
        inner->SetAttribute("ErrorRate", DoubleValue(1));
        inner->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        NS_TEST_ASSERT_MSG_EQ(model->IsCorrupt(Create<Packet>(100)), true,
                              "at t = 0, outside every window, the inner model loses it");
    }
};

/// Over 10^6 packets, the loss rate and mean loss-burst length are the chain's stationary ones.
class GilbertElliottTestCase : public TestCase
{
  public:
    GilbertElliottTestCase()
        : TestCase("Gilbert-Elliott: loss rate and mean burst length within 5% of stationary")
    {
    }

  private:
    void DoRun() override
    {
        const double p = 0.01;
        const double r = 0.25;
        const double lossBad = 0.7;   // 1-h
        const double lossGood = 0.002; // 1-k
        Ptr<GilbertElliottErrorModel> model = CreateObject<GilbertElliottErrorModel>();
        model->SetAttribute("P", DoubleValue(p));
        model->SetAttribute("R", DoubleValue(r));
        model->SetAttribute("LossInBad", DoubleValue(lossBad));
        model->SetAttribute("LossInGood", DoubleValue(lossGood));
        Ptr<Packet> packet = Create<Packet>(100);
        const int n = 1000000;
        int lost = 0;
        int bursts = 0;
        bool previous = false;
        for (int i = 0; i < n; ++i)
        {
            const bool now = model->IsCorrupt(packet);
            lost += now;
            bursts += now && !previous;
            previous = now;
        }

        // Stationary chain: bad with probability p / (p + r). A packet's loss depends on the
        // state it finds; a burst starts where a kept packet is followed by a lost one.
        const double bad = p / (p + r);
        const double good = 1 - bad;
        const double loss = good * lossGood + bad * lossBad;
        const double nextLossFromGood = (1 - p) * lossGood + p * lossBad;
        const double nextLossFromBad = r * lossGood + (1 - r) * lossBad;
        const double burstStart =
            good * (1 - lossGood) * nextLossFromGood + bad * (1 - lossBad) * nextLossFromBad;
        const double meanBurst = loss / burstStart;

        NS_TEST_ASSERT_MSG_EQ_TOL(double(lost) / n / loss, 1.0, 0.05, "loss rate");
        NS_TEST_ASSERT_MSG_EQ_TOL(double(lost) / bursts / meanBurst, 1.0, 0.05, "mean burst");
        // Bursty indeed: independent losses at this rate would give bursts of 1/(1-loss).
        NS_TEST_ASSERT_MSG_GT(meanBurst, 1.5 / (1 - loss), "the test's parameters are not bursty");
    }
};

/// With clear spells at rate lambda and fades of mean D, the link fades lambda D / (1 + lambda D)
/// of the time.
class FadeFractionTestCase : public TestCase
{
  public:
    FadeFractionTestCase()
        : TestCase("blockage: faded fraction of time is lambda D over (1 + lambda D) within 5%")
    {
    }

  private:
    void DoRun() override
    {
        const double lambda = 2; // per clear second
        const double d = 0.25;   // mean fade, seconds
        Ptr<FadeCondition> fade = CreateObject<FadeCondition>();
        fade->SetAttribute("ClearTime",
                           StringValue("ns3::ExponentialRandomVariable[Mean=" +
                                       std::to_string(1 / lambda) + "]"));
        fade->SetAttribute("FadeTime",
                           StringValue("ns3::ExponentialRandomVariable[Mean=" +
                                       std::to_string(d) + "]"));
        fade->SetAttribute("FadeRateFactor", DoubleValue(0.5));
        const DataRate clear("1Gbps");
        const Time end = Seconds(5000);
        Time faded(0);
        for (Time t(0); t < end;)
        {
            const Time next = std::min(fade->GetNextRateChange(t), end);
            NS_TEST_ASSERT_MSG_GT(next, t, "the next change must come later");
            if (fade->GetRate(t, clear) < clear)
            {
                faded += next - t;
            }
            t = next;
        }
        const double expected = lambda * d / (1 + lambda * d);
        NS_TEST_ASSERT_MSG_EQ_TOL(faded.GetSeconds() / end.GetSeconds() / expected,
                                  1.0,
                                  0.05,
                                  "faded fraction");
    }
};

/// A saturated link through one fade: nothing gets through while blocked and until the beam
/// is recovered (outage), or the attenuated rate does (attenuation).
class FadeThroughputTestCase : public TestCase
{
  public:
    explicit FadeThroughputTestCase(double factor)
        : TestCase(factor == 0 ? "blockage as outage: no throughput until the beam is recovered"
                               : "blockage as attenuation: throughput falls to the faded rate"),
          m_factor(factor)
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("10Mbps");
        const uint32_t size = 1000;
        const Time delay = MilliSeconds(1);
        // Deterministic spells: clear for 1 s, faded for 0.5 s, then (outage) 0.1 s recovering.
        const double recovery = 0.1;
        VaryingLinkHelper helper;
        helper.SetDeviceAttribute("DataRate", DataRateValue(rate));
        helper.SetPath("ns3::FixedDelayCondition", "Delay", TimeValue(delay));
        helper.AddImpairment("ns3::FadeCondition",
                             "ClearTime",
                             StringValue("ns3::ConstantRandomVariable[Constant=1.0]"),
                             "FadeTime",
                             StringValue("ns3::ConstantRandomVariable[Constant=0.5]"),
                             "FadeRateFactor",
                             DoubleValue(m_factor),
                             "RecoveryTime",
                             TimeValue(Seconds(recovery)));
        Ptr<Node> a = CreateObject<Node>();
        Ptr<Node> b = CreateObject<Node>();
        LinkProbe probe(helper.Install(a, b));
        // Offered faster than the link sends: it is never idle.
        for (Time t(0); t < Seconds(2.5); t += MicroSeconds(700))
        {
            probe.SendAt(t, size);
        }
        Simulator::Run();
        Simulator::Destroy();

        const double bin = 0.1;
        std::vector<int> arrivals(25, 0);
        for (const LinkProbe::Record& r : probe.Records())
        {
            const double at = r.arrived.GetSeconds();
            if (r.arrived != Time::Max() && at < 2.5)
            {
                ++arrivals[int(at / bin)];
            }
        }
        const double perBin = bin / rate.CalculateBytesTxTime(size + PPP_HEADER).GetSeconds();
        const double fadeStart = 1.0;
        const double fadeEnd = 1.5;
        const double upAgain = m_factor == 0 ? fadeEnd + recovery : fadeEnd;
        for (int i = 1; i < 25; ++i)
        {
            // Arrivals in bin i left the sender in [i bin - delay, (i + 1) bin - delay).
            const double from = i * bin - delay.GetSeconds();
            const double to = from + bin;
            double expected;
            if (to <= fadeStart || (from >= upAgain + 0.001 && to <= 2.0))
            {
                expected = perBin;
            }
            else if (from >= fadeStart + 0.001 && to <= fadeEnd)
            {
                expected = perBin * m_factor;
            }
            else if (m_factor == 0 && from >= fadeStart + 0.001 && to <= upAgain)
            {
                expected = 0; // recovering the beam
            }
            else
            {
                continue; // a bin across a change
            }
            NS_TEST_ASSERT_MSG_EQ_TOL(double(arrivals[i]),
                                      expected,
                                      1.01,
                                      "packets arriving in [" << i * bin << ", " << (i + 1) * bin
                                                              << ") s");
        }
    }

    double m_factor;
};

class LinkImpairmentTestSuite : public TestSuite
{
  public:
    LinkImpairmentTestSuite()
        : TestSuite("uniference-link-impairment")
    {
        AddTestCase(new GilbertElliottTestCase);
        AddTestCase(new FaultWindowTestCase);
        AddTestCase(new FadeFractionTestCase);
        AddTestCase(new FadeThroughputTestCase(0));
        AddTestCase(new FadeThroughputTestCase(0.25));
    }
};

static LinkImpairmentTestSuite g_linkImpairmentTestSuite;
