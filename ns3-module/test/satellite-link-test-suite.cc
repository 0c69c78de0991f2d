/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Satellite paths on a VaryingLinkChannel: a LEO pass's delay follows the slant range over
// the whole pass, handovers take the link out and step the delay, a GEO hop and a replayed
// trace give the delays (and rates) they should at each packet's send time. The geometry is
// recomputed here from position vectors, not from the model's spherical-angle formulas.

#include "link-test-util.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/geo-condition.h"
#include "ns3/leo-pass-condition.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/trace-condition.h"
#include "ns3/varying-link-channel.h"
#include "ns3/varying-link-helper.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

using namespace ns3;
using namespace ns3::tests;

namespace
{

constexpr double RE = 6371.0e3;       // mean Earth radius, m
constexpr double MU = 3.986004418e14; // GM, m^3/s^2
constexpr double C = 299792458.0;     // m/s
constexpr double DEG = M_PI / 180;
const DataRate RATE("100Mbps");
constexpr uint32_t SIZE = 100; // bytes per probe packet

/**
 * A circular orbit of radius r in the x-y plane, the satellite at angle theta from the x axis,
 * and a ground station at latitude b above that plane (on the x-z meridian).
 */
struct Sky
{
    double r;
    double b;

    double Range(double theta) const
    {
        const double dx = r * std::cos(theta) - RE * std::cos(b);
        const double dy = r * std::sin(theta);
        const double dz = -RE * std::sin(b);
        return std::sqrt(dx * dx + dy * dy + dz * dz);
    }

    double Elevation(double theta) const
    {
        // The component of (satellite - station) along the station's up vector.
        const double up = (r * std::cos(theta) - RE * std::cos(b)) * std::cos(b) +
                          (-RE * std::sin(b)) * std::sin(b);
        return std::asin(up / Range(theta));
    }
};

/// x in [lo, hi] where f(x) = target, f decreasing.
double
Solve(const std::function<double(double)>& f, double target, double lo, double hi)
{
    for (int i = 0; i < 200; ++i)
    {
        const double mid = (lo + hi) / 2;
        (f(mid) > target ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

/// A pass: the station's offset from the track for the highest elevation, the rise angle.
struct Pass
{
    Sky sky;
    double omega;    // rad/s
    double duration; // s

    Pass(double altitude, double maxElevation, double minElevation)
    {
        const double r = RE + altitude;
        const double b = Solve([&](double x) { return Sky{r, x}.Elevation(0); },
                               maxElevation * DEG,
                               0,
                               M_PI / 4);
        sky = Sky{r, maxElevation >= 90 ? 0.0 : b};
        const double rise =
            Solve([&](double x) { return sky.Elevation(x); }, minElevation * DEG, 0, M_PI / 2);
        omega = std::sqrt(MU / (r * r * r));
        duration = 2 * rise / omega;
    }

    /// One-way bent-pipe delay (two slant ranges) at simulation time t, the pass starting at 0.
    double Delay(double t) const
    {
        const double age = std::fmod(t, duration);
        return 2 * sky.Range(omega * (age - duration / 2)) / C;
    }
};

struct Link
{
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    NetDeviceContainer devices;
};

/// Builds a link on `helper` at RATE both ways.
Link
Build(VaryingLinkHelper& helper)
{
    helper.SetDeviceAttribute("DataRate", DataRateValue(RATE));
    Link link;
    link.devices = helper.Install(link.a, link.b);
    return link;
}

Time
TxTime(uint32_t size, DataRate rate)
{
    return rate.CalculateBytesTxTime(size + PPP_HEADER);
}

} // namespace

/// Over a whole pass and into the next, every packet's delay is the slant-range geometry's.
class LeoPassGeometryTestCase : public TestCase
{
  public:
    LeoPassGeometryTestCase()
        : TestCase("a LEO pass's delays follow the slant range within 1% at every sample")
    {
    }

  private:
    void DoRun() override
    {
        const Pass pass(550e3, 60, 25);
        VaryingLinkHelper helper;
        helper.SetPath("ns3::LeoPassCondition",
                       "MaxElevation",
                       DoubleValue(60),
                       "HandoverInterval",
                       TimeValue(Seconds(0)));
        Link link = Build(helper);
        LinkProbe probe(link.devices);
        const double end = pass.duration + 30;
        for (double t = 0; t < end; t += 2)
        {
            probe.SendAt(Seconds(t), SIZE);
        }
        Simulator::Run();
        Simulator::Destroy();

        // A pass at 550 km above 25 degrees lasts minutes, not seconds or hours.
        NS_TEST_ASSERT_MSG_GT(pass.duration, 120, "pass too short");
        NS_TEST_ASSERT_MSG_LT(pass.duration, 600, "pass too long");
        double lowest = 1;
        double highest = 0;
        for (const LinkProbe::Record& r : probe.Records())
        {
            NS_TEST_ASSERT_MSG_NE(r.arrived, Time::Max(), "lost at " << r.sent.As(Time::S));
            const double measured = (r.arrived - r.sent - TxTime(SIZE, RATE)).GetSeconds();
            const double expected = pass.Delay(r.sent.GetSeconds());
            NS_TEST_ASSERT_MSG_EQ_TOL(measured / expected,
                                      1.0,
                                      0.01,
                                      "delay at " << r.sent.As(Time::S));
            lowest = std::min(lowest, measured);
            highest = std::max(highest, measured);
        }
        // The delay really moves: from about 2 x 1.2 Mm at the horizon limit to 2 x 0.63 Mm.
        NS_TEST_ASSERT_MSG_GT(highest / lowest, 1.5, "the delay hardly changed over the pass");
    }
};

/// Every handover takes the link out for the outage and steps the delay.
class LeoHandoverTestCase : public TestCase
{
  public:
    explicit LeoHandoverTestCase(bool hold)
        : TestCase(std::string("LEO handovers: outage and delay step, packets in outages ") +
                   (hold ? "held" : "lost")),
          m_hold(hold)
    {
    }

  private:
    void DoRun() override
    {
        const double interval = 15;
        const double outage = 0.2;
        const double step = 5e-3;
        const Pass pass(550e3, 90, 25);
        VaryingLinkHelper helper;
        helper.SetPath("ns3::LeoPassCondition",
                       "HandoverInterval",
                       TimeValue(Seconds(interval)),
                       "HandoverOutage",
                       TimeValue(Seconds(outage)),
                       "HandoverDelayStep",
                       TimeValue(Seconds(step)));
        helper.SetChannelAttribute("OutageMode",
                                   EnumValue(m_hold ? VaryingLinkChannel::HOLD
                                                    : VaryingLinkChannel::DROP));
        Link link = Build(helper);
        LinkProbe probe(link.devices);
        const int packets = 5000; // every 10 ms for 50 s: three handovers
        for (int i = 0; i < packets; ++i)
        {
            probe.SendAt(MilliSeconds(10 * i), SIZE);
        }
        Simulator::Run();
        // The channel lists the outages, as the trace shows them.
        Ptr<VaryingLinkChannel> channel =
            DynamicCast<VaryingLinkChannel>(link.devices.Get(0)->GetChannel());
        const auto outages = channel->GetOutages(Seconds(0), Seconds(50));
        NS_TEST_ASSERT_MSG_EQ(outages.size(), 3u, "outages in 50 s");
        for (std::size_t i = 0; i < outages.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(outages[i].first, Seconds(interval * (i + 1)), "outage start");
            NS_TEST_ASSERT_MSG_EQ(outages[i].second - outages[i].first,
                                  Seconds(outage),
                                  "outage length");
        }
        Simulator::Destroy();

        const std::vector<LinkProbe::Record> records = probe.Records();
        NS_TEST_ASSERT_MSG_EQ(records.size(), std::size_t(packets), "packets sent");
        const double tx = TxTime(SIZE, RATE).GetSeconds();
        int inOutage = 0;
        double heldUntil = 0; // when the channel has sent the packets it held (Hold)
        double lastBefore[4] = {};
        double firstAfter[4] = {};
        bool seenAfter[4] = {};
        for (const LinkProbe::Record& r : records)
        {
            const double sent = r.sent.GetSeconds();
            // Where the channel starts the packet: behind held packets, after any outage.
            double start = m_hold ? std::max(sent, heldUntil) : sent;
            const int k = int(std::floor(start / interval + 1e-9)); // handovers so far
            const bool out = k > 0 && start < k * interval + outage - 1e-9;
            const int handoversAtSend = int(std::floor(sent / interval + 1e-9));
            if (handoversAtSend > 0 && sent < handoversAtSend * interval + outage - 1e-9)
            {
                ++inOutage;
            }
            if (out)
            {
                start = k * interval + outage;
            }
            if (out && !m_hold)
            {
                NS_TEST_ASSERT_MSG_EQ(r.arrived,
                                      Time::Max(),
                                      "a packet sent in an outage, at " << sent << " s, arrived");
                continue;
            }
            if (start > sent)
            {
                heldUntil = start + tx;
            }
            NS_TEST_ASSERT_MSG_NE(r.arrived, Time::Max(), "lost at " << sent << " s");
            const double path = pass.Delay(start) + (k % 2 == 1 ? step : 0);
            const double delay = r.arrived.GetSeconds() - start - tx;
            NS_TEST_ASSERT_MSG_EQ_TOL(delay / path, 1.0, 0.01, "delay, sent at " << sent << " s");
            if (start > sent)
            {
                continue; // held: delivered only once the outage has ended, as checked
            }
            if (k < 4)
            {
                lastBefore[k] = delay - pass.Delay(start);
                if (k >= 1 && !seenAfter[k])
                {
                    firstAfter[k] = delay - pass.Delay(start);
                    seenAfter[k] = true;
                }
            }
        }
        // 20 packets in each of three outages.
        NS_TEST_ASSERT_MSG_EQ(inOutage, 60, "packets sent during outages");
        for (int k = 1; k < 4; ++k)
        {
            // Beyond the geometry, the delay steps by +step at odd handovers, -step at even.
            const double jump = firstAfter[k] - lastBefore[k - 1];
            const double expected = k % 2 == 1 ? step : -step;
            NS_TEST_ASSERT_MSG_EQ_TOL(jump,
                                      expected,
                                      0.01 * step,
                                      "delay step at handover " << k);
        }
    }

    bool m_hold;
};

/// A GEO hop: two slant ranges to 35,786 km, overhead and at 30 degrees.
class GeoDelayTestCase : public TestCase
{
  public:
    GeoDelayTestCase()
        : TestCase("a GEO hop's delay is two slant ranges at the speed of light")
    {
    }

  private:
    void DoRun() override
    {
        const double r = RE + 35786e3;
        for (double elevation : {90.0, 30.0})
        {
            const Sky sky{r, 0};
            const double theta =
                elevation >= 90
                    ? 0
                    : Solve([&](double x) { return sky.Elevation(x); }, elevation * DEG, 0, 1.5);
            const double expected = 2 * sky.Range(theta) / C;
            VaryingLinkHelper helper;
            helper.SetPath("ns3::GeoCondition", "Elevation", DoubleValue(elevation));
            Link link = Build(helper);
            LinkProbe probe(link.devices);
            probe.SendAt(Seconds(1), SIZE);
            Simulator::Run();
            Simulator::Destroy();
            const LinkProbe::Record record = probe.Records().at(0);
            const double measured = (record.arrived - record.sent - TxTime(SIZE, RATE)).GetSeconds();
            NS_TEST_ASSERT_MSG_EQ_TOL(measured, expected, 1e-6, "elevation " << elevation);
            // At least 119 ms each way to the satellite.
            NS_TEST_ASSERT_MSG_GT(measured, 2 * 0.119, "elevation " << elevation);
        }
    }
};

/// A replayed trace: each packet takes the delay and rate of the row in force when sent.
class TraceReplayTestCase : public TestCase
{
  public:
    TraceReplayTestCase()
        : TestCase("a replayed trace gives each packet its row's delay and rate; rate 0 is out")
    {
    }

  private:
    void DoRun() override
    {
        const std::string path = CreateTempDirFilename("trace.csv");
        {
            std::ofstream out(path);
            out << "# measured\n"
                << "time_s,delay_ms,rate_mbps\n"
                << "0,20,50\n"
                << "1.0,35.5,10\n"
                << "2.0,35,0\n"
                << "2.5,25,100\n";
        }
        VaryingLinkHelper helper;
        helper.SetPath("ns3::TraceCondition", "File", StringValue(path));
        Link link = Build(helper);
        LinkProbe probe(link.devices);
        const uint32_t size = 1000;
        for (double t : {0.5, 1.5, 2.2, 3.0})
        {
            probe.SendAt(Seconds(t), size);
        }
        Simulator::Run();
        Simulator::Destroy();

        struct Expect
        {
            double delay;
            const char* rate;
        };
        const Expect expect[] = {{0.020, "50Mbps"}, {0.0355, "10Mbps"}, {-1, ""}, {0.025, "100Mbps"}};
        const std::vector<LinkProbe::Record> records = probe.Records();
        for (std::size_t i = 0; i < records.size(); ++i)
        {
            if (expect[i].delay < 0)
            {
                NS_TEST_ASSERT_MSG_EQ(records[i].arrived, Time::Max(), "sent while out");
                continue;
            }
            const Time expected = Seconds(expect[i].delay) + TxTime(size, DataRate(expect[i].rate));
            NS_TEST_ASSERT_MSG_EQ(records[i].arrived - records[i].sent,
                                  expected,
                                  "packet sent at " << records[i].sent.As(Time::S));
        }

        // A malformed trace is refused, naming the file and line.
        const std::pair<const char*, const char*> bad[] = {
            {"time,delay,rate\n0,1,1\n", "t.csv:1: the header"},
            {"time_s,delay_ms,rate_mbps\n0,1,1\n0,2,1\n", "t.csv:3: time_s 0 does not come after"},
            {"time_s,delay_ms,rate_mbps\n0,-1,1\n", "t.csv:2: delay_ms '-1'"},
            {"time_s,delay_ms,rate_mbps\n0,1\n", "t.csv:2: a row has 3 cells"},
            {"time_s,delay_ms,rate_mbps\n", "t.csv: no rows"},
            // Past what Time and DataRate hold: converting them would be undefined (1e300 s
            // used to wrap round and be refused as out of order; 1e30 passed).
            {"time_s,delay_ms,rate_mbps\n0,1,1\n1e30,1,1\n", "t.csv:3: time_s '1e30' is above 1e9"},
            {"time_s,delay_ms,rate_mbps\n0,1e300,1\n", "t.csv:2: delay_ms '1e300' is above 1e9"},
            {"time_s,delay_ms,rate_mbps\n0,1,2e12\n", "t.csv:2: rate_mbps '2e12' is above 1e9"},
        };
        for (const auto& [text, error] : bad)
        {
            std::istringstream in(text);
            std::vector<TraceCondition::Sample> samples;
            const std::string got = TraceCondition::Parse(in, "t.csv", samples);
            NS_TEST_ASSERT_MSG_EQ(got.rfind(error, 0), 0u, "error was '" << got << "'");
        }
    }
};

class SatelliteLinkTestSuite : public TestSuite
{
  public:
    SatelliteLinkTestSuite()
        : TestSuite("uniference-satellite-link")
    {
        AddTestCase(new LeoPassGeometryTestCase);
        AddTestCase(new LeoHandoverTestCase(false));
        AddTestCase(new LeoHandoverTestCase(true));
        AddTestCase(new GeoDelayTestCase);
        AddTestCase(new TraceReplayTestCase);
    }
};

static SatelliteLinkTestSuite g_satelliteLinkTestSuite;
