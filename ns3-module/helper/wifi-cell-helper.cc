/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wifi-cell-helper.h"

#include "ns3/abort.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/log.h"
#include "ns3/mobility-helper.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/vector.h"
#include "ns3/wifi-helper.h"
#include "ns3/wifi-mac-helper.h"
#include "ns3/yans-wifi-helper.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WifiCellHelper");

namespace
{
// HE rates at 20 MHz, one spatial stream, 800 ns guard interval (IEEE 802.11ax, 242-tone RU):
// data subcarriers 234 x bits per symbol x coding rate / 13.6 us per symbol.
constexpr uint64_t HE_MCS_BPS[] = {8'600'000,   17'200'000,  25'800'000,  34'400'000,
                                   51'600'000,  68'800'000,  77'400'000,  86'000'000,
                                   103'200'000, 114'700'000, 129'000'000, 143'400'000};
constexpr uint32_t HE_MCS_COUNT = sizeof(HE_MCS_BPS) / sizeof(HE_MCS_BPS[0]);
} // namespace

WifiCellHelper::WifiCellHelper()
    : m_mcs(7),
      m_spacing(10)
{
}

DataRate
WifiCellHelper::HeMcsRate(uint32_t mcs)
{
    NS_ABORT_MSG_UNLESS(mcs < HE_MCS_COUNT, "WifiCellHelper: no HE MCS " << mcs);
    return DataRate(HE_MCS_BPS[mcs]);
}

void
WifiCellHelper::SetRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    m_mcs = 0;
    for (uint32_t mcs = 0; mcs < HE_MCS_COUNT; ++mcs)
    {
        if (HE_MCS_BPS[mcs] <= rate.GetBitRate())
        {
            m_mcs = mcs;
        }
    }
    NS_LOG_LOGIC("HE MCS " << m_mcs << " (" << HeMcsRate(m_mcs) << ") for " << rate);
}

uint32_t
WifiCellHelper::GetMcs() const
{
    return m_mcs;
}

void
WifiCellHelper::SetSpacing(double spacing)
{
    NS_ABORT_MSG_UNLESS(spacing > 0, "WifiCellHelper: spacing must be positive");
    m_spacing = spacing;
}

void
WifiCellHelper::SetTcpVariant(TypeId variant)
{
    m_tcpVariant = variant;
}

void
WifiCellHelper::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    m_transportHelper.SetAttribute(name, value);
}

NodeContainer
WifiCellHelper::Install(uint32_t n)
{
    NS_LOG_FUNCTION(this << n);
    NS_ABORT_MSG_IF(m_transports.GetN() > 0, "WifiCellHelper: Install called twice");
    NS_ABORT_MSG_IF(n == 0, "WifiCellHelper: a cell needs a station");
    NodeContainer stations(n);

    YansWifiChannelHelper channel = YansWifiChannelHelper::Default();
    YansWifiPhyHelper phy;
    phy.SetChannel(channel.Create());
    phy.Set("ChannelSettings", StringValue("{0, 20, BAND_5GHZ, 0}"));
    WifiHelper wifi;
    wifi.SetStandard(WIFI_STANDARD_80211ax);
    // ns-3's HeConfiguration defaults to the 3200 ns guard interval (16 us symbols, MCS 7 at
    // 73.1 Mbit/s); the rates above are the 800 ns ones.
    wifi.ConfigHeOptions("GuardInterval", TimeValue(NanoSeconds(800)));
    const std::string mode = "HeMcs" + std::to_string(m_mcs);
    wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager",
                                 "DataMode",
                                 StringValue(mode),
                                 "ControlMode",
                                 StringValue("HeMcs0"));
    WifiMacHelper mac;
    mac.SetType("ns3::AdhocWifiMac");
    NetDeviceContainer devices = wifi.Install(phy, mac, stations);

    // Evenly on a circle, neighbours m_spacing apart.
    MobilityHelper mobility;
    Ptr<ListPositionAllocator> positions = CreateObject<ListPositionAllocator>();
    const double radius = n == 1 ? 0 : m_spacing / (2 * std::sin(M_PI / n));
    for (uint32_t i = 0; i < n; ++i)
    {
        const double angle = 2 * M_PI * i / n;
        positions->Add(Vector(radius * std::cos(angle), radius * std::sin(angle), 0));
    }
    mobility.SetPositionAllocator(positions);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(stations);

    InternetStackHelper stack;
    stack.Install(stations);
    Ipv4InterfaceContainer interfaces =
        Ipv4AddressHelper("10.4.0.0", "255.255.255.0").Assign(devices);
    std::vector<Ipv4Address> addresses;
    for (uint32_t i = 0; i < n; ++i)
    {
        addresses.push_back(interfaces.GetAddress(i));
    }
    MessageTransportHelper::SetTcpVariant(stations, m_tcpVariant);
    m_transports = m_transportHelper.Install(stations, addresses);
    return stations;
}

std::vector<Ptr<MessageTransport>>
WifiCellHelper::GetTransports() const
{
    return MessageTransportHelper::GetTransports(m_transports);
}

} // namespace ns3
