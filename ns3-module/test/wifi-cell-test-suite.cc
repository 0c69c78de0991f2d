/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Endpoints on ns-3's own 802.11ax: messages cross the cell in the air time the standard's
// PHY and MAC numbers give their bytes at the MCS the stations send at, and every station
// reaches every other.

#include "ns3/data-rate.h"
#include "ns3/message-transport.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/wifi-cell-helper.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

/// The MCS is the fastest whose rate fits the rate asked for.
class WifiCellMcsTestCase : public TestCase
{
  public:
    WifiCellMcsTestCase()
        : TestCase("the cell sends at the fastest HE MCS within the rate asked for")
    {
    }

  private:
    void DoRun() override
    {
        WifiCellHelper cell;
        cell.SetRate(DataRate("100Mbps")); // MCS 7 is 86 Mbit/s, MCS 8 103.2
        NS_TEST_ASSERT_MSG_EQ(cell.GetMcs(), 7u, "100 Mbit/s");
        cell.SetRate(DataRate("1Gbps"));
        NS_TEST_ASSERT_MSG_EQ(cell.GetMcs(), 11u, "above every MCS");
        cell.SetRate(DataRate("1Mbps"));
        NS_TEST_ASSERT_MSG_EQ(cell.GetMcs(), 0u, "below every MCS");
    }
};

/**
 * The air time of one TCP transfer across the cell, from IEEE 802.11ax's numbers alone (none
 * of the helper's rate table): the helper's cell is 20 MHz, one spatial stream, 800 ns guard
 * interval, one fixed HE MCS for data (ConstantRateWifiManager), no RTS/CTS (ns-3's threshold
 * is above any frame here), A-MPDUs under an immediate block ack (HE stations set up the
 * agreement on their first QoS data), A-MSDU off, A-MPDU at most 65535 bytes, TCP segments of
 * 1448 bytes with timestamps (a 1500-byte IP MTU).
 */
struct HeAirTime
{
    uint32_t bitsPerSubcarrier; //!< of the MCS's modulation
    double codingRate;          //!< of the MCS

    static constexpr double SYMBOL = 13.6e-6;    //!< 12.8 us OFDM symbol + 0.8 us GI
    static constexpr uint32_t SUBCARRIERS = 234; //!< data subcarriers of a 242-tone (20 MHz) RU
    /// L-STF 8 + L-LTF 8 + L-SIG 4 + RL-SIG 4 + HE-SIG-A 8 + HE-STF 4 + one HE-LTF 8 (2x, 1.6 GI)
    static constexpr double PREAMBLE = 44e-6;
    static constexpr double PPDU_MAX = 5484e-6; //!< aPPDUMaxTime
    static constexpr double SIFS = 16e-6;
    static constexpr double SLOT = 9e-6;
    /// AC_BE: AIFSN 3 after SIFS, then on average CWmin / 2 = 7.5 slots of backoff
    static constexpr double ACCESS = SIFS + 3 * SLOT + 7.5 * SLOT;
    /// Compressed block ack, 32 bytes, at 24 Mbit/s (the highest mandatory non-HT rate not
    /// above the data rate, with no basic rate set): 20 us preamble + ceil((16 + 256 + 6) / 96)
    /// = 3 symbols of 4 us.
    static constexpr double BLOCK_ACK = 32e-6;
    /// A-MPDU subframe of a full segment: 4 delimiter + QoS MAC header 26 + LLC/SNAP 8 + IPv4 20
    /// + TCP 20 + timestamps 12 + 1448 + FCS 4 = 1542, padded to 1544
    static constexpr uint32_t DATA_SUBFRAME = 1544;
    static constexpr uint32_t SEGMENT = 1448;
    /// A TCP ACK's subframe: 4 + 26 + 8 + 20 + 32 + 4 = 94, padded to 96
    static constexpr uint32_t ACK_SUBFRAME = 96;

    /// \return an HE SU PPDU's duration for `bytes` of A-MPDU (16 service + 6 tail bits)
    double Ppdu(uint64_t bytes) const
    {
        const double bitsPerSymbol = SUBCARRIERS * bitsPerSubcarrier * codingRate;
        return PREAMBLE + std::ceil((16 + 8.0 * bytes + 6) / bitsPerSymbol) * SYMBOL;
    }

    /// \return the MPDUs of full segments that fit one PPDU of at most aPPDUMaxTime
    uint32_t SegmentsPerAmpdu() const
    {
        uint32_t n = 1;
        while (Ppdu((n + 1) * DATA_SUBFRAME) <= PPDU_MAX && (n + 1) * DATA_SUBFRAME <= 65535)
        {
            ++n;
        }
        return n;
    }

    /**
     * \param bytes the TCP payload
     * \return its segments in full A-MPDUs, each won by a mean channel access and answered
     *         by a block ack, and for each the receiver's A-MPDU of TCP ACKs (one per two
     *         segments), also with its access and block ack
     */
    double Transfer(uint64_t bytes) const
    {
        uint64_t segments = (bytes + SEGMENT - 1) / SEGMENT;
        const uint32_t perAmpdu = SegmentsPerAmpdu();
        double t = 0;
        while (segments > 0)
        {
            const uint64_t n = std::min<uint64_t>(segments, perAmpdu);
            segments -= n;
            t += ACCESS + Ppdu(n * DATA_SUBFRAME) + SIFS + BLOCK_ACK;
            t += ACCESS + Ppdu((n + 1) / 2 * ACK_SUBFRAME) + SIFS + BLOCK_ACK;
        }
        return t;
    }
};

/**
 * A message to the last station from every other, one at a time: all arrive, each in the air
 * time IEEE 802.11ax gives its bytes at the MCS (HeAirTime).
 */
class WifiCellDeliveryTestCase : public TestCase
{
  public:
    /**
     * \param rate the rate asked of the helper
     * \param mcs the HE MCS the standard's table gives for it (the fastest at most `rate`)
     * \param air that MCS's modulation and coding
     */
    WifiCellDeliveryTestCase(DataRate rate, uint32_t mcs, HeAirTime air)
        : TestCase("four stations at HE MCS " + std::to_string(mcs) +
                   ": every message arrives, in 802.11ax's air time"),
          m_rate(rate),
          m_air(air)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        const uint64_t bytes = 200000;
        WifiCellHelper cell;
        cell.SetRate(m_rate);
        cell.Install(n);
        const std::vector<Ptr<MessageTransport>> transports = cell.GetTransports();
        std::vector<double> delivered;
        const Time start = MilliSeconds(300);
        transports[n - 1]->Listen(1,
                                  MessageTransport::ReceiveCallback([&](uint32_t, uint64_t, uint64_t) {
                                      delivered.push_back((Simulator::Now() - start).GetSeconds());
                                  }));
        transports[n - 1]->Listen(2, MessageTransport::ReceiveCallback([](uint32_t, uint64_t, uint64_t) {}));
        // One station after another sends to the last, so the air carries one flow at a time.
        // A byte 250 ms before each message opens its connection, resolves ARP (whose request
        // waits a random 0 to 10 ms) and sets up the block ack agreements, so the timed
        // message is the payload's air time alone.
        for (uint32_t s = 0; s + 1 < n; ++s)
        {
            Simulator::Schedule(start + Seconds(0.5 * s) - MilliSeconds(250), [&, s]() {
                transports[s]->Send(n - 1, 2, 0, 1);
            });
            Simulator::Schedule(start + Seconds(0.5 * s), [&, s]() {
                transports[s]->Send(n - 1, 1, 0, bytes);
            });
        }
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(delivered.size(), std::size_t(n - 1), "every message arrives");
        // The payload and the transport's 24-byte message header.
        const double expected = m_air.Transfer(bytes + 24);
        // The computation packs every A-MPDU full and draws every backoff at its mean. TCP's
        // slow start sends the first A-MPDUs part full (up to three more exchanges of data
        // and TCP ACKs, about 0.4 ms each at MCS 7: 5% of 22 ms), and a backoff of 0 to 15
        // slots moves each of some 16 accesses by up to 67.5 us (at most 5%, far less on
        // average). 12% holds both and still tells a guard interval of 3.2 us (16 us symbols,
        // +16%) or the next MCS at either side (at MCS 7: -17%, +11% of the data's time; MCS
        // 4's neighbours differ by 33% and 50%).
        const double tolerance = 0.12;
        for (uint32_t s = 0; s < delivered.size(); ++s)
        {
            const double took = delivered[s] - 0.5 * s;
            std::clog << "Wi-Fi: " << bytes << " B from station " << s << " in " << took * 1e3
                      << " ms, 802.11ax air time " << expected * 1e3 << " ms\n";
            NS_TEST_ASSERT_MSG_EQ_TOL(took,
                                      expected,
                                      tolerance * expected,
                                      "station " << s << ": " << bytes << " B took " << took
                                                 << " s, 802.11ax's air time is " << expected);
        }
    }

    DataRate m_rate; //!< asked of the helper
    HeAirTime m_air; //!< the standard's numbers for its MCS
};

class WifiCellTestSuite : public TestSuite
{
  public:
    WifiCellTestSuite()
        : TestSuite("uniference-wifi-cell")
    {
        AddTestCase(new WifiCellMcsTestCase);
        // MCS 7: 64-QAM (6 bits), rate 5/6; MCS 4: 16-QAM (4 bits), rate 3/4.
        AddTestCase(new WifiCellDeliveryTestCase(DataRate("86Mbps"), 7, HeAirTime{6, 5.0 / 6}));
        AddTestCase(new WifiCellDeliveryTestCase(DataRate("60Mbps"), 4, HeAirTime{4, 3.0 / 4}));
    }
};

static WifiCellTestSuite g_wifiCellTestSuite;
