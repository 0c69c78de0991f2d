/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-subnet.h"

#include "ns3/arp-cache.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/queue.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetSubnet");

Ptr<EthernetNetDevice>
AddEthernetEndpointDevice(Ptr<Node> node, const ObjectFactory& devices, const ObjectFactory& queues)
{
    NS_LOG_FUNCTION(node);
    Ptr<EthernetNetDevice> device = devices.Create<EthernetNetDevice>();
    device->SetAddress(Mac48Address::Allocate());
    node->AddDevice(device);
    Ptr<Queue<Packet>> queue = queues.Create<Queue<Packet>>();
    device->SetQueue(queue);
    Ptr<NetDeviceQueueInterface> queueInterface = CreateObject<NetDeviceQueueInterface>();
    queueInterface->GetTxQueue(0)->ConnectQueueTraces(queue);
    device->AggregateObject(queueInterface);
    return device;
}

std::vector<Ipv4Address>
AssignStaticSubnet(const NetDeviceContainer& devices, Ipv4Address network, Ipv4Mask mask)
{
    NS_LOG_FUNCTION(devices.GetN() << network << mask);
    Ipv4AddressHelper addresses(network, mask);
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
    std::vector<Ipv4Address> assigned;
    Ptr<ArpCache> arp;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        assigned.push_back(interfaces.GetAddress(i));
        auto [ipv4, index] = interfaces.Get(i);
        Ptr<Ipv4Interface> interface = DynamicCast<Ipv4L3Protocol>(ipv4)->GetInterface(index);
        if (!arp)
        {
            arp = interface->GetArpCache();
        }
        else
        {
            interface->SetArpCache(arp);
        }
        ArpCache::Entry* entry = arp->Add(assigned.back());
        entry->SetMacAddress(devices.Get(i)->GetAddress());
        entry->MarkPermanent();
    }
    return assigned;
}

} // namespace ns3
