/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Built only where ns-3 has its mpi module (NS3_MPI): elsewhere this file is empty, and
// IbFabricHelper refuses to cut a fabric.
#ifdef NS3_MPI

#include "ib-remote-channel.h"

#include "ib-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbRemoteChannel");

NS_OBJECT_ENSURE_REGISTERED(IbRemoteChannel);

TypeId
IbRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbRemoteChannel")
                            .SetParent<IbChannel>()
                            .SetGroupName("Uniference")
                            .AddConstructor<IbRemoteChannel>();
    return tid;
}

IbRemoteChannel::IbRemoteChannel()
    : m_nextOut{0, 0},
      m_nextIn{0, 0}
{
}

bool
IbRemoteChannel::IsRemote(Ptr<const IbNetDevice> end) const
{
    return end->GetNode()->GetSystemId() != MpiInterface::GetSystemId();
}

void
IbRemoteChannel::PrepareEnd(Ptr<IbNetDevice> end)
{
    NS_ABORT_MSG_UNLESS(MpiInterface::IsEnabled(),
                        "IbRemoteChannel: a cable between processes needs MpiInterface::Enable "
                        "before the simulation runs");
    NS_ABORT_MSG_UNLESS(GetDelay() > Time(0),
                        "IbRemoteChannel: a cable between processes needs a delay (the "
                        "lookahead); this one has none");
    if (IsRemote(end))
    {
        return;
    }
    // ns-3's MPI interface hands a message to the MpiReceiver of its node and interface.
    Ptr<MpiReceiver> receiver = end->GetObject<MpiReceiver>();
    if (!receiver)
    {
        receiver = CreateObject<MpiReceiver>();
        end->AggregateObject(receiver);
    }
    const std::size_t index = GetDevice(0) == end ? 0 : 1;
    receiver->SetReceiveCallback(MakeCallback(&IbRemoteChannel::Receive, this).Bind(index));
}

void
IbRemoteChannel::CarryPacket(const IbNetDevice* from, const IbPacket& packet, int64_t handOverPs)
{
    Message message{};
    message.kind = PACKET;
    message.a = handOverPs;
    message.packet = packet;
    Send(from, message);
}

void
IbRemoteChannel::CarryCredits(const IbNetDevice* from,
                              int64_t startPs,
                              int64_t arrivalPs,
                              uint8_t vl,
                              int64_t freedTotal,
                              bool merge)
{
    Message message{};
    message.kind = merge ? MERGE : CREDITS;
    message.vl = vl;
    message.a = startPs;
    message.b = arrivalPs;
    message.freedTotal = freedTotal;
    Send(from, message);
}

void
IbRemoteChannel::Send(const IbNetDevice* from, const Message& message)
{
    Ptr<IbNetDevice> to = GetPeer(from);
    Message numbered = message;
    numbered.seq = m_nextOut[GetDevice(0) == from ? 0 : 1]++;
    Ptr<Packet> carrier =
        Create<Packet>(reinterpret_cast<const uint8_t*>(&numbered), sizeof(Message));
    MpiInterface::SendPacket(carrier,
                             Simulator::Now() + GetDelay(),
                             to->GetNode()->GetId(),
                             to->GetIfIndex());
}

void
IbRemoteChannel::Receive(std::size_t end, Ptr<Packet> packet)
{
    NS_ABORT_MSG_UNLESS(packet->GetSize() == sizeof(Message),
                        "IbRemoteChannel: a message of " << packet->GetSize()
                                                         << " bytes, not one of this cable's");
    Message message;
    packet->CopyData(reinterpret_cast<uint8_t*>(&message), sizeof(Message));
    if (message.seq != m_nextIn[end])
    {
        // One sent before it is due at this same nanosecond and comes next.
        m_early[end].emplace(message.seq, message);
        return;
    }
    Deliver(end, message);
    for (auto it = m_early[end].begin(); it != m_early[end].end() && it->first == m_nextIn[end];
         it = m_early[end].erase(it))
    {
        Deliver(end, it->second);
    }
}

void
IbRemoteChannel::Deliver(std::size_t end, const Message& message)
{
    ++m_nextIn[end];
    Ptr<IbNetDevice> device = DynamicCast<IbNetDevice>(GetDevice(end));
    switch (message.kind)
    {
    case PACKET:
        device->TakePacket(message.packet, message.a);
        break;
    case CREDITS:
    case MERGE:
        device->TakeCredits(message.a,
                            message.b,
                            message.vl,
                            message.freedTotal,
                            message.kind == MERGE);
        break;
    }
}

} // namespace ns3

#endif // NS3_MPI
