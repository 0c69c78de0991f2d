/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "lte-cell-helper.h"

#include "star-network-helper.h"

#include "ns3/abort.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/log.h"
#include "ns3/lte-helper.h"
#include "ns3/mobility-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/point-to-point-epc-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/vector.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LteCellHelper");

LteCellHelper::LteCellHelper()
    : m_distance(100)
{
}

void
LteCellHelper::SetDistance(double metres)
{
    NS_ABORT_MSG_UNLESS(metres > 0, "LteCellHelper: distance must be positive");
    m_distance = metres;
}

void
LteCellHelper::SetBackhaulAttribute(const std::string& name, const AttributeValue& value)
{
    StarNetworkHelper::SetLinkAttribute(m_backhaul, name, value);
}

void
LteCellHelper::SetTcpVariant(TypeId variant)
{
    m_tcpVariant = variant;
}

void
LteCellHelper::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    m_transportHelper.SetAttribute(name, value);
}

NodeContainer
LteCellHelper::Install(uint32_t devices, uint32_t servers)
{
    NS_LOG_FUNCTION(this << devices << servers);
    NS_ABORT_MSG_IF(m_transports.GetN() > 0, "LteCellHelper: Install called twice");
    NS_ABORT_MSG_IF(devices == 0 || servers == 0,
                    "LteCellHelper: needs a device and a server (devices "
                        << devices << ", servers " << servers << ")");
    Ptr<LteHelper> lte = CreateObject<LteHelper>();
    Ptr<PointToPointEpcHelper> epc = CreateObject<PointToPointEpcHelper>();
    lte->SetEpcHelper(epc);
    lte->SetEnbDeviceAttribute("DlBandwidth", UintegerValue(100)); // resource blocks: 20 MHz
    lte->SetEnbDeviceAttribute("UlBandwidth", UintegerValue(100));

    NodeContainer ues(devices);
    NodeContainer hosts(servers);
    NodeContainer enb(1);
    InternetStackHelper stack;
    stack.Install(hosts);
    stack.Install(ues);

    // Servers: one link each to the packet gateway, in 1.0.0.0/8 (EPC's UEs are 7.0.0.0/8).
    Ptr<Node> pgw = epc->GetPgwNode();
    Ipv4AddressHelper backhaulAddresses("1.0.0.0", "255.255.255.0");
    std::vector<Ipv4Address> serverAddresses;
    Ipv4StaticRoutingHelper routing;
    for (uint32_t s = 0; s < servers; ++s)
    {
        NetDeviceContainer link = m_backhaul.Install(pgw, hosts.Get(s));
        Ipv4InterfaceContainer interfaces = backhaulAddresses.Assign(link);
        backhaulAddresses.NewNetwork();
        serverAddresses.push_back(interfaces.GetAddress(1));
        routing.GetStaticRouting(hosts.Get(s)->GetObject<Ipv4>())
            ->AddNetworkRouteTo("7.0.0.0", "255.0.0.0", interfaces.GetAddress(0), 1);
    }

    MobilityHelper mobility;
    Ptr<ListPositionAllocator> positions = CreateObject<ListPositionAllocator>();
    positions->Add(Vector(0, 0, 0)); // the eNB
    for (uint32_t d = 0; d < devices; ++d)
    {
        const double angle = 2 * M_PI * d / devices;
        positions->Add(Vector(m_distance * std::cos(angle), m_distance * std::sin(angle), 0));
    }
    mobility.SetPositionAllocator(positions);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(enb);
    mobility.Install(ues);

    NetDeviceContainer enbDevices = lte->InstallEnbDevice(enb);
    NetDeviceContainer ueDevices = lte->InstallUeDevice(ues);
    Ipv4InterfaceContainer ueInterfaces = epc->AssignUeIpv4Address(ueDevices);
    std::vector<Ipv4Address> addresses;
    for (uint32_t d = 0; d < devices; ++d)
    {
        routing.GetStaticRouting(ues.Get(d)->GetObject<Ipv4>())
            ->SetDefaultRoute(epc->GetUeDefaultGatewayAddress(), 1);
        addresses.push_back(ueInterfaces.GetAddress(d));
    }
    lte->Attach(ueDevices, enbDevices.Get(0));
    // The helpers own the core's nodes and the cell's configuration, and disposing of them
    // tears the core down: a destroy event holds them until the simulation ends.
    Simulator::ScheduleDestroy([lte, epc]() {});
    addresses.insert(addresses.end(), serverAddresses.begin(), serverAddresses.end());

    NodeContainer endpoints(ues, hosts);
    MessageTransportHelper::SetTcpVariant(endpoints, m_tcpVariant);
    m_transports = m_transportHelper.Install(endpoints, addresses);
    return endpoints;
}

std::vector<Ptr<MessageTransport>>
LteCellHelper::GetTransports() const
{
    return MessageTransportHelper::GetTransports(m_transports);
}

} // namespace ns3
