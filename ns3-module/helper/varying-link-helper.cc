/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "varying-link-helper.h"

#include "ns3/error-model.h"
#include "ns3/link-condition.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/varying-link-channel.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VaryingLinkHelper");

VaryingLinkHelper::VaryingLinkHelper()
    : m_perDirectionRates(false)
{
    m_deviceFactory.SetTypeId("ns3::PointToPointNetDevice");
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_channelFactory.SetTypeId("ns3::VaryingLinkChannel");
    m_pathFactory.SetTypeId("ns3::FixedDelayCondition");
}

void
VaryingLinkHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
VaryingLinkHelper::SetDataRates(DataRate firstToSecond, DataRate secondToFirst)
{
    m_perDirectionRates = true;
    m_rates[0] = firstToSecond;
    m_rates[1] = secondToFirst;
}

void
VaryingLinkHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
VaryingLinkHelper::SetPathAttribute(const std::string& name, const AttributeValue& value)
{
    m_pathFactory.Set(name, value);
}

NetDeviceContainer
VaryingLinkHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    NS_LOG_FUNCTION(this << a << b);
    Ptr<VaryingLinkChannel> channel = m_channelFactory.Create<VaryingLinkChannel>();
    channel->AddCondition(m_pathFactory.Create<LinkCondition>());
    for (const ObjectFactory& impairment : m_impairments)
    {
        channel->AddCondition(impairment.Create<LinkCondition>());
    }
    NS_LOG_LOGIC("path " << m_pathFactory.GetTypeId().GetName() << " and " << m_impairments.size()
                         << " impairments between node " << a->GetId() << " and node "
                         << b->GetId());
    NetDeviceContainer devices;
    Ptr<Node> ends[2] = {a, b};
    for (int i = 0; i < 2; ++i)
    {
        Ptr<PointToPointNetDevice> device = m_deviceFactory.Create<PointToPointNetDevice>();
        device->SetAddress(Mac48Address::Allocate());
        if (m_perDirectionRates)
        {
            device->SetDataRate(m_rates[i]);
        }
        ends[i]->AddDevice(device);
        Ptr<Queue<Packet>> queue = m_queueFactory.Create<Queue<Packet>>();
        device->SetQueue(queue);
        // As PointToPointHelper does: the traffic-control layer learns when the queue fills.
        Ptr<NetDeviceQueueInterface> interface = CreateObject<NetDeviceQueueInterface>();
        interface->GetTxQueue(0)->ConnectQueueTraces(queue);
        device->AggregateObject(interface);
        if (m_errorModelFactory.IsTypeIdSet())
        {
            device->SetReceiveErrorModel(m_errorModelFactory.Create<ErrorModel>());
        }
        device->Attach(channel);
        devices.Add(device);
    }
    channel->Connect();
    return devices;
}

DataRate
VaryingLinkHelper::ShannonRate(double bandwidth, double snrDb)
{
    return DataRate(uint64_t(bandwidth * std::log2(1 + std::pow(10.0, snrDb / 10))));
}

} // namespace ns3
