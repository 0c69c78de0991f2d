/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-channel.h"

#include "ethernet-net-device.h"
#include "fabric-first-scheduler.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetChannel");

NS_OBJECT_ENSURE_REGISTERED(EthernetChannel);

TypeId
EthernetChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EthernetChannel")
            .SetParent<Channel>()
            .SetGroupName("Uniference")
            .AddConstructor<EthernetChannel>()
            .AddAttribute("Delay",
                          "One-way propagation delay of the cable.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&EthernetChannel::m_delay),
                          MakeTimeChecker(Seconds(0)));
    return tid;
}

EthernetChannel::EthernetChannel() = default;

EthernetChannel::~EthernetChannel() = default;

bool
EthernetChannel::Attach(Ptr<EthernetNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    for (Ptr<EthernetNetDevice>& end : m_ends)
    {
        if (!end)
        {
            end = device;
            return true;
        }
    }
    return false;
}

void
EthernetChannel::Transmit(Ptr<Packet> frame,
                          const EthernetNetDevice* sender,
                          Time serialization) const
{
    // Per frame: no logging here, the devices trace what a user may want to see.
    const Ptr<EthernetNetDevice>& receiver = PeekPointer(m_ends[0]) == sender ? m_ends[1] : m_ends[0];
    if (!receiver)
    {
        return; // an unplugged far end: the frame falls off the cable
    }
    Arrive(receiver, frame, serialization + m_delay);
}

void
EthernetChannel::Arrive(const Ptr<EthernetNetDevice>& receiver, Ptr<Packet> frame, Time after)
{
    const uint32_t node = receiver->GetNode()->GetId();
    // Rank 0 is the RDMA fabric's event; ports follow, each by node and interface.
    FabricFirstScheduler::PromoteNext(1 + ((uint64_t(node) << 24) | receiver->GetIfIndex()));
    // In the receiver's node context, so that its traces and logs name the right node.
    Simulator::ScheduleWithContext(node, after, &EthernetNetDevice::Receive, receiver, frame);
}

Ptr<EthernetNetDevice>
EthernetChannel::GetPeer(const EthernetNetDevice* device) const
{
    return PeekPointer(m_ends[0]) == device ? m_ends[1] : m_ends[0];
}

Time
EthernetChannel::GetDelay() const
{
    return m_delay;
}

bool
EthernetChannel::CrossesProcesses() const
{
    return false;
}

std::size_t
EthernetChannel::GetNDevices() const
{
    return m_ends[1] ? 2 : (m_ends[0] ? 1 : 0);
}

Ptr<NetDevice>
EthernetChannel::GetDevice(std::size_t i) const
{
    NS_ASSERT_MSG(i < GetNDevices(), "EthernetChannel: no device " << i);
    return m_ends[i];
}

void
EthernetChannel::DoDispose()
{
    m_ends[0] = nullptr;
    m_ends[1] = nullptr;
    Channel::DoDispose();
}

} // namespace ns3
